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
import os
import shutil
import time
import uuid

import httpx

from bench.measure import WARMUP_CALLS, CpuMeter, measure, percentile, report
from bench.reference_server import TOOL_NAME as REFERENCE_TOOL
from bench.scenarios import (
    BRIEF,
    CONNECTIONS_PER_CLIENT,
    FIRST_COMMIT,
    REFERENCE,
    REPLAY,
    SHIPPING,
    McpSession,
    balanced_clients,
    read_scenarios,
    timed,
    tool,
    widget_shell_size,
)
from bench.servers import REFERENCE_APP, ROOT, free_port, prepare_database, served_env, start_server


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
