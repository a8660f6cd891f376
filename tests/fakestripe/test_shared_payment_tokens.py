"""Shared Payment Tokens: an agent's grant (the test helper), reading it, charging it with a
PaymentIntent, and every way a token is refused."""

from __future__ import annotations

import time

import pytest
import stripe

from tests.fakestripe.conftest import call

GRANT = "/v1/test_helpers/shared_payment/granted_tokens"
SPT = "shared_payment_granted_token"


def _grant(client, max_amount: int = 3000, currency: str = "eur", expires_in: int = 3600, **extra):
    limits = {
        "currency": currency,
        "max_amount": max_amount,
        "expires_at": int(time.time()) + expires_in,
    }
    return call(client, "post", GRANT, payment_method="pm_card_visa", usage_limits=limits, **extra)


def _charge(client, token: str, amount: int = 3000, currency: str = "eur"):
    return client.v1.payment_intents.create(
        params={
            "amount": amount,
            "currency": currency,
            "confirm": True,
            "payment_method_data": {SPT: token},
            "metadata": {"order_id": "1"},
        }
    )


def _captured(client, token: str) -> int:
    return call(
        client, "get", f"/v1/shared_payment/granted_tokens/{token}"
    ).usage_details.amount_captured.value


def test_a_granted_token_shows_its_limits_and_the_card_but_never_its_number(client):
    token = _grant(client, shared_metadata={"agent": "chatgpt"})
    assert token.object == "shared_payment.granted_token" and token.id.startswith("spt_")
    assert (token.usage_limits.currency, token.usage_limits.max_amount) == ("eur", 3000)
    assert token.deactivated_reason is None
    assert token.payment_method_details.card.last4 == "4242"
    assert token.shared_metadata.to_dict() == {"agent": "chatgpt"}
    read = call(client, "get", f"/v1/shared_payment/granted_tokens/{token.id}")
    assert read.id == token.id
    for body in (token, read):
        assert "4242424242424242" not in str(body)  # the whole object, as JSON


def test_a_payment_intent_charges_the_token_once_and_consumes_it(client, webhooks):
    token = _grant(client)
    intent = _charge(client, token.id)
    assert intent.status == "succeeded"
    method = client.v1.payment_methods.retrieve(intent.payment_method)
    assert method[SPT] == token.id and method.card.last4 == "4242"
    used = call(client, "get", f"/v1/shared_payment/granted_tokens/{token.id}")
    assert used.usage_details.amount_captured.value == 3000
    assert used.deactivated_reason == "consumed"
    webhooks.wait_for("shared_payment.granted_token.used", token.id)
    with pytest.raises(stripe.CardError, match="consumed") as again:
        _charge(client, token.id)
    assert again.value.error.payment_intent.status == "requires_payment_method"
    assert _captured(client, token.id) == 3000


def test_a_token_pays_in_parts_up_to_its_limit(client):
    token = _grant(client, max_amount=3000)
    assert _charge(client, token.id, amount=1000).status == "succeeded"
    with pytest.raises(stripe.CardError, match="2000 eur left"):
        _charge(client, token.id, amount=2500)
    assert _charge(client, token.id, amount=2000).status == "succeeded"
    assert _captured(client, token.id) == 3000


@pytest.mark.parametrize(
    ("amount", "currency", "message"),
    [
        (3001, "eur", "exceeds"),
        (3000, "usd", "limited to eur"),
    ],
)
def test_a_charge_outside_the_limits_is_declined_and_captures_nothing(
    client, amount, currency, message
):
    token = _grant(client)
    with pytest.raises(stripe.CardError, match=message) as declined:
        _charge(client, token.id, amount=amount, currency=currency)
    assert (declined.value.http_status, declined.value.code) == (402, "card_declined")
    intent = client.v1.payment_intents.retrieve(declined.value.error.payment_intent.id)
    assert intent.status == "requires_payment_method" and intent.latest_charge is None
    assert _captured(client, token.id) == 0


def test_an_expired_token_is_declined(client):
    token = _grant(client, expires_in=1)
    time.sleep(1.5)
    with pytest.raises(stripe.CardError, match="expired"):
        _charge(client, token.id)
    assert (
        call(client, "get", f"/v1/shared_payment/granted_tokens/{token.id}").deactivated_reason
        == "expired"
    )


def test_a_revoked_token_is_declined(client):
    token = _grant(client)
    revoked = call(client, "post", f"{GRANT}/{token.id}/revoke")
    assert revoked.deactivated_reason == "revoked" and revoked.deactivated_at
    with pytest.raises(stripe.CardError, match="revoked"):
        _charge(client, token.id)


def test_an_unknown_token_is_not_found(client):
    with pytest.raises(stripe.InvalidRequestError) as missing:
        _charge(client, "spt_missing")
    assert (missing.value.http_status, missing.value.code) == (404, "resource_missing")
    assert missing.value.param == f"payment_method_data[{SPT}]"
    with pytest.raises(stripe.InvalidRequestError):
        call(client, "get", "/v1/shared_payment/granted_tokens/spt_missing")


@pytest.mark.parametrize(
    ("params", "param", "code"),
    [
        ({"payment_method": "pm_card_visa"}, "usage_limits", "parameter_missing"),
        (
            {"payment_method": "pm_card_visa", "usage_limits": {"currency": "eur"}},
            "usage_limits[max_amount]",
            "parameter_missing",
        ),
        (
            {
                "payment_method": "pm_card_visa",
                "usage_limits": {"currency": "eur", "max_amount": 5, "max_uses": 1},
            },
            "usage_limits[max_uses]",
            "parameter_unknown",
        ),
        (
            {
                "payment_method": "pm_card_visa",
                "usage_limits": {"currency": "eur", "max_amount": 5},
                "seller_details": {"network_id": "x"},
            },
            "seller_details",
            "parameter_unknown",
        ),
    ],
)
def test_a_grant_stripe_would_refuse_is_refused(client, params, param, code):
    with pytest.raises(stripe.InvalidRequestError) as refused:
        call(client, "post", GRANT, **params)
    assert (refused.value.param, refused.value.code) == (param, code)


def test_a_grant_already_expired_is_refused(client):
    with pytest.raises(stripe.InvalidRequestError) as refused:
        _grant(client, expires_in=-10)
    assert refused.value.param == "usage_limits[expires_at]"


def test_the_token_cannot_be_mixed_with_other_payment_method_data(client):
    token = _grant(client)
    with pytest.raises(stripe.InvalidRequestError) as refused:
        client.v1.payment_intents.create(
            params={
                "amount": 100,
                "currency": "eur",
                "confirm": True,
                "payment_method_data": {SPT: token.id, "type": "card"},
            }
        )
    assert refused.value.code == "parameters_exclusive"
    assert _captured(client, token.id) == 0
