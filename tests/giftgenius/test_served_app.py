"""What `make run` serves: one ASGI app, built once at start with what it built frozen out of
the garbage collector, whose front door is the QA preview."""

import os
import subprocess
import sys

from django.test import Client

from tests import REPO_ROOT


def test_the_front_door_leads_to_the_preview(db):
    response = Client(SERVER_NAME="127.0.0.1").get("/")
    assert response.status_code == 302
    assert response["Location"] == "/preview/"


def test_the_served_app_freezes_what_it_built_at_start_out_of_the_collector(tmp_path):
    """uvicorn imports giftgenius.asgi once per process: what exists by then lives as long as
    the process, and the collector must not walk it again on every full collection."""
    script = (
        "import gc; before = gc.get_freeze_count();"
        "import giftgenius.asgi;"
        "print(before, gc.get_freeze_count(), len(gc.get_objects()))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "giftgenius.settings.dev"}
    env.pop("DATABASE_URL", None)
    env["SQLITE_PATH"] = str(tmp_path / "freeze.sqlite3")  # importing opens no database
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    before, frozen, still_tracked = map(int, result.stdout.split())
    assert before == 0
    # The app's startup objects are frozen; what the collector still tracks is a small rest.
    assert frozen > 50_000
    assert still_tracked < frozen / 10


def test_the_access_log_keeps_no_secret_from_a_query(tmp_path):
    """Stripe returns the person from the bank's page with the PaymentIntent's client secret in
    the query; the server's access line is written without its value."""
    import socket
    import time

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "giftgenius.settings.dev"}
    env.pop("DATABASE_URL", None)
    env["SQLITE_PATH"] = str(tmp_path / "access.sqlite3")
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "giftgenius.asgi:application", "--port", str(port)],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    query = (
        "payment_intent=pi_1&payment_intent_client_secret=pi_1_secret_TOPSECRET&redirect_status=x"
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/returned-here?{query}", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    assert "/returned-here?payment_intent=pi_1" in output  # the access line is there ...
    assert "payment_intent_client_secret=[redacted]&redirect_status=x" in output
    assert "TOPSECRET" not in output  # ... without the secret
