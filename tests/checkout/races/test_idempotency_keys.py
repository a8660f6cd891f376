"""One idempotency key, many callers at once (real threads on PostgreSQL): twenty commits
with one key charge once, and of many callers only one takes over a stale lock."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import httpx
import pytest
from django.utils import timezone

from checkout.models import Order, OrderStatus, Payment, SagaStep, SimulatedCheckoutSession
from checkout.schemas import PrepareOrderInput
from tests.concurrency import in_threads
from tests.conftest import ToolClient
from tests.fixtures import (
    BOTH_DATABASES,
    SHIPPING,
    assert_books_balance,
    commit,
    gift_selected,
    make_product,
    new_key,
    prepared,
    provider_charges,
)
from tests.localstripe import API_KEY, intents
from tool_runtime.idempotency import arguments_fingerprint
from tool_runtime.models import IdempotencyKey, IdempotencyStatus
from tool_runtime.principals import issue_api_token, principal_label

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES),
]


def test_twenty_simultaneous_commits_with_one_key_charge_once(user, api, provider):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    key = new_key()
    bearer = issue_api_token(user=user)

    results = in_threads(
        20, lambda i: commit(ToolClient(bearer), workflow_id, order_id, token, key=key)
    )

    codes = Counter(r.status for r in results)
    assert set(codes) <= {200, 409}, codes
    successes = [r for r in results if r.status == 200]
    assert successes, codes
    assert len({r.raw for r in successes}) == 1  # the first answer, and replays of it byte for byte
    assert successes[0].body["status"] == "completed"
    for waiting in (r for r in results if r.status == 409):
        assert waiting.body["error"]["code"] == "IDEMPOTENCY_IN_PROGRESS"
        assert waiting.body["error"]["retryable"] is True
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert Payment.objects.filter(order_id=order_id).count() == 1
    assert [c.status for c in provider_charges(order_id)] == ["succeeded"]
    if provider:
        assert len(intents(provider)) == 1  # one PaymentIntent at Stripe
    assert (
        SagaStep.objects.filter(order_id=order_id, step="charge_card", status="started").count()
        == 0
    )
    assert_books_balance(product, initial={product.pk: 5})


def test_only_one_of_many_callers_takes_over_a_stale_lock(user, api, settings):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    key = new_key()
    arguments = {
        "workflow_id": workflow_id,
        "payment_method_id": "pm_card_visa",
        "shipping": SHIPPING,
        "idempotency_key": key,
    }
    stale = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS + 5)
    IdempotencyKey.objects.create(
        principal=principal_label(user),
        tool="prepare_order",
        key=key,
        fingerprint=arguments_fingerprint(PrepareOrderInput.model_validate(arguments)),
        status=IdempotencyStatus.IN_PROGRESS,
        locked_at=stale,
        expires_at=timezone.now() + timedelta(hours=1),
    )
    bearer = issue_api_token(user=user)

    results = in_threads(10, lambda i: ToolClient(bearer).call("prepare_order", arguments))

    assert {r.status for r in results} <= {200, 409}
    assert Order.objects.count() == 1  # exactly one taker ran the tool
    assert len({r.raw for r in results if r.status == 200}) == 1
    row = IdempotencyKey.objects.get(key=key)
    assert row.status == IdempotencyStatus.COMPLETED and row.runs == 2
    assert_books_balance(product, initial={product.pk: 5})


def test_twenty_simultaneous_commits_of_a_new_card_open_one_payment_page(user, api, provider):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "new_card")
    key = new_key()
    bearer = issue_api_token(user=user)

    results = in_threads(
        20, lambda i: commit(ToolClient(bearer), workflow_id, order_id, token, key=key)
    )

    successes = [r for r in results if r.status == 200]
    assert successes and {r.status for r in results} <= {200, 409}
    actions = {(r.body["status"], r.body["next_action"]["url"]) for r in successes}
    assert len(actions) == 1 and next(iter(actions))[0] == "awaiting_payment"
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.AWAITING_PAYMENT
    assert Payment.objects.filter(order_id=order_id).count() == 1
    if provider:
        sessions = httpx.get(
            f"{provider}/v1/checkout/sessions", params={"limit": 100}, auth=(API_KEY, "")
        ).json()["data"]
        assert [s["id"] for s in sessions] == [order.payment_session_id]
    else:
        assert SimulatedCheckoutSession.objects.filter(order_id=order_id).count() == 1
    assert provider_charges(order_id) == []  # nothing charged until the person pays
    assert_books_balance(product, initial={product.pk: 5})
