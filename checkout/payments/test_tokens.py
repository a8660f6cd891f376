"""A Shared Payment Token for the QA preview's stand-in of ChatGPT's payment sheet: granted by
Stripe's own test helper for its test card, so the preview pays the way ChatGPT's sheet would.
Test keys only (localstripe or a Stripe test account); a live key or the simulator is refused."""

from __future__ import annotations

import json

from django.conf import settings

from checkout.payments import config
from checkout.payments.provider import ProviderRejected
from checkout.payments.stripe_objects import client, translated

GRANT_SECONDS = 15 * 60


def grant_test_token(*, amount_minor: int, currency: str, now: int) -> str:
    """A token limited to `amount_minor` in `currency`, for Stripe's test Visa."""
    if settings.PAYMENT_PROVIDER != config.STRIPE or settings.STRIPE_API_KEY.startswith("sk_live_"):
        raise ProviderRejected(
            "test payment tokens need the Stripe provider with a test key", code="INVALID_REQUEST"
        )
    stripe = client()
    granted = translated(
        lambda: stripe.raw_request(
            "post",
            "/v1/test_helpers/shared_payment/granted_tokens",
            payment_method="pm_card_visa",
            usage_limits={
                "currency": currency.lower(),
                "max_amount": amount_minor,
                "expires_at": now + GRANT_SECONDS,
            },
        )
    )
    return str(json.loads(granted.body)["id"])
