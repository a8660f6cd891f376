"""Structured JSON logs (structlog) and the per-call record that metrics and the loop guard read."""

from __future__ import annotations

import re
import uuid
from typing import Any

import structlog

_CORRELATION_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


def configure_logging() -> None:
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def get_logger(name: str) -> Any:
    return structlog.get_logger(name)


def correlation_id_from(candidate: Any) -> str:
    """Use the caller's correlation id when it is well-formed, otherwise mint one."""
    if isinstance(candidate, str) and _CORRELATION_ID.match(candidate):
        return candidate
    return uuid.uuid4().hex
