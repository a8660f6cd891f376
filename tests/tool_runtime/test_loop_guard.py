"""The loop guard: the same call failing again and again is stopped with RETRY_LIMIT_EXCEEDED
(the model is told to ask the person) until its failures age out; and the guard's one read:
only counted failures, through the partial index."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from checkout.models import Payment, SimulatedCharge
from giftgenius.settings.databases import PREPARE_THRESHOLD
from tests.fixtures import (
    BOTH_DATABASES,
    BRIEF,
    assert_books_balance,
    assert_error,
    commit,
    gift_selected,
    make_product,
    new_key,
    prepared,
    start,
)
from tool_runtime import loop_guard
from tool_runtime.models import ToolCallLog

WORKFLOW = uuid.uuid4()


def row(**overrides) -> ToolCallLog:
    fields = {
        "tool": "suggest_gifts",
        "principal": "user:1",
        "workflow_id": WORKFLOW,
        "status": "failed",
        "error_code": "VALIDATION_ERROR",
        "arguments_fingerprint": "same",
        **overrides,
    }
    return ToolCallLog.objects.create(**fields)


def count(**overrides) -> int:
    args = {
        "principal": "user:1",
        "tool": "suggest_gifts",
        "workflow_id": WORKFLOW,
        "guard_print": "same",
        "limit": 10,
        **overrides,
    }
    return loop_guard.recent_failures(**args)


def test_only_recent_counted_failures_of_the_same_call_count(db):
    row()
    row()
    row(status="success", error_code="")
    row(replayed=True)  # a replayed stored failure is the same attempt
    row(error_code="RETRY_LIMIT_EXCEEDED")
    row(error_code="IDEMPOTENCY_IN_PROGRESS")
    row(principal="user:2")
    row(arguments_fingerprint="other")
    row(tool="get_workflow")
    row(workflow_id=uuid.uuid4())
    old = row()
    ToolCallLog.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert count() == 2
    assert count(limit=1) == 1


@pytest.fixture
def busy_log(db):
    """A log shaped like production's: thousands of calls over the guard's window, across many
    workflows and tools, nearly all successful; analyzed, so the planner chooses by real
    statistics rather than by whatever an earlier test left in them."""
    tools = ["suggest_gifts", "get_workflow", "select_gift", "prepare_order", "commit_order"]
    now = timezone.now()
    window = settings.LOOP_GUARD_WINDOW_SECONDS
    rows = [
        ToolCallLog(
            tool=tools[i % len(tools)],
            principal=f"user:{i % 50}",
            workflow_id=WORKFLOW if i % 400 == 0 else uuid.uuid4(),
            status="failed" if i % 25 == 0 else "success",
            error_code="VALIDATION_ERROR" if i % 25 == 0 else "",
            arguments_fingerprint=f"print-{i % 300}",
            created_at=now - timedelta(seconds=(i * 7) % (2 * window)),
        )
        for i in range(4000)
    ]
    ToolCallLog.objects.bulk_create(rows, batch_size=500)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {connection.ops.quote_name(ToolCallLog._meta.db_table)}")


def _plan(sql: str, params: list[object]) -> str:
    explain = "EXPLAIN QUERY PLAN " if connection.vendor == "sqlite" else "EXPLAIN "
    with connection.cursor() as cursor:
        cursor.execute(explain + sql, params)
        return " ".join(str(part) for line in cursor.fetchall() for part in line)


def test_the_guard_reads_through_the_partial_failure_index(busy_log):
    params = loop_guard._params(
        principal="user:1", tool="suggest_gifts", workflow_id=WORKFLOW, guard_print="same", limit=3
    )
    assert "toolcalllog_failures_idx" in _plan(loop_guard._statement(connection.vendor), params)


def test_read_beside_the_workflow_the_guard_still_uses_the_partial_failure_index(busy_log):
    from gifts.models import WorkflowContext
    from tool_runtime.rows import _beside_reader

    scalar = loop_guard.failures_scalar(
        principal="user:1", tool="suggest_gifts", workflow_id=WORKFLOW, guard_print="same"
    )
    sql = _beside_reader(WorkflowContext, ("id", "owner"), scalar.sql, connection.vendor).statement
    field = WorkflowContext._meta.get_field
    keys = [field("id").get_db_prep_value(WORKFLOW, connection), 1]
    assert "toolcalllog_failures_idx" in _plan(sql, [*scalar.params, *keys])


def test_the_count_read_beside_the_workflow_is_the_guards_count(db):
    from gifts.models import WorkflowContext
    from tool_runtime.rows import one_row_beside

    for _ in range(5):
        row()
    row(error_code="RETRY_LIMIT_EXCEEDED")
    scalar = loop_guard.failures_scalar(
        principal="user:1", tool="suggest_gifts", workflow_id=WORKFLOW, guard_print="same"
    )
    _, failures = one_row_beside(WorkflowContext, scalar, id=WORKFLOW, owner=1)
    # Counted up to the limit, as the guard's own read counts them.
    assert failures == count(limit=settings.LOOP_GUARD_MAX_FAILURES) == 3


@pytest.mark.postgres(reason="prepared statements are PostgreSQL's")
def test_on_postgresql_the_guard_read_is_prepared_once_and_then_reused(db):
    """Planning it took longer than running it, so a connection prepares it."""
    runs = PREPARE_THRESHOLD + 3
    for _ in range(runs):
        assert count() == 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements"
            " WHERE statement LIKE %s",
            ["SELECT 1 FROM %arguments_fingerprint%"],  # the guard's read, not an INSERT
        )
        prepared = cursor.fetchall()
    assert len(prepared) == 1, prepared
    statement, executions = prepared[0]
    assert "toolcalllog" in statement and "$1" in statement  # bound on the server
    # psycopg runs it PREPARE_THRESHOLD times unprepared, then prepares it; each later run
    # executes that one prepared statement.
    assert executions == runs - PREPARE_THRESHOLD


# --- what a caller meets: the same failing call stopped ---------------------------------------


def test_loop_guard_stops_the_same_failing_call(api, demo_catalog):
    workflow_id = start(api)
    bad = {"workflow_id": workflow_id, **BRIEF, "relationship": "boss"}
    for _ in range(3):
        assert api.call("suggest_gifts", bad).error["code"] == "VALIDATION_ERROR"
    stopped = api.call("suggest_gifts", bad)
    assert stopped.status == 429
    assert stopped.error["code"] == "RETRY_LIMIT_EXCEEDED"
    assert stopped.error["retryable"] is False
    assert "ask the person" in stopped.error["next_actions"]
    # Different arguments are a different call: not blocked.
    assert api.call("suggest_gifts", {**bad, "relationship": "friend"}).status == 200


def test_loop_guard_stops_calls_on_a_workflow_that_is_not_there(api, db):
    """The guard's count is read beside the workflow, whether or not the workflow exists."""
    missing = {"workflow_id": str(uuid.uuid4())}
    for _ in range(3):
        assert api.call("get_workflow", missing).error["code"] == "NOT_FOUND"
    assert api.call("get_workflow", missing).error["code"] == "RETRY_LIMIT_EXCEEDED"


