"""ChatGPT's payment sheet: prepare_order hands the widget the workflow's ACP checkout session
(only with CHATGPT_PAYMENT_SHEET on), and ChatGPT's `complete_checkout` pays it with a Shared
Payment Token through ACP's own complete, against localstripe."""

from __future__ import annotations

import pytest

from checkout.models import CheckoutSession, Order, OrderStatus
from tests.fixtures import draft_order, new_key, prepare
from tests.giftgenius.transports.acp_client import grant_token
from tests.localstripe import intents

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet_on(settings, stripe_provider, demo_catalog) -> str:
    settings.CHATGPT_PAYMENT_SHEET = True
    settings.CHATGPT_MERCHANT_ID = "profile_test_giftgenius"
    return stripe_provider


def _total(session: dict) -> int:
    return next(t["amount"] for t in session["totals"] if t["type"] == "total")


def _pay(api, session: dict, token: str):
    return api.call(
        "complete_checkout",
        {
            "checkout_session_id": session["id"],
            "buyer": {"first_name": "Jane", "last_name": "Doe", "email": "jane@example.com"},
            "payment_data": {"token": token, "provider": "stripe"},
        },
    )


def _succeeded(url: str) -> list[dict]:
    return [i for i in intents(url) if i["status"] == "succeeded"]


def test_setting_off_hands_the_widget_no_session(api, settings, demo_catalog):
    assert settings.CHATGPT_PAYMENT_SHEET is False  # the default
    placed = draft_order(api)
    assert "checkout_session" not in placed.prepared.body["_meta"]
    assert not CheckoutSession.objects.exists()


def test_the_sheet_session_is_the_drafts_acp_session(api, sheet_on):
    placed = draft_order(api)
    session = placed.prepared.body["_meta"]["checkout_session"]
    order = Order.objects.get(pk=placed.order_id)
    assert session["status"] == "ready_for_payment", session["messages"]
    assert session["payment_provider"] == {
        "provider": "stripe",
        "merchant_id": "profile_test_giftgenius",
        "supported_payment_methods": ["card"],
    }
    assert session["payment_mode"] == "test"
    assert _total(session) == int(order.amount * 100)
    stored = CheckoutSession.objects.get(pk=session["id"])
    assert stored.workflow_id == order.workflow_id  # the workflow's session, not a second cart
    # Preparing again re-prices the same session.
    again = prepare(api, placed.workflow_id)
    assert again.body["_meta"]["checkout_session"]["id"] == session["id"]
    assert CheckoutSession.objects.count() == 1


def test_complete_checkout_pays_the_draft_once(api, sheet_on):
    placed = draft_order(api)
    session = placed.prepared.body["_meta"]["checkout_session"]
    token = grant_token(sheet_on, max_amount=_total(session))
    done = _pay(api, session, token)
    assert done.status == 200, done.body
    assert done.body["status"] == "completed" and done.body["messages"] == []
    assert done.body["order"]["id"] == placed.order_id
    order = Order.objects.get(pk=placed.order_id)
    assert order.status == OrderStatus.COMPLETED and order.payment_method_id == token
    # ChatGPT retrying the call (or replaying it) charges nothing more.
    replay = _pay(api, session, token)
    assert replay.status == 200 and replay.body["status"] == "completed"
    assert replay.body["order"] == done.body["order"]
    assert "nothing more was charged" in replay.body["messages"][0]["content"]
    assert [i["amount"] for i in _succeeded(sheet_on)] == [_total(session)]


def test_a_declined_token_charges_nothing_and_the_draft_can_be_paid_again(api, sheet_on):
    placed = draft_order(api)
    session = placed.prepared.body["_meta"]["checkout_session"]
    declined = _pay(api, session, "not-a-granted-token")
    assert declined.status == 200, declined.body
    assert declined.body["status"] != "completed"
    assert [m["code"] for m in declined.body["messages"]] == ["payment_declined"]
    assert _succeeded(sheet_on) == []
    token = grant_token(sheet_on, max_amount=_total(session))
    paid = _pay(api, session, token)
    assert paid.body["status"] == "completed", paid.body
    assert len(_succeeded(sheet_on)) == 1


