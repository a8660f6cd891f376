"""Signed payment webhooks (POST /webhooks/stripe): verified, stored once, applied idempotently.

Events are signed with the Stripe SDK's own signing helper. Applying one asks the configured
provider (here the simulator; tests/checkout/payments/test_stripe_webhooks.py runs the same path
on localstripe) for the truth, so duplicates, reordering and a sweep that got there first change
nothing.
"""

from __future__ import annotations

import json
import time
import uuid
from datetime import timedelta
from decimal import Decimal

import pytest
import stripe
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone

from checkout import outbox, webhooks
from checkout.models import (
    Order,
    OrderStatus,
    OutboxMessage,
    OutboxStatus,
    Payment,
    PaymentStatus,
    Reservation,
    SagaStep,
    SimulatedCharge,
    SimulatedRefund,
)
from checkout.payments import simulator
from checkout.payments.provider import get_provider
from checkout.sweeps import run_sweeps
from tests.fixtures import (
    BOTH_DATABASES,
    assert_books_balance,
    charges_for,
    commit,
    gift_selected,
    make_product,
    new_key,
    order_of,
    paid_order,
    prepared,
)

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)

SECRET = "whsec_test_giftgenius"
URL = "/webhooks/stripe"
CLIENT_SECRET = "pi_123_secret_do_not_log_me"


@pytest.fixture(autouse=True)
def webhook_secret(settings):
    settings.STRIPE_WEBHOOK_SECRET = SECRET
    settings.OUTBOX_MAX_ATTEMPTS = 3
    settings.OUTBOX_RETRY_BASE_SECONDS = 30
    return SECRET


def event(event_type: str, *, order_id, payment_id: str, event_id: str | None = None) -> dict:
    """A Stripe-shaped event about one of our payments (its id as Payment.provider_charge_id)."""
    if event_type.startswith("charge."):
        obj = {"id": f"ch_x{payment_id[-6:]}", "object": "charge", "payment_intent": payment_id}
    else:
        obj = {"id": payment_id, "object": "payment_intent", "client_secret": CLIENT_SECRET}
    obj["metadata"] = {"order_id": str(order_id)}
    return {
        "id": event_id or f"evt_{uuid.uuid4().hex[:20]}",
        "object": "event",
        "type": event_type,
        "created": int(time.time()),
        "data": {"object": obj},
    }


def send(body: dict | str | bytes, *, secret: str = SECRET, timestamp=None, signature=None):
    payload = body if isinstance(body, (str, bytes)) else json.dumps(body)
    if signature is None:
        text = payload.decode() if isinstance(payload, bytes) else payload
        header = stripe.WebhookSignature.generate_signature_header(text, secret, timestamp)
    else:
        header = signature
    extra = {"HTTP_STRIPE_SIGNATURE": header} if header else {}
    response = Client().post(URL, data=payload, content_type="application/json", **extra)
    return response.status_code, json.loads(response.content)


def stored_events():
    """The provider events the outbox holds (a completed order's receipt sits beside them)."""
    return OutboxMessage.objects.filter(kind=webhooks.OUTBOX_KIND)


def payment_of(order_id) -> Payment:
    return Payment.objects.filter(order_id=order_id).order_by("-attempt").first()


def pending_order(api, settings):
    """A committed order whose charge the provider holds as pending (not settled yet)."""
    settings.SIMULATOR_PENDING_SETTLE_SECONDS = 3600
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_pending")
    assert commit(api, workflow_id, order_id, token).body["status"] == "payment_pending"
    return product, order_id


def settle_at_provider(order_id) -> None:
    SimulatedCharge.objects.filter(order_id=str(order_id)).update(settles_at=timezone.now())


def footprint(order_id) -> tuple:
    """Everything an event could change about an order, money and stock included."""
    order = order_of(order_id)
    return (
        order.status,
        list(Payment.objects.filter(order_id=order_id).values_list("status", "refunded_amount")),
        list(Reservation.objects.filter(order_id=order_id).values_list("status", flat=True)),
        SagaStep.objects.filter(order_id=order_id).count(),
        SimulatedRefund.objects.filter(charge__order_id=str(order_id)).count(),
    )


