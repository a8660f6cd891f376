"""A draft order racing the Confirm that would pay it: prepare_order replacing the draft, or the
person going back from checkout releasing it.

One interleaving at a time in one thread (each forced at the exact point by wrapping the step
that races), then the same races with real threads on PostgreSQL, where the workflow's row
lock orders them: never two orders paid in one workflow, never a "cancelled" that was paid."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections

from checkout.models import Order, OrderStatus
from checkout.saga import compensation, draft
from checkout.selectors import workflow_order_id
from checkout.sweeps import run_sweeps
from gifts.models import WorkflowContext
from tests.conftest import ToolClient
from tests.fixtures import (
    BOTH_DATABASES,
    assert_books_balance,
    assert_error,
    commit,
    gift_selected,
    make_product,
    order_of,
    prepare,
    prepared,
    provider_charges,
)
from tool_runtime.principals import issue_api_token

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)
# The tests with real threads: each thread's connection sees only what was committed.
THREADS = pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES)


# --- one interleaving at a time -----------------------------------------------------------------


def test_a_commit_landing_as_prepare_starts_is_seen_by_its_in_flight_check(
    api, monkeypatch, settings
):
    """The person's Confirm lands after prepare_order passed its gates but before it took the
    workflow: the check made under the lock sees the payment and makes no second draft."""
    settings.SIMULATOR_PENDING_SETTLE_SECONDS = 0  # the pending charge settles on the next read
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    first_id, first_token = prepared(api, workflow_id, "pm_card_pending")
    real_prepare = draft.do_prepare_order
    commits = []

    def commit_then_prepare(**kwargs):
        if not commits:
            commits.append(commit(api, workflow_id, first_id, first_token))
        return real_prepare(**kwargs)

    monkeypatch.setattr(draft, "do_prepare_order", commit_then_prepare)
    second = prepare(api, workflow_id, "pm_card_visa")

    assert commits[0].body["status"] == "payment_pending"
    error = assert_error(second, "ORDER_IN_PROGRESS", 409)
    assert error["details"] == {"order_id": first_id, "order_status": "payment_pending"}
    assert list(Order.objects.filter(workflow_id=workflow_id).values_list("pk", flat=True)) == [
        order_of(first_id).pk
    ]
    run_sweeps(older_than_seconds=0)  # reconciliation settles the pending payment
    assert order_of(first_id).status == OrderStatus.COMPLETED
    assert_books_balance(product, initial={product.pk: 5})


def test_going_back_keeps_a_draft_that_was_claimed_before_its_release(api, monkeypatch):
    """The release finds the draft already being paid (a claim got in first): going back must
    refuse and keep the order on the workflow, never report it cancelled."""
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    real_release = compensation.do_release_draft

    def claimed_first(**kwargs):
        Order.objects.filter(pk=order_id, status=OrderStatus.DRAFT).update(
            status=OrderStatus.PROCESSING
        )
        return real_release(**kwargs)

    monkeypatch.setattr(compensation, "do_release_draft", claimed_first)
    back = api.call("user_navigated_to_step", {"workflow_id": workflow_id, "step_id": "ideas"})

    error = assert_error(back, "ORDER_IN_PROGRESS", 409)
    assert error["details"] == {"order_id": order_id, "order_status": "processing"}
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    assert (workflow.current_step, str(workflow_order_id(workflow=workflow))) == (
        "checkout",
        order_id,
    )
    assert order_of(order_id).status != OrderStatus.CANCELLED


def test_going_back_past_a_draft_that_already_ended_says_so(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    # Cancelled without the workflow being told (what do_release_draft alone does).
    assert compensation.do_release_draft(order_id=order_id, reason="gone")

    back = api.call(
        "user_navigated_to_step", {"workflow_id": workflow_id, "step_id": "gift_selected"}
    )

    assert back.status == 200, back.body
    assert back.body["invalidated"] == [f"draft order {order_id} (already closed)"]
    assert workflow_order_id(workflow=WorkflowContext.objects.get(pk=workflow_id)) is None
    assert_books_balance(product, initial={product.pk: 5})


# --- real threads on PostgreSQL ------------------------------------------------------------------


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


@pytest.mark.postgres
@THREADS
def test_a_confirm_during_prepare_order_waits_and_finds_its_draft_replaced(user, api, monkeypatch):
    """prepare_order holds the workflow while it replaces the draft; the person's Confirm of
    the old draft, arriving then, waits and is refused: never two orders paid in one workflow."""
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    first_id, first_token = prepared(api, workflow_id, "pm_card_pending")
    bearer = issue_api_token(user=user)

    second, confirm = race_at_release(
        monkeypatch,
        # Another quantity: the draft is replaced (the same items would be re-priced in place).
        holder=lambda: prepare(ToolClient(bearer), workflow_id, "pm_card_visa", quantity=2),
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


@pytest.mark.postgres
@THREADS
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
