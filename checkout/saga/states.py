"""The status groupings and outcome names checkout shares, each defined once."""

from __future__ import annotations

from checkout.models import OrderStatus, PaymentStatus

# --- orders ---------------------------------------------------------------------------------

# An order that still holds (or may still take) the person's stock and money.
LIVE_STATUSES = (
    OrderStatus.DRAFT,
    OrderStatus.PROCESSING,
    OrderStatus.PAYMENT_PENDING,
    OrderStatus.AWAITING_PAYMENT,
)
# Being paid for: claimed by a commit, its charge not yet settled. Awaiting payment is the
# person paying on the provider's page (hosted checkout, 3-D Secure): stock held, and only the
# provider's word (a webhook, a lookup) completes or closes it.
IN_FLIGHT = (OrderStatus.PROCESSING, OrderStatus.PAYMENT_PENDING, OrderStatus.AWAITING_PAYMENT)
# Waiting for the person at the provider: cancelling expires the session there first.
AWAITING = (OrderStatus.AWAITING_PAYMENT,)
# Closed without a sale: compensated, or cancelled.
FINAL_STATUSES = (OrderStatus.FAILED, OrderStatus.CANCELLED)
# What a compensation may still close.
OPEN_STATUSES = (
    OrderStatus.DRAFT,
    OrderStatus.PROCESSING,
    OrderStatus.PAYMENT_PENDING,
    OrderStatus.AWAITING_PAYMENT,
    OrderStatus.COMPLETED,
)

# --- payments -------------------------------------------------------------------------------

# The provider has not settled the charge for us yet: reconciliation asks it again.
UNDECIDED_PAYMENTS = (PaymentStatus.PENDING, PaymentStatus.UNKNOWN)
# The provider captured the money (some or all of it may have gone back since).
CAPTURED_PAYMENTS = (PaymentStatus.SUCCEEDED, PaymentStatus.REFUNDED)
# The declines the provider may name; any other decline is reported as CARD_DECLINED.
DECLINE_CODES = frozenset({"CARD_DECLINED", "INSUFFICIENT_FUNDS"})

# --- how a cancellation or staff rollback ended (RollbackOutcome, the rollback audit) --------

ROLLED_BACK = "rolled_back"
# An order that had failed retryably was closed for good: nothing else to undo, but the person
# can no longer retry it (its confirmation is spent).
CLOSED = "closed_for_good"
ALREADY = "already_rolled_back"
REFUSED = "refused"
ERROR = "error"  # staff rollback only: it crashed, and the audit still records the attempt
