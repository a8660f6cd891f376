"""Input and output models of the commerce tools: the JSON schemas the model and REST see.

`idempotency_key` is required (a call without it gets IDEMPOTENCY_KEY_REQUIRED, which says
what a key is for). `confirmation_token` is optional on purpose: only the widget has it, and a
call without it must reach the checkout code and get CONFIRMATION_REQUIRED (which says to ask
the person to press the button), not a generic "field required".
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from gifts.schemas import StepId, WorkflowId
from tool_runtime.schemas import ToolInput, ToolOutput
from tool_runtime.text import PrintableText

# ISO 3166-1 alpha-2: every officially assigned code (249).
COUNTRY_CODES = (
    "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ",
    "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS",
    "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN",
    "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE",
    "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF",
    "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM",
    "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM",
    "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC",
    "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK",
    "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA",
    "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG",
    "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW",
    "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS",
    "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO",
    "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
    "VN", "VU", "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
)  # fmt: skip

ORDER_STATUSES = (
    "draft",
    "processing",
    "payment_pending",
    "awaiting_payment",
    "completed",
    "failed",
    "cancelled",
)
OrderStatusName = Literal[ORDER_STATUSES]  # type: ignore[valid-type]
EXAMPLE_WORKFLOW = "3f2b8c1e-6d4a-4f7b-9c2e-1a5d7e9f0b34"
EXAMPLE_ORDER = "9b1d5c7e-2f4a-4e8b-a6c3-0d2e4f6a8b10"
EXAMPLE_KEY = "5e0c2a94-7b1d-4c3e-9f8a-6d2b1c0e4f37"


def _none_if_empty(value: Any) -> Any:
    """A form's empty choice ("no gift wrap") means none."""
    return None if value == "" else value


def _upper(value: Any) -> Any:
    return value.strip().upper() if isinstance(value, str) else value


CountryCode = Annotated[
    Literal[COUNTRY_CODES],  # type: ignore[valid-type]
    BeforeValidator(_upper),
    Field(description="ISO 3166-1 alpha-2 country code, e.g. 'US', 'PL', 'DE'.", examples=["US"]),
]

IdempotencyKeyField = Field(
    min_length=8,
    max_length=200,
    pattern=r"^[A-Za-z0-9_-]+$",
    description=(
        "A fresh UUID for each user action; send the SAME value again when retrying that action "
        "(a retry then returns the first result instead of acting twice). A call refused as "
        "invalid (ok=false with error_type 'validation') keeps no key: fix it and send it with "
        "the same key. Once a call has acted, its result (a decline or time-out included) is "
        "what that key answers."
    ),
    examples=[EXAMPLE_KEY],
)


# --- get_payment_methods ----------------------------------------------------------------------


class GetPaymentMethodsInput(ToolInput):
    model_config = ConfigDict(
        extra="forbid",
        str_strip_whitespace=True,
        json_schema_extra={"examples": [{"workflow_id": EXAMPLE_WORKFLOW}]},
    )
    workflow_id: UUID = WorkflowId


class PaymentMethodOut(BaseModel):
    id: str = Field(description="Pass this as payment_method_id to prepare_order.")
    label: str = Field(description="What the person sees, e.g. 'Visa •••• 4242'.")
    brand: str = Field(description="The card's brand; empty for a new card.")
    last4: str = Field(description="The card number's last 4 digits; empty for a new card.")
    description: str
    exp_month: int | None = Field(default=None, description="A saved card's expiry month.")
    exp_year: int | None = Field(default=None, description="A saved card's expiry year.")


class GetPaymentMethodsOutput(ToolOutput):
    workflow_id: UUID
    current_step: StepId
    payment_methods: list[PaymentMethodOut]
    selected_payment_method_id: str | None = None


# --- prepare_order ----------------------------------------------------------------------------


