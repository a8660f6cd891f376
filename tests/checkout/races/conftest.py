"""The races that move money run once per payment provider: the simulator, and Stripe (the
real SDK against localstripe, tests/localstripe.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(params=["simulator", "stripe"])
def provider(request) -> str | None:
    """The test runs once per payment provider; for Stripe this is localstripe's URL."""
    return request.getfixturevalue("stripe_provider") if request.param == "stripe" else None
