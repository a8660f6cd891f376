"""The six workflow tools over REST: success, business failures, gating, rollback. (That another
principal finds no workflow of yours: giftgenius/transports/test_principal_isolation.py.)"""

from decimal import Decimal

import pytest

from gifts.models import Product, WorkflowContext
from tests.fixtures import BRIEF, start, suggest, workflow_with_gift

pytestmark = pytest.mark.usefixtures("demo_catalog")


def test_start_gift_workflow_returns_a_workflow_at_brief(api, user):
    response = api.call("start_gift_workflow", {})
    assert response.status == 200
    body = response.body
    assert body["ok"] is True
    assert body["current_step"] == "brief"
    assert body["visited_steps"] == ["brief"]
    # Only workflow tools are listed (never start_gift_workflow, cancel_order or get_order,
    # which name no workflow), and only those the brief step allows.
    assert body["allowed_tools"] == ["get_workflow", "search_products", "suggest_gifts"]
    assert WorkflowContext.objects.get(id=body["workflow_id"]).owner == user


def test_suggest_gifts_ranks_real_matches_and_records_the_brief(api):
    workflow_id = start(api)
    response = suggest(api, workflow_id, limit=5)
    assert response.status == 200
    gifts = response.body["gifts"]
    assert 1 <= len(gifts) <= 5
    for gift in gifts:
        product = Product.objects.get(pk=gift["product_id"])
        assert product.active and product.stock > 0
        assert Decimal("10") <= product.price <= Decimal("60")
        assert "coffee" in product.tags or product.category == "coffee"
        assert product.age_min <= 35 <= product.age_max
        assert {
            "product_id",
            "sku",
            "name",
            "price",
            "currency",
            "category",
            "in_stock",
        } <= gift.keys()
        assert gift["in_stock"] is True
    workflow = WorkflowContext.objects.get(id=workflow_id)
    assert workflow.current_step == "ideas"
    assert workflow.brief["interests"] == ["coffee"]
    # The ideas, then their variants: each selectable, none an idea of its own.
    variants = [v["product_id"] for g in gifts for v in g["variants"]]
    assert workflow.last_suggestions == [g["product_id"] for g in gifts] + variants
    families = [Product.objects.get(pk=g["product_id"]).family or g["sku"] for g in gifts]
    assert len(families) == len(set(families))
    for gift in gifts:
        for variant in gift["variants"]:
            product = Product.objects.get(pk=variant["product_id"])
            assert (
                product.family
                and product.family == Product.objects.get(pk=gift["product_id"]).family
            )
            assert product.active and product.stock > 0
            assert variant["price"] == str(product.price)


def test_suggest_gifts_never_offers_sold_out_or_discontinued_products(api):
    workflow_id = start(api)
    gifts = suggest(api, workflow_id, limit=20, budget_min=25, budget_max=45).body["gifts"]
    skus = {g["sku"] for g in gifts}
    assert "GG-TEST-SOLDOUT" not in skus
    assert "GG-TEST-GONE" not in skus


def test_empty_result_is_ok_with_a_reason_and_concrete_suggestions(api):
    workflow_id = start(api)
    response = suggest(
        api, workflow_id, interests=["coffee", "sailing"], budget_min=1, budget_max=2
    )
    assert response.status == 200
    body = response.body
    assert body["ok"] is True
    assert body["gifts"] == []
    assert body["no_results_reason"]
    changes = {s["change"]: s for s in body["suggestions"]}
    assert changes["drop_interest"]["value"] == "sailing"
    raise_max = changes["raise_budget_max"]
    assert raise_max["matches"] > 0
    # Following the suggestion really finds that many gifts.
    followed = suggest(
        api,
        workflow_id,
        interests=["coffee"],
        budget_min=1,
        budget_max=raise_max["value"],
        limit=20,
    )
    assert len(followed.body["gifts"]) == min(raise_max["matches"], 20)


def test_search_products_finds_by_words_and_respects_filters(api):
    response = api.call(
        "search_products", {"query": "coffee", "category": "kitchen", "max_price": 50, "limit": 10}
    )
    assert response.status == 200
    products = response.body["products"]
    assert products
    for product in products:
        assert product["category"] == "kitchen"
        assert Decimal(product["price"]) <= 50
    assert all(Product.objects.get(pk=p["product_id"]).active for p in products)


def test_a_search_without_hits_says_why_and_what_would_help(api):
    # nothing found is not an error; it carries a reason and concrete suggestions.
    in_pets = api.call("search_products", {"query": "coffee", "category": "pets"})
    assert in_pets.status == 200 and in_pets.body["ok"] is True and in_pets.body["products"] == []
    assert "coffee" in in_pets.body["no_results_reason"]
    drop, everything = in_pets.body["suggestions"]
    assert drop["change"] == "drop_category" and drop["field"] == "category" and drop["matches"] > 0
    assert drop["matches"] == sum(in_pets.body["category_counts"].values())
    everywhere = api.call("search_products", {"query": "coffee", "limit": 50}).body
    assert everywhere["total"] == drop["matches"]
    # The nearest change keeping the category: everything in it, without the words.
    assert everything["change"] == "drop_words" and everything["matches"] > 0
    pets = api.call("search_products", {"category": "pets", "limit": 50}).body
    assert pets["total"] == everything["matches"]

    cheap = api.call("search_products", {"query": "coffee", "max_price": 1}).body
    assert cheap["products"] == [] and cheap["no_results_reason"]
    (raise_price,) = cheap["suggestions"]
    assert raise_price["change"] == "raise_max_price" and raise_price["matches"] > 0
    following = api.call(
        "search_products", {"query": "coffee", "max_price": raise_price["value"], "limit": 50}
    ).body
    assert len(following["products"]) == raise_price["matches"]

    nowhere = api.call("search_products", {"query": "zzqqxx wwvv"}).body
    assert nowhere["products"] == [] and nowhere["no_results_reason"]
    assert [s["change"] for s in nowhere["suggestions"]] == ["other_words"]

    found = api.call("search_products", {"query": "coffee"}).body
    assert found["products"] and found["no_results_reason"] is None and found["suggestions"] == []


def test_search_with_workflow_makes_results_selectable(api):
    workflow_id = start(api)
    found = api.call("search_products", {"query": "espresso cups", "workflow_id": workflow_id}).body
    last3 = next(p for p in found["products"] if p["sku"] == "GG-TEST-LAST3")
    assert found["current_step"] == "ideas" and found["workflow_id"] == workflow_id
    selected = api.call(
        "select_gift", {"workflow_id": workflow_id, "product_id": last3["product_id"]}
    )
    assert selected.status == 200
    assert selected.body["gift"]["sku"] == "GG-TEST-LAST3"


def test_select_gift_moves_to_gift_selected(api):
    workflow_id, product_id = workflow_with_gift(api)
    workflow = WorkflowContext.objects.get(id=workflow_id)
    assert workflow.current_step == "gift_selected"
    assert workflow.selected_product_id == product_id


def test_select_gift_refuses_a_product_that_was_not_offered(api):
    workflow_id = start(api)
    gifts = suggest(api, workflow_id).body["gifts"]
    offered = [*gifts, *(v for g in gifts for v in g["variants"])]
    not_offered = (
        Product.objects.exclude(pk__in=[g["product_id"] for g in offered])
        .filter(active=True)
        .first()
    )
    response = api.call("select_gift", {"workflow_id": workflow_id, "product_id": not_offered.pk})
    assert response.status == 422
    assert response.error["code"] == "PRODUCT_NOT_OFFERED"
    assert response.error["error_type"] == "business"
    assert response.error["field"] == "product_id"
    assert set(response.error["allowed_values"]) == {g["product_id"] for g in offered}
    assert WorkflowContext.objects.get(id=workflow_id).current_step == "ideas"


