"""Paying a Checkout Session on the fake's hosted page (its form submitted over HTTP here;
tests/browser/test_fake_stripe_checkout.py clicks the same page in Chromium): the outcomes, the
card saved only when the person asks, and the events each one sends."""

from __future__ import annotations

import time

import httpx

from tests.fakestripe.conftest import authenticate, pay, session_params


def _saved_cards(client, customer: str) -> list:
    return client.v1.customers.payment_methods.list(customer).data


def test_paying_completes_the_session_and_redirects_to_the_success_url(client, webhooks):
    customer = client.v1.customers.create(params={"email": "ada@example.com"}).id
    session = client.v1.checkout.sessions.create(params=session_params(customer=customer))
    answer = pay(session, "4242424242424242")
    assert answer.status_code == 303
    assert answer.headers["location"] == f"https://shop.example/paid?session={session.id}"

    paid = client.v1.checkout.sessions.retrieve(session.id)
    assert (paid.status, paid.payment_status, paid.url) == ("complete", "paid", None)
    assert paid.customer_details.email == "ada@example.com"
    intent = client.v1.payment_intents.retrieve(paid.payment_intent)
    assert (intent.status, intent.amount, intent.currency) == ("succeeded", 2500, "eur")
    assert intent.customer == customer
    assert intent.metadata.to_dict() == {"order_id": "1"}  # payment_intent_data.metadata

    event = webhooks.wait_for("checkout.session.completed", session.id)
    assert event.data.object.payment_status == "paid"
    assert event.data.object.payment_intent == intent.id
    webhooks.wait_for("payment_intent.succeeded", intent.id)
    assert _saved_cards(client, customer) == []  # the box was not ticked


def test_the_card_is_saved_to_the_customer_only_when_the_box_is_ticked(client, webhooks):
    customer = client.v1.customers.create(params={"email": "ada@example.com"}).id
    saving = {"saved_payment_method_options": {"payment_method_save": "enabled"}}
    ticked = client.v1.checkout.sessions.create(params=session_params(customer=customer, **saving))
    unticked = client.v1.checkout.sessions.create(
        params=session_params(customer=customer, **saving)
    )
    assert 'name="save"' in httpx.get(ticked.url).text
    pay(unticked, "4242424242424242", save=False)
    assert _saved_cards(client, customer) == []
    pay(ticked, "4242424242424242", save=True)
    (card,) = _saved_cards(client, customer)
    assert (card.card.last4, card.customer, card.allow_redisplay) == ("4242", customer, "always")
    webhooks.wait_for("payment_method.attached", card.id)
    intent = client.v1.payment_intents.retrieve(
        client.v1.checkout.sessions.retrieve(ticked.id).payment_intent
    )
    assert intent.payment_method == card.id


def test_without_saving_enabled_the_box_is_not_offered_and_a_tick_saves_nothing(client):
    customer = client.v1.customers.create().id
    session = client.v1.checkout.sessions.create(params=session_params(customer=customer))
    assert 'name="save"' not in httpx.get(session.url).text
    pay(session, "4242424242424242", save=True)
    assert client.v1.checkout.sessions.retrieve(session.id).payment_status == "paid"
    assert _saved_cards(client, customer) == []


def test_a_decline_keeps_the_session_open_and_another_card_pays_on_the_same_intent(client):
    session = client.v1.checkout.sessions.create(params=session_params())
    declined = pay(session, "4000000000009995")
    assert declined.status_code == 200  # the page again, with the decline
    assert '<p role="alert">Your card was declined.</p>' in declined.text
    after = client.v1.checkout.sessions.retrieve(session.id)
    assert (after.status, after.payment_status) == ("open", "unpaid")
    intent = client.v1.payment_intents.retrieve(after.payment_intent)
    assert intent.status == "requires_payment_method"
    assert intent.last_payment_error.decline_code == "insufficient_funds"

    assert pay(session, "4242424242424242").status_code == 303
    paid = client.v1.checkout.sessions.retrieve(session.id)
    assert (paid.payment_status, paid.payment_intent) == ("paid", intent.id)


def test_3d_secure_completed_pays(client, webhooks):
    session = client.v1.checkout.sessions.create(params=session_params())
    challenge = pay(session, "4000002500003155")
    assert challenge.headers["location"] == f"/c/pay/{session.id}/authenticate"
    waiting = client.v1.checkout.sessions.retrieve(session.id)
    assert waiting.status == "open"
    assert client.v1.payment_intents.retrieve(waiting.payment_intent).status == "requires_action"
    assert authenticate(session, "complete").status_code == 303
    assert client.v1.checkout.sessions.retrieve(session.id).payment_status == "paid"
    webhooks.wait_for("checkout.session.completed", session.id)


