"""`make bench-ab REV=<commit>`: the read scenarios of `make bench` on two versions of the app
at once, driven in turns, to tell a change from the machine's drift.

Two whole `make bench` runs of the same code differ by up to 15 % on this shared machine; two
versions served side by side and driven in alternation (base then head, then head then base,
scenario by scenario) see the same drift, so their ratio is what the change did. The base is
the tree of REV (`git archive` into var/bench-ab/), the head is this working tree; both run in
this checkout's virtualenv (a REV with other dependencies needs them installed), each with its
own fresh database (SQLite files, or `<name>_base` / `<name>_head` beside --database-url's
database on the same PostgreSQL server) and its own uvicorn. Only one side is driven at a time.
Both are prepared and driven by this tree's benchmark code, so only the app differs.

Usage: python -m bench.ab REV [--rounds N] [--requests N] [--concurrency C]
                              [--database-url URL] [--workers W]
"""

from __future__ import annotations

import argparse
import io
import shutil
import statistics
import subprocess
import tarfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

from bench.measure import CpuMeter, measure
from bench.scenarios import CONNECTIONS_PER_CLIENT, balanced_clients, read_scenarios
from bench.servers import ROOT, free_port, prepare_database, served_env, start_server

AB_DIR = ROOT / "var" / "bench-ab"
SIDES = ("base", "head")


def commit_of(rev: str) -> str:
    found = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if found.returncode != 0:
        raise SystemExit(f"bench-ab: {rev!r} names no commit of this repository")
    return found.stdout.strip()


def tree_of(commit: str) -> Path:
    """The files of `commit`, exported once under var/bench-ab/."""
    root = AB_DIR / commit[:12]
    if not (root / "manage.py").exists():
        shutil.rmtree(root, ignore_errors=True)
        archive = subprocess.run(
            ["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True, check=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(root, filter="data")
    (root / "var").mkdir(exist_ok=True)
    return root


def fresh_postgresql(url: str, side: str) -> str:
    """The URL of a new, empty database beside --database-url's, named after it and the side."""
    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'giftgenius_bench'}_{side}"
    maintenance = psycopg.conninfo.make_conninfo(url, dbname="postgres")
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return urlunsplit(parts._replace(path=f"/{name}"))


def side_env(side: str, database_url: str) -> dict[str, str]:
    env = served_env()
    if database_url:
        env["DATABASE_URL"] = fresh_postgresql(database_url, side)
    else:
        env.pop("DATABASE_URL", None)
        for stale in AB_DIR.glob(f"{side}*.sqlite3*"):  # with its ledger and WAL files
            stale.unlink()
        env["SQLITE_PATH"] = str(AB_DIR / f"{side}.sqlite3")
    return env


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("rev", help="the base: any commit, branch or tag")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=800, help="calls per scenario and turn")
    parser.add_argument("--concurrency", type=int, default=8, help="clients at a time")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if min(args.rounds, args.requests, args.concurrency, args.workers) < 1:
        parser.error("--rounds, --requests, --concurrency and --workers take 1 or more")

    commit = commit_of(args.rev)
    roots = {"base": tree_of(commit), "head": ROOT}
    AB_DIR.mkdir(parents=True, exist_ok=True)
    servers, clients, scenarios, meters = {}, {}, {}, {}
    try:
        for side in SIDES:
            env = side_env(side, args.database_url)
            token = prepare_database(env, root=roots[side])
            port = free_port()
            servers[side] = start_server(
                env, port, workers=args.workers, log=AB_DIR / f"{side}.log", root=roots[side]
            )
            meters[side] = CpuMeter(servers[side])
            clients[side] = balanced_clients(
                args.concurrency * CONNECTIONS_PER_CLIENT,
                server=servers[side],
                port=port,
                headers={"Authorization": f"Bearer {token}"},
            )
            scenarios[side] = read_scenarios(clients[side])
        figures: dict[str, dict[str, list[dict]]] = {
            name: {side: [] for side in SIDES} for name in scenarios["head"]
        }
        for turn in range(args.rounds):
            order = SIDES if turn % 2 == 0 else SIDES[::-1]
            for name, by_side in figures.items():
                for side in order:
                    by_side[side].append(
                        measure(
                            name,
                            scenarios[side][name],
                            requests=args.requests,
                            concurrency=args.concurrency,
                            clients=clients[side],
                            cpu=meters[side],
                        )
                    )
    finally:
        for side in clients:
            for client in clients[side]:
                client.close()
        for server in servers.values():
            server.terminate()
            server.wait(10)
    report(figures, base=commit, args=args)


def report(
    figures: dict[str, dict[str, list[dict]]], *, base: str, args: argparse.Namespace
) -> None:
    database = "PostgreSQL" if args.database_url else "SQLite"
    print(
        f"\nbench-ab — base {base[:12]} against this working tree; {database}, "
        f"{args.workers} process(es), {args.concurrency} clients, {args.rounds} rounds of "
        f"{args.requests} calls per side and scenario, driven in turns\n"
    )
    print(f"{'scenario':26} {'calls/s base':>22} {'calls/s head':>22} {'head/base':>10}")
    for name, by_side in figures.items():
        rps = {side: [r["rps"] for r in by_side[side]] for side in SIDES}
        ratios = [h / b for h, b in zip(rps["head"], rps["base"], strict=True)]
        cells = {side: " ".join(f"{v:6.0f}" for v in rps[side]) for side in SIDES}
        print(
            f"{name:26} {cells['base']:>22} {cells['head']:>22} {statistics.median(ratios):9.2f}x"
        )
    print(
        "\nhead/base: the median over the rounds of head's calls/s over base's in the same "
        "round (above 1: the working tree is faster)."
    )


if __name__ == "__main__":
    main()
