"""Where an order stands (`status.html`): confirmed, pending, failed, cancelled; and the notice
shown in place of a screen that could not be drawn after its tool ran."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any
from urllib.parse import urljoin

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from checkout import selectors as checkout_selectors
from tool_runtime.errors import ERROR_CATALOG, spec_for
from widget import selectors
from widget.formatting import local_time, money, picture
from widget.receipts import fulfilment_label
from widget.screens.actions import Action, checkout_action, start_over_action

STATUS_TEXT = {
    "completed": lambda: (
        _("Thank you! Your order is confirmed."),
        _("The gift is on its way. You will not be charged again."),
    ),
    "payment_pending": lambda: (
        _("Your payment is being confirmed."),
        _("This can take a moment. Nothing will be charged twice."),
    ),
    "processing": lambda: (
        _("We are finishing your order."),
        _("This can take a moment. Nothing will be charged twice."),
    ),
    "failed": lambda: (_("The order did not go through."), _("You have not been charged.")),
    "cancelled": lambda: (_("The order was cancelled."), ""),
    "awaiting_payment": lambda: (
        _("Finish paying in the tab that opened."),
        _("This screen updates by itself once the payment goes through."),
    ),
    "draft": lambda: (
        _("This order is not confirmed yet."),
        _("Review it and confirm when you are ready."),
    ),
}
# Where an order waits for something outside the widget, the screen asks get_order again by
# itself (bridge.js: data-gg-poll), so the person never has to press "Check again".
WAITING = {"payment_pending", "processing", "awaiting_payment"}


def status_context(
    body: dict[str, Any], *, hosted: bool = True, meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    status = body.get("status") or "processing"
    heading, text = STATUS_TEXT.get(status, STATUS_TEXT["processing"])()
    order_id = body.get("order_id")
    workflow_id = body.get("workflow_id")
    actions: list[Action] = []
    banner = ""
    failure = body.get("failure") or None
    waiting = _awaiting_payment(body) if status == "awaiting_payment" else {}
    if waiting:
        heading, text = waiting["heading"], waiting["text"]
        actions.append(waiting["cancel"])
    elif status in WAITING:
        actions.append(
            Action(
                "get_order",
                _("Check again"),
                {"order_id": str(order_id)},
                testid="check-again",
                style="primary",
            )
        )
    elif status == "failed":
        if failure and failure.get("code") in ERROR_CATALOG:
            banner = str(spec_for(failure["code"]).banner)
        expired = bool(failure) and failure.get("code") == "CHECKOUT_EXPIRED"
        # A page that lapsed unpaid: the same card may well do, on a new page.
        label = _("Pay again") if expired else _("Choose another payment method")
        actions.append(checkout_action(workflow_id, label))
    elif status == "draft":
        actions.append(checkout_action(workflow_id, _("Review the order")))
    elif status in {"cancelled", "completed"}:
        # A tool as well as a message: without a chat (the standalone page) it starts a search.
        actions.append(start_over_action())
        if status == "completed" and not hosted:
            actions[-1].style = "primary"
    refunded = body.get("refunded_amount")
    gift = body.get("gift") or {}
    ordered = (selectors.order_gift(order_id) if order_id else None) or {}
    return {
        "workflow_id": workflow_id,
        "status": status,
        "heading": heading,
        "text": text,
        "banner": banner,
        "gift_name": gift.get("name") or ordered.get("name") or "",
        "picture": picture(ordered) if status == "completed" else None,
        # Next steps the host sends into the chat as the person's own message (contract (b));
        # only a host has a chat to send them to.
        "follow_ups": [
            (_("Write a card message"), _("Help me write a short card message for this gift.")),
        ]
        if status == "completed" and hosted
        else [],
        "amount": money(body.get("amount"), body.get("currency", "")) if body.get("amount") else "",
        "refunded": money(refunded, body.get("currency", ""))
        if refunded and Decimal(str(refunded)) > 0
        else "",
        "order_ref": str(order_id).split("-")[0].upper() if order_id else "",
        **(_delivery(order_id, (meta or {}).get("receipt_key")) if status == "completed" else {}),
        "actions": actions,
        "open_url": waiting.get("url", ""),
        "open_label": waiting.get("open_label", ""),
        "poll_args": json.dumps({"order_id": str(order_id)})
        if status in WAITING and order_id
        else "",
    }


def _awaiting_payment(body: dict[str, Any]) -> dict[str, Any]:
    """An order waiting for the person to pay on a page of the payment service (or to confirm
    a saved card with their bank): the page opens by itself, can be opened again, and the
    order can be cancelled meanwhile. {} without a page to go to."""
    next_action = body.get("next_action") or {}
    url = next_action.get("url") or ""
    if next_action.get("type") != "open_url" or not url.startswith(("https://", "http://")):
        return {}
    held_until = local_time(next_action.get("expires_at") or body.get("expires_at"))
    held = (
        _("The gift is held for you until %(held_until)s.") % {"held_until": held_until}
        if held_until
        else ""
    )
    if next_action.get("reason") == "authenticate":
        heading = _("Your bank asks you to confirm the payment.")
        what = _("Confirm it in the tab that opened; this screen updates by itself.")
        open_label = _("Open the confirmation again")
    else:
        heading = _("Finish paying in the tab that opened.")
        what = _("This screen updates by itself once the payment goes through.")
        open_label = _("Open the payment page again")
    return {
        "heading": heading,
        "text": " ".join(part for part in (held, what) if part),
        "url": url,
        "open_label": open_label,
        "cancel": Action(
            "cancel_order",
            _("Cancel the order"),
            {
                "order_id": str(body.get("order_id")),
                "reason": "The person cancelled while paying on the payment page.",
            },
            testid="cancel-order",
            idempotent=True,
        ),
    }


def _delivery(order_id: Any, receipt_key: str | None) -> dict[str, Any]:
    """Where a paid order's gift is: the answer to "where is my gift?", and the receipt link
    (the widget's alone: it comes from _meta, which the model does not see)."""
    facts = selectors.order_fulfilment(order_id) or {}
    tracking = " ".join(
        part for part in (facts.get("carrier"), facts.get("tracking_number")) if part
    )
    return {
        "labels": {
            "status": pgettext("receipt", "Status"),
            "arrives": pgettext("receipt", "Arrives"),
            "tracking": pgettext("receipt", "Tracking"),
            "receipt": pgettext("receipt", "Your receipt and the order's status"),
        },
        "fulfilment": fulfilment_label(facts["fulfilment_status"]) if facts else "",
        "delivery_window": checkout_selectors.delivery_window(
            facts["delivery_earliest"], facts["delivery_latest"]
        )
        if facts.get("delivery_earliest") and facts.get("delivery_latest")
        else "",
        "tracking": tracking,
        "tracking_url": facts.get("tracking_url") or "",
        "receipt_url": urljoin(
            settings.PUBLIC_ORIGIN, reverse("widget:receipt", args=[receipt_key])
        )
        if receipt_key
        else "",
    }


def unshown_context(*, workflow_id: Any, tool_ran: bool) -> dict[str, Any]:
    """The notice in place of a screen that could not be drawn: what happened is kept (the tool
    may have charged a card), and a button redraws the workflow as it is now."""
    heading = (
        _("Done, but this view could not be shown.")
        if tool_ran
        else _("This view could not be shown.")
    )
    return {
        "workflow_id": workflow_id,
        "status": "unshown",
        "heading": heading,
        "text": _("Nothing was lost. Show the current state to carry on."),
        "actions": [
            Action(
                "get_workflow",
                _("Show the current state"),
                {"workflow_id": str(workflow_id)} if workflow_id else {},
                testid="show-current-state",
                style="primary",
                inherit="" if workflow_id else "workflow_id",
            )
        ],
    }
