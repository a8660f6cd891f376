"""What a benchmark calls: the clients, the tool calls over REST and /mcp (both eras), and the
read scenarios in the order they are measured, each named once."""

from __future__ import annotations

import itertools
import json
import subprocess
import time
from collections.abc import Callable

import httpx
from mcp_types import CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY
from mcp_types.version import LATEST_HANDSHAKE_VERSION, LATEST_MODERN_VERSION

from bench.servers import serving_processes
from widget.shell import gzipped_size

# Each client keeps several keep-alive connections (spread evenly over the workers, see
# balanced_clients) and takes turns with them.
CONNECTIONS_PER_CLIENT = 4


MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


BRIEF = {
    "relationship": "friend",
    "interests": ["coffee", "cooking"],
    "budget_min": 10,
    "budget_max": 80,
    "currency": "USD",
}


# Each client asks with two briefs in turn, so every suggest_gifts records new ideas as a first
# suggestion does (the same brief again is a "Regenerate", which writes nothing).
SUGGESTION_BRIEFS = (BRIEF, {**BRIEF, "relationship": "colleague"})


SHIPPING = {
    "name": "Bench Buyer",
    "line1": "1 Main St",
    "city": "Springfield",
    "postal_code": "12345",
    "country": "US",
}


FLOOR = "floor (GET /healthz)"


ENVELOPE_SUGGEST = "mcp/2026 suggest_gifts"


ENVELOPE_GET_WORKFLOW = "mcp/2026 get_workflow"


REFERENCE = "reference tools/call (pizzaz)"


FIRST_COMMIT = "commit_order (first call)"


REPLAY = "commit_order replay"


def balanced_clients(
    count: int, *, server: subprocess.Popen, port: int, headers: dict[str, str]
) -> list[httpx.Client]:
    """`count` keep-alive clients whose connections are spread evenly over the worker
    processes. The kernel gives a new connection to whichever worker accepts first, and a
    2-worker run saw 21:11 on PostgreSQL: it measured one worker's share, not the app."""
    workers = serving_processes(server, port)
    share = -(-count // len(workers))  # ceiling
    held = dict.fromkeys((w.pid for w in workers), 0)
    clients: list[httpx.Client] = []
    for _ in range(count * 20):  # give up on balance, never on the run
        if len(clients) == count:
            break
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=30)
        response = client.get("/healthz")
        local_port = response.extensions["network_stream"].get_extra_info("client_addr")[1]
        owner = next(
            (
                w.pid
                for w in workers
                for c in w.net_connections("tcp")
                if c.raddr and c.raddr.port == local_port and c.laddr.port == port
            ),
            None,
        )
        if owner is not None and held[owner] >= share:
            client.close()
            continue
        if owner is not None:
            held[owner] += 1
        clients.append(client)
    while len(clients) < count:
        clients.append(
            httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=30)
        )
    return clients


def tool(client: httpx.Client, name: str, body: dict) -> dict:
    response = client.post(f"/api/tools/{name}", json=body)
    data = response.json()
    if not data.get("ok"):
        raise SystemExit(f"{name} failed during the benchmark: {data}")
    return data


def initialize_request() -> dict:
    """The handshake era's opening request, as every benchmark client sends it."""
    return {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": LATEST_HANDSHAKE_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "giftgenius-bench", "version": "1"},
        },
    }


