"""The widget's HTML fragments: one server-rendered view per tool outcome.

`render_fragment` is the only entry point. The MCP adapter puts its result in the tool
result's widget-only `_meta.html`; the browser endpoint (widget.views) returns it to htmx.
Buttons carry their tool and arguments as data attributes; the bridge script decides the
transport and adds idempotency keys. Person-facing text is translated; user data is escaped
by Django's autoescape; error codes appear only in data attributes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from gifts.catalog import interest_words
from gifts.schemas import CATEGORIES, RELATIONSHIPS
from gifts.selectors import MatchFact, interest_hits, match_facts
from tool_runtime.errors import ERROR_CATALOG, spec_for
from tool_runtime.outcome import ToolOutcome
from widget import fragment_cache, selectors
from widget.formatting import money, picture, pictures_from, short_description, utc_time
from widget.locale import html_lang, locale_or_default

CONTRACT = "v1"
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
        return action_url(self.tool)

    @property
    def args_json(self) -> str:
        return json.dumps(self.args, separators=(",", ":"), default=str, ensure_ascii=False)


def render_fragment(
    *, tool: str, outcome: ToolOutcome, locale: str, origin: str | None = None, hosted: bool = True
) -> str:
    """The HTML fragment showing `outcome` of `tool`, in `locale` (any BCP 47 tag).

    `hosted`: the fragment is for a host with a chat (MCP, the preview); False for the
    standalone page's htmx endpoint, where buttons that only send a message into the chat
    would do nothing."""
    language = locale_or_default(locale)
    picture_origin = origin or settings.WIDGET_IMAGE_BASE_URL
    with pictures_from(picture_origin), translation.override(language):
        if (found := _view_inputs(tool, outcome)) is not None:
            inputs, build = found
            return fragment_cache.render_from_inputs(
                (tool, picture_origin, inputs),
                lambda view_id: _draw(*build(), tool=tool, language=language, view_id=view_id),
            )
        template, context = _view(tool, outcome, hosted=hosted)
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
    """The view drawn once per distinct context (widget.fragment_cache), with a new view id."""
    _frame(context, tool=tool, language=language)
    name = _template_name(template)
    return fragment_cache.render(
        name, context, lambda drawn: render_to_string(name, drawn, using="jinja2")
    )


def _draw(template: str, context: dict[str, Any], *, tool: str, language: str, view_id: str) -> str:
    _frame(context, tool=tool, language=language)
    context["view_id"] = view_id
    return render_to_string(_template_name(template), context, using="jinja2")


def _frame(context: dict[str, Any], *, tool: str, language: str) -> None:
    """What every view's outer element carries besides its own context."""
    context.update(tool=tool, contract=CONTRACT, html_lang=html_lang(language))


def _template_name(template: str) -> str:
    return f"widget/fragments/{template}.html"


# --- choosing the view ---------------------------------------------------------------------------

View = tuple[str, dict[str, Any]]  # a template's name and its context


def _view_inputs(tool: str, outcome: ToolOutcome) -> tuple[Any, Callable[[], View]] | None:
    """For the views drawn most (the workflow redrawn, a list of ideas): everything the view is
    computed from besides the language, the script prefix and the picture origin (the caller
    keys those), and how to compute it. None: the view is built from the outcome every time."""
    if not outcome.ok:
        return None
    body = outcome.body
    workflow_id = body.get("workflow_id")
    if tool in {"get_workflow", "user_navigated_to_step"}:
        # The workflow and its shown products' live stock are read here, on every call.
        view = selectors.workflow_view(workflow_id, loaded=outcome.workflow)
        step = body.get("current_step")
        return (workflow_id, step, view), lambda: _step_view(workflow_id, step, view)
    if tool == "suggest_gifts":
        brief = selectors.workflow_brief(workflow_id, loaded=outcome.workflow)
        return (body, brief), lambda: _ideas_view(body, brief)
    return None


