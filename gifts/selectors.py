"""Reads of the gift domain: the caller's workflow, ranking gift ideas against a brief, and
explaining an empty result from the catalog."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from gifts import catalog
from gifts.catalog import CatalogItem
from gifts.models import WorkflowContext
from gifts.ranking import Candidate, budget_position, diversify
from tool_runtime.errors import ToolError
from tool_runtime.rows import Scalar, one_row, one_row_beside

# --- the caller's workflow ---------------------------------------------------------------------
# The read every workflow tool call starts with, by a fixed statement (tool_runtime.rows). The
# selected product is not joined: only prepare_order reads it, and loads it when it does.


def owned_workflow(*, owner_pk: object, workflow_id: uuid.UUID) -> WorkflowContext | None:
    """The workflow if `owner_pk` owns it; another principal's is indistinguishable from none."""
    return one_row(WorkflowContext, id=workflow_id, owner=owner_pk)


def owned_workflow_beside(
    *, owner_pk: object, workflow_id: uuid.UUID, scalar: Scalar
) -> tuple[WorkflowContext | None, Any]:
    """`owned_workflow` and the value of `scalar` (the loop guard's count), in one statement."""
    return one_row_beside(WorkflowContext, scalar, id=workflow_id, owner=owner_pk)


class GiftWorkflowStore:
    """The gift workflow as the tool runtime reads it (tool_runtime.workflows)."""

    def owned(self, *, owner_pk: object, workflow_id: uuid.UUID) -> WorkflowContext | None:
        return owned_workflow(owner_pk=owner_pk, workflow_id=workflow_id)

    def owned_beside(
        self, *, owner_pk: object, workflow_id: uuid.UUID, scalar: Scalar
    ) -> tuple[WorkflowContext | None, Any]:
        return owned_workflow_beside(owner_pk=owner_pk, workflow_id=workflow_id, scalar=scalar)

    def not_found(self, workflow_id: uuid.UUID) -> ToolError:
        return ToolError(
            "NOT_FOUND",
            f"No workflow {workflow_id} exists for this user. Call start_gift_workflow to begin one.",
            field="workflow_id",
            next_actions=["start_gift_workflow"],
        )


# --- ranking ----------------------------------------------------------------------------------

# Interests the recipient's relationship suggests when nothing else matches.
RELATIONSHIP_HINTS: dict[str, tuple[str, ...]] = {
    "partner": ("romance", "jewelry", "wellness"),
    "spouse": ("romance", "jewelry", "wellness"),
    "mother": ("home", "wellness", "gardening"),
    "father": ("tools", "outdoors", "coffee"),
    "parent": ("home", "wellness"),
    "child": ("toys", "games", "lego"),
    "grandparent": ("home", "reading", "gardening"),
    "colleague": ("coffee", "office", "stationery"),
    "teacher": ("stationery", "reading", "coffee"),
}


@dataclass(frozen=True)
class Brief:
    relationship: str
    interests: tuple[str, ...]  # as the person gave them, in any language
    budget_min: Decimal
    budget_max: Decimal
    age: int | None
    # The catalog's tags each interest names (gifts.interests), in the order of `interests`;
    # None: each names only itself.
    interest_tags: tuple[frozenset[str], ...] | None = None

    def tags_of_interests(self) -> tuple[frozenset[str], ...]:
        if self.interest_tags is not None:
            return self.interest_tags
        return tuple(frozenset({interest}) for interest in self.interests)

    def matched(self, words: frozenset[str]) -> list[tuple[str, str]]:
        """(interest, the tag or category it names a product by) for each interest that names
        the product whose `words` (catalog.interest_words) these are."""
        return [
            (interest, min(tags & words))
            for interest, tags in zip(self.interests, self.tags_of_interests(), strict=True)
            if not tags.isdisjoint(words)
        ]

    def hits(self, item: CatalogItem) -> list[str]:
        """The interests that name `item` by one of its tags or its category."""
        return [
            interest
            for interest, tags in zip(self.interests, self.tags_of_interests(), strict=True)
            if not tags.isdisjoint(item.words)
        ]


