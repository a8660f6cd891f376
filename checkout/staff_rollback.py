"""Staff roll orders back from the admin: the same cancellation as the person's cancel_order
(checkout.saga.cancellation), each order on its own, every attempt audited."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from checkout.models import FulfilmentStatus, Order, OrderAuditEntry
from checkout.saga import cancellation
from checkout.saga.cancellation import RollbackOutcome
from checkout.saga.states import ERROR, REFUSED, ROLLED_BACK
from tool_runtime.observability import get_logger

log = get_logger("checkout.rollback")

AUDIT_DETAIL_MAX = OrderAuditEntry._meta.get_field("detail").max_length


@dataclass(frozen=True)
class RollbackReport:
    order_id: uuid.UUID
    outcome: str  # rolled_back | closed_for_good | already_rolled_back | refused | error
    detail: str


def roll_back_order(
    *, order_id: object, reason: str, actor: str, shipped_confirmed: bool = False
) -> RollbackOutcome:
    """Staff rollback of one order: the same cancellation as cancel_order, refusals included.
    A gift already shipped is rolled back only when staff confirmed they know it was."""
    order = Order.objects.filter(pk=order_id).first()
    if order is None:
        return RollbackOutcome(REFUSED, "There is no such order.", code="NOT_FOUND")
    if order.fulfilment_status != FulfilmentStatus.UNFULFILLED and not shipped_confirmed:
        return RollbackOutcome(
            REFUSED,
            f"It was {order.fulfilment_status} ({order.carrier} {order.tracking_number}); "
            "confirm that it was shipped to roll it back.",
            code="ORDER_ALREADY_SHIPPED",
        )
    return cancellation.do_cancel_order(
        order=order, reason=reason, actor=actor, correlation_id=uuid.uuid4().hex
    )


def roll_back_orders(
    *,
    order_ids: Iterable[uuid.UUID],
    reason: str,
    actor: AbstractBaseUser,
    shipped_confirmed: bool = False,
) -> list[RollbackReport]:
    """Staff rollback from the admin: roll back each order independently (one refusal or
    failure never stops the others) and audit every attempt, append-only, with who and why."""
    reason = reason.strip()
    if not reason:
        raise ValueError("a rollback needs a reason")
    reports = []
    for order_id in order_ids:
        try:
            result = roll_back_order(
                order_id=order_id,
                reason=reason,
                actor=actor.get_username(),
                shipped_confirmed=shipped_confirmed,
            )
            outcome, detail = str(result.outcome), str(result.detail or "")
        except Exception:
            # The audit must still say the attempt happened; staff get an id to find the log line.
            correlation_id = uuid.uuid4().hex
            log.exception(
                "order_rollback_crashed", order_id=str(order_id), correlation_id=correlation_id
            )
            outcome = ERROR
            detail = f"Unexpected error; quote correlation id {correlation_id} to engineering."
        OrderAuditEntry.objects.create(
            actor=actor,
            order_id=order_id,
            reason=reason,
            outcome=outcome,
            detail=detail[:AUDIT_DETAIL_MAX],
        )
        log.info(
            "order_rollback",
            order_id=str(order_id),
            actor=actor.get_username(),
            outcome=outcome,
            status="rolled_back" if outcome == ROLLED_BACK else outcome,
        )
        reports.append(RollbackReport(order_id=order_id, outcome=outcome, detail=detail))
    return reports
