"""Runs one tool call for any transport, as one straight pipeline:

authenticate → scope → loop guard → validate → replay or claim the key → gate → handler → record.

Validation runs the schema and the tool's input checks together, before the key stage: a call
they refuse has not begun to act and leaves no key behind, so the corrected call may be sent
with the same key.

REST, MCP and the widget's browser endpoint all call `execute_tool`; none re-implements a stage.
Only a tool that requires an idempotency key has the key stage; a replay ends the pipeline
there, before the workflow is read or the gate is asked.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from tool_runtime import call_log, faults, idempotency, loop_guard
from tool_runtime.errors import ToolError
from tool_runtime.idempotency import KeyRead
from tool_runtime.models import ToolCallStatus
from tool_runtime.observability import correlation_id_from, get_logger
from tool_runtime.outcome import (
    ToolOutcome,
    error_outcome,
    fingerprint,
    internal_error_outcome,
    is_outage,
    refuse_leaked_secrets,
    unavailable_outcome,
)
from tool_runtime.principals import principal_label
from tool_runtime.registry import Handler, ToolContext, ToolSpec, get_tool, step_gate_error
from tool_runtime.text import first_refused
from tool_runtime.upstream import upstream_retries
from tool_runtime.validation import unusable_arguments, validate_arguments
from tool_runtime.workflows import Workflow, workflow_store

log = get_logger("giftgenius.tools")


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
    refused: ToolError | None = None,
) -> ToolOutcome:
    """`scopes` are an OAuth token's (None: an API token or a trusted subject, which may call
    every tool); `host_subject` is the MCP host's user id, recorded for analytics only.
    `refused`: what the transport refused beside the arguments (a request `_meta` value),
    answered and recorded as a refused argument is."""
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
            if refused is not None:
                raise refused
            _authenticate(principal)
            if unusable is not None:
                raise unusable
            _check_scope(spec, raw_args=raw_args, scopes=scopes)
            assert principal is not None  # _authenticate refused a call without one
            first = _first_read(
                spec=spec,
                principal=principal,
                workflow_id=workflow_id,
                raw_args=raw_args,
                guard_print=guard_print,
            )
            args = validate_arguments(
                spec.input_model,
                arguments,
                checks=spec.input_checks,
                missing=idempotency.missing_key(spec),
                fresh_examples=idempotency.fresh_key_example(spec),
                caller=principal,
            )
            context = ToolContext(
                principal=principal, correlation_id=cid, transport=transport, locale=locale
            )
            if spec.requires_idempotency_key:
                outcome = _run_keyed(spec, args, context, first)
            else:
                _enter_workflow(spec, args, context, first)
                outcome = _run_handler(spec, args, context)
    except ToolError as exc:
        outcome = error_outcome(name=name, error=exc, correlation_id=cid)
    except Exception as exc:
        if is_outage(exc):
            log.error("tool_database_unavailable", tool=name, correlation_id=cid, exc_info=exc)
            outcome = unavailable_outcome(name=name, correlation_id=cid)
        else:
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
    except Exception as exc:
        # Recording must never replace what the tool did (a charge may have gone through).
        call_log.not_recorded(tool=name, correlation_id=cid, exc=exc)
    return outcome


# --- the stages ---------------------------------------------------------------------------------


def _authenticate(principal: AbstractBaseUser | None) -> None:
    if principal is None:
        raise ToolError(
            "UNAUTHORIZED",
            "This call has no valid credentials. Send 'Authorization: Bearer <token>'.",
            field="Authorization",
            expected="a bearer token issued by `manage.py create_api_token`",
        )


def _check_scope(
    spec: ToolSpec, *, raw_args: dict[str, Any], scopes: frozenset[str] | None
) -> None:
    required = spec.scope_for(names_workflow=raw_args.get("workflow_id") is not None)
    if scopes is not None and required not in scopes:
        raise ToolError(
            "INSUFFICIENT_SCOPE",
            f"This sign-in does not allow '{spec.name}'"
            + (" with a workflow_id" if required != spec.scope else "")
            + f": it needs the OAuth scope '{required}'. Ask the person to reconnect "
            "GiftGenius and grant it.",
            field="scope",
            expected=required,
            details={"required_scope": required, "granted_scopes": sorted(scopes)},
        )


def _run_keyed(spec: ToolSpec, args: Any, context: ToolContext, first: FirstRead) -> ToolOutcome:
    """The key stage: a stored answer replays (nothing else is read); otherwise the call runs
    under its claim, which is released if the gate refuses it before the handler acts."""
    found = idempotency.replay_or_claim(spec=spec, args=args, context=context, read=first.key)
    if isinstance(found, ToolOutcome):
        return found
    if isinstance(found, idempotency.Unsettled):
        # The first answer was not final: answer the state as it is now (nothing acts).
        assert spec.current_answer is not None, f"{spec.name} answered final=False"
        outcome = _run_handler(spec, args, context, handler=spec.current_answer)
        outcome.replayed = True
        return idempotency.settle_current(found, outcome, context=context)
    try:
        _enter_workflow(spec, args, context, first)
    except ToolError:
        idempotency.release(found)
        raise
    try:
        outcome = _run_handler(spec, args, context)
    except Exception:
        idempotency.settle_crashed(found)
        raise
    idempotency.settle(found, outcome)
    return outcome


def _enter_workflow(spec: ToolSpec, args: Any, context: ToolContext, first: FirstRead) -> None:
    """The gate: the caller's own workflow (NOT_FOUND otherwise), at a step the tool allows."""
    wanted = getattr(args, "workflow_id", None) if spec.takes_workflow else None
    if not wanted:
        return
    store = workflow_store()
    found = (
        first.workflow
        if wanted == first.workflow_id
        else store.owned(owner_pk=context.principal.pk, workflow_id=wanted)
    )
    if found is None:  # another principal's workflow is indistinguishable from none
        raise store.not_found(wanted)
    context.workflow = found
    if spec.allowed_steps is not None and found.current_step not in spec.allowed_steps:
        raise step_gate_error(
            tool=spec.name, allowed_steps=spec.allowed_steps, current_step=found.current_step
        )