def read_brief(
    *,
    relationship: str,
    interests: Iterable[str],
    budget_min: Decimal,
    budget_max: Decimal,
    age: int | None,
) -> Brief:
    """A brief with its interests read as the catalog's tags, in whatever language given."""
    given = tuple(dict.fromkeys(i.strip().lower() for i in interests))
    vocabulary = catalog.interest_vocabulary()
    return Brief(
        relationship,
        given,
        budget_min,
        budget_max,
        age,
        tuple(vocabulary.tags_for(interest) for interest in given),
    )


@dataclass(frozen=True)
class RankedGift:
    item: CatalogItem
    score: float
    reasons: tuple[str, ...]
    variants: tuple[CatalogItem, ...] = ()


BudgetPosition = Literal["low", "middle", "high"]


@dataclass(frozen=True)
class MatchFact:
    """One reason a gift fits a brief, as data: the model reads it in English
    (`english_reason`), the widget renders it in the person's language. A budget fact says
    where the price sits in the budget (`position`)."""

    kind: Literal["interest", "age", "budget"]
    value: str | int | Decimal
    position: BudgetPosition | None = None
    tag: str = ""  # an interest's: the catalog tag it matched (the widget shows its label)


def match_facts(
    *,
    hits: Iterable[tuple[str, str]],
    age: int | None,
    price: Decimal,
    budget_min: Decimal,
    budget_max: Decimal,
) -> tuple[MatchFact, ...]:
    facts = [MatchFact("interest", interest, tag=tag) for interest, tag in hits]
    if age is not None:
        facts.append(MatchFact("age", age))
    position = budget_position(price, low=budget_min, high=budget_max)
    facts.append(MatchFact("budget", price, position))  # type: ignore[arg-type]
    return tuple(facts)


_ENGLISH_POSITIONS = {"low": "the low end of", "middle": "the middle of", "high": "the high end of"}


def english_reason(fact: MatchFact, *, currency: str) -> str:
    if fact.kind == "interest":
        named = f" ({fact.tag})" if fact.tag and fact.tag != fact.value else ""
        return f"serves the interest '{fact.value}'{named}"
    if fact.kind == "age":
        return f"suits age {fact.value}"
    return f"{fact.value} {currency}: {_ENGLISH_POSITIONS[fact.position or 'middle']} the budget"


def _fits_age(item: CatalogItem, age: int | None) -> bool:
    return age is None or item.age_min <= age <= item.age_max


def _in_budget(item: CatalogItem, low: Decimal, high: Decimal) -> bool:
    return low <= item.price <= high


def rank_gifts(candidates: list[CatalogItem], brief: Brief, *, limit: int) -> list[RankedGift]:
    """Up to `limit` ideas among the products matching at least one interest, in budget and
    suitable for the age: each interest they can serve first, prices spread over the budget,
    one idea per family with its other fitting products as variants (gifts.ranking)."""
    low, high = float(brief.budget_min), float(brief.budget_max)
    middle = (low + high) / 2
    span = high - low
    half = max(span / 2, 1.0)
    wanted = len(brief.interests) or 1
    hints = set(RELATIONSHIP_HINTS.get(brief.relationship, ()))
    fitting = []
    for item in candidates:
        if not (
            _in_budget(item, brief.budget_min, brief.budget_max) and _fits_age(item, brief.age)
        ):
            continue
        hits = brief.hits(item)
        if not hits:
            continue
        price = item.price_float
        hinted = not hints.isdisjoint(item.tags)
        # More interests served count most; a hint from the relationship, a price near the
        # middle of the budget (the first idea's, the others spread from it) and stock after.
        relevance = (
            0.7 * len(hits) / wanted
            + (0.15 if hinted else 0.0)
            + 0.1 * (1 - abs(price - middle) / half)
            + 0.05 * min(item.stock, 20) / 20
        )
        fitting.append(Candidate(item, tuple(hits), relevance, price))
    ideas = diversify(fitting, budget_span=span, limit=limit)
    # Reasons only for the gifts kept: wording them for every candidate cost a third of this.
    return [
        RankedGift(
            idea.candidate.item,
            idea.candidate.relevance,
            _reasons(idea.candidate.item, brief.matched(idea.candidate.item.words), brief),
            idea.variants,
        )
        for idea in ideas
    ]


