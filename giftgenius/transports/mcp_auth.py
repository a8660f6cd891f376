"""/mcp as an OAuth 2.1 protected resource (the MCP authorization spec).

An ASGI middleware in front of the MCP routes: a request without a valid bearer token is
answered 401 with `WWW-Authenticate: Bearer resource_metadata="…"` (RFC 9728), which is what
sends an MCP host into discovery and sign-in. A verified caller rides along in the request
state to the tool call (no second lookup). Scopes are checked per tool by the executor, so a
missing scope is a structured INSUFFICIENT_SCOPE result rather than a bare 403.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from mcp.server.transport_security import TransportSecuritySettings
from oauth2_provider.www_authenticate import build_bearer_challenge
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from giftgenius.transports.mcp_http import (
    JSONRPC_INTERNAL_ERROR,
    McpTransportSecurity,
    body_refusal,
    jsonrpc_error,
    jsonrpc_errors_only,
)
from tool_runtime.caller_cache import Caller
from tool_runtime.observability import correlation_id_from, get_logger
from tool_runtime.outcome import RETRY_AFTER_SECONDS, is_outage, unavailable_error
from tool_runtime.principals import cached_caller, caller_for_bearer_header

log = get_logger("giftgenius.mcp")

CALLER_STATE = "giftgenius_caller"
WELL_KNOWN_RESOURCE = "/.well-known/oauth-protected-resource"


def resource_metadata_url(base_url: str, path: str) -> str:
    """RFC 9728 §3.1: the well-known suffix goes between the origin and the resource's path."""
    return base_url.rstrip("/") + WELL_KNOWN_RESOURCE + path


def challenge(*, base_url: str, path: str, invalid_token: bool) -> JSONResponse:
    # RFC 6750 §3.1: a request that sent no credentials gets no error code, only the pointer.
    error = (
        {"error": "invalid_token", "error_description": "The access token is invalid."}
        if invalid_token
        else None
    )
    header = build_bearer_challenge(
        None, error, resource_metadata_url=resource_metadata_url(base_url, path)
    )
    body = error or {"error": "unauthorized", "error_description": "Sign in to use GiftGenius."}
    return JSONResponse(body, status_code=401, headers={"WWW-Authenticate": header})


def _verify(header: str, resource_uri: str) -> Caller | None:
    close_old_connections()
    try:
        return caller_for_bearer_header(header, resource_uri=resource_uri)
    finally:
        close_old_connections()


class McpBearerAuth:
    def __init__(self, app: ASGIApp, *, path: str, security: TransportSecuritySettings) -> None:
        self.app = app
        self.path = path
        # Host and Origin, checked before anything else (a challenge is built from the Host).
        self.transport_security = McpTransportSecurity(security)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != self.path:
            await self.app(scope, receive, send)
            return
        send = jsonrpc_errors_only(send)
        request = Request(scope)
        # A foreign Host or Origin is refused as the SDK refuses it (421, 403), never sent to
        # discovery on a host the request chose (RFC 9728 §5.1).
        refusal = await self.transport_security.validate_request(request) or body_refusal(request)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        header = request.headers.get("authorization")
        if header is None and settings.MCP_TRUST_OPENAI_SUBJECT:
            # Development and tests only: the subject in the call's _meta stands in for sign-in.
            await self.app(scope, receive, send)
            return
        resource_uri = str(request.url.replace(query=""))
        caller = None
        if header is not None:
            # A cached caller needs no thread hop (most calls); otherwise the database decides.
            try:
                caller = cached_caller(header, resource_uri=resource_uri) or await sync_to_async(
                    _verify, thread_sensitive=False
                )(header, resource_uri)
            except Exception as exc:
                if not is_outage(exc):
                    raise
                log.error("mcp_database_unavailable", path=self.path)
                cid = correlation_id_from(request.headers.get("x-correlation-id"))
                response = jsonrpc_error(
                    unavailable_error(cid), status=503, code=JSONRPC_INTERNAL_ERROR
                )
                response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
                await response(scope, receive, send)
                return
        if caller is None:
            response = challenge(
                base_url=str(request.base_url), path=self.path, invalid_token=header is not None
            )
            await response(scope, receive, send)
            return
        scope.setdefault("state", {})[CALLER_STATE] = caller
        await self.app(scope, receive, send)
