"""The widget's HTML fragments: one server-rendered view per tool outcome (SPEC §9).

`render_fragment` is the only entry point. The MCP adapter puts its result in the tool
result's widget-only `_meta.html`; the browser endpoint (widget.views) returns it to htmx.
Buttons carry their tool and arguments as data attributes; the bridge script decides the
transport and adds idempotency keys. Person-facing text is translated; user data is escaped
by Django's autoescape; error codes appear only in data attributes.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from giftgenius.errors import ERROR_CATALOG, spec_for
from giftgenius.executor import ToolOutcome
from giftgenius.schemas import RELATIONSHIPS
from widget import selectors
from widget.locale import html_lang, locale_or_default

CONTRACT = "v1"
DEMO_SHIPPING = {
    "name": "Demo Buyer",
    "line1": "1 Main St",
    "city": "Springfield",
    "postal_code": "12345",
    "country": "US",
}
DEFAULT_BRIEF = {"relationship": "friend", "interests": "", "budget_min": "20", "budget_max": "60"}

# What a person can change after a non-retryable failure: (tool, label key, args the bridge fills in).
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
ORDER_STATUS_CHECK = {"ORDER_IN_PROGRESS", "ORDER_NOT_CANCELLABLE"}
NO_ACTION = {"UNAUTHORIZED"}


@dataclass
class Action:
    """One button: which tool it calls with which arguments (the bridge picks the transport)."""

    tool: str
    label: str
    args: dict[str, Any] = field(default_factory=dict)
    testid: str = ""
    style: str = "secondary"
    idempotent: bool = False  # the bridge adds an idempotency key kept in widget state
    inherit: str = ""  # argument names the bridge copies from the action on screen
    followup: str = ""  # in ChatGPT ask the model instead (the tool is not widget-callable)
    aria_label: str = ""

    @property
    def url(self) -> str:
        return reverse("widget:action", args=[self.tool])

    @property
    def args_json(self) -> str:
        return json.dumps(self.args, separators=(",", ":"), default=str, ensure_ascii=False)


def render_fragment(*, tool: str, outcome: ToolOutcome, locale: str) -> str:
    """The HTML fragment showing `outcome` of `tool`, in `locale` (any BCP 47 tag)."""
    language = locale_or_default(locale)
    with translation.override(language):
        template, context = _view(tool, outcome)
        return render_view(template, context, tool=tool, language=language)


def render_start(*, locale: str) -> str:
    """The first view of the standalone browser page: one button that starts a gift search."""
    language = locale_or_default(locale)
    with translation.override(language):
        context = {
            "heading": _("Find the right gift in a minute."),
            "actions": [
                Action("start_gift_workflow", _("Find a gift"), {}, testid="start", style="primary")
            ],
        }
        return render_view("resume", context, tool="", language=language)


def render_view(template: str, context: dict[str, Any], *, tool: str, language: str) -> str:
    context.update(
        tool=tool, view_id=uuid.uuid4().hex, contract=CONTRACT, html_lang=html_lang(language)
    )
    return render_to_string(f"widget/fragments/{template}.html", context)


# --- choosing the view ---------------------------------------------------------------------------


def _view(tool: str, outcome: ToolOutcome) -> tuple[str, dict[str, Any]]:
    body = outcome.body
    if not outcome.ok:
        return "error", error_context(tool, outcome.error or {})
    if tool == "start_gift_workflow":
        return "brief", brief_context(body.get("workflow_id"), {})
    if tool == "suggest_gifts":
        if body.get("gifts"):
            return "suggestions", suggestions_context(body["workflow_id"], body["gifts"])
        return "empty", empty_context(body)
    if tool == "search_products":
        return "suggestions", search_context(body)
    if tool == "select_gift":
        return "selected", selected_context(body["workflow_id"], body["gift"])
    if tool in {"get_workflow", "user_navigated_to_step"}:
        return _step_view(body)
    if tool == "get_payment_methods":
        return "checkout", checkout_context(body)
    if tool == "prepare_order":
        return "summary", summary_context(body, outcome.meta)
    if tool in {"commit_order", "get_order", "cancel_order"}:
        return "status", status_context(body)
    return "done", {"heading": _("Done.")}


def _step_view(body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Redraw whatever step the workflow is at now (after Back or 'show where I am')."""
    workflow_id = body.get("workflow_id")
    view = selectors.workflow_view(workflow_id)
    step = body.get("current_step") or (view.current_step if view else "brief")
    if view is None or step == "brief":
        return "brief", brief_context(workflow_id, view.brief if view else {})
    if step == "ideas":
        if view.offered:
            return "suggestions", suggestions_context(workflow_id, view.offered)
        return "brief", brief_context(workflow_id, view.brief)
    if step == "gift_selected" and view.selected:
        return "selected", selected_context(workflow_id, view.selected)
    if step == "checkout":
        return "resume", {
            "workflow_id": workflow_id,
            "heading": _("You were about to check out."),
            "actions": [_checkout_action(workflow_id, _("Continue to checkout"))],
        }
    if step == "completed":
        return "resume", {
            "workflow_id": workflow_id,
            "heading": _("This purchase is complete."),
            "actions": [_start_over()],
        }
    return "resume", {
        "workflow_id": workflow_id,
        "heading": _("This gift search has ended."),
        "actions": [_start_over()],
    }


