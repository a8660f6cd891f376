"""Idempotency keys for tools with side effects.

A key is scoped to (principal, tool, key) and bound to a fingerprint of the arguments. The
first call (finding no row) inserts it (the unique constraint makes exactly one caller win, on PostgreSQL
and SQLite alike), runs, and stores the result as JSON text; later calls replay it. Taking over
a row (stale lock, retryable failure, expiry) is a compare-and-swap on `runs`, so exactly one
taker wins there too.

A key never stores an answer whose state may still change (ToolResult.final or ToolError.final
is False: an order still being paid, or a refusal to cancel it meanwhile). Its row then says so (AWAITING_FINAL), and each repeat reads the answer
afresh (ToolSpec.current_answer) until it is final; the first final answer read is stored, and
every later repeat replays it unchanged.
"""

from __future__ import annotations

import base64
import json
import uuid
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from pydantic import BaseModel

from tool_runtime.errors import ToolError
from tool_runtime.models import IdempotencyKey, IdempotencyStatus
from tool_runtime.observability import get_logger
from tool_runtime.outcome import ToolOutcome, fingerprint
from tool_runtime.principals import principal_label
from tool_runtime.registry import WIDGET_SECRET_META_KEYS, ToolContext, ToolSpec
from tool_runtime.rows import Scalar, one_row, one_row_beside

KEY_FIELD = "idempotency_key"
# A refusal by the step gate (the handler re-checks the step under its lock) ran nothing, so it
# is not remembered under the key; nor is a validation error.
NOT_REMEMBERED = frozenset({"TOOL_NOT_AVAILABLE_IN_STEP"})
# A widget secret (the confirmation token) is stored as {"sealed": <Fernet token>}.
SEALED_META_KEY = "sealed"
KEY_EXPECTED = (
    "8 to 200 characters: letters A-Z or a-z, digits 0-9, '_' or '-' (a new UUID for each "
    "user action is ideal)"
)

log = get_logger("tool_runtime.idempotency")


@dataclass(frozen=True)
class Claim:
    pk: int
    runs: int


@dataclass(frozen=True)
class Unsettled:
    """The key's call was answered with a state that may still change: read it afresh, then
    `settle_current`."""

    pk: int
    runs: int


def arguments_fingerprint(args: BaseModel) -> str:
    return fingerprint({k: v for k, v in args.model_dump(mode="json").items() if k != KEY_FIELD})


@dataclass(frozen=True)
class KeyRead:
    """A key's row as the executor already read it (with the loop guard's count, one statement):
    `row` is None when no row had that key."""

    key: str
    row: IdempotencyKey | None


def read_key_beside(*, principal: str, tool: str, key: str, scalar: Scalar) -> tuple[KeyRead, Any]:
    """The key's row and the value of `scalar`, in one statement: a replay's only read."""
    row, value = one_row_beside(IdempotencyKey, scalar, principal=principal, tool=tool, key=key)
    return KeyRead(key, row), value


def replay_or_claim(
    *, spec: ToolSpec, args: BaseModel, context: ToolContext, read: KeyRead | None = None
) -> ToolOutcome | Claim | Unsettled:
    """The stored answer for this call's key, the claim under which the call now runs, or
    Unsettled: the answer is to be read afresh (and given to `settle_current`).

    Raises IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_IN_PROGRESS. `read`:
    the key's row as the caller read it already, used if it is this call's key. Whoever gets a
    claim must end it with `settle`, `settle_crashed` or `release`.
    """
    key = getattr(args, KEY_FIELD)
    scope = {"principal": principal_label(context.principal), "tool": spec.name, "key": key}
    first = read.row if read is not None and read.key == key else _stored_key(scope)
    return _claim(scope, arguments_fingerprint(args), context, first)