def suggest_ideas(*, brief: Brief, currency: str, limit: int) -> list[RankedGift]:
    """The ideas suggest_gifts offers for `brief`: the sellable products its interests name,
    ranked (one catalog read)."""
    in_budget = catalog.sellable_candidates(
        currency=currency,
        min_price=brief.budget_min,
        max_price=brief.budget_max,
        age=brief.age,
        interests=frozenset().union(*brief.tags_of_interests()),
    )
    return rank_gifts(in_budget, brief, limit=limit)


def _reasons(item: CatalogItem, hits: Iterable[tuple[str, str]], brief: Brief) -> tuple[str, ...]:
    facts = match_facts(
        hits=hits,
        age=brief.age,
        price=item.price,
        budget_min=brief.budget_min,
        budget_max=brief.budget_max,
    )
    return tuple(english_reason(fact, currency=item.currency) for fact in facts)


def idea_count(items: Iterable[CatalogItem]) -> int:
    """How many ideas these products make: variants of one product are one."""
    return len({item.family_key for item in items})


@dataclass(frozen=True)
class EmptyResultAdvice:
    reason: str
    suggestions: list[dict]


def explain_no_results(candidates: list[CatalogItem], brief: Brief) -> EmptyResultAdvice:
    """Why nothing matched, and concrete changes to the brief that would find gifts."""
    interest_items = [i for i in candidates if brief.hits(i) and _fits_age(i, brief.age)]
    suggestions: list[dict] = []
    currency = candidates[0].currency if candidates else ""

    above = sorted(i.price for i in interest_items if i.price > brief.budget_max)
    if above:
        # The smallest raise that finds a handful of gifts (or all there are, if fewer).
        target = above[min(len(above), 5) - 1].to_integral_value(rounding="ROUND_CEILING")
        found = idea_count(i for i in interest_items if brief.budget_min <= i.price <= target)
        suggestions.append(
            {
                "change": "raise_budget_max",
                "field": "budget_max",
                "value": int(target),
                "matches": found,
                "message": f"raise budget_max to {target} to get {found} matches",
            }
        )
    below = sorted((i.price for i in interest_items if i.price < brief.budget_min), reverse=True)
    if below:
        target = below[min(len(below), 5) - 1].to_integral_value(rounding="ROUND_FLOOR")
        found = idea_count(i for i in interest_items if target <= i.price <= brief.budget_max)
        suggestions.append(
            {
                "change": "lower_budget_min",
                "field": "budget_min",
                "value": int(target),
                "matches": found,
                "message": f"lower budget_min to {target} to get {found} matches",
            }
        )

    in_budget = [i for i in candidates if _in_budget(i, brief.budget_min, brief.budget_max)]
    for interest, tags in zip(brief.interests, brief.tags_of_interests(), strict=True):
        if not any(not tags.isdisjoint(i.words) for i in candidates):
            suggestions.append(
                {
                    "change": "drop_interest",
                    "field": "interests",
                    "value": interest,
                    "matches": 0,
                    "message": f"drop interest '{interest}': nothing in the catalog matches it",
                }
            )
    if brief.age is not None:
        without_age = [i for i in in_budget if brief.hits(i)]
        if without_age:
            suggestions.append(
                {
                    "change": "drop_age",
                    "field": "age",
                    "value": None,
                    "matches": idea_count(without_age),
                    "message": f"leave out age to get {idea_count(without_age)} matches",
                }
            )
    popular = _popular_tags(
        [i for i in in_budget if _fits_age(i, brief.age)],
        exclude=set(brief.interests).union(*brief.tags_of_interests()),
    )
    if popular:
        found = idea_count(
            i for i in in_budget if _fits_age(i, brief.age) and set(popular) & set(i.tags)
        )
        suggestions.append(
            {
                "change": "use_interests",
                "field": "interests",
                "value": popular,
                "matches": found,
                "message": f"try interests {', '.join(popular)} to get {found} matches in this budget",
            }
        )

    if not candidates:
        reason = "The catalog has no products in stock priced in this currency."
    elif not interest_items:
        reason = f"No product in stock matches the interests {', '.join(brief.interests)}."
    elif above or below:
        reason = (
            f"Products matching these interests exist, but none costs between {brief.budget_min} "
            f"and {brief.budget_max} {currency}."
        )
    else:
        reason = "No product matches these interests, budget and age together."
    return EmptyResultAdvice(reason=reason, suggestions=suggestions)


