"""The outbox's own policy, whatever the kind: written with the change or not at all, once per
key, delivered once, retried with backoff, parked, and retried by a person.

Webhook events (tests/checkout/test_webhooks.py) and receipts (tests/checkout/test_receipts.py)
go through the same functions; here a kind of the test's own shows the policy alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from checkout import outbox
from checkout.models import OutboxMessage, OutboxStatus

pytestmark = pytest.mark.django_db

KIND = "test_note"


class Recorder:
    """A handler that records what it delivered, failing the first `failures` tries."""

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.delivered: list[str] = []

    def __call__(self, message: OutboxMessage) -> str:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("the far side is down")
        self.delivered.append(message.payload["text"])
        return f"noted {message.payload['text']}"


@pytest.fixture
def recorder(monkeypatch, settings):
    settings.OUTBOX_MAX_ATTEMPTS = 3
    settings.OUTBOX_RETRY_BASE_SECONDS = 30
    handler = Recorder()
    monkeypatch.setitem(outbox._handlers, KIND, handler)
    return handler


def test_a_message_is_written_with_its_transaction_or_not_at_all(recorder):
    with pytest.raises(RuntimeError), transaction.atomic():
        outbox.enqueue(kind=KIND, key="note:rolled-back", payload={"text": "no"})
        raise RuntimeError("the change failed")
    assert not OutboxMessage.objects.exists()

    with transaction.atomic():
        outbox.enqueue(kind=KIND, key="note:1", payload={"text": "yes"})
    assert outbox.deliver_due().delivered == 1
    assert recorder.delivered == ["yes"]


def test_a_key_is_written_once_and_a_duplicate_keeps_the_callers_transaction(recorder):
    with transaction.atomic():
        first = outbox.enqueue(kind=KIND, key="note:same", payload={"text": "one"})
        again = outbox.enqueue(kind=KIND, key="note:same", payload={"text": "two"})
        other = outbox.enqueue(kind=KIND, key="note:other", payload={"text": "three"})
    assert first is not None and again is None and other is not None
    assert outbox.deliver_due().delivered == 2
    assert sorted(recorder.delivered) == ["one", "three"]


def test_a_delivered_message_is_never_delivered_again(recorder):
    message = outbox.enqueue(kind=KIND, key="note:once", payload={"text": "once"})
    assert outbox.deliver(message_pk=message.pk) == OutboxStatus.DELIVERED
    assert outbox.deliver(message_pk=message.pk) == OutboxStatus.DELIVERED
    assert outbox.deliver_due(now=timezone.now() + timedelta(days=1)).delivered == 0
    assert recorder.delivered == ["once"]
    message.refresh_from_db()
    assert (message.attempts, message.outcome, message.next_attempt_at) == (1, "noted once", None)


def test_failures_back_off_then_park_and_a_person_retries(recorder):
    recorder.failures = 4
    message = outbox.enqueue(kind=KIND, key="note:flaky", payload={"text": "late"})

    assert outbox.deliver(message_pk=message.pk) == OutboxStatus.PENDING
    message.refresh_from_db()
    assert message.attempts == 1 and message.last_error.startswith("ConnectionError")
    assert timedelta(seconds=29) < message.next_attempt_at - timezone.now() <= timedelta(seconds=30)
    assert outbox.deliver_due().pending == 0  # not due yet
    first_due = message.next_attempt_at
    assert outbox.deliver_due(now=first_due).pending == 1
    message.refresh_from_db()
    assert message.next_attempt_at - first_due == timedelta(seconds=60)  # doubled
    assert outbox.deliver_due(now=message.next_attempt_at).parked == 1
    message.refresh_from_db()
    assert (message.status, message.attempts, message.next_attempt_at) == ("parked", 3, None)
    assert outbox.deliver_due(now=timezone.now() + timedelta(days=30)).delivered == 0
    assert recorder.delivered == []

    # Still failing: a fresh set of tries, the first one now, and it waits for the next.
    assert outbox.retry_parked(message_pks=[message.pk]) == {message.pk: OutboxStatus.PENDING}
    assert outbox.retry_parked(message_pks=[message.pk]) == {}  # not parked: nothing to do
    assert outbox.deliver_due(now=timezone.now() + timedelta(minutes=1)).delivered == 1
    assert recorder.delivered == ["late"]


def test_a_kind_with_no_handler_is_parked_not_lost(settings):
    settings.OUTBOX_MAX_ATTEMPTS = 1
    message = outbox.enqueue(kind="nobody_handles_this", key="orphan:1", payload={})
    assert outbox.deliver(message_pk=message.pk) == OutboxStatus.PARKED
    message.refresh_from_db()
    assert message.last_error == "UnknownKind: nobody_handles_this"


def test_a_kind_has_one_handler():
    with pytest.raises(ValueError, match="already has a handler"):
        outbox.register_handler("stripe_event", lambda message: "a second one")


def test_a_deferred_try_is_not_counted_and_waiting_never_parks(monkeypatch, settings):
    settings.OUTBOX_MAX_ATTEMPTS = 2
    settings.OUTBOX_RETRY_BASE_SECONDS = 30
    blocked = {"on": True}

    def waits_its_turn(message: OutboxMessage) -> str:
        if blocked["on"]:
            raise outbox.Deferred("the earlier one first")
        return "sent"

    monkeypatch.setitem(outbox._handlers, KIND, waits_its_turn)
    message = outbox.enqueue(kind=KIND, key="note:waits", payload={})
    later = timezone.now()
    for _ in range(5):  # more waits than OUTBOX_MAX_ATTEMPTS
        later += timedelta(hours=1)
        assert outbox.deliver_due(now=later).pending == 1
    message.refresh_from_db()
    assert (message.status, message.attempts) == (OutboxStatus.PENDING, 0)
    assert message.last_error == "Waiting: the earlier one first"
    assert message.next_attempt_at == later + timedelta(seconds=30)
    assert outbox.deliver_due(now=later).pending == 0  # not due again until the backoff passed

    blocked["on"] = False
    assert outbox.deliver_due(now=message.next_attempt_at).delivered == 1
    message.refresh_from_db()
    assert (message.status, message.attempts, message.last_error) == ("delivered", 1, "")
