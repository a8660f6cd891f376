"""The admin's catalog import: preview, then confirm (django-import-export), for staff only."""

from __future__ import annotations

import json
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from gifts.models import Product, ProductTranslation
from tests.fixtures import make_product
from tests.gifts.feed_builders import csv_bytes, feed_bytes, product, variant

IMPORT_URL = reverse("admin:gifts_product_import")
CONFIRM_URL = reverse("admin:gifts_product_process_import")
JSON, CSV, JSONL = "0", "1", "2"  # ProductAdmin.import_formats, in order


@pytest.fixture
def staff(db) -> Client:
    """Staff who may add and change products (not a superuser)."""
    user = get_user_model().objects.create_user("catalog", password="pw-catalog-123", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="gifts",
            codename__in=["add_product", "change_product", "view_product"],
        )
    )
    client = Client()
    client.force_login(user)
    return client


def upload(client: Client, data: bytes, *, name: str, format: str):
    return client.post(
        IMPORT_URL, {"format": format, "import_file": SimpleUploadedFile(name, data)}
    )


def test_a_feed_is_previewed_then_imported_on_confirm(staff):
    make_product(sku="GG-MUG-RED", stock=4, price="30.00")
    data = feed_bytes(product("kitchen/mug", variant("GG-MUG-RED"), variant("GG-MUG-BLUE")))

    assert staff.get(IMPORT_URL).status_code == 200
    preview = upload(staff, data, name="feed.json", format=JSON)

    assert preview.status_code == 200
    result = preview.context["result"]
    assert not result.has_errors() and not result.has_validation_errors()
    assert [row.import_type for row in result.rows] == ["update", "new"]
    page = preview.content.decode()
    assert "<del>30.00</del><ins>19.99</ins>" in page  # the price change, shown as a diff
    assert " style=" not in page.split('<table class="import-preview">')[1]  # CSP: no inline
    assert Product.objects.count() == 1  # the preview wrote nothing
    assert Product.objects.get(sku="GG-MUG-RED").price == Decimal("30.00")

    confirm = preview.context["confirm_form"].initial
    done = staff.post(CONFIRM_URL, confirm)

    assert done.status_code == 302
    assert Product.objects.get(sku="GG-MUG-RED").price == Decimal("19.99")
    assert Product.objects.get(sku="GG-MUG-RED").stock == 4
    assert Product.objects.get(sku="GG-MUG-BLUE").family == "kitchen/mug"


def test_a_csv_with_translations_imports_from_the_admin(staff):
    data = csv_bytes(
        "GG-A,,GG-A,Mug,A mug.,1250,USD,,kitchen,,,,,,,Kubek,Kubek na kawę.",
    )
    preview = upload(staff, data, name="catalog.csv", format=CSV)
    staff.post(CONFIRM_URL, preview.context["confirm_form"].initial)

    assert ProductTranslation.objects.get(product__sku="GG-A", language="pl").description == (
        "Kubek na kawę."
    )


def test_a_file_with_a_bad_row_shows_its_row_and_field_and_offers_no_confirm(staff):
    make_product(sku="GG-KEEP")
    data = feed_bytes(
        product("m", variant("GG-A"), variant("GG-B", price={"amount": 5, "currency": "XYZ"}))
    )

    response = upload(staff, data, name="feed.json", format=JSON)

    assert response.status_code == 200
    assert "confirm_form" not in response.context
    errors = response.context["form"].errors["import_file"]
    assert errors == [
        "the feed products[0].variants[1], field price.currency: XYZ is not an ISO 4217 currency"
    ]
    assert "field price.currency: XYZ is not an ISO 4217 currency" in response.content.decode()
    assert list(Product.objects.values_list("sku", flat=True)) == ["GG-KEEP"]


def test_a_bad_csv_line_is_named_on_the_form(staff):
    data = csv_bytes("GG-A,,GG-A,Mug,,-3,USD,,kitchen,,,,,,,,")
    response = upload(staff, data, name="catalog.csv", format=CSV)
    assert response.context["form"].errors["import_file"] == [
        "the file line 2, field price_amount: -3 is less than the minimum of 0"
    ]
    assert not Product.objects.exists()


def test_a_confirm_of_a_file_that_went_bad_meanwhile_is_refused_whole(staff, settings):
    preview = upload(
        staff, feed_bytes(product("GG-A", variant("GG-A"))), name="feed.json", format=JSON
    )
    settings.SUPPORTED_CURRENCIES = ["EUR"]  # the shop changed between preview and confirm

    stored = (
        Path(tempfile.gettempdir()) / preview.context["confirm_form"].initial["import_file_name"]
    )
    assert stored.exists()
    response = staff.post(CONFIRM_URL, preview.context["confirm_form"].initial, follow=True)

    assert response.redirect_chain == [(IMPORT_URL, 302)]
    (message,) = [str(m) for m in response.context["messages"]]
    assert message.startswith("Nothing imported. The feed has 1 problem(s)")
    assert "field price.currency: USD is not a currency this shop sells in (EUR)" in message
    assert not Product.objects.exists()
    assert not stored.exists()  # the upload kept for the confirm step is gone


def test_the_import_is_for_staff_who_may_add_and_change_products(db):
    viewer = get_user_model().objects.create_user("viewer", password="pw-viewer-123", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_product"))
    shopper = get_user_model().objects.create_user("shopper", password="pw-shopper-123")
    as_viewer, as_shopper, anonymous = Client(), Client(), Client()
    as_viewer.force_login(viewer)
    as_shopper.force_login(shopper)
    data = feed_bytes(product("GG-A", variant("GG-A")))

    assert as_viewer.get(IMPORT_URL).status_code == 403
    assert upload(as_viewer, data, name="feed.json", format=JSON).status_code == 403
    for client in (as_shopper, anonymous):
        response = upload(client, data, name="feed.json", format=JSON)
        assert response.status_code == 302
        assert response.url.startswith(reverse("admin:login"))
    assert not Product.objects.exists()


def test_the_product_list_offers_the_import_to_staff_who_may_use_it(staff):
    page = staff.get(reverse("admin:gifts_product_changelist")).content.decode()
    assert IMPORT_URL in page


def test_an_offline_feed_file_imports_from_the_admin(staff):
    data = json.dumps(product("GG-A", variant("GG-A"))).encode() + b"\n"
    preview = upload(staff, data, name="products.jsonl", format=JSONL)
    staff.post(CONFIRM_URL, preview.context["confirm_form"].initial)
    assert Product.objects.get(sku="GG-A").price == Decimal("19.99")
