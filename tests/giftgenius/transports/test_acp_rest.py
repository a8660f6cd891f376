"""ACP checkout sessions over REST (/acp): the protocol's headers, its error shape, a session
as a held draft order, and cancelling it."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from checkout.models import CheckoutSession, Order, OrderStatus
from gifts.models import Product
from tests.fixtures import make_product
from tests.giftgenius.transports.acp_client import (
    ADDRESS,
    Agent,
    agent_for,
    create_body,
    spt_payment,
)
from tool_runtime.models import ApiToken
from tool_runtime.principals import issue_api_token, revoke_api_tokens

pytestmark = pytest.mark.django_db


@pytest.fixture
def product() -> Product:
    return make_product(sku="GG-ACP-1", stock=5, price="30.00")


@pytest.fixture
def agent(user) -> Agent:
    return agent_for(user)


def _total(body: dict, kind: str) -> int:
    return next(t["amount"] for t in body["totals"] if t["type"] == kind)


def test_a_session_is_a_priced_draft_order_holding_its_stock(agent, product):
    answer = agent.post("/checkout_sessions", create_body("GG-ACP-1", 2), **{"Request-Id": "r-1"})
    assert answer.status == 201, answer.body
    body = answer.body
    assert body["status"] == "ready_for_payment" and body["currency"] == "usd"
    assert body["protocol"] == {"version": "2026-04-17"}
    assert answer.headers["Request-Id"] == "r-1"
    assert answer.headers["Idempotency-Key"]
    (line,) = body["line_items"]
    assert (line["item"]["id"], line["quantity"], line["unit_amount"]) == ("GG-ACP-1", 2, 3000)
    parts = sum(_total(body, kind) for kind in ("subtotal", "fulfillment"))
    assert _total(body, "items_base_amount") == 6000 and _total(body, "total") == parts
    assert (
        body["selected_fulfillment_options"][0]["option_id"] == body["fulfillment_options"][0]["id"]
    )
    assert {link["type"] for link in body["links"]} == {"terms_of_use", "privacy_policy"}
    session = CheckoutSession.objects.get(pk=body["id"])
    order = Order.objects.get(workflow=session.workflow)
    assert order.status == OrderStatus.DRAFT and order.amount * 100 == _total(body, "total")
    product.refresh_from_db()
    assert product.stock == 3  # held by the draft


def test_choosing_another_delivery_option_reprices_the_same_draft(agent, product):
    created = agent.post("/checkout_sessions", create_body("GG-ACP-1")).body
    express = created["fulfillment_options"][-1]
    selected = {"type": "shipping", "option_id": express["id"], "item_ids": ["li_1"]}
    updated = agent.post(
        f"/checkout_sessions/{created['id']}", {"selected_fulfillment_options": [selected]}
    )
    assert updated.status == 200
    assert updated.body["selected_fulfillment_options"][0]["option_id"] == express["id"]
    assert _total(updated.body, "fulfillment") == express["totals"][0]["amount"]
    assert (
        _total(updated.body, "total") == _total(created, "total") + express["totals"][0]["amount"]
    )
    assert Order.objects.filter(workflow__checkout_session=created["id"]).count() == 1


def test_a_session_without_an_address_is_not_ready_and_says_what_is_missing(agent, product):
    body = agent.post("/checkout_sessions", create_body("GG-ACP-1", address=False)).body
    assert body["status"] == "not_ready_for_payment"
    assert {(m["code"], m.get("param")) for m in body["messages"]} == {
        ("missing", "$.fulfillment_details.address")
    }
    updated = agent.post(
        f"/checkout_sessions/{body['id']}", {"fulfillment_details": {"address": ADDRESS}}
    ).body
    assert updated["status"] == "ready_for_payment" and updated["messages"] == []


def test_an_address_the_shop_does_not_ship_to_is_a_message_and_the_draft_stays(agent, product):
    created = agent.post("/checkout_sessions", create_body("GG-ACP-1")).body
    far = {"address": {**ADDRESS, "country": "JP"}}
    updated = agent.post(f"/checkout_sessions/{created['id']}", {"fulfillment_details": far}).body
    (message,) = updated["messages"]
    assert message["code"] == "region_restricted"
    assert message["param"] == "$.fulfillment_details.address.country"
    assert updated["status"] == "not_ready_for_payment"
    assert _total(updated, "total") == _total(created, "total")
    # Nothing of the refused change is kept: the session still shows what its draft is priced
    # (and would be shipped) for, so a complete cannot ship somewhere the agent did not see.
    now = agent.get(f"/checkout_sessions/{created['id']}").body
    assert now["fulfillment_details"] == created["fulfillment_details"]
    assert now["status"] == "ready_for_payment" and now["totals"] == created["totals"]
    order = Order.objects.get(workflow__checkout_session=created["id"])
    assert order.shipping["country"] == ADDRESS["country"]


def test_a_refused_item_change_keeps_the_item_the_draft_is_priced_for(agent, product):
    make_product(sku="GG-ACP-GONE", stock=0)
    created = agent.post("/checkout_sessions", create_body("GG-ACP-1")).body
    far = {"address": {**ADDRESS, "country": "JP"}}
    change = {"line_items": [{"id": "GG-ACP-GONE"}], "fulfillment_details": far}
    refused = agent.post(f"/checkout_sessions/{created['id']}", change).body
    assert [m["code"] for m in refused["messages"]] == ["region_restricted"]
    session = CheckoutSession.objects.get(pk=created["id"])
    assert session.workflow.selected_product == product
    now = agent.get(f"/checkout_sessions/{created['id']}").body
    assert [line["item"]["id"] for line in now["line_items"]] == ["GG-ACP-1"]


def test_an_empty_choice_clears_the_chosen_delivery_option(agent, product):
    created = agent.post("/checkout_sessions", create_body("GG-ACP-1")).body
    cheapest, express = created["fulfillment_options"][0], created["fulfillment_options"][-1]
    assert cheapest["id"] != express["id"]
    path = f"/checkout_sessions/{created['id']}"
    chosen = {"type": "shipping", "option_id": express["id"], "item_ids": ["li_1"]}
    agent.post(path, {"selected_fulfillment_options": [chosen]})
    kept = agent.post(path, {"buyer": {"email": "j@example.com"}}).body  # absent: unchanged
    assert kept["selected_fulfillment_options"][0]["option_id"] == express["id"]
    # The schema takes no null here (RFC §6.2's "null clears"): an empty list clears instead.
    cleared = agent.post(path, {"selected_fulfillment_options": []})
    assert cleared.status == 200, cleared.body
    assert cleared.body["selected_fulfillment_options"][0]["option_id"] == cheapest["id"]


def test_a_sold_out_item_is_an_out_of_stock_message(agent):
    make_product(sku="GG-ACP-GONE", stock=0)
    body = agent.post("/checkout_sessions", create_body("GG-ACP-GONE")).body
    assert any(m["code"] == "out_of_stock" for m in body["messages"])
    assert body["status"] == "not_ready_for_payment"


@pytest.mark.parametrize(
    ("change", "param"),
    [
        ({"line_items": [{"id": "GG-ACP-1", "quantity": 0}]}, "$.line_items[0].quantity"),
        ({"line_items": [{"id": "NO-SUCH-SKU"}]}, "$.line_items[0].id"),
        ({"currency": 5}, "$.currency"),
        ({"currency": "eur"}, "$.currency"),
        ({"line_items": [{"id": "GG-ACP-1"}, {"id": "GG-ACP-1"}]}, "$.line_items[1]"),
        ({"fulfillment_details": {"address": {"city": "X"}}}, "$.fulfillment_details.address"),
        ({"surprise": 1}, "$"),
        # Longer than the guest buyer record keeps: refused by name, never cut or a 500.
        ({"buyer": {"first_name": "J" * 101, "email": "j@example.com"}}, "$.buyer.first_name"),
        ({"buyer": {"email": "j" * 250 + "@example.com"}}, "$.buyer.email"),
        ({"buyer": {"email": "j@example.com", "phone_number": "1" * 41}}, "$.buyer.phone_number"),
    ],
)
def test_a_malformed_body_is_a_400_naming_its_json_path(agent, product, change, param):
    answer = agent.post("/checkout_sessions", {**create_body("GG-ACP-1"), **change})
    assert answer.status == 400
    assert answer.body["type"] == "invalid_request" and answer.body["param"] == param
    assert set(answer.body) <= {"type", "code", "message", "param"}
    assert not CheckoutSession.objects.exists()


def test_a_body_that_is_not_json_is_a_400(agent, product):
    answer = agent.post("/checkout_sessions", raw=b"{not json")
    assert (answer.status, answer.body["code"], answer.body["param"]) == (400, "invalid", "$")


@pytest.mark.parametrize(
    ("version", "code"), [(None, "missing_api_version"), ("2025-09-29", "unsupported_api_version")]
)
def test_api_version_is_required_and_must_be_supported(agent, product, version, code):
    answer = agent.post("/checkout_sessions", create_body("GG-ACP-1"), **{"API-Version": version})
    assert (answer.status, answer.body["code"]) == (400, code)
    assert "2026-04-17" in answer.body["message"]
    assert not CheckoutSession.objects.exists()


def test_only_a_live_agent_key_may_call(user, product):
    assert Agent("").post("/checkout_sessions", create_body("GG-ACP-1")).status == 401
    script = Agent(issue_api_token(user=user))  # a tools token opens /api/tools, not /acp
    assert script.post("/checkout_sessions", create_body("GG-ACP-1")).status == 401
    agent = agent_for(user)
    assert agent.post("/checkout_sessions", create_body("GG-ACP-1")).status == 201
    revoke_api_tokens(token_ids=ApiToken.objects.filter(kind="agent").values_list("pk", flat=True))
    answer = agent.post("/checkout_sessions", create_body("GG-ACP-1"))
    assert (answer.status, answer.body["code"]) == (401, "unauthorized")


def test_an_agent_key_does_not_open_the_tools(user, client):
    agent = agent_for(user)
    response = client.post(
        "/api/tools/start_gift_workflow",
        data="{}",
        content_type="application/json",
        headers={"Authorization": f"Bearer {agent.token}"},
    )
    assert response.status_code == 401


def test_another_agents_session_and_an_unknown_one_are_not_found(agent, other_user, product):
    created = agent.post("/checkout_sessions", create_body("GG-ACP-1")).body
    other = agent_for(other_user)
    for path in (f"/checkout_sessions/{created['id']}", "/checkout_sessions/cs_nope"):
        answer = other.get(path)
        assert (answer.status, answer.body["code"]) == (404, "not_found")
    for suffix in ("", "/cancel"):
        answer = other.post(f"/checkout_sessions/{created['id']}{suffix}", {})
        assert answer.status == 404
    assert agent.get(f"/checkout_sessions/{created['id']}").body["status"] == "ready_for_payment"


def test_a_session_past_its_lifetime_is_not_found(agent, product):
    created = agent.post("/checkout_sessions", create_body("GG-ACP-1")).body
    CheckoutSession.objects.filter(pk=created["id"]).update(
        created_at=timezone.now() - timedelta(days=2)
    )
    assert agent.get(f"/checkout_sessions/{created['id']}").status == 404
    assert (
        agent.post(f"/checkout_sessions/{created['id']}/complete", spt_payment("spt_x")).status
        == 404
    )


def test_a_session_whose_hold_lapsed_reads_expired(agent, product):
    created = agent.post("/checkout_sessions", create_body("GG-ACP-1")).body
    Order.objects.filter(workflow__checkout_session=created["id"]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert agent.get(f"/checkout_sessions/{created['id']}").body["status"] == "expired"


def test_cancel_releases_the_stock_and_a_second_cancel_is_405(agent, product):
    created = agent.post("/checkout_sessions", create_body("GG-ACP-1", 2)).body
    canceled = agent.post(f"/checkout_sessions/{created['id']}/cancel")
    assert (canceled.status, canceled.body["status"]) == (200, "canceled")
    product.refresh_from_db()
    assert product.stock == 5
    again = agent.post(f"/checkout_sessions/{created['id']}/cancel")
    assert again.status == 405 and again.body["type"] == "invalid_request"
    update = agent.post(f"/checkout_sessions/{created['id']}", {"buyer": {"email": "a@b.example"}})
    assert update.status == 405


def test_accept_language_sets_the_sessions_language(agent, product):
    body = create_body("GG-ACP-1", address=False)
    answer = agent.post("/checkout_sessions", body, **{"Accept-Language": "pl"})
    assert answer.body["locale"] == "pl" and answer.headers["Content-Language"] == "pl"
    texts = {t["type"]: t["display_text"] for t in answer.body["totals"]}
    assert texts["subtotal"] == "Suma częściowa"
    (missing,) = answer.body["messages"]
    assert missing["content"] == "Przed płatnością potrzebny jest adres dostawy."
    english = agent.post("/checkout_sessions", body).body
    assert english["messages"][0]["content"] == "A shipping address is needed before payment."


# --- signatures ------------------------------------------------------------------------------


def _signed(agent: Agent, body: dict, *, secret: str, at=None) -> dict:
    timestamp = (at or timezone.now()).isoformat()
    raw = json.dumps(body).encode()
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + raw, hashlib.sha256).digest()
    signature = base64.urlsafe_b64encode(mac).rstrip(b"=").decode()
    return {"raw": raw, "Signature": signature, "Timestamp": timestamp}


def test_an_agent_with_a_secret_must_sign_its_requests(user, product):
    agent = agent_for(user, signing_secret="s3cret-for-the-agent")
    body = create_body("GG-ACP-1")
    assert agent.post("/checkout_sessions", body).status == 401  # unsigned
    wrong = _signed(agent, body, secret="another-secret")
    assert agent.post("/checkout_sessions", **wrong).status == 401
    stale = _signed(
        agent, body, secret="s3cret-for-the-agent", at=timezone.now() - timedelta(minutes=10)
    )
    assert agent.post("/checkout_sessions", **stale).status == 401
    tampered = _signed(agent, body, secret="s3cret-for-the-agent")
    tampered["raw"] = json.dumps({**body, "currency": "usd "}).encode()
    assert agent.post("/checkout_sessions", **tampered).body["code"] == "invalid_signature"
    good = _signed(agent, body, secret="s3cret-for-the-agent")
    assert agent.post("/checkout_sessions", **good).status == 201


@pytest.mark.parametrize("signature", ["\u00e9" * 43, "sig\u00ff=", ""])
def test_a_signature_header_that_is_not_base64url_is_a_401(user, product, signature):
    agent = agent_for(user, signing_secret="s3cret-for-the-agent")
    answer = agent.post(
        "/checkout_sessions",
        create_body("GG-ACP-1"),
        Signature=signature,
        Timestamp=timezone.now().isoformat(),
    )
    assert (answer.status, answer.body["code"]) == (401, "invalid_signature")
    assert not CheckoutSession.objects.exists()


@pytest.mark.parametrize("session_id", ["cs_\x00x", "cs_" + "0" * 23 + "\u00e9", "cs_" + "a" * 300])
def test_a_session_id_we_could_not_have_made_is_not_found_and_nothing_is_stored(
    agent, product, session_id
):
    from urllib.parse import quote

    from tool_runtime.models import IdempotencyKey

    path = f"/checkout_sessions/{quote(session_id, safe='')}"
    for answer in (agent.get(path), agent.post(path, {}), agent.post(f"{path}/cancel")):
        assert (answer.status, answer.body["code"]) == (404, "not_found"), answer.body
        assert "\x00" not in answer.body["message"]
    assert not IdempotencyKey.objects.exists()


def test_discovery_is_public_and_names_the_version(client):
    response = client.get("/.well-known/acp.json")
    assert response.status_code == 200 and "max-age=3600" in response["Cache-Control"]
    body = response.json()
    assert body["protocol"]["supported_versions"] == ["2026-04-17"]
    assert body["api_base_url"].endswith("/acp") and body["capabilities"]["services"] == [
        "checkout"
    ]
