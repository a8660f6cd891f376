"""Catalog, gift workflow, API tokens and the per-call log (metrics and the loop guard read it)."""

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
    selected_payment_method = models.CharField(max_length=64, blank=True)
    draft_order = models.ForeignKey(
        "checkout.Order", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["owner", "-created_at"])]

    def __str__(self) -> str:
        return f"workflow {self.id} ({self.current_step})"


class ApiToken(models.Model):
    """A bearer token for REST clients; only its SHA-256 digest is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8, help_text="First characters, to tell tokens apart.")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    revoked = models.BooleanField(default=False)
    # Script tokens live until revoked; QA preview tokens expire and the sweeps delete them.
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"


class ToolCallStatus(models.TextChoices):
    SUCCESS = "success", "Success"
    FAILED = "failed", "Failed"


class ToolCallLog(models.Model):
    """One row per tool call: the metrics dashboard, Prometheus and the loop guard read it."""

    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    tool = models.CharField(max_length=64)
    principal = models.CharField(max_length=150, blank=True)
    workflow_id = models.UUIDField(null=True, blank=True)
    step_id = models.CharField(max_length=20, blank=True)
    status = models.CharField(max_length=10, choices=ToolCallStatus.choices)
    error_code = models.CharField(max_length=64, blank=True)
    error_type = models.CharField(max_length=16, blank=True)
    retryable = models.BooleanField(default=False)
    arguments_fingerprint = models.CharField(max_length=64, blank=True)
    idempotency_key = models.CharField(max_length=200, blank=True)
    correlation_id = models.CharField(max_length=64, blank=True, db_index=True)
    duration_ms = models.FloatField(default=0)
    upstream_retries = models.PositiveSmallIntegerField(default=0)
    replayed = models.BooleanField(default=False)
    transport = models.CharField(max_length=8, default="rest")
    # The MCP host's own user id (_meta["openai/subject"]), for analytics only: never identity.
    host_subject = models.CharField(max_length=256, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The loop guard's one read (giftgenius.loop_guard): recent failures only, so the
            # index holds no successful call, which is nearly all of them.
            models.Index(
                fields=["workflow_id", "tool", "arguments_fingerprint", "created_at"],
                condition=models.Q(status="failed", replayed=False),
                name="toolcalllog_failures_idx",
            ),
            models.Index(fields=["tool", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.tool} {self.status} {self.error_code}"
