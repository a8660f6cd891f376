"""Choosing a few gift ideas that cover a brief: maximal marginal relevance (Carbonell and
Goldstein, 1998) over interest, category and price, with every interest the candidates can
serve taken first (decision 020).

Pure and deterministic: the same candidates (in any order) and brief give the same ideas.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from gifts.catalog import CatalogItem

# λ of MMR: how much relevance counts against likeness to the ideas already chosen.
RELEVANCE_SHARE = 0.5
# Likeness of two ideas: sharing interests, a category, a price (their weights sum to 1).
SAME_INTERESTS = 0.4
SAME_CATEGORY = 0.25
NEAR_PRICE = 0.35


class Candidate(NamedTuple):
    """A product that fits the brief, with what it serves of it (a tuple: ranking makes one
    per candidate on every suggest_gifts)."""

    item: CatalogItem
    hits: tuple[str, ...]  # the brief's interests it serves, in the brief's order
    relevance: float  # in [0, 1]
    price: float  # the item's, as a float: likeness compares many prices


@dataclass(frozen=True)
class Idea:
    candidate: Candidate
    variants: tuple[CatalogItem, ...]  # other fitting products of its family, cheapest first


def diversify(candidates: Iterable[Candidate], *, budget_span: float, limit: int) -> list[Idea]:
    """Up to `limit` ideas, one per family, chosen greedily: while some interest the
    candidates serve has no idea yet, only candidates serving such an interest may be chosen;
    among those allowed, the one with the best lambda * relevance - (1 - lambda) * (likeness to
    the closest idea chosen). A family competes with its most relevant member. Ties go to the
    cheaper, then the smaller sku."""
    families: dict[str, list[Candidate]] = {}
    for candidate in sorted(candidates, key=lambda c: (c.price, c.item.sku)):
        families.setdefault(candidate.item.family_key, []).append(candidate)
    # max keeps the first of equals: the cheapest, as each family is sorted.
    contenders = sorted(
        (max(members, key=lambda c: c.relevance) for members in families.values()),
        key=lambda c: (c.price, c.item.sku),
    )
    served = [frozenset(c.hits) for c in contenders]
    categories = [c.item.category for c in contenders]
    prices = [c.price for c in contenders]
    uncovered = set().union(*served)
    span = max(budget_span, 1.0)
    # Each contender's likeness to the closest idea chosen so far, updated as ideas are added.
    closest = [0.0] * len(contenders)
    alive = list(range(len(contenders)))
    chosen: list[Idea] = []
    while alive and len(chosen) < limit:
        best, best_score = -1, float("-inf")
        for i in alive:
            if uncovered and uncovered.isdisjoint(served[i]):
                continue
            score = RELEVANCE_SHARE * contenders[i].relevance - (1 - RELEVANCE_SHARE) * closest[i]
            if score > best_score:
                best, best_score = i, score
        if best < 0:  # what is left uncovered only a variant of a chosen idea served
            uncovered.clear()
            continue
        alive.remove(best)
        idea = contenders[best]
        members = families[idea.item.family_key]
        chosen.append(Idea(idea, tuple(c.item for c in members if c is not idea)))
        uncovered.difference_update(idea.hits)
        for i in alive:
            # Likeness in [0, 1]: the interests served alike (Jaccard), one category, and
            # how near the prices are within the budget.
            shared = len(served[i] & served[best])
            like = SAME_INTERESTS * shared / len(served[i] | served[best]) if shared else 0.0
            if categories[i] == categories[best]:
                like += SAME_CATEGORY
            near = 1 - abs(prices[i] - prices[best]) / span
            if near > 0:
                like += NEAR_PRICE * near
            if like > closest[i]:
                closest[i] = like
    return chosen


def budget_position(price: Decimal, *, low: Decimal, high: Decimal) -> str:
    """Where a price sits in the budget: its lower, middle or upper third."""
    if high <= low:
        return "middle"
    share = (price - low) / (high - low)
    if share < Decimal(1) / 3:
        return "low"
    if share <= Decimal(2) / 3:
        return "middle"
    return "high"


def price_spread(prices: Sequence[Decimal], *, low: Decimal, high: Decimal) -> float:
    """(highest - lowest price) ÷ (budget max - budget min); 0 for one price or a point budget."""
    if len(prices) < 2 or high <= low:
        return 0.0
    return float((max(prices) - min(prices)) / (high - low))
