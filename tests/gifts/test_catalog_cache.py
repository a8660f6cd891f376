"""The catalog detail cache: details may be reused for a while, sellability never is."""

import pytest
from django.test import override_settings

from gifts import catalog
from gifts.models import Product
from tool_runtime import rows

pytestmark = pytest.mark.usefixtures("demo_catalog")


def _item(sku: str, **filters):
    return next(i for i in catalog.sellable_candidates(currency="USD", **filters) if i.sku == sku)


@override_settings(CATALOG_CACHE_SECONDS=60)
def test_details_are_reused_but_stock_and_sellability_are_live():
    assert _item("GG-TEST-LAST3").name == "Limited Edition Espresso Cups"
    Product.objects.filter(sku="GG-TEST-LAST3").update(name="Renamed Cups", stock=2)
    cached = _item("GG-TEST-LAST3")
    assert cached.name == "Limited Edition Espresso Cups"  # detail from the cache
    assert cached.stock == 2  # stock is read live
    Product.objects.filter(sku="GG-TEST-LAST3").update(stock=0)
    assert all(i.sku != "GG-TEST-LAST3" for i in catalog.sellable_candidates(currency="USD"))


@override_settings(CATALOG_CACHE_SECONDS=60)
def test_a_new_product_is_visible_at_once():
    catalog.sellable_candidates(currency="USD")
    Product.objects.create(
        sku="GG-NEW-1",
        name="Brand New Mug",
        description="coffee",
        category="kitchen",
        tags=["coffee"],
        price=12,
        stock=4,
    )
    assert _item("GG-NEW-1").name == "Brand New Mug"


@override_settings(CATALOG_CACHE_SECONDS=0)
def test_without_the_cache_details_are_fresh():
    _item("GG-TEST-LAST3")
    Product.objects.filter(sku="GG-TEST-LAST3").update(name="Renamed Cups")
    assert _item("GG-TEST-LAST3").name == "Renamed Cups"


def test_price_and_age_filters_run_in_the_database():
    items = catalog.sellable_candidates(currency="USD", min_price=20, max_price=40, age=8)
    assert items
    assert all(20 <= i.price <= 40 and i.age_min <= 8 <= i.age_max and i.in_stock for i in items)


@override_settings(CATALOG_CACHE_SECONDS=60)
def test_an_id_that_now_names_another_product_is_reloaded():
    before = _item("GG-TEST-LAST3")
    Product.objects.filter(pk=before.product_id).update(sku="GG-REUSED-ID", name="Other Product")
    after = _item("GG-REUSED-ID")
    assert after.product_id == before.product_id
    assert after.name == "Other Product"


@override_settings(CATALOG_CACHE_SECONDS=60)
def test_a_redrawn_workflow_shows_live_stock_and_drops_discontinued_offers(api):
    from tests.fixtures import start, suggest
    from widget.selectors import workflow_view

    workflow_id = start(api)
    gifts = suggest(api, workflow_id).body["gifts"]
    offered = [g["product_id"] for g in gifts]
    first, second = offered[:2]
    assert api.call("select_gift", {"workflow_id": workflow_id, "product_id": first}).status == 200
    Product.objects.filter(pk=first).update(stock=0, active=False)  # selected, then discontinued
    Product.objects.filter(pk=second).update(stock=0)  # sold out since it was offered

    view = workflow_view(workflow_id)

    cards = {card["product_id"]: card for card in view.offered}
    assert first not in cards  # a discontinued product is no longer offered …
    assert view.selected["product_id"] == first  # … but the selection is still drawn
    assert view.selected["in_stock"] is False
    assert cards[second]["in_stock"] is False  # stock is read live, not from the cache
    # The ideas still sellable, then a variant of the discontinued idea in its place.
    in_its_place = [v["product_id"] for v in gifts[0]["variants"]][:1]
    assert [c["product_id"] for c in view.offered] == [*offered[1:], *in_its_place]


@override_settings(CATALOG_CACHE_SECONDS=60)
def test_interests_narrow_the_live_query_and_a_new_product_is_still_found(
    django_assert_num_queries,
):
    def coffee_skus() -> set[str]:
        return {i.sku for i in catalog.sellable_candidates(currency="USD", interests={"coffee"})}

    everything = catalog.sellable_candidates(currency="USD")  # warms the snapshot
    expected = {i.sku for i in everything if "coffee" in i.tags or i.category == "coffee"}
    with django_assert_num_queries(1):  # only the live query: details come from the snapshot
        assert coffee_skus() == expected
    assert expected and len(expected) < len(everything)

    Product.objects.create(
        sku="GG-NEW-COFFEE",
        name="Brand New Dripper",
        description="pour-over",
        category="kitchen",
        tags=["coffee"],
        price=20,
        stock=3,
    )
    Product.objects.create(
        sku="GG-NEW-TEA",
        name="Tea Tin",
        description="tin",
        category="kitchen",
        tags=["tea"],
        price=9,
        stock=3,
    )
    assert coffee_skus() == expected | {"GG-NEW-COFFEE"}
    Product.objects.filter(sku="GG-NEW-COFFEE").update(stock=0)
    assert coffee_skus() == expected  # sellability is live, whatever the snapshot says


