"""Settings ACP depends on, checked at start (`manage.py check`, and before `migrate`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks

# ACP: a server keeps each Idempotency-Key's answer for at least 24 hours.
ACP_MIN_KEY_LIFETIME_SECONDS = 24 * 3600


@checks.register()
def idempotency_keys_outlive_acp_retries(**_: Any) -> list[checks.CheckMessage]:
    if settings.IDEMPOTENCY_KEY_TTL_SECONDS >= ACP_MIN_KEY_LIFETIME_SECONDS:
        return []
    return [
        checks.Error(
            f"IDEMPOTENCY_KEY_TTL_SECONDS is {settings.IDEMPOTENCY_KEY_TTL_SECONDS}; the Agentic "
            f"Commerce Protocol needs keys kept at least {ACP_MIN_KEY_LIFETIME_SECONDS} s, or an "
            "agent retrying a checkout the next morning could pay twice.",
            hint=f"Set IDEMPOTENCY_KEY_TTL_SECONDS to {ACP_MIN_KEY_LIFETIME_SECONDS} or more.",
            id="checkout.E001",
        )
    ]
