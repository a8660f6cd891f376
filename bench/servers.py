"""The servers a benchmark drives: GiftGenius (or the pizzaz-like reference) in a real uvicorn
process on a free port, on a database prepared as `make bench` serves it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent


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


def served_env() -> dict[str, str]:
    """The app as a benchmark serves it: no debug, warnings only, no fault injection."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "giftgenius.settings.dev",
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "FAULT_INJECTION_ENABLED": "0",
    }
