"""The catalog in the person's language: interests in any shipped language find the catalog's
tags, products show their translation (or the catalog's own text), and staff edit both."""

from __future__ import annotations

import pytest

from gifts import catalog
from gifts.interest_vocabulary import vocabulary_rows
from gifts.interests import Vocabulary
from gifts.models import InterestTerm, Product, ProductTranslation
from tests.fixtures import start

VOCABULARY = Vocabulary(vocabulary_rows())


@pytest.mark.parametrize(
    ("interest", "tag"),
    [
        ("gardening", "gardening"),
        ("Gardener", "gardening"),  # an English word form, by its stem
        ("jazz", "music"),  # a near synonym the vocabulary lists
        ("Board Games", "board-games"),
        ("art supplies", "art_supplies"),  # a category
        ("ogrodnictwo", "gardening"),
        ("ogrodnictwem", "gardening"),  # Polish instrumental, by its stem
        ("herbatą", "tea"),  # a listed form: too short a stem to guess
        ("садівництво", "gardening"),
        ("садівництвом", "gardening"),
        ("чаєм", "tea"),
        ("садоводство", "gardening"),
        ("садоводством", "gardening"),
        ("чаем", "tea"),
        ("园艺", "gardening"),
        ("我喜欢园艺", "gardening"),  # no spaces in Chinese: the tag's word inside the text
        ("爵士乐", "music"),
    ],
)
def test_an_interest_in_any_shipped_language_names_the_catalogs_tag(interest, tag):
    assert tag in VOCABULARY.tags_for(interest)


def test_chinese_text_naming_two_interests_names_both():
    assert {"gardening", "tea"} <= VOCABULARY.tags_for("园艺和茶")


@pytest.mark.parametrize("interest", ["kawałek", "sad", "sailing", "茶几学"])
def test_other_words_do_not_borrow_a_tag_by_a_short_shared_start(interest):
    # "kawałek" (a piece) starts like "kawa" (coffee), "sad" like "садівництво" only in
    # transliteration; a word no tag names stands for itself (a tag added to a product later).
    found = VOCABULARY.tags_for(interest)
    assert "coffee" not in found and "gardening" not in found
    if interest == "sailing":
        assert found == {"sailing"}


def test_labels_in_each_language_fall_back_to_english_then_the_tag():
    assert [VOCABULARY.label("gardening", lang) for lang in ("pl", "uk", "ru", "zh-hans")] == [
        "ogrodnictwo",
        "садівництво",
        "садоводство",
        "园艺",
    ]
    assert VOCABULARY.label("gardening", "de") == "gardening"
    assert VOCABULARY.label("no-such-tag", "pl") == "no-such-tag"


