"""Signing in as an MCP host does, through our real endpoints: register a public client (RFC 7591,
PKCE and no secret), consent on the authorize page as a signed-in person (Django's test client
posting the form), and exchange the code for a token. Nothing is mocked.

    token = access_token(user, resource=f"{live_url}/mcp")   # for McpTestClient(token=...)
"""

from __future__ import annotations

import base64
import hashlib
import json
from urllib.parse import parse_qs, urlsplit

from django.test import Client

CALLBACK = "http://127.0.0.1:5599/oauth/callback"
VERIFIER = "a-correct-pkce-verifier-" + "x" * 40
ALL_SCOPES = "gifts:read gifts:write orders:write"


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
