"""Checkout (`checkout.html`): the payment method and the shipping address."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from widget import selectors
from widget.screens.actions import action_url, back_action

# Prefilled only where settings.WIDGET_DEMO_SHIPPING says so (the local QA preview and tests):
# a real person's form starts empty, or with the address they already typed in this workflow.
DEMO_SHIPPING = {
    "name": "Demo Buyer",
    "line1": "1 Main St",
    "city": "Springfield",
    "postal_code": "12345",
    "country": "US",
}
NO_SHIPPING = dict.fromkeys(DEMO_SHIPPING, "")


def checkout_context(body: dict[str, Any]) -> dict[str, Any]:
    workflow_id = body["workflow_id"]
    methods = body.get("payment_methods") or []
    selected = body.get("selected_payment_method_id") or (methods[0]["id"] if methods else "")
    return {
        "workflow_id": workflow_id,
        "heading": _("Checkout"),
        "methods": methods,
        "selected_method": selected,
        "shipping": checkout_shipping(workflow_id=workflow_id),
        "form_args": json.dumps({"workflow_id": str(workflow_id)}),
        "action_url": action_url("prepare_order"),
        # Back to the chosen gift (a no-op move while the workflow is still at gift_selected).
        "back": back_action(workflow_id, "gift_selected"),
    }


def checkout_shipping(*, workflow_id: Any) -> dict[str, str]:
    """What the address fields start with: the address last entered in this workflow (going back
    to checkout keeps it), else the demo address where enabled, else nothing."""
    if shipping := selectors.last_shipping(workflow_id=workflow_id):
        return shipping
    return DEMO_SHIPPING if settings.WIDGET_DEMO_SHIPPING else NO_SHIPPING
