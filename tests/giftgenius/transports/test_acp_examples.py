"""Every request example ACP ships (the OpenAPI document's inline examples and
examples/2026-04-17/examples.agentic_checkout.json) is accepted by our /acp endpoints, once
corrected where the specification contradicts its own schemas (docs/acp.md §5 names each fix
with its file and line). Test data stands in for the examples' made-up ids: our item's SKU,
an offered delivery option; their tokens are made up too, so a complete is a decline."""

from __future__ import annotations

import copy
import json

import pytest
from django.conf import settings

from checkout.agentic.requests import item_quantities, openapi_document, validator
from tests.fixtures import make_product
from tests.giftgenius.transports.acp_client import Agent, agent_for, create_body

pytestmark = pytest.mark.django_db
EXAMPLES = settings.BASE_DIR / "vendor/acp/examples/2026-04-17/examples.agentic_checkout.json"
SKU = "GG-ACP-1"


def inline_examples(path: str) -> list[tuple[str, dict]]:
    operation = openapi_document()["paths"][path]["post"]
    examples = operation["requestBody"]["content"]["application/json"].get("examples", {})
    return [(name, example["value"]) for name, example in examples.items()]


def corrected(body: dict) -> dict:
    """The specification's own errors, corrected (docs/acp.md §5)."""
    body = copy.deepcopy(body)
    if "items" in body:  # openapi lines 48, 54, 72: `items` for `line_items`
        body["line_items"] = body.pop("items")
        body.setdefault("currency", "usd")  # required (line 3019), absent from the examples
        body.setdefault("capabilities", {})  # required (line 3020), absent from the examples
    payment = body.get("payment_data", {})
    if "token" in payment:  # openapi lines 259-260, 269-270: not the PaymentData schema
        body["payment_data"] = {
            "handler_id": "stripe_spt",
            "instrument": {
                "type": "card",
                "credential": {"type": "spt", "token": payment["token"]},
            },
        }
    for selected in body.get("selected_fulfillment_options", []):
        if isinstance(selected.get("shipping"), dict):  # openapi line 157: nested, not flat
            selected.update(selected.pop("shipping"))
    body.pop("order_notes", None)  # examples json lines 32, 293, 454, 516, 674: in no schema
    return body


def with_our_data(body: dict, *, option: str | None = None) -> dict:
    body = copy.deepcopy(body)
    for item in body.get("line_items", []):
        item["id"] = SKU
    for selected in body.get("selected_fulfillment_options", []):
        selected["option_id"] = option
    return body


FILE = json.loads(EXAMPLES.read_text())
CREATE = [
    *inline_examples("/checkout_sessions"),
    *(
        (name, FILE[name])
        for name in (
            "create_checkout_session_request",
            "create_checkout_session_request_with_first_touch_attribution",
        )
    ),
]
UPDATE = [
    *inline_examples("/checkout_sessions/{checkout_session_id}"),
    ("update_checkout_session_request", FILE["update_checkout_session_request"]),
]
COMPLETE = [
    *inline_examples("/checkout_sessions/{checkout_session_id}/complete"),
    *(
        (name, FILE[name])
        for name in (
            "complete_checkout_session_request",
            "complete_checkout_session_request_seller_backed",
            "complete_checkout_session_request_with_last_touch_attribution",
        )
    ),
]
CANCEL = [
    (name, FILE[name])
    for name in (
        "cancel_checkout_session_request",
        "cancel_checkout_session_request_timing_deferred",
    )
]


@pytest.fixture
def agent(user) -> Agent:
    make_product(sku=SKU, stock=100)
    return agent_for(user)


def _session(agent: Agent) -> dict:
    return agent.post("/checkout_sessions", create_body(SKU)).body


def test_the_inline_create_examples_break_the_documents_own_schema_as_documented():
    """So the corrections above stay needed: if a release fixes them, this fails."""
    for name, body in inline_examples("/checkout_sessions"):
        assert list(validator("CheckoutSessionCreateRequest").iter_errors(body)), name
        # The Item schema has no quantity (openapi line 991), which we take beside it.
        without_quantities, _ = item_quantities(corrected(body))
        assert not list(validator("CheckoutSessionCreateRequest").iter_errors(without_quantities))


@pytest.mark.parametrize(("name", "body"), CREATE, ids=[name for name, _ in CREATE])
def test_each_create_example_makes_a_session(agent, name, body):
    answer = agent.post("/checkout_sessions", with_our_data(corrected(body)))
    assert answer.status == 201, answer.body
    assert answer.body["line_items"][0]["item"]["id"] == SKU


@pytest.mark.parametrize(("name", "body"), UPDATE, ids=[name for name, _ in UPDATE])
def test_each_update_example_is_applied(agent, name, body):
    session = _session(agent)
    option = session["fulfillment_options"][-1]["id"]
    answer = agent.post(
        f"/checkout_sessions/{session['id']}", with_our_data(corrected(body), option=option)
    )
    assert answer.status == 200, answer.body
    assert answer.body["selected_fulfillment_options"][0]["option_id"] == option


@pytest.mark.parametrize(("name", "body"), COMPLETE, ids=[name for name, _ in COMPLETE])
def test_each_complete_example_is_accepted_and_its_made_up_token_declined(agent, name, body):
    session = _session(agent)
    answer = agent.post(f"/checkout_sessions/{session['id']}/complete", corrected(body))
    assert answer.status == 200, answer.body
    assert [m["code"] for m in answer.body["messages"]] == ["payment_declined"]
    assert "order" not in answer.body


@pytest.mark.parametrize(("name", "body"), CANCEL, ids=[name for name, _ in CANCEL])
def test_each_cancel_example_cancels(agent, name, body):
    session = _session(agent)
    answer = agent.post(f"/checkout_sessions/{session['id']}/cancel", corrected(body))
    assert (answer.status, answer.body["status"]) == (200, "canceled")
