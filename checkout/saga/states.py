"""Groupings of order statuses the saga, its compensations and their callers share, each
defined once."""

from __future__ import annotations

from checkout.models import OrderStatus

# An order that still holds (or may still take) the person's stock and money.
LIVE_STATUSES = (OrderStatus.DRAFT, OrderStatus.PROCESSING, OrderStatus.PAYMENT_PENDING)
# Being paid for: claimed by a commit, its charge not yet settled.
IN_FLIGHT = (OrderStatus.PROCESSING, OrderStatus.PAYMENT_PENDING)
# Closed without a sale: compensated, or cancelled.
FINAL_STATUSES = (OrderStatus.FAILED, OrderStatus.CANCELLED)
# What a compensation may still close.
OPEN_STATUSES = (
    OrderStatus.DRAFT,
    OrderStatus.PROCESSING,
    OrderStatus.PAYMENT_PENDING,
    OrderStatus.COMPLETED,
)

# The declines the provider may name; any other decline is reported as CARD_DECLINED.
DECLINE_CODES = frozenset({"CARD_DECLINED", "INSUFFICIENT_FUNDS"})