def explain_empty_search(
    *,
    query: str,
    category: str | None,
    min_price: Decimal | None,
    max_price: Decimal | None,
    in_all_categories: int,
    without_prices: list[CatalogItem],
    without_words: int,
) -> EmptyResultAdvice:
    """Why a search found nothing, and the nearest changes of its filters that find something,
    each with its count: the same search in every category (`in_all_categories` matches), a
    price range widened just enough (`without_prices` is what it finds with no range), or the
    category without the words (`without_words` matches)."""
    suggestions: list[dict] = []
    if category and in_all_categories:
        suggestions.append(
            {
                "change": "drop_category",
                "field": "category",
                "value": None,
                "matches": in_all_categories,
                "message": f"search every category to get {in_all_categories} matches",
            }
        )
    above = sorted(i.price for i in without_prices if max_price is not None and i.price > max_price)
    if above:
        target = above[0].to_integral_value(rounding="ROUND_CEILING")
        found = sum(
            1
            for i in without_prices
            if i.price <= target and (min_price is None or i.price >= min_price)
        )
        suggestions.append(
            {
                "change": "raise_max_price",
                "field": "max_price",
                "value": int(target),
                "matches": found,
                "message": f"raise max_price to {target} to get {found} matches",
            }
        )
    below = sorted(
        (i.price for i in without_prices if min_price is not None and i.price < min_price),
        reverse=True,
    )
    if below:
        target = below[0].to_integral_value(rounding="ROUND_FLOOR")
        found = sum(
            1
            for i in without_prices
            if i.price >= target and (max_price is None or i.price <= max_price)
        )
        suggestions.append(
            {
                "change": "lower_min_price",
                "field": "min_price",
                "value": int(target),
                "matches": found,
                "message": f"lower min_price to {target} to get {found} matches",
            }
        )
    if query.split() and without_words:
        suggestions.append(
            {
                "change": "drop_words",
                "field": "query",
                "value": None,
                "matches": without_words,
                "message": f"leave out the words to get {without_words} matches",
            }
        )
    if not suggestions:
        suggestions.append(
            {
                "change": "other_words",
                "field": "query",
                "value": None,
                "matches": 0,
                "message": "no product mentions these words: try other or fewer words",
            }
        )
    within = "".join(
        [
            f" in category {category}" if category else "",
            f" at or over {min_price}" if min_price is not None else "",
            f" at or under {max_price}" if max_price is not None else "",
        ]
    )
    what = f"mentions the words '{query.strip()}'" if query.split() else "is listed"
    reason = f"No active product {what}{within}."
    return EmptyResultAdvice(reason=reason, suggestions=suggestions)


def _popular_tags(items: list[CatalogItem], *, exclude: set[str], top: int = 3) -> list[str]:
    counts: dict[str, int] = {}
    for item in items:
        for tag in item.tags:
            if tag not in exclude:
                counts[tag] = counts.get(tag, 0) + 1
    return [tag for tag, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]]