# --- a payment settled by its event ---------------------------------------------------------


def test_a_succeeded_event_completes_a_pending_order(api, settings):
    product, order_id = pending_order(api, settings)
    settle_at_provider(order_id)

    status, body = send(
        event("payment_intent.succeeded", order_id=order_id, payment_id="pi_ignored_by_lookup")
    )

    assert status == 200 and body["status"] == "applied", body
    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert payment_of(order_id).status == PaymentStatus.SUCCEEDED
    stored = stored_events().get()
    assert stored.status == OutboxStatus.DELIVERED and stored.attempts == 1
    assert stored.order_id == uuid.UUID(order_id) and "succeeded" in stored.outcome
    assert_books_balance(product, initial={product.pk: 5})


def test_an_event_is_only_a_hint_the_provider_is_asked(api, settings):
    """A 'succeeded' event for a charge the provider still holds as pending completes nothing."""
    _, order_id = pending_order(api, settings)
    status, body = send(event("payment_intent.succeeded", order_id=order_id, payment_id="pi_1"))
    assert status == 200 and body["status"] == "applied"
    assert order_of(order_id).status == OrderStatus.PAYMENT_PENDING
    assert stored_events().get().outcome == "Already in agreement with the provider."


def test_the_order_is_found_by_the_payment_id_when_metadata_lacks_it(api, settings):
    _, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    charge_id = payment_of(order_id).provider_charge_id
    assert charge_id
    body = event("payment_intent.succeeded", order_id="", payment_id=charge_id)
    body["data"]["object"]["metadata"] = {}
    assert send(body)[0] == 200
    assert order_of(order_id).status == OrderStatus.COMPLETED


def test_an_event_for_no_order_of_ours_changes_nothing(api):
    status, body = send(
        event("payment_intent.succeeded", order_id=uuid.uuid4(), payment_id="pi_foreign")
    )
    assert status == 200 and body["status"] == "applied"
    assert "No order here" in stored_events().get().outcome
    assert not Order.objects.exists()


