"""A hook for what follows an order's change (confirmed, shipped, delivered, refunded,
cancelled): the layers that make the change call `changed` inside its transaction, and what
must follow it (an agent's order events) listens without their importing it.

A listener writes what it needs in the same transaction (an outbox message), so it exists if
and only if the change committed."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from enum import StrEnum


class OrderChange(StrEnum):
    CONFIRMED = "confirmed"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    REFUNDED = "refunded"
    CANCELLED = "cancelled"


# Called with the order id, the change, and what tells one change of that kind from another
# (a refund's payment and amount); empty for changes an order makes once.
Listener = Callable[[uuid.UUID, OrderChange, str], None]
_listeners: list[Listener] = []


def listen(listener: Listener) -> None:
    """Add a listener (once, from an AppConfig.ready)."""
    if listener not in _listeners:
        _listeners.append(listener)


def changed(*, order_id: uuid.UUID, change: OrderChange, detail: str = "") -> None:
    """Tell the listeners; call inside the transaction that made the change, after it."""
    for listener in _listeners:
        listener(order_id, change, detail)
