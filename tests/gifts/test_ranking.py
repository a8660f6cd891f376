"""rank_gifts, the ordering suggest_gifts shows: pure, so tested on hand-made catalog items."""

import itertools
from dataclasses import replace
from decimal import Decimal

from gifts.catalog import CatalogItem
from gifts.selectors import Brief, rank_gifts

_ids = itertools.count(1)


def _item(sku: str, price: str, *, tags=("coffee",), category="kitchen", stock=50, age=(0, 120)):
    return CatalogItem(
        product_id=next(_ids),
        sku=sku,
        name=sku,
        description="",
        category=category,
        tags=tuple(tags),
        price=Decimal(price),
        currency="USD",
        stock=stock,
        age_min=age[0],
        age_max=age[1],
    )


def _brief(*interests: str, low="10", high="90", relationship="friend", age=None) -> Brief:
    return Brief(relationship, interests, Decimal(low), Decimal(high), age)


def _skus(items, brief, limit=10) -> list[str]:
    return [g.item.sku for g in rank_gifts(items, brief, limit=limit)]


def test_an_item_answers_to_its_tags_and_its_category_also_after_a_stock_change():
    item = _item("A", "20", tags=("coffee", "tea"), category="kitchen")
    assert item.words == {"coffee", "tea", "kitchen"}
    assert replace(item, stock=0).words == item.words


def test_more_interests_matched_rank_first_then_the_price_nearest_the_budget_middle():
    items = [
        _item("NEAR", "50"),  # one hit, at the middle of 10..90
        _item("FAR", "12"),  # one hit, near the edge
        _item("TWO", "85", tags=("coffee", "cooking")),  # two hits beat any closeness
    ]
    assert _skus(items, _brief("coffee", "cooking")) == ["TWO", "NEAR", "FAR"]


def test_an_interest_may_name_the_category_and_the_reasons_say_which_interests_matched():
    (gift,) = rank_gifts(
        [_item("K", "40", tags=(), category="kitchen")], _brief("kitchen"), limit=5
    )
    assert gift.reasons == ("matches interest 'kitchen'", "40 USD is within the budget")


def test_equally_close_gifts_tie_and_are_ordered_by_price_then_sku():
    # 30.10 and 70.30 are both 20.10 from the middle (50.20): the same score, so the cheaper
    # comes first; two at the same price fall back to the sku.
    items = [_item("HIGH", "70.30"), _item("LOW-B", "30.10"), _item("LOW-A", "30.10")]
    ranked_brief = _brief("coffee", low="10.10", high="90.30")
    ranked = rank_gifts(items, ranked_brief, limit=5)
    assert [g.item.sku for g in ranked] == ["LOW-A", "LOW-B", "HIGH"]
    assert ranked[0].score == ranked[1].score == ranked[2].score
    # The candidate read promises no order (catalog.sellable_candidates): any order ranks alike.
    for order in itertools.permutations(items):
        assert _skus(list(order), ranked_brief) == ["LOW-A", "LOW-B", "HIGH"]


def test_the_relationship_hint_and_stock_break_otherwise_equal_scores():
    items = [_item("PLAIN", "50", stock=5), _item("HINTED", "50", tags=("coffee", "office"))]
    # A colleague is hinted towards office gifts; stock adds at most 0.2, less than the hint.
    assert _skus(items, _brief("coffee", relationship="colleague")) == ["HINTED", "PLAIN"]
    stocked = [_item("FEW", "50", stock=1), _item("MANY", "50", stock=30)]
    assert _skus(stocked, _brief("coffee")) == ["MANY", "FEW"]


def test_out_of_budget_unsuitable_for_the_age_or_unmatched_items_are_left_out():
    items = [
        _item("OK", "40"),
        _item("DEAR", "95"),
        _item("CHEAP", "5"),
        _item("FOR-KIDS", "40", age=(3, 8)),
        _item("OTHER", "40", tags=("garden",), category="outdoors"),
    ]
    assert _skus(items, _brief("coffee", age=30)) == ["OK"]


def test_the_limit_keeps_the_best_and_a_budget_of_one_price_is_not_divided_by_zero():
    items = [_item(f"S{n}", "25") for n in range(8)]
    ranked = rank_gifts(items, _brief("coffee", low="25", high="25"), limit=3)
    assert [g.item.sku for g in ranked] == ["S0", "S1", "S2"]