def missing_key(spec: ToolSpec) -> dict[str, ToolError]:
    """The error for a keyed tool's call without a key (validation's `missing`), which says
    what a key is for rather than only that the field is required."""
    if not spec.requires_idempotency_key:
        return {}
    return {
        KEY_FIELD: ToolError(
            "IDEMPOTENCY_KEY_REQUIRED",
            f"'{spec.name}' changes things, so it needs an idempotency_key: a new UUID for each "
            "user action, sent again unchanged when retrying that same action. A call refused "
            "as invalid leaves no key behind: fix it and send it with the same key.",
            field=KEY_FIELD,
            expected=KEY_EXPECTED,
        )
    }


def fresh_key_example(spec: ToolSpec) -> dict[str, Any]:
    """A keyed tool's key errors give a new UUID as their example: a fixed one, copied for two
    actions, would be IDEMPOTENCY_KEY_REUSED."""
    return {KEY_FIELD: lambda: str(uuid.uuid4())} if spec.requires_idempotency_key else {}


def settle(claim: Claim, outcome: ToolOutcome) -> None:
    """Store what the call answered, to be replayed; a retryable failure may run again. A
    refusal before the call acted (the step gate's, or any validation error) is not stored, and
    an answer that is not final is not stored either (repeats read it afresh)."""
    error = outcome.error or {}
    if error.get("code") in NOT_REMEMBERED or error.get("error_type") == "validation":
        release(claim)
        return
    if not outcome.final:
        _settle(claim, status=IdempotencyStatus.AWAITING_FINAL)
        return
    _settle(claim, status=_stored_status(outcome), outcome=_stamped(outcome))


def settle_current(
    unsettled: Unsettled, outcome: ToolOutcome, *, context: ToolContext
) -> ToolOutcome:
    """What a repeat answers, given the answer it read afresh: a final one is stored (the
    first to store it wins; the others replay the stored one, so every replay is the same)."""
    if not outcome.final:
        return outcome
    outcome = _stamped(outcome)
    stored = IdempotencyKey.objects.filter(
        pk=unsettled.pk, runs=unsettled.runs, status=IdempotencyStatus.AWAITING_FINAL
    ).update(status=_stored_status(outcome), **_answer_fields(outcome))
    if not stored:
        row = IdempotencyKey.objects.filter(pk=unsettled.pk).first()
        if row is not None and row.status == IdempotencyStatus.COMPLETED:
            return _replay(row, outcome.tool, context)
    return outcome


def _stored_status(outcome: ToolOutcome) -> str:
    if (outcome.error or {}).get("retryable"):
        return IdempotencyStatus.RETRYABLE_FAILURE
    return IdempotencyStatus.COMPLETED


def _stamped(outcome: ToolOutcome) -> ToolOutcome:
    # The stored meta carries the first call's correlation id, so a replay is identical.
    outcome.meta = {
        **outcome.meta,
        "correlation_id": outcome.meta.get("correlation_id", outcome.correlation_id),
    }
    return outcome


def settle_crashed(claim: Claim) -> None:
    """The call crashed: handlers are state-driven, so running again under this key is safe."""
    _settle(claim, status=IdempotencyStatus.RETRYABLE_FAILURE)


def release(claim: Claim) -> None:
    """The call was refused before it acted: nothing is remembered under the key."""
    IdempotencyKey.objects.filter(pk=claim.pk, runs=claim.runs).delete()


