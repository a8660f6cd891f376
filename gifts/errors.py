"""The gift domain's error codes, in the one catalog (tool_runtime.errors)."""

from django.utils.translation import gettext_lazy as _

from tool_runtime.errors import ALERT, ANALYTICS, B, U, declare_errors, error_spec

declare_errors(
    error_spec(
        "STEP_NOT_VISITED",
        B,
        False,
        409,
        ANALYTICS,
        _("You can only go back to a step you have already seen."),
    ),
    error_spec(
        "PRODUCT_NOT_OFFERED",
        B,
        False,
        422,
        ANALYTICS,
        _("Please pick one of the gifts shown."),
    ),
    error_spec(
        "PRODUCT_UNAVAILABLE",
        B,
        False,
        409,
        ANALYTICS,
        _("This gift is no longer available. Please choose another one."),
    ),
    error_spec(
        "OUT_OF_STOCK",
        B,
        False,
        409,
        ANALYTICS,
        _("This gift has just sold out. Please choose another one."),
    ),
    # The catalog is an upstream service (gifts.catalog retries it).
    error_spec(
        "UPSTREAM_UNAVAILABLE",
        U,
        True,
        503,
        ALERT,
        _("Our gift catalog is not answering right now. Please try again in a moment."),
    ),
    error_spec(
        "UPSTREAM_TIMEOUT",
        U,
        True,
        504,
        ALERT,
        _("Our gift catalog is taking too long. Please try again in a moment."),
    ),
    error_spec(
        "UPSTREAM_REJECTED",
        U,
        False,
        502,
        ALERT,
        _("Our gift catalog could not handle this request. Please try something else."),
    ),
)
