"""The admin of delivery options, tax rates and gift wrap refuses a shop it could not price."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from checkout.store import GiftWrap, ShippingRate, TaxRate

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db) -> Client:
    client = Client()
    client.force_login(
        get_user_model().objects.create_superuser(username="root", password="pw-root-123")
    )
    return client


def rate_form(countries, **changes) -> dict:
    data = {
        "code": "courier",
        "name": "Courier",
        "countries": json.dumps(countries),
        "min_business_days": "1",
        "max_business_days": "2",
        "active": "on",
        "prices-TOTAL_FORMS": "1",
        "prices-INITIAL_FORMS": "0",
        "prices-MIN_NUM_FORMS": "0",
        "prices-MAX_NUM_FORMS": "1000",
        "prices-0-currency": "usd",
        "prices-0-amount": "12.50",
    }
    return {**data, **changes}


def test_a_rate_serving_countries_with_tax_rates_is_saved(staff):
    response = staff.post(reverse("admin:checkout_shippingrate_add"), rate_form(["pl", "DE"]))
    assert response.status_code == 302
    rate = ShippingRate.objects.get(code="courier")
    assert rate.countries == ["DE", "PL"]
    assert [(p.currency, str(p.amount)) for p in rate.prices.all()] == [("USD", "12.50")]


def test_a_rate_serving_a_country_without_a_tax_rate_is_refused(staff):
    response = staff.post(reverse("admin:checkout_shippingrate_add"), rate_form(["PL", "BR"]))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "No standard tax rate for BR" in errors["countries"][0]
    assert not ShippingRate.objects.filter(code="courier").exists()


def test_a_price_finer_than_the_currencys_minor_unit_is_refused(staff):
    response = staff.post(
        reverse("admin:checkout_shippingrate_add"),
        rate_form(["PL"], **{"prices-0-currency": "JPY", "prices-0-amount": "12.50"}),
    )
    assert response.status_code == 200
    assert not ShippingRate.objects.filter(code="courier").exists()


def test_the_standard_tax_rate_of_a_served_country_cannot_be_deleted_or_moved(staff):
    poland = TaxRate.objects.get(country="PL", category="")
    delete = reverse("admin:checkout_taxrate_delete", args=[poland.pk])
    assert staff.post(delete, {"post": "yes"}).status_code == 403
    change = reverse("admin:checkout_taxrate_change", args=[poland.pk])
    response = staff.post(change, {"country": "CZ", "category": "", "rate": "21.00", "name": "VAT"})
    assert response.status_code == 200
    assert TaxRate.objects.get(pk=poland.pk).country == "PL"


def test_a_tax_rate_no_option_needs_can_be_deleted(staff):
    spare = TaxRate.objects.create(country="CZ", rate=21, name="VAT")
    delete = reverse("admin:checkout_taxrate_delete", args=[spare.pk])
    assert staff.post(delete, {"post": "yes"}).status_code == 302
    assert not TaxRate.objects.filter(pk=spare.pk).exists()


def test_gift_wrap_and_store_settings_are_edited_in_the_admin(staff):
    assert staff.get(reverse("admin:checkout_giftwrap_changelist")).status_code == 200
    assert GiftWrap.objects.filter(code="classic").exists()
    assert staff.get(reverse("admin:checkout_storesettings_changelist")).status_code == 200
