"""Checkout's error codes, in the one catalog (tool_runtime.errors)."""

from django.utils.translation import gettext_lazy as _

import gifts.errors  # noqa: F401 (its codes are in the catalog before RETRYABLE_FAILURES is read)
from tool_runtime.errors import (
    ALERT,
    ANALYTICS,
    ERROR_CATALOG,
    B,
    C,
    U,
    V,
    declare_errors,
    error_spec,
)

declare_errors(
    error_spec(
        "QUANTITY_OVER_LIMIT",
        V,
        False,
        422,
        ANALYTICS,
        _("That quantity is not available for this gift. Please choose fewer."),
    ),
    error_spec(
        "SHIPPING_OPTION_UNKNOWN",
        V,
        False,
        422,
        ANALYTICS,
        _("Please choose one of the delivery options shown."),
    ),
    error_spec(
        "SHIPPING_NOT_AVAILABLE",
        B,
        False,
        422,
        ANALYTICS,
        _("We cannot deliver there with this option. Please check the address or the option."),
    ),
    error_spec(
        "CURRENCY_MISMATCH",
        V,
        False,
        422,
        ANALYTICS,
        _("This option is not available in the order's currency."),
    ),
    error_spec(
        "GIFT_WRAP_UNKNOWN",
        V,
        False,
        422,
        ANALYTICS,
        _("Please choose one of the gift wrap options shown."),
    ),
    error_spec(
        "TAX_RATE_MISSING",
        B,
        False,
        422,
        ALERT,
        _("We cannot price an order to this country right now."),
    ),
    error_spec(
        "CONFIRMATION_REQUIRED",
        B,
        False,
        403,
        ANALYTICS,
        _("Please confirm the purchase with the button below."),
    ),
    error_spec(
        "PAYMENT_METHOD_UNKNOWN",
        V,
        False,
        422,
        ANALYTICS,
        _("Please choose one of your saved payment methods."),
    ),
    error_spec(
        "CHECKOUT_EXPIRED",
        B,
        True,
        409,
        ANALYTICS,
        _(
            "The payment page expired before the payment was made. You have not been charged, "
            "and the gift is no longer held."
        ),
    ),
    error_spec(
        "CARD_DECLINED",
        B,
        False,
        402,
        ANALYTICS,
        _("Your card was declined. Please choose another payment method."),
    ),
    error_spec(
        "INSUFFICIENT_FUNDS",
        B,
        False,
        402,
        ANALYTICS,
        _("The card has insufficient funds. Please choose another payment method."),
    ),
    error_spec(
        "PAYMENT_TIMEOUT",
        U,
        True,
        504,
        ALERT,
        _("The payment is taking longer than usual. You have not been charged. Please try again."),
    ),
    error_spec(
        "PAYMENT_PROVIDER_ERROR",
        U,
        True,
        503,
        ALERT,
        _(
            "The payment service is not answering. You have not been charged. Please try again in a moment."
        ),
    ),
    error_spec(
        "PAYMENT_REJECTED",
        U,
        False,
        502,
        ALERT,
        _("The payment could not be processed. Please choose another payment method."),
    ),
    error_spec(
        "ORDER_EXPIRED",
        B,
        False,
        409,
        ANALYTICS,
        _("This order has expired. Please review it again."),
    ),
    error_spec(
        "ORDER_NOT_COMMITTABLE",
        B,
        False,
        409,
        ANALYTICS,
        _("This order can no longer be confirmed. Please review it again."),
    ),
    error_spec(
        "ORDER_NOT_CANCELLABLE",
        B,
        False,
        409,
        ANALYTICS,
        _("This order cannot be cancelled any more."),
    ),
    error_spec(
        "ORDER_ALREADY_SHIPPED",
        B,
        False,
        409,
        ANALYTICS,
        _(
            "This gift has already been sent, so it cannot be cancelled. Please contact the shop for a return."
        ),
    ),
    error_spec(
        "ORDER_IN_PROGRESS",
        C,
        False,
        409,
        ANALYTICS,
        _("Your order is still being processed. Please wait for it to finish."),
    ),
)

# Failures after which the same order may run the saga again (fully compensated, retryable):
# every retryable code of the layers below and of checkout, e.g. INTERNAL_ERROR (a crash that
# recovery compensated) and PAYMENT_TIMEOUT. The gift domain's codes are declared first, so the
# set never depends on which module was imported first.
RETRYABLE_FAILURES = frozenset(code for code, spec in ERROR_CATALOG.items() if spec.retryable)
