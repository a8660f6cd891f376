"""Webhooks under real concurrency on PostgreSQL: one event delivered by several connections at
once is stored and applied once; many events about one order settle it once."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from checkout import outbox
from checkout.models import OrderStatus, OutboxStatus, SagaStep
from tests.checkout.test_webhooks import (
    event,
    pending_order,
    send,
    settle_at_provider,
    stored_events,
)
from tests.concurrency import in_threads
from tests.fixtures import BOTH_DATABASES, assert_books_balance, order_of

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES),
]


@pytest.fixture(autouse=True)
def webhook_secret(settings):
    from tests.checkout.test_webhooks import SECRET

    settings.STRIPE_WEBHOOK_SECRET = SECRET


def test_one_event_delivered_eight_times_at_once_is_applied_once(api, settings):
    product, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    body = event("payment_intent.succeeded", order_id=order_id, payment_id="pi_race")

    answers = in_threads(8, lambda i: send(body))

    assert all(status == 200 for status, _ in answers), answers
    assert Counter(answer["status"] for _, answer in answers) == {"applied": 1, "duplicate": 7}
    assert stored_events().get().status == OutboxStatus.DELIVERED
    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert SagaStep.objects.filter(order_id=order_id, step="complete").count() == 1
    assert_books_balance(product, initial={product.pk: 5})


def test_eight_different_events_about_one_order_settle_it_once(api, settings):
    product, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    kinds = ["payment_intent.succeeded", "payment_intent.payment_failed"]

    answers = in_threads(
        8, lambda i: send(event(kinds[i % 2], order_id=order_id, payment_id="pi_race"))
    )

    assert all(status == 200 for status, _ in answers), answers
    # One settles the order; any that found it busy wait for their retry, and then agree.
    busy = stored_events().filter(status=OutboxStatus.PENDING)
    assert all(e.last_error.startswith("OrderBusy") for e in busy)
    report = outbox.deliver_due(now=timezone.now() + timedelta(hours=1))
    assert report.delivered == len(busy) + 1  # and the completed order's receipt
    assert stored_events().filter(status=OutboxStatus.DELIVERED).count() == 8
    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert SagaStep.objects.filter(order_id=order_id, step="complete").count() == 1
    assert_books_balance(product, initial={product.pk: 5})
