"""The order to confirm (`summary.html`): gift, amount, address and payment, and the one button
that buys."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from widget import selectors
from widget.formatting import local_time, money, picture
from widget.screens.actions import Action, back_to_checkout_action


def summary_context(body: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
    workflow_id = body["workflow_id"]
    gift = body.get("gift") or {}
    confirm_args = {
        "workflow_id": str(workflow_id),
        "order_id": str(body["order_id"]),
        # Widget-only: in a data attribute for the bridge, never in visible text.
        "confirmation_token": meta.get("confirmation_token") or "",
    }
    ordered = selectors.order_gift(body["order_id"]) or {}
    held_until = local_time(body.get("expires_at"))
    return {
        "workflow_id": workflow_id,
        "heading": _("Check and confirm"),
        "gift_name": gift.get("name", ""),
        "picture": picture(ordered),
        "quantity": gift.get("quantity", 1),
        "amount": money(body.get("amount"), body.get("currency", "")),
        "shipping": body.get("shipping") or {},
        "payment_label": (body.get("payment_method") or {}).get("label", ""),
        # Formatted here (not in the template) so makemessages finds the msgid in Python.
        "held": _("We hold the gift for you until %(held_until)s.") % {"held_until": held_until}
        if held_until
        else "",
        "confirm": Action(
            "commit_order",
            _("Confirm purchase"),
            confirm_args,
            testid="confirm-purchase",
            style="primary",
            idempotent=True,
        ),
        "back": back_to_checkout_action(workflow_id),
    }
