"""3-D Secure on an ACP complete with a Shared Payment Token, against localstripe: the session
comes back `authentication_required` with the specification's `authentication_metadata`, the
agent's `authentication_result` settles it from Stripe's word, and nothing is charged twice."""

from __future__ import annotations

import httpx
import pytest
from django.test import override_settings

from checkout.models import Order, OrderStatus
from checkout.sweeps import run_sweeps
from tests.fixtures import make_product
from tests.giftgenius.transports.acp_client import (
    Agent,
    agent_for,
    create_body,
    grant_token,
    spt_payment,
)
from tests.giftgenius.transports.test_acp_openapi import assert_body_as_documented
from tests.localstripe import API_KEY, intents

pytestmark = pytest.mark.django_db
THREE_DS_CARD = "4000002760003184"  # Stripe's test card whose bank always asks for 3-D Secure
AUTHENTICATED = {
    "outcome": "authenticated",
    "outcome_details": {
        "three_ds_cryptogram": "AbCdEfGhIjKlMnOpQrStUvWxY0=",
        "electronic_commerce_indicator": "05",
        "transaction_id": "dsTransId_abc123",
        "version": "2.2.0",
    },
}


@pytest.fixture
def agent(user, stripe_provider) -> Agent:
    make_product(sku="GG-ACP-3DS", stock=5, price="30.00")
    return agent_for(user)


def _card(url: str, number: str) -> str:
    response = httpx.post(
        f"{url}/v1/payment_methods",
        data={"type": "card", "card[number]": number, "card[exp_month]": "12"}
        | {"card[exp_year]": "2040", "card[cvc]": "123"},
        auth=(API_KEY, ""),
        timeout=10,
    )
    response.raise_for_status()
    return response.json()["id"]


def _authenticating(agent: Agent, url: str, *, handles: list[str] = ["3ds"]) -> tuple[str, dict]:  # noqa: B006
    """A session whose complete the bank answered with a 3-D Secure challenge, for an agent
    that says it handles these interventions."""
    capabilities = {"interventions": {"supported": handles}}
    created = agent.post("/checkout_sessions", create_body("GG-ACP-3DS", capabilities=capabilities))
    assert created.body["capabilities"]["interventions"] == {"supported": handles}
    assert created.status == 201, created.body
    total = next(t["amount"] for t in created.body["totals"] if t["type"] == "total")
    token = grant_token(url, max_amount=total, payment_method=_card(url, THREE_DS_CARD))
    session_id = created.body["id"]
    answer = agent.post(f"/checkout_sessions/{session_id}/complete", spt_payment(token))
    assert answer.status == 200, answer.body
    assert_body_as_documented("completeCheckoutSession", answer.status, answer.body)
    return token, answer.body


def _bank_answers(url: str, *, success: bool) -> None:
    """The buyer's answer to their bank, as the agent's authentication reaches Stripe."""
    (intent,) = intents(url)
    response = httpx.post(
        f"{url}/v1/payment_intents/{intent['id']}/_authenticate",
        data={"client_secret": intent["client_secret"], "success": str(success).lower()},
        auth=(API_KEY, ""),
        timeout=10,
    )
    response.raise_for_status()


def _complete(agent: Agent, session_id: str, token: str, result: dict | None, key: str = ""):
    body = spt_payment(token) | ({"authentication_result": result} if result else {})
    headers = {"Idempotency-Key": key} if key else {}
    return agent.post(f"/checkout_sessions/{session_id}/complete", body, **headers)


def test_the_bank_asking_for_3ds_hands_the_agent_the_specifications_metadata(
    agent, stripe_provider
):
    _, body = _authenticating(agent, stripe_provider)
    assert body["status"] == "authentication_required" and body["messages"] == []
    assert body["authentication_metadata"] == {
        "acquirer_details": {
            "acquirer_bin": "000000",
            "acquirer_country": "US",
            "acquirer_merchant_id": "giftgenius",
            "merchant_name": "GiftGenius",
        },
        "directory_server": "visa",
    }
    read = agent.get(f"/checkout_sessions/{body['id']}")
    assert read.body["status"] == "authentication_required"
    assert read.body["authentication_metadata"] == body["authentication_metadata"]
    (intent,) = intents(stripe_provider)
    assert intent["status"] == "requires_action"


