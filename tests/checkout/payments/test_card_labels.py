"""A card is shown by its label ("Visa •••• 4242") wherever the person or staff see it:
get_order, the receipt (e-mail and page) and the staff order page; never by its pm_ id. The
label is kept on the order when it is known, so showing an order never asks the provider; a
new card is "New card" until the provider says which card paid."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from checkout.models import Order, OrderStatus
from checkout.sweeps import run_sweeps
from tests.checkout.payments.test_stripe_hosted_checkout import (
    awaiting,
    pay,
    stripe_events,  # noqa: F401 (a fixture: localstripe's events reach the live server)
    wait_for,
)
from tests.fixtures import (
    BOTH_DATABASES,
    commit,
    gift_selected,
    make_product,
    prepared,
)

pytestmark = pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES)

UNREACHABLE = "http://127.0.0.1:9"  # the discard port: nothing answers


@pytest.fixture(autouse=True)
def shopper_email(user):
    user.email = "alice@example.com"
    user.save(update_fields=["email"])


def shown_everywhere(api, admin_client, order_id) -> dict[str, str]:
    """The order as get_order, the receipt e-mail, the receipt page and the staff page show it."""
    order = Order.objects.get(pk=order_id)
    run_sweeps()
    [email] = [m for m in mail.outbox if str(order.pk).split("-")[0].upper() in m.subject]
    return {
        "get_order": str(api.call("get_order", {"order_id": str(order_id)}).body),
        "email": email.body,
        "email_html": email.alternatives[0][0],
        "page": Client().get(f"/receipts/{order.receipt_key}/").content.decode(),
        "staff": admin_client.get(f"/admin/checkout/order/{order_id}/change/").content.decode(),
    }


def bought_with(api, card: str) -> str:
    workflow_id = gift_selected(api, make_product(stock=2))
    order_id, token = prepared(api, workflow_id, card)
    answer = commit(api, workflow_id, order_id, token).body
    assert answer["status"] == "completed", answer
    return order_id


def test_a_simulator_card_is_shown_by_its_label_never_its_id(api, admin_client):
    order_id = bought_with(api, "pm_card_lost_response")
    order = Order.objects.get(pk=order_id)
    assert order.payment_method_label == "Discover •••• 1117"
    got = api.call("get_order", {"order_id": order_id}).body
    assert got["payment_method"] == {"id": "pm_card_lost_response", "label": "Discover •••• 1117"}
    for where, text in shown_everywhere(api, admin_client, order_id).items():
        assert "Discover •••• 1117" in text, where
        # The model gets the id to pass back, and staff have it among the order's raw fields;
        # the person never sees it.
        if where not in ("get_order", "staff"):
            assert "pm_card_lost_response" not in text, where
        if where == "staff":
            assert "paid by Discover •••• 1117" in text


def test_a_saved_stripe_card_is_labelled_without_asking_stripe(
    api, user, stripe_provider, admin_client, settings
):
    from checkout.payments.stripe_customers import ensure_stripe_customer
    from checkout.payments.stripe_objects import client

    setup = client().v1.setup_intents.create(
        params={
            "customer": ensure_stripe_customer(user=user),
            "payment_method": "pm_card_visa",
            "confirm": True,
        }
    )
    card = str(setup.payment_method)
    order_id = bought_with(api, card)
    assert Order.objects.get(pk=order_id).payment_method_label == "Visa •••• 4242"

    settings.STRIPE_API_BASE = UNREACHABLE  # reading the order must not need Stripe
    shown = shown_everywhere(api, admin_client, order_id)
    for where, text in shown.items():
        if where == "staff":
            continue  # the staff page also asks Stripe for the payment's state, live
        assert "Visa •••• 4242" in text, where
        if where not in ("get_order", "staff"):
            assert card not in text, where


@pytest.mark.usefixtures("stripe_events")
def test_a_new_card_is_new_until_stripe_says_which_card_paid(api, admin_client):
    _, _, order_id, _, response = awaiting(api)
    assert Order.objects.get(pk=order_id).payment_method_label == "New card"
    got = api.call("get_order", {"order_id": order_id}).body
    assert got["payment_method"]["label"] == "New card"

    pay(response.body["next_action"]["url"])
    order = wait_for(order_id, OrderStatus.COMPLETED)
    assert order.payment_method_label == "Visa •••• 4242"
    for where, text in shown_everywhere(api, admin_client, order_id).items():
        assert "Visa •••• 4242" in text, where
        assert "New card" not in text, where
