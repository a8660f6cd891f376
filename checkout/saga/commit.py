"""Committing a draft the person confirmed: claim it for payment, then charge the saved card
(checkout.saga.charge) or open the provider's payment page for a new card
(checkout.saga.hosted)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from checkout import selectors
from checkout.errors import RETRYABLE_FAILURES
from checkout.models import Order, OrderStatus, Payment
from checkout.payments.methods import NEW_CARD
from checkout.saga import hosted
from checkout.saga.charge import charge_card
from checkout.saga.draft import reserve_or_fail
from checkout.saga.locks import lock_workflow
from checkout.saga.outcome import SagaOutcome
from checkout.saga.states import CAPTURED_PAYMENTS


def do_commit_order(*, order: Order, correlation_id: str) -> SagaOutcome:
    """Commit a draft (or rerun a retryably failed order): claim → charge_card → complete.

    The caller has checked the confirmation token. When another call got the order first, or
    the order is no longer the workflow's draft, the order is returned as it now is (no error)
    and the caller reports its state. A new card is paid on the provider's page: the order then
    awaits payment (checkout.saga.hosted).

    Locks: call outside any transaction and holding no lock. The claim takes the workflow row
    lock in a short transaction of its own and commits before the provider is called; nothing
    is locked while the charge is at the provider.
    """
    if not claim_for_payment(order):
        return SagaOutcome(Order.objects.get(pk=order.pk), claimed=False)
    if order.status == OrderStatus.FAILED:
        order = Order.objects.get(pk=order.pk)
        sold_out = reserve_or_fail(order=order, correlation_id=correlation_id)
        if sold_out:
            return sold_out
    else:
        order.status = OrderStatus.PROCESSING
    if order.payment_method_id == NEW_CARD:
        return hosted.start_hosted_checkout(order=order, correlation_id=correlation_id)
    return charge_card(order=order, correlation_id=correlation_id)


def claim_for_payment(order: Order) -> bool:
    """Move a draft (or a retryably failed order) to processing, with the language the person
    confirmed in (`order.locale`); False if it may not be paid now.

    Takes the workflow row lock (select_for_update) in its own transaction, then moves the
    order with a conditional UPDATE: the lock order everywhere in checkout. Only the workflow's
    own draft may be claimed: do_prepare_order and a step back hold the same lock while they
    replace or release it.
    """
    with transaction.atomic():
        workflow = lock_workflow(order.workflow_id, with_order=True)
        draft_id = (
            selectors.workflow_order_id(workflow=workflow) if workflow is not None else order.pk
        )
        if order.status == OrderStatus.FAILED:
            # A failed checkout left the workflow without a draft; a newer draft replaces it.
            if draft_id not in (None, order.pk):
                return False
            return bool(
                Order.objects.filter(
                    pk=order.pk,
                    status=OrderStatus.FAILED,
                    failure_code__in=RETRYABLE_FAILURES,
                    confirmation_used_at__isnull=True,
                )
                # A capture that came in after all and was refunded spent the order's provider
                # key: asking again under it would find that (refunded) charge, so no rerun.
                .exclude(
                    Exists(
                        Payment.objects.filter(
                            order=OuterRef("pk"),
                            status__in=CAPTURED_PAYMENTS,
                        )
                    )
                )
                .update(
                    status=OrderStatus.PROCESSING,
                    saga_attempt=F("saga_attempt") + 1,
                    failure_code="",
                    failure_message="",
                    locale=order.locale,
                )
            )
        if draft_id != order.pk:
            return False
        # The digest the caller checked the token against: a draft re-priced since (which
        # rotates its token) is not claimed, so what is charged is the total the person saw.
        return bool(
            Order.objects.filter(
                pk=order.pk,
                status=OrderStatus.DRAFT,
                expires_at__gt=timezone.now(),
                confirmation_used_at__isnull=True,
                confirmation_token_digest=order.confirmation_token_digest,
            ).update(
                status=OrderStatus.PROCESSING,
                locale=order.locale,
                # An agent's completes may race with different tokens: the winner's is kept.
                payment_method_id=order.payment_method_id,
            )
        )
