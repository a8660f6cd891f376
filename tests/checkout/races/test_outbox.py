"""The outbox under real concurrency on PostgreSQL: several sweeps delivering the same due
messages at once deliver each exactly once."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from checkout import outbox
from checkout.models import OutboxMessage, OutboxStatus
from tests.concurrency import in_threads

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

KIND = "test_note"


def test_eight_sweeps_at_once_deliver_each_message_once(monkeypatch):
    delivered: Counter[str] = Counter()
    lock = threading.Lock()

    def handler(message: OutboxMessage) -> str:
        with lock:
            delivered[message.key] += 1
        return "noted"

    monkeypatch.setitem(outbox._handlers, KIND, handler)
    keys = [f"note:{i}" for i in range(20)]
    for key in keys:
        outbox.enqueue(kind=KIND, key=key, payload={})

    reports = in_threads(8, lambda i: outbox.deliver_due())

    assert delivered == Counter({key: 1 for key in keys})
    assert sum(report.delivered for report in reports) == 20
    assert set(OutboxMessage.objects.values_list("status", "attempts")) == {
        (OutboxStatus.DELIVERED, 1)
    }