class Shipping(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    name: PrintableText = Field(
        min_length=1,
        max_length=100,
        description="Recipient's full name.",
        examples=["Ada Lovelace"],
    )
    line1: PrintableText = Field(
        min_length=1,
        max_length=200,
        description="Street and number.",
        examples=["12 Market Street"],
    )
    city: PrintableText = Field(min_length=1, max_length=100, examples=["Springfield"])
    postal_code: str = Field(
        min_length=2, max_length=16, pattern=r"^[A-Za-z0-9 -]+$", examples=["62701"]
    )
    country: CountryCode


class PrepareOrderInput(ToolInput):
    model_config = ConfigDict(
        extra="forbid",
        str_strip_whitespace=True,
        json_schema_extra={
            "examples": [
                {
                    "workflow_id": EXAMPLE_WORKFLOW,
                    "payment_method_id": "pm_card_visa",
                    "shipping": {
                        "name": "Ada Lovelace",
                        "line1": "12 Market Street",
                        "city": "Springfield",
                        "postal_code": "62701",
                        "country": "US",
                    },
                    "idempotency_key": EXAMPLE_KEY,
                }
            ]
        },
    )
    workflow_id: UUID = WorkflowId
    payment_method_id: str = Field(
        min_length=1,
        max_length=64,
        description="The id of one of the payment methods get_payment_methods returned.",
        examples=["pm_card_visa"],
    )
    shipping: Shipping = Field(description="Where the gift is delivered.")
    quantity: int = Field(
        default=1,
        ge=1,
        le=1000,
        description="Units of the gift, 1 to the product's limit (usually 1; two is allowed).",
    )
    shipping_option: Annotated[str | None, BeforeValidator(_none_if_empty)] = Field(
        default=None,
        max_length=40,
        pattern=r"^[a-z0-9_-]+$",
        description=(
            "A delivery option code from delivery_options of an earlier prepare_order result. "
            "Leave it out for the cheapest. Changing it re-prices the draft and keeps the hold."
        ),
        examples=["standard"],
    )
    gift_wrap: Annotated[str | None, BeforeValidator(_none_if_empty)] = Field(
        default=None,
        max_length=40,
        pattern=r"^[a-z0-9_-]+$",
        description="A gift wrap code from gift_wrap_options; leave it out for none.",
        examples=["classic"],
    )
    gift_message: PrintableText | None = Field(
        default=None,
        max_length=250,
        description="A message for the recipient, at most 250 characters (emoji are fine).",
    )
    ship_to_recipient: bool = Field(
        default=False,
        description=(
            "True when the address is the recipient's: the message goes on the packing slip, "
            "which never shows prices."
        ),
    )
    currency: str | None = Field(
        default=None,
        min_length=3,
        max_length=3,
        pattern=r"^[A-Z]{3}$",
        description="The currency the person expects to pay in; refused if the gift is sold in another.",
    )
    idempotency_key: str = IdempotencyKeyField


class LineItemOut(BaseModel):
    product_id: int
    sku: str
    name: str
    quantity: int
    unit_price: str = Field(description="Decimal amount as a string, e.g. '24.99'.")
    line_total: str
    tax_rate: str = Field(description="Percent, e.g. '23.00'.")
    tax: str = Field(description="The tax of this line (included or added), rounded.")


class TotalLineOut(BaseModel):
    code: Literal["items", "shipping", "gift_wrap", "tax", "total"]
    label: str = Field(description="Localized, e.g. 'incl. VAT 23 %' or '+ sales tax'.")
    amount: str
    display: str = Field(description="The amount as the person's locale writes it, e.g. '€4.90'.")


class DeliveryOptionOut(BaseModel):
    code: str = Field(description="Pass as shipping_option to prepare_order to choose it.")
    name: str
    price: str
    price_display: str
    earliest: date = Field(description="Earliest delivery date (business days from today).")
    latest: date
    window: str = Field(description="The delivery window in words, e.g. 'Mar 12-14'.")
    selected: bool = False


class GiftWrapOptionOut(BaseModel):
    code: str
    name: str
    price: str
    price_display: str


class GiftOptionsOut(BaseModel):
    message: str
    gift_wrap: Annotated[str | None, BeforeValidator(_none_if_empty)] = Field(
        description="The chosen wrap's code, or None."
    )
    gift_wrap_name: str
    ship_to_recipient: bool


class OrderTotals(BaseModel):
    """The money of an order, frozen on its draft: what prepare_order and get_order show."""

    line_items: list[LineItemOut]
    totals: list[TotalLineOut] = Field(
        description="items, shipping, gift_wrap, tax, total; total is exactly what is charged."
    )
    prices_include_tax: bool
    delivery: DeliveryOptionOut | None
    gift_options: GiftOptionsOut
    summary: str = Field(
        description="One sentence to tell the person: total, shipping, arrival window."
    )


class OrderGift(BaseModel):
    product_id: int
    sku: str
    name: str
    unit_price: str = Field(description="Decimal amount as a string, e.g. '24.99'.")
    quantity: int


class PaymentMethodRef(BaseModel):
    id: str
    label: str


class PrepareOrderOutput(ToolOutput, OrderTotals):
    workflow_id: UUID
    current_step: StepId
    order_id: UUID
    status: Literal["draft"]
    gift: OrderGift
    amount: str = Field(description="Total to pay (the 'total' line), decimal as a string.")
    currency: str
    shipping: Shipping
    delivery_options: list[DeliveryOptionOut] = Field(
        description="Every option serving the address, cheapest first, with its window."
    )
    gift_wrap_options: list[GiftWrapOptionOut]
    payment_method: PaymentMethodRef
    expires_at: datetime = Field(description="The stock is held until then; confirm before it.")
    next_step: str


# --- commit_order -----------------------------------------------------------------------------


class CommitOrderInput(ToolInput):
    model_config = ConfigDict(
        extra="forbid",
        str_strip_whitespace=True,
        json_schema_extra={
            "examples": [
                {
                    "workflow_id": EXAMPLE_WORKFLOW,
                    "order_id": EXAMPLE_ORDER,
                    "confirmation_token": "issued-to-the-widget-only",
                    "idempotency_key": EXAMPLE_KEY,
                }
            ]
        },
    )
    workflow_id: UUID = WorkflowId
    order_id: UUID = Field(description="The order_id returned by prepare_order.")
    confirmation_token: PrintableText | None = Field(
        default=None,
        max_length=200,
        description=(
            "Set by the widget when the person presses 'Confirm purchase'. The model never has it "
            "and must not invent one."
        ),
    )
    idempotency_key: str = IdempotencyKeyField


class NextAction(BaseModel):
    """Where the person finishes paying, outside the chat: the widget opens `url` with the
    host's link-opening call."""

    type: Literal["open_url"]
    reason: Literal["hosted_checkout", "authenticate"] = Field(
        description="hosted_checkout: the payment service's page for a new card; authenticate: "
        "the bank's check (3-D Secure) for a saved card."
    )
    url: str | None = Field(
        description="The payment service's page; never ask for card details in chat. Absent "
        "for the bank's check, whose page only the widget opens."
    )
    expires_at: datetime = Field(
        description="The page works and the gift is held until then; after it the order is "
        "cancelled and the stock released."
    )


class CommitOrderOutput(ToolOutput):
    workflow_id: UUID
    current_step: StepId
    order_id: UUID
    status: Literal["completed", "payment_pending", "processing", "awaiting_payment"]
    amount: str
    currency: str
    message: str = Field(description="What to tell the person.")
    next_action: NextAction | None = Field(
        default=None,
        description="Present while the order awaits payment: the page the person pays on.",
    )


# --- cancel_order -----------------------------------------------------------------------------


class CancelOrderInput(ToolInput):
    model_config = ConfigDict(
        extra="forbid",
        str_strip_whitespace=True,
        json_schema_extra={
            "examples": [
                {
                    "order_id": EXAMPLE_ORDER,
                    "reason": "The person changed their mind.",
                    "idempotency_key": EXAMPLE_KEY,
                }
            ]
        },
    )
    order_id: UUID = Field(
        description="The order to cancel: the order_id prepare_order returned (get_workflow "
        "shows it as draft_order_id)."
    )
    reason: PrintableText = Field(
        min_length=3, max_length=300, description="Why, in the person's words."
    )
    idempotency_key: str = IdempotencyKeyField


class CancelOrderOutput(ToolOutput):
    order_id: UUID
    status: OrderStatusName
    already_cancelled: bool = Field(description="True when nothing had to be done.")
    refunded_amount: str = Field(
        description="Money returned to the card by this order's cancellation."
    )
    currency: str
    message: str


# --- get_order --------------------------------------------------------------------------------


class GetOrderInput(ToolInput):
    model_config = ConfigDict(
        extra="forbid",
        str_strip_whitespace=True,
        json_schema_extra={"examples": [{"order_id": EXAMPLE_ORDER}]},
    )
    order_id: UUID = Field(description="The order_id prepare_order returned.")


class PaymentOut(BaseModel):
    provider_charge_id: str | None
    amount: str
    currency: str
    status: Literal["pending", "succeeded", "failed", "unknown", "refunded"]
    refunded_amount: str
    attempt: int
    error_code: str | None = None


class SagaStepOut(BaseModel):
    step: str
    status: str
    attempt: int
    error_code: str | None = None
    started_at: datetime
    finished_at: datetime | None = None


class OrderFailure(BaseModel):
    code: str
    message: str
    retryable: bool


class FulfilmentOut(BaseModel):
    status: Literal["unfulfilled", "shipped", "delivered"] = Field(
        description="unfulfilled (paid, not shipped yet) → shipped → delivered."
    )
    carrier: str | None = None
    tracking_number: str | None = None
    tracking_url: str | None = None
    shipped_at: datetime | None = None
    delivered_at: datetime | None = None


class GetOrderOutput(ToolOutput, OrderTotals):
    order_id: UUID
    workflow_id: UUID | None
    status: OrderStatusName
    amount: str
    currency: str
    gift: OrderGift | None
    shipping: dict
    payment_method: PaymentMethodRef
    created_at: datetime
    expires_at: datetime | None = Field(
        description="Until when the stock is held (a draft, or an order awaiting payment)."
    )
    failure: OrderFailure | None = None
    payments: list[PaymentOut]
    saga: list[SagaStepOut] = Field(description="The checkout steps in order, with outcomes.")
    fulfilment: FulfilmentOut = Field(
        description="Where the gift is: shipping status and tracking (the window is in delivery)."
    )
    next_action: NextAction | None = Field(
        default=None,
        description="Present while the order awaits payment: the page the person pays on.",
    )