def _view(tool: str, outcome: ToolOutcome, *, hosted: bool = True) -> View:
    body = outcome.body
    if not outcome.ok:
        return "error", error_context(tool, outcome.error or {})
    if tool == "start_gift_workflow":
        return "brief", brief_context(body.get("workflow_id"), {})
    if tool == "search_products":
        return "suggestions", search_context(body)
    if tool == "select_gift":
        return "selected", selected_context(body["workflow_id"], body["gift"])
    if tool == "get_payment_methods":
        return "checkout", checkout_context(body)
    if tool == "prepare_order":
        return "summary", summary_context(body, outcome.meta)
    if tool in {"commit_order", "get_order", "cancel_order"}:
        return "status", status_context(body, hosted=hosted)
    return "done", {"heading": _("Done.")}


def _ideas_view(body: dict[str, Any], brief: dict[str, Any]) -> View:
    if body.get("gifts"):
        return "suggestions", suggestions_context(body["workflow_id"], body["gifts"], brief=brief)
    return "empty", empty_context(body, brief=brief)


def _step_view(workflow_id: Any, step: str | None, view: selectors.WorkflowView | None) -> View:
    """Redraw whatever step the workflow is at now (after Back or 'show where I am')."""
    step = step or (view.current_step if view else "brief")
    if view is None or step == "brief":
        return "brief", brief_context(workflow_id, view.brief if view else {})
    if step == "ideas":
        if view.offered:
            return "suggestions", suggestions_context(workflow_id, view.offered, brief=view.brief)
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


@dataclass(frozen=True)
class CardWords:
    """A gift card's fixed words in one language."""

    select: str
    select_named: str  # %(name)s
    interest_reason: str  # %(interest)s
    age_reason: str  # %(age)s
    price_reason: str  # %(price)s


@lru_cache(maxsize=64)
def card_words(language: str) -> CardWords:
    """In `language`: looked up once per language, not per card (a list of cards had asked
    gettext a dozen times per draw). Translated in `language` itself, whichever is active."""
    with translation.override(language):
        return CardWords(
            select=_("Select"),
            select_named=_("Select %(name)s"),
            interest_reason=_("Matches the interest “%(interest)s”"),
            age_reason=_("Suits someone aged %(age)s"),
            price_reason=_("%(price)s is within your budget"),
        )


def match_reason(fact: MatchFact, *, currency: str, language: str) -> str:
    words = card_words(language)
    if fact.kind == "interest":
        return words.interest_reason % {"interest": fact.value}
    if fact.kind == "age":
        return words.age_reason % {"age": fact.value}
    return words.price_reason % {"price": money(fact.value, currency, language=language)}


def _reasons(gift: dict[str, Any], brief: dict[str, Any] | None, *, language: str) -> list[str]:
    """Why the gift fits the brief, from the same facts the ranking uses, in this language."""
    # Only a fresh ranking carries reasons; a redrawn or searched list is not matched to the brief.
    if not brief or not gift.get("match_reasons"):
        return []
    interests = brief.get("interests") or []
    words = interest_words(tags=gift.get("tags") or [], category=gift.get("category", ""))
    hits = interest_hits(words=words, interests=interests)
    try:
        price = Decimal(str(gift.get("price")))
    except (InvalidOperation, ValueError):
        return []
    facts = match_facts(hits=hits, age=brief.get("age"), price=price)
    currency = gift.get("currency", "")
    return [match_reason(fact, currency=currency, language=language) for fact in facts]


