"""What one tool call answers, for every transport: the shaped body, the widget-only meta, and
the HTTP status; and the canonical JSON that keys and the loop guard fingerprint."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import orjson
from django.db import InterfaceError, OperationalError

from tool_runtime.errors import ToolError
from tool_runtime.registry import WIDGET_SECRET_META_KEYS
from tool_runtime.workflows import Workflow


@dataclass
class ToolOutcome:
    """The shaped result: `body` is what the model sees, `meta` only the widget."""

    tool: str
    body: dict[str, Any]
    meta: dict[str, Any]
    http_status: int
    correlation_id: str
    replayed: bool = False
    extra_headers: dict[str, str] = field(default_factory=dict)
    # The workflow as the tool left it, for the widget's redraw; None after a replay or a failure.
    workflow: Workflow | None = field(default=None, repr=False, compare=False)
    # False: an answer reporting a state that may still change (ToolResult.final, ToolError.final).
    final: bool = True

    @property
    def ok(self) -> bool:
        return bool(self.body.get("ok"))

    @property
    def error(self) -> dict[str, Any] | None:
        return self.body.get("error")


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str, ensure_ascii=False)


def fingerprint(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()


def error_body(error: ToolError) -> dict[str, Any]:
    return {"ok": False, "error": error.to_dict()}


def error_outcome(*, name: str, error: ToolError, correlation_id: str) -> ToolOutcome:
    return ToolOutcome(
        name, error_body(error), {}, error.spec.http_status, correlation_id, final=error.final
    )


def internal_error_outcome(*, name: str, correlation_id: str) -> ToolOutcome:
    """What a call that failed unexpectedly answers: no internals, the correlation id to quote."""
    internal = ToolError(
        "INTERNAL_ERROR",
        "The server failed unexpectedly. Retry once; if it fails again, tell the person and "
        "quote the correlation id.",
        details={"correlation_id": correlation_id},
    )
    return ToolOutcome(
        name, error_body(internal), {"correlation_id": correlation_id}, 500, correlation_id
    )


# Seconds a client is told to wait before retrying a call the database could not serve.
RETRY_AFTER_SECONDS = 5


def is_outage(exc: BaseException) -> bool:
    """The database could not be reached (not: it refused a statement, which is a bug)."""
    return isinstance(exc, OperationalError | InterfaceError)


def unavailable_error(correlation_id: str) -> ToolError:
    return ToolError(
        "SERVICE_UNAVAILABLE",
        f"GiftGenius cannot reach its database right now. Retry the same call in "
        f"{RETRY_AFTER_SECONDS} seconds; nothing was changed that a retry would repeat.",
        details={"correlation_id": correlation_id, "retry_after_seconds": RETRY_AFTER_SECONDS},
    )


def unavailable_outcome(*, name: str, correlation_id: str) -> ToolOutcome:
    """What a call answers while the database is unreachable: retryable, after a pause."""
    error = unavailable_error(correlation_id)
    return ToolOutcome(
        name,
        error_body(error),
        {"correlation_id": correlation_id},
        503,
        correlation_id,
        extra_headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


class SecretLeakError(RuntimeError):
    """A widget-only secret reached what the model sees; the call fails closed."""


def refuse_leaked_secrets(outcome: ToolOutcome) -> None:
    visible = orjson.dumps(outcome.body, default=str, option=orjson.OPT_NON_STR_KEYS).decode()
    secrets = [outcome.meta.get(key) for key in WIDGET_SECRET_META_KEYS]
    leaked = any(isinstance(s, str) and s and s in visible for s in secrets)
    # In compact JSON an unescaped `"name":` is only ever a key (a quote inside a string is
    # escaped), so this finds a secret's key at any depth without walking the body again; a key
    # that merely contains an escaped quote before the name is refused too (fails closed).
    if leaked or any(f'"{key}":' in visible for key in WIDGET_SECRET_META_KEYS):
        raise SecretLeakError(f"{outcome.tool}: a widget-only secret is model-visible")
