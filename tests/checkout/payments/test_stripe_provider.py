"""The Stripe adapter against localstripe over HTTP: the real SDK, the real saga and services,
no mocks. Faults come from a proxy in front of localstripe (tests/localstripe.py)."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from checkout.ledger import check_ledger
from checkout.models import Order, OrderStatus, Payment, PaymentStatus
from checkout.payments import gateway
from checkout.payments.gateway import ChargeResult
from checkout.payments.provider import (
    CardDeclined,
    ProviderOutcomeUnknown,
    ProviderRejected,
    ProviderTimeout,
    ProviderUnavailable,
    get_provider,
)
from checkout.payments.stripe_customers import stripe_customer_id
from checkout.payments.stripe_provider import StripeProvider, client
from checkout.saga import charge
from checkout.sweeps import run_sweeps
from tests.checkout.test_staff_rollback import operator, roll_back  # noqa: F401 (the operator fixture)
from tests.fixtures import (
    BOTH_DATABASES,
    assert_books_balance,
    assert_error,
    commit,
    gift_selected,
    make_product,
    new_key,
    prepared,
)
from tests.localstripe import intents, save_card, saved_test_card, use_stripe

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)

CONFIRM = r"/v1/payment_intents/pi_\w+/confirm"
CREATE = r"/v1/payment_intents"
READ = r"/v1/payment_intents(/pi_\w+)?"  # listing, or one PaymentIntent by id


def ledger_is_clean() -> None:
    report = check_ledger()
    assert report.broken == [], [row.problems for row in report.broken]
    assert report.orphan_charges == []


def buy(api, method: str = "pm_card_visa", *, key: str | None = None, stock: int = 5):
    product = make_product(stock=stock)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, method)
    response = commit(api, workflow_id, order_id, token, key=key)
    return product, workflow_id, order_id, token, response


# --- through the saga ---------------------------------------------------------------------------


def test_a_whole_purchase_is_one_payment_intent(api, stripe_provider):
    product, workflow_id, order_id, _, response = buy(api)

    assert response.status == 200, response.body
    assert response.body["status"] == "completed"
    [intent] = intents(stripe_provider)
    payment = Payment.objects.get(order_id=order_id)
    assert payment.status == PaymentStatus.SUCCEEDED
    assert payment.provider_charge_id == intent["id"] and intent["id"].startswith("pi_")
    assert intent["status"] == "succeeded"
    assert intent["amount"] == 3000 and intent["currency"] == "usd"
    assert intent["metadata"]["order_id"] == order_id
    assert intent["metadata"]["workflow_id"] == workflow_id
    assert response.headers["X-Correlation-ID"] == intent["metadata"]["correlation_id"]
    assert intent["metadata"]["giftgenius_key"] == f"order-{order_id}-charge"
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})


def test_a_decline_fails_the_order_with_its_code(api, stripe_provider):
    # A saved card declined when charged (Stripe will not save one that declines at once, so
    # there is no saved card declined for insufficient funds: see test_a_declined_charge_...).
    code = "CARD_DECLINED"
    product, _, order_id, _, response = buy(api, "pm_card_declined")

    assert_error(response, code, 402)
    assert Order.objects.get(pk=order_id).status == OrderStatus.FAILED
    payment = Payment.objects.get(order_id=order_id)
    assert (payment.status, payment.error_code) == (PaymentStatus.FAILED, code)
    [intent] = intents(stripe_provider)
    assert intent["status"] == "requires_payment_method"
    assert payment.provider_charge_id == intent["id"]
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})


def test_a_replayed_commit_makes_one_payment_intent(api, stripe_provider):
    _, workflow_id, order_id, token, first = buy(api, key="stripe-replay-0001")

    again = commit(api, workflow_id, order_id, token, key="stripe-replay-0001")

    assert again.raw == first.raw
    assert len(intents(stripe_provider)) == 1
    ledger_is_clean()


def test_a_staff_rollback_refunds_the_payment_intent(api, stripe_provider, operator):  # noqa: F811
    product, _, order_id, _, response = buy(api)
    assert response.body["status"] == "completed"

    messages = roll_back(operator, [order_id])

    assert any("rolled back" in m.lower() or "refunded" in m.lower() for m in messages), messages
    assert Order.objects.get(pk=order_id).status == OrderStatus.CANCELLED
    payment = Payment.objects.get(order_id=order_id)
    assert payment.status == PaymentStatus.REFUNDED and payment.provider_refund_id.startswith("re_")
    [intent] = intents(stripe_provider)
    assert intent["latest_charge"]["amount_refunded"] == 3000
    # Rolling back again changes nothing at Stripe.
    roll_back(operator, [order_id])
    assert intents(stripe_provider)[0]["latest_charge"]["amount_refunded"] == 3000
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})


def test_a_lost_confirm_answer_ends_in_exactly_one_charge(api, stripe_proxy):
    # Stripe confirms (captures), the answer is lost; the gateway's retry finds the intent.
    stripe_proxy.fault("POST", CONFIRM, "lose")

    _, _, order_id, _, response = buy(api)

    assert response.body["status"] == "completed", response.body
    assert stripe_proxy.forwarded("POST", CONFIRM) == 1  # confirmed once, never again
    [intent] = intents(stripe_proxy.upstream)
    assert intent["status"] == "succeeded"
    assert Payment.objects.get(order_id=order_id).provider_charge_id == intent["id"]
    ledger_is_clean()


def test_a_lost_create_answer_still_makes_one_payment_intent(api, stripe_proxy):
    stripe_proxy.fault("POST", CREATE, "lose")

    _, _, _, _, response = buy(api)

    assert response.body["status"] == "completed", response.body
    assert stripe_proxy.forwarded("POST", CREATE) == 1  # the retry found it instead
    assert len(intents(stripe_proxy.upstream)) == 1
    ledger_is_clean()


def test_a_500_after_stripe_acted_is_not_taken_for_not_charged(api, stripe_proxy):
    # A 5xx may come after the capture: it is looked up like a time-out, never "not charged".
    stripe_proxy.fault("POST", CONFIRM, "500-after", times=None)

    _, _, order_id, _, response = buy(api)

    assert response.body["status"] == "completed", response.body
    assert stripe_proxy.forwarded("POST", CONFIRM) == 1
    assert Payment.objects.get(order_id=order_id).status == PaymentStatus.SUCCEEDED
    ledger_is_clean()


def test_rate_limited_until_the_retries_run_out_is_not_charged_and_retryable(api, stripe_proxy):
    stripe_proxy.fault("POST", CONFIRM, "429", times=None)
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    key = new_key()

    error = assert_error(
        commit(api, workflow_id, order_id, token, key=key), "PAYMENT_PROVIDER_ERROR", 503
    )
    assert error["retryable"] is True
    assert intents(stripe_proxy.upstream)[0]["status"] == "requires_confirmation"

    stripe_proxy.faults.clear()  # Stripe takes requests again: the rerun confirms the same intent
    retried = commit(api, workflow_id, order_id, token, key=key)

    assert retried.body["status"] == "completed", retried.body
    [intent] = intents(stripe_proxy.upstream)
    assert intent["status"] == "succeeded"
    payment = Payment.objects.get(order_id=order_id)
    assert (payment.attempt, payment.provider_charge_id) == (2, intent["id"])
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})


def test_an_unreachable_stripe_leaves_the_order_for_reconciliation(api, stripe_proxy, settings):
    stripe_proxy.fault("POST", CONFIRM, "lose")  # charged, answer lost …
    # … and every lookup after the first (which found no intent yet) refused.
    stripe_proxy.fault("GET", READ, "503", times=None, after=1)

    _, _, order_id, _, response = buy(api)

    assert Order.objects.get(pk=order_id).status == OrderStatus.PAYMENT_PENDING, response.body
    stripe_proxy.faults.clear()

    assert run_sweeps(older_than_seconds=0).reconciled == 1
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert len(intents(stripe_proxy.upstream)) == 1
    ledger_is_clean()


def test_a_capture_found_on_a_failed_order_is_refunded_as_a_webhook_would_have_it(
    api, stripe_provider
):
    # What the webhook does with payment_intent.succeeded: ask Stripe by the intent id and apply
    # the answer through the saga. Here the order had been closed as "not charged".
    _, _, order_id, _, _ = buy(api)
    Order.objects.filter(pk=order_id).update(
        status=OrderStatus.FAILED, failure_code="PAYMENT_TIMEOUT"
    )
    Payment.objects.filter(order_id=order_id).update(
        status=PaymentStatus.FAILED, error_code="PAYMENT_TIMEOUT"
    )
    payment = Payment.objects.get(order_id=order_id)

    outcome = gateway.lookup(
        idempotency_key=payment.provider_idempotency_key,
        charge_id=payment.provider_charge_id,
        since=payment.created_at,
    )
    assert outcome.result == ChargeResult.SUCCEEDED
    charge.apply_charge_outcome(
        order=Order.objects.get(pk=order_id),
        payment=payment,
        outcome=outcome,
        step=None,
        correlation_id="webhook-test",
    )

    assert Payment.objects.get(pk=payment.pk).status == PaymentStatus.REFUNDED
    assert Order.objects.get(pk=order_id).status == OrderStatus.FAILED
    assert intents(stripe_provider)[0]["latest_charge"]["amount_refunded"] == 3000
    ledger_is_clean()


# --- the adapter's own calls ---------------------------------------------------------------------


@pytest.fixture
def card(user, stripe_provider) -> str:
    """A Visa 4242 saved to the user's Customer."""
    return save_card(user)


