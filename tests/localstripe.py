"""localstripe for the tests: the real fake-Stripe server in a subprocess, and a fault proxy.

`localstripe_url` (session) starts `bin/localstripe` on a free loopback port, waits until it
answers and stops it at the end. localstripe is a dev dependency, so a server that cannot start
is an error (the run fails), never a skip. `stripe_provider` points the app at it with a fresh,
empty store. `stripe_proxy` puts an HTTP proxy in front of it whose faults tests switch on:
answer 429/503 without forwarding, or forward and then lose the answer (close the connection) or
replace it with a 500 — the provider has acted, the caller does not learn it — or hold a request
`delay` seconds before forwarding it (it reaches Stripe after the caller's time-out).
"""

from __future__ import annotations

import http.client
import re
import selectors
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import httpx
import pytest

from checkout.payments import config
from tests import REPO_ROOT

API_KEY = "sk_test_giftgenius_localstripe"
START_TIMEOUT = 30.0


def _read_port(process: subprocess.Popen, deadline: float) -> int:
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        if selector.select(timeout=0.2):
            line = process.stdout.readline()
            found = re.search(r"listening on http://[\d.]+:(\d+)", line)
            if found:
                return int(found.group(1))
    raise RuntimeError(
        f"bin/localstripe did not start (exit {process.poll()}): {process.stderr.read()[-2000:]}"
    )


@pytest.fixture(scope="session")
def localstripe_url() -> Iterator[str]:
    process = subprocess.Popen(
        [
            sys.executable,
            str(REPO_ROOT / "bin" / "localstripe"),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
        ],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        url = f"http://127.0.0.1:{_read_port(process, deadline)}"
        while True:  # bound is not yet serving: wait for a real answer
            try:
                if httpx.get(f"{url}/v1/payment_intents", auth=(API_KEY, "")).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("localstripe started but never answered")
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        for stream in (process.stdout, process.stderr):
            stream.close()


@pytest.fixture
def stripe_provider(settings, localstripe_url) -> str:
    """PAYMENT_PROVIDER=stripe against localstripe, its store emptied (every test's orders are
    new; PaymentIntents of earlier tests' rolled-back orders would read as orphans)."""
    httpx.delete(f"{localstripe_url}/_config/data").raise_for_status()
    use_stripe(settings, localstripe_url)
    return localstripe_url


def use_stripe(settings, api_base: str) -> None:
    settings.PAYMENT_PROVIDER = config.STRIPE
    settings.STRIPE_API_KEY = API_KEY
    settings.STRIPE_WEBHOOK_SECRET = "whsec_giftgenius_tests"
    settings.STRIPE_API_BASE = api_base
    settings.STRIPE_TIMEOUT_SECONDS = 5.0


def intents(url: str) -> list[dict]:
    """Every PaymentIntent localstripe holds, read straight from it (not through the adapter)."""
    response = httpx.get(
        f"{url}/v1/payment_intents", params={"limit": 100}, auth=(API_KEY, ""), timeout=10
    )
    response.raise_for_status()
    return response.json()["data"]


# --- the fault proxy --------------------------------------------------------------------------------


@dataclass
class Fault:
    method: str
    path: str  # a regular expression matched against the whole path
    action: str  # "429" / "503": answer without forwarding; "lose" / "500-after" / "delay": forward
    times: int | None = 1  # None: every matching request
    after: int = 0  # matching requests let through untouched before the fault starts
    delay: float = 0.0  # "delay": seconds the request is held before it is forwarded
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (
            method == self.method
            and re.fullmatch(self.path, path) is not None
            and (self.times is None or self.hits < self.times)
        )


@dataclass
class FaultProxy:
    upstream: str
    url: str = ""
    faults: list[Fault] = field(default_factory=list)
    seen: list[tuple[str, str, str]] = field(default_factory=list)  # (method, path, what happened)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # True: Idempotency-Key headers are dropped, as if Stripe had forgotten them (after 24 h).
    keys_expired: bool = False

    def fault(
        self,
        method: str,
        path: str,
        action: str,
        times: int | None = 1,
        after: int = 0,
        delay: float = 0.0,
    ) -> Fault:
        entry = Fault(method, path, action, times, after, delay)
        with self.lock:
            self.faults.append(entry)
        return entry

    def take(self, method: str, path: str) -> Fault | None:
        with self.lock:
            for entry in self.faults:
                if entry.matches(method, path):
                    if entry.after > 0:
                        entry.after -= 1
                        continue
                    entry.hits += 1
                    return entry
        return None

    def wait_forwarded(self, method: str, pattern: str, count: int = 1, timeout: float = 10.0):
        """Wait until `count` matching requests reached Stripe (a delayed one arrives late)."""
        deadline = time.monotonic() + timeout
        while self.forwarded(method, pattern) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{method} {pattern} never reached Stripe")
            time.sleep(0.05)

    def forwarded(self, method: str, pattern: str) -> int:
        return sum(
            1
            for m, p, what in self.seen
            if m == method and re.fullmatch(pattern, p) and what != "refused"
        )


def _handler(proxy: FaultProxy) -> type[BaseHTTPRequestHandler]:
    upstream = urlsplit(proxy.upstream)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):  # keep test output clean
            pass

        def _answer(self, status: int, body: bytes, headers: list[tuple[str, str]]) -> None:
            try:
                self.send_response(status)
                for name, value in headers:
                    if name.lower() not in {"content-length", "transfer-encoding", "connection"}:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except OSError:
                pass  # the caller gave up waiting (its time-out) before a delayed answer

        def _handle(self) -> None:
            path = urlsplit(self.path).path
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            fault = proxy.take(self.command, path)
            action = fault.action if fault else None
            if action in {"429", "503"}:
                proxy.seen.append((self.command, path, "refused"))
                error = b'{"error": {"type": "api_error", "message": "injected by the test"}}'
                self._answer(int(action), error, [("Content-Type", "application/json")])
                return
            if action == "delay":
                time.sleep(fault.delay)
            connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=30)
            dropped = {"host", "idempotency-key"} if proxy.keys_expired else {"host"}
            headers = {k: v for k, v in self.headers.items() if k.lower() not in dropped}
            connection.request(self.command, self.path, body=body, headers=headers)
            response = connection.getresponse()
            answer = response.read()
            connection.close()
            proxy.seen.append((self.command, path, action or "forwarded"))
            if action == "lose":
                # Stripe acted; the answer never arrives (the connection just ends).
                self.close_connection = True
                return
            if action == "500-after":
                error = b'{"error": {"type": "api_error", "message": "injected after acting"}}'
                self._answer(500, error, [("Content-Type", "application/json")])
                return
            self._answer(response.status, answer, response.getheaders())

        do_GET = do_POST = do_DELETE = _handle

    return Handler


