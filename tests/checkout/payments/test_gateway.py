"""The payment provider layer: the simulator's test cards, the gateway's retries and verdicts,
idempotent charges and refunds, outages, and a ledger that no app rollback can touch."""

from __future__ import annotations

import threading
import time
import uuid
from decimal import Decimal

import pytest
from django.db import connections, transaction
from structlog.testing import capture_logs

from checkout.models import Order, SimulatedCharge, SimulatedChargeRequest, SimulatedRefund
from checkout.payments import gateway, methods, simulator
from checkout.payments.gateway import ChargeResult
from checkout.payments.provider import (
    CardDeclined,
    Charge,
    ProviderRejected,
    ProviderTimeout,
    ProviderUnavailable,
    get_provider,
)
from checkout.payments.simulator import SimulatedProvider

LEDGER = ["default", "payment_ledger"]
pytestmark = pytest.mark.django_db(databases=LEDGER)

AMOUNT = Decimal("30.00")


def key() -> str:
    return f"pay-{uuid.uuid4()}"


def charge(method: str, *, idempotency_key: str | None = None, amount=AMOUNT, order_id=None):
    return gateway.charge(
        amount=amount,
        currency="USD",
        payment_method_id=method,
        idempotency_key=idempotency_key or key(),
        order_id=order_id or str(uuid.uuid4()),
    )


def ledger_rows(idempotency_key: str):
    return list(
        SimulatedCharge.objects.using("payment_ledger").filter(idempotency_key=idempotency_key)
    )


def requests_seen(idempotency_key: str) -> int:
    row = SimulatedChargeRequest.objects.using("payment_ledger").filter(
        idempotency_key=idempotency_key
    )
    return row.first().attempts if row.exists() else 0


# --- The test cards --------------------------------------------------------------------------


def test_every_user_has_the_exact_test_cards():
    ids = [m.id for m in methods.PAYMENT_METHODS]
    assert ids == [
        "pm_card_visa",
        "pm_card_declined",
        "pm_card_insufficient_funds",
        "pm_card_timeout_once",
        "pm_card_timeout_always",
        "pm_card_unavailable",
        "pm_card_lost_response",
        "pm_card_pending",
        "pm_card_authentication_required",
    ]
    visa = methods.payment_method("pm_card_visa")
    assert visa.label == "Visa •••• 4242"
    assert (visa.brand, visa.last4) == ("Visa", "4242")
    assert all(m.description for m in methods.PAYMENT_METHODS)
    assert len({m.last4 for m in methods.PAYMENT_METHODS}) == len(ids)
    assert methods.payment_method("pm_card_nope") is None


def test_visa_charges_once():
    k, order_id = key(), str(uuid.uuid4())
    outcome = charge("pm_card_visa", idempotency_key=k, order_id=order_id)

    assert outcome.result == ChargeResult.SUCCEEDED
    assert outcome.attempts == 1
    assert outcome.decline_code is None
    assert outcome.charge.id.startswith("ch_")
    assert outcome.charge.idempotency_key == k
    assert (outcome.charge.amount, outcome.charge.currency) == (AMOUNT, "USD")
    assert outcome.charge.metadata["order_id"] == order_id
    [row] = ledger_rows(k)
    assert (row.status, row.amount, row.order_id, row.charge_id) == (
        "succeeded",
        AMOUNT,
        order_id,
        outcome.charge.id,
    )


@pytest.mark.parametrize(
    ("method", "code"),
    [("pm_card_declined", "CARD_DECLINED"), ("pm_card_insufficient_funds", "INSUFFICIENT_FUNDS")],
)
def test_declines_are_recorded_never_captured_and_never_retried(method, code):
    k = key()
    outcome = charge(method, idempotency_key=k)

    assert outcome.result == ChargeResult.DECLINED
    assert outcome.decline_code == code
    assert outcome.attempts == 1
    assert requests_seen(k) == 1  # the provider was asked exactly once
    assert outcome.charge is not None and outcome.charge.status == "failed"
    assert outcome.charge.failure_code == code
    assert outcome.charge.net_captured == 0
    [row] = ledger_rows(k)
    assert (row.status, row.failure_code, row.refunded_amount) == ("failed", code, 0)


