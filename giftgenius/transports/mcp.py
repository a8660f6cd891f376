"""The MCP endpoint: every tool of the shared registry, plus the widget shell resource.

A thin adapter. It reads who is calling, the correlation id, the locale and the fault plan
from the request, hands the raw arguments to `tool_runtime.executor.execute_tool` (which
validates them and shapes every error, exactly as for REST) in a worker thread, and turns the
outcome into a `CallToolResult`: the body is `structuredContent` (model + widget), the
widget-only data (confirmation token, rendered fragment) goes in `_meta`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from typing import Any

import orjson
from anyio import to_thread
from django.conf import settings
from django.db import close_old_connections
from mcp.server._otel import OpenTelemetryMiddleware
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.resources import TextResource
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from mcp_types import Tool as MCPTool
from mcp_types.jsonrpc import INVALID_PARAMS

from giftgenius.transports.mcp_auth import CALLER_STATE
from giftgenius.transports.rest import ERROR_SCHEMA
from tool_runtime import call_log
from tool_runtime.caller_cache import Caller
from tool_runtime.errors import ToolError
from tool_runtime.executor import execute_tool
from tool_runtime.observability import correlation_id_from, get_logger
from tool_runtime.outcome import ToolOutcome, error_body, is_outage, unavailable_error
from tool_runtime.principals import user_for_subject
from tool_runtime.registry import REGISTRY, ToolSpec
from tool_runtime.text import describe_refused, drop_invisible
from tool_runtime.validation import is_unicode
from widget.locale import (
    DEFAULT_LANGUAGE,
    locale_from_accept_language,
    normalize_locale,
    normalize_time_zone,
)
from widget.rendering import fragment_or_none
from widget.resource import (
    WIDGET_DESCRIPTION,
    WIDGET_MIME_TYPE,
    WIDGET_URI,
    widget_resource_meta,
)
from widget.shell import render_widget_shell

log = get_logger("giftgenius.mcp")

MCP_PATH = "/mcp"
INSTRUCTIONS = (
    "GiftGenius finds a gift and buys it. Start with start_gift_workflow, then suggest_gifts, "
    "select_gift, get_payment_methods and prepare_order. A purchase is completed only by the "
    "person pressing 'Confirm purchase' in the widget. When a result has ok=false, read "
    "error.field / error.expected / error.example and fix exactly that; if error.retryable is "
    "false, do not repeat the same call."
)

# Request _meta keys: ChatGPT sends openai/*; giftgenius/* come from tests and the QA preview.
META_SUBJECT = "openai/subject"
META_LOCALE = ("openai/locale", "webplus/i18n")
META_CORRELATION = ("giftgenius/correlationId", "openai/correlationId", "correlation_id")
META_FAULT = "giftgenius/fault"
# The person's time zone: ChatGPT's coarse location hint, or what the widget read from the MCP
# Apps host context (or the browser) and sent with its own call.
META_USER_LOCATION = "openai/userLocation"
META_TIME_ZONE = "giftgenius/timeZone"
MAX_SUBJECT_LENGTH = 256


# --- tool descriptors --------------------------------------------------------------------------


# The REST error body minus its "_meta" envelope: over MCP, widget-only data is the result's _meta.
MCP_ERROR_SCHEMA: dict[str, Any] = {
    **ERROR_SCHEMA,
    "properties": {k: v for k, v in ERROR_SCHEMA["properties"].items() if k != "_meta"},
}


def output_schema(spec: ToolSpec) -> dict[str, Any]:
    """Success body or the error body: a failure's structuredContent conforms to the schema too."""
    success = spec.output_model.model_json_schema()
    # Pydantic's "#/$defs/…" references resolve against the document root: move the definitions up.
    definitions = success.pop("$defs", None)
    schema: dict[str, Any] = {"type": "object", "anyOf": [success, MCP_ERROR_SCHEMA]}
    if definitions:
        schema["$defs"] = definitions
    return schema


def visibility(spec: ToolSpec) -> list[str]:
    """Who may call the tool (MCP Apps): the widget only for what the person's click alone may
    do, the model only for what the widget never calls (it asks the model instead)."""
    if spec.app_only:
        return ["app"]
    return ["model", "app"] if spec.widget_accessible else ["model"]


def security_schemes(spec: ToolSpec) -> list[dict[str, Any]]:
    """Sign-in (OAuth) with the tool's scope: what the Apps SDK reads to ask for sign-in."""
    return [{"type": "oauth2", "scopes": [spec.scope]}]


