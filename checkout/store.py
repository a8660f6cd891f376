"""The shop's own configuration, edited by staff in the admin: delivery rates, tax rates, gift
wrap and whether prices include tax. checkout.pricing reads them when it prices a draft; an
order keeps copies of what it was priced with, so a later edit changes new drafts only."""

from __future__ import annotations

from django.db import models

# A currency as ISO 4217 letters; its minor unit comes from checkout.pricing.
CURRENCY_FIELD = {"max_length": 3, "help_text": "ISO 4217 code, e.g. USD, EUR."}


class StoreSettings(models.Model):
    """One row (pk 1): the shop's pricing settings."""

    prices_include_tax = models.BooleanField(
        default=True,
        help_text=(
            "On: catalog prices include tax (the price never changes with the country; the tax "
            "line shows the part included). Off: tax is added on top."
        ),
    )

    class Meta:
        verbose_name = "store settings"
        verbose_name_plural = "store settings"

    def __str__(self) -> str:
        return "store settings"

    @classmethod
    def current(cls) -> StoreSettings:
        return cls.objects.get_or_create(pk=1)[0]


class ShippingRate(models.Model):
    """A delivery option: what it costs per currency, where it goes, how long it takes."""

    code = models.SlugField(
        max_length=40, unique=True, help_text="Machine id the model passes as shipping_option."
    )
    name = models.CharField(max_length=100, help_text="Shown to the person, e.g. 'Standard'.")
    countries = models.JSONField(
        default=list, help_text='ISO 3166-1 alpha-2 codes served, e.g. ["PL", "DE"].'
    )
    min_business_days = models.PositiveSmallIntegerField()
    max_business_days = models.PositiveSmallIntegerField()
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_business_days__lte=models.F("max_business_days")),
                name="shipping_rate_days_ordered",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def serves(self, country: str) -> bool:
        return country in self.countries


class ShippingRatePrice(models.Model):
    rate = models.ForeignKey(ShippingRate, on_delete=models.CASCADE, related_name="prices")
    currency = models.CharField(**CURRENCY_FIELD)
    amount = models.DecimalField(max_digits=10, decimal_places=2)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rate", "currency"], name="shipping_price_once"),
            models.CheckConstraint(
                condition=models.Q(amount__gte=0), name="shipping_price_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount} {self.currency}"


class TaxRate(models.Model):
    """A country's tax rate, for one product category or (blank category) its standard rate,
    which also taxes shipping and gift wrap."""

    country = models.CharField(max_length=2, help_text="ISO 3166-1 alpha-2 code.")
    category = models.CharField(
        max_length=40, blank=True, help_text="A product category; blank for the standard rate."
    )
    rate = models.DecimalField(max_digits=5, decimal_places=2, help_text="Percent, e.g. 23.00.")
    name = models.CharField(max_length=40, default="VAT", help_text="'VAT', 'sales tax', 'GST'…")

    class Meta:
        ordering = ["country", "category"]
        constraints = [
            models.UniqueConstraint(fields=["country", "category"], name="tax_rate_once"),
            models.CheckConstraint(
                condition=models.Q(rate__gte=0, rate__lt=100), name="tax_rate_percent"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.country} {self.category or 'standard'} {self.rate} %"


class GiftWrap(models.Model):
    """A priced gift-wrap option."""

    code = models.SlugField(max_length=40, unique=True, help_text="Machine id: gift_wrap.")
    name = models.CharField(max_length=100)
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class GiftWrapPrice(models.Model):
    wrap = models.ForeignKey(GiftWrap, on_delete=models.CASCADE, related_name="prices")
    currency = models.CharField(**CURRENCY_FIELD)
    amount = models.DecimalField(max_digits=10, decimal_places=2)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["wrap", "currency"], name="gift_wrap_price_once"),
            models.CheckConstraint(
                condition=models.Q(amount__gte=0), name="gift_wrap_price_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount} {self.currency}"