def _claim(
    scope: dict, print_: str, context: ToolContext, first: IdempotencyKey | None
) -> Claim | ToolOutcome:
    """`first` is the key's row as read before (None: none was there); a replay, the common
    repeat, then costs that one read and no write transaction."""
    ttl = timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL_SECONDS)
    row = first
    for attempt in range(3):  # a row inserted, purged or taken between our reads: look again
        now = timezone.now()
        if attempt:
            row = _stored_key(scope)
        if row is None:
            try:
                with transaction.atomic():
                    row = IdempotencyKey.objects.create(
                        **scope,
                        fingerprint=print_,
                        status=IdempotencyStatus.IN_PROGRESS,
                        correlation_id=context.correlation_id,
                        locked_at=now,
                        expires_at=now + ttl,
                    )
                return Claim(row.pk, row.runs)
            except IntegrityError:
                continue  # another caller inserted it first: read what it holds
        expired = row.expires_at <= now
        lock_fresh = row.locked_at is not None and row.locked_at > now - timedelta(
            seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS
        )
        if row.status == IdempotencyStatus.IN_PROGRESS and lock_fresh:
            if row.fingerprint != print_ and not expired:
                raise _reused(scope)
            raise _in_progress(scope)
        if not expired:
            if row.fingerprint != print_:
                raise _reused(scope)
            if row.status == IdempotencyStatus.COMPLETED:
                return _replay(row, scope["tool"], context)
            if row.status == IdempotencyStatus.AWAITING_FINAL:
                return Unsettled(row.pk, row.runs)
        # Expired, a stale lock (the first run died), or a retryable failure: run again.
        fields = {
            "status": IdempotencyStatus.IN_PROGRESS,
            "fingerprint": print_,
            "locked_at": now,
            "runs": row.runs + 1,
            "correlation_id": context.correlation_id,
            "response_body": "",
            "response_meta": "",
            "http_status": 200,
        }
        if expired:
            fields.update(created_at=now, expires_at=now + ttl)
        if IdempotencyKey.objects.filter(pk=row.pk, runs=row.runs).update(**fields):
            return Claim(row.pk, row.runs + 1)
        # Another caller took it over first: loop and see what it holds now.
    raise _in_progress(scope)


def _stored_key(scope: dict) -> IdempotencyKey | None:
    """The key's row through its unique index, by a fixed statement (tool_runtime.rows):
    building it with the ORM cost more than a replay's whole database work."""
    return one_row(
        IdempotencyKey, principal=scope["principal"], tool=scope["tool"], key=scope["key"]
    )


def _settle(claim: Claim, *, status: str, outcome: ToolOutcome | None = None) -> None:
    fields: dict = {"status": status, "locked_at": None}
    if outcome is not None:
        fields.update(_answer_fields(outcome))
    # Only the current run may write: a run whose lock was taken over keeps its result to itself.
    IdempotencyKey.objects.filter(pk=claim.pk, runs=claim.runs).update(**fields)


def _answer_fields(outcome: ToolOutcome) -> dict:
    return {
        "response_body": json.dumps(outcome.body, ensure_ascii=False),
        "response_meta": json.dumps(_seal(outcome.meta), ensure_ascii=False),
        "http_status": outcome.http_status,
    }


def _replay(row: IdempotencyKey, tool: str, context: ToolContext) -> ToolOutcome:
    # json.loads keeps the stored key order, so the REST layer rebuilds the same bytes.
    return ToolOutcome(
        tool=tool,
        body=json.loads(row.response_body),
        meta=_unseal(json.loads(row.response_meta), tool=tool),
        http_status=row.http_status,
        correlation_id=context.correlation_id,
        replayed=True,
    )


def _fernet() -> Fernet:
    return _fernet_for(settings.SECRET_KEY)


@cache
def _fernet_for(secret_key: str) -> Fernet:
    # A key of its own, derived from SECRET_KEY: rotating SECRET_KEY makes old seals unreadable.
    digest = salted_hmac(
        "tool_runtime.idempotency.sealed-meta", "", secret=secret_key, algorithm="sha256"
    ).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def _seal(meta: dict) -> dict:
    """The stored meta: each widget secret encrypted in place (a replay must show it again, in
    the same order), the rest (correlation id, idempotency key) in clear for staff."""
    fernet = _fernet()
    return {
        k: {SEALED_META_KEY: fernet.encrypt(json.dumps(v).encode()).decode()}
        if k in WIDGET_SECRET_META_KEYS
        else v
        for k, v in meta.items()
    }


def _unseal(stored: dict, *, tool: str) -> dict:
    meta = {}
    for k, v in stored.items():
        if k in WIDGET_SECRET_META_KEYS and isinstance(v, dict) and SEALED_META_KEY in v:
            try:
                v = json.loads(_fernet().decrypt(v[SEALED_META_KEY].encode()))
            except InvalidToken:
                # SECRET_KEY changed since: the replay goes without the secret (the person
                # prepares the order again) rather than failing the call.
                log.warning("idempotency_meta_unreadable", tool=tool, key=k)
                continue
        meta[k] = v
    return meta