def test_timeout_once_is_retried_with_the_same_key_and_charges_once():
    k = key()
    outcome = charge("pm_card_timeout_once", idempotency_key=k)

    assert outcome.result == ChargeResult.SUCCEEDED
    assert outcome.attempts == 2
    assert requests_seen(k) == 2
    [row] = ledger_rows(k)
    assert row.status == "succeeded"
    assert row.charge_id == outcome.charge.id


def test_timeout_always_is_not_charged_after_asking_the_provider():
    k = key()
    outcome = charge("pm_card_timeout_always", idempotency_key=k)

    assert outcome.result == ChargeResult.NOT_CHARGED_TIMEOUT
    assert outcome.charge is None
    assert outcome.attempts == 3
    assert requests_seen(k) == 3
    assert ledger_rows(k) == []
    assert get_provider().retrieve_by_idempotency_key(idempotency_key=k) is None


def test_unavailable_is_not_charged_and_not_processed():
    k = key()
    with capture_logs() as logs:
        outcome = charge("pm_card_unavailable", idempotency_key=k)

    assert outcome.result == ChargeResult.NOT_CHARGED_UNAVAILABLE
    assert outcome.charge is None
    assert outcome.attempts == 3
    assert ledger_rows(k) == []
    assert requests_seen(k) == 0  # a 503 is refused at the door
    # Only 503s: no lookup was needed, because a 503 means "not processed".
    assert not [e for e in logs if e["event"] == "payment_lookup"]


def test_lost_response_captures_once_and_the_retry_finds_it():
    k = key()
    outcome = charge("pm_card_lost_response", idempotency_key=k)

    assert outcome.result == ChargeResult.SUCCEEDED
    assert outcome.attempts == 2
    [row] = ledger_rows(k)
    assert row.status == "succeeded"
    assert row.attempts == 2
    assert outcome.charge.id == row.charge_id


def test_lost_response_first_attempt_really_captured():
    """Provider level: the first attempt raises a time-out, yet the money is already taken."""
    k = key()
    with pytest.raises(ProviderTimeout):
        SimulatedProvider().charge(
            amount=AMOUNT,
            currency="USD",
            payment_method_id="pm_card_lost_response",
            idempotency_key=k,
            metadata={"order_id": "o-1"},
        )
    [row] = ledger_rows(k)
    assert row.status == "succeeded"


def test_pending_then_settles_on_lookup():
    k = key()
    outcome = charge("pm_card_pending", idempotency_key=k)
    assert outcome.result == ChargeResult.PENDING
    assert outcome.attempts == 1
    assert outcome.charge.status == "pending"
    assert ledger_rows(k)[0].status == "pending"

    later = gateway.lookup(idempotency_key=k)
    assert later.result == ChargeResult.SUCCEEDED
    assert later.charge.id == outcome.charge.id
    assert ledger_rows(k)[0].status == "succeeded"
    assert len(ledger_rows(k)) == 1


def test_pending_stays_pending_before_settles_at(settings):
    settings.SIMULATOR_PENDING_SETTLE_SECONDS = 3600
    k = key()
    assert charge("pm_card_pending", idempotency_key=k).result == ChargeResult.PENDING
    assert gateway.lookup(idempotency_key=k).result == ChargeResult.PENDING
    with pytest.raises(ProviderRejected) as refused:
        get_provider().refund(
            charge_id=ledger_rows(k)[0].charge_id, amount=Decimal("1.00"), idempotency_key=key()
        )
    assert refused.value.code == "CHARGE_NOT_CAPTURED"


def test_lookup_of_an_unknown_key_is_not_charged():
    outcome = gateway.lookup(idempotency_key=key())
    assert outcome.result == ChargeResult.NOT_CHARGED_TIMEOUT
    assert outcome.attempts == 1


def test_lookup_of_a_decline_reports_the_decline():
    k = key()
    charge("pm_card_insufficient_funds", idempotency_key=k)
    outcome = gateway.lookup(idempotency_key=k)
    assert outcome.result == ChargeResult.DECLINED
    assert outcome.decline_code == "INSUFFICIENT_FUNDS"


# --- Retry policy ------------------------------------------------------------------------------


