"""Staff rollbacks from the admin: run the compensation per order and audit every attempt.

The compensation itself (refund if charged → release the reservation → cancel) lives in
checkout.saga.compensation and is idempotent; this service adds who/why and the append-only audit.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from checkout.models import RollbackAuditEntry
from checkout.saga.states import ERROR, ROLLED_BACK
from tool_runtime.observability import get_logger

log = get_logger("checkout.rollback")

AUDIT_DETAIL_MAX = RollbackAuditEntry._meta.get_field("detail").max_length


@dataclass(frozen=True)
class RollbackReport:
    order_id: uuid.UUID
    outcome: str  # rolled_back | closed_for_good | already_rolled_back | refused | error
    detail: str


def roll_back_orders(
    *, order_ids: Iterable[uuid.UUID], reason: str, actor: AbstractBaseUser
) -> list[RollbackReport]:
    """Roll back each order independently: one refusal or failure never stops the others."""
    from checkout.saga.cancellation import roll_back_order

    reason = reason.strip()
    if not reason:
        raise ValueError("a rollback needs a reason")
    reports = []
    for order_id in order_ids:
        try:
            result = roll_back_order(order_id=order_id, reason=reason, actor=actor.get_username())
            outcome, detail = str(result.outcome), str(result.detail or "")
        except Exception:
            # The audit must still say the attempt happened; staff get an id to find the log line.
            correlation_id = uuid.uuid4().hex
            log.exception(
                "order_rollback_crashed", order_id=str(order_id), correlation_id=correlation_id
            )
            outcome = ERROR
            detail = f"Unexpected error; quote correlation id {correlation_id} to engineering."
        RollbackAuditEntry.objects.create(
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