@pytest.mark.parametrize(
    ("change", "code", "status"),
    [({"stock": 0}, "OUT_OF_STOCK", 409), ({"active": False}, "PRODUCT_UNAVAILABLE", 409)],
)
def test_select_gift_refuses_a_product_gone_since_it_was_offered(api, change, code, status):
    workflow_id = start(api)
    gift = suggest(api, workflow_id).body["gifts"][0]
    Product.objects.filter(pk=gift["product_id"]).update(**change)
    response = api.call(
        "select_gift", {"workflow_id": workflow_id, "product_id": gift["product_id"]}
    )
    assert response.status == status
    assert response.error["code"] == code
    assert response.error["retryable"] is False
    assert response.error["next_actions"]


def test_navigating_back_invalidates_later_choices(api):
    workflow_id, product_id = workflow_with_gift(api)
    response = api.call("user_navigated_to_step", {"workflow_id": workflow_id, "step_id": "ideas"})
    assert response.status == 200
    assert response.body["current_step"] == "ideas"
    assert any(str(product_id) in item for item in response.body["invalidated"])
    workflow = WorkflowContext.objects.get(id=workflow_id)
    assert workflow.selected_product_id is None
    assert workflow.visited_steps == ["brief", "ideas"]
    # Suggestions remain selectable after going back to ideas.
    again = api.call("select_gift", {"workflow_id": workflow_id, "product_id": product_id})
    assert again.status == 200


def test_navigating_to_a_step_not_visited_is_refused_with_the_allowed_targets(api):
    workflow_id = start(api)
    suggest(api, workflow_id)
    response = api.call(
        "user_navigated_to_step", {"workflow_id": workflow_id, "step_id": "checkout"}
    )
    assert response.status == 409
    assert response.error["code"] == "STEP_NOT_VISITED"
    assert response.error["allowed_values"] == ["brief"]
    assert WorkflowContext.objects.get(id=workflow_id).current_step == "ideas"


def test_navigating_to_an_unknown_step_lists_the_steps(api):
    workflow_id = start(api)
    suggest(api, workflow_id)
    response = api.call(
        "user_navigated_to_step", {"workflow_id": workflow_id, "step_id": "payment"}
    )
    assert response.status == 422
    assert response.error["field"] == "step_id"
    assert "checkout" in response.error["allowed_values"]


def test_tool_called_in_the_wrong_step_is_gated(api):
    workflow_id = start(api)
    # A product that exists: a missing one is refused by the input checks, before the gate.
    product_id = Product.objects.order_by("pk").values_list("pk", flat=True).first()
    response = api.call("select_gift", {"workflow_id": workflow_id, "product_id": product_id})
    assert response.status == 409
    error = response.error
    assert error["code"] == "TOOL_NOT_AVAILABLE_IN_STEP"
    assert error["error_type"] == "conflict"
    assert error["details"]["current_step"] == "brief"
    assert "suggest_gifts" in error["details"]["allowed_tools"]
    assert "select_gift" not in error["details"]["allowed_tools"]


def test_get_workflow_reports_state_and_allowed_tools(api):
    workflow_id, product_id = workflow_with_gift(api)
    body = api.call("get_workflow", {"workflow_id": workflow_id}).body
    assert body["current_step"] == "gift_selected"
    assert body["selected_product_id"] == product_id
    assert body["brief"]["relationship"] == BRIEF["relationship"]
    # commit_order too may run here, but only from the person's click: the model is never told.
    assert body["allowed_tools"] == [
        "get_payment_methods",
        "get_workflow",
        "prepare_order",
        "search_products",
        "select_gift",
        "suggest_gifts",
        "user_navigated_to_step",
    ]


def test_unknown_tool_names_the_registered_tools(api):
    response = api.call("suggest_gift", {})
    assert response.status == 404
    assert response.error["code"] == "UNKNOWN_TOOL"
    assert "suggest_gifts" in response.error["allowed_values"]


