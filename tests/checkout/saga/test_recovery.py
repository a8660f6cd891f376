"""The saga under failure: a crash at every step, compensations, no transaction around the
provider, the complete-vs-recovery race, staff rollback and the saga's log lines."""

from __future__ import annotations

import contextlib

import pytest
from django.db import connection
from structlog.testing import capture_logs

from checkout import staff_rollback
from checkout.models import (
    Order,
    OrderStatus,
    Payment,
    PaymentStatus,
    Reservation,
    ReservationStatus,
    SagaStep,
    SagaStepStatus,
    SimulatedRefund,
)
from checkout.payments import gateway, simulator
from checkout.saga import charge, compensation, step_log
from checkout.selectors import workflow_order_id
from checkout.sweeps import run_sweeps
from gifts.models import WorkflowContext
from tests.fixtures import (
    ALL_METHODS,
    BOTH_DATABASES,
    CrashPlan,
    SimulatedCrash,
    assert_books_balance,
    assert_error,
    charges_for,
    commit,
    gift_selected,
    make_product,
    new_key,
    order_of,
    prepare,
    prepared,
)
from tool_runtime.errors import ToolError

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


SCENARIOS = (*ALL_METHODS, "retry_after_outage", "cancel_after_purchase")


def drive(api, scenario: str, workflow_id: str, plan: CrashPlan, monkeypatch) -> None:
    """Run one checkout story; the crash plan is active only for its part under test."""

    @contextlib.contextmanager
    def crashable():
        with monkeypatch.context() as patch:
            patch.setattr(step_log, "checkpoint", plan)
            yield

    if scenario == "cancel_after_purchase":
        order_id, token = prepared(api, workflow_id)
        assert commit(api, workflow_id, order_id, token).status == 200
        with crashable():
            api.call(
                "cancel_order",
                {"order_id": order_id, "reason": "Changed my mind", "idempotency_key": new_key()},
            )
        return
    if scenario == "retry_after_outage":
        order_id, token = prepared(api, workflow_id)
        key = new_key()
        with simulator.outage():
            assert commit(api, workflow_id, order_id, token, key=key).status == 503
        with crashable():
            commit(api, workflow_id, order_id, token, key=key)
        return
    with crashable():
        response = prepare(api, workflow_id, scenario)
        body = response.body
        commit(api, workflow_id, body["order_id"], body["_meta"]["confirmation_token"])


def assert_recovered(workflow_id: str) -> None:
    for order in Order.objects.filter(workflow_id=workflow_id):
        assert order.status != OrderStatus.PROCESSING, order
        assert not order.saga_steps.filter(status=SagaStepStatus.STARTED).exists()
        assert not order.payments.filter(
            status__in=[PaymentStatus.PENDING, PaymentStatus.UNKNOWN]
        ).exists()
        if order.status == OrderStatus.DRAFT:
            # A draft at rest: its stock is held and its workflow offers it for confirmation.
            assert (
                workflow_order_id(workflow=WorkflowContext.objects.get(pk=workflow_id)) == order.pk
            )
            assert order.reservations.get().status == ReservationStatus.HELD
        if order.status == OrderStatus.COMPLETED:
            assert WorkflowContext.objects.get(pk=workflow_id).current_step == "completed"


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_crash_after_every_saga_step_is_recovered_by_the_sweeps(api, scenario, monkeypatch):
    dry_run = CrashPlan()
    product = make_product(sku="GG-CHK-DRY", stock=5)
    drive(api, scenario, gift_selected(api, product), dry_run, monkeypatch)
    assert len(dry_run.points) >= 2, dry_run.points
    products = [product]
    for crash_at, point in enumerate(dry_run.points):
        product = make_product(sku=f"GG-CHK-CRASH-{crash_at}", stock=5)
        products.append(product)
        workflow_id = gift_selected(api, product)
        plan = CrashPlan(crash_at)
        with pytest.raises(SimulatedCrash):
            drive(api, scenario, workflow_id, plan, monkeypatch)
        assert plan.points[-1] == point

        report = run_sweeps(older_than_seconds=0)

        assert report.errors == 0
        assert_recovered(workflow_id)
        assert_books_balance(*products, initial={p.pk: 5 for p in products})
    # Nothing is left for a second pass: recovery finished everything in one.
    assert (
        run_sweeps(older_than_seconds=0)
        .summary()
        .startswith("sweep: expired=0 abandoned=0 recovered=0 reconciled=0")
    )


