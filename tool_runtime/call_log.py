"""Writing the per-call log row (ToolCallLog) without making every read pay an INSERT.

A successful, first-time call of a read-only tool is only counted by the metrics, so its row may
wait in a small per-process batch, written whole in one transaction
(tool_runtime.rows.insert_rows) when it reaches `CALL_LOG_BATCH_SIZE` rows, by a
background flusher every `CALL_LOG_FLUSH_SECONDS`, when the app shuts down (the ASGI lifespan,
and at interpreter exit), and before this process's metrics, dashboard and alert rules read
the log. Each row keeps the time of its call.

Every other row is written before the call returns: a write tool's, a failure's (the loop
guard counts failures, so it stays exact), a replay's. A crash (SIGKILL, power loss) can lose
only batched rows: fewer than twice CALL_LOG_BATCH_SIZE of them (a full batch being written plus
a batch filling meanwhile), none older than CALL_LOG_FLUSH_SECONDS plus one batch's write.

A row the database refuses never takes the others with it: a refused batch is written again row
by row. A call whose row cannot be written at all (a database outage, a value no column can
hold) is still seen outside the database: an error-level `tool_call_not_recorded` log line and
the process's `giftgenius_tool_calls_unrecorded_total` counter (on /metrics) at once, and an
`UnrecordedToolCall` row, which the alert rules read, as soon as the database takes writes.
"""

from __future__ import annotations

import atexit
import threading
import time
from typing import Any

from django.conf import settings
from django.db import (
    DatabaseError,
    InterfaceError,
    OperationalError,
    close_old_connections,
    transaction,
)
from django.db.models import QuerySet
from django.utils import timezone
from prometheus_client import Counter

from tool_runtime.models import ToolCallLog, UnrecordedToolCall
from tool_runtime.observability import get_logger
from tool_runtime.rows import insert_rows

log = get_logger("tool_runtime.call_log")

_lock = threading.Lock()
_pending: list[dict[str, Any]] = []
_flusher: threading.Thread | None = None
# Unrecorded calls waiting for the database to take their UnrecordedToolCall rows (bounded:
# an outage longer than this many calls keeps only the counter and the log lines).
_untallied: list[dict[str, Any]] = []
MAX_UNTALLIED = 10_000

# Process-local, outside the database by design: /metrics serves it even while the database is
# down (prometheus_client's own registry is not used; giftgenius.operations adds it to its own).
UNRECORDED = Counter(
    "giftgenius_tool_calls_unrecorded",
    "Tool calls whose log row could not be written, since this process started.",
    labelnames=["tool"],
    registry=None,
)


def write(*, fields: dict[str, Any], deferrable: bool) -> None:
    """Insert the row now, or (when `deferrable` and batching is on) with the next batch."""
    # created_at is the call's time, whenever the row is written.
    row = {"created_at": timezone.now(), **fields}
    if not deferrable or settings.CALL_LOG_BATCH_SIZE <= 1:
        _insert(rows=[row])
        return
    with _lock:
        _pending.append(row)
        full = len(_pending) >= settings.CALL_LOG_BATCH_SIZE
    if full:
        flush()
    else:
        _start_flusher()


def flush() -> int:
    """Write every batched row now (one statement for all); returns how many were written."""
    with _lock:
        rows = _pending[:]
        _pending.clear()
    return _insert(rows=rows) if rows else 0


def _insert(*, rows: list[dict[str, Any]]) -> int:
    """Write `rows` (together when the database takes them all); returns how many were written.
    Never raises: a row that cannot be written is counted and logged as not recorded."""
    try:
        insert_rows(ToolCallLog, rows=rows)
    except Exception as exc:
        if len(rows) == 1 or isinstance(exc, OperationalError | InterfaceError):
            # An outage refuses every row alike: not retried, so it cannot grow memory either.
            for row in rows:
                not_recorded(
                    tool=row["tool"], correlation_id=row.get("correlation_id", ""), exc=exc
                )
            return 0
        return sum(_insert_alone(row) for row in rows)
    if _untallied:
        _write_tallies()  # the database takes writes again
    return len(rows)


def _insert_alone(row: dict[str, Any]) -> int:
    try:
        with transaction.atomic():  # a savepoint: a refused row leaves an outer transaction usable
            insert_rows(ToolCallLog, rows=[row])
    except Exception as exc:
        not_recorded(tool=row["tool"], correlation_id=row.get("correlation_id", ""), exc=exc)
        return 0
    return 1


def not_recorded(*, tool: str, correlation_id: str, exc: BaseException) -> None:
    """A call whose row cannot be written: log it and count it now, tally it in the database
    when it can be."""
    log.error(
        "tool_call_not_recorded",
        tool=tool,
        correlation_id=correlation_id,
        reason=type(exc).__name__,
        exc_info=exc,
    )
    UNRECORDED.labels(tool=tool).inc()
    with _lock:
        if len(_untallied) < MAX_UNTALLIED:
            _untallied.append(
                {"created_at": timezone.now(), "tool": tool, "correlation_id": correlation_id}
            )
    if not isinstance(exc, OperationalError | InterfaceError):
        _write_tallies()  # the database is up: it refused the row, not the write


def _write_tallies() -> None:
    with _lock:
        tallies = _untallied[:]
        _untallied.clear()
    if not tallies:
        return
    try:
        with transaction.atomic():
            insert_rows(UnrecordedToolCall, rows=tallies)
    except DatabaseError:
        with _lock:  # kept for the next write the database takes
            _untallied[:0] = tallies[: MAX_UNTALLIED - len(_untallied)]


def untallied() -> list[dict[str, Any]]:
    """Unrecorded calls this process has not yet tallied in the database."""
    with _lock:
        return _untallied[:]


def pending() -> int:
    with _lock:
        return len(_pending)


def discard() -> None:
    """Forget batched rows and tallies without writing them (tests: a rolled-back test's rows)."""
    with _lock:
        _pending.clear()
        _untallied.clear()


def logged_calls() -> QuerySet[ToolCallLog]:
    """Every logged call, this process's batch included: what the metrics and alerts read."""
    flush()
    return ToolCallLog.objects.all()


def _start_flusher() -> None:
    global _flusher
    interval = settings.CALL_LOG_FLUSH_SECONDS
    if interval <= 0 or (_flusher is not None and _flusher.is_alive()):
        return
    with _lock:
        if _flusher is not None and _flusher.is_alive():
            return
        _flusher = threading.Thread(
            target=_flush_forever, args=(interval,), name="call-log-flusher", daemon=True
        )
        _flusher.start()


def _flush_forever(interval: float) -> None:
    while interval > 0:  # a setting of 0 (tests) stops the flusher at its next wake-up
        time.sleep(interval)
        interval = settings.CALL_LOG_FLUSH_SECONDS
        close_old_connections()  # this thread's connection may have been closed by the server
        flush()


atexit.register(flush)
