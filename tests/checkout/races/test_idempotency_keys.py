"""Real concurrency on PostgreSQL: threads, each with its own connection, against committed data.

The payment tests run once per provider: the simulator, and Stripe (the real SDK against
localstripe, tests/localstripe.py)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.utils import timezone

from checkout import services
from checkout.models import (
    Order,
    OrderStatus,
    Payment,
    Reservation,
    ReservationStatus,
    SagaStep,
    SimulatedRefund,
)
from checkout.payments import gateway
from checkout.payments.provider import get_provider
from checkout.saga import compensation, step_log
from checkout.schemas import PrepareOrderInput
from checkout.selectors import workflow_order_id
from checkout.sweeps import run_sweeps
from giftgenius.operations.metrics import saga_step_counts
from gifts.models import Product, WorkflowContext
from tests.concurrency import in_threads
from tests.conftest import ToolClient
from tests.fixtures import (
    BOTH_DATABASES,
    SHIPPING,
    CrashPlan,
    SimulatedCrash,
    assert_books_balance,
    assert_error,
    commit,
    gift_selected,
    make_product,
    new_key,
    prepare,
    prepared,
)
from tests.localstripe import intents, refunds
from tool_runtime.idempotency import arguments_fingerprint
from tool_runtime.models import IdempotencyKey, IdempotencyStatus
from tool_runtime.principals import issue_api_token, principal_label

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES),
]


@pytest.fixture(params=["simulator", "stripe"])
def provider(request) -> str | None:
    """The test runs once per payment provider; for Stripe this is localstripe's URL."""
    return request.getfixturevalue("stripe_provider") if request.param == "stripe" else None


def provider_charges(order_id) -> list:
    """The order's charges as the configured provider's own books hold them."""
    return get_provider().charges_for_order(order_id=str(order_id))


def test_twenty_simultaneous_commits_with_one_key_charge_once(user, api, provider):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    key = new_key()
    bearer = issue_api_token(user=user)

    results = in_threads(
        20, lambda i: commit(ToolClient(bearer), workflow_id, order_id, token, key=key)
    )

    codes = Counter(r.status for r in results)
    assert set(codes) <= {200, 409}, codes
    successes = [r for r in results if r.status == 200]
    assert successes, codes
    assert len({r.raw for r in successes}) == 1  # the first answer, and replays of it byte for byte
    assert successes[0].body["status"] == "completed"
    for waiting in (r for r in results if r.status == 409):
        assert waiting.body["error"]["code"] == "IDEMPOTENCY_IN_PROGRESS"
        assert waiting.body["error"]["retryable"] is True
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert Payment.objects.filter(order_id=order_id).count() == 1
    assert [c.status for c in provider_charges(order_id)] == ["succeeded"]
    if provider:
        assert len(intents(provider)) == 1  # one PaymentIntent at Stripe
    assert (
        SagaStep.objects.filter(order_id=order_id, step="charge_card", status="started").count()
        == 0
    )
    assert_books_balance(product, initial={product.pk: 5})


def test_ten_buyers_for_the_last_three_units(demo_catalog):
    product = Product.objects.get(sku="GG-TEST-LAST3")
    assert product.stock == 3
    buyers = []
    for n in range(10):
        buyer = get_user_model().objects.create_user(username=f"buyer{n}", password="pw-buyer-123")
        bearer = issue_api_token(user=buyer)
        buyers.append((bearer, gift_selected(ToolClient(bearer), product)))

    results = in_threads(10, lambda i: prepare(ToolClient(buyers[i][0]), buyers[i][1]))

    codes = Counter(r.status for r in results)
    assert codes == {200: 3, 409: 7}, codes
    assert all(r.body["error"]["code"] == "OUT_OF_STOCK" for r in results if r.status == 409)
    product.refresh_from_db()
    assert product.stock == 0
    assert Reservation.objects.filter(product=product, status=ReservationStatus.HELD).count() == 3
    assert Order.objects.filter(status=OrderStatus.DRAFT).count() == 3
    assert_books_balance(product, initial={product.pk: 3})