def _charge(method: str, key: str = "k-1", attempt: int = 1):
    return get_provider().charge(
        amount=Decimal("12.50"),
        currency="USD",
        payment_method_id=method,
        idempotency_key=key,
        metadata={"order_id": "o-1", "attempt": attempt},
    )


def test_get_provider_is_the_stripe_adapter(stripe_provider):
    assert isinstance(get_provider(), StripeProvider)


def test_charging_again_under_a_key_answers_with_the_same_intent(stripe_provider, user, card):
    first = _charge(card)
    again = _charge(card, attempt=2)
    assert again == first and first.status == "succeeded" and first.amount == Decimal("12.50")
    assert len(intents(stripe_provider)) == 1
    [intent] = intents(stripe_provider)
    assert intent["customer"] == stripe_customer_id(user=user)  # a saved card's owner
    with pytest.raises(ProviderRejected) as reused:
        _charge(save_card(user, "pm_card_chargeCustomerFail"))
    assert reused.value.code == "IDEMPOTENCY_KEY_REUSED"


def test_lookup_by_key(stripe_provider, card):
    provider = get_provider()
    assert provider.retrieve_by_idempotency_key(idempotency_key="never-used") is None
    charged = _charge(card)
    assert provider.retrieve_by_idempotency_key(idempotency_key="k-1") == charged
    assert provider.retrieve_charge(charge_id=charged.id) == charged
    with pytest.raises(ProviderRejected) as missing:
        provider.retrieve_charge(charge_id="pi_doesnotexist")
    assert missing.value.code == "NO_SUCH_CHARGE"


