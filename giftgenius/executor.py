"""Runs one tool call for any transport: validate, authorise, gate, guard, run, log, shape.

REST (Ninja) and MCP both call `execute_tool`; neither re-implements any of these steps.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from giftgenius import call_log, faults, loop_guard
from giftgenius.errors import ToolError
from giftgenius.models import ToolCallStatus, WorkflowContext
from giftgenius.observability import correlation_id_from, get_logger
from giftgenius.principals import principal_label
from giftgenius.registry import (
    WIDGET_SECRET_META_KEYS,
    ToolContext,
    ToolSpec,
    get_tool,
    step_gate_error,
)
from giftgenius.upstream import upstream_retries
from giftgenius.validation import unusable_arguments, validate_arguments
from giftgenius.workflow_reads import owned_workflow, owned_workflow_beside

if TYPE_CHECKING:
    from checkout.idempotency import KeyRead

log = get_logger("giftgenius.tools")


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
    workflow: WorkflowContext | None = field(default=None, repr=False, compare=False)

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


def execute_tool(
    *,
    name: str,
    arguments: Any,
    principal: AbstractBaseUser | None,
    correlation_id: str | None = None,
    transport: str = "rest",
    locale: str = "en",
    fault_plan: str | None = None,
    scopes: frozenset[str] | None = None,
    host_subject: str | None = None,
) -> ToolOutcome:
    """`scopes` are an OAuth token's (None: an API token or a trusted subject, which may call
    every tool); `host_subject` is the MCP host's user id, recorded for analytics only."""
    started = time.perf_counter()
    cid = correlation_id_from(correlation_id)
    retries_token = upstream_retries.set(0)
    unusable = unusable_arguments(arguments)
    # Arguments that can be neither logged nor stored: the call is recorded as one with none.
    raw_args = arguments if isinstance(arguments, dict) and unusable is None else {}
    workflow_id = _workflow_id_of(raw_args)
    guard_print = fingerprint({k: v for k, v in raw_args.items() if k != "idempotency_key"})
    spec: ToolSpec | None = None
    outcome: ToolOutcome
    try:
        with faults.injected(fault_plan):
            spec = get_tool(name)
            if principal is None:
                raise ToolError(
                    "UNAUTHORIZED",
                    "This call has no valid credentials. Send 'Authorization: Bearer <token>'.",
                    field="Authorization",
                    expected="a bearer token issued by `manage.py create_api_token`",
                )
            if unusable is not None:
                raise unusable
            required = spec.scope_for(names_workflow=raw_args.get("workflow_id") is not None)
            if scopes is not None and required not in scopes:
                raise ToolError(
                    "INSUFFICIENT_SCOPE",
                    f"This sign-in does not allow '{name}'"
                    + (" with a workflow_id" if required != spec.scope else "")
                    + f": it needs the OAuth scope '{required}'. Ask the person to reconnect "
                    "GiftGenius and grant it.",
                    field="scope",
                    expected=required,
                    details={"required_scope": required, "granted_scopes": sorted(scopes)},
                )
            first = _first_read(
                spec=spec,
                principal=principal,
                workflow_id=workflow_id,
                raw_args=raw_args,
                guard_print=guard_print,
            )
            args = validate_arguments(spec.input_model, arguments)
            context = ToolContext(
                principal=principal, correlation_id=cid, transport=transport, locale=locale
            )
            # Keyed tools: a stored result replays first and reads no workflow (the key is this
            # principal's own); `_run` loads it when the tool really runs.
            wanted = getattr(args, "workflow_id", None) if spec.takes_workflow else None
            if wanted and not spec.requires_idempotency_key:
                found = (
                    first.workflow
                    if wanted == first.workflow_id
                    else owned_workflow(owner_pk=principal.pk, workflow_id=wanted)
                )
                context.workflow = _owned_or_not_found(found, wanted)
                _check_gate(spec, context.workflow)
            if spec.requires_idempotency_key:
                from checkout.idempotency import run_idempotent

                outcome = run_idempotent(
                    spec=spec, args=args, context=context, run=_run, read=first.key
                )
            else:
                outcome = _run(spec, args, context)
    except ToolError as exc:
        outcome = ToolOutcome(name, error_body(exc), {}, exc.spec.http_status, cid)
    except Exception:
        log.exception("tool_crashed", tool=name, correlation_id=cid)
        outcome = internal_error_outcome(name=name, correlation_id=cid)
    finally:
        retries = upstream_retries.get()
        upstream_retries.reset(retries_token)
    outcome.meta = {**outcome.meta, "correlation_id": outcome.meta.get("correlation_id", cid)}
    try:
        _record(
            outcome=outcome,
            spec=spec,
            principal=principal,
            workflow_id=workflow_id,
            guard_print=guard_print,
            raw_args=raw_args,
            transport=transport,
            retries=retries,
            duration_ms=(time.perf_counter() - started) * 1000,
            host_subject=host_subject,
        )
    except Exception:
        # Recording must never replace what the tool did (a charge may have gone through).
        log.exception("tool_call_not_recorded", tool=name, correlation_id=cid)
    return outcome


