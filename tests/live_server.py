"""A real HTTP server for tests: giftgenius.asgi's app under uvicorn in a background thread.

    from tests.live_server import serve_app
    with serve_app() as base_url:          # e.g. "http://127.0.0.1:53121"
        ...

or the `live_url` fixture (enabled for every test through `pytest_plugins` in tests/conftest.py).
`McpTestClient(base_url)` talks to its /mcp endpoint with the SDK's own client, synchronously.
Tests that use it need `@pytest.mark.django_db(transaction=True, databases=["default",
"payment_ledger"])`: the server's threads use their own connections, so they only see committed
data (the SQLite test databases are files for this reason).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio
import httpx2
import pytest
import uvicorn
from django.test import override_settings
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, ReadResourceResult, Resource, Tool

STARTUP_LIMIT_SECONDS = 30.0
SHUTDOWN_LIMIT_SECONDS = 10.0


@contextlib.contextmanager
def serve_app(app: Any = None, *, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve `app` (default: a fresh `giftgenius.asgi.build_application()`); yield its base URL."""
    # Bind before starting so the port cannot be taken between choosing and listening.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    base_url = f"http://{host}:{port}"
    # The server is the app's public origin here: widget pictures are absolute URLs on it, and
    # the MCP resource (built with the app) names its origin among the resource domains.
    with override_settings(WIDGET_IMAGE_BASE_URL=base_url):
        if app is None:
            from giftgenius.asgi import build_application

            app = build_application()
        config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
        server = uvicorn.Server(config)
        thread = threading.Thread(
            target=server.run, kwargs={"sockets": [sock]}, name=f"live-server-{port}", daemon=True
        )
        thread.start()
        try:
            _wait_until_started(server, thread)
            yield base_url
        finally:
            server.should_exit = True
            thread.join(SHUTDOWN_LIMIT_SECONDS)
            sock.close()


def _wait_until_started(server: uvicorn.Server, thread: threading.Thread) -> None:
    deadline = time.monotonic() + STARTUP_LIMIT_SECONDS
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the live server stopped during startup (see the log above)")
        if time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"the live server did not start within {STARTUP_LIMIT_SECONDS:.0f}s")
        time.sleep(0.02)


@pytest.fixture
def live_url() -> Iterator[str]:
    """Base URL of a fresh live server (pair it with a transactional django_db mark)."""
    with serve_app() as base_url:
        yield base_url


class McpTestClient:
    """The mcp SDK client over streamable HTTP, wrapped for synchronous tests.

    Each call opens a connection (by default with the legacy initialize handshake, as ChatGPT
    does), so the test code between calls is ordinary synchronous code (ORM assertions included).
    """

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        mode: str = "legacy",
    ) -> None:
        """`mode` is the SDK client's: "legacy" (the initialize handshake, as ChatGPT speaks
        today), "auto" (discover, as a current SDK client does) or a 2026-07-28 version pin."""
        self.url = base_url.rstrip("/") + "/mcp"
        self.mode = mode
        self.headers = dict(headers or {})
        if token:
            self.headers["Authorization"] = f"Bearer {token}"

    def _run(self, action: Any) -> Any:
        """Run `action(client)` on a fresh event loop in its own thread: the calling thread may
        already have a loop (Playwright's sync API keeps one on the main thread)."""

        async def session() -> Any:
            timeout = httpx2.Timeout(30, read=120)
            async with (
                httpx2.AsyncClient(headers=self.headers, timeout=timeout) as http,
                Client(
                    streamable_http_client(self.url, http_client=http), mode=self.mode
                ) as client,
            ):
                return await action(client)

        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="mcp-test-client") as pool:
            return pool.submit(anyio.run, session).result()

    def handshake(self) -> tuple[str, Any]:
        """(negotiated protocol version, server info) after initialize."""

        async def action(client: Client) -> tuple[str, Any]:
            return client.protocol_version, client.server_info

        return self._run(action)

    def list_tools(self) -> list[Tool]:
        async def action(client: Client) -> list[Tool]:
            return (await client.list_tools()).tools

        return self._run(action)

    def call(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        meta: dict[str, Any] | None = None,
    ) -> CallToolResult:
        """Call a tool; the SDK checks a success's structuredContent against its outputSchema."""

        async def action(client: Client) -> CallToolResult:
            return await client.call_tool(name, arguments or {}, meta=meta)

        try:
            return self._run(action)
        finally:
            from tool_runtime import call_log

            call_log.flush()  # the server runs in this process: its batched rows, written now

    def list_resources(self) -> list[Resource]:
        async def action(client: Client) -> list[Resource]:
            return (await client.list_resources()).resources

        return self._run(action)

    def read_resource(self, uri: str) -> ReadResourceResult:
        async def action(client: Client) -> ReadResourceResult:
            return await client.read_resource(uri)

        return self._run(action)
