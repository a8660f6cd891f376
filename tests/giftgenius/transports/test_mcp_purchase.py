"""A whole purchase over MCP (SDK client, real HTTP): the confirmation token reaches the widget's
`_meta` only, a replayed commit is the stored result, a declined card is an isError result."""

from __future__ import annotations

import json
import uuid

import pytest

from checkout.models import Order, SimulatedCharge
from tests.fixtures import BRIEF
from tests.live_server import McpTestClient

pytestmark = [
    pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"]),
    pytest.mark.usefixtures("demo_catalog"),
]

SHIPPING = {
    "name": "Ada Lovelace",
    "line1": "12 St James's Square",
    "city": "London",
    "postal_code": "SW1Y 4JH",
    "country": "GB",
}


class Conversation:
    """One ChatGPT user (subject) talking to the live /mcp endpoint; remembers every result."""

    def __init__(self, live_url: str, subject: str) -> None:
        self.client = McpTestClient(live_url)
        self.meta = {"openai/subject": subject, "openai/locale": "en-US"}
        self.results: list = []

    def call(self, name: str, arguments: dict):
        result = self.client.call(name, arguments, meta=self.meta)
        self.results.append(result)
        return result

    def ok(self, name: str, arguments: dict) -> dict:
        result = self.call(name, arguments)
        assert result.is_error is False, result.structured_content
        assert result.structured_content["ok"] is True
        return result.structured_content

    def model_visible(self) -> str:
        """Everything the model was shown: structuredContent and content of every result."""
        return json.dumps(
            [
                [r.structured_content, [c.model_dump(mode="json") for c in r.content]]
                for r in self.results
            ]
        )

    def gift_selected(self) -> str:
        workflow_id = self.ok("start_gift_workflow", {})["workflow_id"]
        gifts = self.ok("suggest_gifts", {"workflow_id": workflow_id, **BRIEF})["gifts"]
        assert gifts
        self.ok("select_gift", {"workflow_id": workflow_id, "product_id": gifts[0]["product_id"]})
        return workflow_id

    def prepared(self, workflow_id: str, payment_method_id: str) -> tuple[str, str]:
        """(order_id, confirmation_token) of a fresh draft order."""
        result = self.call(
            "prepare_order",
            {
                "workflow_id": workflow_id,
                "payment_method_id": payment_method_id,
                "shipping": SHIPPING,
                "idempotency_key": str(uuid.uuid4()),
            },
        )
        assert result.is_error is False, result.structured_content
        token = result.meta["confirmation_token"]
        assert isinstance(token, str) and len(token) >= 16
        assert "confirmation_token" not in json.dumps(result.structured_content)
        return result.structured_content["order_id"], token


def test_a_whole_purchase_over_mcp(live_url):
    chat = Conversation(live_url, "v1/buyer")
    workflow_id = chat.gift_selected()
    methods = chat.ok("get_payment_methods", {"workflow_id": workflow_id})
    assert "pm_card_visa" in json.dumps(methods)

    order_id, token = chat.prepared(workflow_id, "pm_card_visa")
    commit_args = {
        "workflow_id": workflow_id,
        "order_id": order_id,
        "confirmation_token": token,
        "idempotency_key": str(uuid.uuid4()),
    }
    committed = chat.call("commit_order", commit_args)
    assert committed.is_error is False, committed.structured_content
    assert committed.structured_content["ok"] is True
    assert committed.structured_content["order_id"] == order_id

    replayed = chat.call("commit_order", commit_args)  # the platform replays after a timeout
    assert replayed.is_error is False
    assert replayed.structured_content == committed.structured_content

    order = chat.ok("get_order", {"order_id": order_id})
    assert order["order_id"] == order_id
    assert order["status"] == "completed"

    assert Order.objects.get(id=order_id).status == "completed"
    # Charged exactly once, the replay included.
    assert SimulatedCharge.objects.filter(order_id=order_id).count() == 1
    assert token not in chat.model_visible()


def test_a_product_named_by_the_person_is_found_and_bought(live_url):
    """The documented path for "I want the espresso cups": search within the workflow, select
    one of the results at once (the search moved the workflow to ideas), check out."""
    chat = Conversation(live_url, "v1/by-name")
    workflow_id = chat.ok("start_gift_workflow", {})["workflow_id"]
    found = chat.ok("search_products", {"workflow_id": workflow_id, "query": "espresso cups"})
    assert found["workflow_id"] == workflow_id and found["current_step"] == "ideas"
    product = next(p for p in found["products"] if p["in_stock"])
    selected = chat.ok(
        "select_gift", {"workflow_id": workflow_id, "product_id": product["product_id"]}
    )
    assert selected["gift"]["product_id"] == product["product_id"]
    order_id, token = chat.prepared(workflow_id, "pm_card_visa")
    committed = chat.ok(
        "commit_order",
        {
            "workflow_id": workflow_id,
            "order_id": order_id,
            "confirmation_token": token,
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    assert committed["status"] == "completed"
    assert Order.objects.get(id=order_id).lines.get().product_id == product["product_id"]


def test_search_without_a_workflow_offers_nothing_to_select(live_url):
    chat = Conversation(live_url, "v1/browse")
    workflow_id = chat.ok("start_gift_workflow", {})["workflow_id"]
    found = chat.ok("search_products", {"query": "espresso cups"})
    assert "workflow_id" not in found or found["workflow_id"] is None
    refused = chat.call(
        "select_gift",
        {"workflow_id": workflow_id, "product_id": found["products"][0]["product_id"]},
    )
    assert refused.is_error is True
    assert refused.structured_content["error"]["code"] == "TOOL_NOT_AVAILABLE_IN_STEP"
    assert "search_products" in refused.structured_content["error"]["next_actions"]


def test_a_declined_card_is_an_error_result_with_card_declined(live_url):
    chat = Conversation(live_url, "v1/declined")
    workflow_id = chat.gift_selected()
    order_id, token = chat.prepared(workflow_id, "pm_card_declined")
    result = chat.call(
        "commit_order",
        {
            "workflow_id": workflow_id,
            "order_id": order_id,
            "confirmation_token": token,
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    assert result.is_error is True
    error = result.structured_content["error"]
    assert result.structured_content["ok"] is False
    assert error["code"] == "CARD_DECLINED"
    assert error["retryable"] is False
    assert result.content[0].text.startswith("CARD_DECLINED: ")
    assert Order.objects.get(id=order_id).status != "completed"
    assert token not in chat.model_visible()


def test_commit_without_the_widgets_token_is_refused(live_url):
    chat = Conversation(live_url, "v1/impatient-model")
    workflow_id = chat.gift_selected()
    order_id, _token = chat.prepared(workflow_id, "pm_card_visa")
    result = chat.call(
        "commit_order",
        {
            "workflow_id": workflow_id,
            "order_id": order_id,
            "confirmation_token": "guessed-token-0000000000",
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    assert result.is_error is True
    assert result.structured_content["error"]["code"] == "CONFIRMATION_REQUIRED"
    assert not SimulatedCharge.objects.filter(order_id=order_id).exists()