def _reused(scope: dict) -> ToolError:
    return ToolError(
        "IDEMPOTENCY_KEY_REUSED",
        f"This idempotency_key was already used for a '{scope['tool']}' call with different "
        "arguments, and that call acted (its result is kept under the key). Use a new key (a new "
        "UUID) for a new action; reuse a key only to retry the identical call. (A call refused as "
        "invalid keeps no key: its corrected retry may use the same one.)",
        field=KEY_FIELD,
        expected="a key not used before for other arguments",
        example=str(uuid.uuid4()),
    )


def _in_progress(scope: dict) -> ToolError:
    return ToolError(
        "IDEMPOTENCY_IN_PROGRESS",
        f"A '{scope['tool']}' call with this idempotency_key is still running. Wait a few seconds and "
        "retry with the SAME key and arguments to get its result; do not use a new key.",
        field=KEY_FIELD,
        details={"retry_after_seconds": 2},
    )


def purge_expired_keys(*, now=None) -> int:
    """Delete keys past their expiry (except one whose run is still holding a fresh lock)."""
    now = now or timezone.now()
    stale_lock = now - timedelta(seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS)
    deleted, _ = (
        IdempotencyKey.objects.filter(expires_at__lte=now)
        .exclude(status=IdempotencyStatus.IN_PROGRESS, locked_at__gt=stale_lock)
        .delete()
    )
    return deleted


# --- the request surface's policy (ACP, RFC §6) ----------------------------------------------
# Same store, same claim; a different rule for what is kept. A tool forgets a validation
# refusal (the corrected call may reuse its key); a request surface keeps every answer below
# 500 (a corrected body needs a new key) and forgets every 5xx (the retry runs afresh).


@dataclass(frozen=True)
class StoredAnswer:
    status: int
    body: Any


def body_fingerprint(body: Any) -> str:
    """Semantic JSON equality: key order and a number's trailing zeros do not count; null and
    an absent key, and the order of an array, do."""
    return fingerprint(_integral_floats_as_ints(body))


def _integral_floats_as_ints(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _integral_floats_as_ints(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral_floats_as_ints(v) for v in value]
    return value


def request_key(key: str) -> str:
    """A key as stored: a client's key up to 255 characters is kept whole when it fits the
    column, else as its digest (the same key always maps to the same row)."""
    if len(key) <= 200:
        return key
    return "sha256:" + fingerprint(key)


def replay_or_claim_request(
    *, principal: AbstractBaseUser, surface: str, key: str, body: Any, correlation_id: str
) -> StoredAnswer | Claim:
    """The stored answer for (principal, surface, key), or the claim the request runs under
    (end it with `settle_request`). Raises IDEMPOTENCY_KEY_REUSED (another body) or
    IDEMPOTENCY_IN_PROGRESS (the first request still runs)."""
    scope = {"principal": principal_label(principal), "tool": surface, "key": request_key(key)}
    context = ToolContext(principal=principal, correlation_id=correlation_id, transport="rest")
    found = _claim(scope, body_fingerprint(body), context, _stored_key(scope))
    if isinstance(found, ToolOutcome):
        return StoredAnswer(found.http_status, found.body)
    if isinstance(found, Unsettled):  # a request surface never leaves a key awaiting
        raise _in_progress(scope)
    return found


def settle_request(claim: Claim, *, status: int, body: Any) -> None:
    """Keep the answer to replay (any status below 500); a 5xx keeps nothing, so a retry under
    the same key is processed as a fresh request."""
    if status >= 500:
        release(claim)
        return
    IdempotencyKey.objects.filter(pk=claim.pk, runs=claim.runs).update(
        status=IdempotencyStatus.COMPLETED,
        locked_at=None,
        response_body=json.dumps(body, ensure_ascii=False),
        response_meta="{}",
        http_status=status,
    )