def test_attempts_follow_the_setting(settings):
    settings.PAYMENT_RETRY_ATTEMPTS = 5
    k = key()
    outcome = charge("pm_card_timeout_always", idempotency_key=k)
    assert outcome.attempts == 5
    assert requests_seen(k) == 5


class FlakyProvider(SimulatedProvider):
    """Records every charge call and fails it with a chosen transient error."""

    calls: list[dict] = []
    error: type[Exception] = ProviderUnavailable
    pause: float = 0.0

    def charge(self, **kwargs) -> Charge:
        type(self).calls.append(kwargs)
        if self.pause:
            time.sleep(self.pause)
        raise self.error("flaky")


@pytest.fixture
def flaky(settings):
    settings.PAYMENT_PROVIDER = "tests.checkout.payments.test_gateway.FlakyProvider"
    FlakyProvider.calls = []
    FlakyProvider.error = ProviderUnavailable
    FlakyProvider.pause = 0.0
    return FlakyProvider


def test_every_attempt_carries_the_same_key_and_parameters(flaky):
    k = key()
    flaky.error = ProviderTimeout
    outcome = charge("pm_card_visa", idempotency_key=k, order_id="order-7")
    assert outcome.result == ChargeResult.NOT_CHARGED_TIMEOUT
    assert len(flaky.calls) == 3
    assert {c["idempotency_key"] for c in flaky.calls} == {k}
    assert all(c["metadata"]["order_id"] == "order-7" for c in flaky.calls)
    assert all(c["amount"] == AMOUNT for c in flaky.calls)


def test_the_deadline_stops_retries_before_the_attempt_limit(flaky, settings):
    settings.PAYMENT_RETRY_ATTEMPTS = 10
    settings.PAYMENT_RETRY_DEADLINE_SECONDS = 0.01
    flaky.pause = 0.02  # every attempt alone outlasts the whole deadline
    outcome = charge("pm_card_visa")
    assert outcome.result == ChargeResult.NOT_CHARGED_UNAVAILABLE
    assert outcome.attempts == 1
    assert len(flaky.calls) == 1


def test_retries_and_the_outcome_are_logged():
    k, order_id = key(), str(uuid.uuid4())
    with capture_logs() as logs:
        charge("pm_card_timeout_once", idempotency_key=k, order_id=order_id)
    entries = [e for e in logs if e["event"] == "payment_charge"]
    assert [(e["attempt"], e["result"]) for e in entries] == [(1, "retry"), (2, "succeeded")]
    assert all(e["idempotency_key"] == k and e["order_id"] == order_id for e in entries)
    assert entries[0]["error"] == "timeout"


# --- Idempotency -------------------------------------------------------------------------------


def test_charge_replay_returns_the_same_charge_without_a_second_capture():
    k, order_id = key(), str(uuid.uuid4())
    first = charge("pm_card_visa", idempotency_key=k, order_id=order_id)
    second = charge("pm_card_visa", idempotency_key=k, order_id=order_id)
    assert second.result == ChargeResult.SUCCEEDED
    assert second.charge == first.charge
    [row] = ledger_rows(k)
    assert row.attempts == 2


def test_declined_replay_is_declined_again_without_a_second_charge():
    k, order_id = key(), str(uuid.uuid4())
    charge("pm_card_declined", idempotency_key=k, order_id=order_id)
    again = charge("pm_card_declined", idempotency_key=k, order_id=order_id)
    assert again.result == ChargeResult.DECLINED
    assert len(ledger_rows(k)) == 1


@pytest.mark.parametrize(
    "change",
    [
        {"amount": Decimal("31.00")},
        {"payment_method_id": "pm_card_pending"},
        {"currency": "EUR"},
        {"metadata": {"order_id": "another-order"}},
    ],
)
def test_key_reused_with_other_parameters_is_rejected_and_not_retried(change):
    k = key()
    provider = SimulatedProvider()
    params = {
        "amount": AMOUNT,
        "currency": "USD",
        "payment_method_id": "pm_card_visa",
        "idempotency_key": k,
        "metadata": {"order_id": "order-1"},
    }
    provider.charge(**params)
    with pytest.raises(ProviderRejected) as rejected:
        provider.charge(**{**params, **change})
    assert rejected.value.code == "IDEMPOTENCY_KEY_REUSED"
    [row] = ledger_rows(k)
    assert (row.amount, row.payment_method_id, row.refunded_amount) == (AMOUNT, "pm_card_visa", 0)