def test_a_failed_event_compensates_an_order_the_provider_never_charged(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_timeout_always")
    with simulator.outage(after_calls=3):  # times out, then the look-up cannot reach it
        assert commit(api, workflow_id, order_id, token).body["status"] == "payment_pending"
    assert payment_of(order_id).status == PaymentStatus.UNKNOWN

    status, _ = send(event("payment_intent.payment_failed", order_id=order_id, payment_id="pi_2"))

    assert status == 200
    order = order_of(order_id)
    assert order.status == OrderStatus.FAILED and order.failure_code == "PAYMENT_TIMEOUT"
    assert charges_for(order_id) == []
    assert_books_balance(product, initial={product.pk: 5})


def test_a_late_capture_reported_by_its_event_is_refunded(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_timeout_always")
    assert commit(api, workflow_id, order_id, token).body["error"]["code"] == "PAYMENT_TIMEOUT"
    payment = payment_of(order_id)
    SimulatedCharge.objects.create(  # the provider finished the charge after all
        charge_id="ch_late_webhook",
        idempotency_key=payment.provider_idempotency_key,
        amount=payment.amount,
        currency=payment.currency,
        payment_method_id="pm_card_timeout_always",
        status="succeeded",
        order_id=str(order_id),
        metadata={"order_id": str(order_id)},
    )

    send(event("payment_intent.succeeded", order_id=order_id, payment_id="ch_late_webhook"))

    assert order_of(order_id).status == OrderStatus.FAILED
    assert payment_of(order_id).status == PaymentStatus.REFUNDED
    assert_books_balance(product, initial={product.pk: 5})


# --- twice, out of order, after the sweep ----------------------------------------------------


def test_an_event_delivered_twice_is_stored_and_applied_once(api, settings):
    product, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    body = event("payment_intent.succeeded", order_id=order_id, payment_id="pi_3")

    assert send(body)[1]["status"] == "applied"
    after_first = footprint(order_id)
    status, answer = send(body)

    assert status == 200 and answer["status"] == "duplicate"
    assert stored_events().count() == 1
    assert footprint(order_id) == after_first
    assert_books_balance(product, initial={product.pk: 5})


def test_events_out_of_order_change_nothing_twice(api, settings):
    """payment_failed arriving after succeeded (another event id): the provider says
    succeeded, so the completed order stays completed, with no step written."""
    product, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    send(event("payment_intent.succeeded", order_id=order_id, payment_id="pi_4"))
    settled = footprint(order_id)

    send(event("payment_intent.payment_failed", order_id=order_id, payment_id="pi_4"))
    send(event("payment_intent.succeeded", order_id=order_id, payment_id="pi_4"))

    assert footprint(order_id) == settled
    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert stored_events().filter(status=OutboxStatus.DELIVERED).count() == 3
    assert_books_balance(product, initial={product.pk: 5})


def test_an_event_after_the_sweep_settled_the_order_changes_nothing(api, settings):
    product, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    run_sweeps(older_than_seconds=0)
    assert order_of(order_id).status == OrderStatus.COMPLETED
    settled = footprint(order_id)

    send(event("payment_intent.succeeded", order_id=order_id, payment_id="pi_5"))

    assert footprint(order_id) == settled
    assert_books_balance(product, initial={product.pk: 5})


def test_a_failed_event_for_a_declined_order_changes_nothing(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_declined")
    assert commit(api, workflow_id, order_id, token).body["error"]["code"] == "CARD_DECLINED"
    declined = footprint(order_id)

    send(event("payment_intent.payment_failed", order_id=order_id, payment_id="pi_declined"))

    assert footprint(order_id) == declined
    assert stored_events().get().outcome == "Already in agreement with the provider."
    assert_books_balance(product, initial={product.pk: 5})


def test_an_event_waits_while_a_sweep_holds_the_order(api, settings):
    from checkout.saga.lease import claim_order, release_order

    product, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    lease = claim_order(order_id=order_id)
    assert send(event("payment_intent.succeeded", order_id=order_id, payment_id="pi_l"))[1] == {
        "received": True,
        "event_id": stored_events().get().payload["event_id"],
        "status": "pending",
    }
    assert order_of(order_id).status == OrderStatus.PAYMENT_PENDING
    assert stored_events().get().last_error.startswith("OrderBusy")
    release_order(order_id=order_id, lease_until=lease)

    assert outbox.deliver_due(now=timezone.now() + timedelta(minutes=1)).delivered == 1
    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert_books_balance(product, initial={product.pk: 5})


def test_an_event_during_the_saga_leaves_it_to_the_saga(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    Order.objects.filter(pk=order_id).update(status=OrderStatus.PROCESSING)
    before = footprint(order_id)
    send(event("payment_intent.succeeded", order_id=order_id, payment_id="pi_6"))
    assert footprint(order_id) == before
    assert "running" in stored_events().get().outcome


# --- refunds --------------------------------------------------------------------------------


def test_a_refund_made_at_the_provider_cancels_the_completed_order(api, demo_catalog):
    order = paid_order(api)
    payment = payment_of(order.order_id)
    product_stock = order_of(order.order_id).lines.get().product
    stock_before = product_stock.stock
    get_provider().refund(
        charge_id=payment.provider_charge_id,
        amount=payment.amount,
        idempotency_key="refunded-in-the-dashboard",
    )

    status, body = send(
        event("charge.refunded", order_id=order.order_id, payment_id=payment.provider_charge_id)
    )

    assert status == 200 and body["status"] == "applied"
    payment.refresh_from_db()
    assert (payment.status, payment.refunded_amount) == (PaymentStatus.REFUNDED, payment.amount)
    assert order_of(order.order_id).status == OrderStatus.CANCELLED
    product_stock.refresh_from_db()
    assert product_stock.stock == stock_before + 1
    # One refund at the provider: ours, never a second one.
    assert SimulatedRefund.objects.filter(charge__order_id=order.order_id).count() == 1
    assert_books_balance(product_stock, initial={product_stock.pk: stock_before + 1})

    settled = footprint(order.order_id)
    send(event("charge.refunded", order_id=order.order_id, payment_id=payment.provider_charge_id))
    assert footprint(order.order_id) == settled
    assert stored_events().order_by("pk").last().outcome == "Refunds already recorded."


def test_the_event_of_our_own_refund_changes_nothing(api, demo_catalog):
    order = paid_order(api)
    cancelled = api.call(
        "cancel_order",
        {"order_id": order.order_id, "reason": "changed my mind", "idempotency_key": new_key()},
    )
    assert cancelled.body["status"] == "cancelled", cancelled.body
    payment = payment_of(order.order_id)
    settled = footprint(order.order_id)
    send(event("charge.refunded", order_id=order.order_id, payment_id=payment.provider_charge_id))
    assert footprint(order.order_id) == settled


def test_a_partial_refund_at_the_provider_is_recorded_and_left_for_staff(api, demo_catalog):
    order = paid_order(api)
    payment = payment_of(order.order_id)
    get_provider().refund(
        charge_id=payment.provider_charge_id, amount=Decimal("5.00"), idempotency_key="partial-1"
    )
    send(event("charge.refunded", order_id=order.order_id, payment_id=payment.provider_charge_id))
    payment.refresh_from_db()
    assert (payment.status, payment.refunded_amount) == (PaymentStatus.SUCCEEDED, Decimal("5.00"))
    assert order_of(order.order_id).status == OrderStatus.COMPLETED
    assert "staff" in stored_events().get().outcome


# --- failures: retried with backoff, then parked; the admin's retry -------------------------


def test_an_event_that_cannot_be_applied_is_retried_with_backoff_then_parked(api, settings):
    _, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    body = event("payment_intent.succeeded", order_id=order_id, payment_id="pi_7")

    with simulator.outage():
        status, answer = send(body)
        assert status == 200 and answer["status"] == "pending"  # stored: Stripe need not resend
        stored = stored_events().get()
        assert stored.attempts == 1 and "ProviderUnavailable" in stored.last_error
        first_due = stored.next_attempt_at
        assert timedelta(seconds=29) < first_due - stored.created_at < timedelta(seconds=31)
        # Not due yet: nothing happens.
        assert outbox.deliver_due().pending == 0
        assert outbox.deliver_due(now=first_due).pending == 1
        stored.refresh_from_db()
        assert stored.attempts == 2
        # 30 s after the first try, 60 s after the second.
        assert stored.next_attempt_at - timezone.now() > timedelta(seconds=59)
        report = outbox.deliver_due(now=stored.next_attempt_at)
        assert report.parked == 1
    stored.refresh_from_db()
    assert (stored.status, stored.attempts, stored.next_attempt_at) == ("parked", 3, None)
    assert order_of(order_id).status == OrderStatus.PAYMENT_PENDING
    # Parked events are not retried by the sweeps any more.
    assert outbox.deliver_due(now=timezone.now() + timedelta(days=1)).delivered == 0


def test_the_sweeps_apply_a_stored_event_its_request_never_applied(api, settings, monkeypatch):
    _, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    real_deliver = outbox.deliver
    monkeypatch.setattr(outbox, "deliver", lambda *, message_pk: "pending")
    assert send(event("payment_intent.succeeded", order_id=order_id, payment_id="pi_8"))[0] == 200
    monkeypatch.setattr(outbox, "deliver", real_deliver)
    Order.objects.filter(pk=order_id).update(status=OrderStatus.PAYMENT_PENDING)

    report = run_sweeps(older_than_seconds=3600)  # the order itself is not stuck yet

    # The event, and the receipt of the order it completed.
    assert report.outbox_delivered == 2 and report.reconciled == 1
    assert stored_events().get().status == OutboxStatus.DELIVERED


@pytest.fixture
def webhook_operator(db):
    user = get_user_model().objects.create_user(
        username="payments-operator", password="pw-op-456", is_staff=True
    )
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="checkout", codename__startswith="view_"
        ),
        Permission.objects.get(codename="retry_outboxmessage"),
    )
    client = Client()
    client.force_login(user)
    return client


def parked_event(api, settings) -> tuple[OutboxMessage, str]:
    settings.OUTBOX_MAX_ATTEMPTS = 1
    _, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    with simulator.outage():
        send(event("payment_intent.succeeded", order_id=order_id, payment_id="pi_9"))
    stored = stored_events().get()
    assert stored.status == OutboxStatus.PARKED
    return stored, order_id


def test_the_admin_lists_parked_events_and_retries_them(api, settings, webhook_operator):
    stored, order_id = parked_event(api, settings)
    changelist = "/admin/checkout/parkedoutboxmessage/"
    page = webhook_operator.get(changelist)
    assert page.status_code == 200 and stored.payload["event_id"] in page.content.decode()

    response = webhook_operator.post(
        changelist,
        {"action": "retry_messages", "_selected_action": [stored.pk]},
        follow=True,
    )

    assert "1 message(s) delivered." in response.content.decode()
    stored.refresh_from_db()
    assert stored.status == OutboxStatus.DELIVERED
    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert stored.payload["event_id"] not in webhook_operator.get(changelist).content.decode()


def test_a_retry_that_fails_again_says_so_and_keeps_the_event(api, settings, webhook_operator):
    stored, order_id = parked_event(api, settings)
    with simulator.outage():
        response = webhook_operator.post(
            "/admin/checkout/parkedoutboxmessage/",
            {"action": "retry_messages", "_selected_action": [stored.pk]},
            follow=True,
        )
    assert "failed again" in response.content.decode()
    stored.refresh_from_db()
    assert stored.status == OutboxStatus.PARKED  # one try left of a fresh set of one
    assert order_of(order_id).status == OrderStatus.PAYMENT_PENDING


def test_staff_without_the_permission_cannot_retry(api, settings, db):
    stored, _ = parked_event(api, settings)
    viewer = get_user_model().objects.create_user(username="viewer", password="pw", is_staff=True)
    viewer.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="checkout", codename__startswith="view_")
    )
    client = Client()
    client.force_login(viewer)
    page = client.get("/admin/checkout/parkedoutboxmessage/")
    assert page.status_code == 200 and "retry_messages" not in page.content.decode()
    client.post(
        "/admin/checkout/parkedoutboxmessage/",
        {"action": "retry_messages", "_selected_action": [stored.pk]},
    )
    stored.refresh_from_db()
    assert stored.status == OutboxStatus.PARKED


