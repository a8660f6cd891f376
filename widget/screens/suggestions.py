"""A list of gifts (`suggestions.html`): the ideas for a brief, or the results of a search,
with the fullscreen filters that ask for another list."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from gifts.schemas import CATEGORIES
from widget import selectors
from widget.screens.actions import action_url, back_action
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
            gift_card(p, workflow_id, selectable=bool(workflow_id), language=language)
            for p in products
        ],
        "filters": filters_context(workflow_id, brief),
        "actions": [back_action(workflow_id, "ideas", label=_("Back to ideas"))]
        if workflow_id
        else [],
    }


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
