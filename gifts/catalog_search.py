"""Searching the catalog as a person filters it: the words they typed (in any shipped
language), or none for everything, within a category and a price range, sorted by relevance or
price, with how many results each category has (the category filter's counts)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from gifts import catalog
from gifts.catalog import CatalogItem
from gifts.interests import normalized

Sort = Literal["relevance", "price_asc", "price_desc"]
_COUNTS_MEMO_SIZE = 256


@dataclass(frozen=True)
class SearchResult:
    items: list[CatalogItem]  # every match, sorted: the caller shows the first few
    # Matches per category with the same words and prices, whatever category was asked for.
    per_category: dict[str, int]


def search(
    *,
    query: str,
    category: str | None,
    min_price: Decimal | None,
    max_price: Decimal | None,
    language: str,
    sort: Sort,
) -> SearchResult:
    """Active products (sold out ones too, shown as such) within the prices whose name,
    description (also as translated into `language`), category or tags mention a word of
    `query`, or that a word names as an interest ("herbata" → tea); without words, every
    one. Details come from the catalog snapshot, stock and state are read live."""
    words = normalized(query).split()

    def run() -> SearchResult:
        _, pool = catalog.snapshot_items()
        vocabulary = catalog.interest_vocabulary()
        named = [vocabulary.tags_for(word) & vocabulary.tags for word in words]
        scores: dict[int, int] = {}
        for item in pool:
            if not _in_prices(item.price, min_price, max_price):
                continue
            score = _score(item, words, named, language) if words else 0
            if score or not words:
                scores[item.product_id] = score
        live = [i for i in catalog.items_by_id(scores).values() if i.active]
        per_category = _count(live)
        found = [i for i in live if category is None or i.category == category]
        return SearchResult(_sorted(found, scores, sort), per_category)

    return catalog.upstream_read(run)


def _in_prices(price: Decimal, low: Decimal | None, high: Decimal | None) -> bool:
    return (low is None or price >= low) and (high is None or price <= high)


def _score(item: CatalogItem, words: list[str], named: list[frozenset[str]], language: str) -> int:
    """How many of the words the product answers to."""
    fields = catalog.localized_fields(item, language=language)
    text = normalized(
        " ".join(
            (item.name, item.description, fields["name"], fields["description"], item.category)
        )
    )
    return sum(
        1
        for word, tags in zip(words, named, strict=True)
        if word in text or not tags.isdisjoint(item.words)
    )


def _sorted(items: list[CatalogItem], scores: dict[int, int], sort: Sort) -> list[CatalogItem]:
    if sort == "price_asc":
        return sorted(items, key=lambda i: (i.price, i.sku))
    if sort == "price_desc":
        return sorted(items, key=lambda i: (-i.price, i.sku))
    return sorted(items, key=lambda i: (-scores[i.product_id], not i.in_stock, i.sku))


_counts_memo: dict[tuple, dict[str, int]] = {}


def category_counts(*, min_price: Decimal | None, max_price: Decimal | None) -> dict[str, int]:
    """How many active products each category has within the prices, as the catalog snapshot
    last saw them (no read of its own: the ideas screen draws these with every list of
    ideas; a search's own counts are live)."""
    loaded_at, pool = catalog.snapshot_items()
    key = (loaded_at, min_price, max_price)
    counts = _counts_memo.get(key)
    if counts is None:
        counts = _count(i for i in pool if i.active and _in_prices(i.price, min_price, max_price))
        if len(_counts_memo) >= _COUNTS_MEMO_SIZE:
            _counts_memo.clear()
        _counts_memo[key] = counts
    return counts


def _count(items: Iterable[CatalogItem]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[item.category] = counts.get(item.category, 0) + 1
    return counts