def test_only_one_of_many_callers_takes_over_a_stale_lock(user, api, settings):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    key = new_key()
    arguments = {
        "workflow_id": workflow_id,
        "payment_method_id": "pm_card_visa",
        "shipping": SHIPPING,
        "idempotency_key": key,
    }
    stale = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS + 5)
    IdempotencyKey.objects.create(
        principal=principal_label(user),
        tool="prepare_order",
        key=key,
        fingerprint=arguments_fingerprint(PrepareOrderInput.model_validate(arguments)),
        status=IdempotencyStatus.IN_PROGRESS,
        locked_at=stale,
        expires_at=timezone.now() + timedelta(hours=1),
    )
    bearer = issue_api_token(user=user)

    results = in_threads(10, lambda i: ToolClient(bearer).call("prepare_order", arguments))

    assert {r.status for r in results} <= {200, 409}
    assert Order.objects.count() == 1  # exactly one taker ran the tool
    assert len({r.raw for r in results if r.status == 200}) == 1
    row = IdempotencyKey.objects.get(key=key)
    assert row.status == IdempotencyStatus.COMPLETED and row.runs == 2
    assert_books_balance(product, initial={product.pk: 5})


def test_simultaneous_cancellations_refund_once(user, api, provider):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    bearer = issue_api_token(user=user)

    results = in_threads(
        5,
        lambda i: ToolClient(bearer).call(
            "cancel_order",
            {"order_id": order_id, "reason": "Changed my mind", "idempotency_key": new_key()},
        ),
    )

    assert [r.status for r in results] == [200] * 5, [r.body for r in results]
    assert all(r.body["status"] == "cancelled" for r in results)
    assert (len(refunds(provider)) if provider else SimulatedRefund.objects.count()) == 1
    assert_books_balance(product, initial={product.pk: 5})


def test_a_staff_rollback_and_the_persons_cancel_at_once_record_one_refund(
    user, api, provider, monkeypatch
):
    """Both read the payment as captured and reach the provider together (held at a barrier so
    the race is not left to chance): one refund at the provider, so one refund in the saga log
    and in the metrics; the other caller's step is skipped."""
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    bearer = issue_api_token(user=user)
    staff = get_user_model().objects.create_user(username="operator", is_staff=True)
    at_provider = threading.Barrier(2)
    real_refund = gateway.refund

    def refund_together(**kwargs):
        at_provider.wait(timeout=30)
        return real_refund(**kwargs)

    monkeypatch.setattr(gateway, "refund", refund_together)

    def work(i: int):
        if i == 0:
            (report,) = services.roll_back_orders(
                order_ids=[order_id], reason="Asked by phone", actor=staff
            )
            return report.outcome
        response = ToolClient(bearer).call(
            "cancel_order",
            {"order_id": order_id, "reason": "Changed my mind", "idempotency_key": new_key()},
        )
        return response.status, response.body.get("status")

    results = in_threads(2, work)

    assert results[1] == (200, "cancelled"), results
    assert results[0] in {"rolled_back", "already_rolled_back"}, results
    refund_steps = SagaStep.objects.filter(order_id=order_id, step="refund")
    assert sorted(refund_steps.values_list("status", flat=True)) == ["skipped", "succeeded"]
    assert (len(refunds(provider)) if provider else SimulatedRefund.objects.count()) == 1
    counts = {(c.step, c.status): c.count for c in saga_step_counts()}
    assert counts[("refund", "succeeded")] == 1
    assert_books_balance(product, initial={product.pk: 5})


def test_sweepers_on_several_machines_recover_each_order_once(api, monkeypatch, provider):
    products, order_ids = [], []
    for n in range(6):
        product = make_product(sku=f"GG-CHK-SWEEP-{n}", stock=5)
        products.append(product)
        workflow_id = gift_selected(api, product)
        order_id, token = prepared(api, workflow_id)
        order_ids.append(order_id)
        # Die with the money captured but not yet recorded (the 2nd point of a commit).
        with monkeypatch.context() as patch:
            patch.setattr(step_log, "checkpoint", CrashPlan(crash_at=1))
            with pytest.raises(SimulatedCrash):
                commit(api, workflow_id, order_id, token)
    assert Order.objects.filter(status=OrderStatus.PROCESSING).count() == 6

    reports = in_threads(4, lambda i: run_sweeps(older_than_seconds=0))

    assert sum(report.recovered for report in reports) == 6
    assert sum(report.errors for report in reports) == 0
    for order_id in order_ids:
        assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
        assert SagaStep.objects.filter(order_id=order_id, step="complete").count() == 1
        assert [c.status for c in provider_charges(order_id)] == ["succeeded"]
    assert_books_balance(*products, initial={p.pk: 5 for p in products})


