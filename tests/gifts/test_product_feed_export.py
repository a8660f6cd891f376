"""`manage.py export_product_feed`: the catalog as ACP feeds, read back into the same catalog."""

from __future__ import annotations

import io
import json
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from gifts import services
from gifts.models import Product, ProductTranslation
from tests.fixtures import make_product
from tests.gifts.feed_builders import assert_valid_feed

# Not in the ACP feed, so not exported (docs/product-feed.md): stock and max_per_order.
MAPPED_FIELDS = (
    "sku",
    "name",
    "description",
    "category",
    "tags",
    "price",
    "currency",
    "active",
    "age_min",
    "age_max",
    "image",
    "image_width",
    "image_height",
    "image_alt",
    "family",
)


def catalog_snapshot() -> tuple[dict, dict]:
    products = {row["sku"]: row for row in Product.objects.values(*MAPPED_FIELDS).order_by("sku")}
    translations = {
        (sku, language): (name, description)
        for sku, language, name, description in ProductTranslation.objects.values_list(
            "product__sku", "language", "name", "description"
        )
    }
    return products, translations


def export(tmp_path, **options) -> dict[str, dict]:
    call_command("export_product_feed", output=tmp_path, **options)
    return {path.name: json.loads(path.read_text()) for path in sorted(tmp_path.iterdir())}


def test_export_validates_and_reimports_into_an_empty_catalog_as_the_same_catalog(
    demo_catalog, tmp_path
):
    before = catalog_snapshot()
    feeds = export(tmp_path)

    assert set(feeds) == {
        "products.json",
        "products.pl.json",
        "products.uk.json",
        "products.ru.json",
        "products.zh-hans.json",
    }
    for document in feeds.values():
        assert_valid_feed(document)
    base = feeds["products.json"]["products"]
    assert sum(len(p["variants"]) for p in base) == Product.objects.count()
    families = [p for p in base if len(p["variants"]) > 1]
    assert families, "the demo catalog's families are feed products with several variants"
    polish = {v["id"]: v for p in feeds["products.pl.json"]["products"] for v in p["variants"]}
    some = ProductTranslation.objects.filter(language="pl").select_related("product").first()
    assert polish[some.product.sku]["title"] == some.name

    ProductTranslation.objects.all().delete()
    Product.objects.all().delete()
    call_command("import_catalog", str(tmp_path))

    after = catalog_snapshot()
    assert after[0] == before[0]  # field by field, every product, families included
    assert after[1] == before[1]  # every translation


def test_a_family_is_one_feed_product_and_a_loner_its_own(db):
    for sku in ("GG-MUG-RED", "GG-MUG-BLUE"):
        Product.objects.create(
            sku=sku, name=f"{sku[7:].title()} Mug", description="d", category="kitchen",
            price=Decimal("9.50"), stock=4, family="kitchen/mug",
        )  # fmt: skip
    make_product(sku="GG-LONE")

    out = io.StringIO()
    call_command("export_product_feed", stdout=out)

    products = {p["id"]: p for p in json.loads(out.getvalue())["products"]}
    assert [v["id"] for v in products["kitchen/mug"]["variants"]] == ["GG-MUG-BLUE", "GG-MUG-RED"]
    assert products["kitchen/mug"]["title"] == "Mug"
    assert [v["id"] for v in products["GG-LONE"]["variants"]] == ["GG-LONE"]
    assert products["kitchen/mug"]["variants"][0]["price"] == {"amount": 950, "currency": "USD"}


def test_availability_follows_live_stock(db, tmp_path):
    product = make_product(sku="GG-LIVE", stock=2)

    def availability() -> dict:
        (variant,) = export(tmp_path)["products.json"]["products"][0]["variants"]
        return variant["availability"]

    assert availability() == {"available": True, "status": "in_stock"}
    services.adjust_stock(product_id=product.pk, change=-2)
    assert availability() == {"available": False, "status": "out_of_stock"}
    Product.objects.filter(pk=product.pk).update(stock=5, active=False)
    assert availability() == {"available": False, "status": "discontinued"}


