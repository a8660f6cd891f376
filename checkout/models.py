"""Orders, stock holds, payments, the saga step log and the rollback audit."""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

# The shop's configuration lives in its own module; importing it here registers its models.
from checkout.store import (  # noqa: F401
    GiftWrap,
    GiftWrapPrice,
    ShippingRate,
    ShippingRatePrice,
    StoreSettings,
    TaxRate,
)


class OrderStatus(models.TextChoices):
    DRAFT = "draft", "Draft (prepared, stock held)"
    PROCESSING = "processing", "Processing (saga running)"
    PAYMENT_PENDING = "payment_pending", "Payment pending"
    AWAITING_PAYMENT = "awaiting_payment", "Awaiting payment (person paying at the provider)"
    COMPLETED = "completed", "Completed"
    FAILED = "failed", "Failed (compensated)"
    CANCELLED = "cancelled", "Cancelled"


class FulfilmentStatus(models.TextChoices):
    UNFULFILLED = "unfulfilled", "Unfulfilled"
    SHIPPED = "shipped", "Shipped"
    DELIVERED = "delivered", "Delivered"


def _money(**kwargs) -> models.DecimalField:
    return models.DecimalField(max_digits=10, decimal_places=2, default=0, **kwargs)


class GuestBuyer(models.Model):
    """Who an agent buys for when they have no account with us: the order's owner stays the
    account that placed it (the agent's, or the signed-in person's), and receipts go here."""

    first_name = models.CharField(max_length=100, blank=True)
    last_name = models.CharField(max_length=100, blank=True)
    email = models.EmailField(max_length=254)
    phone_number = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name} <{self.email}>".strip()