def _orm_candidates(*, currency, min_price=None, max_price=None, age=None, interests=None):
    """The same question asked through the ORM, for comparison with the fixed statement."""
    rows = Product.objects.filter(active=True, currency=currency, stock__gt=0)
    if min_price is not None:
        rows = rows.filter(price__gte=min_price)
    if max_price is not None:
        rows = rows.filter(price__lte=max_price)
    if age is not None:
        rows = rows.filter(age_min__lte=age, age_max__gte=age)
    found = list(rows.order_by("sku").values_list("sku", flat=True))
    if interests is None:
        return found
    by_sku = {p.sku: p for p in Product.objects.filter(sku__in=found)}
    return [s for s in found if set(interests) & {*by_sku[s].tags, by_sku[s].category}]


@pytest.mark.parametrize(
    "brief",
    [
        {"currency": "USD"},
        {"currency": "EUR"},
        {"currency": "USD", "min_price": 25},
        {"currency": "USD", "max_price": 15},
        {"currency": "USD", "min_price": 10, "max_price": 80, "age": 30},
        {"currency": "USD", "age": 8, "interests": {"toys"}},
        {"currency": "USD", "interests": {"coffee"}},
        {"currency": "USD", "interests": {"coffee", "cooking", "tea", "books", "music"}},
        {"currency": "USD", "interests": {"no-such-interest"}},
        {"currency": "USD", "max_price": 80, "interests": {"coffee", "cooking"}},
    ],
)
@pytest.mark.parametrize("any_of", [True, False], ids=["one set parameter", "padded IN list"])
def test_the_fixed_candidates_statement_answers_as_the_orm_does(brief, any_of, monkeypatch):
    # The padded IN list serves a database with no AnyOf form; both must answer alike here.
    monkeypatch.setattr(rows, "supports_any_of", lambda: any_of)
    got = catalog.sellable_candidates(**brief)
    # The same products, each once (in no promised order: ranking orders them).
    assert sorted(i.sku for i in got) == _orm_candidates(**brief)
    # Only these two ask for nothing the demo catalog has (it prices everything in USD).
    assert got or brief["currency"] == "EUR" or "no-such-interest" in brief.get("interests", ())
    assert all(type(i.active) is bool and i.active and i.stock > 0 for i in got)


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 8, 9, 1000])
def test_in_lists_are_padded_to_a_power_of_two_with_the_same_ids(count):
    ids = list(range(1, count + 1))
    padded = catalog._padded(ids)
    assert len(padded) & (len(padded) - 1) == 0 and count <= len(padded) < 2 * count
    assert padded[:count] == ids and set(padded) == set(ids)


@override_settings(CATALOG_CACHE_SECONDS=60)
def test_items_by_id_reads_stock_and_state_live_for_active_and_discontinued_products(
    django_assert_num_queries,
):
    inactive, *others = Product.objects.filter(active=True).order_by("pk")[:4]
    catalog.items_by_id([inactive.pk])  # the snapshot knows them now: the next read is live only
    Product.objects.filter(pk=inactive.pk).update(active=False, stock=0, name="Renamed")
    Product.objects.filter(pk=others[0].pk).update(stock=7)

    with django_assert_num_queries(1):
        found = catalog.items_by_id([inactive.pk, *(p.pk for p in others), inactive.pk])

    assert set(found) == {inactive.pk, *(p.pk for p in others)}
    assert (found[inactive.pk].active, found[inactive.pk].stock) == (False, 0)
    assert found[inactive.pk].name == inactive.name  # details from the snapshot, state live
    assert found[others[0].pk].stock == 7 and found[others[0].pk].in_stock
    assert all(found[p.pk].active and found[p.pk].sku == p.sku for p in others)


def test_items_by_id_of_no_ids_asks_nothing_and_skips_unknown_ids(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert catalog.items_by_id([]) == {}
    product = Product.objects.filter(active=True).first()

    assert list(catalog.items_by_id([product.pk, 10**9])) == [product.pk]