@pytest.fixture
def stripe_proxy(stripe_provider, settings) -> Iterator[FaultProxy]:
    """The app talks to localstripe through a FaultProxy (no faults until a test adds some)."""
    proxy = FaultProxy(upstream=stripe_provider)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(proxy))
    server.daemon_threads = True
    proxy.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.STRIPE_API_BASE = proxy.url
    try:
        yield proxy
    finally:
        server.shutdown()
        server.server_close()


def refunds(url: str) -> list[dict]:
    """Every Refund localstripe holds, read straight from it."""
    response = httpx.get(f"{url}/v1/refunds", params={"limit": 100}, auth=(API_KEY, ""), timeout=10)
    response.raise_for_status()
    return response.json()["data"]


# Our simulator's test-card ids → the Stripe test card a person would have saved instead. Stripe
# refuses to save a card that declines (its check at attach), so the declining one is
# pm_card_chargeCustomerFail: it attaches, and every charge of it is declined.
SAVED_TEST_CARDS = {
    "pm_card_visa": "pm_card_visa",
    "pm_card_declined": "pm_card_chargeCustomerFail",
}


def save_card(user, test_card: str = "pm_card_visa") -> str:
    """Save a Stripe test card to the person's Customer (made if needed) as a real save does: a
    confirmed SetupIntent through the SDK attaches it. Returns its PaymentMethod id."""
    from checkout.payments.stripe_customers import ensure_stripe_customer
    from checkout.payments.stripe_provider import client

    customer = ensure_stripe_customer(user=user)
    intent = client().v1.setup_intents.create(
        params={"customer": customer, "payment_method": test_card, "confirm": True}
    )
    assert intent.status == "succeeded", intent
    return str(intent.payment_method)


def saved_test_card(api, method: str) -> str:
    """The caller's saved card standing for a simulator test card (saved once per person), for
    the tests that buy through the tools with either provider."""
    from checkout.payments.stripe_customers import saved_cards
    from tool_runtime.principals import user_for_token

    user = user_for_token(api.client.defaults["HTTP_AUTHORIZATION"].removeprefix("Bearer "))
    number = {"pm_card_visa": "4242", "pm_card_declined": "0341"}[method]
    for card in saved_cards(user=user):
        if card.last4 == number:
            return card.id
    return save_card(user, SAVED_TEST_CARDS[method])
