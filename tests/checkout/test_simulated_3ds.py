"""3-D Secure without Stripe: the simulator's saved test card whose bank asks the person to
confirm. The order awaits payment (reason "authenticate") at the simulated bank's page on our
own server; the person's answer there settles through the provider-event path, the same as
Stripe's, and the card is charged at most once."""

from __future__ import annotations

import pytest

from checkout.models import Order, OrderStatus, Payment, PaymentStatus, SimulatedCharge
from checkout.payments.methods import AUTHENTICATION_REQUIRED
from tests.fixtures import (
    BOTH_DATABASES,
    assert_books_balance,
    assert_error,
    cancel,
    charges_for,
    commit,
    gift_selected,
    make_product,
    new_key,
    prepared,
)

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


@pytest.fixture
def product():
    return make_product(stock=3, price="30.00")


def authenticating(api, product, *, key: str):
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, AUTHENTICATION_REQUIRED)
    answer = commit(api, workflow_id, order_id, token, key=key)
    assert answer.status == 200, answer.body
    assert answer.body["status"] == "awaiting_payment", answer.body
    action = answer.body["next_action"]
    assert action["reason"] == "authenticate" and action["url"] is None  # the widget's only
    bank = answer.body["_meta"]["payment_url"]
    assert "/checkout/simulated-bank/ch_" in bank
    return workflow_id, order_id, token, bank.split("://", 1)[1].split("/", 1)[1]


def test_confirming_at_the_bank_completes_the_order_charged_once(api, product, client):
    key = new_key()
    workflow_id, order_id, token, bank = authenticating(api, product, key=key)
    page = client.get(f"/{bank}")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Your bank asks you to confirm this payment" in text
    assert str(order_id) not in text and product.name not in text
    assert "script-src" in page.headers["Content-Security-Policy"]

    back = client.post(f"/{bank}", {"answer": "confirm"})
    assert back.status_code == 302 and "/checkout/paid?payment_intent=ch_" in back["Location"]
    assert b"Payment received" in client.get(back["Location"]).content
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.COMPLETED and order.payment_method_label == "Visa •••• 3184"
    assert Payment.objects.get(order=order).status == PaymentStatus.SUCCEEDED
    assert [c.status for c in charges_for(order_id)] == ["succeeded"]
    # The bank's page is answered: it shows nothing now, and answering again does nothing.
    assert client.get(f"/{bank}").status_code == 404
    assert client.post(f"/{bank}", {"answer": "fail"}).status_code == 404
    replay = commit(api, workflow_id, order_id, token, key=key)
    assert replay.body["status"] == "completed" and replay.body["next_action"] is None
    assert SimulatedCharge.objects.filter(order_id=str(order_id)).count() == 1
    assert_books_balance(product, initial={product.pk: 3})


def test_failing_the_check_is_a_clean_decline_with_the_stock_released(api, product, client):
    key = new_key()
    workflow_id, order_id, token, bank = authenticating(api, product, key=key)
    back = client.post(f"/{bank}", {"answer": "fail"})
    assert back.status_code == 302
    assert b"Payment received" not in client.get(back["Location"]).content
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.FAILED and order.failure_code == "CARD_DECLINED"
    assert [c.status for c in charges_for(order_id)] == ["failed"]
    replay = commit(api, workflow_id, order_id, token, key=key)
    assert_error(replay, "CARD_DECLINED", 402)
    product.refresh_from_db()
    assert product.stock == 3
    assert_books_balance(product, initial={product.pk: 3})


def test_a_replayed_commit_while_the_bank_waits_answers_the_same_page(api, product):
    key = new_key()
    workflow_id, order_id, token, bank = authenticating(api, product, key=key)
    replay = commit(api, workflow_id, order_id, token, key=key)
    assert replay.body["status"] == "awaiting_payment"
    assert replay.body["_meta"]["payment_url"].endswith(bank)
    assert SimulatedCharge.objects.filter(order_id=str(order_id)).count() == 1


def test_cancel_while_the_bank_waits_charges_nothing(api, product, client):
    _, order_id, _, bank = authenticating(api, product, key=new_key())
    assert cancel(api, order_id).body["status"] == "cancelled"
    assert client.get(f"/{bank}").status_code == 404
    assert [c.status for c in charges_for(order_id)] == ["failed"]
    assert_books_balance(product, initial={product.pk: 3})


@pytest.mark.parametrize(
    "charge_id", ["ch_unknown000000", "cs_sim_unknown", "../../etc/passwd", "ch_" + "x" * 400]
)
def test_an_unknown_or_malformed_id_on_the_bank_page_shows_nothing(client, charge_id):
    assert client.get(f"/checkout/simulated-bank/{charge_id}").status_code == 404
    assert (
        client.post(f"/checkout/simulated-bank/{charge_id}", {"answer": "confirm"}).status_code
        == 404
    )


