"""`manage.py import_catalog`: a merchant's feed or CSV, all or nothing, by SKU."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from checkout.models import Order
from gifts.models import Product, ProductTranslation
from tests.fixtures import draft_order, make_product
from tests.gifts.feed_builders import csv_bytes, feed_bytes, product, variant


def run_import(tmp_path, data: bytes, name: str = "feed.json") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    from io import StringIO

    out = StringIO()
    call_command("import_catalog", str(path), stdout=out)
    return out.getvalue()


def refused(tmp_path, data: bytes, name: str = "feed.json") -> str:
    with pytest.raises(CommandError) as error:
        run_import(tmp_path, data, name)
    assert "nothing was changed" in str(error.value)
    return str(error.value)


def catalog_state() -> list[tuple]:
    return list(
        Product.objects.order_by("sku").values_list("sku", "name", "price", "stock", "family")
    )


# --- what a good file does ----------------------------------------------------------------------


def test_a_feed_creates_products_and_a_second_import_changes_nothing(db, tmp_path):
    data = feed_bytes(
        product("kitchen/mug", variant("GG-MUG-RED"), variant("GG-MUG-BLUE")),
        product("GG-LONE", variant("GG-LONE", title="A lone teapot")),
    )

    assert "3 created, 0 updated, 0 unchanged" in run_import(tmp_path, data)
    assert "0 created, 0 updated, 3 unchanged" in run_import(tmp_path, data)

    red = Product.objects.get(sku="GG-MUG-RED")
    assert (red.family, red.price, red.currency, red.category) == (
        "kitchen/mug", Decimal("19.99"), "USD", "kitchen",
    )  # fmt: skip
    assert (red.tags, red.age_min, red.age_max, red.stock) == (["coffee"], 12, 99, 0)
    assert Product.objects.get(sku="GG-LONE").family == ""
    assert Product.objects.count() == 3


def test_a_reimport_updates_by_sku_and_never_writes_stock(db, tmp_path):
    existing = make_product(sku="GG-MUG-RED", stock=7, price="30.00")
    price = {"amount": 2500, "currency": "USD"}

    run_import(tmp_path, feed_bytes(product("kitchen/mug", variant("GG-MUG-RED", price=price))))

    existing.refresh_from_db()
    assert (existing.price, existing.stock, existing.family) == (Decimal("25.00"), 7, "kitchen/mug")
    assert Product.objects.count() == 1


def test_discontinued_in_the_feed_is_inactive_in_the_catalog(db, tmp_path):
    gone = {"available": False, "status": "discontinued"}
    run_import(tmp_path, feed_bytes(product("GG-OLD", variant("GG-OLD", availability=gone))))
    assert Product.objects.get(sku="GG-OLD").active is False


def test_orders_keep_their_prices_and_held_stock_when_the_catalog_is_repriced(
    demo_catalog, api, tmp_path
):
    order = draft_order(api)
    before = Order.objects.get(pk=order.order_id)
    line = before.lines.get()
    held = Product.objects.get(pk=order.product_id)
    cheaper = {"amount": 100, "currency": "USD"}

    run_import(
        tmp_path,
        feed_bytes(product(held.sku, variant(held.sku, title=held.name, price=cheaper))),
    )

    after = Order.objects.get(pk=order.order_id)
    assert (after.amount, after.items_total) == (before.amount, before.items_total)
    assert after.lines.get().unit_price == line.unit_price
    repriced = Product.objects.get(pk=held.pk)
    assert repriced.price == Decimal("1.00")
    assert repriced.stock == held.stock  # the draft's hold is still taken out of it


def test_csv_rows_of_one_product_id_are_its_variants_with_translations(db, tmp_path):
    data = csv_bytes(
        "kitchen/mug,Mug,GG-MUG-RED,Red Mug,A red mug.,1250,USD,in_stock,kitchen,coffee|tea,8-99,,,,,Czerwony kubek,",
        "kitchen/mug,Mug,GG-MUG-BLUE,Blue Mug,A blue mug.,1350,USD,out_of_stock,kitchen,coffee,,,,,,,",
        'GG-LONE,,GG-LONE,Teapot,"A teapot,\nfor two.",4000,USD,discontinued,kitchen,,,,,,,Czajniczek,Na dwie osoby.',
    )

    assert "3 created" in run_import(tmp_path, data, "catalog.csv")

    red, blue, lone = (Product.objects.get(sku=s) for s in ("GG-MUG-RED", "GG-MUG-BLUE", "GG-LONE"))
    assert (red.family, blue.family, lone.family) == ("kitchen/mug", "kitchen/mug", "")
    assert (red.price, blue.price, lone.price) == (
        Decimal("12.50"),
        Decimal("13.50"),
        Decimal("40.00"),
    )
    assert (red.tags, red.age_min, red.age_max) == (["coffee", "tea"], 8, 99)
    assert (blue.active, lone.active, lone.description) == (True, False, "A teapot,\nfor two.")
    translations = dict(ProductTranslation.objects.values_list("product__sku", "name"))
    assert translations == {"GG-MUG-RED": "Czerwony kubek", "GG-LONE": "Czajniczek"}

    # The same file without the red mug's Polish title: that translation goes, nothing else moves.
    data = data.replace(b",Czerwony kubek,", b",,")
    assert "1 updated, 2 unchanged" in run_import(tmp_path, data, "catalog.csv")
    assert dict(ProductTranslation.objects.values_list("product__sku", "name")) == {
        "GG-LONE": "Czajniczek"
    }


# --- a bad file changes nothing, and says where -------------------------------------------------


def test_a_bad_row_changes_nothing_and_names_the_row_and_field(db, tmp_path):
    make_product(sku="GG-MUG-RED", price="30.00")
    before = catalog_state()
    data = feed_bytes(
        product(
            "kitchen/mug",
            variant("GG-MUG-RED", price={"amount": 500, "currency": "USD"}),
            variant("GG-MUG-BLUE"),
            variant("GG-MUG-GREEN", price={"amount": -1, "currency": "USD"}),
        )
    )

    message = refused(tmp_path, data)

    assert (
        "feed.json products[0].variants[2], field price.amount: -1 is less than the minimum of 0"
        in message
    )
    assert catalog_state() == before


def test_a_bad_csv_row_names_its_line_and_column(db, tmp_path):
    data = csv_bytes(
        "GG-A,,GG-A,Mug,,1250,USD,,kitchen,,,,,,,,",
        "GG-B,,GG-B,Mug,,-5,USD,,kitchen,,,,,,,,",
        "GG-C,,GG-C,Mug,,12.50,USD,,kitchen,,,,,,,,",
        "GG-D,,GG-D,Mug,,900,EUR,,kitchen,,,,,,,,",
    )

    message = refused(tmp_path, data, "catalog.csv")

    assert "catalog.csv line 3, field price_amount: -5 is less than the minimum of 0" in message
    assert "catalog.csv line 4, field price_amount: '12.50' is not a whole number" in message
    assert Product.objects.count() == 0


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(
            b'{"products": [\n{"id": "x",\n', "feed.json line 3 column 1: not JSON", id="truncated"
        ),
        pytest.param(
            b"[1, 2]",
            "feed.json, field (the whole document): [1, 2] is not of type 'object'",
            id="not-a-feed",
        ),
        pytest.param(
            feed_bytes(product("GG-X", variant("GG-X", colour="red"))),
            "products[0].variants[0]: unknown field(s) ('colour' was unexpected)",
            id="unknown-field",
        ),
        pytest.param(
            feed_bytes(product("GG-X", variant("GG-X", price={"amount": 100, "currency": "XYZ"}))),
            "products[0].variants[0], field price.currency: XYZ is not an ISO 4217 currency",
            id="unknown-currency",
        ),
        pytest.param(
            feed_bytes(product("GG-X", variant("GG-X", price={"amount": 100, "currency": "EUR"}))),
            "field price.currency: EUR is not a currency this shop sells in (USD)",
            id="currency-not-sold",
        ),
        pytest.param(
            feed_bytes(product("GG-X", variant("GG-X", price={"amount": 0, "currency": "USD"}))),
            "field price.amount: must be more than 0",
            id="free",
        ),
        pytest.param(
            feed_bytes(product("GG-X", variant("GG-X", description={"plain": "w" * 10_001}))),
            "field description.plain: longer than 10000 characters",
            id="huge-description",
        ),
        pytest.param(
            feed_bytes(product("GG-X", variant("GG-X", title="t" * 201))),
            "field title: longer than 200 characters (201)",
            id="long-title",
        ),
        pytest.param(
            feed_bytes(product("m", variant("GG-X"), variant("GG-X"))),
            "products[0].variants[1], field id: 'GG-X' is also the id of feed.json products[0].variants[0]",
            id="duplicate-variant",
        ),
        pytest.param(
            feed_bytes(product("GG-Y", variant("GG-X")), product("GG-Y2", variant("GG-Y"))),
            "feed.json products[0], field id: 'GG-Y' is also a variant's id (feed.json "
            "products[1].variants[0]); a product of several variants needs an id of its own",
            id="family-id-is-a-sku",
        ),
        pytest.param(
            feed_bytes(product("m", variant("GG-X")), product("m", variant("GG-Y"))),
            "feed.json products[1], field id: 'm' is also the id of feed.json products[0]",
            id="duplicate-product",
        ),
        pytest.param(
            feed_bytes(
                product(
                    "GG-X",
                    variant("GG-X", categories=[{"value": "rockets", "taxonomy": "merchant"}]),
                )
            ),
            "field categories[merchant]: needs exactly one category with taxonomy 'merchant'",
            id="unknown-category",
        ),
        pytest.param(
            feed_bytes(
                product(
                    "GG-X",
                    variant("GG-X", media=[{"type": "image", "url": "https://evil.example/x.png"}]),
                )
            ),
            "field media.url: https://evil.example is not an allowed picture origin",
            id="foreign-picture",
        ),
        pytest.param(
            '{"products": []}\n\u00e9'.encode("latin-1"),
            "feed.json line 2: is not UTF-8 (byte 17",
            id="wrong-encoding",
        ),
    ],
)
def test_a_broken_feed_is_refused_precisely(db, tmp_path, data, expected):
    make_product(sku="GG-KEEP")
    before = catalog_state()

    assert expected in refused(tmp_path, data)
    assert catalog_state() == before


@pytest.mark.parametrize(
    ("rows", "header", "expected"),
    [
        pytest.param(
            ['GG-A,,GG-A,"Mug,,1250,USD,,kitchen,,,,,,,,'],
            None,
            "catalog.csv line 2: not CSV: unexpected end of data",
            id="unclosed-quote",
        ),
        pytest.param(
            ["GG-A,,GG-A,Mug,,1250,USD,,rockets,Coffee,99-8,,,,,,"],
            None,
            "catalog.csv line 2, field category: needs exactly one category",
            id="bad-category",
        ),
        pytest.param(
            ["GG-A,,GG-A,Mug,,1250,USD,,kitchen,Coffee,,,,,,,"],
            None,
            "catalog.csv line 2, field interests: interest tags must be at most 20, lowercase",
            id="bad-interest",
        ),
        pytest.param(
            ["GG-A,,GG-A,Mug,,1250,USD,,kitchen,,99-8,,,,,,"],
            None,
            "catalog.csv line 2, field age_range: age range must be one 'min-max'",
            id="bad-ages",
        ),
        pytest.param(
            ["GG-A,,GG-A,Mug,,1250,USD,,kitchen,,\u00b2-5,,,,,,"],
            None,
            "catalog.csv line 2, field age_range: age range must be one 'min-max'",
            id="superscript-digit-ages",
        ),
        pytest.param(
            ["GG-A,,GG-A,Mug,,1250,USD,,kitchen,,,ftp://x.example/a.png,,0,,,"],
            None,
            "catalog.csv line 2, field image_url: must be an absolute http(s) URL",
            id="bad-picture-url",
        ),
        pytest.param(
            ["GG-A,,GG-A,Mug,,1250,USD"],
            None,
            "catalog.csv line 2: has a different number of cells",
            id="short-row",
        ),
        pytest.param(
            ["GG-A,GG-A,Mug,1250,USD,kitchen,yes"],
            "product_id,id,title,price_amount,price_currency,category,gift_wrap",
            "catalog.csv line 1, field gift_wrap: unknown column",
            id="unknown-column",
        ),
        pytest.param(
            ["GG-A,GG-A,Mug,1250,kitchen"],
            "product_id,id,title,price_amount,category",
            "catalog.csv line 1, field price_currency: required column missing",
            id="missing-column",
        ),
        pytest.param(
            ["GG-A,GG-A,,1250,USD,kitchen"],
            "product_id,id,title,price_amount,price_currency,category",
            "catalog.csv line 2, field title: must not be empty",
            id="empty-title",
        ),
        pytest.param(
            [f"GG-A,GG-A,Mug,{'9' * 200_000},USD,kitchen"],
            "product_id,id,title,price_amount,price_currency,category",
            "catalog.csv line 2: not CSV: field larger than field limit",
            id="huge-field",
        ),
        pytest.param(
            ["GG-A,GG-A,Mug,1250,USD,kitchen", "GG-B,GG-A,Mug,1250,USD,kitchen"],
            "product_id,id,title,price_amount,price_currency,category",
            "catalog.csv line 3, field id: 'GG-A' is also the id of catalog.csv line 2",
            id="duplicate-id",
        ),
        pytest.param(
            ["GG-A,GG-A,Mug,1250,USD,kitchen," + "t" * 201],
            "product_id,id,title,price_amount,price_currency,category,title:pl",
            "catalog.csv line 2, field title:pl: longer than 200 characters",
            id="long-translation",
        ),
    ],
)
def test_a_broken_csv_is_refused_precisely(db, tmp_path, rows, header, expected):
    make_product(sku="GG-KEEP")
    before = catalog_state()
    data = csv_bytes(*rows, **({"header": header} if header else {}))

    assert expected in refused(tmp_path, data, "catalog.csv")
    assert catalog_state() == before


def test_a_csv_in_another_encoding_is_refused_with_its_line(db, tmp_path):
    data = (
        csv_bytes("GG-A,,GG-A,Mug,,1250,USD,,kitchen,,,,,,,Kubek żółty,").decode().encode("cp1250")
    )
    message = refused(tmp_path, data, "catalog.csv")
    assert "catalog.csv line 2: is not UTF-8" in message
    assert "save the file as UTF-8" in message


def test_a_translation_feed_naming_an_unknown_variant_changes_nothing(db, tmp_path):
    (tmp_path / "products.json").write_bytes(feed_bytes(product("GG-A", variant("GG-A"))))
    (tmp_path / "products.pl.json").write_bytes(
        feed_bytes(
            product("GG-A", variant("GG-A", title="Kubek")), product("GG-Z", variant("GG-Z"))
        )
    )

    with pytest.raises(CommandError) as error:
        call_command("import_catalog", str(tmp_path))

    assert (
        "products.pl.json products[1].variants[0], field id: 'GG-Z' is not in products.json"
        in str(error.value)
    )
    assert not Product.objects.exists()


# --- the RFC's offline file: one Product a line -------------------------------------------------


def jsonl(*products: dict) -> bytes:
    return b"".join(json.dumps(p).encode() + b"\n" for p in products)


def test_an_offline_feed_file_imports_a_product_a_line(db, tmp_path):
    data = jsonl(
        product("kitchen/mug", variant("GG-MUG-RED"), variant("GG-MUG-BLUE")),
        product("GG-LONE", variant("GG-LONE", title="Caf\u00e9\u2028Teapot")),
    )
    assert "3 created" in run_import(tmp_path, data, "products.jsonl")
    assert Product.objects.get(sku="GG-LONE").name == "Caf\u00e9\u2028Teapot"
    assert Product.objects.get(sku="GG-MUG-BLUE").family == "kitchen/mug"


def test_an_offline_feed_names_the_line_of_a_bad_product(db, tmp_path):
    bad_price = {"amount": 10, "currency": "usd"}
    data = (
        jsonl(product("GG-A", variant("GG-A")))
        + b'{"id": "GG-B", "variants": [\n'
        + jsonl(product("m", variant("GG-C"), variant("GG-D", price=bad_price)))
    )

    message = refused(tmp_path, data, "products.jsonl")

    assert "products.jsonl line 2 column 29: not JSON: Expecting value" in message
    assert (
        "products.jsonl line 3 variants[1], field price.currency: 'usd' does not match" in message
    )
    assert not Product.objects.exists()


def test_a_file_too_big_or_missing_is_refused_before_it_is_read(db, tmp_path, monkeypatch):
    monkeypatch.setattr("gifts.product_feed.reading.MAX_FILE_BYTES", 100)
    data = feed_bytes(product("GG-A", variant("GG-A")))

    assert "feed.json: is larger than 100 bytes" in refused(tmp_path, data)
    assert "catalog.csv: is larger than 100 bytes" in refused(tmp_path, data, "catalog.csv")
    with pytest.raises(CommandError, match=r"nope\.json: no such file or directory"):
        call_command("import_catalog", str(tmp_path / "nope.json"))
    assert not Product.objects.exists()
