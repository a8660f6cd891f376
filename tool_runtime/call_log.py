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
"""

from __future__ import annotations

import atexit
import threading
import time
from typing import Any

from django.conf import settings
from django.db import close_old_connections
from django.db.models import QuerySet
from django.utils import timezone

from tool_runtime.models import ToolCallLog
from tool_runtime.observability import get_logger
from tool_runtime.rows import insert_rows

log = get_logger("tool_runtime.call_log")

_lock = threading.Lock()
_pending: list[dict[str, Any]] = []
_flusher: threading.Thread | None = None


def write(*, fields: dict[str, Any], deferrable: bool) -> None:
    """Insert the row now, or (when `deferrable` and batching is on) with the next batch."""
    # created_at is the call's time, whenever the row is written.
    row = {"created_at": timezone.now(), **fields}
    if not deferrable or settings.CALL_LOG_BATCH_SIZE <= 1:
        insert_rows(ToolCallLog, rows=[row])
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
    if not rows:
        return 0
    try:
        insert_rows(ToolCallLog, rows=rows)
    except Exception:
        # Rows of read calls only (never a write's or a failure's): counted as lost, not retried
        # forever, so a broken database cannot grow this process's memory without bound.
        log.exception("call_log_rows_lost", rows=len(rows))
        return 0
    return len(rows)


def pending() -> int:
    with _lock:
        return len(_pending)


def discard() -> None:
    """Forget batched rows without writing them (tests: a rolled-back test's rows)."""
    with _lock:
        _pending.clear()


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
