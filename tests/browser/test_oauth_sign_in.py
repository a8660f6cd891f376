"""End to end: the MCP SDK's OAuth client provider signs in to GiftGenius as a host would.

It discovers the server from /mcp's 401, registers itself (RFC 7591), sends the person (demo,
in Chromium through our login and consent pages) to authorize, exchanges the code with PKCE,
buys a gift over /mcp, refreshes its token, revokes it, and is refused after the revocation.
"""

from __future__ import annotations

import hashlib
import queue
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)
from oauth2_provider.models import AccessToken, Application

from checkout.models import Order, SimulatedCharge
from gifts.models import WorkflowContext
from tests.browser.conftest import BROWSER_DB
from tests.fixtures import BRIEF

pytestmark = [pytest.mark.browser, BROWSER_DB]

CALLBACK = "http://127.0.0.1:5599/oauth/callback"
SHIPPING = {
    "name": "Ada Lovelace",
    "line1": "12 St James's Square",
    "city": "London",
    "postal_code": "SW1Y 4JH",
    "country": "GB",
}
WAIT = 60


class MemoryStorage:
    """The SDK's TokenStorage protocol, in memory (a host keeps this per user)."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


def ok(result: Any) -> dict:
    assert result.is_error is False, result.structured_content
    return result.structured_content


async def buy_a_gift(client: Client) -> dict[str, Any]:
    workflow_id = ok(await client.call_tool("start_gift_workflow", {}))["workflow_id"]
    gifts = ok(await client.call_tool("suggest_gifts", {"workflow_id": workflow_id, **BRIEF}))
    product_id = gifts["gifts"][0]["product_id"]
    ok(
        await client.call_tool(
            "select_gift", {"workflow_id": workflow_id, "product_id": product_id}
        )
    )
    prepared = await client.call_tool(
        "prepare_order",
        {
            "workflow_id": workflow_id,
            "payment_method_id": "pm_card_visa",
            "shipping": SHIPPING,
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    order_id = ok(prepared)["order_id"]
    committed = await client.call_tool(
        "commit_order",
        {
            "workflow_id": workflow_id,
            "order_id": order_id,
            "confirmation_token": prepared.meta["confirmation_token"],
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    return {"workflow_id": workflow_id, "order_id": order_id, "commit": ok(committed)}


def host_session(base_url: str, urls: queue.Queue, callbacks: queue.Queue) -> dict[str, Any]:
    """Everything the host does, on its own event loop (Playwright owns the main thread's)."""
    storage = MemoryStorage()

    async def redirect_handler(url: str) -> None:
        urls.put(url)

    async def callback_handler() -> AuthorizationCodeResult:
        redirected = await anyio.to_thread.run_sync(lambda: callbacks.get(timeout=WAIT))
        query = {k: v[0] for k, v in parse_qs(urlsplit(redirected).query).items()}
        return AuthorizationCodeResult(
            code=query["code"], state=query["state"], iss=query.get("iss")
        )

    auth = OAuthClientProvider(
        server_url=f"{base_url}/mcp",
        client_metadata=OAuthClientMetadata(
            client_name="Test MCP host",
            redirect_uris=[CALLBACK],
            grant_types=["authorization_code", "refresh_token"],
            scope="gifts:read gifts:write orders:write",
        ),
        storage=storage,
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )

    async def run() -> dict[str, Any]:
        found: dict[str, Any] = {}
        async with (
            httpx2.AsyncClient(auth=auth, timeout=httpx2.Timeout(30, read=120)) as http,
            Client(
                streamable_http_client(f"{base_url}/mcp", http_client=http), mode="legacy"
            ) as client,
        ):
            found["purchase"] = await buy_a_gift(client)
            found["first_token"] = storage.tokens.access_token
            # Let the access token lapse (as a short-lived one does): the provider refreshes.
            auth.context.token_expiry_time = time.time() - 1
            found["after_refresh"] = ok(
                await client.call_tool("get_order", {"order_id": found["purchase"]["order_id"]})
            )
            found["refreshed_token"] = storage.tokens.access_token
        async with httpx2.AsyncClient() as plain:
            revoked = await plain.post(
                f"{base_url}/o/revoke_token/",
                data={
                    "token": storage.tokens.access_token,
                    "client_id": storage.client_info.client_id,
                    "client_secret": storage.client_info.client_secret,
                },
            )
            found["revoke_status"] = revoked.status_code
            after = await plain.post(
                f"{base_url}/mcp",
                json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                headers={
                    "Authorization": f"Bearer {storage.tokens.access_token}",
                    "Accept": "application/json, text/event-stream",
                },
            )
            found["after_revoke"] = (after.status_code, after.headers.get("www-authenticate"))
        found["client_id"] = storage.client_info.client_id
        return found

    return anyio.run(run)


def test_a_host_signs_in_with_oauth_buys_a_gift_refreshes_and_is_cut_off_by_revocation(
    server, page, settings
):
    settings.MCP_TRUST_OPENAI_SUBJECT = False  # as in production: sign-in is the only way in
    urls: queue.Queue = queue.Queue()
    callbacks: queue.Queue = queue.Queue()
    page.route(f"{CALLBACK}**", lambda route: route.fulfill(status=200, body="signed in"))
    with ThreadPoolExecutor(max_workers=1) as pool:
        host = pool.submit(host_session, server, urls, callbacks)
        authorize_url = urls.get(timeout=WAIT)
        assert authorize_url.startswith(f"{server}/o/authorize/?")
        assert "code_challenge_method=S256" in authorize_url
        assert f"resource={server}/mcp".replace(":", "%3A").replace("/", "%2F") in authorize_url

        page.goto(authorize_url)
        assert urlsplit(page.url).path == "/o/login/"  # our own sign-in page
        page.fill("#id_username", "demo")
        page.fill("#id_password", "demo")
        page.click("[data-testid=login-form] button[type=submit]")
        page.wait_for_selector("[data-testid=consent-scopes]")
        assert page.locator("[data-testid=consent-scopes] li").count() == 3
        with page.expect_request(f"{CALLBACK}**") as redirected:
            page.click("button[name=allow]")
        callbacks.put(redirected.value.url)
        found = host.result(timeout=WAIT * 2)

    application = Application.objects.get(client_id=found["client_id"])
    assert application.name == "Test MCP host"  # registered by the host itself (DCR)
    purchase = found["purchase"]
    order = Order.objects.get(id=purchase["order_id"])
    assert order.status == "completed"
    assert WorkflowContext.objects.get(id=purchase["workflow_id"]).owner.username == "demo"
    assert SimulatedCharge.objects.filter(order_id=order.id).count() == 1
    assert found["after_refresh"]["status"] == "completed"
    assert found["refreshed_token"] != found["first_token"]
    assert found["revoke_status"] == 200
    status, challenge = found["after_revoke"]
    assert status == 401
    assert 'error="invalid_token"' in challenge
    assert f'resource_metadata="{server}/.well-known/oauth-protected-resource/mcp"' in challenge
    revoked = hashlib.sha256(found["refreshed_token"].encode()).hexdigest()
    assert not AccessToken.objects.filter(token_checksum=revoked).exists()