def test_a_declined_charge_carries_the_failed_intent(stripe_provider, user):
    with pytest.raises(CardDeclined) as declined:
        _charge(save_card(user, "pm_card_chargeCustomerFail"))
    assert declined.value.code == "CARD_DECLINED"
    assert declined.value.charge.status == "failed"
    assert declined.value.charge.id.startswith("pi_")


def test_refunds_happen_once_per_key_and_never_past_the_capture(stripe_proxy, card):
    provider = get_provider()
    charged = _charge(card)
    stripe_proxy.fault("POST", r"/v1/refunds", "lose")
    with pytest.raises(ProviderTimeout):  # refunded, answer lost
        provider.refund(charge_id=charged.id, amount=Decimal("5.00"), idempotency_key="r-1")
    again = provider.refund(charge_id=charged.id, amount=Decimal("5.00"), idempotency_key="r-1")
    assert stripe_proxy.forwarded("POST", r"/v1/refunds") == 1
    assert again.amount == Decimal("5.00") and again.id.startswith("re_")
    assert provider.retrieve_charge(charge_id=charged.id).refunded_amount == Decimal("5.00")
    with pytest.raises(ProviderRejected) as too_much:
        provider.refund(charge_id=charged.id, amount=Decimal("8.00"), idempotency_key="r-2")
    assert too_much.value.code == "REFUND_EXCEEDS_CAPTURE"


@pytest.mark.parametrize(
    ("action", "error"),
    [("429", ProviderUnavailable), ("503", ProviderOutcomeUnknown), ("lose", ProviderTimeout)],
)
def test_error_mapping(stripe_proxy, action, error):
    stripe_proxy.fault("GET", CREATE, action)
    with pytest.raises(error):
        get_provider().retrieve_by_idempotency_key(idempotency_key="k-1")


def test_connection_refused_is_a_time_out(stripe_provider, settings):
    use_stripe(settings, "http://127.0.0.1:9")  # discard port: nothing listens
    with pytest.raises(ProviderTimeout):
        _charge("pm_1")
    outcome = gateway.lookup(idempotency_key="k-1")
    assert outcome.result == ChargeResult.UNKNOWN  # unreachable: never taken as "not charged"
    by_id = gateway.lookup(idempotency_key="k-1", charge_id="pi_x")
    assert by_id.result == ChargeResult.UNKNOWN


def test_a_card_saved_to_no_customer_is_never_charged(stripe_provider, user, card):
    client().v1.payment_methods.detach(card)
    for method in (card, "pm_card_visa"):  # detached since; a card nobody saved
        with pytest.raises(ProviderRejected) as refused:
            _charge(method)
        assert refused.value.code == "NO_SUCH_PAYMENT_METHOD"
    assert intents(stripe_provider) == []


# --- the ledger --------------------------------------------------------------------------------------


def test_check_ledger_reads_stripe(api, stripe_provider):
    buy(api)
    out = io.StringIO()
    call_command("check_ledger", stdout=out)
    assert "Ledger OK. 1 orders: 1 OK" in out.getvalue()

    # A PaymentIntent of ours whose order does not exist: an orphan, which is always broken.
    _charge(saved_test_card(api, "pm_card_visa"), key="orphan-key")
    with pytest.raises(CommandError, match="Ledger BROKEN"):
        call_command("check_ledger", stdout=io.StringIO())


def test_check_ledger_sees_money_stripe_holds_for_a_failed_order(api, stripe_provider):
    _, _, order_id, _, _ = buy(api)
    # Stripe captured, but the order claims it failed (as after a lost webhook of a late capture).
    Order.objects.filter(pk=order_id).update(status=OrderStatus.FAILED)
    Payment.objects.filter(order_id=order_id).update(status=PaymentStatus.FAILED)

    [row] = check_ledger().broken
    assert row.order_id == order_id and row.provider_net == Decimal("30.00")