def test_pictures_are_absolute_urls_on_the_public_origin(db, settings, tmp_path):
    settings.PUBLIC_ORIGIN = "https://gifts.example"
    Product.objects.create(
        sku="GG-PIC", name="Pictured", description="d", category="home", price=5,
        image="widget/products/home/candle.v2.svg", image_alt="A candle",
    )  # fmt: skip
    Product.objects.create(
        sku="GG-CDN", name="On a CDN", description="d", category="home", price=5,
        image="https://cdn.example/candle.png",
    )  # fmt: skip

    variants = {
        v["id"]: v for p in export(tmp_path)["products.json"]["products"] for v in p["variants"]
    }

    assert variants["GG-PIC"]["media"] == [
        {
            "type": "image",
            "url": "https://gifts.example/static/widget/products/home/candle.v2.svg",
            "alt_text": "A candle",
            "width": 320,
            "height": 240,
        }
    ]
    assert variants["GG-CDN"]["media"][0]["url"] == "https://cdn.example/candle.png"


def test_an_invalid_export_fails_loudly_and_writes_nothing(db, tmp_path):
    make_product(sku="GG-FINE")
    make_product(sku="GG-LOWER")
    Product.objects.filter(sku="GG-LOWER").update(currency="usd")
    Product.objects.create(
        sku="GG-YEN", name="Yen", description="d", category="home", price=Decimal("10.50"),
        currency="JPY",
    )  # fmt: skip
    output = tmp_path / "feed"

    with pytest.raises(CommandError) as refused:
        call_command("export_product_feed", output=output)

    message = str(refused.value)
    assert "nothing written" in message
    assert "product GG-YEN, field price: 10.50 JPY has more decimals than JPY has" in message
    assert "variants[0], field price.currency: 'usd' does not match '^[A-Z]{3}$'" in message
    assert not output.exists()


def test_the_shop_is_every_variants_seller_with_its_policy_links(db, settings, tmp_path):
    settings.SHOP_NAME = "Gift Shop"
    settings.SHOP_LINKS = ["refund_policy=https://shop.example/refunds"]
    make_product(sku="GG-SOLD")

    (variant,) = export(tmp_path)["products.json"]["products"][0]["variants"]

    assert variant["seller"] == {
        "name": "Gift Shop",
        "links": [{"type": "refund_policy", "url": "https://shop.example/refunds"}],
    }


def test_a_malformed_policy_link_refuses_the_export(db, settings, tmp_path):
    settings.SHOP_LINKS = ["refund_policy"]
    make_product(sku="GG-SOLD")

    with pytest.raises(CommandError, match="SHOP_LINKS entry 'refund_policy' is not type="):
        call_command("export_product_feed", output=tmp_path / "feed")
    assert not (tmp_path / "feed").exists()


def test_the_offline_files_round_trip_families_and_translations(db, tmp_path):
    for sku, colour in (("GG-MUG-RED", "Red"), ("GG-MUG-BLUE", "Blue")):
        mug = Product.objects.create(
            sku=sku, name=f"{colour} Mug", description="A mug.", category="kitchen",
            tags=["coffee"], price=Decimal("9.50"), stock=4, family="kitchen/mug",
            age_min=6, age_max=90, image="widget/products/kitchen/mug.v2.svg", image_alt="Mug",
        )  # fmt: skip
    ProductTranslation.objects.create(product=mug, language="pl", name="Niebieski kubek")
    ProductTranslation.objects.create(
        product=mug, language="uk", name="Синя чашка", description="Чашка."
    )
    make_product(sku="GG-LONE")
    before = catalog_snapshot()

    call_command("export_product_feed", output=tmp_path, jsonl=True)
    lines = (tmp_path / "products.jsonl").read_text().splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["GG-LONE", "kitchen/mug"]
    for path in tmp_path.iterdir():
        assert_valid_feed({"products": [json.loads(x) for x in path.read_text().splitlines()]})
    ProductTranslation.objects.all().delete()
    Product.objects.all().delete()
    call_command("import_catalog", str(tmp_path))

    assert catalog_snapshot() == before