class McpSession:
    """A raw JSON-RPC client of /mcp over streamable HTTP, in either era of the protocol:
    "handshake" (initialize, then tools/call with the negotiated version, as ChatGPT speaks
    today) or "envelope" (2026-07-28: no handshake, each request carries its own version,
    capabilities and routing headers). Answers may be JSON or one SSE event."""

    def __init__(self, client: httpx.Client, *, era: str = "handshake") -> None:
        self.client = client
        self.era = era
        self.headers = dict(MCP_HEADERS)
        self.next_id = 1
        if era == "envelope":
            self.headers["MCP-Protocol-Version"] = LATEST_MODERN_VERSION
            return
        response = client.post("/mcp", json=initialize_request(), headers=self.headers)
        response.raise_for_status()
        self.headers["MCP-Protocol-Version"] = rpc_body(response)["result"]["protocolVersion"]
        if session := response.headers.get("mcp-session-id"):
            self.headers["Mcp-Session-Id"] = session
        client.post(
            "/mcp",
            json={"jsonrpc": "2.0", "method": "notifications/initialized"},
            headers=self.headers,
        )

    def call(self, name: str, arguments: dict) -> dict:
        self.next_id += 1
        params: dict = {"name": name, "arguments": arguments}
        headers = self.headers
        if self.era == "envelope":
            params["_meta"] = {
                PROTOCOL_VERSION_META_KEY: LATEST_MODERN_VERSION,
                CLIENT_CAPABILITIES_META_KEY: {},
            }
            headers = {**headers, "Mcp-Method": "tools/call", "Mcp-Name": name}
        response = self.client.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call", "params": params},
            headers=headers,
        )
        result = rpc_body(response).get("result") or {}
        content = result.get("structuredContent")
        # GiftGenius's bodies carry "ok"; the reference's structured content does not.
        if result.get("isError") or not content or content.get("ok") is False:
            raise SystemExit(f"{name} over /mcp failed during the benchmark: {response.text}")
        return result


def rpc_body(response: httpx.Response) -> dict:
    """The JSON-RPC message of a streamable HTTP answer: a JSON body or a single SSE event."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:] for line in response.text.splitlines() if line.startswith("data:")]
        return json.loads(data[-1])
    return response.json()


def widget_shell_size(client: httpx.Client) -> tuple[str, int, int]:
    """(uri, bytes, gzipped bytes) of the MCP Apps resource, read as a host reads it."""

    def rpc(method: str, params: dict) -> dict:
        response = client.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params},
            headers={"Accept": "application/json, text/event-stream"},
        )
        response.raise_for_status()
        return response.json()["result"]

    listed = rpc("resources/list", {})["resources"]
    (uri,) = [r["uri"] for r in listed if r.get("mimeType") == "text/html;profile=mcp-app"]
    text = rpc("resources/read", {"uri": uri})["contents"][0]["text"]
    return uri, len(text.encode()), gzipped_size(text)


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def read_scenarios(clients: list[httpx.Client]) -> dict[str, Callable[[httpx.Client], float]]:
    """The floor and the read tools over REST and /mcp (both eras), in the order they are
    measured: each a function timing one call on a client (each client has its own workflow,
    with ideas)."""
    workflows = {id(c): tool(c, "start_gift_workflow", {})["workflow_id"] for c in clients}
    for c in clients:
        tool(c, "suggest_gifts", {"workflow_id": workflows[id(c)], **BRIEF})
    sessions = {id(c): McpSession(c) for c in clients}
    envelopes = {id(c): McpSession(c, era="envelope") for c in clients}
    briefs = {id(c): itertools.cycle(SUGGESTION_BRIEFS) for c in clients}

    def arguments(c: httpx.Client, name: str) -> dict:
        brief = next(briefs[id(c)]) if name == "suggest_gifts" else {}
        return {"workflow_id": workflows[id(c)], **brief}

    def floor(c: httpx.Client) -> float:
        return timed(lambda: c.get("/healthz").raise_for_status())

    def over_rest(name: str) -> Callable[[httpx.Client], float]:
        return lambda c: timed(lambda: tool(c, name, arguments(c, name)))

    def over_mcp(era: dict[int, McpSession], name: str) -> Callable[[httpx.Client], float]:
        """`name` as tools/call in one era's sessions, with the REST scenario's arguments."""
        return lambda c: timed(lambda: era[id(c)].call(name, arguments(c, name)))

    return {
        FLOOR: floor,
        "suggest_gifts": over_rest("suggest_gifts"),
        "get_workflow": over_rest("get_workflow"),
        "mcp suggest_gifts": over_mcp(sessions, "suggest_gifts"),
        "mcp get_workflow": over_mcp(sessions, "get_workflow"),
        ENVELOPE_SUGGEST: over_mcp(envelopes, "suggest_gifts"),
        ENVELOPE_GET_WORKFLOW: over_mcp(envelopes, "get_workflow"),
    }