# --- contexts ----------------------------------------------------------------------------------------


def money(amount: Any, currency: str) -> str:
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        return f"{amount} {currency}"
    return f"{formats.number_format(value, 2, use_l10n=True)} {currency}"


def _gift_card(gift: dict[str, Any], workflow_id: Any, *, selectable: bool) -> dict[str, Any]:
    card = {
        "id": gift.get("product_id"),
        "name": gift.get("name", ""),
        "description": gift.get("description", ""),
        "price": money(gift.get("price"), gift.get("currency", "")),
        "tags": gift.get("tags") or [],
        # The ranking's reasons are English sentences written for the model; other languages
        # show the interest tags instead.
        "reasons": (gift.get("match_reasons") or []) if translation.get_language() == "en" else [],
        "in_stock": gift.get("in_stock", True),
        "select": None,
    }
    if selectable and card["in_stock"]:
        args = {"product_id": gift.get("product_id")}
        if workflow_id:
            args["workflow_id"] = str(workflow_id)
        card["select"] = Action(
            "select_gift",
            _("Select"),
            args,
            testid="select-gift",
            style="primary",
            inherit="" if workflow_id else "workflow_id",
            aria_label=_("Select %(name)s") % {"name": card["name"]},
        )
    return card


def suggestions_context(workflow_id: Any, gifts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "workflow_id": workflow_id,
        "heading": _("Gift ideas for you"),
        "intro": _("Pick the one you like. You can still change your mind."),
        "cards": [_gift_card(g, workflow_id, selectable=True) for g in gifts],
    }


def search_context(body: dict[str, Any]) -> dict[str, Any]:
    products = body.get("products") or []
    # Only a search made within a workflow offers its results for selection.
    workflow_id = body.get("workflow_id")
    return {
        "workflow_id": workflow_id,
        "heading": _("Search results") if products else _("Nothing found. Try other words."),
        "intro": "",
        "cards": [_gift_card(p, workflow_id, selectable=bool(workflow_id)) for p in products],
    }


CHANGE_LABELS = {
    "raise_budget_max": lambda v: _("Raise the budget to %(value)s") % {"value": v},
    "lower_budget_min": lambda v: _("Lower the minimum to %(value)s") % {"value": v},
    "drop_interest": lambda v: _("Leave out “%(value)s”") % {"value": v},
    "drop_age": lambda v: _("Ignore the age"),
    "use_interests": lambda v: _("Try %(value)s instead") % {"value": ", ".join(v or [])},
}


def _changed_brief(brief: dict[str, Any], suggestion: dict[str, Any]) -> dict[str, Any] | None:
    args = {
        k: brief[k]
        for k in ("relationship", "interests", "budget_min", "budget_max", "currency", "age")
        if brief.get(k) is not None
    }
    change, value = suggestion.get("change"), suggestion.get("value")
    if change == "raise_budget_max":
        args["budget_max"] = value
    elif change == "lower_budget_min":
        args["budget_min"] = value
    elif change == "drop_interest":
        args["interests"] = [i for i in args.get("interests", []) if i != value]
    elif change == "drop_age":
        args.pop("age", None)
    elif change == "use_interests":
        args["interests"] = list(value or [])
    else:
        return None
    if not args.get("interests") or not args.get("relationship"):
        return None
    return args


