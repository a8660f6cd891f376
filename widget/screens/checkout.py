"""Checkout (`checkout.html`): the payment method and the shipping address, as a person fills it.

The same form is drawn for `get_payment_methods` and again for a `prepare_order` the tool
refused because of one of its fields: then what the person typed stays in every field and the
error stands beside the field it names.
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from checkout.schemas import COUNTRY_CODES
from tool_runtime.errors import spec_for
from tool_runtime.text import first_refused
from tool_runtime.validation import is_unicode
from widget import selectors
from widget.formatting import country_choices
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
PAYMENT_FIELD = "payment_method_id"
# What a person reads beside a field the tool found invalid: what the field wants, in their
# language (the tool's own message is written for the model).
FIELD_HINTS = {
    PAYMENT_FIELD: gettext_lazy("Choose one of the payment methods."),
    "shipping.name": gettext_lazy("Enter the recipient's full name, up to 100 characters."),
    "shipping.line1": gettext_lazy("Enter the street and number, up to 200 characters."),
    "shipping.city": gettext_lazy("Enter the city, up to 100 characters."),
    "shipping.postal_code": gettext_lazy(
        "Enter the postal code: 2 to 16 letters, digits, spaces or hyphens."
    ),
    "shipping.country": gettext_lazy("Choose the country from the list."),
}
# Text the tool refused for a character it may not hold (control or bidirectional characters).
UNPRINTABLE_HINT = gettext_lazy("Remove the invisible control characters from this field.")
MAX_KEPT_CHARS = 200  # the longest field; more was never a valid entry and is not echoed back


def checkout_context(body: dict[str, Any]) -> dict[str, Any]:
    workflow_id = body["workflow_id"]
    methods = body.get("payment_methods") or []
    selected = body.get("selected_payment_method_id") or (methods[0]["id"] if methods else "")
    return _form_context(
        workflow_id=workflow_id,
        methods=methods,
        selected=selected,
        shipping=checkout_shipping(workflow_id=workflow_id),
        errors={},
    )


def refused_form_context(error: dict[str, Any], arguments: Any) -> dict[str, Any] | None:
    """The form again for a `prepare_order` refused over one of its fields, with what the
    person sent; None where the error names no field of the form (the banner shows it) or the
    call names no workflow to go on with."""
    fields = _fields_named(error)
    if not fields or not isinstance(arguments, dict):
        return None
    try:
        workflow_id = UUID(str(arguments.get("workflow_id")))
    except ValueError:
        return None
    sent = arguments.get("shipping")
    sent = sent if isinstance(sent, dict) else {}
    shipping = {name: _kept(sent.get(name)) for name in DEMO_SHIPPING}
    methods = selectors.payment_methods()
    return _form_context(
        workflow_id=workflow_id,
        methods=methods,
        selected=_kept(arguments.get(PAYMENT_FIELD)),
        shipping=shipping,
        errors={
            field: _hint(field, error, sent=arguments, first=i == 0)
            for i, field in enumerate(fields)
        },
    )


def _form_context(
    *,
    workflow_id: Any,
    methods: list[dict[str, Any]],
    selected: str,
    shipping: dict[str, str],
    errors: dict[str, str],
) -> dict[str, Any]:
    return {
        "workflow_id": workflow_id,
        "heading": _("Checkout"),
        "methods": methods,
        "selected_method": selected,
        "shipping": shipping,
        "countries": country_choices(COUNTRY_CODES),
        "errors": errors,
        "first_error": next(iter(errors), ""),
        "form_args": json.dumps({"workflow_id": str(workflow_id)}),
        # The typed fields are kept in widget state under this name (bridge.js), so going back
        # and coming here again finds them as they were left.
        "draft_name": f"checkout:{workflow_id}",
        "action_url": action_url("prepare_order"),
        # Back to the chosen gift (a no-op move while the workflow is still at gift_selected).
        "back": back_action(workflow_id, "gift_selected"),
    }


def _fields_named(error: dict[str, Any]) -> list[str]:
    """The form's fields an error names: its `field`, the field in its details (a business
    rule such as "no delivery to this country"), and every field validation refused."""
    details = error.get("details") if isinstance(error.get("details"), dict) else {}
    invalid = details.get("invalid_fields") or []
    named = [
        error.get("field"),
        details.get("field"),
        *(entry.get("field") for entry in invalid if isinstance(entry, dict)),
    ]
    found: list[str] = []
    for field in named:
        if field in FIELD_HINTS and field not in found:
            found.append(field)
    return found


def _hint(field: str, error: dict[str, Any], *, sent: dict[str, Any], first: bool) -> str:
    code = error.get("code") or ""
    if code != "VALIDATION_ERROR" and first:
        return str(spec_for(code).banner)  # a business rule: its own words say what to change
    value: Any = sent
    for part in field.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if isinstance(value, str) and first_refused(value):
        return str(UNPRINTABLE_HINT)
    return str(FIELD_HINTS[field])


def _kept(value: Any) -> str:
    """A typed value to show again: text only, valid Unicode, no longer than any field."""
    if not isinstance(value, str) or not is_unicode(value):
        return ""
    return value[:MAX_KEPT_CHARS]


def checkout_shipping(*, workflow_id: Any) -> dict[str, str]:
    """What the address fields start with: the address last entered in this workflow (going back
    to checkout keeps it), else the demo address where enabled, else nothing."""
    if shipping := selectors.last_shipping(workflow_id=workflow_id):
        return shipping
    return DEMO_SHIPPING if settings.WIDGET_DEMO_SHIPPING else NO_SHIPPING