def test_gateway_surfaces_key_reuse_as_a_rejection_after_one_attempt():
    k, order_id = key(), str(uuid.uuid4())
    charge("pm_card_visa", idempotency_key=k, order_id=order_id)
    with capture_logs() as logs, pytest.raises(ProviderRejected):
        charge("pm_card_visa", idempotency_key=k, order_id=order_id, amount=Decimal("99.00"))
    entries = [(e["attempt"], e["result"]) for e in logs if e["event"] == "payment_charge"]
    assert entries == [(1, "rejected")]  # one attempt, no retry
    assert len(ledger_rows(k)) == 1


@pytest.mark.parametrize("amount", [Decimal("0"), Decimal("-5.00"), Decimal("1.001"), "abc"])
def test_invalid_amounts_are_rejected(amount):
    with pytest.raises(ProviderRejected) as rejected:
        SimulatedProvider().charge(
            amount=amount,
            currency="USD",
            payment_method_id="pm_card_visa",
            idempotency_key=key(),
            metadata={},
        )
    assert rejected.value.code == "INVALID_REQUEST"
    assert not SimulatedCharge.objects.using("payment_ledger").exists()


def test_unknown_payment_method_is_rejected():
    with pytest.raises(ProviderRejected):
        charge("pm_card_stolen")
    assert not SimulatedCharge.objects.using("payment_ledger").exists()


# --- Refunds -----------------------------------------------------------------------------------


def test_refund_is_idempotent_by_its_key():
    captured = charge("pm_card_visa").charge
    rk = key()
    first = gateway.refund(charge_id=captured.id, amount=Decimal("10.00"), idempotency_key=rk)
    again = gateway.refund(charge_id=captured.id, amount=Decimal("10.00"), idempotency_key=rk)

    assert first == again
    assert first.id.startswith("re_")
    assert (first.charge_id, first.amount) == (captured.id, Decimal("10.00"))
    assert SimulatedRefund.objects.using("payment_ledger").count() == 1
    after = get_provider().retrieve_charge(charge_id=captured.id)
    assert after.refunded_amount == Decimal("10.00")
    assert after.net_captured == Decimal("20.00")


def test_refund_key_reused_with_another_amount_is_rejected():
    captured = charge("pm_card_visa").charge
    rk = key()
    gateway.refund(charge_id=captured.id, amount=Decimal("10.00"), idempotency_key=rk)
    with pytest.raises(ProviderRejected) as rejected:
        gateway.refund(charge_id=captured.id, amount=Decimal("12.00"), idempotency_key=rk)
    assert rejected.value.code == "IDEMPOTENCY_KEY_REUSED"
    assert get_provider().retrieve_charge(charge_id=captured.id).refunded_amount == Decimal("10.00")


def test_refunding_more_than_captured_is_rejected():
    captured = charge("pm_card_visa").charge
    gateway.refund(charge_id=captured.id, amount=Decimal("25.00"), idempotency_key=key())
    with pytest.raises(ProviderRejected) as rejected:
        gateway.refund(charge_id=captured.id, amount=Decimal("5.01"), idempotency_key=key())
    assert rejected.value.code == "REFUND_EXCEEDS_CAPTURE"
    gateway.refund(charge_id=captured.id, amount=Decimal("5.00"), idempotency_key=key())
    assert get_provider().retrieve_charge(charge_id=captured.id).net_captured == 0


def test_a_declined_or_unknown_charge_cannot_be_refunded():
    declined = charge("pm_card_declined").charge
    with pytest.raises(ProviderRejected) as rejected:
        gateway.refund(charge_id=declined.id, amount=AMOUNT, idempotency_key=key())
    assert rejected.value.code == "CHARGE_NOT_CAPTURED"
    with pytest.raises(ProviderRejected) as missing:
        gateway.refund(charge_id="ch_missing", amount=AMOUNT, idempotency_key=key())
    assert missing.value.code == "NO_SUCH_CHARGE"
    assert not SimulatedRefund.objects.using("payment_ledger").exists()