def tool_meta(spec: ToolSpec) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "ui": {"resourceUri": WIDGET_URI, "visibility": visibility(spec)},
        "openai/outputTemplate": WIDGET_URI,
        "openai/widgetAccessible": spec.widget_accessible,
        "openai/toolInvocation/invoking": spec.invoking,
        "openai/toolInvocation/invoked": spec.invoked,
        # The Apps SDK reads a tool's auth needs here (and, in its reference, also at the
        # descriptor's top level, which the MCP SDK's per-era result schemas drop: docs/mcp.md §4).
        "securitySchemes": security_schemes(spec),
    }
    if spec.app_only:
        meta["openai/visibility"] = "private"  # the Apps SDK's own "hidden from the model"
    return meta


@cache
def tool_descriptor(spec: ToolSpec) -> MCPTool:
    return MCPTool(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        input_schema=spec.input_model.model_json_schema(),
        output_schema=output_schema(spec),
        annotations=ToolAnnotations.model_validate(spec.annotations.as_mcp()),
        _meta=tool_meta(spec),
    )


# --- the request: principal, correlation id, locale, fault plan -------------------------------


@dataclass(frozen=True)
class CallRequest:
    name: str
    arguments: Any
    authorization: str | None
    caller: (
        Caller | None
    )  # verified by giftgenius.transports.mcp_auth from the Authorization header
    subject: str | None
    correlation_id: str | None
    locale: str
    fault_plan: str | None
    refused: ToolError | None = None  # a _meta value no row can hold
    time_zone: str | None = None


def locale_for(meta: dict[str, Any], headers: Any) -> str:
    """The host's locale from the request _meta, else Accept-Language, else English."""
    for key in META_LOCALE:
        if found := normalize_locale(meta.get(key)):
            return found
    return (
        locale_from_accept_language(headers.get("accept-language") if headers else None)
        or DEFAULT_LANGUAGE
    )


def _string(value: Any) -> str | None:
    """A host's text in _meta, or None when there is none or it is not valid Unicode (which
    could be neither logged nor stored: it is treated as absent)."""
    if isinstance(value, str) and value and is_unicode(value):
        return value
    return None


def call_request(name: str, arguments: Any, context: Context | None) -> CallRequest:
    meta: dict[str, Any] = {}
    headers = None
    caller = None
    if context is not None:
        try:
            request_context = context.request_context
        except ValueError:  # called in-process, outside a request
            request_context = None
        if request_context is not None:
            meta = dict(request_context.meta or {})
            headers = getattr(request_context.request, "headers", None)
            state = getattr(request_context.request, "scope", {}).get("state", {})
            caller = state.get(CALLER_STATE)
    correlation = next((meta[k] for k in META_CORRELATION if _string(meta.get(k))), None)
    if correlation is None and headers:
        correlation = headers.get("x-correlation-id")
    subject, refused = _subject(meta.get(META_SUBJECT))
    return CallRequest(
        name=name,
        arguments=arguments,
        authorization=headers.get("authorization") if headers else None,
        caller=caller,
        subject=subject,
        correlation_id=correlation,
        locale=locale_for(meta, headers),
        fault_plan=_string(meta.get(META_FAULT)),
        refused=refused,
        time_zone=time_zone_for(meta),
    )


def _subject(value: Any) -> tuple[str | None, ToolError | None]:
    """The host's user id, which names a user and is stored with the call, so it follows the
    printable-text rule: text it refuses is a VALIDATION_ERROR naming the _meta key."""
    if not isinstance(value, str) or not value:
        return None, None
    field = f"_meta.{META_SUBJECT}"
    expected = f"printable text of 1 to {MAX_SUBJECT_LENGTH} characters"
    why = "is not valid Unicode" if not is_unicode(value) else None
    if why is None:
        value = drop_invisible(value)
        refused = describe_refused(value)
        why = f"holds {refused}, which is not allowed in text" if refused else None
    if why is None and not 0 < len(value) <= MAX_SUBJECT_LENGTH:
        why = f"has {len(value)} characters"
    if why is None:
        return value, None
    message = f"The request's '{field}' {why}; expected {expected}."
    return None, ToolError("VALIDATION_ERROR", message, field=field, expected=expected)


def time_zone_for(meta: dict[str, Any]) -> str | None:
    """The widget's own word first (it asked the host), else ChatGPT's location hint."""
    location = meta.get(META_USER_LOCATION)
    hint = location.get("timezone") if isinstance(location, dict) else None
    return normalize_time_zone(meta.get(META_TIME_ZONE)) or normalize_time_zone(hint)