def test_a_token_granted_for_less_than_the_total_is_declined(api, sheet_on):
    placed = draft_order(api)
    session = placed.prepared.body["_meta"]["checkout_session"]
    short = grant_token(sheet_on, max_amount=_total(session) - 1)
    declined = _pay(api, session, short)
    assert declined.status == 200, declined.body
    assert [m["code"] for m in declined.body["messages"]] == ["payment_declined"]
    assert _succeeded(sheet_on) == []
    assert Order.objects.get(pk=placed.order_id).status != OrderStatus.COMPLETED


def test_another_persons_session_is_not_found(api, other_api, sheet_on):
    placed = draft_order(api)
    session = placed.prepared.body["_meta"]["checkout_session"]
    token = grant_token(sheet_on, max_amount=_total(session))
    theirs = _pay(other_api, session, token)
    assert theirs.status == 404, theirs.body
    assert theirs.body["error"]["code"] == "NOT_FOUND"
    assert "acp_error" not in theirs.body["error"]["details"]  # a tool error, not the binding's
    assert _succeeded(sheet_on) == []


@pytest.mark.parametrize("session_id", ["cs_nope", "not a session", "cs_" + "0" * 23 + "g"])
def test_a_session_id_we_could_not_have_made_is_not_found(api, sheet_on, session_id):
    token = grant_token(sheet_on, max_amount=100)
    answer = _pay(api, {"id": session_id}, token)
    assert answer.status == 404, answer.body
    assert answer.body["error"]["code"] == "NOT_FOUND"
    assert _succeeded(sheet_on) == []


def test_a_test_token_for_the_preview_sheet_pays_at_most_its_amount(api, sheet_on):
    import time

    from checkout.payments.test_tokens import grant_test_token

    placed = draft_order(api)
    session = placed.prepared.body["_meta"]["checkout_session"]
    token = grant_test_token(amount_minor=_total(session), currency="usd", now=int(time.time()))
    assert token.startswith("spt_")
    assert _pay(api, session, token).body["status"] == "completed"


def test_a_session_canceled_over_acp_is_started_afresh_for_the_next_draft(api, sheet_on):
    placed = draft_order(api)
    first = placed.prepared.body["_meta"]["checkout_session"]
    canceled = api.call(
        "cancel_checkout_session",
        {"meta": {"api_version": "2026-04-17", "idempotency_key": new_key()}, "id": first["id"]},
    )
    assert canceled.status == 200 and canceled.body["status"] == "canceled", canceled.body
    assert Order.objects.get(pk=placed.order_id).status == OrderStatus.CANCELLED

    again = prepare(api, placed.workflow_id)
    assert again.status == 200, again.body
    session = again.body["_meta"]["checkout_session"]
    assert session["id"] != first["id"]
    assert session["status"] == "ready_for_payment", session["messages"]
    assert CheckoutSession.objects.get().pk == session["id"]  # still one session per workflow
    token = grant_token(sheet_on, max_amount=_total(session))
    paid = _pay(api, session, token)
    assert paid.body["status"] == "completed", paid.body
    assert paid.body["order"]["id"] == again.body["order_id"]
    # The canceled id is gone with it: nothing can be paid under it any more.
    assert _pay(api, first, token).status == 404


def test_a_session_past_its_lifetime_is_started_afresh_for_the_next_draft(api, sheet_on, settings):
    from datetime import timedelta

    from django.utils import timezone

    placed = draft_order(api)
    first = placed.prepared.body["_meta"]["checkout_session"]
    long_ago = timezone.now() - timedelta(seconds=settings.ACP_SESSION_TTL_SECONDS + 60)
    CheckoutSession.objects.filter(pk=first["id"]).update(created_at=long_ago)
    # Unchanged, the sheet would hand ChatGPT a session that is no longer found.
    assert _pay(api, first, "spt_unused").status == 404

    again = prepare(api, placed.workflow_id)
    session = again.body["_meta"]["checkout_session"]
    assert session["id"] != first["id"]
    token = grant_token(sheet_on, max_amount=_total(session))
    assert _pay(api, session, token).body["status"] == "completed"
    assert len(_succeeded(sheet_on)) == 1
