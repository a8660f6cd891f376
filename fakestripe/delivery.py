"""Webhook delivery as Stripe does it: each event POSTed to every endpoint registered with
`POST /_config/webhooks/{id}` (`url`, `secret`, optional `events[]`), signed
`Stripe-Signature: t=<delivery time>,v1=<HMAC-SHA256 of "t.body" with the secret>`, and retried
while the endpoint does not answer 2xx. Stripe retries for three days; this fake retries after
RETRY_DELAYS (seconds) and then gives up. `DELETE /_config/webhooks/{id}` removes an endpoint.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import time
from typing import Any

import aiohttp
import stripe
from localstripe import resources, webhooks

RETRY_DELAYS = (1, 2, 4, 8, 16)
FIRST_DELAY = 0.2  # the API answer goes out before its events, as at Stripe
TIMEOUT = aiohttp.ClientTimeout(total=10)
log = logging.getLogger("fakestripe.webhooks")


def signature(payload: bytes, secret: str, timestamp: int) -> str:
    mac = hmac.new(secret.encode(), b"%d.%s" % (timestamp, payload), hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


async def _deliver(endpoint: Any, event_type: str, payload: bytes) -> None:
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        for delay in (0, *RETRY_DELAYS):
            await asyncio.sleep(delay)
            headers = {
                "Content-Type": "application/json; charset=utf-8",
                "Stripe-Signature": signature(payload, endpoint.secret, int(time.time())),
            }
            try:
                async with session.post(endpoint.url, data=payload, headers=headers) as answer:
                    if 200 <= answer.status < 300:
                        return
                    log.info(
                        "webhook %s to %s: answered %d", event_type, endpoint.url, answer.status
                    )
            except (TimeoutError, aiohttp.ClientError) as exc:
                log.info("webhook %s to %s failed: %s", event_type, endpoint.url, exc)
    log.warning("webhook %s to %s: gave up", event_type, endpoint.url)


async def send(event: Any) -> None:
    payload = json.dumps(event._export(), indent=2, sort_keys=True).encode()
    await asyncio.sleep(FIRST_DELAY)
    await asyncio.gather(
        *(
            _deliver(endpoint, event.type, payload)
            for endpoint in list(webhooks._webhooks.values())
            if endpoint.events is None or event.type in endpoint.events
        )
    )


_stock_event_init = resources.Event.__init__


def event_init(self, type, data):
    _stock_event_init(self, type, data)
    self.api_version = stripe.api_version
    self.pending_webhooks = len(webhooks._webhooks)
    self.request = {"id": None, "idempotency_key": None}


async def unregister(request):
    from aiohttp import web

    if webhooks._webhooks.pop(request.match_info["id"], None) is None:
        raise web.HTTPNotFound()
    return web.Response()


def patch() -> None:
    webhooks._send_webhook = send
    resources.Event.__init__ = event_init


def add_routes(app: Any) -> None:
    app.router.add_delete("/_config/webhooks/{id}", unregister)
