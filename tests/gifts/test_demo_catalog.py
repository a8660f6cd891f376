"""The demo catalog is big, varied, deterministic, and seeding it is an idempotent upsert."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from gifts.catalog_seed import seed_demo_catalog
from gifts.demo_catalog import CATEGORY_CODES, demo_products
from gifts.demo_translations import demo_translations
from gifts.interest_vocabulary import vocabulary_rows
from gifts.models import InterestTerm, Product, ProductTranslation
from gifts.schemas import CATEGORIES
from gifts.selectors import RELATIONSHIP_HINTS

KEYS = {
    "sku",
    "name",
    "description",
    "category",
    "tags",
    "price",
    "currency",
    "stock",
    "active",
    "age_min",
    "age_max",
    "image",
    "image_width",
    "image_height",
    "image_alt",
    "family",
}


@pytest.fixture(scope="module")
def products() -> list[dict]:
    return demo_products()


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_catalog", *args, stdout=out)
    return out.getvalue().strip()


def test_catalog_is_large_and_covers_every_category(products):
    assert len(products) >= 540
    per_category = Counter(p["category"] for p in products)
    assert len(per_category) >= 12
    assert set(per_category) == set(CATEGORIES) == set(CATEGORY_CODES)
    assert min(per_category.values()) >= 25


def test_products_are_well_formed(products):
    for p in products:
        assert set(p) == KEYS
        assert p["currency"] == "USD"
        assert isinstance(p["price"], Decimal)
        assert p["price"] > 0
        assert p["price"].as_tuple().exponent == -2
        assert p["stock"] >= 0
        assert 0 <= p["age_min"] <= p["age_max"] <= 120
        assert p["tags"]
        assert all(tag == tag.lower() and tag.strip() for tag in p["tags"])
        assert p["name"] and p["description"]
    generated = [p for p in products if not p["sku"].startswith("GG-TEST-")]
    assert all(2 <= len(p["tags"]) <= 5 for p in generated)
    prices = [p["price"] for p in products]
    assert min(prices) <= 10 and max(prices) >= 300


def test_skus_and_names_are_unique(products):
    assert len({p["sku"] for p in products}) == len(products)
    assert len({p["name"] for p in products}) == len(products)


def test_some_products_are_sold_out_or_discontinued(products):
    sold_out = sum(p["stock"] == 0 for p in products)
    discontinued = sum(not p["active"] for p in products)
    assert 0.03 * len(products) <= sold_out <= 0.09 * len(products)
    assert 0.02 * len(products) <= discontinued <= 0.06 * len(products)


def test_fixed_test_products_come_first(products):
    first = {p["sku"]: p for p in products[:3]}
    assert list(first) == ["GG-TEST-LAST3", "GG-TEST-SOLDOUT", "GG-TEST-GONE"]
    assert first["GG-TEST-LAST3"]["stock"] == 3
    assert first["GG-TEST-LAST3"]["price"] == Decimal("30.00")
    assert first["GG-TEST-SOLDOUT"]["stock"] == 0
    assert first["GG-TEST-GONE"]["active"] is False


def test_catalog_is_deterministic():
    assert demo_products() == demo_products()


def test_tags_include_ranking_hints_but_never_sailing(products):
    tags = {tag for p in products for tag in p["tags"]}
    hinted = {tag for hints in RELATIONSHIP_HINTS.values() for tag in hints}
    assert hinted <= tags
    assert "sailing" not in tags
    assert not any("sailing" in p["description"].lower() for p in products)


@pytest.mark.django_db
def test_seed_command_is_idempotent(products):
    categories = len({p["category"] for p in products})
    first = seed()
    translations = len(demo_translations(products))
    terms = len(vocabulary_rows())
    assert first == (
        f"Catalog: {len(products)} products ({len(products)} created, 0 updated) "
        f"in {categories} categories; {translations} translations and {terms} interest terms added"
    )
    assert Product.objects.count() == len(products)
    assert ProductTranslation.objects.count() == translations
    # Staff's changes to translations and terms are theirs: seeding again keeps them.
    ProductTranslation.objects.filter(language="pl").update(name="Zmienione")
    InterestTerm.objects.filter(tag="tea", language="pl").update(label="herbatka")
    second = seed()
    assert f"({len(products)} created" not in second
    assert "(0 created, 0 updated)" in second
    assert "; 0 translations and 0 interest terms added" in second
    assert Product.objects.count() == len(products)
    assert set(ProductTranslation.objects.filter(language="pl").values_list("name", flat=True)) == {
        "Zmienione"
    }
    assert InterestTerm.objects.get(tag="tea", language="pl").label == "herbatka"


@pytest.mark.django_db
def test_seed_keeps_stock_unless_reset_and_repairs_other_fields(products):
    seed()
    sku = products[3]["sku"]
    Product.objects.filter(sku=sku).update(stock=999, name="Renamed")

    assert "(0 created, 1 updated)" in seed()
    product = Product.objects.get(sku=sku)
    assert product.name == products[3]["name"]
    assert product.stock == 999

    assert "(0 created, 1 updated)" in seed("--reset-stock")
    assert Product.objects.get(sku=sku).stock == products[3]["stock"]
    assert "(0 created, 0 updated)" in seed("--reset-stock")


@pytest.mark.django_db
def test_reseeding_an_unchanged_catalog_only_reads(products, django_assert_max_num_queries):
    seed_demo_catalog()
    # A SELECT each for the products, their ids, the translations and the interest terms held,
    # plus the transaction's savepoint statements; nothing written.
    with django_assert_max_num_queries(6) as captured:
        report = seed_demo_catalog()
    assert (report.created, report.updated, report.total) == (0, 0, len(products))
    assert (report.translations_created, report.terms_created) == (0, 0)
    assert sum("SELECT" in query["sql"] for query in captured.captured_queries) == 4
    # (A statement that writes, not a read that locks: PostgreSQL's reads say FOR UPDATE.)
    assert not any(
        query["sql"].lstrip().startswith(("INSERT", "UPDATE", "DELETE"))
        for query in captured.captured_queries
    )
