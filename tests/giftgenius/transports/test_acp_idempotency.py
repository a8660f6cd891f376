"""ACP's idempotency (its RFC §6) on the tools' one key store, with this surface's policy:
every answer below 500 is kept and replayed, a 5xx is forgotten."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from checkout.agentic import sessions
from checkout.models import CheckoutSession
from tests.fixtures import make_product
from tests.giftgenius.transports.acp_client import Agent, agent_for, create_body
from tool_runtime import idempotency
from tool_runtime.models import IdempotencyKey, IdempotencyStatus

pytestmark = pytest.mark.django_db
KEY = "4f1c2d5e-acp-key"


@pytest.fixture
def agent(user) -> Agent:
    make_product(sku="GG-ACP-1", stock=5)
    return agent_for(user)


def test_a_post_without_a_key_is_refused_and_nothing_is_made(agent):
    answer = agent.post("/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": None})
    assert (answer.status, answer.body["code"]) == (400, "idempotency_key_required")
    assert answer.body["type"] == "invalid_request"
    assert not CheckoutSession.objects.exists()


def test_a_replay_returns_the_stored_answer_and_makes_nothing_more(agent):
    first = agent.post("/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": KEY})
    again = agent.post("/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": KEY})
    assert (first.status, again.status) == (201, 201)
    assert again.body == first.body
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert CheckoutSession.objects.count() == 1


def test_equal_bodies_in_another_key_order_or_with_1_0_for_1_are_the_same_request(agent):
    body = create_body("GG-ACP-1", 2)
    agent.post("/checkout_sessions", body, **{"Idempotency-Key": KEY})
    reordered = dict(reversed(list(body.items())))
    reordered["line_items"] = [{"quantity": 2.0, "id": "GG-ACP-1"}]
    again = agent.post("/checkout_sessions", reordered, **{"Idempotency-Key": KEY})
    assert again.status == 201 and again.headers["Idempotent-Replayed"] == "true"


def test_the_same_key_with_another_body_is_a_conflict(agent):
    agent.post("/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": KEY})
    other = agent.post("/checkout_sessions", create_body("GG-ACP-1", 2), **{"Idempotency-Key": KEY})
    assert (other.status, other.body["code"]) == (422, "idempotency_conflict")
    assert CheckoutSession.objects.count() == 1


def test_a_key_is_scoped_to_the_endpoint_and_the_agent(agent, other_user):
    created = agent.post("/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": KEY})
    update = agent.post(f"/checkout_sessions/{created.body['id']}", {}, **{"Idempotency-Key": KEY})
    assert update.status == 200 and "Idempotent-Replayed" not in update.headers
    other = agent_for(other_user).post(
        "/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": KEY}
    )
    assert other.status == 201 and other.body["id"] != created.body["id"]


def test_a_refusal_is_replayed_too_unlike_a_tools_validation_error(agent):
    bad = {**create_body("GG-ACP-1"), "currency": 5}
    first = agent.post("/checkout_sessions", bad, **{"Idempotency-Key": KEY})
    again = agent.post("/checkout_sessions", bad, **{"Idempotency-Key": KEY})
    assert (first.status, again.status) == (400, 400)
    assert again.headers["Idempotent-Replayed"] == "true" and again.body == first.body
    fixed = agent.post("/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": KEY})
    assert fixed.status == 422  # the corrected body needs a new key


def test_a_key_still_in_flight_is_a_409_with_retry_after(agent, user):
    body = create_body("GG-ACP-1")
    claim = idempotency.replay_or_claim_request(
        principal=user, surface="acp:/checkout_sessions", key=KEY, body=body, correlation_id="c"
    )
    assert isinstance(claim, idempotency.Claim)
    answer = agent.post("/checkout_sessions", body, **{"Idempotency-Key": KEY})
    assert (answer.status, answer.body["code"]) == (409, "idempotency_in_flight")
    assert int(answer.headers["Retry-After"]) > 0
    assert not CheckoutSession.objects.exists()


def test_a_server_error_is_not_stored_so_the_retry_runs_afresh(agent, monkeypatch):
    real = sessions.create_session
    calls = []

    def crash_once(**kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the first attempt crashes")
        return real(**kwargs)

    monkeypatch.setattr(sessions, "create_session", crash_once)
    first = agent.post("/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": KEY})
    assert (first.status, first.body["type"]) == (500, "processing_error")
    assert not IdempotencyKey.objects.filter(key=KEY).exists()
    retry = agent.post("/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": KEY})
    assert retry.status == 201 and "Idempotent-Replayed" not in retry.headers


def test_keys_live_at_least_a_day_and_an_expired_key_is_a_new_request(agent):
    before = timezone.now()
    agent.post("/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": KEY})
    row = IdempotencyKey.objects.get(key=KEY)
    assert row.status == IdempotencyStatus.COMPLETED and row.http_status == 201
    assert row.expires_at >= before + timedelta(hours=24)
    IdempotencyKey.objects.filter(pk=row.pk).update(expires_at=timezone.now())
    again = agent.post("/checkout_sessions", create_body("GG-ACP-1", 2), **{"Idempotency-Key": KEY})
    assert again.status == 201 and CheckoutSession.objects.count() == 2


def test_a_key_longer_than_the_column_is_kept_as_its_digest(agent):
    long_key = "k" * 255
    first = agent.post(
        "/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": long_key}
    )
    again = agent.post(
        "/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": long_key}
    )
    assert again.headers["Idempotent-Replayed"] == "true" and again.body == first.body
    too_long = agent.post(
        "/checkout_sessions", create_body("GG-ACP-1"), **{"Idempotency-Key": "k" * 256}
    )
    assert too_long.status == 400


def test_a_key_lifetime_shorter_than_acps_day_stops_the_server_from_starting(settings):
    from django.core.management import call_command
    from django.core.management.base import SystemCheckError

    call_command("check")  # the default keeps keys 24 h
    settings.IDEMPOTENCY_KEY_TTL_SECONDS = 3600
    with pytest.raises(
        SystemCheckError, match=r"checkout\.E001.*IDEMPOTENCY_KEY_TTL_SECONDS is 3600"
    ):
        call_command("check")