def test_loop_guard_stops_calls_on_another_principals_workflow(api, other_api, db):
    theirs = {"workflow_id": start(other_api)}
    for _ in range(3):
        assert api.call("get_workflow", theirs).error["code"] == "NOT_FOUND"
    assert api.call("get_workflow", theirs).error["code"] == "RETRY_LIMIT_EXCEEDED"
    assert other_api.call("get_workflow", theirs).status == 200  # its owner is not affected


def test_loop_guard_forgets_old_failures(api, demo_catalog):
    workflow_id = start(api)
    bad = {"workflow_id": workflow_id, **BRIEF, "relationship": "boss"}
    for _ in range(3):
        api.call("suggest_gifts", bad)
    ToolCallLog.objects.update(created_at=timezone.now() - timedelta(minutes=11))
    assert api.call("suggest_gifts", bad).error["code"] == "VALIDATION_ERROR"


@pytest.mark.django_db(databases=BOTH_DATABASES)
def test_loop_guard_stops_a_commit_that_keeps_failing(api):
    product = make_product(stock=3)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_timeout_always")
    key = new_key()
    for _ in range(3):
        assert_error(commit(api, workflow_id, order_id, token, key=key), "PAYMENT_TIMEOUT", 504)
    error = assert_error(
        commit(api, workflow_id, order_id, token, key=key), "RETRY_LIMIT_EXCEEDED", 429
    )
    assert error["retryable"] is False
    # One Payment row (one provider key) for the order, on its 3rd run: the 4th call ran none.
    assert Payment.objects.get(order_id=order_id).attempt == 3
    assert SimulatedCharge.objects.count() == 0
    assert_books_balance(product, initial={product.pk: 3})
