"""The five ACP operations as one entry for both transports (REST and the MCP tools): run an
operation under the protocol's idempotency policy and answer (status, body) as ACP shapes it.

Idempotency (the ACP RFC §6) on the tools' one key store: a key is scoped to the caller and the
endpoint path, every answer below 500 is kept and replayed, a 5xx (an exception here) keeps
nothing, so the retry runs afresh.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from checkout.agentic import sessions
from checkout.agentic.errors import AcpError, not_found
from tool_runtime import idempotency
from tool_runtime.errors import ToolError

MAX_KEY_LENGTH = 255
RETRY_AFTER_SECONDS = 2


@dataclass
class Answer:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    replayed: bool = False


def check_version(version: str | None) -> None:
    supported = ", ".join(settings.ACP_SUPPORTED_VERSIONS)
    if not version:
        raise AcpError(
            400,
            "missing_api_version",
            f"The API-Version is required; supported versions: {supported}.",
        )
    if version not in settings.ACP_SUPPORTED_VERSIONS:
        raise AcpError(
            400,
            "unsupported_api_version",
            f"API-Version {version[:40]!r} is not supported; supported versions: {supported}.",
        )


def endpoint_path(operation: str, session_id: str = "") -> str:
    """The REST path of an operation: what a key is scoped to on either transport."""
    if operation == "create":
        return "/checkout_sessions"
    suffix = {"update": "", "get": "", "complete": "/complete", "cancel": "/cancel"}[operation]
    return f"/checkout_sessions/{session_id}{suffix}"


def answer(
    *,
    principal: AbstractBaseUser,
    operation: str,
    session_id: str = "",
    body: Any = None,
    idempotency_key: str | None,
    correlation_id: str,
    locale: str = "en",
) -> Answer:
    """Run `operation` for `principal` (under its key when one is given; `get` takes none)."""
    if session_id and not sessions.SESSION_ID.fullmatch(session_id):
        # Not an id we could have made: answered, as an unknown one, before anything reads it
        # or stores a key.
        unknown = not_found(session_id)
        return Answer(unknown.status, unknown.body())
    if operation == "get" or idempotency_key is None:
        return _run(principal, operation, session_id, body, correlation_id, locale)
    if not idempotency_key:
        raise AcpError(
            400,
            "idempotency_key_required",
            "Idempotency-Key header is required on all POST requests.",
        )
    if len(idempotency_key) > MAX_KEY_LENGTH:
        raise AcpError(400, "invalid", f"Idempotency-Key is at most {MAX_KEY_LENGTH} characters.")
    try:
        found = idempotency.replay_or_claim_request(
            principal=principal,
            surface=_surface(endpoint_path(operation, session_id)),
            key=idempotency_key,
            body=body,
            correlation_id=correlation_id,
        )
    except ToolError as refused:
        raise _key_refusal(refused) from None
    if isinstance(found, idempotency.StoredAnswer):
        return Answer(found.status, found.body, replayed=True)
    try:
        done = _run(principal, operation, session_id, body, correlation_id, locale)
    except Exception:
        idempotency.release(found)  # a 5xx is never stored: the retry runs afresh
        raise
    idempotency.settle_request(found, status=done.status, body=done.body)
    return done


def _run(
    principal: AbstractBaseUser,
    operation: str,
    session_id: str,
    body: Any,
    correlation_id: str,
    locale: str,
) -> Answer:
    runs: dict[str, Callable[[], dict[str, Any]]] = {
        "create": lambda: sessions.create_session(
            owner=principal, body=body, correlation_id=correlation_id, locale=locale
        ),
        "get": lambda: sessions.get_session(owner=principal, session_id=session_id),
        "update": lambda: sessions.update_session(
            owner=principal, session_id=session_id, body=body, correlation_id=correlation_id
        ),
        "complete": lambda: sessions.complete_session(
            owner=principal, session_id=session_id, body=body, correlation_id=correlation_id
        ),
        "cancel": lambda: sessions.cancel_session(
            owner=principal, session_id=session_id, correlation_id=correlation_id, body=body
        ),
    }
    try:
        return Answer(201 if operation == "create" else 200, runs[operation]())
    except AcpError as refused:
        return Answer(refused.status, refused.body(), refused.headers)


def _surface(path: str) -> str:
    surface = "acp:" + path
    return (
        surface if len(surface) <= 64 else "acp:" + hashlib.sha256(path.encode()).hexdigest()[:56]
    )


def _key_refusal(refused: ToolError) -> AcpError:
    if refused.code == "IDEMPOTENCY_KEY_REUSED":
        return AcpError(
            422,
            "idempotency_conflict",
            "Idempotency-Key has already been used with a different request body.",
        )
    return AcpError(
        409,
        "idempotency_in_flight",
        "A request with this Idempotency-Key is currently being processed.",
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )
