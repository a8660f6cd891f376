"""Staff issue an agent key from the admin: the raw key is on the answer to the POST only,
stored as its digest, and opens /acp (not /api/tools); staff without the add permission are
refused."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from tests.fixtures import make_product
from tests.giftgenius.transports.acp_client import Agent, create_body
from tool_runtime.models import ApiToken, ApiTokenKind

pytestmark = pytest.mark.django_db
ADD = reverse("admin:tool_runtime_apitoken_add")
KEY = re.compile(r'<code id="issued-key">([^<]+)</code>')


@pytest.fixture
def staff(django_user_model) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser(username="root", password="pw"))
    return client


def test_staff_issue_an_agent_key_shown_once_and_stored_as_its_digest(staff, user):
    form = staff.get(ADD)
    assert form.status_code == 200 and KEY.search(form.content.decode()) is None
    page = staff.post(ADD, {"user": user.pk, "signing_secret": ""})
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"]
    (key,) = KEY.findall(page.content.decode())
    (token,) = ApiToken.objects.filter(user=user)
    assert token.kind == ApiTokenKind.AGENT and token.signing_secret == ""
    assert key.startswith(token.prefix) and key not in str(token.__dict__)
    assert token.digest == hashlib.sha256(key.encode()).hexdigest()
    # Never again: not on the token's page, not on the list.
    for url in (
        reverse("admin:tool_runtime_apitoken_change", args=[token.pk]),
        reverse("admin:tool_runtime_apitoken_changelist"),
        ADD,
    ):
        assert key not in staff.get(url).content.decode()

    make_product(sku="GG-ADMIN-KEY", stock=2)
    agent = Agent(key)
    assert agent.post("/checkout_sessions", create_body("GG-ADMIN-KEY")).status == 201
    tools = Client().post(
        "/api/tools/start_gift_workflow",
        data="{}",
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )
    assert tools.status_code == 401


def test_a_signing_secret_is_kept_and_required_on_acp(staff, user):
    page = staff.post(ADD, {"user": user.pk, "signing_secret": "agent-s3cret"})
    (key,) = KEY.findall(page.content.decode())
    assert "agent-s3cret" not in page.content.decode()
    assert ApiToken.objects.get(user=user).signing_secret == "agent-s3cret"
    unsigned = Agent(key).get("/checkout_sessions/cs_unknown")
    assert unsigned.status == 401 and unsigned.body["code"] == "invalid_signature"


def test_a_form_without_a_user_issues_nothing(staff):
    page = staff.post(ADD, {"user": "", "signing_secret": ""})
    assert page.status_code == 200 and KEY.search(page.content.decode()) is None
    assert ApiToken.objects.count() == 0


def test_staff_without_the_add_permission_are_refused(django_user_model, user):
    clerk = django_user_model.objects.create_user(username="clerk", password="pw", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="change_apitoken"))
    client = Client()
    client.force_login(clerk)
    assert client.get(ADD).status_code == 403
    assert client.post(ADD, {"user": user.pk}).status_code == 403
    assert ApiToken.objects.count() == 0
    outsider = Client()
    outsider.force_login(user)  # not staff: the admin sends them to its login page
    assert outsider.post(ADD, {"user": user.pk}).status_code == 302
    assert ApiToken.objects.count() == 0
