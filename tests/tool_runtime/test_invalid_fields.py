"""Every invalid field in one answer: the schema's findings and the tools' input checks,
each with its own path, expectation, allowed values, example, and for an unknown field the
nearest accepted name; the first one also at the top level, as a single-field error is."""

from __future__ import annotations

import pytest

from checkout.models import Order
from tests.fixtures import (
    BOTH_DATABASES,
    BRIEF,
    SHIPPING,
    assert_error,
    gift_selected,
    make_product,
    new_key,
    prepare,
    start,
)
from tool_runtime.models import IdempotencyKey

pytestmark = [
    pytest.mark.usefixtures("demo_catalog"),
    pytest.mark.django_db(databases=BOTH_DATABASES),
]


def entries(error: dict) -> dict[str, dict]:
    return {entry["field"]: entry for entry in error["details"]["invalid_fields"]}


def test_each_invalid_field_has_its_own_entry_and_the_first_stays_on_top(api):
    error = api.call(
        "suggest_gifts",
        {"workflow_id": start(api), **BRIEF, "relationship": "boss", "age": 150, "limit": 1000},
    ).error
    assert error["code"] == "VALIDATION_ERROR"
    assert (error["field"], error["allowed_values"][0]) == ("relationship", "partner")
    found = entries(error)
    assert list(found) == ["relationship", "age", "limit"]
    assert found["age"]["expected"].startswith("an integer >= 0 <= 120")
    assert found["limit"]["expected"].startswith("an integer >= 1 <= 20")
    assert found["limit"]["example"] == 5
    assert "friend" in found["relationship"]["allowed_values"]
    assert "'age', 'limit'" in error["message"]


def test_an_unknown_field_names_the_nearest_accepted_one(api):
    arguments = {"workflow_id": start(api), **BRIEF}
    arguments["budgetMax"] = arguments.pop("budget_max")
    found = entries(api.call("suggest_gifts", arguments).error)
    assert found["budgetMax"]["unknown"] is True
    assert found["budgetMax"]["nearest_field"] == "budget_max"
    assert found["budget_max"]["message"].startswith("Field 'budget_max' is required")


def test_a_field_another_tool_takes_is_unknown_without_a_made_up_nearest_name(api):
    error = api.call("get_order", {"order_id": "not-a-uuid", "workflow_id": start(api)}).error
    found = entries(error)
    assert found["workflow_id"]["unknown"] is True
    assert "nearest_field" not in found["workflow_id"]
    assert found["workflow_id"]["allowed_values"] == ["order_id"]
    # An id's example would be made up: where it comes from is said instead.
    assert "example" not in found["order_id"]
    assert "prepare_order" in found["order_id"]["expected"]


def test_nested_commerce_fields_and_the_payment_method_are_reported_together(api):
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    response = prepare(
        api,
        workflow_id,
        "pm_card_made_up",
        key=key,
        shipping={**SHIPPING, "country": "XX", "postal_code": "", "phone": "555"},
    )
    error = assert_error(response, "VALIDATION_ERROR", 422)
    found = entries(error)
    assert set(found) == {
        "shipping.postal_code",
        "shipping.country",
        "shipping.phone",
        "payment_method_id",
    }
    assert found["payment_method_id"]["code"] == "PAYMENT_METHOD_UNKNOWN"
    assert found["payment_method_id"]["allowed_values"][0] == "pm_card_visa"
    assert found["shipping.country"]["example"] == "US"
    assert found["shipping.phone"]["unknown"] is True
    # Refused before the key stage: nothing made, no key kept.
    assert not Order.objects.exists()
    assert not IdempotencyKey.objects.filter(key=key).exists()


def test_a_missing_key_keeps_its_own_guidance_beside_other_fields(api):
    workflow_id = gift_selected(api, make_product())
    only_key = api.call(
        "prepare_order",
        {"workflow_id": workflow_id, "payment_method_id": "pm_card_visa", "shipping": SHIPPING},
    )
    error = assert_error(only_key, "IDEMPOTENCY_KEY_REQUIRED", 400)
    assert "keeps no key" in error["message"] or "leaves no key" in error["message"]
    several = api.call(
        "prepare_order",
        {"workflow_id": workflow_id, "payment_method_id": "pm_nope", "shipping": SHIPPING},
    ).error
    found = entries(several)
    assert found["idempotency_key"]["code"] == "IDEMPOTENCY_KEY_REQUIRED"
    assert found["payment_method_id"]["code"] == "PAYMENT_METHOD_UNKNOWN"


def test_an_invented_product_id_is_reported_with_the_schemas_findings(api):
    error = api.call(
        "select_gift", {"workflow_id": start(api), "product_id": 987654, "extra": 1}
    ).error
    found = entries(error)
    assert found["extra"]["unknown"] is True
    assert found["product_id"]["code"] == "NOT_FOUND"
    assert "never invent" in found["product_id"]["message"]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("get_workflow", {"workflow_id": "WORKFLOW"}),
        ("suggest_gifts", {"workflow_id": "WORKFLOW", **BRIEF}),
        ("search_products", {"query": "coffee", "workflow_id": "WORKFLOW"}),
    ],
)
def test_a_workflow_id_with_surrounding_spaces_is_trimmed_as_in_checkout(api, tool, arguments):
    workflow_id = start(api)
    spaced = {k: f"  {workflow_id} " if v == "WORKFLOW" else v for k, v in arguments.items()}
    response = api.call(tool, spaced)
    assert response.status == 200, response.body


@pytest.mark.parametrize("value", ["1e2", "60.123", "-5", "sixty", "0", "100000.01"])
def test_a_money_string_outside_its_pattern_is_refused(api, value):
    error = api.call("suggest_gifts", {"workflow_id": start(api), **BRIEF, "budget_max": value})
    assert error.status == 422
    assert error.error["field"] == "budget_max"


@pytest.mark.parametrize("value", ["60", " 60.5 ", "0.01", "100000", "100000.00", "060"])
def test_a_money_string_within_its_pattern_is_accepted(api, value):
    response = api.call(
        "search_products", {"query": "coffee", "max_price": value, "workflow_id": start(api)}
    )
    assert response.status == 200, response.body


def test_a_check_across_fields_is_reported_beside_the_schemas_findings(api):
    error = api.call(
        "suggest_gifts", {"workflow_id": start(api), **BRIEF, "budget_min": 80, "currency": "XYZ"}
    ).error
    found = entries(error)
    assert list(found) == ["currency", "budget_min"]
    assert found["budget_min"]["expected"] == "a number <= budget_max (60)"


def test_a_key_error_offers_a_new_key_each_time_never_one_to_share(api):
    workflow_id = gift_selected(api, make_product())
    examples = {
        prepare(api, workflow_id, key="short").error["example"],
        prepare(api, workflow_id, key="short").error["example"],
    }
    assert len(examples) == 2