def _run(spec: ToolSpec, args: Any, context: ToolContext) -> ToolOutcome:
    """Run the handler and shape its success or business failure."""
    workflow_id = getattr(args, "workflow_id", None) if spec.takes_workflow else None
    if spec.requires_idempotency_key and workflow_id and context.workflow is None:
        # Outside the handler's error shaping: NOT_FOUND is raised as before, never stored.
        context.workflow = _load_workflow(context.principal, workflow_id)
    try:
        if spec.requires_idempotency_key and context.workflow is not None:
            _check_gate(spec, context.workflow)  # after run_idempotent found nothing to replay
        result = spec.handler(context, args)
    except ToolError as exc:
        return ToolOutcome(
            spec.name, error_body(exc), {}, exc.spec.http_status, context.correlation_id
        )
    body = {"ok": True, **result.data.model_dump(mode="json", exclude={"ok"})}
    outcome = ToolOutcome(
        spec.name, body, dict(result.meta), 200, context.correlation_id, workflow=result.workflow
    )
    refuse_leaked_secrets(outcome)  # before any transport sends it or a key stores it
    return outcome


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


@dataclass(frozen=True)
class FirstRead:
    """What a call read in its first statement, beside the loop guard's count."""

    workflow_id: uuid.UUID | None = None  # the workflow read (None: none was read)
    workflow: WorkflowContext | None = None  # None also when that workflow is not the caller's
    key: KeyRead | None = None  # a keyed tool's idempotency key, as read


def _first_read(
    *,
    spec: ToolSpec,
    principal: AbstractBaseUser,
    workflow_id: uuid.UUID | None,
    raw_args: dict[str, Any],
    guard_print: str,
) -> FirstRead:
    """The loop guard, before the arguments are validated, in one statement with the read the
    call starts with (issue 12): the workflow, or for a keyed tool its idempotency key (a
    replay then reads nothing else). Raises RETRY_LIMIT_EXCEEDED when the call is looping."""
    if not workflow_id:
        return FirstRead()  # the guard counts per workflow
    label = principal_label(principal)
    guard = {"principal": label, "tool": spec.name, "workflow_id": workflow_id}
    raw_key = raw_args.get("idempotency_key")
    first = FirstRead()
    if spec.requires_idempotency_key and isinstance(raw_key, str) and raw_key:
        from checkout.idempotency import read_key_beside

        key, failures = read_key_beside(
            principal=label,
            tool=spec.name,
            key=raw_key,
            scalar=loop_guard.failures_scalar(**guard, guard_print=guard_print),
        )
        first = FirstRead(key=key)
    elif spec.takes_workflow and not spec.requires_idempotency_key:
        workflow, failures = owned_workflow_beside(
            owner_pk=principal.pk,
            workflow_id=workflow_id,
            scalar=loop_guard.failures_scalar(**guard, guard_print=guard_print),
        )
        first = FirstRead(workflow_id=workflow_id, workflow=workflow)
    else:
        failures = loop_guard.recent_failures(
            **guard, guard_print=guard_print, limit=settings.LOOP_GUARD_MAX_FAILURES
        )
    loop_guard.refuse_if_looping(tool=spec.name, failures=failures)
    return first


