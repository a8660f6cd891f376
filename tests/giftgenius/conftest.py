"""Fixtures of the project's own tests (transports, sign-in, operations)."""

import pytest


@pytest.fixture
def oauth_only(settings):
    """As in production: no trusted subject, sign-in is the only way in over /mcp."""
    settings.MCP_TRUST_OPENAI_SUBJECT = False
