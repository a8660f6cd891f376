"""End to end over real HTTP: an "agent" (httpx) creates, updates and completes a checkout
session against a live server, paying with a Shared Payment Token granted in localstripe; the
books then balance and staff see the order with its guest buyer."""

from __future__ import annotations

import uuid

import httpx
import pytest
from django.contrib.auth import get_user_model

from checkout.ledger import check_ledger
from checkout.models import Order, OrderStatus
from tests.fixtures import make_product
from tests.giftgenius.transports.acp_client import ADDRESS, grant_token, spt_payment
from tests.localstripe import intents
from tool_runtime.models import ApiTokenKind
from tool_runtime.principals import issue_api_token

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"])


class HttpAgent:
    def __init__(self, base_url: str, token: str) -> None:
        self.http = httpx.Client(
            base_url=f"{base_url}/acp",
            headers={"Authorization": f"Bearer {token}", "API-Version": "2026-04-17"},
            timeout=30,
        )

    def post(self, path: str, body: dict, key: str | None = None) -> httpx.Response:
        return self.http.post(
            path, json=body, headers={"Idempotency-Key": key or str(uuid.uuid4())}
        )


def test_an_agent_buys_for_a_guest_over_http(live_url, stripe_provider, admin_client):
    make_product(sku="GG-ACP-LIVE", stock=4, price="30.00")
    agent_user = get_user_model().objects.create_user(username="chatgpt-agent")
    agent = HttpAgent(live_url, issue_api_token(user=agent_user, kind=ApiTokenKind.AGENT))
    discovery = httpx.get(f"{live_url}/.well-known/acp.json").json()
    assert discovery["api_base_url"].endswith("/acp")

    created = agent.post(
        "/checkout_sessions",
        {
            "line_items": [{"id": "GG-ACP-LIVE", "quantity": 2}],
            "currency": "usd",
            "capabilities": {},
            "buyer": {"first_name": "Grace", "last_name": "Hopper", "email": "grace@example.com"},
        },
    )
    assert created.status_code == 201, created.text
    session = created.json()
    assert session["status"] == "not_ready_for_payment"
    updated = agent.post(
        f"/checkout_sessions/{session['id']}",
        {"fulfillment_details": {"name": "Grace Hopper", "address": ADDRESS}},
    ).json()
    assert updated["status"] == "ready_for_payment"
    total = next(t["amount"] for t in updated["totals"] if t["type"] == "total")

    token = grant_token(stripe_provider, max_amount=total)
    key = str(uuid.uuid4())
    completed = agent.post(f"/checkout_sessions/{session['id']}/complete", spt_payment(token), key)
    assert completed.status_code == 200, completed.text
    body = completed.json()
    assert body["status"] == "completed"
    replay = agent.post(f"/checkout_sessions/{session['id']}/complete", spt_payment(token), key)
    assert replay.headers["Idempotent-Replayed"] == "true" and replay.json() == body

    order = Order.objects.select_related("buyer").get(pk=body["order"]["id"])
    assert order.status == OrderStatus.COMPLETED and order.owner == agent_user
    assert order.buyer.email == "grace@example.com"
    assert [i["amount"] for i in intents(stripe_provider) if i["status"] == "succeeded"] == [total]
    assert (
        httpx.get(
            body["order"]["permalink_url"].replace("http://127.0.0.1:8000", live_url)
        ).status_code
        == 200
    )
    report = check_ledger()
    assert report.ok, report
    page = admin_client.get(f"/admin/checkout/order/{order.pk}/change/")
    assert page.status_code == 200
    assert b"Grace Hopper (guest buyer, placed by chatgpt-agent)" in page.content
    assert b"grace@example.com" in page.content
