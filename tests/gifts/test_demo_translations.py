"""Every demo product reads naturally in every shipped language: each template of the demo
catalog is translated in pl, uk, ru and zh-hans, so no product falls back to English there."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from gifts.demo_catalog import demo_products, template_variants
from gifts.demo_translations import LANGUAGES, demo_translations


@pytest.fixture(scope="module")
def products() -> list[dict]:
    return demo_products()


@pytest.fixture(scope="module")
def translations(products) -> list[dict]:
    return demo_translations(products)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_demo_template_is_translated(products, translations, language):
    translated = {row["sku"] for row in translations if row["language"] == language}
    missing = sorted({p["family"] or p["sku"] for p in products if p["sku"] not in translated})
    assert missing == [], f"shown in English in {language}: {missing}"
    assert len(template_variants()) > 200  # the check covers the whole catalog


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_product_has_one_own_name_and_description_per_language(
    products, translations, language
):
    rows = [row for row in translations if row["language"] == language]
    assert Counter(row["sku"] for row in rows) == Counter(p["sku"] for p in products)
    english = {p["sku"]: p for p in products}
    for row in rows:
        # A translation that repeats the English text is a gap, not a translation.
        assert row["name"] != english[row["sku"]]["name"], row
        assert row["description"] != english[row["sku"]]["description"], row
        assert row["name"].strip() and row["description"].strip(), row
    # Variants line up with the English ones: two products never share a translated name.
    names = Counter(row["name"] for row in rows)
    assert [name for name, count in names.items() if count > 1] == []


@pytest.mark.parametrize("language", ["pl", "uk", "ru"])  # names read "noun (variant)"
def test_no_two_templates_share_a_translated_noun(products, translations, language):
    # Two kinds of product under one noun (a desk lamp and a table lamp) would read as one.
    family = {p["sku"]: p["family"] for p in products}
    by_noun: dict[str, set[str]] = defaultdict(set)
    for row in translations:
        if row["language"] == language and family[row["sku"]]:
            by_noun[row["name"].split(" (")[0]].add(family[row["sku"]])
    assert {noun: sorted(f) for noun, f in by_noun.items() if len(f) > 1} == {}


def test_a_product_of_an_unknown_template_gets_no_translation(products):
    # The fallback: a product no template covers keeps its own (English) text.
    stray = {**products[-1], "family": "garden/no-such-template"}
    assert demo_translations([stray]) == []
