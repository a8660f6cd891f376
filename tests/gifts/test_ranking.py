"""rank_gifts, the ideas suggest_gifts shows: pure, so tested on hand-made catalog items."""

import itertools
import random
from dataclasses import replace
from decimal import Decimal

from gifts.catalog import CatalogItem
from gifts.ranking import budget_position, price_spread
from gifts.selectors import Brief, rank_gifts

_ids = itertools.count(1)


def _item(
    sku: str,
    price: str,
    *,
    tags=("coffee",),
    category="kitchen",
    stock=50,
    age=(0, 120),
    family="",
):
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
        family=family,
    )


def _brief(*interests: str, low="10", high="90", relationship="friend", age=None) -> Brief:
    return Brief(relationship, interests, Decimal(low), Decimal(high), age)


def _skus(items, brief, limit=10) -> list[str]:
    return [g.item.sku for g in rank_gifts(items, brief, limit=limit)]


def _shop(seed: int = 7) -> list[CatalogItem]:
    """Many gardening tools bunched at 54-57, fewer tea and music gifts across the budget: the
    shape that once gave five gardening tools at one price."""
    rng = random.Random(seed)
    items = [
        _item(f"GAR-{n}", f"{54 + n % 4}.99", tags=("gardening",), category="garden")
        for n in range(12)
    ]
    items += [
        _item(f"TEA-{n}", f"{rng.randint(25, 80)}.49", tags=("tea",), category="food")
        for n in range(4)
    ]
    items += [
        _item(f"MUS-{n}", f"{rng.randint(25, 80)}.00", tags=("music",), category="music")
        for n in range(3)
    ]
    return items


def test_an_item_answers_to_its_tags_and_its_category_also_after_a_stock_change():
    item = _item("A", "20", tags=("coffee", "tea"), category="kitchen")
    assert item.words == {"coffee", "tea", "kitchen"}
    assert replace(item, stock=0).words == item.words


def test_every_interest_the_catalog_serves_comes_first_however_many_gifts_another_has():
    brief = _brief("gardening", "tea", "music", low="25", high="80")
    ranked = rank_gifts(_shop(), brief, limit=6)
    served = [g.item.tags[0] for g in ranked]
    assert set(served[:3]) == {"gardening", "tea", "music"}
    assert served.count("gardening") < 6
    # Fewer ideas than interests: each idea serves another interest.
    assert len({g.item.tags[0] for g in rank_gifts(_shop(), brief, limit=2)}) == 2


def test_an_interest_nothing_in_budget_serves_does_not_hold_a_place():
    items = [*_shop(), _item("JAZZ-DEAR", "300", tags=("music",), category="music")]
    items = [i for i in items if not i.sku.startswith("MUS-")]
    ranked = rank_gifts(items, _brief("gardening", "tea", "music", low="25", high="80"), limit=4)
    assert len(ranked) == 4
    assert {g.item.tags[0] for g in ranked} == {"gardening", "tea"}


def test_a_gift_serving_more_interests_is_the_first_idea():
    items = [_item("ONE", "50"), _item("TWO", "85", tags=("coffee", "cooking"))]
    assert _skus(items, _brief("coffee", "cooking"))[0] == "TWO"


def test_prices_spread_over_the_budget_rather_than_bunch():
    items = [_item(f"C{price}", f"{price}.00") for price in range(20, 81, 2)]
    brief = _brief("coffee", low="20", high="80")
    ranked = rank_gifts(items, brief, limit=4)
    prices = [g.item.price for g in ranked]
    assert price_spread(prices, low=brief.budget_min, high=brief.budget_max) >= 0.8
    # The first idea sits mid-budget, the next ones away from it and from each other.
    assert 40 <= prices[0] <= 60
    assert min(prices) <= 30 and max(prices) >= 70


def test_the_bunched_shop_gets_ideas_across_the_budget():
    brief = _brief("gardening", "tea", "music", low="25", high="80")
    prices = [g.item.price for g in rank_gifts(_shop(), brief, limit=6)]
    assert price_spread(prices, low=brief.budget_min, high=brief.budget_max) >= 0.4