class Order(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="orders"
    )
    # Set when an agent placed the order for a buyer without an account (checkout.agentic).
    buyer = models.ForeignKey(
        GuestBuyer, null=True, blank=True, on_delete=models.PROTECT, related_name="orders"
    )
    workflow = models.ForeignKey(
        "gifts.WorkflowContext",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="orders",
    )
    status = models.CharField(max_length=20, choices=OrderStatus.choices, default=OrderStatus.DRAFT)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3)
    payment_method_id = models.CharField(max_length=64)
    # What the person sees for it ("Visa •••• 4242"), kept when it is known (prepare, or the
    # card the provider reports for a hosted payment) so that showing an order never asks the
    # provider.
    payment_method_label = models.CharField(max_length=64, blank=True)
    shipping = models.JSONField(default=dict)
    # Totals, frozen when checkout.pricing priced the draft, each rounded to the currency's minor
    # unit. `amount` is their total and exactly what is charged:
    # amount = items + shipping + gift wrap (+ tax when prices do not include it).
    prices_include_tax = models.BooleanField(default=True)
    items_total = _money()
    shipping_total = _money()
    gift_wrap_total = _money()
    tax_total = _money(help_text="Sum of the rounded tax of every line, shipping and wrap.")
    shipping_tax = _money()
    gift_wrap_tax = _money()
    tax_name = models.CharField(max_length=40, blank=True, help_text="'VAT', 'sales tax'…")
    tax_rate = models.DecimalField(
        max_digits=5, decimal_places=2, default=0, help_text="The country's standard rate, %."
    )
    # The delivery option, as priced (the rate may be edited or deleted later).
    shipping_rate = models.ForeignKey(
        "checkout.ShippingRate", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    shipping_option = models.CharField(max_length=40, blank=True)
    shipping_option_name = models.CharField(max_length=100, blank=True)
    delivery_earliest = models.DateField(null=True, blank=True)
    delivery_latest = models.DateField(null=True, blank=True)
    # Gift options. With ship_to_recipient the address is the recipient's and the message goes
    # on the packing slip (which never shows prices).
    gift_message = models.CharField(max_length=250, blank=True)
    gift_wrap = models.ForeignKey(
        "checkout.GiftWrap", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    gift_wrap_name = models.CharField(max_length=100, blank=True)
    ship_to_recipient = models.BooleanField(default=False)
    # Fulfilment, set by staff once the order is paid.
    fulfilment_status = models.CharField(
        max_length=12, choices=FulfilmentStatus.choices, default=FulfilmentStatus.UNFULFILLED
    )
    carrier = models.CharField(max_length=100, blank=True)
    tracking_number = models.CharField(max_length=100, blank=True)
    tracking_url = models.URLField(max_length=500, blank=True)
    shipped_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    # The person's language (set when they confirm), for what is sent to them later.
    locale = models.CharField(max_length=10, default="en")
    # The receipt link's own secret (checkout.receipts): not the order id, set when the order
    # completes, replaced when staff revoke the link. Never in what the model sees.
    receipt_key = models.CharField(max_length=64, blank=True, db_index=True)
    confirmation_token_digest = models.CharField(max_length=64, blank=True)
    confirmation_used_at = models.DateTimeField(null=True, blank=True)
    failure_code = models.CharField(max_length=64, blank=True)
    failure_message = models.CharField(max_length=300, blank=True)
    correlation_id = models.CharField(max_length=64, blank=True, db_index=True)
    # When a draft's stock hold lapses (the expiry sweep cancels drafts past it).
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # Where the person finishes paying, while the order awaits payment: the provider's hosted
    # checkout (a Checkout Session) or its authentication page (3-D Secure). The session id is
    # what every later question to the provider names; the URL and its expiry are the
    # next_action commit_order and get_order show.
    payment_session_id = models.CharField(max_length=255, blank=True, db_index=True)
    payment_url = models.URLField(max_length=2000, blank=True)
    payment_url_reason = models.CharField(max_length=20, blank=True)
    payment_url_expires_at = models.DateTimeField(null=True, blank=True)
    # Saga run number: a retry after a retryable, compensated failure runs the saga again.
    saga_attempt = models.PositiveSmallIntegerField(default=1)
    # The order's short lease (checkout.saga.lease): whoever holds it, a sweep or a webhook, is the
    # one settling the order with the provider.
    lease_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        permissions = [("rollback_order", "Can roll back orders (refund, release, cancel)")]
        indexes = [models.Index(fields=["status", "updated_at"])]

    def __str__(self) -> str:
        return f"order {self.id} ({self.status})"

    @property
    def receipt_email(self) -> str:
        """Where the receipt goes: the guest buyer's address, else the owner's."""
        return (self.buyer.email if self.buyer_id else self.owner.email) or ""


class CheckoutSession(models.Model):
    """An agent's checkout session (Agentic Commerce Protocol): what the protocol keeps beside
    the draft order. The session's order is its workflow's current order; paying it runs the
    same saga as the widget's checkout."""

    id = models.CharField(primary_key=True, max_length=40)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="checkout_sessions"
    )
    workflow = models.OneToOneField(
        "gifts.WorkflowContext", on_delete=models.PROTECT, related_name="checkout_session"
    )
    buyer = models.ForeignKey(
        GuestBuyer, null=True, blank=True, on_delete=models.PROTECT, related_name="sessions"
    )
    fulfillment_details = models.JSONField(default=dict, blank=True)
    locale = models.CharField(max_length=10, default="en")
    canceled = models.BooleanField(default=False)
    # The 3-D Secure directory server of the card being authenticated ("visa", "mastercard",
    # "american_express"), for the session's `authentication_metadata`.
    directory_server = models.CharField(max_length=20, blank=True)
    # The interventions the agent said it handles (capabilities.interventions.supported).
    interventions = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"checkout session {self.id}"


class OrderLine(models.Model):
    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="lines")
    product = models.ForeignKey("gifts.Product", on_delete=models.PROTECT, related_name="+")
    sku = models.CharField(max_length=32)
    name = models.CharField(max_length=200)
    unit_price = models.DecimalField(max_digits=10, decimal_places=2)
    quantity = models.PositiveIntegerField(default=1)
    line_total = _money(help_text="unit_price times quantity.")
    tax_rate = models.DecimalField(max_digits=5, decimal_places=2, default=0)
    tax_amount = _money(help_text="This line's tax, rounded on its own.")

    def __str__(self) -> str:
        return f"{self.quantity} x {self.sku}"


class ReservationStatus(models.TextChoices):
    HELD = "held", "Held"
    CONFIRMED = "confirmed", "Confirmed (sold)"
    RELEASED = "released", "Released"
    EXPIRED = "expired", "Expired"


class Reservation(models.Model):
    """A stock hold: units are taken from Product.stock while held and returned on release."""

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="reservations")
    product = models.ForeignKey(
        "gifts.Product", on_delete=models.PROTECT, related_name="reservations"
    )
    quantity = models.PositiveIntegerField(default=1)
    status = models.CharField(
        max_length=12, choices=ReservationStatus.choices, default=ReservationStatus.HELD
    )
    expires_at = models.DateTimeField(db_index=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    released_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "expires_at"])]

    def __str__(self) -> str:
        return f"hold {self.quantity} x {self.product_id} ({self.status})"


class PaymentStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"
    UNKNOWN = "unknown", "Unknown (provider unreachable)"
    REFUNDED = "refunded", "Refunded"


class Payment(models.Model):
    order = models.ForeignKey(Order, on_delete=models.PROTECT, related_name="payments")
    provider_idempotency_key = models.CharField(max_length=100, unique=True)
    attempt = models.PositiveSmallIntegerField(
        default=1, help_text="The order's saga run that made it."
    )
    provider_charge_id = models.CharField(max_length=64, blank=True, db_index=True)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3)
    status = models.CharField(
        max_length=12, choices=PaymentStatus.choices, default=PaymentStatus.PENDING
    )
    refunded_amount = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    provider_refund_id = models.CharField(max_length=64, blank=True)
    error_code = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"payment {self.provider_charge_id or self.provider_idempotency_key} ({self.status})"


class SagaStepName(models.TextChoices):
    CREATE_ORDER = "create_order", "Create order"
    RESERVE_ITEMS = "reserve_items", "Reserve items"
    CHARGE_CARD = "charge_card", "Charge card"
    COMPLETE = "complete", "Complete"
    REFUND = "refund", "Refund"
    CANCEL_RESERVATION = "cancel_reservation", "Cancel reservation"
    CANCEL_ORDER = "cancel_order", "Cancel order"
    RECONCILE = "reconcile", "Reconcile payment"


class SagaStepStatus(models.TextChoices):
    STARTED = "started", "Started"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"
    SKIPPED = "skipped", "Skipped"
    PENDING = "pending", "Waiting for the payment provider"


class SagaStep(models.Model):
    """The saga's persisted progress: recovery reads it to finish or compensate an order."""

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="saga_steps")
    step = models.CharField(max_length=24, choices=SagaStepName.choices)
    status = models.CharField(max_length=12, choices=SagaStepStatus.choices)
    attempt = models.PositiveSmallIntegerField(default=1)
    error_code = models.CharField(max_length=64, blank=True)
    detail = models.CharField(max_length=300, blank=True)
    # The call that wrote the step (a commit, a cancel, a sweep): finds the order from a tool
    # call's correlation id, which need not be the one that prepared the order.
    correlation_id = models.CharField(max_length=64, blank=True, db_index=True)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["started_at", "id"]

    def __str__(self) -> str:
        return f"{self.step} {self.status}"


class StaffAction(models.TextChoices):
    ROLLBACK = "rollback", "Roll back"
    RESEND_RECEIPT = "resend_receipt", "Resend the receipt"
    REVOKE_RECEIPT_LINK = "revoke_receipt_link", "Revoke the receipt link"
    MARK_SHIPPED = "mark_shipped", "Mark shipped"
    MARK_DELIVERED = "mark_delivered", "Mark delivered"


