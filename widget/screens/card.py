"""A gift card (`_card.html`): one product in a list of ideas, search results or the choice."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from gifts import catalog
from gifts.catalog import interest_words
from gifts.selectors import MatchFact, match_facts, read_brief
from widget.formatting import money, picture, short_description
from widget.screens.actions import Action


@dataclass(frozen=True)
class CardWords:
    """A gift card's fixed words in one language."""

    select: str
    select_named: str  # %(name)s
    interest_reason: str  # %(interest)s
    age_reason: str  # %(age)s
    price_reasons: dict[str, str]  # by budget position; %(price)s
    variants: str  # %(names)s


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
            price_reasons={
                "low": _("%(price)s, at the low end of your budget"),
                "middle": _("%(price)s, in the middle of your budget"),
                "high": _("%(price)s, at the high end of your budget"),
            },
            variants=_("Also as: %(names)s"),
        )


def match_reason(fact: MatchFact, *, currency: str, language: str) -> str:
    words = card_words(language)
    if fact.kind == "interest":
        # The tag's label in the person's language ("gardening" → "ogrodnictwo"); in English,
        # the interest as the person gave it.
        shown = fact.value
        if fact.tag and language != "en":
            shown = catalog.interest_vocabulary().label(fact.tag, language)
        return words.interest_reason % {"interest": shown}
    if fact.kind == "age":
        return words.age_reason % {"age": fact.value}
    position = fact.position or "middle"
    return words.price_reasons[position] % {"price": money(fact.value, currency, language=language)}


def card_reasons(gift: dict[str, Any], brief: dict[str, Any] | None, *, language: str) -> list[str]:
    """Why the gift fits the brief, from the same facts the ranking uses, in this language."""
    # Only a fresh ranking carries reasons; a redrawn or searched list is not matched to the brief.
    if not brief or not gift.get("match_reasons"):
        return []
    interests = [i for i in brief.get("interests") or [] if isinstance(i, str)]
    words = interest_words(tags=gift.get("tags") or [], category=gift.get("category", ""))
    try:
        price = Decimal(str(gift.get("price")))
        budget_min = Decimal(str(brief.get("budget_min", price)))
        budget_max = Decimal(str(brief.get("budget_max", price)))
    except (InvalidOperation, ValueError):
        return []
    read = read_brief(
        relationship="", interests=interests, budget_min=budget_min, budget_max=budget_max, age=None
    )
    facts = match_facts(
        hits=read.matched(words),
        age=brief.get("age"),
        price=price,
        budget_min=budget_min,
        budget_max=budget_max,
    )
    currency = gift.get("currency", "")
    return [match_reason(fact, currency=currency, language=language) for fact in facts]


def tag_labels(tags: list[Any], *, language: str) -> list[str]:
    """The catalog's tags as people read them in `language`."""
    vocabulary = catalog.interest_vocabulary()
    return [vocabulary.label(tag, language) for tag in tags if isinstance(tag, str)]


def gift_card(
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
        "tags": tag_labels(gift.get("tags") or [], language=language),
        "reasons": card_reasons(gift, brief, language=language),
        "variants": words.variants % {"names": ", ".join(v["name"] for v in variants)}
        if (variants := [v for v in gift.get("variants") or [] if isinstance(v, dict)])
        else "",
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
