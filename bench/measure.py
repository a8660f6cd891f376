"""Measuring a scenario (latency percentiles, calls per second, the CPU busy in the app, the
database and the clients) and reporting every scenario as a ratio to the floor."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx
import psutil

from bench.scenarios import (
    ENVELOPE_GET_WORKFLOW,
    ENVELOPE_SUGGEST,
    FIRST_COMMIT,
    FLOOR,
    REFERENCE,
    REPLAY,
)
from widget.shell import GZIP_BUDGET_BYTES

WARMUP_CALLS = 20


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