# --- bad input: 400 (or 2xx and ignored), nothing stored, nothing changed -------------------


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("unsigned", "WEBHOOK_SIGNATURE_MISSING"),
        ("wrong secret", "WEBHOOK_SIGNATURE_INVALID"),
        ("garbled header", "WEBHOOK_SIGNATURE_INVALID"),
        ("body changed after signing", "WEBHOOK_SIGNATURE_INVALID"),
        ("stale", "WEBHOOK_TIMESTAMP_STALE"),
        ("far in the future", "WEBHOOK_TIMESTAMP_FUTURE"),
        ("not json", "WEBHOOK_MALFORMED"),
        ("json array", "WEBHOOK_MALFORMED"),
        ("no object id", "WEBHOOK_MALFORMED"),
        ("not utf-8", "WEBHOOK_MALFORMED"),
        ("over 1 MB", "WEBHOOK_TOO_LARGE"),
    ],
)
def test_bad_webhooks_get_a_precise_400_and_change_nothing(api, settings, case, code):
    _, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    before = footprint(order_id)
    good = event("payment_intent.succeeded", order_id=order_id, payment_id="pi_bad")
    text = json.dumps(good)
    if case == "unsigned":
        status, body = send(good, signature="")
    elif case == "wrong secret":
        status, body = send(good, secret="whsec_someone_else")
    elif case == "garbled header":
        status, body = send(good, signature="t=abc,v1")
    elif case == "body changed after signing":
        header = stripe.WebhookSignature.generate_signature_header(text, SECRET)
        status, body = send(text.replace("succeeded", "payment_failed"), signature=header)
    elif case == "stale":
        status, body = send(good, timestamp=int(time.time()) - 301)
    elif case == "far in the future":
        status, body = send(good, timestamp=int(time.time()) + 3600)
    elif case == "not json":
        status, body = send("{not json")
    elif case == "json array":
        status, body = send("[1, 2]")
    elif case == "no object id":
        del good["data"]["object"]["id"]
        status, body = send(good)
    elif case == "not utf-8":
        raw = b'{"id": "evt_\xff"}'
        header = stripe.WebhookSignature.generate_signature_header("x", SECRET)
        status, body = send(raw, signature=header)
    else:
        good["data"]["object"]["padding"] = "x" * (1024 * 1024)
        status, body = send(good)

    assert status == 400, body
    assert body["error"]["code"] == code and body["error"]["message"]
    assert "Traceback" not in json.dumps(body)
    assert not stored_events().exists()
    assert footprint(order_id) == before


