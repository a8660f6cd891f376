# ruff: noqa: RUF001 - words in other scripts are the point
"""The demo catalog in pl, uk, ru and zh-hans (pure data: no Django).

The demo products are built from templates (gifts.demo_catalog), so the templates are
translated: a template's noun, its variants and its sentence of description, per language.
A product's name is its noun and variant in the language's order, its description the
sentence and a closing line naming its interests by their labels (gifts.interest_vocabulary).
Each category's templates are in a module of this package, in the format below; a template
missing from them would show its English text (the fallback), so a test requires them all.
"""

from __future__ import annotations

from importlib import import_module

from gifts.demo_catalog import TEST_PRODUCTS, family_of, mentioned_tags, template_variants
from gifts.interest_vocabulary import vocabulary_rows

LANGUAGES = ("pl", "uk", "ru", "zh-hans")
_NAMES = {
    "pl": "{noun} ({variant})",
    "uk": "{noun} ({variant})",
    "ru": "{noun} ({variant})",
    "zh-hans": "{variant}{noun}",
}
_CLOSERS = {
    "pl": "Dla osób, które lubią: {interests}.",
    "uk": "Для тих, хто любить: {interests}.",
    "ru": "Для тех, кто любит: {interests}.",
    "zh-hans": "适合喜欢{interests}的人。",
}
_LIST_SEPARATORS = {"pl": ", ", "uk": ", ", "ru": ", ", "zh-hans": "、"}
_SENTENCE_GAPS = {"zh-hans": ""}

# Each module's TEMPLATES: "== category | English noun", then one line per language:
# noun | variants (;) | sentence
_CATEGORY_MODULES = tuple(
    import_module(f"{__name__}.{category}")
    for category in (
        "art_supplies",
        "beauty",
        "books",
        "electronics",
        "fashion",
        "food",
        "games",
        "garden",
        "home",
        "jewelry",
        "kitchen",
        "music",
        "outdoors",
        "pets",
        "sports",
        "stationery",
        "toys",
        "wellness",
    )
)

# The fixed test products, translated whole: sku → language → (name, description).
_FIXED = {
    "GG-TEST-LAST3": {
        "pl": ("Limitowane filiżanki do espresso", "Dwie porcelanowe filiżanki do espresso z krótkiej, limitowanej serii. Dla osób, które lubią: kawa, gotowanie."),
        "uk": ("Лімітовані чашки для еспресо", "Дві порцелянові чашки для еспресо з невеликої лімітованої серії. Для тих, хто любить: кава, кулінарія."),
        "ru": ("Лимитированные чашки для эспрессо", "Две фарфоровые чашки для эспрессо из небольшой лимитированной серии. Для тех, кто любит: кофе, кулинария."),
        "zh-hans": ("限量版意式浓缩咖啡杯", "小批量限量生产的两只瓷质浓缩咖啡杯。适合喜欢咖啡、烹饪的人。"),
    },
    "GG-TEST-SOLDOUT": {
        "pl": ("Wyprzedany czajnik do przelewu", "Czajnik z wąską wylewką do powolnego, równego parzenia kawy. Obecnie wyprzedany."),
        "uk": ("Розпроданий чайник для пуровера", "Чайник із вузьким носиком для повільного, рівномірного заварювання кави. Наразі розпроданий."),
        "ru": ("Распроданный чайник для пуровера", "Чайник с узким носиком для медленного, равномерного заваривания кофе. Сейчас распродан."),
        "zh-hans": ("已售罄的手冲壶", "细长壶嘴，适合缓慢均匀地手冲咖啡。目前已售罄。"),
    },
    "GG-TEST-GONE": {
        "pl": ("Wycofana waga do kawy", "Waga z wbudowanym minutnikiem do odmierzania porcji kawy. Nie jest już produkowana."),
        "uk": ("Знята з виробництва ваги для кави", "Ваги з вбудованим таймером для зважування порцій кави. Більше не випускаються."),
        "ru": ("Снятые с производства весы для кофе", "Весы со встроенным таймером для взвешивания порций кофе. Больше не выпускаются."),
        "zh-hans": ("已停产的咖啡秤", "内置计时器的咖啡秤，用于称量咖啡粉。已停产。"),
    },
}  # fmt: skip


def _templates() -> dict[str, dict[str, tuple[str, tuple[str, ...], str]]]:
    """family → language → (noun, variants, sentence)."""
    found: dict[str, dict[str, tuple[str, tuple[str, ...], str]]] = {}
    family = ""
    lines = "\n".join(module.TEMPLATES for module in _CATEGORY_MODULES).splitlines()
    for line in filter(str.strip, lines):
        if line.startswith("=="):
            category, noun = (cell.strip() for cell in line[2:].split("|"))
            family = family_of(category, noun)
            continue
        language, noun, variants, sentence = (cell.strip() for cell in line.split("|"))
        found.setdefault(family, {})[language] = (
            noun,
            tuple(v.strip() for v in variants.split(";")),
            sentence,
        )
    return found


def demo_translations(products: list[dict]) -> list[dict]:
    """Name and description per language for each demo product whose template is translated:
    dicts of sku, language, name, description."""
    labels = {(tag, language): label for tag, language, label, _ in vocabulary_rows()}
    english = template_variants()
    translated = _templates()
    fixed_skus = {product["sku"] for product in TEST_PRODUCTS}
    rows = []
    for product in products:
        if product["sku"] in fixed_skus:
            for language, (name, description) in _FIXED.get(product["sku"], {}).items():
                rows.append(
                    {
                        "sku": product["sku"],
                        "language": language,
                        "name": name,
                        "description": description,
                    }
                )
            continue
        by_language = translated.get(product.get("family", ""))
        if not by_language:
            continue
        noun, variants = english[product["family"]]
        index = variants.index(product["name"][: -len(noun) - 1])
        mentioned = mentioned_tags(product["tags"])
        for language, (local_noun, local_variants, sentence) in by_language.items():
            interests = _LIST_SEPARATORS[language].join(
                labels.get((tag, language), tag) for tag in mentioned
            )
            rows.append(
                {
                    "sku": product["sku"],
                    "language": language,
                    "name": _NAMES[language].format(noun=local_noun, variant=local_variants[index]),
                    "description": _SENTENCE_GAPS.get(language, " ").join(
                        (sentence, _CLOSERS[language].format(interests=interests))
                    ),
                }
            )
    return rows