def _workflow_id_of(raw_args: dict[str, Any]) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(raw_args.get("workflow_id")))
    except ValueError:
        return None


def _load_workflow(principal: AbstractBaseUser, workflow_id: uuid.UUID) -> WorkflowContext:
    return _owned_or_not_found(
        owned_workflow(owner_pk=principal.pk, workflow_id=workflow_id), workflow_id
    )


def _owned_or_not_found(
    workflow: WorkflowContext | None, workflow_id: uuid.UUID
) -> WorkflowContext:
    if workflow is None:  # another principal's workflow is indistinguishable from none
        raise ToolError(
            "NOT_FOUND",
            f"No workflow {workflow_id} exists for this user. Call start_gift_workflow to begin one.",
            field="workflow_id",
            next_actions=["start_gift_workflow"],
        )
    return workflow


def _check_gate(spec: ToolSpec, workflow: WorkflowContext) -> None:
    if spec.allowed_steps is None or workflow.current_step in spec.allowed_steps:
        return
    raise step_gate_error(
        tool=spec.name, allowed_steps=spec.allowed_steps, current_step=workflow.current_step
    )


def _record(
    *,
    outcome: ToolOutcome,
    spec: ToolSpec | None,
    principal: AbstractBaseUser | None,
    workflow_id: uuid.UUID | None,
    guard_print: str,
    raw_args: dict[str, Any],
    transport: str,
    retries: int,
    duration_ms: float,
    host_subject: str | None,
) -> None:
    """Write the structured log line and the call-log row, from one place (SPEC §10)."""
    error = outcome.error or {}
    step_id = outcome.body.get("current_step") or ""
    key = raw_args.get("idempotency_key") if spec and spec.requires_idempotency_key else None
    status = ToolCallStatus.SUCCESS if outcome.ok else ToolCallStatus.FAILED
    fields = {
        "tool": outcome.tool,
        "principal": principal_label(principal) if principal else "",
        "workflow_id": str(workflow_id) if workflow_id else None,
        "step_id": step_id or None,
        "status": str(status),
        "error_code": error.get("code"),
        "idempotency_key": key[:200]
        if isinstance(key, str)
        else None,  # an invalid key may be longer
        "correlation_id": outcome.correlation_id,
        "duration_ms": round(duration_ms, 2),
        "replayed": outcome.replayed,
        "upstream_retries": retries,
        "transport": transport,
    }
    log.info("tool_call", **fields)
    if spec is None:
        return  # unknown tools are logged but not counted as calls of a tool
    row = dict(
        tool=outcome.tool,
        principal=fields["principal"],
        workflow_id=workflow_id,
        step_id=step_id,
        status=status,
        error_code=error.get("code", ""),
        error_type=error.get("error_type", ""),
        retryable=bool(error.get("retryable", False)),
        arguments_fingerprint=guard_print,
        idempotency_key=fields["idempotency_key"] or "",
        correlation_id=outcome.correlation_id,
        duration_ms=duration_ms,
        upstream_retries=retries,
        replayed=outcome.replayed,
        transport=transport,
        host_subject=host_subject or "",
    )
    # Only a read's first-time success may wait in the batch: failures feed the loop guard and
    # a write's row is part of what it did (giftgenius.call_log says what a crash may lose).
    deferrable = spec.annotations.read_only and outcome.ok and not outcome.replayed
    call_log.write(fields=row, deferrable=deferrable)
