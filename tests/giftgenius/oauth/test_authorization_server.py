"""OAuth 2.1: the authorization server's refusals and the resource server's checks.

The codes are obtained through the real authorize endpoint (Django's test client, signed in,
posting the consent form) and used against a live /mcp, so nothing here is mocked.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import uuid
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken, Grant

from checkout.models import SimulatedCharge
from gifts.models import WorkflowContext
from tests.fixtures import BRIEF, workflow_with_gift
from tests.live_server import McpTestClient
from tool_runtime.models import ToolCallLog
from tool_runtime.registry import REGISTRY

pytestmark = [
    pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"]),
    pytest.mark.usefixtures("demo_catalog"),
]

CALLBACK = "http://127.0.0.1:5599/oauth/callback"
VERIFIER = "a-correct-pkce-verifier-" + "x" * 40
ALL_SCOPES = "gifts:read gifts:write orders:write"
ACCEPT = {"Accept": "application/json, text/event-stream"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
SHIPPING = {
    "name": "Ada Lovelace",
    "line1": "12 St James's Square",
    "city": "London",
    "postal_code": "SW1Y 4JH",
    "country": "GB",
}


def s256(verifier: str) -> str:
    return (
        base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    )


def register_client(**overrides) -> dict:
    """RFC 7591 registration, as an MCP host does it (a public client: PKCE, no secret)."""
    metadata = {
        "client_name": "Test host",
        "redirect_uris": [CALLBACK],
        "grant_types": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_method": "none",
        **overrides,
    }
    response = Client().post("/o/register/", json.dumps(metadata), content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()


def signed_in(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def authorize_params(client_id: str, **overrides) -> dict:
    return {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": CALLBACK,
        "scope": ALL_SCOPES,
        "state": "st-1",
        "code_challenge": s256(VERIFIER),
        "code_challenge_method": "S256",
        **overrides,
    }


def authorization_code(user, client_id: str, **overrides) -> str:
    """Consent through the real authorize endpoint and return the code from the redirect."""
    params = authorize_params(client_id, **overrides)
    browser = signed_in(user)
    page = browser.get("/o/authorize/", params)
    assert page.status_code == 200
    assert b'data-testid="consent-scopes"' in page.content
    answer = browser.post("/o/authorize/", {**params, "allow": "Authorize"})
    assert answer.status_code == 302, answer.content
    location = urlsplit(answer["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == CALLBACK
    return parse_qs(location.query)["code"][0]


def exchange(client_id: str, code: str, *, verifier: str = VERIFIER, **extra):
    return Client().post(
        "/o/token/",
        {
            "grant_type": "authorization_code",
            "client_id": client_id,
            "code": code,
            "redirect_uri": CALLBACK,
            "code_verifier": verifier,
            **extra,
        },
    )


def access_token(user, *, resource: str | None, scope: str = ALL_SCOPES) -> str:
    client_id = register_client()["client_id"]
    extra = {"resource": resource} if resource else {}
    code = authorization_code(user, client_id, scope=scope, **extra)
    response = exchange(client_id, code, **extra)
    assert response.status_code == 200, response.content
    return response.json()["access_token"]


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


@pytest.fixture
def oauth_only(settings):
    """As in production: no trusted subject, sign-in is the only way in over /mcp."""
    settings.MCP_TRUST_OPENAI_SUBJECT = False


# --- discovery ----------------------------------------------------------------------------------


def test_authorization_server_metadata_advertises_pkce_s256_registration_and_revocation():
    meta = Client().get("/.well-known/oauth-authorization-server").json()
    assert meta["issuer"] == "http://testserver"
    assert meta["authorization_endpoint"] == "http://testserver/o/authorize/"
    assert meta["token_endpoint"] == "http://testserver/o/token/"
    assert meta["registration_endpoint"] == "http://testserver/o/register/"
    assert meta["revocation_endpoint"] == "http://testserver/o/revoke_token/"
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert meta["response_types_supported"] == ["code"]
    assert set(meta["grant_types_supported"]) == {"authorization_code", "refresh_token"}
    assert {"gifts:read", "gifts:write", "orders:write"} <= set(meta["scopes_supported"])


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


# --- our login and consent pages ---------------------------------------------------------------

PAGE_LANGUAGES = {"pl": "pl", "ru": "ru", "uk": "uk", "zh-hans": "zh-Hans"}


@pytest.mark.parametrize("language", ["en", *PAGE_LANGUAGES])
def test_the_login_and_consent_pages_are_localized_in_every_language(user, language):
    client_id = register_client(client_name="Host X")["client_id"]
    params = authorize_params(client_id)
    browser = Client(HTTP_ACCEPT_LANGUAGE=language)
    login = browser.get("/o/login/", {"next": "/o/authorize/"})
    browser.force_login(user)
    consent = browser.get("/o/authorize/", params)
    assert login.status_code == consent.status_code == 200
    english = [b"Sign in to GiftGenius", b"Allow Host X to use GiftGenius for you?", b">Deny<"]
    pages = login.content + consent.content
    for text in english:
        assert (text in pages) == (language == "en"), (language, text)
    assert consent.content.count(b"<li>") == 3


def test_the_consent_page_is_under_the_strict_csp_and_lets_the_form_reach_the_client(user):
    client_id = register_client()["client_id"]
    consent = signed_in(user).get("/o/authorize/", authorize_params(client_id))
    policy = consent["Content-Security-Policy"]
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "*" not in policy
    assert "frame-ancestors 'none'" in policy
    assert "form-action 'self' http://127.0.0.1:5599" in policy
    assert b"<script" not in consent.content and b"style=" not in consent.content


def test_denying_consent_sends_access_denied_and_no_code(user):
    client_id = register_client()["client_id"]
    params = authorize_params(client_id)
    browser = signed_in(user)
    browser.get("/o/authorize/", params)
    answer = browser.post("/o/authorize/", params)  # "Deny" submits without allow
    query = parse_qs(urlsplit(answer["Location"]).query)
    assert query["error"] == ["access_denied"]
    assert "code" not in query
    assert not Grant.objects.exists()


def test_a_client_cannot_skip_the_consent_page_for_a_person_who_consented_before(user):
    client_id = register_client()["client_id"]
    assert exchange(client_id, authorization_code(user, client_id)).status_code == 200
    # django-oauth-toolkit would skip the page (a 302 with a code) for `approval_prompt=auto`
    # when the person already holds a live token for this client.
    page = signed_in(user).get("/o/authorize/", authorize_params(client_id, approval_prompt="auto"))
    assert page.status_code == 200
    assert b'data-testid="consent-scopes"' in page.content
    assert Grant.objects.count() == 0


# --- the authorization server's refusals --------------------------------------------------------


def test_a_wrong_pkce_verifier_is_refused_with_invalid_grant(user):
    client_id = register_client()["client_id"]
    code = authorization_code(user, client_id)
    response = exchange(client_id, code, verifier="not-the-verifier-" + "y" * 40)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_grant"
    assert not AccessToken.objects.filter(user=user).exists()


def test_plain_pkce_is_refused_at_the_authorize_endpoint(user):
    client_id = register_client()["client_id"]
    params = authorize_params(client_id, code_challenge=VERIFIER, code_challenge_method="plain")
    browser = signed_in(user)
    browser.get("/o/authorize/", params)
    response = browser.post("/o/authorize/", {**params, "allow": "Authorize"})
    assert response.status_code == 302
    query = parse_qs(urlsplit(response["Location"]).query)
    assert query["error"] == ["invalid_request"]
    assert "S256" in query["error_description"][0]
    assert "code" not in query
    assert not Grant.objects.exists()


def test_an_authorization_request_without_pkce_is_refused(user):
    client_id = register_client()["client_id"]
    params = authorize_params(client_id)
    del params["code_challenge"], params["code_challenge_method"]
    response = signed_in(user).get("/o/authorize/", params)
    assert response.status_code == 302
    assert parse_qs(urlsplit(response["Location"]).query)["error"] == ["invalid_request"]


def test_a_reused_authorization_code_is_refused_with_invalid_grant(user):
    client_id = register_client()["client_id"]
    code = authorization_code(user, client_id)
    assert exchange(client_id, code).status_code == 200
    again = exchange(client_id, code)
    assert again.status_code == 400
    assert again.json()["error"] == "invalid_grant"
    assert AccessToken.objects.filter(user=user).count() == 1


def test_a_redirect_uri_not_registered_for_the_client_is_never_redirected_to(user):
    client_id = register_client()["client_id"]
    params = authorize_params(client_id, redirect_uri="https://attacker.example/callback")
    response = signed_in(user).get("/o/authorize/", params)
    # RFC 6749 §4.1.2.1: an invalid redirect URI is shown to the person, never followed.
    assert response.status_code == 400
    assert b'data-error="invalid_request"' in response.content
    assert "Location" not in response
    assert not Grant.objects.exists()


def test_registration_refuses_a_client_without_redirect_uris():
    response = Client().post(
        "/o/register/",
        json.dumps({"client_name": "No callback", "grant_types": ["authorization_code"]}),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"] in {"invalid_redirect_uri", "invalid_client_metadata"}


# --- the resource server's checks ---------------------------------------------------------------


def test_a_token_for_another_resource_is_refused_at_mcp(live_url, user, oauth_only):
    token = access_token(user, resource="https://elsewhere.example/mcp")
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


def test_a_token_acts_only_for_its_user_another_users_workflow_is_not_found(
    live_url, user, other_user, oauth_only
):
    resource = f"{live_url}/mcp"
    owner = McpTestClient(live_url, token=access_token(user, resource=resource))
    workflow_id, order_id, confirmation = prepared_order(owner)
    intruder = McpTestClient(live_url, token=access_token(other_user, resource=resource))
    stolen = intruder.call(
        "commit_order",
        {
            "workflow_id": workflow_id,
            "order_id": order_id,
            "confirmation_token": confirmation,
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    assert stolen.is_error is True
    assert stolen.structured_content["error"]["code"] == "NOT_FOUND"
    peek = intruder.call("get_workflow", {"workflow_id": workflow_id})
    assert peek.structured_content["error"]["code"] == "NOT_FOUND"
    assert not SimulatedCharge.objects.filter(order_id=order_id).exists()


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