@pytest.mark.parametrize(
    ("language", "interests", "expected_name"),
    [
        ("pl", ["ogrodnictwem", "herbata"], "Kolekcja herbat liściastych"),
        ("uk", ["садівництво", "чаєм"], "Колекція розсипного чаю"),
        ("ru", ["садоводством", "чай"], "Коллекция листового чая"),
        ("zh-hans", ["我喜欢园艺", "茶"], "散叶茶礼盒"),
        ("en", ["gardening", "tea"], "Loose Leaf Tea Collection"),
    ],
)
@pytest.mark.django_db
def test_suggestions_in_the_persons_language(api, demo_catalog, language, interests, expected_name):
    workflow_id = start(api)
    arguments = {
        "workflow_id": workflow_id,
        "relationship": "friend",
        "interests": interests,
        "budget_min": 25,
        "budget_max": 80,
        "currency": "USD",
        "limit": 6,
    }
    response = api.call("suggest_gifts", arguments, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status == 200
    gifts = response.body["gifts"]
    served = {tag for g in gifts for tag in g["tags"]}
    assert {"gardening", "tea"} <= served
    assert any(expected_name in g["name"] for g in gifts)
    for gift in gifts:
        product = Product.objects.get(pk=gift["product_id"])
        translation = product.translations.filter(language=language).first()
        # The translation where there is one, the catalog's own text otherwise.
        assert gift["name"] == (translation.name if translation else product.name)
        assert gift["tags"] == product.tags  # tags stay the catalog's: the widget labels them
    reasons = [r for g in gifts for r in g["match_reasons"]]
    assert any(f"'{interests[0]}'" in r and "(gardening)" in r for r in reasons) or language == "en"


@pytest.mark.django_db
def test_a_product_without_a_translation_shows_the_catalogs_text(demo_catalog):
    # The demo catalog is translated whole; a product staff add, or whose row they delete,
    # has none.
    untranslated = Product.objects.get(sku="GG-TEST-LAST3")
    ProductTranslation.objects.filter(product=untranslated, language="uk").delete()
    item = catalog.items_by_id([untranslated.pk])[untranslated.pk]
    fields = catalog.localized_fields(item, language="uk")
    assert (fields["name"], fields["description"]) == (untranslated.name, untranslated.description)


@pytest.mark.django_db
def test_staff_edit_translations_and_terms_in_the_admin(admin_client, demo_catalog):
    product = Product.objects.get(sku="GG-TEST-LAST3")
    page = admin_client.get(f"/admin/gifts/product/{product.pk}/change/")
    assert page.status_code == 200
    assert b"translations-TOTAL_FORMS" in page.content  # the inline, one row per language

    ProductTranslation.objects.filter(product=product, language="pl").delete()
    form = {
        "name": product.name,
        "description": product.description,
        "category": product.category,
        "tags": '["coffee", "cooking"]',
        "price": "30.00",
        "currency": "USD",
        "active": "on",
        "age_min": product.age_min,
        "age_max": product.age_max,
        "image": product.image,
        "image_width": product.image_width,
        "image_height": product.image_height,
        "image_alt": product.image_alt,
        "family": "",
        "max_per_order": product.max_per_order,
        "sku": product.sku,
        "stock_change": "",
    }
    # The inline's rows as the page sends them: the other languages kept, Polish added.
    existing = list(product.translations.all())
    form["translations-TOTAL_FORMS"] = str(len(existing) + 1)
    form["translations-INITIAL_FORMS"] = str(len(existing))
    for n, row in enumerate(existing):
        form |= {
            f"translations-{n}-id": row.pk,
            f"translations-{n}-product": product.pk,
            f"translations-{n}-language": row.language,
            f"translations-{n}-name": row.name,
            f"translations-{n}-description": row.description,
        }
    last = len(existing)
    form |= {
        f"translations-{last}-language": "pl",
        f"translations-{last}-name": "Filiżanki do espresso",
        f"translations-{last}-description": "",
        f"translations-{last}-product": product.pk,
    }
    saved = admin_client.post(f"/admin/gifts/product/{product.pk}/change/", form)
    assert saved.status_code == 302, saved.content.decode()[:2000]
    item = catalog.items_by_id([product.pk])[product.pk]
    fields = catalog.localized_fields(item, language="pl")
    assert fields["name"] == "Filiżanki do espresso"
    assert fields["description"] == product.description  # blank: the catalog's own

    added = admin_client.post(
        "/admin/gifts/interestterm/add/",
        {"tag": "coffee", "language": "pl", "label": "kawusia", "forms": '["kawusią"]'},
    )
    # One term per tag and language: the existing Polish one is edited instead.
    assert added.status_code == 200 and b"already exists" in added.content
    term = InterestTerm.objects.get(tag="coffee", language="pl")
    edited = admin_client.post(
        f"/admin/gifts/interestterm/{term.pk}/change/",
        {"tag": "coffee", "language": "pl", "label": "kawa", "forms": '["kawusią"]'},
    )
    assert edited.status_code == 302
    assert "coffee" in catalog.interest_vocabulary().tags_for("kawusią")
