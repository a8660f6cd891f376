"""A new card, paid on the payment page (hosted checkout), with the simulator: its page is served
by our own server. The order waits in awaiting_payment with its stock held, and only the
provider's word (its event, a sweep's question, a cancel's) completes or closes it; money and
stock move once whatever arrives twice, late, or never."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from checkout import webhooks
from checkout.models import (
    Order,
    OrderStatus,
    Payment,
    PaymentStatus,
    SagaStep,
    SimulatedCharge,
    SimulatedCheckoutSession,
)
from checkout.payments.provider import get_provider
from checkout.saga import compensation
from checkout.sweeps import run_sweeps
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


def awaiting(api, product, *, key: str | None = None):
    """new_card → commit: (workflow_id, order_id, token, the commit's answer)."""
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "new_card")
    response = commit(api, workflow_id, order_id, token, key=key)
    assert response.status == 200, response.body
    return workflow_id, order_id, token, response


def checkout_id_of(order_id) -> str:
    return Order.objects.get(pk=order_id).payment_session_id


def pay_page(client, order_id, card: str = "pm_card_visa"):
    page = f"/checkout/simulated-pay/{checkout_id_of(order_id)}"
    return client.post(page, {"payment_method": card})


def succeeded_charges(order_id) -> list:
    return [c for c in charges_for(order_id) if c.status == "succeeded"]


def test_new_card_commit_awaits_payment_on_the_page_with_the_stock_held(api, product, client):
    _, order_id, _, response = awaiting(api, product)
    body = response.body
    assert body["status"] == "awaiting_payment"
    action = body["next_action"]
    assert action["type"] == "open_url" and action["reason"] == "hosted_checkout"
    assert action["url"].endswith(f"/checkout/simulated-pay/{checkout_id_of(order_id)}")
    order = Order.objects.get(pk=order_id)
    # The hold lasts the page's life (30 minutes at least), not the draft's 15.
    assert order.expires_at - timezone.now() > timedelta(minutes=29)
    assert order.reservations.get().expires_at >= order.expires_at
    product.refresh_from_db()
    assert product.stock == 2
    assert charges_for(order_id) == []  # nothing is charged until the person pays
    got = api.call("get_order", {"order_id": order_id}).body
    assert got["status"] == "awaiting_payment" and got["next_action"]["url"] == action["url"]

    page = client.get(f"/checkout/simulated-pay/{checkout_id_of(order_id)}")
    assert page.status_code == 200
    assert f"{order.amount} {order.currency}".encode() in page.content
    assert b"Visa" in page.content and b"declines" in page.content
    csp = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp


def test_a_replayed_commit_returns_the_same_page_and_makes_no_second(api, product):
    key = new_key()
    workflow_id, order_id, token, first = awaiting(api, product, key=key)
    again = commit(api, workflow_id, order_id, token, key=key)
    other_key = commit(api, workflow_id, order_id, token)
    assert again.body["next_action"] == first.body["next_action"]
    assert other_key.body["next_action"] == first.body["next_action"]
    assert SimulatedCheckoutSession.objects.filter(order_id=order_id).count() == 1


def test_paying_on_the_page_completes_the_order_through_the_event_path(api, product, client):
    key = new_key()
    workflow_id, order_id, token, _ = awaiting(api, product, key=key)
    paid = pay_page(client, order_id)
    assert paid.status_code == 302
    assert paid.headers["Location"].endswith(
        f"/checkout/paid?session_id={checkout_id_of(order_id)}"
    )
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.COMPLETED and order.receipt_key
    assert Payment.objects.get(order=order).status == PaymentStatus.SUCCEEDED
    assert len(succeeded_charges(order_id)) == 1
    # Applied as a provider event is: through the one outbox.
    assert webhooks.OUTBOX_KIND in {message.kind for message in _outbox(order_id)}
    back = client.get(paid.headers["Location"])
    assert back.status_code == 200 and b"Payment received" in back.content
    assert str(order_id).encode() not in back.content
    # The first answer (awaiting) was not final: a replay reads the order afresh.
    replay = commit(api, workflow_id, order_id, token, key=key)
    assert replay.body["status"] == "completed" and replay.body["next_action"] is None
    assert_books_balance(product, initial={product.pk: 3})


