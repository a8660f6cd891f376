"""OAuth 2.1, the authorization server: its metadata, our login and consent pages (localized, under
the strict CSP, never skipped), and its refusals: PKCE missing, plain or wrong, a reused code, an
unregistered redirect URI, a registration without one. Codes come from the real authorize
endpoint (sign_in.py), so nothing here is mocked."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from oauth2_provider.models import AccessToken, Grant

from tests.giftgenius.oauth.sign_in import (
    VERIFIER,
    authorization_code,
    authorize_params,
    exchange,
    register_client,
    signed_in,
)

pytestmark = [
    pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"]),
    pytest.mark.usefixtures("demo_catalog"),
]


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


def test_a_reused_authorization_code_is_refused_and_revokes_what_it_was_exchanged_for(user):
    client_id = register_client()["client_id"]
    code = authorization_code(user, client_id)
    first = exchange(client_id, code).json()
    # The client refreshed once: the rotated tokens descend from the same code.
    rotated = refresh(client_id, first["refresh_token"])
    assert rotated.status_code == 200, rotated.content

    again = exchange(client_id, code)

    assert again.status_code == 400
    assert again.json()["error"] == "invalid_grant"
    # OAuth 2.1 §4.1.3: the code leaked, so nothing issued from it stays usable.
    assert not AccessToken.objects.filter(user=user).exists()
    refused = refresh(client_id, rotated.json()["refresh_token"])
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_grant"


def test_an_unknown_code_revokes_nothing(user):
    client_id = register_client()["client_id"]
    assert exchange(client_id, authorization_code(user, client_id)).status_code == 200
    assert exchange(client_id, "never-issued-code").json()["error"] == "invalid_grant"
    assert AccessToken.objects.filter(user=user).count() == 1


def refresh(client_id: str, refresh_token: str):
    return Client().post(
        "/o/token/",
        {"grant_type": "refresh_token", "client_id": client_id, "refresh_token": refresh_token},
    )


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