class OrderAuditEntry(models.Model):
    """Append-only record of every staff action on an order (who, when, what, why, outcome)."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    order = models.ForeignKey(Order, on_delete=models.PROTECT, related_name="audit_entries")
    action = models.CharField(
        max_length=24, choices=StaffAction.choices, default=StaffAction.ROLLBACK
    )
    reason = models.CharField(max_length=500)
    outcome = models.CharField(max_length=40)
    detail = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "order audit entries"
        permissions = [
            ("fulfil_order", "Can mark orders shipped or delivered"),
            ("resend_receipt", "Can resend receipts and revoke receipt links"),
        ]

    def __str__(self) -> str:
        return f"{self.actor} {self.action} {self.order_id}: {self.outcome}"


# ---------------------------------------------------------------------------------------------
# Payment simulator ledger (checkout.payments.simulator).
# These rows stand for an external provider's books. checkout.payments.router sends them to the
# "payment_ledger" database (its own connection), so no app transaction can roll them back.
# They never hold foreign keys into the app's tables: an order is only named in metadata.
# ---------------------------------------------------------------------------------------------


class SimulatedChargeStatus(models.TextChoices):
    SUCCEEDED = "succeeded", "Succeeded (captured)"
    PENDING = "pending", "Pending"
    FAILED = "failed", "Failed (declined, or cancelled while the bank waited)"
    REQUIRES_ACTION = "requires_action", "Waiting for the person's bank (3-D Secure)"


class SimulatedChargeRequest(models.Model):
    """Every charge request the simulator received under a key, processed or not (a timed-out
    first attempt leaves no charge but still counts here)."""

    idempotency_key = models.CharField(max_length=200, unique=True)
    payment_method_id = models.CharField(max_length=64)
    attempts = models.PositiveIntegerField(default=0)
    first_seen_at = models.DateTimeField(default=timezone.now)
    last_seen_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"charge request {self.idempotency_key} (attempts: {self.attempts})"


class SimulatedCharge(models.Model):
    charge_id = models.CharField(max_length=40, unique=True)
    idempotency_key = models.CharField(max_length=200, unique=True)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3)
    payment_method_id = models.CharField(max_length=64)
    status = models.CharField(max_length=20, choices=SimulatedChargeStatus.choices)
    failure_code = models.CharField(max_length=32, blank=True)
    refunded_amount = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    metadata = models.JSONField(default=dict, blank=True)
    order_id = models.CharField(max_length=64, blank=True, db_index=True)
    attempts = models.PositiveIntegerField(
        default=1, help_text="Charge requests seen under this key."
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    settles_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.charge_id} {self.amount} {self.currency} ({self.status})"


class SimulatedRefund(models.Model):
    refund_id = models.CharField(max_length=40, unique=True)
    # to_field: refund.charge_id is the provider's "ch_..." id, as in the Refund dataclass.
    charge = models.ForeignKey(
        SimulatedCharge, on_delete=models.PROTECT, related_name="refunds", to_field="charge_id"
    )
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    idempotency_key = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.refund_id} {self.amount} of {self.charge_id}"


class SimulatedCheckoutSession(models.Model):
    """The simulator's hosted payment page (its Checkout Session): a new card is "entered" here,
    by choosing one of the test cards, each charge attempt under a key of its own
    (`charge_key`) so another card may follow a decline."""

    checkout_id = models.CharField(max_length=40, unique=True)
    idempotency_key = models.CharField(max_length=200, unique=True)
    order_id = models.CharField(max_length=64, blank=True, db_index=True)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3)
    lines = models.JSONField(default=list, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, default="open")  # open | complete | expired
    charge_key = models.CharField(max_length=200, blank=True)
    tries = models.PositiveIntegerField(default=0)
    success_url = models.CharField(max_length=2000)
    cancel_url = models.CharField(max_length=2000)
    expires_at = models.DateTimeField()
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    def __str__(self) -> str:
        return f"{self.checkout_id} {self.amount} {self.currency} ({self.status})"


class OutboxStatus(models.TextChoices):
    PENDING = "pending", "Pending (not delivered yet, or waiting for a retry)"
    DELIVERED = "delivered", "Delivered (sent or applied)"
    PARKED = "parked", "Parked for a person (failed too often)"


class OutboxMessage(models.Model):
    """Something the app does later, outside the transaction that decided it (checkout.outbox).

    Written in the same transaction as the change it follows (a completed order's receipt) or
    as the receipt of what asked for it (a provider's webhook event), and delivered by the
    sweeps: one policy of tries, backoff and parking for every kind. `key` makes a message
    unique: a second write under the same key is a duplicate and is dropped.

    The payload keeps only what delivering needs: ids, or a body the app made itself and must
    send unchanged on every try (an agent's order event); never a provider's event body (a
    PaymentIntent carries its client secret)."""

    kind = models.CharField(max_length=40, db_index=True)
    key = models.CharField(max_length=255, unique=True)
    payload = models.JSONField(default=dict, blank=True)
    # Not a foreign key: a provider's event may name an order this database does not hold.
    order_id = models.UUIDField(null=True, blank=True, db_index=True)
    status = models.CharField(
        max_length=10, choices=OutboxStatus.choices, default=OutboxStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=300, blank=True, help_text="What delivering it did.")
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="outbox_due")]
        permissions = [("retry_outboxmessage", "Can retry a parked outbox message")]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} ({self.status})"


class ParkedOutboxMessageManager(models.Manager):
    def get_queryset(self):
        return super().get_queryset().filter(status=OutboxStatus.PARKED)


class ParkedOutboxMessage(OutboxMessage):
    """The dead-letter list: messages that failed every try, waiting for a person."""

    objects = ParkedOutboxMessageManager()

    class Meta:
        proxy = True
        verbose_name = "parked outbox message"


class StripeCustomer(models.Model):
    """The person's Customer at Stripe: made once, when first needed, and kept here so every
    later call (their saved cards, a charge) names it without asking Stripe to search."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stripe_customer"
    )
    customer_id = models.CharField(max_length=255, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.customer_id} (user {self.user_id})"