def _gift_card(
    gift: dict[str, Any],
    workflow_id: Any,
    *,
    selectable: bool,
    language: str,
    brief: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`language` is the active one, passed down once per list."""
    words = card_words(language)
    card = {
        "id": gift.get("product_id"),
        "name": gift.get("name", ""),
        "description": short_description(gift.get("description", "")),
        "price": money(gift.get("price"), gift.get("currency", ""), language=language),
        "tags": gift.get("tags") or [],
        "reasons": _reasons(gift, brief, language=language),
        "picture": picture(gift),
        "in_stock": gift.get("in_stock", True),
        "select": None,
    }
    if selectable and card["in_stock"]:
        args = {"product_id": gift.get("product_id")}
        if workflow_id:
            args["workflow_id"] = str(workflow_id)
        card["select"] = Action(
            "select_gift",
            words.select,
            args,
            testid="select-gift",
            style="primary",
            inherit="" if workflow_id else "workflow_id",
            aria_label=words.select_named % {"name": card["name"]},
        )
    return card


def action_url(tool: str) -> str:
    """The widget's endpoint for `tool` (a button's or form's target)."""
    return _action_url(get_script_prefix(), tool)


@lru_cache(maxsize=256)
def _action_url(script_prefix: str, tool: str) -> str:
    """Reversing costs more than the rest of a button; the URL depends only on these two."""
    return reverse("widget:action", args=[tool])


def category_choices() -> tuple[tuple[str, str], ...]:
    return _category_choices(translation.get_language())


@lru_cache(maxsize=64)
def _category_choices(language: str) -> tuple[tuple[str, str], ...]:
    """Labels in `language` (the active one), sorted by label; the same for every call."""
    labels = {
        "art_supplies": pgettext("category", "Art supplies"),
        "beauty": pgettext("category", "Beauty"),
        "books": pgettext("category", "Books"),
        "electronics": pgettext("category", "Electronics"),
        "fashion": pgettext("category", "Fashion"),
        "food": pgettext("category", "Food"),
        "games": pgettext("category", "Games"),
        "garden": pgettext("category", "Garden"),
        "home": pgettext("category", "Home"),
        "jewelry": pgettext("category", "Jewelry"),
        "kitchen": pgettext("category", "Kitchen"),
        "music": pgettext("category", "Music"),
        "outdoors": pgettext("category", "Outdoors"),
        "pets": pgettext("category", "Pets"),
        "sports": pgettext("category", "Sports"),
        "stationery": pgettext("category", "Stationery"),
        "toys": pgettext("category", "Toys"),
        "wellness": pgettext("category", "Wellness"),
    }
    return tuple(
        sorted(((code, labels.get(code, code)) for code in CATEGORIES), key=lambda c: c[1])
    )


def filters_context(workflow_id: Any, brief: dict[str, Any]) -> dict[str, Any] | None:
    """The fullscreen filters: a price range asks suggest_gifts again with the same brief, a
    category asks search_products for the brief's interests in that category."""
    interests = [i for i in brief.get("interests") or [] if isinstance(i, str)]
    if not workflow_id or not interests or not brief.get("relationship"):
        return None
    kept = {k: brief[k] for k in ("relationship", "currency", "age") if brief.get(k) is not None}
    query = " ".join(interests)
    return {
        "price_url": action_url("suggest_gifts"),
        "price_args": json.dumps(
            {"workflow_id": str(workflow_id), "interests": interests, **kept}, default=str
        ),
        "budget_min": brief.get("budget_min") or DEFAULT_BRIEF["budget_min"],
        "budget_max": brief.get("budget_max") or DEFAULT_BRIEF["budget_max"],
        "currency": brief.get("currency") or "USD",
        "category_url": action_url("search_products"),
        "category_args": json.dumps(
            {"workflow_id": str(workflow_id), "query": query[:200], "limit": 24}
        ),
        "categories": category_choices(),
    }


def suggestions_context(
    workflow_id: Any, gifts: list[dict[str, Any]], *, brief: dict[str, Any]
) -> dict[str, Any]:
    language = translation.get_language()
    return {
        "workflow_id": workflow_id,
        "heading": _("Gift ideas for you"),
        "intro": _("Pick the one you like. You can still change your mind."),
        "cards": [
            _gift_card(g, workflow_id, selectable=True, language=language, brief=brief)
            for g in gifts
        ],
        "filters": filters_context(workflow_id, brief),
    }


def search_context(body: dict[str, Any]) -> dict[str, Any]:
    products = body.get("products") or []
    # Only a search made within a workflow offers its results for selection.
    workflow_id = body.get("workflow_id")
    language = translation.get_language()
    # Within a workflow (always so for the fullscreen category filter) the filters stay, so a
    # category without hits is not a dead end, and the ideas are one click back. The outcome
    # does not carry the call's arguments, so a filter's search cannot be told from the model's
    # search in the same workflow; the filters show in fullscreen only either way.
    brief = selectors.workflow_brief(workflow_id) if workflow_id else {}
    return {
        "workflow_id": workflow_id,
        "heading": _("Search results") if products else _("Nothing found. Try other words."),
        "intro": "",
        "cards": [
            _gift_card(p, workflow_id, selectable=bool(workflow_id), language=language)
            for p in products
        ],
        "filters": filters_context(workflow_id, brief),
        "actions": [_back(workflow_id, "ideas", label=_("Back to ideas"))] if workflow_id else [],
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


def empty_context(body: dict[str, Any], *, brief: dict[str, Any]) -> dict[str, Any]:
    workflow_id = body.get("workflow_id")
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
        # The model's no_results_reason is English; the person reads one built from the codes.
        "reason": empty_reason(suggestions=body.get("suggestions") or [], brief=brief),
        "actions": actions,
        # The brief itself, to change right here: the suggestions may not cover what is wrong
        # (dropping the only interest leaves nothing to search for).
        "form": brief_form(workflow_id=workflow_id, brief=brief),
    }


def empty_reason(*, suggestions: list[dict[str, Any]], brief: dict[str, Any]) -> str:
    """Why nothing matched, in the active language, from the suggestions' change codes (what
    the server found would help) rather than its English sentence for the model."""
    changes = {s.get("change") for s in suggestions if isinstance(s, dict)}
    unknown = [
        str(s["value"])
        for s in suggestions
        if isinstance(s, dict) and s.get("change") == "drop_interest" and s.get("value")
    ]
    if changes & {"raise_budget_max", "lower_budget_min"}:
        currency = brief.get("currency") or ""
        return _(
            "Gifts for these interests exist, but none costs between %(low)s and %(high)s."
        ) % {
            "low": money(brief.get("budget_min"), currency),
            "high": money(brief.get("budget_max"), currency),
        }
    if unknown:
        return _("Nothing in the catalog matches “%(interests)s”.") % {
            "interests": ", ".join(unknown)
        }
    if "drop_age" in changes:
        return _("Gifts for these interests exist, but none for this age.")
    return _("No gift matches these interests, budget and age together.")


def brief_context(workflow_id: Any, brief: dict[str, Any]) -> dict[str, Any]:
    return {
        "workflow_id": workflow_id,
        "heading": _("Who is the gift for?"),
        "form": brief_form(workflow_id=workflow_id, brief=brief),
    }


def brief_form(*, workflow_id: Any, brief: dict[str, Any]) -> dict[str, Any]:
    """The brief form's choices and values (the brief view's and the empty view's)."""
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
        "relationships": [(r, relationship_labels[r]) for r in RELATIONSHIPS],
        "filled": {
            "relationship": brief.get("relationship") or DEFAULT_BRIEF["relationship"],
            "interests": ", ".join(interests) if isinstance(interests, list) else str(interests),
            "budget_min": brief.get("budget_min") or DEFAULT_BRIEF["budget_min"],
            "budget_max": brief.get("budget_max") or DEFAULT_BRIEF["budget_max"],
            "age": brief.get("age") if brief.get("age") is not None else "",
            "currency": brief.get("currency") or "USD",
        },
        "form_args": json.dumps({"workflow_id": str(workflow_id)} if workflow_id else {}),
        "form_inherit": "" if workflow_id else "workflow_id",
        "action_url": action_url("suggest_gifts"),
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


def _back(workflow_id: Any, step: str, *, label: str = "") -> Action:
    return Action(
        "user_navigated_to_step",
        label or _("Back"),
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
        "gift": _gift_card(
            gift, workflow_id, selectable=False, language=translation.get_language()
        ),
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
        "shipping": checkout_shipping(workflow_id=workflow_id),
        "form_args": json.dumps({"workflow_id": str(workflow_id)}),
        "action_url": action_url("prepare_order"),
        # Back to the chosen gift (a no-op move while the workflow is still at gift_selected).
        "back": _back(workflow_id, "gift_selected"),
    }


def checkout_shipping(*, workflow_id: Any) -> dict[str, str]:
    """What the address fields start with: the address last entered in this workflow (going back
    to checkout keeps it), else the demo address where enabled, else nothing."""
    if shipping := selectors.last_shipping(workflow_id=workflow_id):
        return shipping
    return DEMO_SHIPPING if settings.WIDGET_DEMO_SHIPPING else NO_SHIPPING


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
    held_until = utc_time(body.get("expires_at"))
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


def status_context(body: dict[str, Any], *, hosted: bool = True) -> dict[str, Any]:
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
    elif status in {"cancelled", "completed"}:
        # A tool as well as a message: without a chat (the standalone page) it starts a search.
        actions.append(_start_over())
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