def empty_context(body: dict[str, Any]) -> dict[str, Any]:
    workflow_id = body.get("workflow_id")
    view = selectors.workflow_view(workflow_id)
    brief = view.brief if view else {}
    actions = []
    for suggestion in body.get("suggestions") or []:
        args = _changed_brief(brief, suggestion)
        label = CHANGE_LABELS.get(suggestion.get("change"))
        if args is None or label is None:
            continue
        matches = suggestion.get("matches") or 0
        text = label(suggestion.get("value"))
        if matches:
            text = _("%(change)s (%(count)s ideas)") % {"change": text, "count": matches}
        actions.append(
            Action(
                "suggest_gifts",
                text,
                {"workflow_id": str(workflow_id), **args},
                testid="apply-suggestion",
            )
        )
    return {
        "workflow_id": workflow_id,
        "heading": _("No gifts match this brief yet."),
        "reason": body.get("no_results_reason") or "",
        "actions": actions,
        "brief": brief_context(workflow_id, brief),
    }


def brief_context(workflow_id: Any, brief: dict[str, Any]) -> dict[str, Any]:
    relationship_labels = {
        "partner": pgettext("relationship", "Partner"),
        "spouse": pgettext("relationship", "Spouse"),
        "mother": pgettext("relationship", "Mother"),
        "father": pgettext("relationship", "Father"),
        "parent": pgettext("relationship", "Parent"),
        "child": pgettext("relationship", "Child"),
        "sibling": pgettext("relationship", "Sibling"),
        "grandparent": pgettext("relationship", "Grandparent"),
        "friend": pgettext("relationship", "Friend"),
        "colleague": pgettext("relationship", "Colleague"),
        "teacher": pgettext("relationship", "Teacher"),
        "other": pgettext("relationship", "Someone else"),
    }
    interests = brief.get("interests") or []
    return {
        "workflow_id": workflow_id,
        "heading": _("Who is the gift for?"),
        "relationships": [(r, relationship_labels[r]) for r in RELATIONSHIPS],
        "values": {
            "relationship": brief.get("relationship") or DEFAULT_BRIEF["relationship"],
            "interests": ", ".join(interests) if isinstance(interests, list) else str(interests),
            "budget_min": brief.get("budget_min") or DEFAULT_BRIEF["budget_min"],
            "budget_max": brief.get("budget_max") or DEFAULT_BRIEF["budget_max"],
            "age": brief.get("age") if brief.get("age") is not None else "",
            "currency": brief.get("currency") or "USD",
        },
        "form_args": json.dumps({"workflow_id": str(workflow_id)} if workflow_id else {}),
        "form_inherit": "" if workflow_id else "workflow_id",
        "action_url": reverse("widget:action", args=["suggest_gifts"]),
    }


def _checkout_action(workflow_id: Any, label: str) -> Action:
    args = {"workflow_id": str(workflow_id)} if workflow_id else {}
    return Action(
        "get_payment_methods",
        label,
        args,
        testid="go-to-checkout",
        style="primary",
        inherit="" if workflow_id else "workflow_id",
    )


def _back(workflow_id: Any, step: str) -> Action:
    return Action(
        "user_navigated_to_step",
        _("Back"),
        {"workflow_id": str(workflow_id), "step_id": step},
        testid="back",
    )


def _start_over() -> Action:
    return Action(
        "start_gift_workflow",
        _("Find another gift"),
        {},
        testid="start-over",
        followup=_("Let's look for another gift."),
    )


def selected_context(workflow_id: Any, gift: dict[str, Any]) -> dict[str, Any]:
    return {
        "workflow_id": workflow_id,
        "heading": _("Your choice"),
        "gift": _gift_card(gift, workflow_id, selectable=False),
        "actions": [
            _checkout_action(workflow_id, _("Continue to checkout")),
            _back(workflow_id, "ideas"),
        ],
    }


