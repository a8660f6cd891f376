"""Choosing a few gift ideas that cover a brief: maximal marginal relevance (Carbonell and
Goldstein, 1998) over interest, category and price, with every interest the candidates can
serve taken first (decision 020).

Pure and deterministic: the same candidates (in any order) and brief give the same ideas.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from gifts.catalog import CatalogItem

# λ of MMR: how much relevance counts against likeness to the ideas already chosen.
RELEVANCE_SHARE = 0.5
# Likeness of two ideas: sharing interests, a category, a price (their weights sum to 1).
SAME_INTERESTS = 0.4
SAME_CATEGORY = 0.25
NEAR_PRICE = 0.35


@dataclass(frozen=True)
class Candidate:
    """A product that fits the brief, with what it serves of it."""

    item: CatalogItem
    hits: tuple[str, ...]  # the brief's interests it serves, in the brief's order
    relevance: float  # in [0, 1]


@dataclass(frozen=True)
class Idea:
    candidate: Candidate
    variants: tuple[CatalogItem, ...]  # other fitting products of its family, cheapest first


def diversify(candidates: Iterable[Candidate], *, budget_span: float, limit: int) -> list[Idea]:
    """Up to `limit` ideas, one per family, chosen greedily: while some interest the
    candidates serve has no idea yet, only candidates serving such an interest may be chosen;
    among those allowed, the one with the best λ·relevance - (1-λ)·(likeness to the closest
    idea chosen). Ties go to the cheaper, then the smaller sku."""
    pool = sorted(candidates, key=lambda c: (c.item.price, c.item.sku))
    families: dict[str, list[CatalogItem]] = {}
    for candidate in pool:
        families.setdefault(candidate.item.family_key, []).append(candidate.item)
    uncovered = {hit for candidate in pool for hit in candidate.hits}
    span = max(budget_span, 1.0)
    prices = {c.item.product_id: float(c.item.price) for c in pool}
    # Each candidate's likeness to the closest idea chosen so far, updated as ideas are added.
    closest = dict.fromkeys(prices, 0.0)
    chosen: list[Idea] = []
    while pool and len(chosen) < limit:
        allowed = [c for c in pool if uncovered.intersection(c.hits)] if uncovered else pool
        best = max(
            allowed,
            key=lambda c: (
                RELEVANCE_SHARE * c.relevance - (1 - RELEVANCE_SHARE) * closest[c.item.product_id]
            ),
        )  # max keeps the first of equals: the cheapest, as the pool is sorted
        family = best.item.family_key
        chosen.append(
            Idea(best, tuple(i for i in families[family] if i.product_id != best.item.product_id))
        )
        uncovered.difference_update(best.hits)
        pool = [c for c in pool if c.item.family_key != family]
        for candidate in pool:
            like = likeness(candidate, best, prices=prices, span=span)
            if like > closest[candidate.item.product_id]:
                closest[candidate.item.product_id] = like
    return chosen


def likeness(a: Candidate, b: Candidate, *, prices: dict[int, float], span: float) -> float:
    """In [0, 1]: the share of interests they serve alike (Jaccard), one category, and how
    near their prices are within the budget."""
    shared = len(set(a.hits) & set(b.hits))
    interests = shared / (len(a.hits) + len(b.hits) - shared) if shared else 0.0
    category = 1.0 if a.item.category == b.item.category else 0.0
    gap = abs(prices[a.item.product_id] - prices[b.item.product_id]) / span
    return SAME_INTERESTS * interests + SAME_CATEGORY * category + NEAR_PRICE * max(0.0, 1 - gap)


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