def _run_handler(
    spec: ToolSpec, args: Any, context: ToolContext, *, handler: Handler | None = None
) -> ToolOutcome:
    """Run the handler (or `handler`) and shape its success or business failure."""
    try:
        result = (handler or spec.handler)(context, args)
    except ToolError as exc:
        return error_outcome(name=spec.name, error=exc, correlation_id=context.correlation_id)
    body = {"ok": True, **result.data.model_dump(mode="json", exclude={"ok"})}
    outcome = ToolOutcome(
        spec.name,
        body,
        dict(result.meta),
        200,
        context.correlation_id,
        workflow=result.workflow,
        final=result.final,
    )
    refuse_leaked_secrets(outcome)  # before any transport sends it or a key stores it
    return outcome


@dataclass(frozen=True)
class FirstRead:
    """What a call read in its first statement, beside the loop guard's count."""

    workflow_id: uuid.UUID | None = None  # the workflow read (None: none was read)
    workflow: Workflow | None = None  # None also when that workflow is not the caller's
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
    call starts with: the workflow, or for a keyed tool its idempotency key (a replay then
    reads nothing else). Raises RETRY_LIMIT_EXCEEDED when the call is looping."""
    if not workflow_id:
        return FirstRead()  # the guard counts per workflow
    label = principal_label(principal)
    guard = {"principal": label, "tool": spec.name, "workflow_id": workflow_id}
    raw_key = raw_args.get("idempotency_key")
    first = FirstRead()
    if spec.requires_idempotency_key and _storable(raw_key):
        key, failures = idempotency.read_key_beside(
            principal=label,
            tool=spec.name,
            key=raw_key,
            scalar=loop_guard.failures_scalar(**guard, guard_print=guard_print),
        )
        first = FirstRead(key=key)
    elif spec.takes_workflow and not spec.requires_idempotency_key:
        workflow, failures = workflow_store().owned_beside(
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


def _storable(text: Any) -> bool:
    """Text the database can be asked about: a raw value is read before it is validated, and
    PostgreSQL refuses NUL (validation then refuses the rest of what the text rule does)."""
    return isinstance(text, str) and bool(text) and first_refused(text) is None


def _workflow_id_of(raw_args: dict[str, Any]) -> uuid.UUID | None:
    try:  # trimmed, as validation trims every string argument
        return uuid.UUID(str(raw_args.get("workflow_id")).strip())
    except ValueError:
        return None


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
    """Write the structured log line and the call-log row, from one place."""
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
        # An invalid key may be longer, or hold what no row can: recorded cut, or not at all.
        "idempotency_key": key[:200] if _storable(key) else None,
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
    # a write's row is part of what it did (tool_runtime.call_log says what a crash may lose).
    deferrable = spec.log_may_wait and outcome.ok and not outcome.replayed
    call_log.write(fields=row, deferrable=deferrable)
