"""The authorization server under hostile or careless input: bounded dynamic registration (size,
redirect URIs, rate per client address, proxies trusted only when configured), grants we do not
serve, redirect URIs with userinfo, text PostgreSQL or our printable-text rule refuses, and a
plain sign-in that lands on a page that exists. Every refusal is OAuth's JSON error."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client
from oauth2_provider.models import AccessToken, Application

from tests.giftgenius.oauth.sign_in import CALLBACK, register_client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counted_registrations():
    cache.clear()  # the registration rate counts in the default cache
    yield
    cache.clear()


def register(body: bytes | str | dict, **headers):
    data = json.dumps(body) if isinstance(body, dict) else body
    return Client().post("/o/register/", data, content_type="application/json", **headers)


def metadata(**overrides) -> dict:
    return {
        "client_name": "Test host",
        "redirect_uris": [CALLBACK],
        "grant_types": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_method": "none",
        **overrides,
    }


def assert_oauth_error(response, error: str, status: int = 400) -> str:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["error"] == error, body
    assert isinstance(body["error_description"], str) and body["error_description"]
    return body["error_description"]


# --- registration bounds ----------------------------------------------------------------------


def test_a_registration_with_100000_redirect_uris_is_refused_unread():
    uris = [f"https://host.example/cb/{n}" for n in range(100_000)]
    body = json.dumps(metadata(redirect_uris=uris))
    assert len(body) > 2_000_000
    why = assert_oauth_error(register(body), "invalid_client_metadata")
    assert "16384 bytes" in why
    assert not Application.objects.exists()


def test_more_redirect_uris_than_the_limit_are_refused(settings):
    settings.OAUTH_REGISTRATION_MAX_REDIRECT_URIS = 3
    uris = [f"https://host.example/cb/{n}" for n in range(4)]
    assert "at most 3" in assert_oauth_error(
        register(metadata(redirect_uris=uris)), "invalid_redirect_uri"
    )
    assert register(metadata(redirect_uris=uris[:3])).status_code == 201


@pytest.mark.parametrize(
    "uri",
    [
        "https://chatgpt.com@evil.example/cb",
        "https://user:pw@chatgpt.com/cb",
        "https://chatgpt.com/cb#frag",
    ],
)
def test_a_redirect_uri_with_userinfo_or_a_fragment_is_refused(uri):
    assert_oauth_error(register(metadata(redirect_uris=[uri])), "invalid_redirect_uri")
    assert not Application.objects.exists()


@pytest.mark.parametrize(
    "grant_types",
    [
        ["client_credentials"],
        ["password"],
        ["implicit"],
        ["authorization_code", "client_credentials"],
    ],
)
def test_grant_types_we_do_not_serve_are_never_registered(grant_types):
    why = assert_oauth_error(register(metadata(grant_types=grant_types)), "invalid_client_metadata")
    assert "not served here" in why
    assert not Application.objects.exists()


def test_no_token_is_issued_for_a_grant_we_do_not_serve_even_to_a_client_that_has_it():
    app = Application.objects.create(
        name="legacy",
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS,
        client_secret="s3cret-s3cret-s3cret",
        hash_client_secret=False,
    )
    response = Client().post(
        "/o/token/",
        {
            "grant_type": "client_credentials",
            "client_id": app.client_id,
            "client_secret": "s3cret-s3cret-s3cret",
        },
    )
    assert_oauth_error(response, "unsupported_grant_type")
    assert not AccessToken.objects.exists()


# --- text PostgreSQL or the printable-text rule refuses ------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        json.dumps(metadata(client_name="a\u0000b")),
        json.dumps(metadata(client_name="a\u202eb")),
        '{"client_name": "a\\ud800b", "redirect_uris": ["https://host.example/cb"]}',
        json.dumps(metadata(redirect_uris=["https://host.example/c\u0000b"])),
        json.dumps({"client\u0000name": "x", **metadata()}),
        "[" * 100_000 + "]" * 100_000,
        b"\xff\xfe{}",
        "not json",
        "[1, 2]",
    ],
    ids=[
        "nul-name",
        "bidi-name",
        "lone-surrogate",
        "nul-uri",
        "nul-key",
        "nested-100000",
        "not-utf8",
        "not-json",
        "not-object",
    ],
)
def test_unusable_registration_text_is_invalid_client_metadata_never_a_500(body, settings):
    settings.OAUTH_REGISTRATION_MAX_BYTES = 1_000_000  # the nesting itself is what is refused
    assert_oauth_error(register(body), "invalid_client_metadata")
    assert not Application.objects.exists()


def test_a_nul_in_a_token_requests_client_id_is_invalid_request():
    response = Client().post(
        "/o/token/",
        "grant_type=authorization_code&client_id=a%00b&code=x",
        content_type="application/x-www-form-urlencoded",
    )
    assert "client_id" in assert_oauth_error(response, "invalid_request")


@pytest.mark.parametrize("query", ["client_id=a%00b", "state=%E2%80%AE", "scope=a%1Bb"])
def test_unprintable_text_at_the_authorize_endpoint_is_shown_never_a_500(user, query):
    browser = Client()
    browser.force_login(user)
    page = browser.get(f"/o/authorize/?response_type=code&redirect_uri={CALLBACK}&{query}")
    assert page.status_code == 400
    assert b'data-error="invalid_request"' in page.content
    assert "Location" not in page


# --- the registration rate ----------------------------------------------------------------------


def test_registrations_are_rate_limited_per_client_address(settings):
    settings.OAUTH_REGISTRATION_RATE = "3/m"
    for _ in range(3):
        assert register(metadata()).status_code == 201
    assert_oauth_error(register(metadata()), "temporarily_unavailable", status=429)
    # A forged X-Forwarded-For changes nothing while no proxy is trusted.
    forged = register(metadata(), HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert forged.status_code == 429
    assert register(metadata(), REMOTE_ADDR="198.51.100.7").status_code == 201
    assert Application.objects.count() == 4


def test_behind_a_trusted_proxy_the_forwarded_address_counts(settings):
    settings.OAUTH_REGISTRATION_RATE = "2/m"
    settings.OAUTH_TRUSTED_PROXY_COUNT = 1
    # The proxy appends the address it saw; what the caller put before it is not trusted.
    as_seen = {"HTTP_X_FORWARDED_FOR": "10.9.9.9, 203.0.113.5"}
    assert register(metadata(), **as_seen).status_code == 201
    assert register(metadata(), **as_seen).status_code == 201
    assert register(metadata(), **as_seen).status_code == 429
    other = {"HTTP_X_FORWARDED_FOR": "10.9.9.9, 203.0.113.6"}
    assert register(metadata(), **other).status_code == 201


# --- a plain sign-in ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "says"),
    [("en", "You are signed in to GiftGenius"), ("pl", "Zalogowano Cię do GiftGenius")],
)
def test_a_sign_in_without_next_lands_on_a_page_that_exists(user, language, says):
    browser = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = browser.post(
        "/o/login/", {"username": "alice", "password": "pw-alice-123"}, follow=True
    )
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == "/o/signed-in/"
    assert says in response.content.decode()


def test_registration_still_works_for_a_well_formed_host():
    registered = register_client(client_name="ChatGPT \u2764\ufe0f\u200d\U0001f525")
    assert registered["grant_types"] == ["authorization_code", "refresh_token"]