def test_the_dry_runs_cover_the_points_that_matter(api, monkeypatch):
    """Guards the crash test above: the points it kills the process at include the risky ones."""
    seen = set()
    for scenario in ("pm_card_visa", "pm_card_declined", "cancel_after_purchase"):
        plan = CrashPlan()
        drive(
            api,
            scenario,
            gift_selected(api, make_product(sku=f"GG-CHK-{scenario}", stock=5)),
            plan,
            monkeypatch,
        )
        seen |= set(plan.points)
    assert {
        ("create_order", "succeeded"),
        ("reserve_items", "succeeded"),
        ("charge_card", "started"),
        ("charge_card", "provider_answered"),  # captured, not yet recorded: the dangerous one
        ("charge_card", "succeeded"),
        ("charge_card", "failed"),
        ("complete", "succeeded"),
        ("refund", "started"),
        ("refund", "succeeded"),
        ("cancel_order", "succeeded"),
    } <= seen


@pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES)
def test_no_database_transaction_is_open_while_the_provider_is_called(api, monkeypatch):
    seen: list[tuple[str, bool]] = []
    real_charge, real_refund, real_lookup = gateway.charge, gateway.refund, gateway.lookup

    def spy(name, real):
        def call(**kwargs):
            seen.append((name, connection.in_atomic_block))
            return real(**kwargs)

        return call

    monkeypatch.setattr(gateway, "charge", spy("charge", real_charge))
    monkeypatch.setattr(gateway, "refund", spy("refund", real_refund))
    monkeypatch.setattr(gateway, "lookup", spy("lookup", real_lookup))
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    cancelled = api.call(
        "cancel_order",
        {"order_id": order_id, "reason": "Changed my mind", "idempotency_key": new_key()},
    )
    assert cancelled.status == 200
    pending_workflow = gift_selected(api, make_product(sku="GG-CHK-PENDING", stock=5))
    pending_id, pending_token = prepared(api, pending_workflow, "pm_card_pending")
    assert (
        commit(api, pending_workflow, pending_id, pending_token).body["status"] == "payment_pending"
    )
    run_sweeps(older_than_seconds=0)
    assert {name for name, _ in seen} == {"charge", "refund", "lookup"}
    assert seen and not any(in_atomic for _, in_atomic in seen), seen


def test_a_charge_arriving_after_recovery_compensated_the_order_is_refunded(api, monkeypatch):
    """A slow saga is taken for dead: the sweep compensates the order while the charge is in
    flight. When the capture then succeeds, it must be refunded, never kept."""
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    real_charge = gateway.charge

    def slow_charge(**kwargs):
        assert run_sweeps(older_than_seconds=0).recovered == 1  # sees it "stuck" and compensates
        assert order_of(order_id).status == OrderStatus.FAILED
        return real_charge(**kwargs)

    monkeypatch.setattr(gateway, "charge", slow_charge)
    response = commit(api, workflow_id, order_id, token)

    assert order_of(order_id).status == OrderStatus.FAILED
    # Never "completed" for an order that is not: the person is told to prepare a new one.
    assert_error(response, "ORDER_NOT_COMMITTABLE", 409)
    [charge] = charges_for(order_id)
    assert charge.status == "succeeded" and charge.refunded_amount == charge.amount
    assert Payment.objects.get(order_id=order_id).status == PaymentStatus.REFUNDED
    assert_books_balance(product, initial={product.pk: 5})


