"""Checkout Sessions: create, retrieve, list, expire, and every refusal Stripe would give."""

from __future__ import annotations

import time

import pytest
import stripe

from tests.fakestripe.conftest import pay, session_params


def test_a_created_session_is_open_unpaid_and_carries_what_the_merchant_sent(client):
    customer = client.v1.customers.create(params={"email": "ada@example.com"})
    expires_at = int(time.time()) + 45 * 60
    session = client.v1.checkout.sessions.create(
        params=session_params(
            customer=customer.id,
            expires_at=expires_at,
            saved_payment_method_options={"payment_method_save": "enabled"},
            shipping_options=[
                {
                    "shipping_rate_data": {
                        "display_name": "Courier",
                        "type": "fixed_amount",
                        "fixed_amount": {"amount": 500, "currency": "eur"},
                    }
                }
            ],
        )
    )
    assert session.object == "checkout.session"
    assert session.id.startswith("cs_test_")
    assert (session.status, session.payment_status) == ("open", "unpaid")
    assert session.url.endswith(f"/c/pay/{session.id}")
    assert (session.amount_subtotal, session.amount_total, session.currency) == (2500, 3000, "eur")
    assert session.total_details.amount_shipping == 500
    assert session.customer == customer.id
    assert session.client_reference_id == "order-1"
    assert session.metadata.to_dict() == {"order_id": "1", "workflow_id": "w-1"}
    assert session.expires_at == expires_at
    assert session.payment_intent is None  # made at the first payment attempt, as at Stripe
    assert session.saved_payment_method_options.payment_method_save == "enabled"
    assert session.mode == "payment" and session.ui_mode == "hosted_page"

    again = client.v1.checkout.sessions.retrieve(session.id, params={"expand": ["line_items"]})
    assert again.to_dict()["metadata"] == session.to_dict()["metadata"]
    (item,) = again.line_items.data
    assert (item.description, item.quantity, item.amount_total) == ("Ceramic mug", 2, 2500)
    assert item.price.unit_amount == 1250
    listed = client.v1.checkout.sessions.line_items.list(session.id)
    assert [i.id for i in listed.data] == [item.id]


def test_a_session_lasts_24_hours_unless_told(client):
    before = int(time.time())
    session = client.v1.checkout.sessions.create(params=session_params())
    assert before + 24 * 3600 <= session.expires_at <= int(time.time()) + 24 * 3600


def test_list_filters_by_customer_payment_intent_and_status(client):
    ada = client.v1.customers.create(params={"email": "ada@example.com"}).id
    bob = client.v1.customers.create(params={"email": "bob@example.com"}).id
    first = client.v1.checkout.sessions.create(params=session_params(customer=ada))
    second = client.v1.checkout.sessions.create(params=session_params(customer=ada))
    other = client.v1.checkout.sessions.create(params=session_params(customer=bob))
    assert pay(second, "4242424242424242").status_code == 303
    paid = client.v1.checkout.sessions.retrieve(second.id)

    def ids(**params):
        return [s.id for s in client.v1.checkout.sessions.list(params=params).data]

    assert ids(customer=ada) == [second.id, first.id]  # newest first
    assert ids(customer=bob) == [other.id]
    assert ids(payment_intent=paid.payment_intent) == [second.id]
    assert ids(status="complete") == [second.id]
    assert set(ids(status="open")) == {first.id, other.id}
    assert ids(limit=1) == [other.id]
    page = client.v1.checkout.sessions.list(params={"limit": 1})
    assert page.has_more is True


def test_expire_closes_an_open_session_and_cancels_its_payment_attempt(client, webhooks):
    session = client.v1.checkout.sessions.create(params=session_params())
    pay(session, "4000002760003184")  # stops at 3-D Secure: an intent exists, unpaid
    expired = client.v1.checkout.sessions.expire(session.id)
    assert (expired.status, expired.payment_status, expired.url) == ("expired", "unpaid", None)
    intent = client.v1.payment_intents.retrieve(expired.payment_intent)
    assert intent.status == "canceled"
    event = webhooks.wait_for("checkout.session.expired", session.id)
    assert event.data.object.status == "expired"
    # Nothing more can be paid or expired.
    assert pay(session, "4242424242424242").status_code == 410
    with pytest.raises(stripe.InvalidRequestError, match="Only Checkout Sessions"):
        client.v1.checkout.sessions.expire(session.id)


