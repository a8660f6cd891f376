"""Structured JSON logs (structlog) and the per-call record that metrics and the loop guard read."""

from __future__ import annotations

import re
import uuid
from typing import Any

import orjson
import structlog

_CORRELATION_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")  # fullmatch: `$` lets a final newline in


def _json_line(event: dict[str, Any], **options: Any) -> str:
    """One log line: orjson, compact UTF-8 (structlog's fallback handler for other objects;
    keys that are not strings written as strings, as json.dumps does)."""
    return orjson.dumps(
        event, default=options.get("default"), option=orjson.OPT_NON_STR_KEYS
    ).decode()


def configure_logging() -> None:
    structlog.configure(
        processors=[
            # A line below the logger's level is dropped before any other work (every tool
            # call logs one at INFO; rendering it for the stdlib logger to discard was wasted).
            structlog.stdlib.filter_by_level,
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(serializer=_json_line),
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def get_logger(name: str) -> Any:
    return structlog.get_logger(name)


def correlation_id_from(candidate: Any) -> str:
    """Use the caller's correlation id when it is well-formed, otherwise mint one."""
    if isinstance(candidate, str) and _CORRELATION_ID.fullmatch(candidate):
        return candidate
    return uuid.uuid4().hex