def _outbox(order_id):
    from checkout.models import OutboxMessage

    return OutboxMessage.objects.filter(order_id=order_id)


def test_a_decline_keeps_the_page_open_for_another_card_and_charges_once(api, product, client):
    _, order_id, _, _ = awaiting(api, product)
    declined = pay_page(client, order_id, "pm_card_declined")
    assert declined.status_code == 200
    assert b'role="alert"' in declined.content and b"declined" in declined.content
    assert Order.objects.get(pk=order_id).status == OrderStatus.AWAITING_PAYMENT
    timed_out = pay_page(client, order_id, "pm_card_timeout_always")
    assert b"did not answer" in timed_out.content
    assert Order.objects.get(pk=order_id).status == OrderStatus.AWAITING_PAYMENT
    assert pay_page(client, order_id, "pm_card_visa").status_code == 302
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert len(succeeded_charges(order_id)) == 1
    assert_books_balance(product, initial={product.pk: 3})


def test_a_double_submit_on_the_page_charges_once(api, product, monkeypatch):
    """The page has no script to stop a second click: the second submit arrives while the
    first try is still at the provider."""
    from checkout.payments import gateway

    _, order_id, _, _ = awaiting(api, product)
    checkout_id = checkout_id_of(order_id)
    provider, charge, second = get_provider(), gateway.charge, []

    def first_try_still_at_the_provider(**kwargs):
        if not second:
            second.append(None)  # the second click's own charge goes straight through
            second[0] = provider.pay_on_page(
                checkout_id=checkout_id, payment_method_id="pm_card_visa"
            )
        return charge(**kwargs)

    monkeypatch.setattr(gateway, "charge", first_try_still_at_the_provider)
    _, first = provider.pay_on_page(checkout_id=checkout_id, payment_method_id="pm_card_visa")
    monkeypatch.undo()
    ((_, again),) = second
    assert first.charge.id == again.charge.id  # the same request, answered with the same charge
    webhooks.receive_simulator_event(checkout_id=checkout_id, order_id=order_id)
    run_sweeps(older_than_seconds=0)
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert len(succeeded_charges(order_id)) == 1
    assert_books_balance(product, initial={product.pk: 3})


def test_a_lost_answer_on_the_page_still_completes_once(api, product, client):
    _, order_id, _, _ = awaiting(api, product)
    assert pay_page(client, order_id, "pm_card_lost_response").status_code == 302
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert len(succeeded_charges(order_id)) == 1
    assert_books_balance(product, initial={product.pk: 3})


def test_an_expired_page_releases_the_stock_and_says_why(api, product, client):
    key = new_key()
    workflow_id, order_id, token, _ = awaiting(api, product, key=key)
    past = timezone.now() - timedelta(seconds=1)
    SimulatedCheckoutSession.objects.filter(order_id=order_id).update(expires_at=past)
    Order.objects.filter(pk=order_id).update(expires_at=past)
    report = run_sweeps()
    assert report.reconciled == 1, report.summary()
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.FAILED and order.failure_code == "CHECKOUT_EXPIRED"
    assert "expired" in order.failure_message
    assert Payment.objects.get(order=order).status == PaymentStatus.FAILED
    product.refresh_from_db()
    assert product.stock == 3
    # The page is closed: paying on it now is refused, nothing is charged.
    assert pay_page(client, order_id).status_code == 404
    assert charges_for(order_id) == []
    replay = commit(api, workflow_id, order_id, token, key=key)
    assert_error(replay, "CHECKOUT_EXPIRED", 409)
    got = api.call("get_order", {"order_id": order_id}).body
    assert got["next_action"] is None and got["failure"]["code"] == "CHECKOUT_EXPIRED"
    assert run_sweeps().reconciled == 0  # settled once
    assert_books_balance(product, initial={product.pk: 3})


