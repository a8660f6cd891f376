"""What /mcp answers at the HTTP level, before a JSON-RPC message is read: the Host and Origin
checks, and the refusals of a body that is not JSON or too large. Every such answer is a
JSON-RPC error (the contract's error object in `data` when it has a code), never plain text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import orjson
from mcp.server.transport_security import (
    DEFAULT_MAX_REQUEST_BODY_SIZE,
    TransportSecurityMiddleware,
)
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import Message, Send

from tool_runtime.errors import ToolError

# JSON-RPC 2.0's "Invalid Request" (the client's fault) and "Internal error" (ours).
JSONRPC_INVALID_REQUEST = -32600
JSONRPC_INTERNAL_ERROR = -32603
# The contract's code for a bare HTTP refusal by its status, where the contract has one.
CONTRACT_CODES = {
    405: "METHOD_NOT_ALLOWED",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    500: "INTERNAL_ERROR",
}
MAX_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE  # the SDK's own limit, refused here first

# host, or host:port; a host is a bracketed IPv6 address or a name without ':', '/', '@'.
_AUTHORITY = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[^\s:/@\[\]]+)(?::([0-9]{1,5}))?")
ANY_PORT = ":*"


def _split_authority(text: str) -> tuple[str, str | None] | None:
    found = _AUTHORITY.fullmatch(text)
    return (found.group(1).lower(), found.group(2)) if found else None


def authority_allowed(authority: str, allowed: Iterable[str]) -> bool:
    """`host[:port]` against entries `host`, `host:port` or `host:*` (any port), host and port
    each compared whole: `127.0.0.1:*` allows `127.0.0.1:8614`, not `127.0.0.1:8614.evil`."""
    found = _split_authority(authority)
    if found is None:
        return False
    host, port = found
    for entry in allowed:
        any_port = entry.endswith(ANY_PORT)
        wanted = _split_authority(entry[: -len(ANY_PORT)] if any_port else entry)
        if wanted is None or wanted[0] != host:
            continue
        if (any_port and port is not None) or (not any_port and wanted[1] == port):
            return True
    return False


def origin_allowed(origin: str, allowed: Iterable[str]) -> bool:
    """`scheme://host[:port]` against entries of that form (a port may be `*`)."""
    scheme, sep, authority = origin.partition("://")
    if not sep:
        return False
    entries = [e.partition("://")[2] for e in allowed if e.startswith(f"{scheme.lower()}://")]
    return authority_allowed(authority, entries)


class McpTransportSecurity(TransportSecurityMiddleware):
    """The SDK's Host and Origin checks, with host and port matched as whole tokens (the SDK
    reads `host:*` as a prefix)."""

    def _validate_host(self, host: str | None) -> bool:
        return host is not None and authority_allowed(host, self.settings.allowed_hosts)

    def _validate_origin(self, origin: str | None) -> bool:
        return not origin or origin_allowed(origin, self.settings.allowed_origins)


def jsonrpc_error(
    error: ToolError, *, status: int, code: int = JSONRPC_INVALID_REQUEST
) -> JSONResponse:
    """An answer outside a tool call, as a JSON-RPC error (the request's id is not known here):
    `message` says what to do, `data` is the contract's error object."""
    return JSONResponse(_jsonrpc_body(code, error.message, error.to_dict()), status_code=status)


def _jsonrpc_body(code: int, message: str, data: dict | None) -> dict:
    error = {"code": code, "message": message, **({"data": data} if data else {})}
    return {"jsonrpc": "2.0", "id": None, "error": error}


def body_refusal(request: Request) -> JSONResponse | None:
    """A POST whose body is not JSON, or declares more bytes than /mcp reads."""
    if request.method != "POST":
        return None
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type != "application/json":
        error = ToolError(
            "UNSUPPORTED_MEDIA_TYPE",
            "A message to /mcp is JSON-RPC: send it with 'Content-Type: application/json'.",
            field="Content-Type",
            expected="application/json",
            example="application/json",
        )
        return jsonrpc_error(error, status=415)
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY_BYTES:
        return jsonrpc_error(too_large(), status=413)
    return None


def too_large() -> ToolError:
    return ToolError(
        "PAYLOAD_TOO_LARGE",
        f"The request body is larger than {MAX_BODY_BYTES} bytes; a JSON-RPC message to /mcp "
        "is far smaller. Send only the call's own fields.",
        field="(body)",
        expected=f"a JSON-RPC message of at most {MAX_BODY_BYTES} bytes",
    )


def jsonrpc_errors_only(send: Send) -> Send:
    """`send`, with an error answer that is not JSON (the SDK's plain-text 400, 413 or 421, a
    bare 500) rewritten as a JSON-RPC error with the same status and headers."""
    start: Message | None = None
    text = bytearray()

    async def wrapped(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            headers = Headers(raw=message.get("headers", []))
            if message["status"] >= 400 and not headers.get("content-type", "").startswith(
                "application/json"
            ):
                start = message
                return
        elif message["type"] == "http.response.body" and start is not None:
            text.extend(message.get("body", b""))
            if message.get("more_body", False):
                return
            await _send_rewritten(send, start, text.decode(errors="replace").strip())
            return
        await send(message)

    return wrapped


async def _send_rewritten(send: Send, start: Message, text: str) -> None:
    status = start["status"]
    code = CONTRACT_CODES.get(status)
    if code == "PAYLOAD_TOO_LARGE":
        data = too_large().to_dict()
    elif code == "INTERNAL_ERROR":  # never the text of what failed
        data = ToolError(code, "The server failed unexpectedly. Retry once.").to_dict()
    else:
        message = text or "The request was refused."
        data = ToolError(code, message).to_dict() if code else None
    body = orjson.dumps(
        _jsonrpc_body(
            JSONRPC_INTERNAL_ERROR if status >= 500 else JSONRPC_INVALID_REQUEST,
            data["message"] if data else text or "The request was refused.",
            data,
        )
    )
    headers = MutableHeaders(raw=list(start.get("headers", [])))
    headers["content-type"] = "application/json"
    headers["content-length"] = str(len(body))
    await send({"type": "http.response.start", "status": status, "headers": headers.raw})
    await send({"type": "http.response.body", "body": body})