# --- compensations are idempotent ---------------------------------------------------------------------


def test_compensating_twice_does_nothing_the_second_time(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    arguments = {
        "order_id": order_id,
        "failure_code": "",
        "failure_message": "test",
        "final_status": OrderStatus.CANCELLED,
        "correlation_id": "t",
    }
    first = compensation.compensate(**arguments)
    steps = SagaStep.objects.filter(order_id=order_id).count()
    second = compensation.compensate(**arguments)
    assert (first.closed, first.refunded) == (True, payment_amount(order_id))
    assert (second.closed, second.refunded) == (False, 0)
    assert SagaStep.objects.filter(order_id=order_id).count() == steps
    assert SimulatedRefund.objects.count() == 1
    assert compensation.refund_payments(order=order_of(order_id), correlation_id="t") == 0
    assert_books_balance(product, initial={product.pk: 5})


def payment_amount(order_id):
    return Payment.objects.get(order_id=order_id).amount


def test_releasing_a_draft_is_idempotent_and_ignores_other_states(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert compensation.do_release_draft(order_id=order_id, reason="back") is True
    assert compensation.do_release_draft(order_id=order_id, reason="back") is False
    assert Reservation.objects.get(order_id=order_id).status == ReservationStatus.RELEASED
    assert_books_balance(product, initial={product.pk: 5})

    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    from checkout.services import WorkflowCheckout

    # navigate_back's call on a completed order: nothing released, and it says so.
    with pytest.raises(ToolError) as refused:
        WorkflowCheckout().leave_checkout(workflow=WorkflowContext.objects.get(pk=workflow_id))
    assert refused.value.code == "ORDER_IN_PROGRESS"
    assert refused.value.details["order_status"] == OrderStatus.COMPLETED
    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert_books_balance(product, initial={product.pk: 5})


def test_a_refund_that_fails_leaves_the_order_untouched(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    with simulator.outage(), pytest.raises(compensation.RefundFailed):
        compensation.compensate(
            order_id=order_id,
            failure_code="",
            final_status=OrderStatus.CANCELLED,
            correlation_id="t",
        )
    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert Reservation.objects.get(order_id=order_id).status == ReservationStatus.CONFIRMED
    refund_step = SagaStep.objects.filter(order_id=order_id, step="refund").get()
    assert (refund_step.status, refund_step.error_code) == ("failed", "PAYMENT_PROVIDER_ERROR")
    assert_books_balance(product, initial={product.pk: 5})


# --- staff rollback (the admin calls roll_back_order) ----------------------------------------------------


def test_roll_back_order_outcomes(api, settings):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200

    with simulator.outage():
        refused = staff_rollback.roll_back_order(
            order_id=order_id, reason="fraud check", actor="staff"
        )
    assert refused.outcome == "refused" and "Nothing was changed" in refused.detail
    assert order_of(order_id).status == OrderStatus.COMPLETED

    done = staff_rollback.roll_back_order(order_id=order_id, reason="fraud check", actor="staff")
    assert done.outcome == "rolled_back", done.detail
    assert "Refunded 30.00 USD" in done.detail
    order = order_of(order_id)
    assert order.status == OrderStatus.CANCELLED and "staff" in order.failure_message
    assert WorkflowContext.objects.get(pk=workflow_id).current_step == "failed"

    again = staff_rollback.roll_back_order(order_id=order_id, reason="fraud check", actor="staff")
    assert again.outcome == "already_rolled_back"
    assert SimulatedRefund.objects.count() == 1
    assert_books_balance(product, initial={product.pk: 5})

    draft_workflow = gift_selected(api, product)
    draft_id, _ = prepared(api, draft_workflow)
    assert (
        staff_rollback.roll_back_order(order_id=draft_id, reason="test", actor="staff").outcome
        == "rolled_back"
    )
    assert order_of(draft_id).status == OrderStatus.CANCELLED

    settings.SIMULATOR_PENDING_SETTLE_SECONDS = 3600
    pending_workflow = gift_selected(api, product)
    pending_id, pending_token = prepared(api, pending_workflow, "pm_card_pending")
    commit(api, pending_workflow, pending_id, pending_token)
    pending = staff_rollback.roll_back_order(order_id=pending_id, reason="test", actor="staff")
    assert pending.outcome == "refused" and "payment_pending" in pending.detail
    Order.objects.filter(pk=pending_id).update(status=OrderStatus.PROCESSING)
    running = staff_rollback.roll_back_order(order_id=pending_id, reason="test", actor="staff")
    assert running.outcome == "refused" and "processing" in running.detail
    assert (
        staff_rollback.roll_back_order(order_id=new_key(), reason="x", actor="staff").outcome
        == "refused"
    )


# --- observability -------------------------------------------------------------------------------------------


def test_every_saga_step_writes_one_structured_log_line(api):
    workflow_id = gift_selected(api, make_product())
    with capture_logs() as logs:
        order_id, token = prepared(api, workflow_id)
        commit(api, workflow_id, order_id, token, HTTP_X_CORRELATION_ID="corr-123")
    lines = [line for line in logs if line["event"] == "saga_step"]
    assert [(line["step"], line["status"]) for line in lines] == [
        ("create_order", "succeeded"),
        ("reserve_items", "succeeded"),
        ("charge_card", "started"),
        ("charge_card", "succeeded"),
        ("complete", "succeeded"),
    ]
    for line in lines:
        assert {
            "order_id",
            "workflow_id",
            "step",
            "status",
            "attempt",
            "error_code",
            "correlation_id",
            "duration_ms",
        } <= line.keys()
        assert line["order_id"] == order_id and line["workflow_id"] == workflow_id
    assert [line["correlation_id"] for line in lines[2:]] == ["corr-123"] * 3
    assert lines[-1]["duration_ms"] >= 0


def test_a_second_completion_of_a_completed_order_refunds_nothing(api):
    """A late success (the saga's own, or a second sweeper's) after the order completed."""
    product = make_product()
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).body["status"] == "completed"
    stock_after_sale = product.__class__.objects.get(pk=product.pk).stock

    outcome = charge.complete(order=order_of(order_id), correlation_id="late-success")

    assert outcome.order.status == OrderStatus.COMPLETED
    assert SimulatedRefund.objects.count() == 0
    assert Payment.objects.get(order_id=order_id).status == PaymentStatus.SUCCEEDED
    assert Reservation.objects.get(order_id=order_id).status == ReservationStatus.CONFIRMED
    assert product.__class__.objects.get(pk=product.pk).stock == stock_after_sale
    assert WorkflowContext.objects.get(pk=workflow_id).current_step == "completed"
    assert_books_balance(product, initial={product.pk: 5})


def test_a_provider_rejection_is_compensated_and_not_retryable(api, monkeypatch):
    from checkout.payments.provider import ProviderRejected

    def reject(**kwargs):
        raise ProviderRejected("idempotency key reused with other parameters")

    monkeypatch.setattr(gateway, "charge", reject)
    product = make_product(stock=2)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    key = new_key()
    error = assert_error(
        commit(api, workflow_id, order_id, token, key=key), "PAYMENT_REJECTED", 502
    )
    assert error["retryable"] is False
    assert "reused" not in error["message"]  # the provider's own words stay on the server
    assert order_of(order_id).status == OrderStatus.FAILED
    assert product.__class__.objects.get(pk=product.pk).stock == 2
    # Not retryable, so the same key replays the failure instead of charging again.
    replay = commit(api, workflow_id, order_id, token, key=key)
    assert replay.body["error"]["code"] == "PAYMENT_REJECTED"
    assert replay.headers["Idempotent-Replayed"] == "true"
