"""The catalog and the gift workflow."""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


class Step(models.TextChoices):
    BRIEF = "brief", "Brief"
    IDEAS = "ideas", "Ideas"
    GIFT_SELECTED = "gift_selected", "Gift selected"
    CHECKOUT = "checkout", "Checkout"
    COMPLETED = "completed", "Completed"
    FAILED = "failed", "Failed"


class Product(models.Model):
    sku = models.CharField(max_length=32, unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField()
    category = models.CharField(max_length=40, db_index=True)
    tags = models.JSONField(default=list, help_text="Interests this product suits (lowercase).")
    price = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3, default="USD")
    stock = models.IntegerField(default=0, help_text="Units available to reserve.")
    max_per_order = models.PositiveSmallIntegerField(
        default=3, help_text="The most units one order may hold."
    )
    active = models.BooleanField(default=True, help_text="False once discontinued.")
    age_min = models.PositiveSmallIntegerField(default=0)
    age_max = models.PositiveSmallIntegerField(default=120)
    image = models.CharField(
        max_length=500,
        blank=True,
        help_text="Picture URL (its origin must be in WIDGET_IMAGE_ORIGINS), or a static file path.",
    )
    image_width = models.PositiveSmallIntegerField(default=320)
    image_height = models.PositiveSmallIntegerField(default=240)
    image_alt = models.CharField(max_length=200, blank=True)
    family = models.CharField(
        max_length=64,
        blank=True,
        help_text="Variants of one product (its colors, sizes, flavors) share a family: gift "
        "ideas show one of them and offer the others as its variants. Blank: a product of its own.",
    )

    class Meta:
        ordering = ["sku"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(stock__gte=0), name="product_stock_not_negative"
            ),
            models.CheckConstraint(condition=models.Q(price__gt=0), name="product_price_positive"),
        ]
        indexes = [models.Index(fields=["active", "currency", "price"])]

    def __str__(self) -> str:
        return f"{self.sku} {self.name}"

    @property
    def in_stock(self) -> bool:
        return self.stock > 0


# What a catalog (the demo data, a merchant's feed) defines of a product, besides its SKU (the
# key) and its stock (orders change it).
CATALOG_FIELDS = (
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


class WorkflowContext(models.Model):
    """The single source of truth for where one gift conversation is."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="workflows"
    )
    current_step = models.CharField(max_length=20, choices=Step.choices, default=Step.BRIEF)
    visited_steps = models.JSONField(default=list)
    brief = models.JSONField(default=dict, blank=True)
    last_suggestions = models.JSONField(default=list, blank=True, help_text="Product ids offered.")
    selected_product = models.ForeignKey(
        Product, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["owner", "-created_at"])]

    def __str__(self) -> str:
        return f"workflow {self.id} ({self.current_step})"


def _translated_languages() -> list[tuple[str, str]]:
    return [(code, name) for code, name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


class ProductTranslation(models.Model):
    """A product's name and description in another language; a language without one shows the
    catalog's own (English) text."""

    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="translations")
    language = models.CharField(max_length=10, choices=_translated_languages)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True, help_text="Blank: the catalog's description.")

    class Meta:
        ordering = ["product", "language"]
        constraints = [
            models.UniqueConstraint(
                fields=["product", "language"], name="one_translation_a_language"
            )
        ]

    def __str__(self) -> str:
        return f"{self.product.sku} [{self.language}] {self.name}"


class InterestTerm(models.Model):
    """An interest tag (or category) in one language: the label people read, and the words
    that name it in a brief (gifts.interests)."""

    tag = models.CharField(
        max_length=40, help_text="The catalog's tag or category, e.g. gardening."
    )
    language = models.CharField(max_length=10, choices=settings.LANGUAGES)
    label = models.CharField(max_length=80, help_text="As people read it, e.g. ogrodnictwo.")
    forms = models.JSONField(
        default=list,
        blank=True,
        help_text='Other words for it in this language, e.g. ["ogrodnictwem", "ogród"]. Words '
        "not listed still match when they share a stem with one listed.",
    )

    class Meta:
        ordering = ["tag", "language"]
        constraints = [
            models.UniqueConstraint(fields=["tag", "language"], name="one_term_a_language")
        ]

    def __str__(self) -> str:
        return f"{self.tag} [{self.language}] {self.label}"