def test_an_event_for_the_last_page_does_not_close_the_retry_opening_a_new_one(
    api, product, monkeypatch
):
    """Try again after the page expired: while the rerun opens its new page, an event for the
    old one arrives (the expiry the sweep caused, retried by the outbox). The rerun must go on
    to its new page, never be closed by the old page's state."""
    from checkout.saga import hosted

    workflow_id, order_id, token, _ = awaiting(api, product)
    old_page = checkout_id_of(order_id)
    past = timezone.now() - timedelta(seconds=1)
    SimulatedCheckoutSession.objects.filter(order_id=order_id).update(expires_at=past)
    Order.objects.filter(pk=order_id).update(expires_at=past)
    run_sweeps()
    assert Order.objects.get(pk=order_id).failure_code == "CHECKOUT_EXPIRED"

    start = hosted.gateway.start_hosted_checkout

    def old_event_meanwhile(**kwargs):
        webhooks.receive_simulator_event(checkout_id=old_page, order_id=order_id)
        return start(**kwargs)

    monkeypatch.setattr(hosted.gateway, "start_hosted_checkout", old_event_meanwhile)
    retry = commit(api, workflow_id, order_id, token)  # "Try again"
    monkeypatch.undo()
    assert retry.status == 200 and retry.body["status"] == "awaiting_payment", retry.body
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.AWAITING_PAYMENT and order.payment_session_id != old_page
    get_provider().pay_on_page(
        checkout_id=order.payment_session_id, payment_method_id="pm_card_visa"
    )
    webhooks.receive_simulator_event(checkout_id=order.payment_session_id, order_id=order_id)
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert len(succeeded_charges(order_id)) == 1
    assert_books_balance(product, initial={product.pk: 3})


def test_a_lost_event_is_settled_by_the_sweep(api, product):
    _, order_id, _, _ = awaiting(api, product)
    # Paid at the provider, but its word never reached us.
    get_provider().pay_on_page(
        checkout_id=checkout_id_of(order_id), payment_method_id="pm_card_visa"
    )
    assert Order.objects.get(pk=order_id).status == OrderStatus.AWAITING_PAYMENT
    assert run_sweeps().reconciled == 0  # not overdue yet: the event may still come
    with override_settings(HOSTED_CHECKOUT_RECONCILE_SECONDS=0):
        assert run_sweeps().reconciled == 1
        assert run_sweeps().reconciled == 0
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert len(succeeded_charges(order_id)) == 1
    assert_books_balance(product, initial={product.pk: 3})


def test_duplicate_and_out_of_order_events_move_money_and_stock_once(api, product):
    _, order_id, _, _ = awaiting(api, product)
    checkout_id = checkout_id_of(order_id)
    get_provider().pay_on_page(checkout_id=checkout_id, payment_method_id="pm_card_visa")
    for _ in range(3):
        webhooks.receive_simulator_event(checkout_id=checkout_id, order_id=order_id)
    # An "expired" word about a page that was paid changes nothing either.
    get_provider().expire_hosted_checkout(checkout_id=checkout_id)
    webhooks.receive_simulator_event(checkout_id=checkout_id, order_id=order_id)
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.COMPLETED
    assert SagaStep.objects.filter(order=order, step="complete").count() == 1
    assert len(succeeded_charges(order_id)) == 1
    product.refresh_from_db()
    assert product.stock == 2
    assert_books_balance(product, initial={product.pk: 3})


def test_cancel_while_awaiting_closes_the_page_first_and_charges_nothing(api, product, client):
    _, order_id, _, _ = awaiting(api, product)
    response = cancel(api, order_id)
    assert response.status == 200, response.body
    assert response.body["status"] == "cancelled" and response.body["refunded_amount"] == "0.00"
    assert "nothing was charged" in response.body["message"]
    assert SimulatedCheckoutSession.objects.get(order_id=order_id).status == "expired"
    assert pay_page(client, order_id).status_code == 404
    assert charges_for(order_id) == []
    assert cancel(api, order_id).body["already_cancelled"] is True
    assert_books_balance(product, initial={product.pk: 3})


