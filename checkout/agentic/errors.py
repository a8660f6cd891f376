"""The Agentic Commerce Protocol's protocol-level error: {type, code, message, param}, with
`param` an RFC 9535 JSONPath into the request. Business problems of a session that exists are
not errors but the session's `messages`."""

from __future__ import annotations

from typing import Any


class AcpError(Exception):
    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        param: str | None = None,
        type: str = "invalid_request",
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.param = param
        self.type = type
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"type": self.type, "code": self.code, "message": self.message}
        if self.param:
            body["param"] = self.param
        return {**body, **self.extra}


def not_found(session_id: str) -> AcpError:
    # Another agent's session is answered exactly as one that does not exist.
    shown = "".join(c if c.isprintable() else "?" for c in session_id[:80])
    return AcpError(404, "not_found", f"There is no checkout session {shown!r}.")
