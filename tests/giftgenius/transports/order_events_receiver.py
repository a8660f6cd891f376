"""An agent's order-events endpoint for the tests: a real HTTP server on a free port that checks
each request's Merchant-Signature the way the webhook specification documents it, and the
specification's WebhookEvent schema to check the bodies against."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC = Path(__file__).resolve().parents[3] / "vendor/acp/spec/2026-04-17/openapi"
SIGNATURE = re.compile(r"^t=(\d+),v1=([a-fA-F0-9]{64})$")
TOLERANCE_SECONDS = 300  # the specification's recommended window


@cache
def webhook_event_validator() -> Draft202012Validator:
    """WebhookEvent from the webhook document; its Order comes from the checkout document by
    the relative $ref the specification uses, resolved against the file it sits in."""
    registry = Registry()
    for name in ("openapi.agentic_checkout_webhook.yaml", "openapi.agentic_checkout.yaml"):
        path = SPEC / name
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        registry = registry.with_resource(
            path.as_uri(), Resource.from_contents(document, default_specification=DRAFT202012)
        )
    webhook = (SPEC / "openapi.agentic_checkout_webhook.yaml").as_uri()
    return Draft202012Validator(
        {"$ref": f"{webhook}#/components/schemas/WebhookEvent"},
        registry=registry,
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )


def schema_errors(event: Any) -> list[str]:
    return [f"{e.json_path}: {e.message}" for e in webhook_event_validator().iter_errors(event)]


@dataclass
class Delivery:
    request_id: str
    event: dict
    raw: bytes


@dataclass
class Receiver:
    """Accepts correctly signed events with `answer` (200 unless a test says otherwise)."""

    secret: str
    answer: int = 200
    lose_answers: int = 0  # how many accepted events are then answered 500 (a lost answer)
    accepted: list[Delivery] = field(default_factory=list)  # every accepted request, repeats too
    refused: list[str] = field(default_factory=list)  # why each refused request was refused
    port: int = 0
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/agentic_checkout/webhooks/order_events"

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                why = receiver.verify(self.headers.get("Merchant-Signature"), raw)
                if why:
                    receiver.refused.append(why)
                    return self._reply(
                        401,
                        {"type": "invalid_request", "code": "invalid_signature", "message": why},
                    )
                if receiver.answer != 200:
                    receiver.refused.append(f"answered {receiver.answer}")
                    return self._reply(
                        receiver.answer,
                        {"type": "service_unavailable", "code": "down", "message": "down"},
                    )
                request_id = self.headers.get("Request-Id", "")
                receiver.accepted.append(Delivery(request_id, json.loads(raw), raw))
                if receiver.lose_answers:
                    receiver.lose_answers -= 1
                    return self._reply(
                        500, {"type": "processing_error", "code": "lost", "message": "lost"}
                    )
                return self._reply(200, {"received": True, "request_id": request_id})

            def _reply(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        """Take the endpoint down: nothing listens on its port until `start` again."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def verify(self, header: str | None, raw: bytes) -> str:
        """Why the request's signature is refused, or "" (the documented algorithm)."""
        found = SIGNATURE.match(header or "")
        if not found:
            return "Merchant-Signature must be t=<timestamp>,v1=<64_hex>."
        timestamp, signature = found.groups()
        if abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
            return "Timestamp outside allowed window."
        expected = hmac.new(
            self.secret.encode(), timestamp.encode() + b"." + raw, hashlib.sha256
        ).hexdigest()
        if not hmac.compare_digest(expected, signature.lower()):
            return "Webhook signature verification failed."
        return ""

    def unique(self) -> list[Delivery]:
        """What the agent keeps: each event once, by its id, in the order first received."""
        seen: dict[str, Delivery] = {}
        for delivery in self.accepted:
            seen.setdefault(delivery.request_id, delivery)
        return list(seen.values())