def test_a_charge_that_needs_no_confirmation_has_no_bank_page(api, product, client):
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_visa")
    assert commit(api, workflow_id, order_id, token).body["status"] == "completed"
    [charge] = charges_for(order_id)
    assert client.get(f"/checkout/simulated-bank/{charge.charge_id}").status_code == 404


def test_a_bank_check_found_only_by_reconciliation_still_reaches_the_person(
    api, product, client, monkeypatch
):
    """The confirm's answer is lost (the order is payment pending); the sweep later finds the
    charge waiting for the bank. The order must then await the person's check, with the bank's
    page offered, rather than stay pending for good with its stock held."""
    from checkout.payments import gateway
    from checkout.payments.gateway import ChargeOutcome, ChargeResult
    from checkout.sweeps import run_sweeps

    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, AUTHENTICATION_REQUIRED)
    charge = gateway.charge

    def answer_lost(**kwargs):
        charge(**kwargs)  # made at the provider (the bank asks) ...
        return ChargeOutcome(ChargeResult.UNKNOWN, None, None, 1)  # ... and never heard of

    monkeypatch.setattr(gateway, "charge", answer_lost)
    first = commit(api, workflow_id, order_id, token)
    monkeypatch.undo()
    assert first.body["status"] == "payment_pending", first.body

    run_sweeps(older_than_seconds=0)
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.AWAITING_PAYMENT
    assert order.payment_url_reason == "authenticate"
    shown = api.call("get_order", {"order_id": str(order_id)})
    assert shown.body["next_action"]["reason"] == "authenticate", shown.body
    bank = order.payment_url.split("://", 1)[1].split("/", 1)[1]
    assert client.post(f"/{bank}", {"answer": "confirm"}).status_code == 302
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert [c.status for c in charges_for(order_id)] == ["succeeded"]
    assert_books_balance(product, initial={product.pk: 3})


def test_a_bank_check_with_no_page_to_open_fails_and_its_charge_can_never_capture(
    api, product, client, monkeypatch
):
    """The bank asks for an action but gives no page to send the person to: the order fails
    (nothing charged) and the waiting charge is cancelled at the provider."""
    from dataclasses import replace

    from checkout.payments import gateway

    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, AUTHENTICATION_REQUIRED)
    charge = gateway.charge

    def no_page(**kwargs):
        outcome = charge(**kwargs)
        return replace(outcome, charge=replace(outcome.charge, action_url=""))

    monkeypatch.setattr(gateway, "charge", no_page)
    answer = commit(api, workflow_id, order_id, token)
    monkeypatch.undo()
    assert_error(answer, "PAYMENT_REJECTED", 502)
    (waiting,) = charges_for(order_id)
    assert waiting.status == "failed"  # cancelled: no answer at the bank can capture it now
    bank = f"/checkout/simulated-bank/{waiting.charge_id}"
    assert client.post(bank, {"answer": "confirm"}).status_code == 404
    assert [c.status for c in charges_for(order_id)] == ["failed"]
    assert_books_balance(product, initial={product.pk: 3})


def test_try_again_after_the_bank_page_lapsed_asks_the_bank_afresh(api, product, client):
    """The person never answered the bank; the hold ran out and the charge was cancelled
    (CHECKOUT_EXPIRED, retryable). "Try again" sends them to the bank again, as a new Stripe
    PaymentIntent would, never a decline read from the cancelled one."""
    from datetime import timedelta

    from django.utils import timezone

    from checkout.sweeps import run_sweeps

    key = new_key()
    workflow_id, order_id, token, _ = authenticating(api, product, key=key)
    past = timezone.now() - timedelta(seconds=1)
    Order.objects.filter(pk=order_id).update(expires_at=past, payment_url_expires_at=past)
    run_sweeps(older_than_seconds=0)
    lapsed = Order.objects.get(pk=order_id)
    assert (lapsed.status, lapsed.failure_code) == (OrderStatus.FAILED, "CHECKOUT_EXPIRED")
    assert [c.status for c in charges_for(order_id)] == ["failed"]

    again = commit(api, workflow_id, order_id, token)
    assert again.body["status"] == "awaiting_payment", again.body
    assert again.body["next_action"]["reason"] == "authenticate"
    bank = again.body["_meta"]["payment_url"].split("://", 1)[1].split("/", 1)[1]
    assert client.post(f"/{bank}", {"answer": "confirm"}).status_code == 302
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert [c.status for c in charges_for(order_id)] == ["succeeded"]
    assert_books_balance(product, initial={product.pk: 3})
