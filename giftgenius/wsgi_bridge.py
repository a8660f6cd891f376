"""Django's WSGI handler served inside the ASGI app, with one hop to its thread pool and back.

a2wsgi runs the WSGI app on a thread pool and, from that thread, waits on the event loop for
each message: the request body when Django reads it, the response start, every body chunk and
the end. That is four cross-thread round trips for a tool call (three for `/healthz`), each
waking the loop and then the thread again. Here the request body is read on the
loop before Django runs, and a whole (non-streaming) response goes back to the loop once Django
is done, so a request costs one hop into the pool and one back. The rest stays a2wsgi's: its
environ, its thread pool, and these cases:

- a body declared larger than `DATA_UPLOAD_MAX_MEMORY_SIZE` (Django refuses to read such a body
  into memory; a file upload streams) goes to a2wsgi, which hands it over as Django reads;
- a chunked body (no Content-Length) is read here too, up to one byte over that limit, and
  given to Django with the length read: under WSGI, Django reads no more than Content-Length,
  so it had seen such a body as empty (a tool call then lost its arguments), and it refuses one
  over its limit as it refuses a declared one;
- a streaming response (`StreamingHttpResponse`, a `FileResponse` such as WhiteNoise's) is sent
  chunk by chunk from the thread as Django produces it, never gathered in memory.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from django.conf import settings

Send = Callable[[dict[str, Any]], Any]


@dataclass
class _Response:
    """What the WSGI app answered, as ASGI messages' parts."""

    status: int = 500
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    chunks: list[bytes] = field(default_factory=list)

    def start_response(
        self, status: str, headers: list[tuple[str, str]], exc_info: Any = None
    ) -> Callable[[bytes], None]:
        # Nothing has been sent when this is called for a gathered response, so a second call
        # (with exc_info, PEP 3333) simply replaces the first.
        self.status = int(status.split(" ", 1)[0])
        self.headers = [
            (name.strip().lower().encode("latin1"), value.strip().encode("latin1"))
            for name, value in headers
        ]
        return self.chunks.append  # the legacy write() callable

    def start_message(self) -> dict[str, Any]:
        return {"type": "http.response.start", "status": self.status, "headers": self.headers}


class DjangoWSGIMiddleware(WSGIMiddleware):
    """a2wsgi's `WSGIMiddleware` for Django's `WSGIHandler`, one thread round trip a request."""

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Send) -> None:
        if scope["type"] != "http" or not _read_first(scope):
            await super().__call__(scope, receive, send)
            return
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        body = bytearray()
        more = True
        while more and (limit is None or len(body) <= limit):
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left before sending its whole request: nobody to answer
            body += message.get("body", b"")
            more = message.get("more_body", False)
        loop = asyncio.get_running_loop()
        environ = build_environ(scope, io.BytesIO(body))
        environ["CONTENT_LENGTH"] = str(len(body))  # what was read, chunked bodies included
        run = contextvars.copy_context().run
        response = await loop.run_in_executor(
            self.executor, run, self._respond, environ, loop, send
        )
        if response is not None:
            await send(response.start_message())
            await send({"type": "http.response.body", "body": b"".join(response.chunks)})

    def _respond(
        self, environ: dict[str, Any], loop: asyncio.AbstractEventLoop, send: Send
    ) -> _Response | None:
        """Run Django (on a pool thread); the whole response, or None if it was streamed."""
        response = _Response()
        iterable = self.app(environ, response.start_response)
        try:
            if not getattr(iterable, "streaming", False):
                response.chunks.extend(iterable)
                return response

            def send_now(message: dict[str, Any]) -> None:
                asyncio.run_coroutine_threadsafe(send(message), loop).result()

            send_now(response.start_message())
            # What the app wrote through write() before returning comes first (PEP 3333).
            for chunk in itertools.chain(response.chunks, iterable):
                if chunk:
                    send_now({"type": "http.response.body", "body": chunk, "more_body": True})
            send_now({"type": "http.response.body", "body": b""})
            return None
        finally:
            # Django's request_finished (and so its connection clean-up) runs here, on the
            # thread that served the request.
            close = getattr(iterable, "close", None)
            if close is not None:
                close()


def _read_first(scope: dict[str, Any]) -> bool:
    """Whether the body is read before Django runs: none, a chunked one, or one declared within
    Django's in-memory limit. A larger one, or a malformed Content-Length (which the HTTP parser
    refuses before this), is left to a2wsgi."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            return value.isdigit() and (limit is None or int(value) <= limit)
    return True
