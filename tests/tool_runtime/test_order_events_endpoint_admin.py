"""Staff set where an agent takes its order events, and the secret they are signed with, on the
agent's token in the admin: the secret is write-only, and a URL needs one."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tool_runtime.models import ApiToken, ApiTokenKind
from tool_runtime.principals import issue_api_token

pytestmark = pytest.mark.django_db
URL = "https://agent.example.com/agentic_checkout/webhooks/order_events"


@pytest.fixture
def staff(django_user_model) -> Client:
    admin_user = django_user_model.objects.create_superuser(username="root", password="pw")
    client = Client()
    client.force_login(admin_user)
    return client


def token_of(user, kind: str = ApiTokenKind.AGENT) -> ApiToken:
    issue_api_token(user=user, kind=kind)
    return ApiToken.objects.get(user=user, kind=kind)


def save(client: Client, token: ApiToken, **fields: str):
    url = reverse("admin:tool_runtime_apitoken_change", args=[token.pk])
    return client.post(url, {"_save": "Save", **fields})


def test_staff_set_the_endpoint_and_a_blank_secret_keeps_the_one_it_has(staff, user):
    token = token_of(user)
    assert save(staff, token, order_events_url=URL, order_events_secret="s3cret").status_code == 302
    token.refresh_from_db()
    assert (token.order_events_url, token.order_events_secret) == (URL, "s3cret")

    page = staff.get(reverse("admin:tool_runtime_apitoken_change", args=[token.pk]))
    assert URL in page.content.decode() and "s3cret" not in page.content.decode()

    moved = URL.replace("agent.example.com", "hooks.example.com")
    assert save(staff, token, order_events_url=moved, order_events_secret="").status_code == 302
    token.refresh_from_db()
    assert (token.order_events_url, token.order_events_secret) == (moved, "s3cret")
    assert token.revoked is False


@pytest.mark.parametrize(
    ("kind", "fields", "field_in_error"),
    [
        pytest.param(
            ApiTokenKind.AGENT, {"order_events_url": URL}, "order_events_secret", id="no-secret"
        ),
        pytest.param(
            ApiTokenKind.SCRIPT,
            {"order_events_url": URL, "order_events_secret": "s"},
            "order_events_url",
            id="script-token",
        ),
        pytest.param(
            ApiTokenKind.AGENT,
            {"order_events_url": "not a url", "order_events_secret": "s"},
            "order_events_url",
            id="bad-url",
        ),
    ],
)
def test_an_endpoint_that_cannot_work_is_refused_and_nothing_is_saved(
    staff, user, kind, fields, field_in_error
):
    token = token_of(user, kind)
    response = save(staff, token, **fields)
    assert response.status_code == 200
    assert field_in_error in response.context["adminform"].form.errors
    token.refresh_from_db()
    assert (token.order_events_url, token.order_events_secret) == ("", "")


def test_saving_the_endpoint_never_brings_back_a_token_revoked_meanwhile(staff, user):
    token = token_of(user)
    ApiToken.objects.filter(pk=token.pk).update(revoked=True)
    # A form opened before the revocation still sends the endpoint.
    save(staff, token, order_events_url=URL, order_events_secret="s3cret")
    token.refresh_from_db()
    assert token.revoked is True
