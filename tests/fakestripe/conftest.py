"""Tests of the fake Stripe API itself (`fakestripe`, served by bin/localstripe): the real
`stripe` SDK over HTTP, a real HTTP receiver for its webhooks, and Chromium for its pages."""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
import stripe

from tests.localstripe import API_KEY

WEBHOOK_SECRET = "whsec_fakestripe_tests"


@pytest.fixture
def fake(localstripe_url: str) -> str:
    """The fake's URL, its store emptied."""
    httpx.delete(f"{localstripe_url}/_config/data").raise_for_status()
    return localstripe_url


@pytest.fixture
def client(fake: str) -> stripe.StripeClient:
    return stripe.StripeClient(API_KEY, base_addresses={"api": fake}, max_network_retries=0)


def call(client: stripe.StripeClient, method: str, path: str, **params: Any) -> Any:
    """An endpoint the installed SDK has no service for (Shared Payment Tokens), through the
    SDK's own request and error handling."""
    return client.deserialize(client.raw_request(method, path, **params), api_mode="V1")


@dataclass
class Delivery:
    signature: str
    body: bytes


@dataclass
class Receiver:
    """A webhook endpoint registered with the fake: records each delivery, and answers the
    statuses in `answers` first (then 200)."""

    url: str = ""
    endpoint: str = ""  # where it is registered with the fake (DELETE unregisters it)
    secret: str = WEBHOOK_SECRET
    deliveries: list[Delivery] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def events(self) -> list[stripe.Event]:
        """Every delivery, verified as the app verifies them (a bad signature raises)."""
        with self.lock:
            deliveries = list(self.deliveries)
        return [
            stripe.Webhook.construct_event(d.body, d.signature, self.secret) for d in deliveries
        ]

    def wait_for(self, event_type: str, object_id: str, timeout: float = 10.0) -> stripe.Event:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for event in self.events():
                if event.type == event_type and event.data.object.id == object_id:
                    return event
            time.sleep(0.05)
        seen = [(e.type, e.data.object.id) for e in self.events()]
        raise AssertionError(f"no {event_type} for {object_id} arrived; got {seen}")

    def types_for(self, object_id: str) -> list[str]:
        return [e.type for e in self.events() if e.data.object.id == object_id]


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format, *args):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with receiver.lock:
                receiver.deliveries.append(Delivery(self.headers["Stripe-Signature"], body))
                status = receiver.answers.pop(0) if receiver.answers else 200
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Handler


@contextlib.contextmanager
def receiving(
    fake: str, secret: str = WEBHOOK_SECRET, events: list[str] | None = None
) -> Iterator[Receiver]:
    """An HTTP receiver on a free port, registered with the fake (for `events`, or all)."""
    receiver = Receiver(secret=secret)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(receiver))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/webhooks/stripe"
    receiver.endpoint = f"{fake}/_config/webhooks/{uuid.uuid4().hex}"
    wanted = {f"events[{i}]": name for i, name in enumerate(events or [])}
    registration = {"url": receiver.url, "secret": secret, **wanted}
    httpx.post(receiver.endpoint, data=registration).raise_for_status()
    try:
        yield receiver
    finally:
        httpx.delete(receiver.endpoint)
        server.shutdown()
        server.server_close()


@pytest.fixture
def webhooks(fake: str) -> Iterator[Receiver]:
    with receiving(fake) as receiver:
        yield receiver


def session_params(**overrides: Any) -> dict[str, Any]:
    """A merchant's Checkout Session: one line item, our URLs, order ids in the metadata."""
    params: dict[str, Any] = {
        "mode": "payment",
        "line_items": [
            {
                "price_data": {
                    "currency": "eur",
                    "product_data": {"name": "Ceramic mug"},
                    "unit_amount": 1250,
                },
                "quantity": 2,
            }
        ],
        "client_reference_id": "order-1",
        "metadata": {"order_id": "1", "workflow_id": "w-1"},
        "success_url": "https://shop.example/paid?session={CHECKOUT_SESSION_ID}",
        "cancel_url": "https://shop.example/cancelled",
        "payment_intent_data": {"metadata": {"order_id": "1"}},
    }
    params.update(overrides)
    return params


def pay(session: Any, payment_method: str, *, save: bool = False) -> httpx.Response:
    """Submit the hosted page's form as its Pay button does (the browser tests click it)."""
    data = {"payment_method": payment_method, **({"save": "on"} if save else {})}
    return httpx.post(session.url, data=data, follow_redirects=False)


def authenticate(session: Any, outcome: str) -> httpx.Response:
    return httpx.post(
        f"{session.url}/authenticate", data={"outcome": outcome}, follow_redirects=False
    )