def test_refund_during_an_outage_fails_after_retries_and_refunds_nothing():
    captured = charge("pm_card_visa").charge
    rk = key()
    with simulator.outage(), pytest.raises(ProviderUnavailable):
        gateway.refund(charge_id=captured.id, amount=AMOUNT, idempotency_key=rk)
    assert not SimulatedRefund.objects.using("payment_ledger").exists()
    # Once the provider is back, the same refund key goes through exactly once.
    gateway.refund(charge_id=captured.id, amount=AMOUNT, idempotency_key=rk)
    assert get_provider().retrieve_charge(charge_id=captured.id).refunded_amount == AMOUNT


# --- Outages -------------------------------------------------------------------------------------


def test_outage_makes_every_call_unavailable():
    provider = SimulatedProvider()
    captured = charge("pm_card_visa").charge
    with simulator.outage():
        for call in (
            lambda: provider.charge(
                amount=AMOUNT,
                currency="USD",
                payment_method_id="pm_card_visa",
                idempotency_key=key(),
                metadata={},
            ),
            lambda: provider.retrieve_by_idempotency_key(idempotency_key=captured.idempotency_key),
            lambda: provider.retrieve_charge(charge_id=captured.id),
            lambda: provider.refund(charge_id=captured.id, amount=AMOUNT, idempotency_key=key()),
            lambda: provider.charges_for_order(order_id=captured.order_id),
        ):
            with pytest.raises(ProviderUnavailable):
                call()
    assert provider.retrieve_charge(charge_id=captured.id) == captured


def test_charge_during_an_outage_is_not_charged():
    k = key()
    with simulator.outage():
        outcome = charge("pm_card_visa", idempotency_key=k)
    assert outcome.result == ChargeResult.NOT_CHARGED_UNAVAILABLE
    assert ledger_rows(k) == []


def test_lookup_during_an_outage_is_unknown():
    k = key()
    charge("pm_card_visa", idempotency_key=k)
    with simulator.outage():
        outcome = gateway.lookup(idempotency_key=k)
    assert outcome.result == ChargeResult.UNKNOWN
    assert outcome.charge is None
    assert outcome.attempts == 3
    assert gateway.lookup(idempotency_key=k).result == ChargeResult.SUCCEEDED


def test_lost_answer_then_outage_is_unknown_and_reconciles_to_one_charge():
    k = key()
    with simulator.outage(after_calls=1):  # the first charge attempt gets through, then 503s
        outcome = charge("pm_card_lost_response", idempotency_key=k)
    assert outcome.result == ChargeResult.UNKNOWN
    assert outcome.attempts == 3
    assert outcome.charge is None
    # Reconciliation, once the provider answers again: the money was taken, exactly once.
    later = gateway.lookup(idempotency_key=k)
    assert later.result == ChargeResult.SUCCEEDED
    assert len(ledger_rows(k)) == 1


def test_timeout_then_outage_is_unknown_and_reconciles_to_not_charged():
    k = key()
    with simulator.outage(after_calls=1):
        outcome = charge("pm_card_timeout_always", idempotency_key=k)
    assert outcome.result == ChargeResult.UNKNOWN
    assert gateway.lookup(idempotency_key=k).result == ChargeResult.NOT_CHARGED_TIMEOUT
    assert ledger_rows(k) == []


def test_a_refused_lookup_after_a_timed_out_charge_is_unknown_not_not_charged(monkeypatch):
    def refuse(self, *, idempotency_key, **_):
        raise ProviderRejected("401: this API key cannot read charges")

    monkeypatch.setattr(SimulatedProvider, "retrieve_by_idempotency_key", refuse)
    k = key()
    # Every attempt timed out, so it may have been processed; the lookup cannot say.
    assert charge("pm_card_timeout_always", idempotency_key=k).result == ChargeResult.UNKNOWN
    assert gateway.lookup(idempotency_key=k).result == ChargeResult.UNKNOWN
    monkeypatch.undo()
    assert gateway.lookup(idempotency_key=k).result == ChargeResult.NOT_CHARGED_TIMEOUT


