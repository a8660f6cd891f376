"""Completing an ACP session with a Shared Payment Token, through the saga and the Stripe
adapter against localstripe: one PaymentIntent per order, and every way a token is refused
comes back as a `payment_declined` message with nothing charged."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.management import call_command

from checkout.models import CheckoutSession, Order, OrderStatus, Payment
from checkout.sweeps import run_sweeps
from tests.fixtures import make_product
from tests.giftgenius.transports.acp_client import (
    Agent,
    agent_for,
    create_body,
    grant_token,
    spt_payment,
)
from tests.localstripe import intents

pytestmark = pytest.mark.django_db
BUYER = {"first_name": "Jane", "last_name": "Doe", "email": "jane@example.com"}


@pytest.fixture
def agent(user, stripe_provider) -> Agent:
    make_product(sku="GG-ACP-1", stock=5, price="30.00")
    return agent_for(user)


def _session(agent: Agent) -> dict:
    created = agent.post("/checkout_sessions", create_body("GG-ACP-1", buyer=BUYER))
    assert created.status == 201, created.body
    return created.body


def _total(body: dict) -> int:
    return next(t["amount"] for t in body["totals"] if t["type"] == "total")


def _succeeded(url: str) -> list[dict]:
    return [i for i in intents(url) if i["status"] == "succeeded"]


def test_complete_charges_the_token_once_and_returns_the_order(agent, stripe_provider):
    session = _session(agent)
    token = grant_token(stripe_provider, max_amount=_total(session))
    done = agent.post(f"/checkout_sessions/{session['id']}/complete", spt_payment(token))
    assert done.status == 200, done.body
    assert done.body["status"] == "completed" and done.body["messages"] == []
    order = done.body["order"]
    assert order["checkout_session_id"] == session["id"]
    assert order["permalink_url"].endswith("/")
    placed = Order.objects.get(pk=order["id"])
    assert placed.status == OrderStatus.COMPLETED and placed.payment_method_id == token
    assert placed.buyer is not None and placed.buyer.email == "jane@example.com"
    assert placed.receipt_email == "jane@example.com"
    (intent,) = _succeeded(stripe_provider)
    assert intent["amount"] == _total(session) and intent["currency"] == "usd"
    again = agent.post(f"/checkout_sessions/{session['id']}/complete", spt_payment(token))
    assert again.body["status"] == "completed" and again.body["order"]["id"] == order["id"]
    assert len(_succeeded(stripe_provider)) == 1
    assert Payment.objects.filter(order=placed).count() == 1


@pytest.mark.parametrize(
    "grant",
    [
        pytest.param({"max_amount": 100}, id="over-its-limit"),
        pytest.param({"currency": "eur"}, id="another-currency"),
    ],
)
def test_a_token_that_cannot_pay_the_total_is_declined_with_nothing_charged(
    agent, stripe_provider, grant
):
    session = _session(agent)
    token = grant_token(stripe_provider, **{"max_amount": _total(session), **grant})
    done = agent.post(f"/checkout_sessions/{session['id']}/complete", spt_payment(token))
    assert done.status == 200
    assert [m["code"] for m in done.body["messages"]] == ["payment_declined"]
    assert done.body["status"] == "not_ready_for_payment" and "order" not in done.body
    assert _succeeded(stripe_provider) == []


def test_a_used_token_is_declined_on_the_next_session(agent, stripe_provider):
    first, second = _session(agent), _session(agent)
    token = grant_token(stripe_provider, max_amount=_total(first))
    paid = agent.post(f"/checkout_sessions/{first['id']}/complete", spt_payment(token))
    assert paid.body["status"] == "completed"
    reused = agent.post(f"/checkout_sessions/{second['id']}/complete", spt_payment(token))
    assert [m["code"] for m in reused.body["messages"]] == ["payment_declined"]
    assert len(_succeeded(stripe_provider)) == 1


def test_after_a_decline_a_good_token_pays_a_fresh_draft(agent, stripe_provider):
    session = _session(agent)
    small = grant_token(stripe_provider, max_amount=1)
    declined = agent.post(f"/checkout_sessions/{session['id']}/complete", spt_payment(small))
    assert declined.body["messages"][0]["code"] == "payment_declined"
    good = grant_token(stripe_provider, max_amount=_total(session))
    done = agent.post(f"/checkout_sessions/{session['id']}/complete", spt_payment(good))
    assert done.body["status"] == "completed"
    workflow = CheckoutSession.objects.get(pk=session["id"]).workflow
    statuses = sorted(Order.objects.filter(workflow=workflow).values_list("status", flat=True))
    assert statuses == [OrderStatus.COMPLETED, OrderStatus.FAILED]


def test_only_a_shared_payment_token_is_accepted(agent):
    session = _session(agent)
    card = spt_payment("pm_card_visa")
    card["payment_data"]["instrument"]["credential"]["type"] = "card"
    refused = agent.post(f"/checkout_sessions/{session['id']}/complete", card)
    assert refused.status == 400
    assert refused.body["param"] == "$.payment_data.instrument.credential.type"
    order = {"payment_data": {"purchase_order_number": "PO-1"}}
    refused = agent.post(f"/checkout_sessions/{session['id']}/complete", order)
    assert (refused.status, refused.body["param"]) == (400, "$.payment_data.instrument")
    missing = agent.post(f"/checkout_sessions/{session['id']}/complete", {})
    assert (missing.status, missing.body["param"]) == (400, "$")


def test_the_receipt_goes_to_the_guest_buyer_not_the_agents_account(agent, stripe_provider, user):
    user.email = "agent-account@example.com"
    user.save(update_fields=["email"])
    session = _session(agent)
    token = grant_token(stripe_provider, max_amount=_total(session))
    agent.post(f"/checkout_sessions/{session['id']}/complete", spt_payment(token))
    assert run_sweeps().outbox_delivered == 1
    [email] = mail.outbox
    assert email.to == ["jane@example.com"]


def test_staff_issue_an_agent_key_with_a_signing_secret_from_the_command(user, capsys):
    from tool_runtime.models import ApiToken

    call_command("create_api_token", user.username, "--kind", "agent", "--signing-secret", "s3")
    token = capsys.readouterr().out.strip()
    row = ApiToken.objects.get(prefix=token[:8])
    assert (row.kind, row.signing_secret) == ("agent", "s3")