def test_variants_of_one_product_are_one_idea_and_the_others_its_variants():
    items = [
        _item("TEA-GREEN", "30", tags=("tea",), family="food/tea-collection"),
        _item("TEA-HERBAL", "34", tags=("tea",), family="food/tea-collection"),
        _item("TEA-BLACK", "90.01", tags=("tea",), family="food/tea-collection"),  # out of budget
        _item("KETTLE", "60", tags=("tea",)),
        _item("POT", "45", tags=("tea",), family="kitchen/teapot"),
    ]
    ranked = rank_gifts(items, _brief("tea"), limit=5)
    families = [g.item.family_key for g in ranked]
    assert len(families) == len(set(families)) == 3
    (tea,) = [g for g in ranked if g.item.family == "food/tea-collection"]
    assert {tea.item.sku, *(v.sku for v in tea.variants)} == {"TEA-GREEN", "TEA-HERBAL"}
    assert all(not g.variants for g in ranked if g is not tea)


def test_the_ranking_is_the_same_for_any_order_of_the_candidates():
    brief = _brief("gardening", "tea", "music", low="25", high="80")
    expected = _skus(_shop(), brief, limit=6)
    for seed in range(20):
        shuffled = _shop()
        random.Random(seed).shuffle(shuffled)
        assert _skus(shuffled, brief, limit=6) == expected


def test_equal_gifts_go_to_the_cheaper_then_the_smaller_sku():
    items = [_item("B", "50"), _item("A", "50"), _item("C", "50")]
    for order in itertools.permutations(items):
        assert _skus(list(order), _brief("coffee"), limit=1) == ["A"]


def test_the_reasons_say_which_interest_the_gift_serves_and_where_it_sits_in_the_budget():
    items = [
        _item("LOW", "15", tags=("tea",)),
        _item("MID", "50", tags=("coffee",)),
        _item("HIGH", "88", tags=(), category="kitchen"),
    ]
    reasons = {
        g.item.sku: g.reasons
        for g in rank_gifts(items, _brief("tea", "coffee", "kitchen"), limit=3)
    }
    assert reasons == {
        "LOW": ("serves the interest 'tea'", "serves the interest 'kitchen'", "15 USD: the low end of the budget"),
        "MID": ("serves the interest 'coffee'", "serves the interest 'kitchen'", "50 USD: the middle of the budget"),
        "HIGH": ("serves the interest 'kitchen'", "88 USD: the high end of the budget"),
    }  # fmt: skip


def test_budget_positions_are_thirds_and_a_one_price_budget_is_its_middle():
    low, high = Decimal(10), Decimal(40)
    assert [budget_position(Decimal(p), low=low, high=high) for p in (10, 19, 20, 30, 31, 40)] == [
        "low", "low", "middle", "middle", "high", "high",
    ]  # fmt: skip
    assert budget_position(Decimal(25), low=Decimal(25), high=Decimal(25)) == "middle"
    assert price_spread([Decimal(25)] * 3, low=Decimal(25), high=Decimal(25)) == 0.0
    assert price_spread([Decimal(30)], low=low, high=high) == 0.0


def test_out_of_budget_unsuitable_for_the_age_or_unmatched_items_are_left_out():
    items = [
        _item("OK", "40"),
        _item("DEAR", "95"),
        _item("CHEAP", "5"),
        _item("FOR-KIDS", "40", age=(3, 8)),
        _item("OTHER", "40", tags=("garden",), category="outdoors"),
    ]
    assert _skus(items, _brief("coffee", age=30)) == ["OK"]


def test_the_limit_is_kept_and_a_budget_of_one_price_is_not_divided_by_zero():
    items = [_item(f"S{n}", "25") for n in range(8)]
    ranked = rank_gifts(items, _brief("coffee", low="25", high="25"), limit=3)
    assert [g.item.sku for g in ranked] == ["S0", "S1", "S2"]
    assert rank_gifts([], _brief("coffee"), limit=3) == []