def principal_for(request: CallRequest) -> Caller | None:
    """A bearer token wins; a bad token is not replaced by the subject (it stays unauthorised)."""
    if request.authorization is not None:
        return request.caller
    # The subject is the host's word, not proof: trusted only in development and tests
    # (production settings refuse to start with MCP_TRUST_OPENAI_SUBJECT on).
    if request.subject is not None and settings.MCP_TRUST_OPENAI_SUBJECT:
        return Caller(user=user_for_subject(request.subject), scopes=None)
    return None


# --- running a call ------------------------------------------------------------------------------


def run_tool_call(request: CallRequest) -> CallToolResult:
    """Runs in a worker thread: the executor, the ORM and template rendering are synchronous."""
    close_old_connections()
    try:
        try:
            caller = principal_for(request)
        except Exception as exc:
            return _unrecorded_failure(request, exc)  # before the executor, which logs calls
        outcome = execute_tool(
            name=request.name,
            arguments=request.arguments,
            principal=caller.user if caller else None,
            correlation_id=request.correlation_id,
            transport="mcp",
            locale=request.locale,
            fault_plan=request.fault_plan,
            scopes=caller.scopes if caller else None,
            host_subject=request.subject,
            refused=request.refused,
        )
        return tool_result(
            outcome,
            locale=request.locale,
            time_zone=request.time_zone,
            arguments=request.arguments,
        )
    except Exception:
        log.exception("mcp_call_crashed", tool=request.name)
        return internal_error_result(request)
    finally:
        close_old_connections()


def _unrecorded_failure(request: CallRequest, exc: Exception) -> CallToolResult:
    """The trusted subject's user could not be read: the call is answered, and counted as one
    the log does not hold."""
    cid = correlation_id_from(request.correlation_id)
    if request.name in REGISTRY:
        call_log.not_recorded(tool=request.name, correlation_id=cid, exc=exc)
    if is_outage(exc):
        return error_result(request, unavailable_error(cid))
    return internal_error_result(request, cid)


def tool_result(
    outcome: ToolOutcome, *, locale: str, time_zone: str | None = None, arguments: Any = None
) -> CallToolResult:
    summary = summarize(outcome)
    meta = {**_json_safe(outcome.meta), "locale": locale}
    html = fragment_or_none(
        outcome=outcome, locale=locale, time_zone=time_zone, arguments=arguments
    )
    if html is not None:
        meta["html"] = html
    return CallToolResult(
        content=[TextContent(type="text", text=summary)],
        structured_content=outcome.body,
        is_error=not outcome.ok,
        _meta=meta,
    )


def internal_error_result(request: CallRequest, cid: str | None = None) -> CallToolResult:
    """The contract's INTERNAL_ERROR: never the exception's text (it could carry internals)."""
    cid = cid or correlation_id_from(request.correlation_id)
    error = ToolError(
        "INTERNAL_ERROR",
        "The server failed unexpectedly. Retry once; if it fails again, tell the person and "
        "quote the correlation id.",
        details={"correlation_id": cid},
    )
    return error_result(request, error)


def error_result(request: CallRequest, error: ToolError) -> CallToolResult:
    cid = (error.details or {}).get("correlation_id") or correlation_id_from(request.correlation_id)
    return CallToolResult(
        content=[TextContent(type="text", text=error.message)],
        structured_content=error_body(error),
        is_error=True,
        _meta={"correlation_id": cid, "locale": request.locale},
    )


def _json_safe(value: dict[str, Any]) -> dict[str, Any]:
    return orjson.loads(orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS))


def summarize(outcome: ToolOutcome) -> str:
    """One short line for the model; the details are in structuredContent."""
    body = outcome.body
    if not outcome.ok:
        error = outcome.error or {}
        return f"{error.get('code', 'INTERNAL_ERROR')}: {error.get('message', '')}".strip()
    if isinstance(body.get("gifts"), list):
        count = len(body["gifts"])
        if count == 0:
            return f"No gift ideas found. {body.get('no_results_reason') or ''}".strip()
        return f"{count} gift idea{'s' if count != 1 else ''} found."
    if isinstance(body.get("products"), list):
        count = len(body["products"])
        if count == 0:
            return f"No products found. {body.get('no_results_reason') or ''}".strip()
        return f"{count} product{'s' if count != 1 else ''} found."
    spec = REGISTRY.get(outcome.tool)
    # A result's own message says what happened (a pending payment is not "processed"); the
    # tool's fixed "invoked" text only when it has none.
    parts = [body["message"] if body.get("message") else f"{spec.invoked}." if spec else "Done."]
    if body.get("order_id") and body.get("status"):
        parts.append(f"Order {body['order_id']} is {body['status']}.")
    if body.get("current_step"):
        parts.append(f"Current step: {body['current_step']}.")
    return " ".join(parts)


