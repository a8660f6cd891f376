"""A tool that failed (`error.html`): the code's banner, and what the person can do next."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tool_runtime.errors import spec_for
from widget.screens.actions import Action, checkout_action, start_over_action

# Error codes by what the person can do about them: a retryable code offers "Try again"; the
# others offer the one change that can help, or nothing where nothing can.
CHANGE_PAYMENT = {
    "CARD_DECLINED",
    "INSUFFICIENT_FUNDS",
    "PAYMENT_METHOD_UNKNOWN",
    "PAYMENT_REJECTED",
}
PAYMENT_RETRYABLE = {"PAYMENT_TIMEOUT", "PAYMENT_PROVIDER_ERROR"}
REVIEW_ORDER = {"ORDER_EXPIRED", "ORDER_NOT_COMMITTABLE", "CONFIRMATION_REQUIRED"}
OTHER_GIFT = {"OUT_OF_STOCK", "PRODUCT_UNAVAILABLE", "PRODUCT_NOT_OFFERED"}
START_OVER = {"NOT_FOUND", "RETRY_LIMIT_EXCEEDED"}
ORDER_STATUS_CHECK = {"ORDER_IN_PROGRESS", "ORDER_NOT_CANCELLABLE", "ORDER_ALREADY_SHIPPED"}
NO_ACTION = {"UNAUTHORIZED"}


def error_context(tool: str, error: dict[str, Any]) -> dict[str, Any]:
    code = error.get("code") or "INTERNAL_ERROR"
    spec = spec_for(code)
    actions: list[Action] = []
    if spec.retryable:
        retry = Action(tool, _("Try again"), {}, testid="retry", style="primary")
        if code in PAYMENT_RETRYABLE:  # the same card may keep failing: offer another one too
            actions.append(checkout_action(None, _("Choose another payment method")))
            actions[-1].testid, actions[-1].style = "change-payment", "secondary"
        return {"code": code, "banner": str(spec.banner), "retry": retry, "actions": actions}
    if code in CHANGE_PAYMENT:
        actions.append(checkout_action(None, _("Choose another payment method")))
        actions[-1].testid = "change-payment"
    elif code in REVIEW_ORDER:
        actions.append(checkout_action(None, _("Review the order")))
        actions[-1].testid = "review-order"
    elif code in OTHER_GIFT:
        actions.append(
            Action(
                "get_workflow",
                _("See the other gifts"),
                {},
                testid="show-step",
                style="primary",
                inherit="workflow_id",
            )
        )
    elif code in START_OVER:
        actions.append(start_over_action())
    elif code in ORDER_STATUS_CHECK:
        actions.append(
            Action(
                "get_order",
                _("Check the order"),
                {},
                testid="check-again",
                style="primary",
                inherit="order_id",
            )
        )
    elif code not in NO_ACTION:
        actions.append(
            Action(
                "get_workflow", _("Show where I am"), {}, testid="show-step", inherit="workflow_id"
            )
        )
    return {"code": code, "banner": str(spec.banner), "retry": None, "actions": actions}
