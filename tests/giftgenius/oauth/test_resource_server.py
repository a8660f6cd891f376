"""OAuth 2.1, the resource servers (/mcp and /api/tools): the protected-resource metadata and the
challenge that points at it, and the checks on every token: its resource, expiry, scope, owner
and revocation, with no token, secret or code in the logs. Tokens come from the real sign-in
(sign_in.py) and are used against a live /mcp, so nothing here is mocked."""

from __future__ import annotations

import json
import logging
import uuid
from datetime import timedelta

import httpx2
import pytest
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken

from checkout.models import SimulatedCharge
from gifts.models import WorkflowContext
from tests.fixtures import BRIEF, workflow_with_gift
from tests.giftgenius.oauth.sign_in import (
    access_token,
    authorization_code,
    exchange,
    register_client,
)
from tests.live_server import McpTestClient
from tool_runtime.models import ToolCallLog
from tool_runtime.registry import REGISTRY

pytestmark = [
    pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"]),
    pytest.mark.usefixtures("demo_catalog"),
]

ACCEPT = {"Accept": "application/json, text/event-stream"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
SHIPPING = {
    "name": "Ada Lovelace",
    "line1": "12 St James's Square",
    "city": "London",
    "postal_code": "SW1Y 4JH",
    "country": "GB",
}


def mcp_post(base_url: str, token: str | None):
    headers = {**ACCEPT, **({"Authorization": f"Bearer {token}"} if token else {})}
    return httpx2.post(f"{base_url}/mcp", json=LIST_TOOLS, headers=headers)


def ok(result) -> dict:
    assert result.is_error is False, result.structured_content
    return result.structured_content


def prepared_order(client: McpTestClient) -> tuple[str, str, str]:
    """(workflow_id, order_id, confirmation_token) of a draft order made through `client`."""
    workflow_id = ok(client.call("start_gift_workflow", {}))["workflow_id"]
    gifts = ok(client.call("suggest_gifts", {"workflow_id": workflow_id, **BRIEF}))["gifts"]
    ok(
        client.call(
            "select_gift", {"workflow_id": workflow_id, "product_id": gifts[0]["product_id"]}
        )
    )
    prepared = client.call(
        "prepare_order",
        {
            "workflow_id": workflow_id,
            "payment_method_id": "pm_card_visa",
            "shipping": SHIPPING,
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    return workflow_id, ok(prepared)["order_id"], prepared.meta["confirmation_token"]


# --- discovery and the challenge -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "resource"),
    [
        ("/.well-known/oauth-protected-resource/mcp", "http://testserver/mcp"),
        ("/.well-known/oauth-protected-resource/api/tools", "http://testserver/api/tools"),
        ("/.well-known/oauth-protected-resource", "http://testserver"),
    ],
)
def test_protected_resource_metadata_names_the_resource_and_its_authorization_server(
    path, resource
):
    meta = Client().get(path).json()
    assert meta["resource"] == resource
    assert meta["authorization_servers"] == ["http://testserver"]
    assert meta["bearer_methods_supported"] == ["header"]


def test_mcp_without_a_token_is_401_pointing_at_the_resource_metadata(live_url, oauth_only):
    response = mcp_post(live_url, None)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == (
        f'Bearer resource_metadata="{live_url}/.well-known/oauth-protected-resource/mcp"'
    )
    assert not WorkflowContext.objects.exists()


@pytest.mark.parametrize(
    ("header", "status"), [("Host", 421), ("Origin", 403)], ids=["host", "origin"]
)
def test_mcp_refuses_a_foreign_host_or_origin_before_any_challenge(
    live_url, oauth_only, header, status
):
    # A challenge would send the client to discovery on the host the request named.
    foreign = {"Host": "evil.example", "Origin": "https://evil.example"}[header]
    response = httpx2.post(f"{live_url}/mcp", json=LIST_TOOLS, headers={**ACCEPT, header: foreign})
    assert response.status_code == status
    assert "www-authenticate" not in response.headers
    assert "evil.example" not in response.text


def test_rest_tools_without_a_token_are_401_with_the_challenge_and_the_error_body():
    response = Client().post(
        "/api/tools/start_gift_workflow", "{}", content_type="application/json"
    )
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "UNAUTHORIZED"
    assert response["WWW-Authenticate"] == (
        'Bearer resource_metadata="http://testserver/.well-known/oauth-protected-resource/api/tools"'
    )


def test_every_tool_descriptor_declares_its_oauth_scope(live_url):
    tools = {tool.name: tool for tool in McpTestClient(live_url).list_tools()}
    assert set(tools) == set(REGISTRY)
    for name, tool in tools.items():
        assert tool.meta["securitySchemes"] == [
            {"type": "oauth2", "scopes": [REGISTRY[name].scope]}
        ]
    assert REGISTRY["commit_order"].scope == "orders:write"
    assert REGISTRY["select_gift"].scope == "gifts:write"
    assert REGISTRY["get_order"].scope == "gifts:read"


# --- the checks on every token -------------------------------------------------------------------


@pytest.mark.parametrize(
    "resource",
    ["https://elsewhere.example/mcp", "http://testserver/admin/", "http://testserver/mcpx"],
)
def test_no_token_is_issued_for_a_resource_that_is_not_ours(user, resource):
    client_id = register_client()["client_id"]
    code = authorization_code(user, client_id, resource=resource)
    response = exchange(client_id, code, resource=resource)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_target"
    assert not AccessToken.objects.filter(user=user).exists()


def test_a_token_for_another_of_our_resources_is_refused_at_mcp(live_url, user, oauth_only):
    token = access_token(user, resource=f"{live_url}/api/tools")
    response = mcp_post(live_url, token)
    assert response.status_code == 401
    assert 'error="invalid_token"' in response.headers["www-authenticate"]


def test_a_token_bound_to_no_resource_is_refused_at_mcp(live_url, user, oauth_only):
    response = mcp_post(live_url, access_token(user, resource=None))
    assert response.status_code == 401
    assert 'error="invalid_token"' in response.headers["www-authenticate"]


def test_a_token_for_this_mcp_resource_is_accepted(live_url, user, oauth_only):
    response = mcp_post(live_url, access_token(user, resource=f"{live_url}/mcp"))
    assert response.status_code == 200
    assert {t["name"] for t in response.json()["result"]["tools"]} == set(REGISTRY)


def test_an_expired_token_is_refused_at_mcp(live_url, user, oauth_only):
    token = access_token(user, resource=f"{live_url}/mcp")
    AccessToken.objects.update(expires=timezone.now() - timedelta(seconds=1))
    response = mcp_post(live_url, token)
    assert response.status_code == 401
    assert 'error="invalid_token"' in response.headers["www-authenticate"]


def test_a_token_without_orders_write_gets_insufficient_scope_on_commit(live_url, user, oauth_only):
    resource = f"{live_url}/mcp"
    full = McpTestClient(live_url, token=access_token(user, resource=resource))
    workflow_id, order_id, confirmation = prepared_order(full)
    narrow = McpTestClient(
        live_url, token=access_token(user, resource=resource, scope="gifts:read gifts:write")
    )
    result = narrow.call(
        "commit_order",
        {
            "workflow_id": workflow_id,
            "order_id": order_id,
            "confirmation_token": confirmation,
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    assert result.is_error is True
    error = result.structured_content["error"]
    assert error["code"] == "INSUFFICIENT_SCOPE"
    assert error["retryable"] is False
    assert error["details"]["required_scope"] == "orders:write"
    assert "orders:write" in error["message"]
    assert not SimulatedCharge.objects.filter(order_id=order_id).exists()
    # The narrow token still does what it was granted.
    assert (
        ok(narrow.call("get_workflow", {"workflow_id": workflow_id}))["current_step"] == "checkout"
    )


def test_the_hosts_subject_is_recorded_for_analytics_but_the_token_decides_who_acts(
    live_url, user, oauth_only
):
    client = McpTestClient(live_url, token=access_token(user, resource=f"{live_url}/mcp"))
    result = client.call("start_gift_workflow", {}, meta={"openai/subject": "v1/host-user-42"})
    workflow = WorkflowContext.objects.get(id=ok(result)["workflow_id"])
    assert workflow.owner == user
    row = ToolCallLog.objects.get(tool="start_gift_workflow")
    assert row.host_subject == "v1/host-user-42"
    assert row.principal == f"user:{user.pk}"


def test_a_rest_token_for_the_tools_resource_works_and_scopes_apply(user):
    token = access_token(user, resource="http://testserver/api/tools", scope="gifts:read")
    rest = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    started = rest.post("/api/tools/start_gift_workflow", "{}", content_type="application/json")
    assert started.status_code == 403
    assert started.json()["error"]["code"] == "INSUFFICIENT_SCOPE"
    assert started.json()["error"]["details"]["required_scope"] == "gifts:write"
    mcp_token = access_token(user, resource="http://testserver/mcp")
    wrong = Client(HTTP_AUTHORIZATION=f"Bearer {mcp_token}").post(
        "/api/tools/get_order",
        json.dumps({"order_id": str(uuid.uuid4())}),
        content_type="application/json",
    )
    assert wrong.status_code == 401
    assert 'error="invalid_token"' in wrong["WWW-Authenticate"]


def test_a_read_only_token_cannot_change_the_workflow_through_a_catalog_tool(user, api):
    workflow_id, product_id = workflow_with_gift(api)
    token = access_token(user, resource="http://testserver/api/tools", scope="gifts:read")
    rest = Client(HTTP_AUTHORIZATION=f"Bearer {token}")

    def call(name: str, arguments: dict):
        return rest.post(
            f"/api/tools/{name}", json.dumps(arguments), content_type="application/json"
        )

    # suggest_gifts records the brief and its ideas, dropping the chosen gift: a write.
    refused = [
        call("suggest_gifts", {"workflow_id": workflow_id, **BRIEF, "interests": ["tea"]}),
        call("search_products", {"query": "tea", "workflow_id": workflow_id}),
    ]
    for response in refused:
        assert response.status_code == 403, response.content
        error = response.json()["error"]
        assert error["code"] == "INSUFFICIENT_SCOPE"
        assert error["details"] == {
            "required_scope": "gifts:write",
            "granted_scopes": ["gifts:read"],
        }
    assert "with a workflow_id" in refused[1].json()["error"]["message"]
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    assert (workflow.current_step, workflow.selected_product_id) == ("gift_selected", product_id)
    assert workflow.brief["interests"] == BRIEF["interests"]
    # Reading stays allowed: the catalog without a workflow, and the workflow itself.
    search = call("search_products", {"query": "coffee"})
    assert search.status_code == 200 and search.json()["products"], search.content
    assert (
        call("get_workflow", {"workflow_id": workflow_id}).json()["current_step"] == "gift_selected"
    )


def test_no_token_secret_or_code_reaches_the_logs(live_url, user, oauth_only, caplog, capfd):
    caplog.set_level(logging.DEBUG)
    secrets: list[str] = []
    client_id = register_client()["client_id"]
    code = authorization_code(user, client_id, resource=f"{live_url}/mcp")
    tokens = exchange(client_id, code, resource=f"{live_url}/mcp").json()
    secrets += [code, tokens["access_token"], tokens["refresh_token"]]
    ok(McpTestClient(live_url, token=tokens["access_token"]).call("start_gift_workflow", {}))
    mcp_post(live_url, "not-a-valid-token-but-secret-looking-1234")
    secrets.append("not-a-valid-token-but-secret-looking-1234")
    captured = capfd.readouterr()
    logged = caplog.text + captured.out + captured.err
    assert "tool_call" in logged  # the logs were captured at all
    for secret in secrets:
        assert secret not in logged


def test_staff_revoke_a_token_from_the_admin_and_it_stops_working(user, admin_client):
    token = access_token(user, resource="http://testserver/api/tools")
    rest = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    call = {"path": "/api/tools/start_gift_workflow", "data": "{}"}
    assert rest.post(**call, content_type="application/json").status_code == 200
    row = AccessToken.objects.get(user=user)
    listing = admin_client.get("/admin/oauth2_provider/accesstoken/")
    assert listing.status_code == 200
    assert token.encode() not in listing.content  # the admin shows tokens masked
    revoked = admin_client.post(
        "/admin/oauth2_provider/accesstoken/",
        {"action": "revoke_tokens", "_selected_action": [row.pk]},
    )
    assert revoked.status_code == 302
    refused = rest.post(**call, content_type="application/json")
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "UNAUTHORIZED"
