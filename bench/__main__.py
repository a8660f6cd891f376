"""Benchmark GiftGenius over HTTP against a real uvicorn process.

Scenarios (each with concurrent clients, after a warm-up):
  floor          GET /healthz: the framework floor (same ASGI + Django stack, no tool work)
  suggest_gifts  the ranking tool over the whole demo catalog
  get_workflow   the cheapest workflow read
  checkout       prepare_order + commit_order (pm_card_visa), measured together
  replay         commit_order replayed with the same idempotency key (stored result)
  mcp <tool>     get_workflow and suggest_gifts as raw JSON-RPC tools/call over /mcp
                 (streamable HTTP, after initialize), to compare with the same tool over REST
  mcp/2026 <tool> the same in the 2026-07-28 era: no handshake, a self-contained envelope
  reference      tools/call on a pizzaz-like server (bench/reference_server.py: the same SDK,
                 static data, no database), the throughput bar, measured in the same run
and the size of the widget shell as a host reads it (resources/read over /mcp), gzipped.
Beside each scenario: the CPU cores busy on average in the app's processes, the database server
(PostgreSQL; SQLite runs inside the app) and the benchmark's own clients, to show the limit.
Every scenario starts with WARMUP_CALLS calls that are not measured; every p50 is also given
as a ratio to the floor measured in the same run (the machine is shared, so only ratios compare).

Usage: python -m bench [--requests N] [--concurrency C] [--database-url URL] [--workers W]
Without --database-url a fresh SQLite file under var/bench/ is used.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psutil
from mcp_types import CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY
from mcp_types.version import LATEST_HANDSHAKE_VERSION, LATEST_MODERN_VERSION

from bench.reference_server import TOOL_NAME as REFERENCE_TOOL
from widget.shell import GZIP_BUDGET_BYTES, gzipped_size

ROOT = Path(__file__).resolve().parent.parent
WARMUP_CALLS = 20
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def prepare_database(env: dict[str, str], *, root: Path = ROOT) -> str:
    """Migrate, seed, give the catalog deep stock, gather its statistics for the planner, and
    return a bearer token for a bench user."""
    manage = [sys.executable, "manage.py"]
    for args in (
        ["migrate", "--noinput", "-v0"],
        ["migrate", "--database", "payment_ledger", "--noinput", "-v0"],
        ["seed_catalog"],
        ["ensure_demo_users"],
    ):
        subprocess.run(manage + args, cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)
    script = (
        # Written to run in any tree a comparison names: before the apps were split, the
        # catalog and the tokens lived in the project package.
        "import django, importlib; django.setup();"
        "from django.apps import apps;"
        "Product = next(m for m in apps.get_models() if m.__name__ == 'Product');"
        "Product.objects.filter(active=True).update(stock=1000000);"
        "from django.contrib.auth import get_user_model;"
        "found = importlib.util.find_spec('tool_runtime');"
        "issue_api_token = importlib.import_module("
        "'tool_runtime.principals' if found else 'giftgenius.principals').issue_api_token;"
        "u,_=get_user_model().objects.get_or_create(username='bench');"
        # The catalog's statistics, as autovacuum gathers them soon after a bulk load on a
        # server where it is on (this machine's PostgreSQL runs with it off). Only the catalog:
        # the tables the run fills start empty, and statistics taken now would tell the planner
        # they stay empty (the workflow read then walked its owner's index, not the primary
        # key); never analyzed, they are sized by the planner as they grow.
        "from django.db import connection;"
        "connection.vendor == 'postgresql' and connection.cursor().execute("
        "'ANALYZE ' + connection.ops.quote_name(Product._meta.db_table));"
        "print(issue_api_token(user=u))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip().splitlines()[-1]


GIFTGENIUS_APP = "giftgenius.asgi:application"
REFERENCE_APP = "bench.reference_server:app"


def start_server(
    env: dict[str, str],
    port: int,
    *,
    workers: int,
    log: Path,
    app: str = GIFTGENIUS_APP,
    root: Path = ROOT,
) -> subprocess.Popen:
    """Start uvicorn serving `app` from the tree at `root`, and wait until every worker has
    started: connections opened before a worker is up all go to the others, and a 2-worker run
    would measure one worker."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as stderr:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                app,
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "info",  # for the "Application startup complete." of each worker
                "--no-access-log",
                "--workers",
                str(workers),
            ],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        started = log.read_text().count("Application startup complete.")
        try:
            status = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code
        except httpx.HTTPError:
            status = None
        # The reference server has no /healthz: any answer of its own means it is up.
        healthy = status == 200 or (app != GIFTGENIUS_APP and status is not None)
        if healthy and started >= workers:
            return server
        time.sleep(0.2)
    server.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text()[-4000:]}")