def test_outage_holds_across_threads():
    errors: list[BaseException] = []

    def call_provider():
        try:
            SimulatedProvider().retrieve_by_idempotency_key(idempotency_key="anything")
        except BaseException as exc:  # collected for the assertion below
            errors.append(exc)

    with simulator.outage():
        worker = threading.Thread(target=call_provider)
        worker.start()
        worker.join()
    assert len(errors) == 1 and isinstance(errors[0], ProviderUnavailable)


@pytest.mark.django_db(databases=["payment_ledger"])
def test_provider_calls_never_touch_the_default_database():
    """Only the ledger connection is allowed here: pytest-django refuses any query on
    "default", so every behaviour passing proves the simulator never writes the app's DB."""
    outcomes = [charge(method.id) for method in methods.PAYMENT_METHODS]
    assert len(outcomes) == len(methods.PAYMENT_METHODS)
    captured = next(o.charge for o in outcomes if o.result == ChargeResult.SUCCEEDED)
    gateway.refund(charge_id=captured.id, amount=Decimal("1.00"), idempotency_key=key())
    assert gateway.lookup(idempotency_key=captured.idempotency_key).result == ChargeResult.SUCCEEDED


# --- The ledger is outside the app's transactions --------------------------------------------


@pytest.mark.django_db(transaction=True, databases=LEDGER)
def test_a_capture_survives_a_rollback_of_the_app_database(user):
    k = key()
    order_id = None

    class Boom(Exception):
        pass

    with pytest.raises(Boom), transaction.atomic():
        order = Order.objects.create(
            owner=user, amount=AMOUNT, currency="USD", payment_method_id="pm_card_visa"
        )
        order_id = str(order.id)
        outcome = charge("pm_card_visa", idempotency_key=k, order_id=order_id)
        assert outcome.result == ChargeResult.SUCCEEDED
        raise Boom

    assert not Order.objects.filter(pk=order_id).exists()  # the app's write was rolled back
    [row] = ledger_rows(k)  # the provider's capture was not
    assert (row.status, row.order_id) == ("succeeded", order_id)
    assert [c.id for c in get_provider().charges_for_order(order_id=order_id)] == [row.charge_id]


@pytest.mark.django_db(transaction=True, databases=LEDGER)
def test_simultaneous_charges_with_one_key_capture_once():
    k, order_id = key(), str(uuid.uuid4())
    results: list = []
    start = threading.Barrier(6)

    def worker():
        try:
            start.wait()
            results.append(charge("pm_card_visa", idempotency_key=k, order_id=order_id))
        except BaseException as exc:  # collected for the assertion below
            results.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert all(not isinstance(r, BaseException) for r in results), results
    assert {r.result for r in results} == {ChargeResult.SUCCEEDED}
    assert len({r.charge.id for r in results}) == 1
    [row] = ledger_rows(k)
    assert row.attempts == 6


@pytest.mark.django_db(transaction=True, databases=LEDGER)
def test_simultaneous_refunds_with_one_key_refund_once():
    captured = charge("pm_card_visa").charge
    rk = key()
    results: list = []
    start = threading.Barrier(5)

    def worker():
        try:
            start.wait()
            results.append(
                gateway.refund(charge_id=captured.id, amount=Decimal("10.00"), idempotency_key=rk)
            )
        except BaseException as exc:  # collected for the assertion below
            results.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert all(not isinstance(r, BaseException) for r in results), results
    assert len({r.id for r in results}) == 1
    assert get_provider().retrieve_charge(charge_id=captured.id).refunded_amount == Decimal("10.00")


def test_card_declined_carries_the_code_and_the_recorded_charge():
    with pytest.raises(CardDeclined) as declined:
        SimulatedProvider().charge(
            amount=AMOUNT,
            currency="USD",
            payment_method_id="pm_card_insufficient_funds",
            idempotency_key=key(),
            metadata={"order_id": "o-9"},
        )
    assert declined.value.code == "INSUFFICIENT_FUNDS"
    assert declined.value.charge.status == "failed"
    assert not declined.value.transient


def test_get_provider_follows_the_setting(settings):
    assert isinstance(get_provider(), SimulatedProvider)
    settings.PAYMENT_PROVIDER = "tests.checkout.payments.test_gateway.FlakyProvider"
    assert isinstance(get_provider(), FlakyProvider)