def test_cancel_after_the_person_paid_completes_then_refunds(api, product):
    _, order_id, _, _ = awaiting(api, product)
    # Paid on the page a moment before the cancel; its event has not arrived.
    get_provider().pay_on_page(
        checkout_id=checkout_id_of(order_id), payment_method_id="pm_card_visa"
    )
    response = cancel(api, order_id)
    assert response.status == 200, response.body
    assert response.body["status"] == "cancelled"
    assert response.body["refunded_amount"] == "30.00"
    charge = succeeded_charges(order_id)[0]
    assert charge.refunded_amount == charge.amount
    assert Payment.objects.get(order_id=order_id).status == PaymentStatus.REFUNDED
    assert_books_balance(product, initial={product.pk: 3})


def test_a_payment_that_lands_for_a_closed_order_is_refunded_and_shown(api, product):
    _, order_id, _, _ = awaiting(api, product)
    checkout_id = checkout_id_of(order_id)
    get_provider().pay_on_page(checkout_id=checkout_id, payment_method_id="pm_card_visa")
    # Our side closed the order meanwhile (e.g. an operator's rollback raced the payment).
    compensation.fail_order(order_id=order_id, failure_code="INTERNAL_ERROR", correlation_id="t")
    webhooks.receive_simulator_event(checkout_id=checkout_id, order_id=order_id)
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.FAILED
    charge = succeeded_charges(order_id)[0]
    assert charge.refunded_amount == charge.amount
    assert Payment.objects.get(order=order).status == PaymentStatus.REFUNDED
    # Staff see it on the order's timeline.
    late = SagaStep.objects.get(order=order, step="complete")
    assert late.status == "failed" and "refunded" in late.detail
    assert_books_balance(product, initial={product.pk: 3})


def test_a_late_payment_whose_refund_fails_on_the_return_page_is_refunded_later(
    api, product, client
):
    from checkout.payments import simulator

    _, order_id, _, _ = awaiting(api, product)
    checkout_id = checkout_id_of(order_id)
    get_provider().pay_on_page(checkout_id=checkout_id, payment_method_id="pm_card_visa")
    compensation.fail_order(order_id=order_id, failure_code="INTERNAL_ERROR", correlation_id="t")
    client.raise_request_exception = False
    with simulator.outage(after_calls=3):  # the reads pass; the refund finds the provider gone
        back = client.get(f"/checkout/paid?session_id={checkout_id}")
    assert back.status_code == 200  # the person is told nothing was received, never a 500
    assert b"Payment received" not in back.content
    assert succeeded_charges(order_id)[0].refunded_amount == 0
    run_sweeps(older_than_seconds=0)  # the provider is back: the sweep refunds it
    charge = succeeded_charges(order_id)[0]
    assert charge.refunded_amount == charge.amount
    assert_books_balance(product, initial={product.pk: 3})


def test_cancel_whose_late_payment_cannot_be_refunded_says_so_and_a_later_cancel_does(api, product):
    from checkout.payments import simulator

    _, order_id, _, _ = awaiting(api, product)
    get_provider().pay_on_page(
        checkout_id=checkout_id_of(order_id), payment_method_id="pm_card_visa"
    )
    with simulator.outage(after_calls=3):  # the page closes and is read; the refund fails
        refused = cancel(api, order_id)
    assert_error(refused, "PAYMENT_PROVIDER_ERROR", 503)
    assert "the order is paid" in refused.body["error"]["message"]
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert succeeded_charges(order_id)[0].refunded_amount == 0
    again = cancel(api, order_id)
    assert again.body["status"] == "cancelled", again.body
    charge = succeeded_charges(order_id)[0]
    assert charge.refunded_amount == charge.amount
    assert_books_balance(product, initial={product.pk: 3})


@pytest.mark.parametrize(
    "session_id", ["", "cs_sim_unknown0000", "../../etc/passwd", "cs_" + "x" * 400, "<script>"]
)
def test_back_pages_with_an_unknown_or_malformed_id_show_nothing(client, session_id):
    for path in ("/checkout/paid", "/checkout/not-paid"):
        page = client.get(path, {"session_id": session_id})
        assert page.status_code == 200
        assert b"Payment received" not in page.content
        assert b"<script>" not in page.content


