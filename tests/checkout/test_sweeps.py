"""The background sweeps: expiry, abandoned drafts, stuck sagas, reconciliation, key purge, command."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from checkout.ledger import check_ledger
from checkout.models import (
    Order,
    OrderStatus,
    Payment,
    PaymentStatus,
    Reservation,
    ReservationStatus,
    SagaStep,
    SimulatedCharge,
)
from checkout.payments import simulator
from checkout.selectors import workflow_order_id
from checkout.sweeps import run_sweeps
from gifts.models import WorkflowContext
from tests.fixtures import (
    BOTH_DATABASES,
    assert_books_balance,
    charges_for,
    commit,
    gift_selected,
    make_product,
    order_of,
    prepared,
)
from tool_runtime.models import ApiToken, IdempotencyKey
from tool_runtime.principals import issue_api_token, user_for_token

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


def test_expired_drafts_are_cancelled_and_their_stock_released(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    fresh_workflow = gift_selected(api, product)
    fresh_id, _ = prepared(api, fresh_workflow)
    Order.objects.filter(pk=order_id).update(expires_at=timezone.now() - timedelta(seconds=1))

    report = run_sweeps()

    assert report.expired == 1
    order = order_of(order_id)
    assert order.status == OrderStatus.CANCELLED and order.failure_code == "ORDER_EXPIRED"
    assert Reservation.objects.get(order_id=order_id).status == ReservationStatus.EXPIRED
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    assert workflow.current_step == "gift_selected" and workflow_order_id(workflow=workflow) is None
    assert order_of(fresh_id).status == OrderStatus.DRAFT  # not expired: untouched
    assert_books_balance(product, initial={product.pk: 5})
    assert run_sweeps().expired == 0


def test_pending_payments_wait_until_the_provider_settles(api, settings):
    settings.SIMULATOR_PENDING_SETTLE_SECONDS = 3600
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_pending")
    assert commit(api, workflow_id, order_id, token).body["status"] == "payment_pending"

    assert run_sweeps(older_than_seconds=0).reconciled == 1
    assert order_of(order_id).status == OrderStatus.PAYMENT_PENDING  # still pending: left alone
    assert Reservation.objects.get(order_id=order_id).status == ReservationStatus.HELD
    assert not SagaStep.objects.filter(order_id=order_id, step="reconcile").exists()

    settings.SIMULATOR_PENDING_SETTLE_SECONDS = 0
    from checkout.models import SimulatedCharge

    SimulatedCharge.objects.filter(order_id=order_id).update(settles_at=timezone.now())
    run_sweeps(older_than_seconds=0)
    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert Payment.objects.get(order_id=order_id).status == PaymentStatus.SUCCEEDED
    assert WorkflowContext.objects.get(pk=workflow_id).current_step == "completed"
    assert_books_balance(product, initial={product.pk: 5})


def test_an_unknown_outcome_is_not_guessed_and_reconciliation_completes_it(api):
    """The charge went through, the answer was lost and the provider then went away: the
    person is told "processing", never "failed"; reconciliation completes it later."""
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_lost_response")
    with simulator.outage(after_calls=1):
        response = commit(api, workflow_id, order_id, token)
        assert response.status == 200 and response.body["status"] == "payment_pending"
        assert Payment.objects.get(order_id=order_id).status == PaymentStatus.UNKNOWN
        assert run_sweeps(older_than_seconds=0).errors == 0  # provider still away: nothing decided
        assert order_of(order_id).status == OrderStatus.PAYMENT_PENDING
    assert [c.status for c in charges_for(order_id)] == ["succeeded"]

    run_sweeps(older_than_seconds=0)

    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert Payment.objects.get(order_id=order_id).status == PaymentStatus.SUCCEEDED
    assert_books_balance(product, initial={product.pk: 5})


def test_an_unknown_outcome_that_never_charged_is_compensated(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_timeout_always")
    # Times out, and the look-up that follows cannot reach the provider: unknown.
    with simulator.outage(after_calls=3):
        assert commit(api, workflow_id, order_id, token).body["status"] == "payment_pending"

    run_sweeps(older_than_seconds=0)

    order = order_of(order_id)
    assert order.status == OrderStatus.FAILED and order.failure_code == "PAYMENT_TIMEOUT"
    assert WorkflowContext.objects.get(pk=workflow_id).current_step == "gift_selected"
    assert charges_for(order_id) == []
    assert_books_balance(product, initial={product.pk: 5})


def test_a_stuck_saga_is_left_alone_until_it_is_older_than_the_threshold(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    Order.objects.filter(pk=order_id).update(status=OrderStatus.PROCESSING)  # as if mid-saga

    assert run_sweeps(older_than_seconds=3600).recovered == 0
    assert order_of(order_id).status == OrderStatus.PROCESSING

    assert run_sweeps(older_than_seconds=0).recovered == 1
    order = order_of(order_id)
    # It died before any charge was recorded: nothing can have been taken, so it is compensated.
    assert order.status == OrderStatus.FAILED and order.failure_code == "INTERNAL_ERROR"
    assert_books_balance(product, initial={product.pk: 5})


def test_a_draft_a_dead_prepare_left_behind_is_cleaned_up(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    # The workflow never reached checkout with it: the draft is not the workflow's order.
    WorkflowContext.objects.filter(pk=workflow_id).update(current_step="gift_selected")

    report = run_sweeps(older_than_seconds=0)

    assert report.abandoned == 1
    assert order_of(order_id).status == OrderStatus.CANCELLED
    assert_books_balance(product, initial={product.pk: 5})


def test_a_claimed_order_is_skipped_by_another_sweeper(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    Order.objects.filter(pk=order_id).update(
        expires_at=timezone.now() - timedelta(seconds=1),
        lease_until=timezone.now() + timedelta(minutes=1),
    )
    assert run_sweeps().expired == 0
    assert order_of(order_id).status == OrderStatus.DRAFT
    Order.objects.filter(pk=order_id).update(lease_until=timezone.now() - timedelta(seconds=1))
    assert run_sweeps().expired == 1  # the lease ran out: the next sweeper takes it
    assert order_of(order_id).lease_until is None


def test_expired_idempotency_keys_are_purged(api):
    workflow_id = gift_selected(api, make_product())
    prepared(api, workflow_id)
    IdempotencyKey.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert run_sweeps().purged == 1
    assert not IdempotencyKey.objects.exists()


def test_expired_preview_tokens_are_purged_and_script_tokens_kept(user):
    script = issue_api_token(user=user)
    issue_api_token(user=user, ttl=timedelta(hours=1))
    ApiToken.objects.filter(expires_at__isnull=False).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    live_preview = issue_api_token(user=user, ttl=timedelta(hours=1))
    assert run_sweeps().purged_tokens == 1
    assert user_for_token(script) == user and user_for_token(live_preview) == user
    assert ApiToken.objects.count() == 2


def test_run_sweeps_command_prints_one_summary_line_per_pass(api, monkeypatch):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    Order.objects.filter(pk=order_id).update(expires_at=timezone.now() - timedelta(seconds=1))
    out = io.StringIO()
    call_command("run_sweeps", "--older-than", "0", stdout=out)
    assert out.getvalue().splitlines() == [
        "sweep: expired=1 abandoned=0 recovered=0 reconciled=0 purged_keys=0 purged_tokens=0 "
        "outbox_delivered=0 outbox_parked=0 errors=0"
    ]

    import checkout.management.commands.run_sweeps as command

    class Stop(Exception):
        pass

    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        if len(sleeps) == 2:
            raise Stop

    monkeypatch.setattr(command.time, "sleep", sleep)
    # Inside the test's transaction it would close the test's own connection.
    monkeypatch.setattr(command, "close_old_connections", lambda: None)
    out = io.StringIO()
    with pytest.raises(Stop):
        call_command("run_sweeps", "--loop", "5", stdout=out)
    assert len(out.getvalue().splitlines()) == 2 and sleeps == [5.0, 5.0]


def test_a_sweeper_that_outlived_its_lease_does_not_free_the_next_claim(api):
    from checkout import sweeps

    workflow_id = gift_selected(api, make_product())
    order_id, _ = prepared(api, workflow_id)
    taken_over_until = timezone.now() + timedelta(minutes=10)

    def slow_action(order):
        # Meanwhile our lease ran out and another sweeper claimed the order.
        Order.objects.filter(pk=order.pk).update(lease_until=taken_over_until)

    sweeps._each(Order.objects.filter(pk=order_id), slow_action, sweeps.SweepReport())
    assert Order.objects.get(pk=order_id).lease_until == taken_over_until


def test_a_sweeper_releases_its_own_lease(api):
    from checkout import sweeps

    workflow_id = gift_selected(api, make_product())
    order_id, _ = prepared(api, workflow_id)
    sweeps._each(Order.objects.filter(pk=order_id), lambda order: None, sweeps.SweepReport())
    assert Order.objects.get(pk=order_id).lease_until is None


def _late_capture(payment, order) -> None:
    """What a real provider may do: finish a charge after answering 'not found' to our lookup."""
    SimulatedCharge.objects.create(
        charge_id=f"ch_late_{payment.pk}",
        idempotency_key=payment.provider_idempotency_key,
        amount=payment.amount,
        currency=payment.currency,
        payment_method_id=order.payment_method_id,
        status="succeeded",
        order_id=str(order.pk),
        metadata={"order_id": str(order.pk)},
    )


def test_a_rerun_after_a_time_out_finds_a_late_capture_instead_of_charging_again(api):
    # One provider key per order: the rerun asks under the key the timed-out run used, so a
    # capture that landed late is the order's payment, never a second one beside it.
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_timeout_always")
    key = "late-capture-retry-01"
    assert (
        commit(api, workflow_id, order_id, token, key=key).body["error"]["code"]
        == "PAYMENT_TIMEOUT"
    )
    payment = Order.objects.get(pk=order_id).payments.get()
    _late_capture(payment, Order.objects.get(pk=order_id))

    assert commit(api, workflow_id, order_id, token, key=key).body["status"] == "completed"

    payment.refresh_from_db()
    assert (payment.status, payment.attempt, payment.provider_charge_id) == (
        "succeeded",
        2,
        f"ch_late_{payment.pk}",
    )
    assert SimulatedCharge.objects.filter(order_id=order_id).count() == 1
    assert check_ledger().broken == []


def test_no_rerun_once_the_orders_one_charge_was_refunded(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_timeout_always")
    key = "late-capture-refunded-01"
    commit(api, workflow_id, order_id, token, key=key)
    order = Order.objects.get(pk=order_id)
    payment = order.payments.get()
    _late_capture(payment, order)
    Payment.objects.filter(pk=payment.pk).update(
        status="succeeded", provider_charge_id=f"ch_late_{payment.pk}"
    )
    run_sweeps(older_than_seconds=0)  # a failed order holding money: recovery refunds it
    payment.refresh_from_db()
    assert payment.status == "refunded"

    again = commit(api, workflow_id, order_id, token, key=key)

    assert Order.objects.get(pk=order_id).status == "failed"
    assert again.body.get("status") != "completed"
    assert SimulatedCharge.objects.filter(order_id=order_id).count() == 1
    assert check_ledger().broken == []
