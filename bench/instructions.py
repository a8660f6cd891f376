"""`make bench-instructions [REV=<commit>]`: what each read scenario of `make bench` costs in
instructions, counted by valgrind's callgrind: figures that do not drift with the machine.

Timings on this shared machine move by up to 15 % between runs, so a change worth a few
percent is lost in `make bench` and even in `make bench-ab`. Callgrind counts the instructions
the app's process runs, whatever else the machine does. The app is driven in one process
(bench/callgrind_driver.py) through the ASGI application uvicorn serves, one call at a time:
everything but uvicorn's HTTP parsing and the sockets is counted, Django's and the SDK's
threads included. SQLite's work runs in the app and is counted; PostgreSQL's runs in its
server and is not (only the client's side of each statement is), so on PostgreSQL this
measures the app's CPU, not the database's.

The figures are per call, after warm-up calls that are not counted. The app runs as `make
bench` serves it, except that its time-based caches (the caller, the catalog details) are kept
for an hour and the call log's batch is written by size only: valgrind runs the app 30-50
times slower, and caches expiring by the clock would be refilled many times more often than
in service. With REV, the tree of that commit is measured the same way (by this tree's driver)
and each figure is compared.

Usage: python -m bench.instructions [--rev REV] [--calls N] [--database-url URL]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from bench.ab import commit_of, fresh_postgresql, tree_of
from bench.measure import WARMUP_CALLS
from bench.scenarios import FLOOR, SUGGESTION_BRIEFS, initialize_request
from bench.servers import ROOT, prepare_database, served_env

OUT_DIR = ROOT / "var" / "bench-instructions"
DRIVER = Path(__file__).with_name("callgrind_driver.py")
# The call log writes a batch every this many read calls: a multiple counts its share fairly.
BATCH = 50


def counted_env(side: str, database_url: str) -> dict[str, str]:
    env = {
        **served_env(),
        "CALLER_CACHE_SECONDS": "3600",
        "CATALOG_CACHE_SECONDS": "3600",
        "CALL_LOG_BATCH_SIZE": str(BATCH),
        "CALL_LOG_FLUSH_SECONDS": "0",
        "PYTHONHASHSEED": "0",  # the same hashes, so the same dict and set layouts, every run
    }
    if database_url:
        env["DATABASE_URL"] = fresh_postgresql(database_url, f"instructions_{side}")
    else:
        env.pop("DATABASE_URL", None)
        for stale in OUT_DIR.glob(f"{side}*.sqlite3*"):
            stale.unlink()
        env["SQLITE_PATH"] = str(OUT_DIR / f"{side}.sqlite3")
    return env


def count(side: str, root: Path, *, calls: int, database_url: str) -> dict[str, int]:
    """Instructions per call of every scenario, for the app in the tree at `root`."""
    env = counted_env(side, database_url)
    token = prepare_database(env, root=root)
    env["PYTHONPATH"] = str(root)
    for stale in OUT_DIR.glob(f"{side}.callgrind*"):
        stale.unlink()
    out = OUT_DIR / f"{side}.callgrind"
    spec = {
        "token": token,
        "calls": calls,
        "warmup": WARMUP_CALLS,
        "briefs": SUGGESTION_BRIEFS,
        "initialize": initialize_request(),
    }
    finished = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",  # start-up runs uninstrumented: faster, and not counted
            f"--callgrind-out-file={out}",
            "--log-file=" + str(OUT_DIR / f"{side}.valgrind.log"),
            sys.executable,  # the virtualenv's interpreter itself (a link), not a launcher
            str(DRIVER),
            json.dumps(spec),
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    if finished.returncode != 0:
        raise SystemExit(f"the {side} run failed:\n{finished.stdout}\n{finished.stderr[-4000:]}")
    figures = {}
    for line in finished.stdout.splitlines():
        measured = json.loads(line)
        figures[measured["scenario"]] = dumped_instructions(out, measured["dump"]) // calls
    return figures


def dumped_instructions(out: Path, dump: str) -> int:
    """The instruction count of the callgrind dump requested as `dump`."""
    for path in out.parent.glob(out.name + ".*"):
        text = path.read_text()
        if re.search(rf"^desc: Trigger: dump {re.escape(dump)}$", text, re.MULTILINE):
            totals = re.search(r"^totals: (\d+)", text, re.MULTILINE)
            if totals:
                return int(totals.group(1))
    raise SystemExit(f"no callgrind dump {dump!r} beside {out}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rev", default="", help="also count this commit's tree, to compare")
    parser.add_argument(
        "--calls", type=int, default=200, help=f"counted calls per scenario (a multiple of {BATCH})"
    )
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    if args.calls < BATCH or args.calls % BATCH:
        parser.error(f"--calls takes a multiple of {BATCH}")
    if not shutil.which("valgrind") or not shutil.which("callgrind_control"):
        raise SystemExit("bench-instructions needs valgrind (Debian: apt-get install valgrind)")
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    sides = {"head": ROOT}
    if args.rev:
        base = commit_of(args.rev)
        sides = {"base": tree_of(base), **sides}
    figures = {
        side: count(side, root, calls=args.calls, database_url=args.database_url)
        for side, root in sides.items()
    }
    report(figures, args=args)


def report(figures: dict[str, dict[str, int]], *, args: argparse.Namespace) -> None:
    database = "PostgreSQL (its server's work not counted)" if args.database_url else "SQLite"
    base = f"; base {args.rev}" if args.rev else ""
    print(f"\nbench-instructions: {database}, {args.calls} calls per scenario{base}\n")
    head = figures["head"]
    floor = head[FLOOR]
    columns = (
        f"{'base':>12} {'head':>12} {'head/base':>10}" if "base" in figures else f"{'head':>12}"
    )
    print(f"{'instructions per call':26} {columns} {'head/floor':>11}")
    for name, value in head.items():
        cells = f"{value:12,}"
        if "base" in figures:
            before = figures["base"][name]
            cells = f"{before:12,} {value:12,} {value / before:9.3f}x"
        print(f"{name:26} {cells} {value / floor:10.2f}x")
    print(
        "\nhead/floor: a scenario's instructions over the floor's (GET /healthz) in the same "
        "tree; uvicorn's share of every call is not counted here, so these ratios are higher "
        "than `make bench`'s."
    )


if __name__ == "__main__":
    main()
