"""Admin for the shop's configuration: delivery options, tax rates, gift wrap and whether prices
include tax. Edits apply to drafts priced afterwards; an existing draft keeps its prices.

A delivery option may only serve countries that have a standard tax rate, and such a rate cannot
be deleted or moved while an active option serves its country: an order there could not be
priced (prepare_order would refuse it with TAX_RATE_MISSING)."""

from __future__ import annotations

from babel.numbers import is_currency
from django import forms
from django.contrib import admin
from django.http import HttpRequest

from checkout.pricing import countries_without_tax_rate, minor_unit
from checkout.schemas import COUNTRY_CODES
from checkout.store import (
    GiftWrap,
    GiftWrapPrice,
    ShippingRate,
    ShippingRatePrice,
    StoreSettings,
    TaxRate,
)


def served_countries() -> set[str]:
    return {c for rate in ShippingRate.objects.filter(active=True) for c in rate.countries}


class PriceForm(forms.ModelForm):
    """A price per currency: a known ISO 4217 code, no finer than the currency's minor unit
    (the amount columns keep two decimals, so three-decimal currencies are refused)."""

    def clean(self):
        data = super().clean()
        currency = (data.get("currency") or "").strip().upper()
        amount = data.get("amount")
        if not is_currency(currency):
            raise forms.ValidationError({"currency": f"'{currency}' is not an ISO 4217 currency."})
        unit = minor_unit(currency)
        if unit < minor_unit("USD"):
            raise forms.ValidationError(
                {"currency": f"{currency} has three decimals; not supported."}
            )
        if amount is not None and amount != amount.quantize(unit):
            raise forms.ValidationError({"amount": f"{currency} amounts are in steps of {unit}."})
        data["currency"] = currency
        return data


class ShippingRatePriceInline(admin.TabularInline):
    model = ShippingRatePrice
    form = PriceForm
    extra = 1


class ShippingRateForm(forms.ModelForm):
    class Meta:
        model = ShippingRate
        fields = ["code", "name", "countries", "min_business_days", "max_business_days", "active"]
        help_texts = {"countries": 'A JSON list of ISO 3166-1 alpha-2 codes, e.g. ["PL", "DE"].'}

    def clean_countries(self):
        countries = self.cleaned_data["countries"]
        if not isinstance(countries, list) or not all(isinstance(c, str) for c in countries):
            raise forms.ValidationError('Give a JSON list of country codes, e.g. ["PL", "DE"].')
        countries = sorted({c.strip().upper() for c in countries})
        unknown = [c for c in countries if c not in COUNTRY_CODES]
        if unknown:
            raise forms.ValidationError(f"Not ISO 3166-1 alpha-2 codes: {', '.join(unknown)}.")
        return countries

    def clean(self):
        data = super().clean()
        low, high = data.get("min_business_days"), data.get("max_business_days")
        if low is not None and high is not None and low > high:
            raise forms.ValidationError({"max_business_days": "Must not be below the minimum."})
        if data.get("active") and data.get("countries"):
            missing = countries_without_tax_rate(data["countries"])
            if missing:
                raise forms.ValidationError(
                    {
                        "countries": "No standard tax rate for "
                        f"{', '.join(missing)}: add one under Tax rates first, or leave them out."
                    }
                )
        return data


@admin.register(ShippingRate)
class ShippingRateAdmin(admin.ModelAdmin):
    form = ShippingRateForm
    inlines = [ShippingRatePriceInline]
    list_display = ["code", "name", "served", "min_business_days", "max_business_days", "active"]
    list_filter = ["active"]
    search_fields = ["code", "name"]

    @admin.display(description="countries")
    def served(self, rate: ShippingRate) -> str:
        return ", ".join(rate.countries)


class TaxRateForm(forms.ModelForm):
    class Meta:
        model = TaxRate
        fields = ["country", "category", "rate", "name"]

    def clean_country(self):
        country = self.cleaned_data["country"].strip().upper()
        if country not in COUNTRY_CODES:
            raise forms.ValidationError(f"'{country}' is not an ISO 3166-1 alpha-2 code.")
        return country

    def clean(self):
        data = super().clean()
        before = self.instance
        moved = (
            before.pk
            and before.category == ""
            and (data.get("country") != before.country or data.get("category", "") != "")
        )
        if moved and before.country in served_countries():
            raise forms.ValidationError(
                f"{before.country} is served by a delivery option, so its standard rate must stay. "
                "Add the new rate beside it instead."
            )
        return data


@admin.register(TaxRate)
class TaxRateAdmin(admin.ModelAdmin):
    form = TaxRateForm
    list_display = ["country", "category_or_standard", "rate", "name"]
    list_filter = ["country"]
    search_fields = ["country", "category"]
    actions = None  # no bulk delete: each deletion is checked on its own

    @admin.display(description="category")
    def category_or_standard(self, rate: TaxRate) -> str:
        return rate.category or "(standard)"

    def has_delete_permission(self, request: HttpRequest, obj: TaxRate | None = None) -> bool:
        if obj is not None and obj.category == "" and obj.country in served_countries():
            return False
        return super().has_delete_permission(request, obj)


class GiftWrapPriceInline(admin.TabularInline):
    model = GiftWrapPrice
    form = PriceForm
    extra = 1


@admin.register(GiftWrap)
class GiftWrapAdmin(admin.ModelAdmin):
    inlines = [GiftWrapPriceInline]
    list_display = ["code", "name", "active"]


@admin.register(StoreSettings)
class StoreSettingsAdmin(admin.ModelAdmin):
    list_display = ["__str__", "prices_include_tax"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not StoreSettings.objects.exists()

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
