"""An order's short lease (Order.lease_until): whoever holds it is the one settling the
order with the provider, a sweep or a webhook. A lease, not a lock, because provider calls
are made while holding it and no database lock is ever held across one."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from checkout.models import Order

LEASE = timedelta(minutes=2)


def free_or_expired(now: datetime) -> Q:
    return Q(lease_until__isnull=True) | Q(lease_until__lt=now)


def claim_order(*, order_id: object) -> datetime | None:
    """Take the order's lease; its end time identifies this claim. None if someone holds it."""
    now = timezone.now()
    lease_until = now + LEASE
    taken = (
        Order.objects.filter(pk=order_id)
        .filter(free_or_expired(now))
        .update(lease_until=lease_until)
    )
    return lease_until if taken else None


def release_order(*, order_id: object, lease_until: datetime) -> None:
    """Release only our own lease: a holder that outlived it must not free another's."""
    Order.objects.filter(pk=order_id, lease_until=lease_until).update(lease_until=None)
