"""Property-based: the OAuth forms (registration, token, sign-in) under text that carries NUL,
lone surrogates, bidi controls and zero-width characters in every string. Whatever is sent, the
answer is never a 5xx: the registration and token endpoints answer OAuth's JSON error (or a
registration whose stored text is printable), the sign-in page its form again."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oauth2_provider.models import Application

from tests.giftgenius.oauth.sign_in import CALLBACK
from tool_runtime.text import describe_refused

pytestmark = pytest.mark.django_db

HOSTILE = ["\x00", "\ud800", "\udfff", "\u202e", "\u2066", "\u200b", "\ufeff", "\u200d", "\x1b"]
text = st.text(
    alphabet=st.one_of(st.characters(), st.sampled_from([*HOSTILE, "@", "#", "/", ":"])),
    max_size=30,
)
uri = st.one_of(st.just(CALLBACK), text, text.map(lambda t: f"https://{t}/cb"))
grant = st.one_of(
    st.sampled_from(["authorization_code", "refresh_token", "client_credentials", "password"]),
    text,
)
# Each field is well formed or hostile, so a hostile value often reaches the database instead of
# being refused for a neighbour's sake.
registration = st.fixed_dictionaries(
    {
        "client_name": text,
        "redirect_uris": st.one_of(st.just([CALLBACK]), st.lists(uri, max_size=4)),
        "grant_types": st.one_of(
            st.just(["authorization_code", "refresh_token"]), st.lists(grant, max_size=3)
        ),
        "token_endpoint_auth_method": st.one_of(
            st.sampled_from(["none", "client_secret_basic"]), text
        ),
    },
    optional={"response_types": st.lists(st.one_of(st.just("code"), text), max_size=2)},
).flatmap(lambda d: st.dictionaries(text, text, max_size=2).map(lambda extra: {**extra, **d}))
token_request = st.fixed_dictionaries(
    {
        "grant_type": st.one_of(st.sampled_from(["authorization_code", "refresh_token"]), grant),
        "client_id": text,
        "code": text,
        "redirect_uri": uri,
        "code_verifier": text,
    },
    optional={"refresh_token": text, "resource": uri, "scope": text, "client_secret": text},
)

OAUTH_ERRORS = {
    "invalid_request",
    "invalid_client",
    "invalid_grant",
    "unauthorized_client",
    "unsupported_grant_type",
    "invalid_scope",
    "invalid_target",
    "invalid_client_metadata",
    "invalid_redirect_uri",
    "temporarily_unavailable",
}
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))


def form_body(fields: dict[str, str]) -> str:
    """As a careless client sends it: each value's UTF-8, lone surrogates included."""

    def enc(value: str) -> str:
        return quote(value.encode("utf-8", "surrogatepass"), safe="")

    return "&".join(f"{enc(k)}={enc(v)}" for k, v in fields.items())


def assert_oauth_error_shape(response) -> None:
    assert response.status_code < 500, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body["error"] in OAUTH_ERRORS, body


@FUZZ
@given(metadata=registration)
def test_registration_answers_oauth_errors_or_registers_printable_text(metadata):
    response = Client().post("/o/register/", json.dumps(metadata), content_type="application/json")
    if response.status_code == 201:
        app = Application.objects.get(client_id=response.json()["client_id"])
        for stored in (app.name, app.redirect_uris):
            assert describe_refused(stored) is None, stored
        return
    assert_oauth_error_shape(response)


@FUZZ
@given(fields=token_request)
def test_the_token_endpoint_answers_oauth_errors(fields):
    response = Client().post(
        "/o/token/", form_body(fields), content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code != 200  # none of these can hold a valid code
    assert_oauth_error_shape(response)


@FUZZ
@given(username=text, password=text, next_url=st.one_of(st.none(), text))
def test_the_sign_in_form_answers_its_form_again(username, password, next_url):
    fields = {"username": username, "password": password}
    if next_url is not None:
        fields["next"] = next_url
    response = Client().post(
        "/o/login/", form_body(fields), content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200, response.status_code
    assert b'data-testid="login-error"' in response.content


@FUZZ
@given(
    params=st.fixed_dictionaries(
        {"response_type": st.one_of(st.just("code"), text), "client_id": text, "redirect_uri": uri},
        optional={"scope": text, "state": text, "code_challenge": text, "resource": uri},
    )
)
def test_the_authorize_endpoint_never_answers_a_5xx(user, params):
    browser = Client()
    browser.force_login(user)
    response = browser.get(f"/o/authorize/?{form_body(params)}")
    assert response.status_code < 500, response.status_code
    if response.status_code == 400:
        assert b'data-testid="oauth-error"' in response.content
