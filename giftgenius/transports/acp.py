"""Agentic Commerce Protocol over REST, under /acp/: the five checkout-session operations and
the /.well-known/acp.json discovery document.

The views are thin: they check what the protocol asks of every request (an agent's bearer
key, API-Version, a signature where the agent has a secret, the Idempotency-Key of a POST),
then call checkout.agentic's services, which the MCP tools call too. Idempotency follows the
protocol's rule for this surface (every answer below 500 is kept and replayed), on the tools'
one key store (tool_runtime.idempotency).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable
from datetime import datetime
from typing import Any

import orjson
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from checkout.agentic import sessions
from checkout.agentic.errors import AcpError
from checkout.agentic.requests import SPEC_VERSION
from tool_runtime import idempotency
from tool_runtime.errors import ToolError
from tool_runtime.models import ApiToken
from tool_runtime.observability import correlation_id_from, get_logger
from tool_runtime.outcome import is_outage
from tool_runtime.principals import agent_token_for_bearer_header

log = get_logger("giftgenius.transports.acp")
MAX_KEY_LENGTH = 255
RETRY_AFTER_SECONDS = 2
# What runs an operation: (agent's user, session id, parsed body, correlation id, locale).
Operation = Callable[[Any, str, Any, str, str], dict[str, Any]]


def _error(exc: AcpError) -> tuple[int, dict[str, Any]]:
    return exc.status, exc.body()


def _respond(
    request: HttpRequest, status: int, body: Any, headers: dict[str, str] | None = None
) -> HttpResponse:
    response = HttpResponse(orjson.dumps(body), status=status, content_type="application/json")
    for name, value in (headers or {}).items():
        response[name] = value
    if request_id := request.headers.get("Request-Id"):
        response["Request-Id"] = request_id[:200]
    if key := request.headers.get("Idempotency-Key"):
        response["Idempotency-Key"] = key[:MAX_KEY_LENGTH]
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


def _check_version(request: HttpRequest) -> None:
    version = request.headers.get("API-Version")
    supported = ", ".join(settings.ACP_SUPPORTED_VERSIONS)
    if not version:
        raise AcpError(
            400,
            "missing_api_version",
            f"The API-Version header is required; supported versions: {supported}.",
        )
    if version not in settings.ACP_SUPPORTED_VERSIONS:
        raise AcpError(
            400,
            "unsupported_api_version",
            f"API-Version {version[:40]!r} is not supported; supported versions: {supported}.",
        )


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
    if not fresh or not hmac.compare_digest(signature.rstrip("="), expected):
        raise AcpError(
            401,
            "invalid_signature",
            "The Signature does not match the body and Timestamp (or the Timestamp is not "
            "within five minutes of now).",
        )


def _body(request: HttpRequest, *, optional: bool) -> Any:
    if not request.body:
        if optional:
            return {}
        raise AcpError(400, "invalid", "The request needs a JSON body.", param="$")
    media_type = request.content_type or ""
    if media_type != "application/json":
        raise AcpError(400, "invalid", "Send the body as 'Content-Type: application/json'.")
    try:
        return orjson.loads(request.body)
    except orjson.JSONDecodeError:
        raise AcpError(400, "invalid", "The body is not valid JSON.", param="$") from None


def _surface(request: HttpRequest) -> str:
    # Keys are scoped to the identity and the endpoint's path (RFC §6.1).
    path = "acp:" + request.path.removeprefix("/acp")
    return path if len(path) <= 64 else "acp:" + hashlib.sha256(path.encode()).hexdigest()[:56]


def _keyed(request: HttpRequest, *, user: Any, body: Any, cid: str, run: Callable) -> HttpResponse:
    """Run `run()` under the request's Idempotency-Key, the protocol's way."""
    key = request.headers.get("Idempotency-Key")
    if not key:
        raise AcpError(
            400,
            "idempotency_key_required",
            "Idempotency-Key header is required on all POST requests.",
        )
    if len(key) > MAX_KEY_LENGTH:
        raise AcpError(400, "invalid", f"Idempotency-Key is at most {MAX_KEY_LENGTH} characters.")
    try:
        found = idempotency.replay_or_claim_request(
            principal=user, surface=_surface(request), key=key, body=body, correlation_id=cid
        )
    except ToolError as refused:
        if refused.code == "IDEMPOTENCY_KEY_REUSED":
            raise AcpError(
                422,
                "idempotency_conflict",
                "Idempotency-Key has already been used with a different request body.",
            ) from None
        raise AcpError(
            409,
            "idempotency_in_flight",
            "A request with this Idempotency-Key is currently being processed.",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        ) from None
    if isinstance(found, idempotency.StoredAnswer):
        return _respond(request, found.status, found.body, {"Idempotent-Replayed": "true"})
    try:
        status, answer, headers = run()
    except Exception:
        idempotency.release(found)  # a 5xx is never stored: the retry runs afresh
        raise
    idempotency.settle_request(found, status=status, body=answer)
    return _respond(request, status, answer, headers)


def _operation(
    request: HttpRequest, run: Operation, *, session_id: str = "", created: bool = False
) -> HttpResponse:
    cid = correlation_id_from(request.headers.get("Request-Id"))
    locale = getattr(request, "LANGUAGE_CODE", "en")
    try:
        token = _agent(request)
        _check_version(request)
        _check_signature(request, token)
        if request.method == "GET":
            return _respond(request, 200, run(token.user, session_id, None, cid, locale))
        body = _body(request, optional=request.path.endswith("/cancel"))

        def attempt() -> tuple[int, Any, dict[str, str]]:
            try:
                return 201 if created else 200, run(token.user, session_id, body, cid, locale), {}
            except AcpError as refused:
                return refused.status, refused.body(), refused.headers

        return _keyed(request, user=token.user, body=body, cid=cid, run=attempt)
    except AcpError as refused:
        return _respond(request, refused.status, refused.body(), refused.headers)
    except Exception as exc:
        if is_outage(exc):
            log.error("acp_database_unavailable", path=request.path, correlation_id=cid)
            body = {"type": "service_unavailable", "code": "unavailable", "message": "Try again."}
            return _respond(request, 503, body, {"Retry-After": str(RETRY_AFTER_SECONDS)})
        log.exception("acp_call_crashed", path=request.path, correlation_id=cid)
        body = {
            "type": "processing_error",
            "code": "internal_error",
            "message": f"Something went wrong on our side (reference {cid}). Try again.",
        }
        return _respond(request, 500, body)


@csrf_exempt
@require_http_methods(["POST"])
def checkout_sessions(request: HttpRequest) -> HttpResponse:
    return _operation(
        request,
        lambda user, _id, body, cid, locale: sessions.create_session(
            owner=user, body=body, correlation_id=cid, locale=locale
        ),
        created=True,
    )


@csrf_exempt
@require_http_methods(["GET", "POST"])
def checkout_session(request: HttpRequest, session_id: str) -> HttpResponse:
    if request.method == "GET":
        run: Operation = lambda user, sid, body, cid, locale: sessions.get_session(  # noqa: E731
            owner=user, session_id=sid
        )
    else:
        run = lambda user, sid, body, cid, locale: sessions.update_session(  # noqa: E731
            owner=user, session_id=sid, body=body, correlation_id=cid
        )
    return _operation(request, run, session_id=session_id)


@csrf_exempt
@require_http_methods(["POST"])
def complete(request: HttpRequest, session_id: str) -> HttpResponse:
    return _operation(
        request,
        lambda user, sid, body, cid, locale: sessions.complete_session(
            owner=user, session_id=sid, body=body, correlation_id=cid
        ),
        session_id=session_id,
    )


@csrf_exempt
@require_http_methods(["POST"])
def cancel(request: HttpRequest, session_id: str) -> HttpResponse:
    return _operation(
        request,
        lambda user, sid, body, cid, locale: sessions.cancel_session(
            owner=user, session_id=sid, correlation_id=cid
        ),
        session_id=session_id,
    )


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
