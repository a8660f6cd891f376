"""tool_runtime.rows.insert_rows writes rows exactly as the ORM does, in one statement run
for every row. Run on SQLite and PostgreSQL: each prepares UUIDs, datetimes and
booleans its own way."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext

from tool_runtime.models import ToolCallLog
from tool_runtime.rows import insert_rows


def fields_of(row: ToolCallLog) -> dict[str, object]:
    return {
        f.name: getattr(row, f.name) for f in ToolCallLog._meta.concrete_fields if f.name != "id"
    }


@pytest.mark.django_db
def test_rows_are_written_as_the_orm_writes_them_and_omitted_fields_get_their_defaults():
    at = datetime(2026, 12, 5, 12, 30, 15, 123456, tzinfo=UTC)
    full = {
        "created_at": at,
        "tool": "commit_order",
        "principal": "user:7",
        "workflow_id": uuid.uuid4(),
        "step_id": "checkout",
        "status": "failed",
        "error_code": "CARD_DECLINED",
        "error_type": "business",
        "retryable": True,
        "arguments_fingerprint": "f" * 64,
        "idempotency_key": "key-0001",
        "correlation_id": "c" * 32,
        "duration_ms": 12.5,
        "upstream_retries": 2,
        "replayed": True,
        "transport": "mcp",
        "host_subject": "subject-1",
    }
    sparse = {"tool": "get_workflow", "status": "success"}
    orm = ToolCallLog.objects.create(**{**full, "correlation_id": "orm"})

    with CaptureQueriesContext(connection) as captured:
        insert_rows(ToolCallLog, rows=[full, sparse])

    # One statement, run for each row (the test's transaction adds a savepoint around it).
    inserts = [q["sql"] for q in captured.captured_queries if "INSERT" in q["sql"]]
    assert len(inserts) == 1 and inserts[0].startswith("2 times: INSERT")
    written = fields_of(ToolCallLog.objects.get(correlation_id=full["correlation_id"]))
    assert written == full
    assert {k: v for k, v in written.items() if k != "correlation_id"} == {
        k: v for k, v in fields_of(orm).items() if k != "correlation_id"
    }
    defaulted = ToolCallLog.objects.get(tool="get_workflow")
    assert (defaulted.retryable, defaulted.replayed, defaulted.transport) == (False, False, "rest")
    assert defaulted.workflow_id is None and defaulted.duration_ms == 0
    assert defaulted.created_at.tzinfo is not None  # the field's default: now


@pytest.mark.django_db
def test_no_rows_ask_nothing(django_assert_num_queries):
    with django_assert_num_queries(0):
        insert_rows(ToolCallLog, rows=[])


@pytest.mark.django_db
def test_a_batch_is_written_whole_or_not_at_all():
    good = {"tool": "get_workflow", "status": "success", "correlation_id": "good"}
    bad = {"tool": None, "status": "success"}  # NOT NULL

    with pytest.raises(IntegrityError):
        insert_rows(ToolCallLog, rows=[good, bad])

    assert not ToolCallLog.objects.filter(correlation_id="good").exists()


def test_a_model_whose_fields_set_themselves_on_save_is_refused():
    """insert_rows runs no pre_save, so an auto_now field would be written as its default."""
    from gifts.models import WorkflowContext

    with pytest.raises(TypeError, match="auto_now"):
        insert_rows(WorkflowContext, rows=[{"current_step": "brief"}])
