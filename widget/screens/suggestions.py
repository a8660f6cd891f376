"""A list of gifts (`suggestions.html`): the ideas for a brief, or the results of a search,
with the fullscreen filters that ask for another list."""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from gifts.catalog_search import category_counts
from gifts.schemas import CATEGORIES
from widget import selectors
from widget.screens.actions import Action, action_url, back_action
from widget.screens.brief import DEFAULT_BRIEF
from widget.screens.card import gift_card


def suggestions_context(
    workflow_id: Any, gifts: list[dict[str, Any]], *, brief: dict[str, Any]
) -> dict[str, Any]:
    language = translation.get_language()
    return {
        "workflow_id": workflow_id,
        "heading": _("Gift ideas for you"),
        "intro": _("Pick the one you like. You can still change your mind."),
        "cards": [
            gift_card(g, workflow_id, selectable=True, language=language, brief=brief)
            for g in gifts
        ],
        "filters": filters_context(workflow_id, brief),
    }


def search_context(body: dict[str, Any]) -> dict[str, Any]:
    products = body.get("products") or []
    # Only a search made within a workflow offers its results for selection.
    workflow_id = body.get("workflow_id")
    language = translation.get_language()
    # Within a workflow (always so for the fullscreen filters) the filters stay, set as this
    # search was made, so a category without hits is not a dead end, and the ideas are one
    # click back.
    brief = selectors.workflow_brief(workflow_id) if workflow_id else {}
    applied = {k: body.get(k) for k in ("query", "category", "min_price", "max_price", "sort")}
    total = body.get("total") or len(products)
    return {
        "workflow_id": workflow_id,
        "heading": ngettext("%(count)s result", "%(count)s results", total) % {"count": total}
        if products
        else _("Nothing found with these filters."),
        "intro": "",
        "cards": [
            gift_card(p, workflow_id, selectable=bool(workflow_id), language=language)
            for p in products
        ],
        "filters": filters_context(
            workflow_id, brief, applied=applied, counts=body.get("category_counts") or {}
        ),
        "actions": [
            *search_changes(body, workflow_id=workflow_id),
            *([back_action(workflow_id, "ideas", label=_("Back to ideas"))] if workflow_id else []),
        ],
    }


SEARCH_CHANGE_LABELS = {
    "drop_category": lambda v: _("Search every category"),
    "drop_words": lambda v: _("Show everything in this category"),
    "raise_max_price": lambda v: _("Raise the maximum price to %(value)s") % {"value": v},
    "lower_min_price": lambda v: _("Lower the minimum price to %(value)s") % {"value": v},
}


def search_changes(body: dict[str, Any], *, workflow_id: Any) -> list[Action]:
    """For an empty search, the filter changes that find something, each with its count."""
    searched = {
        k: body[k]
        for k in ("query", "category", "min_price", "max_price", "sort")
        if body.get(k) not in (None, "")
    }
    actions = []
    for suggestion in body.get("suggestions") or []:
        change, value = suggestion.get("change"), suggestion.get("value")
        label = SEARCH_CHANGE_LABELS.get(change)
        if label is None or not suggestion.get("matches"):
            continue
        args = dict(searched)
        if change == "drop_category":
            args.pop("category", None)
        elif change == "drop_words":
            args.pop("query", None)
        else:
            args[suggestion.get("field")] = value
        if not args.get("query") and not args.get("category"):
            continue  # a search needs words or a category
        text = _("%(change)s (%(count)s results)") % {
            "change": label(value),
            "count": suggestion["matches"],
        }
        if workflow_id:
            args["workflow_id"] = str(workflow_id)
        actions.append(
            Action("search_products", text, {**args, "limit": 24}, testid="apply-suggestion")
        )
    return actions


def filters_context(
    workflow_id: Any,
    brief: dict[str, Any],
    *,
    applied: dict[str, Any] | None = None,
    counts: dict[str, int] | None = None,
) -> dict[str, Any] | None:
    """The fullscreen filters: a price range asks suggest_gifts again with the same brief; the
    search asks search_products for what the person typed (or, without words, everything) in
    the category chosen ("All": every one), within the brief's budget. `applied` is the search
    on screen, `counts` its matches per category (for the ideas: everything in the budget)."""
    interests = [i for i in brief.get("interests") or [] if isinstance(i, str)]
    if not workflow_id or not interests or not brief.get("relationship"):
        return None
    kept = {k: brief[k] for k in ("relationship", "currency", "age") if brief.get(k) is not None}
    applied = applied or {}
    budget_min = brief.get("budget_min") or DEFAULT_BRIEF["budget_min"]
    budget_max = brief.get("budget_max") or DEFAULT_BRIEF["budget_max"]
    if counts is None:
        counts = category_counts(min_price=_decimal(budget_min), max_price=_decimal(budget_max))
    prices = {
        "min_price": applied.get("min_price") or str(budget_min),
        "max_price": applied.get("max_price") or str(budget_max),
    }
    return {
        "price_url": action_url("suggest_gifts"),
        "price_args": json.dumps(
            {"workflow_id": str(workflow_id), "interests": interests, **kept}, default=str
        ),
        "budget_min": budget_min,
        "budget_max": budget_max,
        "currency": brief.get("currency") or "USD",
        "category_url": action_url("search_products"),
        "category_args": json.dumps({"workflow_id": str(workflow_id), **prices, "limit": 24}),
        "query": applied.get("query") or "",
        # Chosen on the screen of a search; on the ideas, the widget's remembered choice.
        "category": (applied.get("category") or "") if applied else None,
        "sort": (applied.get("sort") or "relevance") if applied else None,
        "sorts": sort_choices(),
        "categories": [
            ("", _("All (%(count)s)") % {"count": sum(counts.values())}),
            *((code, f"{label} ({counts.get(code, 0)})") for code, label in category_choices()),
        ],
    }


def _decimal(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def sort_choices() -> tuple[tuple[str, str], ...]:
    return (
        ("relevance", _("Best match")),
        ("price_asc", _("Price: low to high")),
        ("price_desc", _("Price: high to low")),
    )


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
