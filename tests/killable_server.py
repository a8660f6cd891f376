"""A server in a process of its own, for tests that kill it with SIGKILL (tests.live_server's
runs in a thread of the test process, which cannot be killed alone).

    with killable_server(pause_at=("charge_card", "started")) as server:
        ...                      # a request that reaches the saga's charge_card step
        server.wait_paused()     # the saga wrote that step and stopped there
        server.kill()            # SIGKILL: no except, no finally, no compensation runs

It serves giftgenius.asgi under uvicorn on the test databases (the test's, which must be
transactional: `django_db(transaction=True)`, so the server sees committed rows). `pause_at`
stops the saga in the server right after the named step's progress was committed
(checkout.saga.step_log.checkpoint), so the kill lands at a known point of a commit.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
WAIT_LIMIT_SECONDS = 60.0


@dataclass
class KillableServer:
    base_url: str
    process: subprocess.Popen
    paused_file: Path

    def wait_paused(self) -> None:
        """Until the server's saga reached `pause_at` (fails if the server died first)."""
        _wait(lambda: self.paused_file.exists(), self.process, "reach its pause point")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(WAIT_LIMIT_SECONDS)


@contextlib.contextmanager
def killable_server(*, pause_at: tuple[str, str] | None = None) -> Iterator[KillableServer]:
    from django.db import connections

    names = {alias: connections[alias].settings_dict["NAME"] for alias in connections}
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        paused_file = Path(tmp) / "paused"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "giftgenius.settings.test",
            "KILLABLE_SERVER_DATABASES": json.dumps(names),
            "KILLABLE_SERVER_PAUSE_AT": json.dumps(list(pause_at) if pause_at else None),
            "KILLABLE_SERVER_PAUSED_FILE": str(paused_file),
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.killable_server", str(port)], cwd=ROOT, env=env
        )
        server = KillableServer(f"http://127.0.0.1:{port}", process, paused_file)
        try:
            _wait(lambda: _answers(server.base_url), process, "start")
            yield server
        finally:
            if process.poll() is None:
                server.kill()


def _answers(base_url: str) -> bool:
    try:
        return httpx.get(f"{base_url}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _wait(ready, process: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + WAIT_LIMIT_SECONDS
    while not ready():
        if process.poll() is not None:
            raise RuntimeError(f"the server exited ({process.returncode}) before it could {what}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not {what} within {WAIT_LIMIT_SECONDS:.0f}s")
        time.sleep(0.05)


def _serve(port: int) -> None:
    """The server process: the test's databases, the pause point, then uvicorn."""
    from django.conf import settings

    for alias, name in json.loads(os.environ["KILLABLE_SERVER_DATABASES"]).items():
        settings.DATABASES[alias]["NAME"] = name
    import django

    django.setup()
    import uvicorn

    from checkout.saga import step_log
    from giftgenius.asgi import build_application

    pause_at = json.loads(os.environ["KILLABLE_SERVER_PAUSE_AT"])
    paused_file = Path(os.environ["KILLABLE_SERVER_PAUSED_FILE"])

    def checkpoint(order_id: object, step: str, status: str) -> None:
        if pause_at and [str(step), str(status)] == pause_at:
            paused_file.touch()
            while True:  # hold the request here until the test kills the process
                time.sleep(1)

    step_log.checkpoint = checkpoint
    uvicorn.run(build_application(), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