def race_at_release(monkeypatch, *, holder, racer) -> tuple:
    """Run holder() until it releases a draft (in the fixed code, holding the workflow lock),
    then racer() in a second thread; the holder goes on once the racer has finished or is
    waiting for a lock (pg_locks shows its backend waiting). Returns (holder's, racer's) result."""
    real_release = compensation.do_release_draft
    paused, racer_done = threading.Event(), threading.Event()
    racer_pid: list[int] = []
    results: dict = {}

    def pausing_release(**kwargs):
        if threading.current_thread().name == "holder" and not paused.is_set():
            paused.set()
            deadline = time.monotonic() + 10
            while not racer_done.is_set() and time.monotonic() < deadline:
                if racer_pid:
                    with connection.cursor() as cursor:
                        cursor.execute(
                            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = %s AND NOT granted)",
                            racer_pid,
                        )
                        if cursor.fetchone()[0]:
                            break
                time.sleep(0.01)
        return real_release(**kwargs)

    def run(name: str, work) -> None:
        try:
            if name == "racer":
                assert paused.wait(timeout=30)
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    racer_pid.append(cursor.fetchone()[0])
            results[name] = work()
        except BaseException as exc:
            results[name] = exc
        finally:
            if name == "racer":
                racer_done.set()
            connections.close_all()

    monkeypatch.setattr(compensation, "do_release_draft", pausing_release)
    threads = [
        threading.Thread(target=run, args=(name, work), name=name)
        for name, work in (("holder", holder), ("racer", racer))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert not any(isinstance(r, BaseException) for r in results.values()), results
    return results["holder"], results["racer"]


def test_a_confirm_during_prepare_order_waits_and_finds_its_draft_replaced(user, api, monkeypatch):
    """prepare_order holds the workflow while it replaces the draft; the person's Confirm of
    the old draft, arriving then, waits and is refused: never two orders paid in one workflow."""
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    first_id, first_token = prepared(api, workflow_id, "pm_card_pending")
    bearer = issue_api_token(user=user)

    second, confirm = race_at_release(
        monkeypatch,
        holder=lambda: prepare(ToolClient(bearer), workflow_id, "pm_card_visa"),
        racer=lambda: commit(ToolClient(bearer), workflow_id, first_id, first_token),
    )

    assert second.status == 200, second.body
    assert_error(confirm, "ORDER_NOT_COMMITTABLE", 409)
    assert Order.objects.get(pk=first_id).status == OrderStatus.CANCELLED
    assert provider_charges(first_id) == []
    second_id = second.body["order_id"]
    assert str(workflow_order_id(workflow=WorkflowContext.objects.get(pk=workflow_id))) == second_id
    paid = commit(api, workflow_id, second_id, second.body["_meta"]["confirmation_token"])
    assert paid.body["status"] == "completed"
    assert_books_balance(product, initial={product.pk: 5})


def test_a_confirm_during_a_step_back_waits_and_finds_the_draft_released(user, api, monkeypatch):
    """Going back from checkout holds the workflow while it releases the draft; a Confirm
    arriving then waits and is refused, so the step back's "cancelled" stays true."""
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    bearer = issue_api_token(user=user)

    back, confirm = race_at_release(
        monkeypatch,
        holder=lambda: ToolClient(bearer).call(
            "user_navigated_to_step", {"workflow_id": workflow_id, "step_id": "gift_selected"}
        ),
        racer=lambda: commit(ToolClient(bearer), workflow_id, order_id, token),
    )

    assert back.status == 200, back.body
    assert back.body["invalidated"] == [f"draft order {order_id} (cancelled, stock released)"]
    assert_error(confirm, "ORDER_NOT_COMMITTABLE", 409)
    assert Order.objects.get(pk=order_id).status == OrderStatus.CANCELLED
    assert provider_charges(order_id) == []
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    assert (workflow.current_step, workflow_order_id(workflow=workflow)) == ("gift_selected", None)
    assert_books_balance(product, initial={product.pk: 5})
