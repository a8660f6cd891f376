"""The outbox: everything the app does later, with one policy of tries, backoff and parking.

A message is written in the same transaction as what it follows (`enqueue`), so it exists if
and only if that change committed. The sweeps deliver what is due (`deliver_due`); a delivery
that raises is tried again after an exponential backoff and, after OUTBOX_MAX_ATTEMPTS tries,
parked for a person (the admin's dead-letter list retries it, `retry_parked`). A handler that
must wait for another message (`Deferred`) is tried again later without spending a try.

Each kind has one handler, registered when the app is ready (`register_handler`): it does the
work and returns what it did, or raises to be tried again. Claiming a try is a compare-and-swap
on the attempt count, so two sweeps (or a sweep and the request that wrote the message) never
deliver the same message at once, and a delivered message is never delivered again.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from checkout.models import OutboxMessage, OutboxStatus
from tool_runtime.observability import get_logger

LOGGER = "giftgenius.checkout.outbox"
BATCH = 100

# Does the work of one message; returns what it did (shown in the admin) or raises to retry.
Handler = Callable[[OutboxMessage], str]
_handlers: dict[str, Handler] = {}


class UnknownKind(Exception):
    """No handler is registered for the message's kind (parked after its tries, like any)."""


class Deferred(Exception):
    """Raised by a handler whose message must wait for another (an earlier event of the same
    order): tried again after the first backoff, the try not counted, so waiting never parks
    it."""


@dataclass
class DeliveryReport:
    delivered: int = 0
    parked: int = 0
    pending: int = 0  # failed again, another try is scheduled


def register_handler(kind: str, handler: Handler) -> None:
    """Name the handler of a kind (once, from an AppConfig.ready)."""
    if _handlers.get(kind, handler) is not handler:
        raise ValueError(f"outbox kind {kind!r} already has a handler")
    _handlers[kind] = handler


def enqueue(
    *,
    kind: str,
    key: str,
    payload: dict,
    order_id: uuid.UUID | None = None,
    key_is_new: bool = False,
) -> OutboxMessage | None:
    """Write a message, due now, in the caller's transaction; None if `key` was written before.

    Call it inside the transaction of the change it follows: rolled back with it, committed
    with it. `key_is_new`: the caller's own compare-and-swap guarantees no earlier write (then
    no savepoint is spent on a duplicate that cannot happen)."""
    if key_is_new:
        return OutboxMessage.objects.create(
            kind=kind, key=key, payload=payload, order_id=order_id, next_attempt_at=timezone.now()
        )
    try:
        with transaction.atomic():  # a savepoint: a duplicate leaves the caller's work intact
            return OutboxMessage.objects.create(
                kind=kind,
                key=key,
                payload=payload,
                order_id=order_id,
                next_attempt_at=timezone.now(),
            )
    except IntegrityError:
        return None


def backoff(attempt: int) -> timedelta:
    """How long after a failed try (1, 2, …) the next one is due."""
    seconds = settings.OUTBOX_RETRY_BASE_SECONDS * 2 ** (attempt - 1)
    return timedelta(seconds=min(seconds, settings.OUTBOX_RETRY_MAX_SECONDS))


def deliver(*, message_pk: int, now: datetime | None = None) -> str:
    """Claim a pending message that is due (at `now`), deliver it and record the result;
    returns its status after (as another deliverer left it, if that one claimed it first).

    Call outside any transaction: the claim commits before the handler runs, so a try that
    dies half-way is counted and retried once its backoff has passed."""
    status = _try(message_pk, now=now or timezone.now())
    if status is None:
        return OutboxMessage.objects.values_list("status", flat=True).get(pk=message_pk)
    return status


def _try(message_pk: int, *, now: datetime) -> str | None:
    """One try, if this caller claims it; None when the message is not pending and due."""
    message = OutboxMessage.objects.get(pk=message_pk)
    if message.status != OutboxStatus.PENDING:
        return None
    attempt = message.attempts + 1
    # Compare-and-swap on the attempt count, and only while due: the claim moves the next try
    # into the future, so a deliverer that read the message before it cannot claim it again.
    claimed = OutboxMessage.objects.filter(
        pk=message.pk,
        status=OutboxStatus.PENDING,
        attempts=message.attempts,
        next_attempt_at__lte=now,
    ).update(attempts=F("attempts") + 1, next_attempt_at=now + backoff(attempt))
    if not claimed:
        return None  # another process holds this try, or it is not due
    message.attempts = attempt
    fields = {"message_pk": message.pk, "kind": message.kind, "key": message.key}
    try:
        handler = _handlers.get(message.kind)
        if handler is None:
            raise UnknownKind(message.kind)
        outcome = handler(message)
    except Deferred as exc:
        OutboxMessage.objects.filter(pk=message.pk).update(
            attempts=message.attempts - 1,
            last_error=f"Waiting: {exc}"[:300],
            next_attempt_at=now + backoff(1),
        )
        get_logger(LOGGER).info("outbox_deferred", reason=str(exc), **fields)
        return OutboxStatus.PENDING
    except Exception as exc:  # every failure is retried later, then parked for a person
        parked = attempt >= settings.OUTBOX_MAX_ATTEMPTS
        status = OutboxStatus.PARKED if parked else OutboxStatus.PENDING
        error = f"{type(exc).__name__}: {getattr(exc, 'code', '') or exc}"[:300]
        OutboxMessage.objects.filter(pk=message.pk).update(
            status=status,
            last_error=error,
            next_attempt_at=None if parked else now + backoff(attempt),
        )
        get_logger(LOGGER).warning(
            "outbox_delivery_failed",
            attempt=attempt,
            parked=parked,
            error=type(exc).__name__,
            **fields,
        )
        return status
    OutboxMessage.objects.filter(pk=message.pk).update(
        status=OutboxStatus.DELIVERED,
        outcome=outcome[:300],
        last_error="",
        next_attempt_at=None,
        delivered_at=timezone.now(),
    )
    get_logger(LOGGER).info("outbox_delivered", attempt=attempt, outcome=outcome, **fields)
    return OutboxStatus.DELIVERED


def deliver_due(*, now: datetime | None = None) -> DeliveryReport:
    """Deliver every pending message whose next try is due (a batch per pass, oldest first)."""
    report = DeliveryReport()
    now = now or timezone.now()
    due = OutboxMessage.objects.filter(
        status=OutboxStatus.PENDING, next_attempt_at__lte=now
    ).order_by("next_attempt_at", "pk")
    for pk in list(due.values_list("pk", flat=True)[:BATCH]):
        status = _try(pk, now=now)
        if status is None:
            continue  # another sweep took it
        if status == OutboxStatus.DELIVERED:
            report.delivered += 1
        elif status == OutboxStatus.PARKED:
            report.parked += 1
        else:
            report.pending += 1
    return report


def retry_parked(*, message_pks: list[int]) -> dict[int, str]:
    """A person's "retry": each parked message gets a fresh set of tries, the first one now."""
    results = {}
    for pk in message_pks:
        requeued = OutboxMessage.objects.filter(pk=pk, status=OutboxStatus.PARKED).update(
            status=OutboxStatus.PENDING, attempts=0, next_attempt_at=timezone.now()
        )
        if requeued:
            get_logger(LOGGER).info("outbox_requeued", message_pk=pk)
            results[pk] = deliver(message_pk=pk)
    return results