def serving_processes(server: subprocess.Popen, port: int) -> list[psutil.Process]:
    """uvicorn's worker processes (those holding the listening socket), or uvicorn itself."""
    parent = psutil.Process(server.pid)

    def listens(process: psutil.Process) -> bool:
        return any(
            c.status == psutil.CONN_LISTEN and c.laddr.port == port
            for c in process.net_connections("tcp")
        )

    return [p for p in parent.children() if listens(p)] or [parent]


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


class CpuMeter:
    """CPU time (user + system) spent by the app's processes, the database server's and this
    benchmark's own (the clients), to tell which one a scenario is limited by."""

    def __init__(self, server: subprocess.Popen) -> None:
        self.server = psutil.Process(server.pid)
        self.client = psutil.Process()

    def _database(self) -> list[psutil.Process]:
        return [p for p in psutil.process_iter(["name"]) if p.info["name"] == "postgres"]

    @staticmethod
    def _seconds(processes: list[psutil.Process]) -> float:
        total = 0.0
        for process in processes:
            try:
                times = process.cpu_times()
            except psutil.Error:  # a process that ended meanwhile
                continue
            total += times.user + times.system
        return total

    def sample(self) -> tuple[dict[int, float], float, float]:
        """(seconds per app process, database seconds, client seconds) so far."""
        server = [self.server, *self.server.children(recursive=True)]
        return (
            {process.pid: self._seconds([process]) for process in server},
            self._seconds(self._database()),
            self._seconds([self.client]),
        )

    @staticmethod
    def cores(before: tuple, after: tuple, elapsed: float) -> list[float]:
        """[app, busiest app process, database, clients]: cores busy on average."""
        app = [(spent - before[0].get(pid, 0.0)) / elapsed for pid, spent in after[0].items()]
        rest = [(a - b) / elapsed for a, b in zip(after[1:], before[1:], strict=True)]
        return [sum(app), max(app), *rest]


