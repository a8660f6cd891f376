"""Agentic Commerce Protocol over REST, under /acp/: the five checkout-session operations and
the /.well-known/acp.json discovery document.

The views are thin: they check what the protocol asks of every request (an agent's bearer
key, API-Version, a signature where the agent has a secret, an Idempotency-Key on a POST) and
hand the operation to checkout.agentic.operations, which the MCP tools call too.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import datetime
from typing import Any

import orjson
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from checkout.agentic import operations, sessions
from checkout.agentic.errors import AcpError
from checkout.agentic.requests import SPEC_VERSION
from tool_runtime.models import ApiToken
from tool_runtime.observability import correlation_id_from, get_logger
from tool_runtime.outcome import is_outage
from tool_runtime.principals import agent_token_for_bearer_header

log = get_logger("giftgenius.transports.acp")


def _respond(
    request: HttpRequest, status: int, body: Any, headers: dict[str, str] | None = None
) -> HttpResponse:
    response = HttpResponse(orjson.dumps(body), status=status, content_type="application/json")
    for name, value in (headers or {}).items():
        response[name] = value
    if request_id := request.headers.get("Request-Id"):
        response["Request-Id"] = request_id[:200]
    if key := request.headers.get("Idempotency-Key"):
        response["Idempotency-Key"] = key[: operations.MAX_KEY_LENGTH]
    response["Content-Language"] = getattr(request, "LANGUAGE_CODE", "en")
    return response


def _agent(request: HttpRequest) -> ApiToken:
    token = agent_token_for_bearer_header(request.headers.get("Authorization"))
    if token is None:
        raise AcpError(
            401,
            "unauthorized",
            "Send 'Authorization: Bearer <key>' with an agent key the shop issued.",
            headers={"WWW-Authenticate": 'Bearer realm="acp"'},
        )
    return token


def request_signature(secret: str, timestamp: str, body: bytes) -> str:
    """base64url(HMAC-SHA256(secret, Timestamp + "." + body)), without padding."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _check_signature(request: HttpRequest, token: ApiToken) -> None:
    if not token.signing_secret:
        return
    signature = request.headers.get("Signature", "")
    timestamp = request.headers.get("Timestamp", "")
    try:
        sent_at = datetime.fromisoformat(timestamp)
    except ValueError:
        sent_at = None
    fresh = (
        sent_at is not None
        and sent_at.tzinfo is not None
        and abs((timezone.now() - sent_at).total_seconds())
        <= settings.ACP_SIGNATURE_MAX_SKEW_SECONDS
    )
    expected = request_signature(token.signing_secret, timestamp, request.body)
    # As bytes: compare_digest refuses str with non-ASCII characters (a header may carry any).
    sent = signature.rstrip("=").encode("utf-8", "surrogateescape")
    if not fresh or not hmac.compare_digest(sent, expected.encode()):
        raise AcpError(
            401,
            "invalid_signature",
            "The Signature does not match the body and Timestamp (or the Timestamp is not "
            "within five minutes of now).",
        )


def _body(request: HttpRequest, *, optional: bool) -> Any:
    if not request.body:
        if optional:
            return None
        raise AcpError(400, "invalid", "The request needs a JSON body.", param="$")
    if (request.content_type or "") != "application/json":
        raise AcpError(400, "invalid", "Send the body as 'Content-Type: application/json'.")
    try:
        return orjson.loads(request.body)
    except orjson.JSONDecodeError:
        raise AcpError(400, "invalid", "The body is not valid JSON.", param="$") from None


def _operation(request: HttpRequest, operation: str, session_id: str = "") -> HttpResponse:
    cid = correlation_id_from(request.headers.get("Request-Id"))
    try:
        token = _agent(request)
        operations.check_version(request.headers.get("API-Version"))
        _check_signature(request, token)
        is_post = request.method == "POST"
        done = operations.answer(
            principal=token.user,
            operation=operation,
            session_id=session_id,
            body=_body(request, optional=operation == "cancel") if is_post else None,
            # Every POST needs a key: a missing header is answered as the RFC asks.
            idempotency_key=request.headers.get("Idempotency-Key", "") if is_post else None,
            correlation_id=cid,
            locale=getattr(request, "LANGUAGE_CODE", "en"),
        )
    except AcpError as refused:
        return _respond(request, refused.status, refused.body(), refused.headers)
    except Exception as exc:
        if is_outage(exc):
            log.error("acp_database_unavailable", path=request.path, correlation_id=cid)
            body = {"type": "service_unavailable", "code": "unavailable", "message": "Try again."}
            return _respond(
                request, 503, body, {"Retry-After": str(operations.RETRY_AFTER_SECONDS)}
            )
        log.exception("acp_call_crashed", path=request.path, correlation_id=cid)
        body = {
            "type": "processing_error",
            "code": "internal_error",
            "message": f"Something went wrong on our side (reference {cid}). Try again.",
        }
        return _respond(request, 500, body)
    headers = {**done.headers, **({"Idempotent-Replayed": "true"} if done.replayed else {})}
    return _respond(request, done.status, done.body, headers)


@csrf_exempt
@require_http_methods(["POST"])
def checkout_sessions(request: HttpRequest) -> HttpResponse:
    return _operation(request, "create")


@csrf_exempt
@require_http_methods(["GET", "POST"])
def checkout_session(request: HttpRequest, session_id: str) -> HttpResponse:
    return _operation(request, "get" if request.method == "GET" else "update", session_id)


@csrf_exempt
@require_http_methods(["POST"])
def complete(request: HttpRequest, session_id: str) -> HttpResponse:
    return _operation(request, "complete", session_id)


@csrf_exempt
@require_http_methods(["POST"])
def cancel(request: HttpRequest, session_id: str) -> HttpResponse:
    return _operation(request, "cancel", session_id)


@require_GET
def discovery(request: HttpRequest) -> HttpResponse:
    """/.well-known/acp.json: public, cacheable (the discovery RFC's §4)."""
    base = settings.PUBLIC_ORIGIN.rstrip("/")
    response = JsonResponse(
        {
            "protocol": {
                "name": "acp",
                "version": SPEC_VERSION,
                "supported_versions": list(settings.ACP_SUPPORTED_VERSIONS),
                "documentation_url": f"{base}/acp/",
            },
            "api_base_url": f"{base}/acp",
            "transports": ["rest", "mcp"],
            "capabilities": {
                "services": ["checkout"],
                "supported_currencies": sessions.currencies_sold(),
                "supported_locales": [code for code, _ in settings.LANGUAGES],
            },
        }
    )
    response["Cache-Control"] = "public, max-age=3600"
    return response
