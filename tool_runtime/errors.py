"""The error contract: one catalog of codes and the exception every layer raises.

Each layer declares its own codes here (`declare_errors`); each code has an error_type, whether retrying can help, the REST status, an alert severity and
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


def error_spec(code, error_type, retryable, http_status, severity, banner) -> ErrorSpec:
    return ErrorSpec(code, error_type, retryable, http_status, severity, banner)


V, B, C, U, P = (
    ErrorType.VALIDATION,
    ErrorType.BUSINESS,
    ErrorType.CONFLICT,
    ErrorType.UPSTREAM,
    ErrorType.PLATFORM,
)
ALERT, ANALYTICS = Severity.ALERT, Severity.ANALYTICS

ERROR_CATALOG: dict[str, ErrorSpec] = {}


def declare_errors(*specs: ErrorSpec) -> None:
    """Add a layer's codes to the one catalog (at import; a code is declared once)."""
    for spec in specs:
        if spec.code in ERROR_CATALOG:
            raise ValueError(f"error code {spec.code!r} is declared twice")
        ERROR_CATALOG[spec.code] = spec


# The codes of the runtime itself: the request, sign-in, the step gate, the loop guard, keys.
declare_errors(
    error_spec(
        "VALIDATION_ERROR",
        V,
        False,
        422,
        ANALYTICS,
        _("Something in the request was not quite right. Please try again."),
    ),
    error_spec(
        "INVALID_JSON",
        V,
        False,
        400,
        ANALYTICS,
        _("Something in the request was not quite right. Please try again."),
    ),
    error_spec(
        "PAYLOAD_TOO_LARGE",
        V,
        False,
        413,
        ANALYTICS,
        _("Something in the request was not quite right. Please try again."),
    ),
    error_spec(
        "METHOD_NOT_ALLOWED",
        V,
        False,
        405,
        ANALYTICS,
        _("Something in the request was not quite right. Please try again."),
    ),
    error_spec(
        "UNSUPPORTED_MEDIA_TYPE",
        V,
        False,
        415,
        ANALYTICS,
        _("Something in the request was not quite right. Please try again."),
    ),
    error_spec("UNKNOWN_TOOL", V, False, 404, ANALYTICS, _("This action is not available.")),
    error_spec("UNAUTHORIZED", P, False, 401, ANALYTICS, _("Please sign in again to continue.")),
    error_spec(
        "INSUFFICIENT_SCOPE",
        P,
        False,
        403,
        ANALYTICS,
        _("GiftGenius needs more permission for this. Please reconnect and allow it."),
    ),
    error_spec(
        "NOT_FOUND", B, False, 404, ANALYTICS, _("We could not find that. Please start again.")
    ),
    error_spec(
        "TOOL_NOT_AVAILABLE_IN_STEP",
        C,
        False,
        409,
        ANALYTICS,
        _("That step is not available right now."),
    ),
    error_spec(
        "RETRY_LIMIT_EXCEEDED",
        B,
        False,
        429,
        ALERT,
        _("This keeps failing. Let's try something different."),
    ),
    error_spec(
        "INTERNAL_ERROR",
        P,
        True,
        500,
        ALERT,
        _("Something went wrong on our side. Please try again."),
    ),
    error_spec(
        "SERVICE_UNAVAILABLE",
        P,
        True,
        503,
        ALERT,
        _("Something went wrong on our side. Please try again."),
    ),
    error_spec(
        "IDEMPOTENCY_KEY_REQUIRED",
        V,
        False,
        400,
        ANALYTICS,
        _("Something in the request was not quite right. Please try again."),
    ),
    error_spec(
        "IDEMPOTENCY_KEY_REUSED",
        C,
        False,
        422,
        ANALYTICS,
        _("This action was already used for something else. Please start it again."),
    ),
    error_spec(
        "IDEMPOTENCY_IN_PROGRESS",
        C,
        True,
        409,
        ANALYTICS,
        _("We are still working on your previous request. Please wait a moment."),
    ),
)


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
        final: bool = True,
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
        # False: a refusal that acted on nothing and answers a state that may still change (an
        # order still being paid); an idempotency key does not keep it (ToolResult.final).
        self.final = final

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
