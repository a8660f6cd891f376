"""Webhooks arrive over HTTP signed as Stripe signs them, are retried until answered 2xx, and
go only where they are registered."""

from __future__ import annotations

import time

import httpx
import pytest
import stripe

from tests.fakestripe.conftest import pay, receiving, session_params


def _signature_parts(header: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in header.split(","))


def test_events_are_signed_with_the_endpoint_secret_at_delivery_time(client, webhooks):
    session = client.v1.checkout.sessions.create(params=session_params())
    before = int(time.time())
    pay(session, "4242424242424242")
    event = webhooks.wait_for("checkout.session.completed", session.id)
    assert event.object == "event" and event.id.startswith("evt_")
    assert event.api_version == stripe.api_version
    (delivery,) = [d for d in webhooks.deliveries if event.id.encode() in d.body]
    parts = _signature_parts(delivery.signature)
    assert int(parts["t"]) >= before
    # The SDK refuses the same delivery checked with another secret, or with a changed body.
    with pytest.raises(stripe.SignatureVerificationError):
        stripe.Webhook.construct_event(delivery.body, delivery.signature, "whsec_other")
    with pytest.raises(stripe.SignatureVerificationError):
        stripe.Webhook.construct_event(delivery.body + b" ", delivery.signature, webhooks.secret)


def test_the_event_is_also_listed_by_the_events_api(client, webhooks):
    session = client.v1.checkout.sessions.create(params=session_params())
    pay(session, "4242424242424242")
    delivered = webhooks.wait_for("checkout.session.completed", session.id)
    listed = client.v1.events.list(params={"type": "checkout.session.completed"}).data
    assert delivered.id in [e.id for e in listed]


def test_an_endpoint_that_fails_gets_the_event_again_freshly_signed(client, webhooks):
    webhooks.answers[:] = [500, 503]
    customer = client.v1.customers.create()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        created = [d for d in webhooks.deliveries if customer.id.encode() in d.body]
        if len(created) >= 3:
            break
        time.sleep(0.1)
    assert len(created) == 3  # 500, 503, then 200: no fourth try
    events = [stripe.Webhook.construct_event(d.body, d.signature, webhooks.secret) for d in created]
    assert {e.id for e in events} == {events[0].id}  # the same event each time
    stamps = [int(_signature_parts(d.signature)["t"]) for d in created]
    assert stamps == sorted(stamps) and stamps[-1] > stamps[0]  # signed when sent
    time.sleep(2.5)
    assert len([d for d in webhooks.deliveries if customer.id.encode() in d.body]) == 3


def test_an_endpoint_gets_only_the_event_types_it_registered(client, fake, webhooks):
    with receiving(fake, "whsec_only", events=["checkout.session.expired"]) as only_expired:
        session = client.v1.checkout.sessions.create(params=session_params())
        client.v1.checkout.sessions.expire(session.id)
        only_expired.wait_for("checkout.session.expired", session.id)
        webhooks.wait_for("checkout.session.expired", session.id)
        time.sleep(0.5)
        assert [e.type for e in only_expired.events()] == ["checkout.session.expired"]
        assert "product.created" in [e.type for e in webhooks.events()]


def test_an_unregistered_endpoint_gets_nothing_more(client, fake):
    with receiving(fake) as receiver:
        first = client.v1.customers.create()
        receiver.wait_for("customer.created", first.id)
        assert httpx.delete(receiver.endpoint).status_code == 200
        second = client.v1.customers.create()
        time.sleep(1)  # past the first delivery's delay: it would have arrived by now
        assert [e.data.object.id for e in receiver.events()] == [first.id]
        assert second.id
    assert httpx.delete(receiver.endpoint).status_code == 404