def checkout_context(body: dict[str, Any]) -> dict[str, Any]:
    workflow_id = body["workflow_id"]
    methods = body.get("payment_methods") or []
    selected = body.get("selected_payment_method_id") or (methods[0]["id"] if methods else "")
    return {
        "workflow_id": workflow_id,
        "heading": _("Checkout"),
        "methods": methods,
        "selected_method": selected,
        "shipping": DEMO_SHIPPING,
        "form_args": json.dumps({"workflow_id": str(workflow_id)}),
        "action_url": reverse("widget:action", args=["prepare_order"]),
        # Back to the chosen gift (a no-op move while the workflow is still at gift_selected).
        "back": _back(workflow_id, "gift_selected"),
    }


def _time(value: Any) -> str:
    moment = parse_datetime(value) if isinstance(value, str) else value
    if moment is None:
        return ""
    return formats.time_format(moment, "TIME_FORMAT") + " UTC"


def summary_context(body: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
    workflow_id = body["workflow_id"]
    gift = body.get("gift") or {}
    confirm_args = {
        "workflow_id": str(workflow_id),
        "order_id": str(body["order_id"]),
        # Widget-only: in a data attribute for the bridge, never in visible text.
        "confirmation_token": meta.get("confirmation_token") or "",
    }
    return {
        "workflow_id": workflow_id,
        "heading": _("Check and confirm"),
        "gift_name": gift.get("name", ""),
        "quantity": gift.get("quantity", 1),
        "amount": money(body.get("amount"), body.get("currency", "")),
        "shipping": body.get("shipping") or {},
        "payment_label": (body.get("payment_method") or {}).get("label", ""),
        "held_until": _time(body.get("expires_at")),
        "confirm": Action(
            "commit_order",
            _("Confirm purchase"),
            confirm_args,
            testid="confirm-purchase",
            style="primary",
            idempotent=True,
        ),
        "back": _back(workflow_id, "gift_selected"),
    }


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
    "draft": lambda: (
        _("This order is not confirmed yet."),
        _("Review it and confirm when you are ready."),
    ),
}


def status_context(body: dict[str, Any]) -> dict[str, Any]:
    status = body.get("status") or "processing"
    heading, text = STATUS_TEXT.get(status, STATUS_TEXT["processing"])()
    order_id = body.get("order_id")
    workflow_id = body.get("workflow_id")
    actions: list[Action] = []
    banner = ""
    failure = body.get("failure") or None
    if status in {"payment_pending", "processing"}:
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
        actions.append(_checkout_action(workflow_id, _("Choose another payment method")))
    elif status == "draft":
        actions.append(_checkout_action(workflow_id, _("Review the order")))
    elif status in {"completed", "cancelled"}:
        actions.append(_start_over())
    refunded = body.get("refunded_amount")
    gift = body.get("gift") or {}
    return {
        "workflow_id": workflow_id,
        "status": status,
        "heading": heading,
        "text": text,
        "banner": banner,
        "gift_name": gift.get("name") or selectors.order_gift_name(order_id) or "",
        "amount": money(body.get("amount"), body.get("currency", "")) if body.get("amount") else "",
        "refunded": money(refunded, body.get("currency", ""))
        if refunded and Decimal(str(refunded)) > 0
        else "",
        "order_ref": str(order_id).split("-")[0].upper() if order_id else "",
        "actions": actions,
    }


def error_context(tool: str, error: dict[str, Any]) -> dict[str, Any]:
    code = error.get("code") or "INTERNAL_ERROR"
    spec = spec_for(code)
    actions: list[Action] = []
    if spec.retryable:
        retry = Action(tool, _("Try again"), {}, testid="retry", style="primary")
        if code in PAYMENT_RETRYABLE:  # the same card may keep failing: offer another one too
            actions.append(_checkout_action(None, _("Choose another payment method")))
            actions[-1].testid, actions[-1].style = "change-payment", "secondary"
        return {"code": code, "banner": str(spec.banner), "retry": retry, "actions": actions}
    if code in CHANGE_PAYMENT:
        actions.append(_checkout_action(None, _("Choose another payment method")))
        actions[-1].testid = "change-payment"
    elif code in REVIEW_ORDER:
        actions.append(_checkout_action(None, _("Review the order")))
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
        actions.append(_start_over())
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