def measure(
    name: str,
    call: Callable[[httpx.Client], float],
    *,
    requests: int,
    concurrency: int,
    clients: list[httpx.Client],
    cpu: CpuMeter,
) -> dict:
    # Warm-up: connections, caches, first-request imports; every client at least once.
    for i in range(max(WARMUP_CALLS, len(clients))):
        call(clients[i % len(clients)])
    per_worker = max(1, requests // concurrency)

    def worker(k: int) -> list[float]:
        # Each client cycles over its own connections (see CONNECTIONS_PER_CLIENT).
        own = clients[k::concurrency]
        return [call(own[i % len(own)]) for i in range(per_worker)]

    cpu_before = cpu.sample()
    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        samples = [s for batch in pool.map(worker, range(concurrency)) for s in batch]
    elapsed = time.perf_counter() - started
    cores = cpu.cores(cpu_before, cpu.sample(), elapsed)
    samples.sort()

    def pct(p: float) -> float:
        return percentile(samples, p)

    return {
        "name": name,
        "n": len(samples),
        "p50": pct(0.50),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "mean": statistics.fmean(samples) * 1000,
        "rps": len(samples) / elapsed,
        "cores": cores,  # CPU cores busy: app, its busiest process, database, benchmark clients
    }


def percentile(sorted_samples: list[float], p: float) -> float:
    """The p-quantile of sorted durations in seconds, in milliseconds."""
    return sorted_samples[min(len(sorted_samples) - 1, int(p * len(sorted_samples)))] * 1000


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


def served_env() -> dict[str, str]:
    """The app as a benchmark serves it: no debug, warnings only, no fault injection."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "giftgenius.settings.dev",
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "FAULT_INJECTION_ENABLED": "0",
    }


def run(args: argparse.Namespace) -> None:
    env = served_env()
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
        label = "PostgreSQL"
    else:
        bench_dir = ROOT / "var" / "bench"
        shutil.rmtree(bench_dir, ignore_errors=True)
        bench_dir.mkdir(parents=True)
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = str(bench_dir / "bench.sqlite3")
        label = "SQLite"
    token = prepare_database(env)
    port = free_port()
    server = start_server(env, port, workers=args.workers, log=ROOT / "var" / "bench-server.log")
    cpu = CpuMeter(server)
    headers = {"Authorization": f"Bearer {token}"}
    clients = balanced_clients(
        max(args.concurrency_levels) * CONNECTIONS_PER_CLIENT,
        server=server,
        port=port,
        headers=headers,
    )
    try:
        shell = widget_shell_size(clients[0])
        reads = read_scenarios(clients)
        replays: list[tuple[httpx.Client, dict]] = []
        first_commits: list[float] = []  # the commit_order half of each checkout, first call

        def checkout(c: httpx.Client) -> float:
            wid = tool(c, "start_gift_workflow", {})["workflow_id"]
            gift = tool(c, "suggest_gifts", {"workflow_id": wid, **BRIEF})["gifts"][0]
            tool(c, "select_gift", {"workflow_id": wid, "product_id": gift["product_id"]})
            started = time.perf_counter()
            draft = tool(
                c,
                "prepare_order",
                {
                    "workflow_id": wid,
                    "payment_method_id": "pm_card_visa",
                    "shipping": SHIPPING,
                    "idempotency_key": uuid.uuid4().hex,
                },
            )
            commit = {
                "workflow_id": wid,
                "order_id": draft["order_id"],
                "confirmation_token": draft["_meta"]["confirmation_token"],
                "idempotency_key": uuid.uuid4().hex,
            }
            commit_started = time.perf_counter()
            tool(c, "commit_order", commit)
            finished = time.perf_counter()
            first_commits.append(finished - commit_started)
            replays.append((c, commit))
            return finished - started

        def commit_only(c: httpx.Client, body: dict) -> float:
            return timed(lambda: tool(c, "commit_order", body))

        results: list[dict] = []
        for level in args.concurrency_levels:

            def at(name: str, fn, n: int, level: int = level) -> None:
                result = measure(name, fn, requests=n, concurrency=level, clients=clients, cpu=cpu)
                results.append({**result, "c": level})

            for name, call in reads.items():
                at(name, call, args.requests)
            first_commits.clear()
            at("checkout (prepare+commit)", checkout, args.checkout_requests)
            measured = sorted(first_commits[-args.checkout_requests :])
            results.append(
                {
                    "name": FIRST_COMMIT,
                    "c": level,
                    "n": len(measured),
                    **{f"p{q}": percentile(measured, q / 100) for q in (50, 95, 99)},
                    "rps": float("nan"),
                    "cores": None,
                }
            )
            # Each replay needs a stored commit: warm-up and measured calls both use one.
            stored = list(replays)
            replay_iter = iter(stored)
            replays.clear()

            def replay(c: httpx.Client, replay_iter=replay_iter) -> float:
                _, body = next(replay_iter)
                return commit_only(c, body)

            at(REPLAY, replay, len(stored) - max(WARMUP_CALLS, len(clients)))
    finally:
        for c in clients:
            c.close()
        server.terminate()
        server.wait(10)
    results += measure_reference(env, args)
    report(results, label=label, workers=args.workers, shell=shell, levels=args.concurrency_levels)


def measure_reference(env: dict[str, str], args: argparse.Namespace) -> list[dict]:
    """tools/call on the pizzaz-like reference server (bench.reference_server), with as many
    uvicorn processes as GiftGenius had (pizzaz itself ships one), started once GiftGenius has
    stopped so the two never share the CPU."""
    port = free_port()
    server = start_server(
        env, port, workers=args.workers, log=ROOT / "var" / "bench-reference.log", app=REFERENCE_APP
    )
    clients = balanced_clients(
        max(args.concurrency_levels) * CONNECTIONS_PER_CLIENT, server=server, port=port, headers={}
    )
    try:
        sessions = {id(c): McpSession(c) for c in clients}

        def call(c: httpx.Client) -> float:
            return timed(lambda: sessions[id(c)].call(REFERENCE_TOOL, {"pizza_topping": "basil"}))

        cpu = CpuMeter(server)
        return [
            {
                **measure(
                    REFERENCE, call, requests=args.requests, concurrency=c, clients=clients, cpu=cpu
                ),
                "c": c,
            }
            for c in args.concurrency_levels
        ]
    finally:
        for c in clients:
            c.close()
        server.terminate()
        server.wait(10)


FLOOR = "floor (GET /healthz)"
ENVELOPE_SUGGEST = "mcp/2026 suggest_gifts"
ENVELOPE_GET_WORKFLOW = "mcp/2026 get_workflow"
REFERENCE = "reference tools/call (pizzaz)"
FIRST_COMMIT = "commit_order (first call)"
REPLAY = "commit_order replay"


def report(
    results: list[dict], *, label: str, workers: int, shell: tuple, levels: list[int]
) -> None:
    process = "one uvicorn process" if workers == 1 else f"{workers} uvicorn worker processes"
    print(f"\nGiftGenius benchmark — {label}, {process}, clients at a time: c\n")
    print(
        f"{'scenario':30} {'c':>3} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"
        f" {'req/s':>8} {'p50/floor':>10}  {'CPU cores: app (busiest) / db / clients':>38}"
    )
    floors = {r["c"]: r["p50"] for r in results if r["name"] == FLOOR}
    for r in results:
        print(
            f"{r['name']:30} {r['c']:3d} {r['n']:5d} {r['p50']:8.2f} {r['p95']:8.2f}"
            f" {r['p99']:8.2f} {r['rps']:8.1f} {r['p50'] / floors[r['c']]:9.2f}x  "
            + ("  {:11.2f} ({:4.2f}) / {:4.2f} / {:4.2f}".format(*r["cores"]) if r["cores"] else "")
        )
    print()
    uri, raw, gz = shell
    print(
        f"widget shell {uri}: {raw} bytes, {gz} bytes gzipped "
        f"({gz / 1024:.1f} KB of the {GZIP_BUDGET_BYTES / 1024:.0f} KB budget)"
    )
    for level in levels:
        by = {r["name"]: r for r in results if r["c"] == level}

        def vs(name: str, base: str, by=by) -> str:
            return f"{by[name]['p50'] / by[base]['p50']:.2f}x"

        print(
            f"c={level}: p50 vs floor: get_workflow {by['get_workflow']['p50'] / floors[level]:.2f}x,"
            f" suggest_gifts {by['suggest_gifts']['p50'] / floors[level]:.2f}x;"
            f" first commit_order = {vs(FIRST_COMMIT, REPLAY)} a replay;"
            f" /mcp vs REST p50: get_workflow {vs('mcp get_workflow', 'get_workflow')}"
            f" (2026 envelope {vs(ENVELOPE_GET_WORKFLOW, 'get_workflow')}),"
            f" suggest_gifts {vs('mcp suggest_gifts', 'suggest_gifts')}"
            f" (2026 envelope {vs(ENVELOPE_SUGGEST, 'suggest_gifts')});"
            f" get_workflow over /mcp {by['mcp get_workflow']['rps']:.0f}/s"
            f" and {by[ENVELOPE_GET_WORKFLOW]['rps']:.0f}/s (2026 envelope)"
            f" vs the pizzaz-like reference {by[REFERENCE]['rps']:.0f}/s"
            f" = {by['mcp get_workflow']['rps'] / by[REFERENCE]['rps']:.2f}x"
            f" and {by[ENVELOPE_GET_WORKFLOW]['rps'] / by[REFERENCE]['rps']:.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=800)
    parser.add_argument("--checkout-requests", type=int, default=200)
    parser.add_argument(
        "--concurrency",
        dest="concurrency_levels",
        type=lambda text: [int(part) for part in text.split(",")],
        default=[1, 8],
        help="comma-separated client counts, e.g. 1,8 (1 = latency, more = throughput)",
    )
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", ""))
    parser.add_argument(
        "--workers", type=int, default=1, help="uvicorn worker processes (scaling out)"
    )
    run(parser.parse_args())


if __name__ == "__main__":
    main()
