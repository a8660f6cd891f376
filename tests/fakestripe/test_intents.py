"""PaymentIntents and SetupIntents where localstripe differed from Stripe: cards saved by a
SetupIntent, 3-D Secure off and on session, setup_future_usage, and customers' saved cards."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
import stripe

from tests.localstripe import API_KEY


@pytest.fixture
def customer(client) -> str:
    return client.v1.customers.create(params={"email": "ada@example.com"}).id


def _charge_off_session(client, customer: str, method: str) -> stripe.PaymentIntent:
    return client.v1.payment_intents.create(
        params={
            "amount": 1500,
            "currency": "eur",
            "customer": customer,
            "payment_method": method,
            "confirm": True,
            "off_session": True,
        }
    )


def _on_session_needing_authentication(client, **params) -> stripe.PaymentIntent:
    return client.v1.payment_intents.create(
        params={
            "amount": 1500,
            "currency": "eur",
            "confirm": True,
            "payment_method": "pm_card_authenticationRequired",
            **params,
        }
    )


def test_a_confirmed_setup_intent_attaches_its_card_to_the_customer(client, customer, webhooks):
    setup = client.v1.setup_intents.create(params={"customer": customer, "usage": "off_session"})
    setup = client.v1.setup_intents.confirm(setup.id, params={"payment_method": "pm_card_visa"})
    assert setup.status == "succeeded"
    (card,) = client.v1.customers.payment_methods.list(customer).data
    assert (card.id, card.customer) == (setup.payment_method, customer)
    webhooks.wait_for("setup_intent.succeeded", setup.id)
    webhooks.wait_for("payment_method.attached", card.id)
    # The saved card pays off-session.
    assert _charge_off_session(client, customer, card.id).status == "succeeded"


def test_a_declined_setup_attaches_nothing(client, customer):
    setup = client.v1.setup_intents.create(params={"customer": customer})
    with pytest.raises(stripe.CardError) as declined:
        client.v1.setup_intents.confirm(
            setup.id, params={"payment_method": "pm_card_chargeDeclined"}
        )
    assert (declined.value.http_status, declined.value.code) == (402, "card_declined")
    assert client.v1.setup_intents.retrieve(setup.id).status == "requires_payment_method"
    assert client.v1.customers.payment_methods.list(customer).data == []


def test_a_card_set_up_with_3d_secure_then_pays_off_session_without_it(client, fake, customer):
    setup = client.v1.setup_intents.create(
        params={
            "customer": customer,
            "payment_method": "pm_card_authenticationRequiredOnSetup",
            "confirm": True,
        }
    )
    assert setup.status == "requires_action"
    assert client.v1.customers.payment_methods.list(customer).data == []  # not yet
    done = httpx.post(
        f"{fake}/v1/setup_intents/{setup.id}/_authenticate",
        data={"client_secret": setup.client_secret, "success": "true"},
        auth=(API_KEY, ""),
    )
    assert done.json()["status"] == "succeeded"
    (card,) = client.v1.customers.payment_methods.list(customer).data
    assert _charge_off_session(client, customer, card.id).status == "succeeded"


def test_off_session_a_card_needing_authentication_is_declined_authentication_required(
    client, customer, webhooks
):
    with pytest.raises(stripe.CardError) as declined:
        _charge_off_session(client, customer, "pm_card_authenticationRequired")
    error = declined.value
    assert (error.http_status, error.code) == (402, "authentication_required")
    assert error.error.decline_code == "authentication_required"
    intent = error.error.payment_intent
    assert intent.status == "requires_payment_method"
    assert intent.last_payment_error.code == "authentication_required"
    stored = client.v1.payment_intents.retrieve(intent.id)
    assert (stored.status, stored.payment_method) == ("requires_payment_method", None)
    assert stored.last_payment_error.payment_method.card.last4 == "3184"
    webhooks.wait_for("payment_intent.payment_failed", intent.id)


def test_an_unset_card_needing_authentication_unless_set_up_is_declined_off_session(
    client, customer
):
    with pytest.raises(stripe.CardError, match="requires authentication"):
        _charge_off_session(client, customer, "pm_card_authenticationRequiredOnSetup")
    card = "pm_card_authenticationRequiredSetupForOffSession"  # "already set up" at the bank
    assert _charge_off_session(client, customer, card).status == "succeeded"


@pytest.mark.parametrize(
    ("outcome", "status", "redirect"),
    [
        ("complete", "succeeded", "succeeded"),
        ("fail", "requires_payment_method", "failed"),
    ],
)
def test_on_session_3d_secure_redirects_to_an_authentication_page_and_back(
    client, customer, outcome, status, redirect
):
    intent = _on_session_needing_authentication(
        client, customer=customer, return_url="https://shop.example/back?order=1"
    )
    assert intent.status == "requires_action"
    assert intent.next_action.type == "redirect_to_url"
    page = httpx.get(intent.next_action.redirect_to_url.url)
    assert page.status_code == 200 and "Complete authentication" in page.text
    back = httpx.post(
        intent.next_action.redirect_to_url.url.split("?")[0],
        data={"client_secret": intent.client_secret, "outcome": outcome},
    )
    assert back.status_code == 303
    location = urlsplit(back.headers["location"])
    assert location.netloc == "shop.example"
    query = parse_qs(location.query)
    assert query["order"] == ["1"]
    assert query["payment_intent"] == [intent.id]
    assert query["redirect_status"] == [redirect]
    assert client.v1.payment_intents.retrieve(intent.id).status == status


def test_the_authentication_page_wants_the_intents_client_secret(client, customer):
    intent = _on_session_needing_authentication(client, return_url="https://shop.example/")
    url = intent.next_action.redirect_to_url.url.split("?")[0]
    assert httpx.get(url, params={"client_secret": "wrong"}).status_code == 401
    assert (
        httpx.post(url, data={"client_secret": "wrong", "outcome": "complete"}).status_code == 401
    )
    assert client.v1.payment_intents.retrieve(intent.id).status == "requires_action"


def test_without_a_return_url_3d_secure_uses_the_sdk_and_authenticates_by_api(client, fake):
    intent = _on_session_needing_authentication(client)
    assert intent.next_action.type == "use_stripe_sdk"
    done = httpx.post(
        f"{fake}/v1/payment_intents/{intent.id}/_authenticate",
        data={"client_secret": intent.client_secret, "success": "true"},
        auth=(API_KEY, ""),
    )
    assert done.json()["status"] == "succeeded"


def test_setup_future_usage_saves_the_card_once_paid(client, customer):
    intent = client.v1.payment_intents.create(
        params={
            "amount": 1500,
            "currency": "eur",
            "customer": customer,
            "confirm": True,
            "payment_method": "pm_card_visa",
            "setup_future_usage": "off_session",
        }
    )
    assert (intent.status, intent.setup_future_usage) == ("succeeded", "off_session")
    (card,) = client.v1.customers.payment_methods.list(customer).data
    assert card.id == intent.payment_method
    declined = client.v1.payment_intents.create(
        params={
            "amount": 1500,
            "currency": "eur",
            "customer": customer,
            "payment_method": "pm_card_chargeDeclined",
            "setup_future_usage": "on_session",
        }
    )
    with pytest.raises(stripe.CardError):
        client.v1.payment_intents.confirm(declined.id)
    assert len(client.v1.customers.payment_methods.list(customer).data) == 1


def test_a_declined_intent_can_be_confirmed_again_with_another_card(client):
    intent = client.v1.payment_intents.create(
        params={
            "amount": 900,
            "currency": "eur",
            "payment_method": "pm_card_chargeDeclined",
        }
    )
    with pytest.raises(stripe.CardError):
        client.v1.payment_intents.confirm(intent.id)
    again = client.v1.payment_intents.confirm(intent.id, params={"payment_method": "pm_card_visa"})
    assert again.status == "succeeded"
    with pytest.raises(stripe.InvalidRequestError) as refused:
        client.v1.payment_intents.confirm(intent.id)
    assert refused.value.code == "payment_intent_unexpected_state"


def test_payment_method_data_makes_the_payment_method(client):
    intent = client.v1.payment_intents.create(
        params={
            "amount": 900,
            "currency": "eur",
            "confirm": True,
            "payment_method_data": {
                "type": "sepa_debit",
                "sepa_debit": {"iban": "DE89370400440532013000"},
            },
        }
    )
    assert intent.status == "processing"  # a debit settles later
    method = client.v1.payment_methods.retrieve(intent.payment_method)
    assert (method.type, method.sepa_debit.last4) == ("sepa_debit", "3000")


def test_saved_cards_are_per_customer(client, customer):
    other = client.v1.customers.create().id
    mine = client.v1.payment_methods.attach(
        client.v1.payment_methods.retrieve("pm_card_visa").id, params={"customer": customer}
    )
    assert client.v1.customers.payment_methods.retrieve(customer, mine.id).id == mine.id
    with pytest.raises(stripe.InvalidRequestError) as foreign:
        client.v1.customers.payment_methods.retrieve(other, mine.id)
    assert (foreign.value.http_status, foreign.value.code) == (404, "resource_missing")
    assert client.v1.customers.payment_methods.list(other).data == []
    listed = client.v1.payment_methods.list(params={"customer": customer})
    assert [m.id for m in listed.data] == [mine.id]
    client.v1.payment_methods.detach(mine.id)
    assert client.v1.customers.payment_methods.list(customer).data == []


def test_lists_are_newest_first_as_at_stripe(client):
    made = [
        client.v1.payment_intents.create(params={"amount": 100 + n, "currency": "eur"}).id
        for n in range(3)
    ]
    listed = client.v1.payment_intents.list(params={"limit": 2})
    assert [i.id for i in listed.data] == made[::-1][:2] and listed.has_more
    rest = client.v1.payment_intents.list(params={"starting_after": made[1]})
    assert [i.id for i in rest.data] == [made[0]]
