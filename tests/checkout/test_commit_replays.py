"""A commit_order key never keeps an answer that may still change: while the order is being
paid, a repeat with the same key answers the order as it is now; once it is final, that answer
is stored and replayed byte for byte. Also across a real SIGKILL of a server mid-commit."""

from __future__ import annotations

import contextlib
import threading
from datetime import timedelta

import httpx
import pytest
from django.utils import timezone

from checkout.ledger import check_ledger
from checkout.sweeps import run_sweeps
from tests.conftest import ToolClient
from tests.fixtures import (
    BOTH_DATABASES,
    assert_books_balance,
    commit,
    gift_selected,
    make_product,
    new_key,
    prepared,
)
from tests.killable_server import killable_server
from tool_runtime.models import IdempotencyKey, IdempotencyStatus
from tool_runtime.principals import issue_api_token

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


def order_as_get_order_says(api, order_id: str) -> dict:
    response = api.call("get_order", {"order_id": order_id})
    assert response.status == 200, response.body
    return response.body


def assert_replay_agrees_with_get_order(replay, order: dict) -> None:
    """A repeat's answer says what get_order says: the status, or the failure with its code."""
    if replay.status == 200:
        assert replay.body["status"] == order["status"], (replay.body, order)
    else:
        error = replay.body["error"]
        assert order["status"] in ("failed", "cancelled"), (replay.body, order)
        assert error["details"]["order_status"] == order["status"]
        failure = order["failure"] or {}
        assert error["code"] in (failure.get("code"), "ORDER_NOT_COMMITTABLE"), (
            error,
            order,
        )


def test_a_pending_commit_is_answered_afresh_until_final_then_replayed_unchanged(api):
    product = make_product()
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_pending")
    key = new_key()

    first = commit(api, workflow_id, order_id, token, key=key)
    assert first.status == 200 and first.body["status"] == "payment_pending", first.body
    row = IdempotencyKey.objects.get(tool="commit_order", key=key)
    # Nothing that may still change is kept under the key.
    assert row.status == IdempotencyStatus.AWAITING_FINAL
    assert row.response_body == ""

    while_pending = commit(api, workflow_id, order_id, token, key=key)
    assert while_pending.body["status"] == "payment_pending"
    assert while_pending.headers["Idempotent-Replayed"] == "true"

    assert run_sweeps(older_than_seconds=0).reconciled == 1
    settled = commit(api, workflow_id, order_id, token, key=key)
    again = commit(api, workflow_id, order_id, token, key=key)

    assert settled.status == 200 and settled.body["status"] == "completed", settled.body
    assert again.raw == settled.raw  # stored once final: byte for byte from now on
    row.refresh_from_db()
    assert row.status == IdempotencyStatus.COMPLETED
    assert_replay_agrees_with_get_order(again, order_as_get_order_says(api, order_id))
    assert check_ledger().ok


# --- a real kill ------------------------------------------------------------------------------

KILLED = pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES)


def commit_over_http(base_url: str, token: str, arguments: dict) -> None:
    """The person's confirm, sent to the server that will die answering it."""
    with contextlib.suppress(httpx.HTTPError):
        httpx.post(
            f"{base_url}/api/tools/commit_order",
            json=arguments,
            headers={"Authorization": f"Bearer {token}"},
            timeout=120,
        )


@pytest.mark.postgres
@KILLED
@pytest.mark.parametrize(
    ("method", "pause_at"),
    [
        ("pm_card_declined", ("charge_card", "provider_answered")),
        ("pm_card_visa", ("charge_card", "provider_answered")),
        ("pm_card_visa", ("charge_card", "started")),
        ("pm_card_pending", ("charge_card", "provider_answered")),
    ],
)
def test_replays_after_a_server_killed_mid_commit_agree_with_get_order(
    user, method, pause_at, settings
):
    token = issue_api_token(user=user)
    api = ToolClient(token)
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, confirmation = prepared(api, workflow_id, method)
    key = new_key()
    arguments = {
        "workflow_id": workflow_id,
        "order_id": order_id,
        "confirmation_token": confirmation,
        "idempotency_key": key,
    }

    with killable_server(pause_at=pause_at) as server:
        sender = threading.Thread(target=commit_over_http, args=(server.base_url, token, arguments))
        sender.start()
        server.wait_paused()
        server.kill()
        sender.join()
    assert IdempotencyKey.objects.get(key=key).status == IdempotencyStatus.IN_PROGRESS

    # The same key after the dead run's lock expired: the order is still being paid.
    IdempotencyKey.objects.filter(key=key).update(
        locked_at=timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS + 1)
    )
    retry = commit(api, workflow_id, order_id, confirmation, key=key)
    assert retry.status == 200 and retry.body["status"] == "processing", retry.body
    assert IdempotencyKey.objects.get(key=key).response_body == ""

    report = run_sweeps(older_than_seconds=0)
    assert report.errors == 0 and report.recovered == 1, report

    # Each repeat agrees with get_order read right after it. A retryable failure (the charge
    # never reached the provider) may run again under the key, as the widget's "Try again" does;
    # whatever is final is then stored and replayed byte for byte.
    replays = []
    for _ in range(3):
        replays.append(commit(api, workflow_id, order_id, confirmation, key=key))
        assert_replay_agrees_with_get_order(replays[-1], order_as_get_order_says(api, order_id))
    assert order_as_get_order_says(api, order_id)["status"] in ("completed", "failed")
    assert replays[1].raw == replays[2].raw
    assert IdempotencyKey.objects.get(key=key).status == IdempotencyStatus.COMPLETED
    assert check_ledger().ok
    assert_books_balance(product, initial={product.pk: 5})
