"""The loop guard: the same failing call, repeated in a workflow, is stopped.

It counts this principal's recent failures of one tool with the same arguments in one workflow,
and reads only failures: through the partial index `toolcalllog_failures_idx` (its condition is
`NOT replayed AND status = 'failed'`). The statement is written out once rather than built by
the ORM on every call, for two reasons: building it cost more than running it (about a fifth of
a whole read-tool call), and SQLite uses a partial index only when the query's WHERE names the
index's condition literally, which the ORM's bound parameters never do. A call that starts by
reading its workflow or its idempotency key reads the count beside that row, in the same
statement (`failures_scalar`; tool_runtime.executor): one round trip instead of two.

Failure rows are always written synchronously (tool_runtime.call_log), so the count is exact.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from functools import cache

from django.conf import settings
from django.utils import timezone

from tool_runtime.errors import ToolError
from tool_runtime.models import ToolCallLog, ToolCallStatus
from tool_runtime.rows import Scalar, default_db

# A refusal by the guard itself, or a call still running under its key, is not a new attempt.
NOT_COUNTED = ("IDEMPOTENCY_IN_PROGRESS", "RETRY_LIMIT_EXCEEDED")


@cache
def _statement(vendor: str) -> str:
    del vendor  # cached per database vendor: the quoting is the connection's
    meta = ToolCallLog._meta
    q = default_db().ops.quote_name

    def col(name: str) -> str:
        return q(meta.get_field(name).column)

    # Names come from the model, values are bound; the status literal is the index's condition.
    return (
        f"SELECT 1 FROM {q(meta.db_table)} WHERE {col('workflow_id')} = %s"  # noqa: S608
        f" AND {col('tool')} = %s"
        f" AND {col('arguments_fingerprint')} = %s AND {col('created_at')} >= %s"
        f" AND NOT {col('replayed')} AND {col('status')} = '{ToolCallStatus.FAILED.value}'"
        f" AND {col('principal')} = %s AND {col('error_code')} NOT IN (%s, %s) LIMIT %s"
    )


def _params(
    *, principal: str, tool: str, workflow_id: uuid.UUID, guard_print: str, limit: int
) -> list[object]:
    since = timezone.now() - timedelta(seconds=settings.LOOP_GUARD_WINDOW_SECONDS)
    db = default_db()
    fields = ToolCallLog._meta
    return [
        fields.get_field("workflow_id").get_db_prep_value(workflow_id, db),
        tool,
        guard_print,
        fields.get_field("created_at").get_db_prep_value(since, db),
        principal,
        *NOT_COUNTED,
        limit,
    ]


def recent_failures(
    *, principal: str, tool: str, workflow_id: uuid.UUID, guard_print: str, limit: int
) -> int:
    """How many counted failures there are in the window, up to `limit`."""
    db = default_db()
    params = _params(
        principal=principal,
        tool=tool,
        workflow_id=workflow_id,
        guard_print=guard_print,
        limit=limit,
    )
    with db.cursor() as cursor:
        cursor.execute(_statement(db.vendor), params)
        return len(cursor.fetchall())


def failures_scalar(
    *, principal: str, tool: str, workflow_id: uuid.UUID, guard_print: str
) -> Scalar:
    """The guard's count as a scalar subquery, read beside the call's first row in one
    statement (tool_runtime.rows.one_row_beside); then `refuse_if_looping`."""
    params = _params(
        principal=principal,
        tool=tool,
        workflow_id=workflow_id,
        guard_print=guard_print,
        limit=settings.LOOP_GUARD_MAX_FAILURES,
    )
    sql = f"SELECT COUNT(*) FROM ({_statement(default_db().vendor)}) AS counted"  # noqa: S608
    return Scalar(sql, params)


def refuse_if_looping(*, tool: str, failures: int) -> None:
    most = settings.LOOP_GUARD_MAX_FAILURES
    if failures >= most:
        raise ToolError(
            "RETRY_LIMIT_EXCEEDED",
            f"'{tool}' has failed {most} times with these same arguments "
            "in this workflow. Do not call it again with them: ask the person what to change.",
            details={"window_seconds": settings.LOOP_GUARD_WINDOW_SECONDS},
            next_actions=["ask the person"],
        )
