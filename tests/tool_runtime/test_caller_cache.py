"""The verified-token cache: a hit costs no query, and revocation, deactivation and
expiry are respected — at once where a signal or the admin says so, else within the TTL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tool_runtime import caller_cache
from tool_runtime.models import ApiToken
from tool_runtime.principals import cached_caller, caller_for_bearer_header, issue_api_token

RESOURCE = "http://127.0.0.1/api/tools/get_workflow"


def lookup(token: str):
    return caller_for_bearer_header(f"Bearer {token}", resource_uri=RESOURCE)


def queries_for(fn) -> tuple[object, int]:
    with CaptureQueriesContext(connection) as ctx:
        result = fn()
    return result, len(ctx.captured_queries)


@pytest.fixture
def token(user) -> str:
    return issue_api_token(user=user)


def test_a_second_lookup_is_served_from_the_cache(token, user):
    first, first_queries = queries_for(lambda: lookup(token))
    second, second_queries = queries_for(lambda: lookup(token))
    assert first.user == second.user == user
    assert first_queries == 1 and second_queries == 0
    assert second.user is not first.user  # each call gets its own copy of the user


def test_the_event_loop_check_only_answers_for_what_the_cache_vouches_for(token, user):
    header = f"Bearer {token}"
    # /mcp's middleware asks this first, on the event loop: it must never touch the database.
    _, cold_queries = queries_for(lambda: cached_caller(header, resource_uri=RESOURCE))
    assert cached_caller(header, resource_uri=RESOURCE) is None and cold_queries == 0
    assert lookup(token) is not None  # the database vouches once …
    warm, warm_queries = queries_for(lambda: cached_caller(header, resource_uri=RESOURCE))
    assert warm.user == user and warm_queries == 0  # … then the cache does
    assert cached_caller("Basic abc", resource_uri=RESOURCE) is None
    assert cached_caller(f"Bearer {token}x", resource_uri=RESOURCE) is None
    row = ApiToken.objects.get()
    row.revoked = True
    row.save()
    assert cached_caller(header, resource_uri=RESOURCE) is None  # revocation empties it at once


def test_a_revoked_token_is_refused_at_once(token):
    assert lookup(token) is not None
    row = ApiToken.objects.get()
    row.revoked = True
    row.save()
    assert lookup(token) is None


def test_the_admin_revoke_action_takes_effect_at_once(token, user):
    assert lookup(token) is not None
    staff = get_user_model().objects.create_superuser("root", password="pw-root-123")
    client = Client()
    client.force_login(staff)
    response = client.post(
        "/admin/tool_runtime/apitoken/",
        {
            "action": "revoke_tokens",
            "_selected_action": [ApiToken.objects.get(user=user).pk],
            "post": "yes",  # the confirmation page's answer
        },
    )
    assert response.status_code == 302
    assert lookup(token) is None


def test_a_deactivated_user_is_refused_at_once(token, user):
    assert lookup(token) is not None
    user.is_active = False
    user.save()
    assert lookup(token) is None


def test_a_deleted_token_is_refused_at_once(token):
    assert lookup(token) is not None
    ApiToken.objects.all().delete()
    assert lookup(token) is None


def test_a_change_without_signals_is_refused_once_the_ttl_has_passed(token, monkeypatch, settings):
    # QuerySet.update sends no signal (another process revoking looks like this): the TTL bounds it.
    now = [1000.0]
    monkeypatch.setattr(caller_cache, "_clock", lambda: now[0])
    caller_cache.clear()
    assert lookup(token) is not None
    ApiToken.objects.update(revoked=True)
    assert lookup(token) is not None  # still within CALLER_CACHE_SECONDS
    now[0] += settings.CALLER_CACHE_SECONDS + 0.01
    assert lookup(token) is None


def test_a_cached_token_is_refused_once_it_expires(user, monkeypatch):
    token = issue_api_token(user=user, ttl=timedelta(minutes=1))
    assert lookup(token) is not None
    later = timezone.now() + timedelta(minutes=2)
    monkeypatch.setattr(timezone, "now", lambda: later)
    _, queries = queries_for(lambda: lookup(token))
    assert lookup(token) is None
    assert queries == 1  # the expired entry was dropped and the database asked again


def test_a_zero_ttl_turns_the_cache_off(token, settings):
    settings.CALLER_CACHE_SECONDS = 0
    lookup(token)
    _, queries = queries_for(lambda: lookup(token))
    assert queries == 1


def test_an_unknown_token_is_never_cached(db):
    assert lookup("gg_not-a-token") is None
    _, queries = queries_for(lambda: lookup("gg_not-a-token"))
    assert queries == 1
