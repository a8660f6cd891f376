"""Every request is checked against the installed stripe SDK's parameter types: what Stripe
would refuse is refused here, with Stripe's error shape, before anything is made."""

from __future__ import annotations

import httpx
import pytest
import stripe

from tests.localstripe import API_KEY


@pytest.mark.parametrize(
    ("path", "data", "param", "code"),
    [
        (
            "/v1/payment_intents",
            {"amount": "100", "currency": "eur", "metdata[a]": "b"},
            "metdata",
            "parameter_unknown",
        ),
        ("/v1/payment_intents", {"currency": "eur"}, "amount", "parameter_missing"),
        (
            "/v1/payment_intents",
            {"amount": "ten", "currency": "eur"},
            "amount",
            "parameter_invalid_integer",
        ),
        (
            "/v1/payment_intents",
            {"amount": "100", "currency": "eur", "confirm": "yes"},
            "confirm",
            None,
        ),
        (
            "/v1/payment_intents",
            {"amount": "100", "currency": "eur", "payment_method_types[0]": "card"},
            "payment_method_types",
            "payment_method_types_no_longer_supported",
        ),
        (
            "/v1/payment_intents",
            {"amount": "100", "currency": "eur", "metadata": "flat"},
            "metadata",
            None,
        ),
        (
            "/v1/payment_intents",
            {
                "amount": "100",
                "currency": "eur",
                "payment_method_data[card][number]": "4242424242424242",
            },
            "payment_method_data[card]",
            "parameter_unknown",
        ),
        ("/v1/customers", {"emial": "a@example.com"}, "emial", "parameter_unknown"),
        ("/v1/refunds", {"payment_intent": "pi_x", "amout": "1"}, "amout", "parameter_unknown"),
        (
            "/v1/setup_intents",
            {"usage": "off_session", "customr": "cus_x"},
            "customr",
            "parameter_unknown",
        ),
    ],
)
def test_a_post_with_a_parameter_stripe_does_not_take_is_refused(fake, path, data, param, code):
    answer = httpx.post(f"{fake}{path}", data=data, auth=(API_KEY, ""))
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["type"], error["param"], error.get("code")) == (
        "invalid_request_error",
        param,
        code,
    )
    listing = httpx.get(f"{fake}/v1/payment_intents", auth=(API_KEY, "")).json()
    assert listing["data"] == []


def test_queries_are_checked_too(fake):
    answer = httpx.get(
        f"{fake}/v1/checkout/sessions", params={"paymentintent": "pi_x"}, auth=(API_KEY, "")
    )
    assert (answer.status_code, answer.json()["error"]["param"]) == (400, "paymentintent")


def test_what_the_sdk_sends_for_the_adapters_calls_passes(client):
    """The calls the Stripe adapter makes (checkout/payments/stripe_provider.py), with expand."""
    intent = client.v1.payment_intents.create(
        params={
            "amount": 1200,
            "currency": "eur",
            "payment_method": "pm_card_visa",
            "allowed_payment_method_types": ["card"],
            "metadata": {"giftgenius_key": "k"},
        }
    )
    expand = {"expand": ["latest_charge"]}
    assert client.v1.payment_intents.confirm(intent.id, params=expand).status == "succeeded"
    assert client.v1.payment_intents.retrieve(intent.id, params=expand).latest_charge.paid
    assert client.v1.payment_intents.list(params={"limit": 100, "expand": ["data.latest_charge"]})
    refund = client.v1.refunds.create(
        params={"payment_intent": intent.id, "amount": 200, "metadata": {"giftgenius_key": "r"}}
    )
    assert refund.amount == 200
    assert client.v1.refunds.list(params={"payment_intent": intent.id, "limit": 100}).data


def test_a_request_without_an_api_key_is_unauthorized_before_its_parameters_are_read(fake):
    answer = httpx.post(f"{fake}/v1/payment_intents", data={"nonsense": "1"})
    assert answer.status_code == 401


def test_endpoints_the_fake_does_not_check_keep_localstripes_own_validation(fake):
    answer = httpx.post(f"{fake}/v1/plans", data={"nonsense": "1"}, auth=(API_KEY, ""))
    assert answer.status_code == 400 and "Unexpected nonsense" in answer.json()["error"]["message"]


def test_the_sdk_raises_its_invalid_request_error_for_a_refusal(client):
    with pytest.raises(stripe.InvalidRequestError) as refused:
        client.v1.customers.create(params={"emial": "a@example.com"})  # type: ignore[typeddict-unknown-key]
    assert refused.value.param == "emial"