def test_someone_elses_session_id_shows_nothing_about_their_order(api, product, client):
    _, order_id, _, _ = awaiting(api, product)
    checkout_id = checkout_id_of(order_id)
    order = Order.objects.get(pk=order_id)
    for path in ("/checkout/paid", "/checkout/not-paid"):
        page = client.get(path, {"session_id": checkout_id})
        assert page.status_code == 200
        text = page.content.decode()
        assert str(order_id) not in text and str(order.amount) not in text
        assert product.name not in text and "Payment received" not in text
    # The visit asked the provider, which has nothing paid: the order still waits.
    assert Order.objects.get(pk=order_id).status == OrderStatus.AWAITING_PAYMENT


def test_the_simulator_offers_a_new_card(api, product):
    workflow_id = gift_selected(api, product)
    methods = api.call("get_payment_methods", {"workflow_id": workflow_id}).body
    assert "new_card" in [m["id"] for m in methods["payment_methods"]]


def test_staff_rollback_of_an_awaiting_order_expires_its_page(api, product, client):
    from checkout.staff_rollback import roll_back_order

    _, order_id, _, _ = awaiting(api, product)
    outcome = roll_back_order(order_id=order_id, reason="customer phoned", actor="staff")
    assert outcome.outcome == "rolled_back", outcome.detail
    assert Order.objects.get(pk=order_id).status == OrderStatus.CANCELLED
    assert SimulatedCheckoutSession.objects.get(order_id=order_id).status == "expired"
    assert pay_page(client, order_id).status_code == 404
    assert charges_for(order_id) == []
    assert_books_balance(product, initial={product.pk: 3})


def test_staff_see_the_page_and_the_payment_at_the_provider(api, product, client, admin_client):
    _, order_id, _, _ = awaiting(api, product)
    checkout_id = checkout_id_of(order_id)
    before = admin_client.get(f"/admin/checkout/order/{order_id}/change/").content.decode()
    assert checkout_id in before and "open, not paid" in before
    pay_page(client, order_id)
    after = admin_client.get(f"/admin/checkout/order/{order_id}/change/").content.decode()
    charge = succeeded_charges(order_id)[0]
    assert "complete, paid" in after and charge.charge_id in after
    assert f"succeeded, {charge.amount} {charge.currency}" in after


def test_a_pending_payment_on_the_page_waits_then_reconciles(api, product, client, settings):
    settings.SIMULATOR_PENDING_SETTLE_SECONDS = 3600
    _, order_id, _, _ = awaiting(api, product)
    assert pay_page(client, order_id, "pm_card_pending").status_code == 302
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.PAYMENT_PENDING
    assert api.call("get_order", {"order_id": order_id}).body["next_action"] is None
    assert Payment.objects.get(order=order).provider_charge_id == charges_for(order_id)[0].charge_id
    # The bank settles it.
    SimulatedCharge.objects.filter(order_id=str(order_id)).update(settles_at=timezone.now())
    assert run_sweeps().reconciled == 1
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert len(succeeded_charges(order_id)) == 1
    assert_books_balance(product, initial={product.pk: 3})


def test_a_payment_recorded_before_a_crash_is_completed_by_the_sweep(api, product):
    _, order_id, _, _ = awaiting(api, product)
    page, _ = get_provider().pay_on_page(
        checkout_id=checkout_id_of(order_id), payment_method_id="pm_card_visa"
    )
    # The process died between recording the capture and completing the order.
    Payment.objects.filter(order_id=order_id).update(
        status=PaymentStatus.SUCCEEDED, provider_charge_id=page.charge.id
    )
    with override_settings(HOSTED_CHECKOUT_RECONCILE_SECONDS=0):
        assert run_sweeps().reconciled == 1
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert len(succeeded_charges(order_id)) == 1
    assert_books_balance(product, initial={product.pk: 3})
