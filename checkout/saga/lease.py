"""An order's short lease (Order.lease_until): whoever holds it is the one settling the order
with the provider, a sweep or a webhook.

A lease, not a lock, because provider calls are made while holding it and no database lock is
ever held across one. The lease's end time identifies the claim that took it, so a holder that
outlived its lease cannot release the next holder's. Every action taken under a lease is itself
a compare-and-swap or idempotent, so even a lease that ran out cannot do harm.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from checkout.models import Order

LEASE = timedelta(minutes=2)


def _free_or_expired(now: datetime) -> Q:
    return Q(lease_until__isnull=True) | Q(lease_until__lt=now)


def claim_order(*, order_id: object) -> datetime | None:
    """Take the order's lease; its end time identifies this claim. None if someone holds it.
    One conditional UPDATE: no transaction, no row lock."""
    now = timezone.now()
    lease_until = now + LEASE
    taken = (
        Order.objects.filter(pk=order_id)
        .filter(_free_or_expired(now))
        .update(lease_until=lease_until)
    )
    return lease_until if taken else None


def claim_batch(queryset: QuerySet[Order], *, limit: int) -> tuple[list[uuid.UUID], datetime]:
    """Lease up to `limit` orders of `queryset` (oldest first) that nobody holds; returns their
    ids and the lease's end time, which identifies this claim when releasing each.

    Several machines may claim at once: rows are chosen with select_for_update(skip_locked) in a
    short transaction of its own (on PostgreSQL; SQLite serialises writers anyway), so two
    claimers never pick the same order. The transaction ends before this returns: call it
    outside any transaction, and call the provider only after it returned."""
    now = timezone.now()
    lease_until = now + LEASE
    with transaction.atomic():
        ids = list(
            queryset.filter(_free_or_expired(now))
            .order_by("created_at")
            .select_for_update(skip_locked=True, of=("self",))
            .values_list("pk", flat=True)[:limit]
        )
        if ids:
            Order.objects.filter(pk__in=ids).update(lease_until=lease_until)
    return ids, lease_until


def release_order(*, order_id: object, lease_until: datetime) -> None:
    """Release only our own lease: a holder that outlived it must not free another's."""
    Order.objects.filter(pk=order_id, lease_until=lease_until).update(lease_until=None)
