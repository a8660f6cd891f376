"""An ACP agent's requests, for the tests: the Django test client with the protocol's headers."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from django.test import Client

from tool_runtime.models import ApiTokenKind
from tool_runtime.principals import issue_api_token

VERSION = "2026-04-17"
ADDRESS = {
    "name": "Jane Doe",
    "line_one": "123 Main Street",
    "city": "New York",
    "state": "NY",
    "country": "US",
    "postal_code": "10001",
}


def create_body(sku: str, quantity: int = 1, *, address: bool = True, **extra: Any) -> dict:
    body: dict[str, Any] = {
        "line_items": [{"id": sku, "quantity": quantity}],
        "currency": "usd",
        "capabilities": {},
        **extra,
    }
    if address:
        body["fulfillment_details"] = {"name": "Jane Doe", "address": ADDRESS}
    return body


def spt_payment(token: str) -> dict:
    return {
        "payment_data": {
            "handler_id": "stripe_spt",
            "instrument": {"type": "card", "credential": {"type": "spt", "token": token}},
        }
    }


@dataclass
class Answer:
    status: int
    body: Any
    headers: Any


class Agent:
    def __init__(self, token: str) -> None:
        self.token = token
        self.client = Client(SERVER_NAME="127.0.0.1")

    def headers(self, **overrides: str | None) -> dict[str, str]:
        found = {
            "Authorization": f"Bearer {self.token}",
            "API-Version": VERSION,
            "Idempotency-Key": str(uuid.uuid4()),
            **overrides,
        }
        return {k: v for k, v in found.items() if v is not None}

    def post(self, path: str, body: Any = None, *, raw: bytes | None = None, **headers) -> Answer:
        data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
        response = self.client.post(
            f"/acp{path}",
            data=data,
            content_type="application/json",
            headers=self.headers(**headers),
        )
        return Answer(response.status_code, json.loads(response.content or b"null"), response)

    def get(self, path: str, **headers) -> Answer:
        response = self.client.get(f"/acp{path}", headers=self.headers(**headers))
        return Answer(response.status_code, json.loads(response.content or b"null"), response)


def agent_for(user, **token_fields: Any) -> Agent:
    return Agent(issue_api_token(user=user, kind=ApiTokenKind.AGENT, **token_fields))


def grant_token(
    localstripe_url: str,
    *,
    max_amount: int,
    currency: str = "usd",
    expires_in: int = 3600,
    payment_method: str = "pm_card_visa",
) -> str:
    """A Shared Payment Token the buyer granted us through their agent (Stripe's test helper)."""
    import time

    import httpx

    from tests.localstripe import API_KEY

    response = httpx.post(
        f"{localstripe_url}/v1/test_helpers/shared_payment/granted_tokens",
        data={
            "payment_method": payment_method,
            "usage_limits[currency]": currency,
            "usage_limits[max_amount]": str(max_amount),
            "usage_limits[expires_at]": str(int(time.time()) + expires_in),
        },
        auth=(API_KEY, ""),
        timeout=10,
    )
    response.raise_for_status()
    return response.json()["id"]
