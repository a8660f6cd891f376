"""Runs under valgrind's callgrind for `bench.instructions`: drives the app in this process and
has callgrind count each scenario's calls.

Run as a script by path (never imported from the benchmark), with the tree being measured on
PYTHONPATH and as the working directory: the app it imports is that tree's, whichever tree
this file comes from. Requests go to the same ASGI application uvicorn serves
(`giftgenius.asgi:application`: Starlette, the MCP SDK, the WSGI bridge, Django), handed to it
as uvicorn hands them over, so everything but uvicorn's HTTP parsing and the sockets is counted.

Usage (by bench.instructions):
    callgrind_driver.py '<json: token, calls, warmup, briefs, initialize>'
Prints one line per scenario: its name and the callgrind dump that holds its count.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable

from mcp_types import CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY
from mcp_types.version import LATEST_MODERN_VERSION

HOST = b"127.0.0.1:8000"
# How a failed answer shows in the compact JSON the app writes (a string's quotes are escaped,
# so no text inside an answer can look like these).
FAILED = b'"ok":false'
TOOL_ERROR = b'"isError":true'
RPC_ERROR = b'"error":{'
MCP_ACCEPT = (b"accept", b"application/json, text/event-stream")


def callgrind(command: str) -> None:
    """One callgrind_control command about this process. Callgrind reads commands only while
    this process runs guest code, so it keeps running (a few instructions a turn) until the
    command is answered."""
    control = subprocess.Popen(
        ["callgrind_control", command, str(os.getpid())],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    while control.poll() is None:
        pass
    answer = control.stdout.read().decode() if control.stdout else ""
    if control.returncode != 0 or "OK" not in answer:
        raise SystemExit(f"callgrind_control {command} failed: {answer}")


class Client:
    """Requests handed to an ASGI app as an HTTP server would, one at a time."""

    def __init__(self, app, token: str) -> None:
        self.app = app
        self.auth = (b"authorization", f"Bearer {token}".encode())
        # Parse and check every answer whole; off while counting, where parsing a view's HTML
        # would be counted as the app's work: then only the status and a failure's mark.
        self.parse = True

    async def request(
        self, method: str, path: str, body: object = None, headers: tuple = ()
    ) -> tuple[int, bytes]:
        data = json.dumps(body).encode() if body is not None else b""
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [
                (b"host", HOST),
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                self.auth,
                *headers,
            ],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
            "state": {},
        }
        delivered = False
        status, chunks = 0, []

        async def receive() -> dict:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": data, "more_body": False}
            await asyncio.Event().wait()  # the client stays connected
            raise AssertionError("unreachable")

        async def send(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, b"".join(chunks)

    async def tool(self, name: str, arguments: dict) -> dict:
        status, body = await self.request("POST", f"/api/tools/{name}", arguments)
        answer = json.loads(body) if self.parse else {"ok": FAILED not in body}
        if status != 200 or not answer.get("ok"):
            raise SystemExit(f"{name} failed: {status} {body[:500]!r}")
        return answer

    async def rpc(self, message: dict, headers: tuple) -> dict:
        status, body = await self.request("POST", "/mcp", message, (MCP_ACCEPT, *headers))
        if self.parse:
            answer = json.loads(body)
            result = answer.get("result") or {}
            content = result.get("structuredContent") or {}
            failed = "error" in answer or result.get("isError") or content.get("ok") is False
        else:
            result, failed = {}, FAILED in body or TOOL_ERROR in body or RPC_ERROR in body
        if status != 200 or failed:
            raise SystemExit(f"{message.get('method')} over /mcp failed: {status} {body[:500]!r}")
        return result


async def scenarios(
    client: Client, *, briefs: list[dict], initialize: dict
) -> dict[str, Callable[[], Awaitable[object]]]:
    """The read scenarios of `make bench`, with the same names and arguments (its briefs and
    its `initialize` request are handed over by bench.instructions)."""
    workflow_id = (await client.tool("start_gift_workflow", {}))["workflow_id"]
    await client.tool("suggest_gifts", {"workflow_id": workflow_id, **briefs[0]})
    turns = itertools.cycle(briefs)  # every suggest_gifts records new ideas, as in `make bench`

    def arguments(name: str) -> dict:
        brief = next(turns) if name == "suggest_gifts" else {}
        return {"workflow_id": workflow_id, **brief}

    initialized = await client.rpc(initialize, ())
    handshake = ((b"mcp-protocol-version", initialized["protocolVersion"].encode()),)

    def over_mcp(name: str, *, envelope: bool) -> Callable[[], Awaitable[object]]:
        def call() -> Awaitable[object]:
            params: dict = {"name": name, "arguments": arguments(name)}
            headers = handshake
            if envelope:
                params["_meta"] = {
                    PROTOCOL_VERSION_META_KEY: LATEST_MODERN_VERSION,
                    CLIENT_CAPABILITIES_META_KEY: {},
                }
                headers = (
                    (b"mcp-protocol-version", LATEST_MODERN_VERSION.encode()),
                    (b"mcp-method", b"tools/call"),
                    (b"mcp-name", name.encode()),
                )
            message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
            return client.rpc(message, headers)

        return call

    async def floor() -> None:
        status, _ = await client.request("GET", "/healthz")
        if status != 200:
            raise SystemExit(f"/healthz answered {status}")

    return {
        "floor (GET /healthz)": floor,  # bench.__main__.FLOOR: this file imports no bench code
        "suggest_gifts": lambda: client.tool("suggest_gifts", arguments("suggest_gifts")),
        "get_workflow": lambda: client.tool("get_workflow", arguments("get_workflow")),
        "mcp suggest_gifts": over_mcp("suggest_gifts", envelope=False),
        "mcp get_workflow": over_mcp("get_workflow", envelope=False),
        "mcp/2026 suggest_gifts": over_mcp("suggest_gifts", envelope=True),
        "mcp/2026 get_workflow": over_mcp("get_workflow", envelope=True),
    }


async def main(spec: dict) -> None:
    from giftgenius.asgi import application

    client = Client(application, spec["token"])
    async with application.router.lifespan_context(application):
        measured = await scenarios(client, briefs=spec["briefs"], initialize=spec["initialize"])
        callgrind("--instr=on")
        for number, (name, call) in enumerate(measured.items(), start=1):
            client.parse = True
            for _ in range(spec["warmup"]):
                await call()
            client.parse = False
            callgrind("--zero")
            for _ in range(spec["calls"]):
                await call()
            dump = f"scenario{number}"
            callgrind(f"--dump={dump}")
            print(json.dumps({"scenario": name, "dump": dump}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
