"""API tokens: `manage.py create_api_token` prints the token once and stores only its digest;
a revoked token is refused."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.conftest import ToolClient
from tool_runtime.models import ApiToken
from tool_runtime.principals import user_for_token


def test_create_api_token_prints_only_the_token_and_stores_its_digest(user):
    out = StringIO()
    call_command("create_api_token", "alice", stdout=out)
    token = out.getvalue().strip()
    assert token.startswith("gg_") and "\n" not in token and len(token) > 30
    stored = ApiToken.objects.get(user=user)
    assert token not in (stored.digest, stored.prefix) and len(stored.digest) == 64
    assert user_for_token(token) == user
    assert ToolClient(token).call("start_gift_workflow", {}).status == 200


def test_create_api_token_for_unknown_user_fails(db):
    with pytest.raises(CommandError):
        call_command("create_api_token", "nobody")


def test_revoked_token_is_unauthorized(api, user):
    ApiToken.objects.filter(user=user).update(revoked=True)
    assert api.call("start_gift_workflow", {}).status == 401