def test_3d_secure_failed_declines_and_leaves_the_session_open(client):
    session = client.v1.checkout.sessions.create(params=session_params())
    pay(session, "4000002760003184")
    failed = authenticate(session, "fail")
    assert failed.status_code == 200
    assert "unable to authenticate" in failed.text
    after = client.v1.checkout.sessions.retrieve(session.id)
    assert (after.status, after.payment_status) == ("open", "unpaid")
    intent = client.v1.payment_intents.retrieve(after.payment_intent)
    assert intent.last_payment_error.code == "payment_intent_authentication_failure"


def test_leaving_3d_secure_for_another_card_pays_with_that_card(client):
    session = client.v1.checkout.sessions.create(params=session_params())
    pay(session, "4000002760003184")
    assert pay(session, "4242424242424242").status_code == 303
    paid = client.v1.checkout.sessions.retrieve(session.id)
    intent = client.v1.payment_intents.retrieve(paid.payment_intent)
    assert (paid.payment_status, intent.status) == ("paid", "succeeded")
    assert client.v1.payment_methods.retrieve(intent.payment_method).card.last4 == "4242"


def test_saving_or_customer_creation_always_makes_a_customer_for_a_guest(client):
    saving = {"saved_payment_method_options": {"payment_method_save": "enabled"}}
    guest = client.v1.checkout.sessions.create(
        params=session_params(customer_email="guest@example.com", **saving)
    )
    assert guest.customer is None
    pay(guest, "4242424242424242", save=True)
    customer = client.v1.checkout.sessions.retrieve(guest.id).customer
    assert [card.card.last4 for card in _saved_cards(client, customer)] == ["4242"]
    always = client.v1.checkout.sessions.create(params=session_params(customer_creation="always"))
    pay(always, "4242424242424242")
    made = client.v1.checkout.sessions.retrieve(always.id)
    assert made.customer and _saved_cards(client, made.customer) == []
    assert client.v1.payment_intents.retrieve(made.payment_intent).customer == made.customer
    unsaved = client.v1.checkout.sessions.create(params=session_params())
    pay(unsaved, "4242424242424242")
    assert client.v1.checkout.sessions.retrieve(unsaved.id).customer is None


def test_authenticated_then_declined_for_insufficient_funds(client):
    session = client.v1.checkout.sessions.create(params=session_params())
    pay(session, "4000008260003178")
    declined = authenticate(session, "complete")
    assert '<p role="alert">Your card was declined.</p>' in declined.text
    intent = client.v1.payment_intents.retrieve(
        client.v1.checkout.sessions.retrieve(session.id).payment_intent
    )
    assert intent.last_payment_error.decline_code == "insufficient_funds"
    assert client.v1.checkout.sessions.retrieve(session.id).payment_status == "unpaid"


def test_a_sepa_debit_completes_unpaid_then_settles_with_an_async_event(client, webhooks):
    session = client.v1.checkout.sessions.create(params=session_params())
    assert pay(session, "DE89370400440532013000").status_code == 303
    completed = webhooks.wait_for("checkout.session.completed", session.id)
    assert completed.data.object.payment_status == "unpaid"
    settled = webhooks.wait_for("checkout.session.async_payment_succeeded", session.id)
    assert settled.data.object.payment_status == "paid"
    assert client.v1.checkout.sessions.retrieve(session.id).payment_status == "paid"


def test_a_sepa_debit_that_fails_later_sends_async_payment_failed(client, webhooks):
    session = client.v1.checkout.sessions.create(params=session_params())
    pay(session, "DE62370400440532013001")
    failed = webhooks.wait_for("checkout.session.async_payment_failed", session.id)
    assert failed.data.object.payment_status == "unpaid"
    time.sleep(0.5)  # nothing else follows: the session stays unpaid
    assert "checkout.session.async_payment_succeeded" not in webhooks.types_for(session.id)
    intent = client.v1.payment_intents.retrieve(failed.data.object.payment_intent)
    assert intent.status == "requires_payment_method"


def test_sepa_is_offered_only_for_euro_sessions(client):
    usd = client.v1.checkout.sessions.create(
        params=session_params(
            line_items=[
                {
                    "price_data": {
                        "currency": "usd",
                        "product_data": {"name": "Mug"},
                        "unit_amount": 900,
                    },
                    "quantity": 1,
                }
            ]
        )
    )
    assert "SEPA" not in httpx.get(usd.url).text
    refused = pay(usd, "DE89370400440532013000")  # not a choice here
    assert "Choose a payment method." in refused.text
    assert client.v1.checkout.sessions.retrieve(usd.id).payment_intent is None


def test_an_unknown_or_expired_session_page_shows_no_order(client):
    session = client.v1.checkout.sessions.create(params=session_params())
    client.v1.checkout.sessions.expire(session.id)
    gone = httpx.get(session.url.replace(session.id, "cs_test_missing"))
    assert gone.status_code == 404
    expired = httpx.get(session.url)  # the URL as created, before the session expired
    assert expired.status_code == 410 and "Ceramic mug" not in expired.text