def test_a_timestamp_ahead_within_the_tolerance_is_accepted(api, settings):
    _, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    good = event(
        "payment_intent.succeeded",
        order_id=order_id,
        payment_id=payment_of(order_id).provider_charge_id,
    )
    status, body = send(good, timestamp=int(time.time()) + 240)  # a clock a little ahead
    assert status == 200, body


# Spelled in the JSON itself, as a sender would: NUL (PostgreSQL refuses it in text, once a
# 500), a lone surrogate (no UTF-8 row holds it), a bidi override and a C1 control.
UNPRINTABLE = {"nul": "\\u0000", "lone surrogate": "\\ud800", "bidi": "\\u202e", "c1": "\\u0085"}


@pytest.mark.parametrize("field", ["id", "type", "data.object.id", "data.object.payment_intent"])
@pytest.mark.parametrize("char", UNPRINTABLE.values(), ids=UNPRINTABLE.keys())
def test_a_signed_event_with_unprintable_text_is_malformed_naming_the_field(
    api, settings, field, char
):
    _, order_id = pending_order(api, settings)
    before = footprint(order_id)
    good = event("charge.succeeded", order_id=order_id, payment_id="pi_0123456789")
    *parents, name = field.split(".")
    node = good
    for parent in parents:
        node = node[parent]
    node[name] = f"{node[name]}PLACEHOLDER"
    text = json.dumps(good).replace("PLACEHOLDER", char)

    status, body = send(text)

    assert status == 400, body
    assert body["error"]["code"] == "WEBHOOK_MALFORMED"
    assert body["error"]["field"] == field and field in body["error"]["message"]
    assert not stored_events().exists()
    assert footprint(order_id) == before


