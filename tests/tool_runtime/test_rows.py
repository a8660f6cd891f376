"""tool_runtime.rows, the fixed statements of the hot path (each written once): reads come back
exactly as the ORM reads them (every field through the backend's and the field's own
converters), and insert_rows writes exactly as the ORM writes, one statement run for every
row. Run on SQLite and PostgreSQL: each converts and prepares UUIDs, JSON, booleans, decimals
and aware datetimes its own way."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from django.db import IntegrityError, connection
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from gifts.models import Product, WorkflowContext
from tests.fixtures import draft_order, start, suggest
from tool_runtime.models import IdempotencyKey, ToolCallLog
from tool_runtime.rows import (
    AnyOf,
    Scalar,
    any_of_sql,
    insert_rows,
    one_row,
    one_row_beside,
    supports_any_of,
    values_where,
)

# The reads find workflows, keys and products of the demo catalog.
CATALOG = pytest.mark.usefixtures("demo_catalog")


# --- reads -------------------------------------------------------------------------------------


def field_values(instance: Model) -> dict[str, object]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def assert_read_as_the_orm_reads(read: Model | None, expected: Model) -> None:
    assert read is not None and type(read) is type(expected)
    got, want = field_values(read), field_values(expected)
    assert got == want
    # Equal is not enough: a raw "1" or a naive datetime can compare equal to nothing else but
    # would break its users, so the Python types must be the ORM's too.
    assert {k: type(v) for k, v in got.items()} == {k: type(v) for k, v in want.items()}
    assert read._state.adding is False and read._state.db == expected._state.db


@CATALOG
def test_a_workflow_with_json_uuid_and_datetimes_reads_as_the_orm_reads(api, user):
    workflow_id = start(api)
    suggest(api, workflow_id)
    expected = WorkflowContext.objects.get(pk=workflow_id)
    assert expected.brief and expected.last_suggestions  # JSON fields with content

    read = one_row(WorkflowContext, id=uuid.UUID(workflow_id), owner=user.pk)

    assert_read_as_the_orm_reads(read, expected)
    assert read.updated_at.tzinfo is not None


@CATALOG
def test_an_idempotency_key_reads_as_the_orm_reads(api):
    draft_order(api)  # prepare_order stores its key, settled with its response
    key = IdempotencyKey.objects.get(tool="prepare_order")

    read = one_row(IdempotencyKey, principal=key.principal, tool=key.tool, key=key.key)

    assert_read_as_the_orm_reads(read, key)


@CATALOG
def test_no_matching_row_is_none(user, other_user, api):
    workflow_id = uuid.UUID(start(api))

    assert one_row(WorkflowContext, id=uuid.uuid4(), owner=user.pk) is None
    assert one_row(WorkflowContext, id=workflow_id, owner=other_user.pk) is None


@CATALOG
def test_a_row_beside_a_scalar_reads_as_the_orm_reads_and_keeps_the_scalar(api, user):
    workflow_id = start(api)
    suggest(api, workflow_id)
    expected = WorkflowContext.objects.get(pk=workflow_id)
    scalar = Scalar("SELECT COUNT(*) FROM gifts_product WHERE stock > %s", [-1])

    read, value = one_row_beside(WorkflowContext, scalar, id=uuid.UUID(workflow_id), owner=user.pk)

    assert_read_as_the_orm_reads(read, expected)
    assert value == Product.objects.count() > 0


@CATALOG
def test_no_row_beside_a_scalar_is_none_and_the_scalar_is_still_read(api, user, other_user):
    workflow_id = uuid.UUID(start(api))
    scalar = Scalar("SELECT %s", [7])

    assert one_row_beside(WorkflowContext, scalar, id=uuid.uuid4(), owner=user.pk) == (None, 7)
    assert one_row_beside(WorkflowContext, scalar, id=workflow_id, owner=other_user.pk) == (None, 7)


def _any_of_ids(ids) -> list[int]:
    where = f"{any_of_sql('{id}')} AND {{stock}} >= %s"
    rows = values_where(
        Product, fields=("id",), where=where, params=[("id", AnyOf(ids)), ("stock", 0)]
    )
    return [pid for (pid,) in rows]


@CATALOG
@pytest.mark.parametrize("size", [0, 1, 3, 130], ids=lambda n: f"{n} ids")
def test_any_of_matches_exactly_the_given_ids(size):
    assert supports_any_of()  # both test databases have the one-parameter form
    known = list(Product.objects.order_by("-id").values_list("id", flat=True)[:size])
    # Ids that name no product and a repeated id change nothing.
    asked = [*known, *known[:1], 10**12, -1]

    assert sorted(_any_of_ids(asked)) == sorted(known)
    assert len(known) == size


@CATALOG
@pytest.mark.parametrize("bad", ["1", 1.0, "1) OR (1=1", None], ids=repr)
def test_any_of_refuses_anything_but_integers_before_asking(bad, django_assert_num_queries):
    with django_assert_num_queries(0), pytest.raises(TypeError):
        _any_of_ids([1, bad])


# --- writes ------------------------------------------------------------------------------------


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
    with pytest.raises(TypeError, match="auto_now"):
        insert_rows(WorkflowContext, rows=[{"current_step": "brief"}])
