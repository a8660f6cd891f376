"""The error contract (SPEC §5): one catalog of codes and the exception every layer raises.

Each code has an error_type, whether retrying can help, the REST status, an alert severity and
the short banner shown to the person (localized through Django's i18n).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class ErrorType(StrEnum):
    VALIDATION = "validation"
    BUSINESS = "business"
    CONFLICT = "conflict"
    UPSTREAM = "upstream"
    PLATFORM = "platform"


class Severity(StrEnum):
    ALERT = "alert"  # a system failure someone should be paged for
    ANALYTICS = "analytics"  # an expected business event, counted but never paged


@dataclass(frozen=True)
class ErrorSpec:
    code: str
    error_type: ErrorType
    retryable: bool
    http_status: int
    severity: Severity
    banner: Promise  # the person-facing text, translated at render time


def _spec(code, error_type, retryable, http_status, severity, banner) -> ErrorSpec:
    return ErrorSpec(code, error_type, retryable, http_status, severity, banner)


V, B, C, U, P = (
    ErrorType.VALIDATION,
    ErrorType.BUSINESS,
    ErrorType.CONFLICT,
    ErrorType.UPSTREAM,
    ErrorType.PLATFORM,
)
ALERT, ANALYTICS = Severity.ALERT, Severity.ANALYTICS

ERROR_CATALOG: dict[str, ErrorSpec] = {
    spec.code: spec
    for spec in [
        _spec(
            "VALIDATION_ERROR",
            V,
            False,
            422,
            ANALYTICS,
            _("Something in the request was not quite right. Please try again."),
        ),
        _spec(
            "INVALID_JSON",
            V,
            False,
            400,
            ANALYTICS,
            _("Something in the request was not quite right. Please try again."),
        ),
        _spec(
            "PAYLOAD_TOO_LARGE",
            V,
            False,
            413,
            ANALYTICS,
            _("Something in the request was not quite right. Please try again."),
        ),
        _spec("UNKNOWN_TOOL", V, False, 404, ANALYTICS, _("This action is not available.")),
        _spec("UNAUTHORIZED", P, False, 401, ANALYTICS, _("Please sign in again to continue.")),
        _spec(
            "INSUFFICIENT_SCOPE",
            P,
            False,
            403,
            ANALYTICS,
            _("GiftGenius needs more permission for this. Please reconnect and allow it."),
        ),
        _spec(
            "NOT_FOUND", B, False, 404, ANALYTICS, _("We could not find that. Please start again.")
        ),
        _spec(
            "TOOL_NOT_AVAILABLE_IN_STEP",
            C,
            False,
            409,
            ANALYTICS,
            _("That step is not available right now."),
        ),
        _spec(
            "STEP_NOT_VISITED",
            B,
            False,
            409,
            ANALYTICS,
            _("You can only go back to a step you have already seen."),
        ),
        _spec(
            "PRODUCT_NOT_OFFERED",
            B,
            False,
            422,
            ANALYTICS,
            _("Please pick one of the gifts shown."),
        ),
        _spec(
            "PRODUCT_UNAVAILABLE",
            B,
            False,
            409,
            ANALYTICS,
            _("This gift is no longer available. Please choose another one."),
        ),
        _spec(
            "OUT_OF_STOCK",
            B,
            False,
            409,
            ANALYTICS,
            _("This gift has just sold out. Please choose another one."),
        ),
        _spec(
            "RETRY_LIMIT_EXCEEDED",
            B,
            False,
            429,
            ALERT,
            _("This keeps failing. Let's try something different."),
        ),
        _spec(
            "UPSTREAM_UNAVAILABLE",
            U,
            True,
            503,
            ALERT,
            _("Our gift catalog is not answering right now. Please try again in a moment."),
        ),
        _spec(
            "UPSTREAM_TIMEOUT",
            U,
            True,
            504,
            ALERT,
            _("Our gift catalog is taking too long. Please try again in a moment."),
        ),
        _spec(
            "UPSTREAM_REJECTED",
            U,
            False,
            502,
            ALERT,
            _("Our gift catalog could not handle this request. Please try something else."),
        ),
        _spec(
            "INTERNAL_ERROR",
            P,
            True,
            500,
            ALERT,
            _("Something went wrong on our side. Please try again."),
        ),
        # Checkout
        _spec(
            "IDEMPOTENCY_KEY_REQUIRED",
            V,
            False,
            400,
            ANALYTICS,
            _("Something in the request was not quite right. Please try again."),
        ),
        _spec(
            "IDEMPOTENCY_KEY_REUSED",
            C,
            False,
            422,
            ANALYTICS,
            _("This action was already used for something else. Please start it again."),
        ),
        _spec(
            "IDEMPOTENCY_IN_PROGRESS",
            C,
            True,
            409,
            ANALYTICS,
            _("We are still working on your previous request. Please wait a moment."),
        ),
        _spec(
            "CONFIRMATION_REQUIRED",
            B,
            False,
            403,
            ANALYTICS,
            _("Please confirm the purchase with the button below."),
        ),
        _spec(
            "PAYMENT_METHOD_UNKNOWN",
            V,
            False,
            422,
            ANALYTICS,
            _("Please choose one of your saved payment methods."),
        ),
        _spec(
            "CARD_DECLINED",
            B,
            False,
            402,
            ANALYTICS,
            _("Your card was declined. Please choose another payment method."),
        ),
        _spec(
            "INSUFFICIENT_FUNDS",
            B,
            False,
            402,
            ANALYTICS,
            _("The card has insufficient funds. Please choose another payment method."),
        ),
        _spec(
            "PAYMENT_TIMEOUT",
            U,
            True,
            504,
            ALERT,
            _(
                "The payment is taking longer than usual. You have not been charged. Please try again."
            ),
        ),
        _spec(
            "PAYMENT_PROVIDER_ERROR",
            U,
            True,
            503,
            ALERT,
            _(
                "The payment service is not answering. You have not been charged. Please try again in a moment."
            ),
        ),
        _spec(
            "PAYMENT_REJECTED",
            U,
            False,
            502,
            ALERT,
            _("The payment could not be processed. Please choose another payment method."),
        ),
        _spec(
            "ORDER_EXPIRED",
            B,
            False,
            409,
            ANALYTICS,
            _("This order has expired. Please review it again."),
        ),
        _spec(
            "ORDER_NOT_COMMITTABLE",
            B,
            False,
            409,
            ANALYTICS,
            _("This order can no longer be confirmed. Please review it again."),
        ),
        _spec(
            "ORDER_NOT_CANCELLABLE",
            B,
            False,
            409,
            ANALYTICS,
            _("This order cannot be cancelled any more."),
        ),
        _spec(
            "ORDER_IN_PROGRESS",
            C,
            False,
            409,
            ANALYTICS,
            _("Your order is still being processed. Please wait for it to finish."),
        ),
    ]
}


def spec_for(code: str) -> ErrorSpec:
    return ERROR_CATALOG.get(code, ERROR_CATALOG["INTERNAL_ERROR"])


class ToolError(Exception):
    """A failure the caller can act on; it becomes `{"ok": false, "error": {...}}`."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        expected: str | None = None,
        allowed_values: list[Any] | None = None,
        example: Any = None,
        details: dict[str, Any] | None = None,
        next_actions: list[str] | None = None,
    ) -> None:
        if code not in ERROR_CATALOG:
            raise ValueError(f"error code {code!r} is not in the catalog")
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.expected = expected
        self.allowed_values = allowed_values
        self.example = example
        self.details = details
        self.next_actions = next_actions

    @property
    def spec(self) -> ErrorSpec:
        return ERROR_CATALOG[self.code]

    def to_dict(self) -> dict[str, Any]:
        spec = self.spec
        body: dict[str, Any] = {
            "code": self.code,
            "error_type": str(spec.error_type),
            "message": self.message,
            "retryable": spec.retryable,
        }
        optional = {
            "field": self.field,
            "expected": self.expected,
            "allowed_values": self.allowed_values,
            "example": self.example,
            "details": self.details,
            "next_actions": self.next_actions,
        }
        body.update({name: value for name, value in optional.items() if value is not None})
        return body