# --- the widget resource --------------------------------------------------------------------------


def widget_resource() -> TextResource:
    return TextResource(
        uri=WIDGET_URI,
        name="giftgenius-widget",
        title="GiftGenius",
        description=WIDGET_DESCRIPTION,
        mime_type=WIDGET_MIME_TYPE,
        text=render_widget_shell(),
        meta=widget_resource_meta(),
    )


# --- the server -----------------------------------------------------------------------------------


class GiftGeniusMCPServer(MCPServer):
    """Tools come from the registry (explicit schemas), not from decorated Python functions."""

    async def list_tools(self) -> list[MCPTool]:
        return [tool_descriptor(spec) for spec in REGISTRY.values()]

    async def get_prompt(self, name: str, arguments: Any = None, context: Any = None) -> Any:
        """There are no prompts: the SDK serves prompts/list (empty) on its own, and an unknown
        name is the spec's invalid-params error in both eras, not an internal error."""
        raise MCPError(INVALID_PARAMS, f"Unknown prompt '{name}': GiftGenius has no prompts.")

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> CallToolResult:
        if name not in REGISTRY:
            # The spec's answer to an unknown tool is a JSON-RPC error, not a tool result.
            offered = sorted(n for n, spec in REGISTRY.items() if not spec.app_only)
            raise MCPError(
                INVALID_PARAMS, f"Unknown tool '{name}'. Available tools: {', '.join(offered)}."
            )
        request: CallRequest | None = None
        try:
            request = call_request(name, arguments, context)
            # anyio's worker threads copy the context without asgiref's per-call bookkeeping
            # (its context restore was ~5 % of a call's CPU); the ORM needs no shared thread.
            result = await to_thread.run_sync(run_tool_call, request)
        except Exception:
            # The SDK would send str(exc) to the client; the contract sends INTERNAL_ERROR instead.
            log.exception("mcp_call_crashed", tool=name)
            fallback = request or CallRequest(name, arguments, None, None, None, None, "en", None)
            return internal_error_result(fallback)
        if (refusal := acp_refusal(result)) is not None:
            # ACP's MCP binding: a checkout session's refusal is a JSON-RPC error with ACP's
            # Error object as its data (docs/acp.md §1).
            raise MCPError(ACP_ERROR_CODE, refusal["message"], data=refusal)
        return result


ACP_ERROR_CODE = -32000  # the JSON-RPC code ACP's MCP binding gives every ACP error


def acp_refusal(result: CallToolResult) -> dict[str, Any] | None:
    """The ACP Error object an ACP tool refused with (error.details.acp_error), or None."""
    if not result.is_error or not isinstance(result.structured_content, dict):
        return None
    details = (result.structured_content.get("error") or {}).get("details") or {}
    found = details.get("acp_error")
    return found if isinstance(found, dict) else None


def transport_security() -> TransportSecuritySettings:
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=list(settings.MCP_ALLOWED_HOSTS),
        allowed_origins=list(settings.MCP_ALLOWED_ORIGINS),
    )


def build_mcp_server() -> GiftGeniusMCPServer:
    """A fresh server: its HTTP session manager can run only once, so every app needs its own."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    server = GiftGeniusMCPServer(
        name="giftgenius",
        title="GiftGenius",
        instructions=INSTRUCTIONS,
        version="0.1.0",
        log_level="WARNING",
        # Nothing is ever sent on a subscriptions/listen stream (the tools and the resource are
        # fixed): not serving it makes the 2026 era advertise listChanged and subscribe false,
        # as the handshake era does.
        subscriptions=False,
    )
    # MCPServer calls logging.basicConfig (a Rich handler on the root logger), which would print
    # every structlog line twice; Django's LOGGING setting owns logging here.
    root.handlers[:] = handlers
    root.setLevel(level)
    if not settings.MCP_OPENTELEMETRY_SPANS:
        # The SDK's documented opt-out: drop its span middleware from the chain.
        server.middleware[:] = [
            m for m in server.middleware if not isinstance(m, OpenTelemetryMiddleware)
        ]
    server.add_resource(widget_resource())
    return server
