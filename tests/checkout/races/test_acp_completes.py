"""Twenty agents' completes of one ACP checkout session at the same instant, on PostgreSQL
(each thread its own session) against localstripe: one charge, whatever the keys."""

from __future__ import annotations

import pytest

from checkout.models import CheckoutSession, Order, OrderStatus, Payment
from tests.concurrency import in_threads
from tests.fixtures import BOTH_DATABASES, make_product
from tests.giftgenius.transports.acp_client import (
    Agent,
    agent_for,
    create_body,
    grant_token,
    spt_payment,
)
from tests.localstripe import intents

RACERS = 20
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES),
]


def _ready_session(user, stripe_url: str) -> tuple[Agent, str, str]:
    make_product(sku="GG-ACP-RACE", stock=5, price="30.00")
    agent = agent_for(user)
    session = agent.post("/checkout_sessions", create_body("GG-ACP-RACE")).body
    total = next(t["amount"] for t in session["totals"] if t["type"] == "total")
    return agent, session["id"], grant_token(stripe_url, max_amount=total)


def _one_charge(stripe_url: str, session_id: str) -> Order:
    workflow = CheckoutSession.objects.get(pk=session_id).workflow
    (order,) = Order.objects.filter(workflow=workflow)
    assert order.status == OrderStatus.COMPLETED
    assert Payment.objects.filter(order=order).count() == 1
    assert len([i for i in intents(stripe_url) if i["status"] == "succeeded"]) == 1
    return order


def test_twenty_completes_with_one_key_charge_once(user, stripe_provider):
    agent, session_id, token = _ready_session(user, stripe_provider)
    path = f"/checkout_sessions/{session_id}/complete"
    answers = in_threads(
        RACERS,
        lambda i: Agent(agent.token).post(
            path, spt_payment(token), **{"Idempotency-Key": "one-key"}
        ),
    )
    # The one that ran, the replays of it, and those that met it in flight (409, retry later).
    assert {a.status for a in answers} <= {200, 409}
    done = [a for a in answers if a.status == 200]
    assert done and all(a.body["status"] in ("completed", "complete_in_progress") for a in done)
    assert all(a.body["code"] == "idempotency_in_flight" for a in answers if a.status == 409)
    _one_charge(stripe_provider, session_id)


def test_twenty_completes_with_twenty_keys_still_charge_once(user, stripe_provider):
    agent, session_id, token = _ready_session(user, stripe_provider)
    path = f"/checkout_sessions/{session_id}/complete"
    answers = in_threads(
        RACERS,
        lambda i: Agent(agent.token).post(
            path, spt_payment(token), **{"Idempotency-Key": f"k-{i}"}
        ),
    )
    assert {a.status for a in answers} == {200}
    statuses = {a.body["status"] for a in answers}
    assert "completed" in statuses
    assert statuses <= {"completed", "complete_in_progress"}
    # The one that charged says nothing more; every other says it charged nothing.
    quiet = [a for a in answers if not a.body["messages"]]
    assert len(quiet) == 1 and quiet[0].body["status"] == "completed"
    for other in (a for a in answers if a.body["messages"]):
        (message,) = other.body["messages"]
        assert message["type"] == "info" and "nothing more was charged" in message["content"]
    _one_charge(stripe_provider, session_id)
    final = Agent(agent.token).get(f"/checkout_sessions/{session_id}").body
    assert final["status"] == "completed" and final["order"]


def _cancel_or_complete(agent: Agent, session_id: str, token: str, i: int):
    if i % 5 == 0:  # four cancels among the completes
        return Agent(agent.token).post(f"/checkout_sessions/{session_id}/cancel")
    path = f"/checkout_sessions/{session_id}/complete"
    return Agent(agent.token).post(path, spt_payment(token))


@pytest.mark.parametrize("round_", range(3))
def test_cancels_racing_completes_either_cancel_or_charge_never_both(user, stripe_provider, round_):
    agent, session_id, token = _ready_session(user, stripe_provider)
    answers = in_threads(RACERS, lambda i: _cancel_or_complete(agent, session_id, token, i))
    cancels = [a for i, a in enumerate(answers) if i % 5 == 0]
    completes = [a for i, a in enumerate(answers) if i % 5]
    charged = [i for i in intents(stripe_provider) if i["status"] == "succeeded"]
    final = Agent(agent.token).get(f"/checkout_sessions/{session_id}").body
    workflow = CheckoutSession.objects.get(pk=session_id).workflow
    product = workflow.selected_product
    product.refresh_from_db()
    if any(a.status == 200 for a in cancels):
        # A cancel won: nothing was charged, no draft holds stock, and no complete was told
        # otherwise afterwards.
        assert charged == [] and final["status"] == "canceled", final
        assert not Order.objects.filter(workflow=workflow, status=OrderStatus.DRAFT).exists()
        assert not Order.objects.filter(workflow=workflow, status=OrderStatus.COMPLETED).exists()
        assert product.stock == 5
        assert all(a.status == 405 or a.body["status"] != "completed" for a in completes)
        assert all(a.body["code"] == "not_modifiable" for a in completes if a.status == 405)
        assert all(a.status == 405 for a in cancels if a.status != 200)
    else:
        # A complete won: one charge, and every cancel was refused.
        assert {a.status for a in cancels} == {405}
        assert final["status"] == "completed"
        _one_charge(stripe_provider, session_id)
    assert len(charged) <= 1


def test_updates_racing_a_cancel_leave_no_draft_holding_stock(user, stripe_provider):
    agent, session_id, _ = _ready_session(user, stripe_provider)
    path = f"/checkout_sessions/{session_id}"

    def work(i: int):
        if i == 0:
            return Agent(agent.token).post(f"{path}/cancel")
        body = {"line_items": [{"id": "GG-ACP-RACE", "quantity": 1 + i % 2}]}
        return Agent(agent.token).post(path, body)

    answers = in_threads(RACERS, work)
    assert answers[0].status == 200 and answers[0].body["status"] == "canceled"
    assert {a.status for a in answers[1:]} <= {200, 405}
    workflow = CheckoutSession.objects.get(pk=session_id).workflow
    assert not Order.objects.filter(workflow=workflow, status=OrderStatus.DRAFT).exists()
    product = workflow.selected_product
    product.refresh_from_db()
    assert product.stock == 5
