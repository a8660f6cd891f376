"""The order to confirm (`summary.html`): line items, the delivery option chooser with dates,
gift options, the totals breakdown, address and payment, and the one button that buys."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from checkout.payments.methods import NEW_CARD
from widget import selectors
from widget.formatting import country_name, local_time, money, picture
from widget.screens.actions import Action, action_url, back_to_checkout_action


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
    currency = body.get("currency", "")
    gift_options = body.get("gift_options") or {}
    # Changing an option prepares the order again: the draft is re-priced and keeps its hold.
    reprice_args = {
        "workflow_id": str(workflow_id),
        "payment_method_id": (body.get("payment_method") or {}).get("id", ""),
        "shipping": body.get("shipping") or {},
    }
    return {
        "workflow_id": workflow_id,
        "heading": _("Check and confirm"),
        "gift_name": gift.get("name", ""),
        "picture": picture(ordered),
        "quantity": gift.get("quantity", 1),
        "amount": money(body.get("amount"), currency),
        "line_items": [
            {
                "name": line["name"],
                "quantity": line["quantity"],
                "unit_price": money(line["unit_price"], currency),
                "line_total": money(line["line_total"], currency),
            }
            for line in body.get("line_items") or []
        ],
        "totals": [
            {"code": t["code"], "label": t["label"], "amount": money(t["amount"], currency)}
            for t in body.get("totals") or []
        ],
        "delivery_options": [
            {
                "code": o["code"],
                "name": o["name"],
                "price": money(o["price"], currency),
                "arrives": _("arrives %(window)s") % {"window": o["window"]},
                "selected": o.get("selected", False),
            }
            for o in body.get("delivery_options") or []
        ],
        "wraps": [
            {
                "code": w["code"],
                "name": w["name"],
                "price": money(w["price"], currency),
                "selected": w["code"] == gift_options.get("gift_wrap"),
            }
            for w in body.get("gift_wrap_options") or []
        ],
        "gift_options": gift_options,
        "summary_line": body.get("summary", ""),
        "reprice_url": action_url("prepare_order"),
        "reprice_args": json.dumps(reprice_args, ensure_ascii=False),
        "max_quantity": max(gift.get("quantity", 1), (ordered or {}).get("max_per_order", 1)),
        "shipping": body.get("shipping") or {},
        "country": country_name((body.get("shipping") or {}).get("country", "")),
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
            busy_label=_("Opening the payment page…")
            if (body.get("payment_method") or {}).get("id") == NEW_CARD
            else _("Paying…"),
            checkout_session=meta.get("checkout_session"),
        ),
        "back": back_to_checkout_action(workflow_id),
    }