@pytest.mark.django_db(databases=["default", "payment_ledger"])
def test_going_back_from_checkout_releases_the_draft_order(api):
    from checkout.models import Order
    from tests.fixtures import draft_order

    draft = draft_order(api)
    stock_held = Product.objects.get(pk=draft.product_id).stock
    response = api.call(
        "user_navigated_to_step", {"workflow_id": draft.workflow_id, "step_id": "gift_selected"}
    )
    assert response.status == 200, response.body
    assert response.body["current_step"] == "gift_selected"
    assert any(draft.order_id in item for item in response.body["invalidated"])
    assert Order.objects.get(pk=draft.order_id).status == "cancelled"
    assert Product.objects.get(pk=draft.product_id).stock == stock_held + 1


@pytest.mark.django_db(databases=["default", "payment_ledger"])
def test_going_back_is_refused_while_a_payment_is_in_flight(api):
    from checkout.models import Order
    from tests.fixtures import draft_order

    draft = draft_order(api, payment_method_id="pm_card_pending")
    assert draft.commit(api).body["status"] == "payment_pending"
    response = api.call(
        "user_navigated_to_step", {"workflow_id": draft.workflow_id, "step_id": "ideas"}
    )
    assert response.status == 409
    assert response.error["code"] == "ORDER_IN_PROGRESS"
    assert response.error["next_actions"] == ["get_order"]
    assert Order.objects.get(pk=draft.order_id).status == "payment_pending"


def test_a_category_without_words_lists_everything_in_it_within_the_prices(api):
    found = api.call(
        "search_products", {"category": "jewelry", "min_price": 20, "max_price": 60, "limit": 50}
    ).body
    expected = Product.objects.filter(
        active=True, category="jewelry", price__gte=20, price__lte=60
    ).count()
    assert expected > 5 and found["total"] == expected == len(found["products"])
    assert found["category_counts"]["jewelry"] == expected
    # The counts are what the same prices find in every category: the filter's numbers.
    assert (
        found["category_counts"]["kitchen"]
        == Product.objects.filter(
            active=True, category="kitchen", price__gte=20, price__lte=60
        ).count()
    )
    assert (found["query"], found["category"], found["sort"]) == ("", "jewelry", "relevance")


@pytest.mark.parametrize(("sort", "descending"), [("price_asc", False), ("price_desc", True)])
def test_search_sorts_by_price(api, sort, descending):
    found = api.call("search_products", {"category": "music", "sort": sort, "limit": 50}).body
    prices = [Decimal(p["price"]) for p in found["products"]]
    assert len(prices) > 10 and prices == sorted(prices, reverse=descending)


def test_search_by_relevance_puts_the_products_answering_most_words_first(api):
    found = api.call("search_products", {"query": "espresso cups", "limit": 50}).body
    assert found["products"][0]["sku"] == "GG-TEST-LAST3"  # both words
    assert found["total"] > 1  # "espresso" alone finds more


def test_words_in_the_persons_language_find_their_products(api):
    polish = api.call(
        "search_products", {"query": "herbata", "limit": 50}, HTTP_ACCEPT_LANGUAGE="pl"
    ).body
    assert polish["total"] > 0
    assert all("tea" in p["tags"] or "herbat" in p["name"].lower() for p in polish["products"])
    assert any(p["name"].startswith("Kolekcja herbat") for p in polish["products"])


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({}, "query"),
        ({"query": "  "}, "query"),
        ({"query": "tea", "min_price": 50, "max_price": 20}, "min_price"),
    ],
)
def test_a_search_needs_words_or_a_category_and_a_sane_price_range(api, arguments, field):
    response = api.call("search_products", arguments)
    assert response.status == 422
    assert response.error["code"] == "VALIDATION_ERROR" and response.error["field"] == field