def test_an_agent_that_does_not_handle_3ds_is_told_so_and_nothing_is_charged(
    agent, stripe_provider
):
    _, body = _authenticating(agent, stripe_provider, handles=[])
    assert body["status"] == "not_ready_for_payment" and "authentication_metadata" not in body
    assert [(m["code"], m["param"]) for m in body["messages"]] == [
        ("intervention_required", "$.capabilities.interventions.supported")
    ]
    assert [i["status"] for i in intents(stripe_provider)] == ["canceled"]


def test_a_complete_without_the_result_is_refused_as_the_rfc_says(agent, stripe_provider):
    token, body = _authenticating(agent, stripe_provider)
    refused = _complete(agent, body["id"], token, None)
    assert refused.status == 400
    assert refused.body == {
        "type": "invalid_request",
        "code": "requires_3ds",
        "message": "This checkout session requires issuer authentication. "
        "The request must include 'authentication_result'.",
        "param": "$.authentication_result",
    }
    assert_body_as_documented("completeCheckoutSession", refused.status, refused.body)
    assert [i["status"] for i in intents(stripe_provider)] == ["requires_action"]


def test_authenticated_completes_with_one_payment_intent_and_replays_the_same(
    agent, stripe_provider
):
    token, body = _authenticating(agent, stripe_provider)
    _bank_answers(stripe_provider, success=True)
    done = _complete(agent, body["id"], token, AUTHENTICATED, key="3ds-done")
    assert done.status == 200, done.body
    assert done.body["status"] == "completed" and done.body["messages"] == []
    assert "authentication_metadata" not in done.body
    assert_body_as_documented("completeCheckoutSession", done.status, done.body)
    assert Order.objects.get(pk=done.body["order"]["id"]).status == OrderStatus.COMPLETED
    replay = _complete(agent, body["id"], token, AUTHENTICATED, key="3ds-done")
    assert replay.headers["Idempotent-Replayed"] == "true" and replay.body == done.body
    again = _complete(agent, body["id"], token, AUTHENTICATED)
    assert again.body["status"] == "completed"
    assert again.body["order"]["id"] == done.body["order"]["id"]
    assert [i["status"] for i in intents(stripe_provider)] == ["succeeded"]


def test_failed_authentication_is_declined_with_nothing_charged(agent, stripe_provider):
    token, body = _authenticating(agent, stripe_provider)
    _bank_answers(stripe_provider, success=False)
    denied = _complete(agent, body["id"], token, {"outcome": "denied"}, key="3ds-denied")
    assert denied.status == 200, denied.body
    assert denied.body["status"] == "not_ready_for_payment"
    assert [(m["type"], m["code"]) for m in denied.body["messages"]] == [
        ("error", "payment_declined")
    ]
    assert denied.body["messages"][0]["content"].startswith("The payment was declined")
    assert_body_as_documented("completeCheckoutSession", denied.status, denied.body)
    replay = _complete(agent, body["id"], token, {"outcome": "denied"}, key="3ds-denied")
    assert replay.body == denied.body
    # Ended, so no later confirm can capture it.
    assert [i["status"] for i in intents(stripe_provider)] == ["canceled"]


def test_a_denied_outcome_the_bank_never_heard_ends_the_payment_intent(agent, stripe_provider):
    token, body = _authenticating(agent, stripe_provider)
    denied = _complete(agent, body["id"], token, {"outcome": "abandoned"})
    assert [m["code"] for m in denied.body["messages"]] == ["payment_declined"]
    assert [i["status"] for i in intents(stripe_provider)] == ["canceled"]
    order = Order.objects.get(workflow__checkout_session__pk=body["id"])
    assert order.status == OrderStatus.FAILED


def test_an_authenticated_claim_stripe_does_not_confirm_charges_nothing(agent, stripe_provider):
    token, body = _authenticating(agent, stripe_provider)
    claimed = _complete(agent, body["id"], token, AUTHENTICATED)
    assert claimed.body["status"] == "authentication_required"
    assert [i["status"] for i in intents(stripe_provider)] == ["requires_action"]


def test_the_sweep_settles_a_session_stripe_authenticated(agent, stripe_provider):
    token, body = _authenticating(agent, stripe_provider)
    _bank_answers(stripe_provider, success=True)
    with override_settings(HOSTED_CHECKOUT_RECONCILE_SECONDS=0):
        assert run_sweeps().reconciled == 1
    read = agent.get(f"/checkout_sessions/{body['id']}")
    assert read.body["status"] == "completed"
    late = _complete(agent, body["id"], token, AUTHENTICATED)
    assert late.body["status"] == "completed"
    assert [i["status"] for i in intents(stripe_provider)] == ["succeeded"]
