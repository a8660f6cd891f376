"""The saga's step log: one SagaStep row and one structured log line per step.

`checkpoint` is the one place a test makes the process "die": every step calls it through this
module (`step_log.checkpoint(...)`, never a name imported from it), so patching
`checkout.saga.step_log.checkpoint` reaches the saga, the compensations and recovery alike.
"""

from __future__ import annotations

from django.utils import timezone

from checkout.models import Order, SagaStep, SagaStepStatus
from tool_runtime.observability import get_logger

LOGGER = "giftgenius.checkout.saga"  # under the configured "giftgenius" logger


def checkpoint(order_id: object, step: str, status: str) -> None:
    """Reached right after a step's progress was written (committed, except inside
    do_prepare_order's one transaction). Does nothing; tests patch it to make the process "die"
    at exactly this point."""


def log_step(row: SagaStep, order: Order, correlation_id: str) -> None:
    duration = (
        (row.finished_at - row.started_at).total_seconds() * 1000 if row.finished_at else None
    )
    get_logger(LOGGER).info(  # looked up per call so log capture in tests sees it
        "saga_step",
        order_id=str(order.pk),
        workflow_id=str(order.workflow_id) if order.workflow_id else None,
        step=row.step,
        status=row.status,
        attempt=row.attempt,
        error_code=row.error_code or None,
        correlation_id=correlation_id,
        duration_ms=round(duration, 2) if duration is not None else None,
    )


def record_step(
    order: Order,
    step: str,
    status: str,
    *,
    correlation_id: str,
    started_at=None,
    attempt: int | None = None,
    error_code: str = "",
    detail: str = "",
) -> SagaStep:
    """Write one step row (a started row when status is STARTED, else a finished one)."""
    now = timezone.now()
    row = SagaStep.objects.create(
        order=order,
        step=step,
        status=status,
        attempt=attempt or order.saga_attempt,
        error_code=error_code,
        detail=detail[:300],
        correlation_id=correlation_id[:64],
        started_at=started_at or now,
        finished_at=None if status == SagaStepStatus.STARTED else now,
    )
    log_step(row, order, correlation_id)
    return row


def finish_step(
    row: SagaStep,
    order: Order,
    status: str,
    *,
    correlation_id: str,
    error_code: str = "",
    detail: str = "",
) -> None:
    """Close a started row with its outcome."""
    row.status, row.error_code, row.detail, row.finished_at = (
        status,
        error_code,
        detail[:300],
        timezone.now(),
    )
    row.save(update_fields=["status", "error_code", "detail", "finished_at"])
    log_step(row, order, correlation_id)
