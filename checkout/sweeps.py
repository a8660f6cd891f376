"""Background sweeps: one pass expires stale drafts, recovers stuck sagas, reconciles pending
payments, delivers the outbox's due messages (provider events to apply, e-mails to send), and purges expired idempotency
keys and expired QA preview API tokens.

Safe on several machines at once: each batch of orders is leased (checkout.saga.lease), the
claim's transaction ends, and only then is the provider called: no lock is ever held across a
provider call. Every action on a leased order is itself a compare-and-swap or idempotent, so
even a lease that ran out cannot do harm.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from checkout import outbox
from checkout.models import Order, OrderStatus, Payment, PaymentStatus, SagaStep
from checkout.payments.provider import ProviderError
from checkout.saga import compensation, hosted, lease, recovery
from checkout.saga.states import FINAL_STATUSES, UNDECIDED_PAYMENTS
from gifts.models import Step
from tool_runtime.idempotency import purge_expired_keys
from tool_runtime.observability import get_logger
from tool_runtime.principals import purge_expired_api_tokens

LOGGER = "giftgenius.checkout.sweeps"

BATCH = 100
DEFAULT_OLDER_THAN_SECONDS = 120.0


@dataclass
class SweepReport:
    expired: int = 0  # drafts whose hold lapsed, cancelled and their stock released
    abandoned: int = 0  # drafts a crashed prepare_order left behind, cancelled
    recovered: int = 0  # stuck sagas completed or compensated
    reconciled: int = 0  # undecided payments and overdue payment pages settled with the provider
    purged: int = 0  # expired idempotency keys deleted
    purged_tokens: int = 0  # expired (QA preview) API tokens deleted
    outbox_delivered: int = 0  # outbox messages delivered (webhook events applied, e-mails sent)
    outbox_parked: int = 0  # outbox messages that failed their last try, parked for a person
    errors: int = 0  # orders that could not be handled this pass (left for the next one)

    def summary(self) -> str:
        return (
            f"sweep: expired={self.expired} abandoned={self.abandoned} recovered={self.recovered} "
            f"reconciled={self.reconciled} "
            f"purged_keys={self.purged} purged_tokens={self.purged_tokens} "
            f"outbox_delivered={self.outbox_delivered} outbox_parked={self.outbox_parked} "
            f"errors={self.errors}"
        )


def run_sweeps(*, older_than_seconds: float = DEFAULT_OLDER_THAN_SECONDS) -> SweepReport:
    """One pass of every sweep."""
    cid = f"sweep-{uuid.uuid4().hex[:12]}"
    report = SweepReport()
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    report.expired = _each(
        expired_drafts(),
        lambda o: compensation.expire_draft(order_id=o.pk, correlation_id=cid),
        report,
    )
    report.abandoned = _each(
        abandoned_drafts(cutoff),
        lambda o: compensation.do_release_draft(
            order_id=o.pk,
            reason="Abandoned: the order was never fully prepared.",
            correlation_id=cid,
        ),
        report,
    )
    report.recovered = _each(
        stuck_orders(cutoff), lambda o: recovery.recover_order(o, correlation_id=cid), report
    )
    report.reconciled = _each(
        undecided_payments(), lambda o: recovery.reconcile_order(o, correlation_id=cid), report
    )
    report.reconciled += _each(
        overdue_payment_pages(),
        lambda o: hosted.settle_hosted_checkout(order=o, correlation_id=cid),
        report,
    )
    delivered = outbox.deliver_due()
    report.outbox_delivered, report.outbox_parked = delivered.delivered, delivered.parked
    report.purged = purge_expired_keys()
    report.purged_tokens = purge_expired_api_tokens()
    get_logger(LOGGER).info("sweep_pass", correlation_id=cid, **report.__dict__)
    return report


# --- what each sweep looks for -------------------------------------------------------------------


def expired_drafts() -> QuerySet[Order]:
    return Order.objects.filter(status=OrderStatus.DRAFT, expires_at__lte=timezone.now())


def _active_since(cutoff) -> Exists:
    return Exists(
        SagaStep.objects.filter(order=OuterRef("pk")).filter(
            Q(started_at__gt=cutoff) | Q(finished_at__gt=cutoff)
        )
    )


def abandoned_drafts(cutoff) -> QuerySet[Order]:
    """Drafts that are not their workflow's current order (a newer order replaced them, or
    the workflow is not at checkout): prepare_order died before holding the stock."""
    newer = Order.objects.filter(
        workflow=OuterRef("workflow"), created_at__gt=OuterRef("created_at")
    )
    return (
        Order.objects.filter(status=OrderStatus.DRAFT)
        .exclude(_active_since(cutoff))
        .exclude(Q(workflow__current_step=Step.CHECKOUT) & ~Exists(newer))
    )


def stuck_orders(cutoff) -> QuerySet[Order]:
    """Sagas and compensations a dead process left half-way, quiet since `cutoff`."""
    payments = Payment.objects.filter(order=OuterRef("pk"))
    refund_started = SagaStep.objects.filter(order=OuterRef("pk"), step="refund", status="started")
    return Order.objects.filter(
        Q(status=OrderStatus.PROCESSING)
        # a cancellation that refunded (or began to) but did not close the order
        | Q(status=OrderStatus.COMPLETED)
        & (Exists(payments.filter(status=PaymentStatus.REFUNDED)) | Exists(refund_started))
        # a closed order that still holds captured money
        | Q(status__in=FINAL_STATUSES) & Exists(payments.filter(status=PaymentStatus.SUCCEEDED))
    ).exclude(_active_since(cutoff))


def undecided_payments() -> QuerySet[Order]:
    """Orders (not mid-saga, nor on a payment page) with a charge whose outcome the provider
    has not settled for us."""
    return Order.objects.exclude(
        status__in=(OrderStatus.PROCESSING, OrderStatus.AWAITING_PAYMENT)
    ).filter(Exists(Payment.objects.filter(order=OuterRef("pk"), status__in=UNDECIDED_PAYMENTS)))


def overdue_payment_pages() -> QuerySet[Order]:
    """Orders awaiting payment on the provider's page for HOSTED_CHECKOUT_RECONCILE_SECONDS
    or past their hold: asked afresh, in case the provider's event was lost."""
    opened_before = timezone.now() - timedelta(seconds=settings.HOSTED_CHECKOUT_RECONCILE_SECONDS)
    return Order.objects.filter(status=OrderStatus.AWAITING_PAYMENT).filter(
        Q(expires_at__lte=timezone.now())
        | Exists(Payment.objects.filter(order=OuterRef("pk"), created_at__lte=opened_before))
    )


def _each(queryset: QuerySet[Order], action: Callable[[Order], object], report: SweepReport) -> int:
    """Claim a batch, act on each order (outside the claim's transaction), release the lease."""
    done = 0
    claimed, lease_until = lease.claim_batch(queryset, limit=BATCH)
    for order_id in claimed:
        try:
            order = Order.objects.get(pk=order_id)
            if queryset.filter(
                pk=order_id
            ).exists():  # still needs it (another pass may have acted)
                action(order)
                done += 1
        except (ProviderError, compensation.RefundFailed):
            report.errors += 1  # the provider is unreachable: the next pass tries again
            get_logger(LOGGER).warning("sweep_order_deferred", order_id=str(order_id))
        except Exception:
            report.errors += 1
            get_logger(LOGGER).exception("sweep_order_failed", order_id=str(order_id))
        finally:
            lease.release_order(order_id=order_id, lease_until=lease_until)
    return done