def test_an_unknown_event_type_is_acknowledged_and_ignored(api, settings):
    _, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    before = footprint(order_id)
    status, body = send(event("customer.created", order_id=order_id, payment_id="cus_1"))
    assert status == 200 and body["status"] == "ignored"
    assert not stored_events().exists()
    assert footprint(order_id) == before


def test_only_post_and_only_when_configured(settings):
    assert Client().get(URL).status_code == 405
    settings.STRIPE_WEBHOOK_SECRET = ""
    status, body = send(event("payment_intent.succeeded", order_id=uuid.uuid4(), payment_id="x"))
    assert status == 404 and body["error"]["code"] == "WEBHOOKS_NOT_CONFIGURED"
    assert not stored_events().exists()


def test_no_body_secret_or_signature_reaches_the_logs(api, settings, caplog, capfd):
    import logging

    caplog.set_level(logging.DEBUG)
    _, order_id = pending_order(api, settings)
    settle_at_provider(order_id)
    good = event("payment_intent.succeeded", order_id=order_id, payment_id="pi_log")
    text = json.dumps(good)
    header = stripe.WebhookSignature.generate_signature_header(text, SECRET)
    send(text, signature=header)  # accepted
    send(text, signature=header)  # duplicate
    # Built at run time: a logging error's call stack quotes source lines, never values.
    forged = "whsec_" + "forged"
    send(good, secret=forged)  # rejected
    send(text.replace("pi_log", "pi_lug"), signature=header)  # tampered

    captured = capfd.readouterr()
    logged = caplog.text + captured.out + captured.err
    assert "webhook_received" in logged and "webhook_rejected" in logged
    for secret in (CLIENT_SECRET, SECRET, forged, header.split("v1=")[1]):
        assert secret not in logged