def test_a_paid_session_cannot_be_expired(client):
    session = client.v1.checkout.sessions.create(params=session_params())
    pay(session, "4242424242424242")
    with pytest.raises(stripe.InvalidRequestError, match="Only Checkout Sessions"):
        client.v1.checkout.sessions.expire(session.id)
    assert client.v1.checkout.sessions.retrieve(session.id).status == "complete"


@pytest.mark.parametrize(
    ("overrides", "param", "code"),
    [
        ({"succes_url": "https://shop.example/"}, "succes_url", "parameter_unknown"),
        (
            {
                "line_items": [
                    {
                        "price_data": {
                            "currency": "eur",
                            "product_data": {"nme": "x"},
                            "unit_amount": 1,
                        },
                        "quantity": 1,
                    }
                ]
            },
            "line_items[0][price_data][product_data][nme]",
            "parameter_unknown",
        ),
        (
            {"payment_intent_data": {"metdata": {"a": "b"}}},
            "payment_intent_data[metdata]",
            "parameter_unknown",
        ),
        ({"expires_at": "soon"}, "expires_at", "parameter_invalid_integer"),
        (
            {
                "line_items": [
                    {
                        "price_data": {
                            "currency": "eur",
                            "product_data": {"name": "x"},
                            "unit_amount": 1,
                        },
                        "quantity": "two",
                    }
                ]
            },
            "line_items[0][quantity]",
            "parameter_invalid_integer",
        ),
        ({"mode": None}, "mode", "parameter_missing"),
        ({"line_items": None}, "line_items", "parameter_missing"),
    ],
)
def test_parameters_stripe_does_not_have_are_refused(client, overrides, param, code):
    params = {k: v for k, v in session_params(**overrides).items() if v is not None}
    with pytest.raises(stripe.InvalidRequestError) as refused:
        client.v1.checkout.sessions.create(params=params)
    assert refused.value.http_status == 400
    assert (refused.value.param, refused.value.code) == (param, code)
    assert client.v1.checkout.sessions.list().data == []  # nothing was made


@pytest.mark.parametrize(
    ("minutes", "message"),
    [(29, "at least 30 minutes"), (24 * 60 + 1, "less than 24 hours"), (-5, "at least 30")],
)
def test_expires_at_must_be_30_minutes_to_24_hours_away(client, minutes, message):
    with pytest.raises(stripe.InvalidRequestError, match=message) as refused:
        client.v1.checkout.sessions.create(
            params=session_params(expires_at=int(time.time()) + minutes * 60)
        )
    assert refused.value.param == "expires_at"


@pytest.mark.parametrize(
    ("overrides", "param", "status"),
    [
        ({"customer": "cus_missing"}, "customer", 404),
        ({"line_items": [{"price": "price_missing", "quantity": 1}]}, "line_items[0][price]", 404),
        (
            {
                "line_items": [
                    {
                        "price_data": {
                            "currency": "eur",
                            "product_data": {"name": "a"},
                            "unit_amount": 1,
                        },
                        "quantity": 1,
                    },
                    {
                        "price_data": {
                            "currency": "usd",
                            "product_data": {"name": "b"},
                            "unit_amount": 1,
                        },
                        "quantity": 1,
                    },
                ]
            },
            "line_items",
            400,
        ),
        ({"success_url": "shop.example/paid"}, "success_url", 400),
        ({"customer_email": "a@example.com", "customer": "cus_any"}, "customer_email", 400),
        ({"mode": "subscription"}, "mode=subscription", 400),  # Stripe has it; this fake does not
        ({"allow_promotion_codes": True}, "allow_promotion_codes", 400),
        (
            {"saved_payment_method_options": {"payment_method_save": "maybe"}},
            "saved_payment_method_options[payment_method_save]",
            400,
        ),
    ],
)
def test_values_stripe_refuses_and_features_the_fake_lacks_are_refused(
    client, overrides, param, status
):
    if overrides.get("customer") == "cus_any":
        overrides["customer"] = client.v1.customers.create().id
    with pytest.raises(stripe.InvalidRequestError) as refused:
        client.v1.checkout.sessions.create(params=session_params(**overrides))
    assert (refused.value.http_status, refused.value.param) == (status, param)


def test_an_unknown_session_is_not_found(client):
    with pytest.raises(stripe.InvalidRequestError) as missing:
        client.v1.checkout.sessions.retrieve("cs_test_missing")
    assert (missing.value.http_status, missing.value.code) == (404, "resource_missing")
    with pytest.raises(stripe.InvalidRequestError):
        client.v1.checkout.sessions.expire("cs_test_missing")
