"""tool_runtime.rows reads rows exactly as the ORM does (every field converted by the
backend's and the field's own converters), only through statements written once.
Run on SQLite and PostgreSQL: the converters differ per backend (UUIDs, JSON, booleans,
decimals and aware datetimes are the ones that would come back raw)."""

from __future__ import annotations

import uuid

import pytest
from django.db.models import Model

from gifts.models import Product, WorkflowContext
from tests.fixtures import draft_order, start, suggest
from tool_runtime.models import IdempotencyKey
from tool_runtime.rows import (
    AnyOf,
    Scalar,
    any_of_sql,
    one_row,
    one_row_beside,
    supports_any_of,
    values_where,
)

pytestmark = pytest.mark.usefixtures("demo_catalog")


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


def test_a_workflow_with_json_uuid_and_datetimes_reads_as_the_orm_reads(api, user):
    workflow_id = start(api)
    suggest(api, workflow_id)
    expected = WorkflowContext.objects.get(pk=workflow_id)
    assert expected.brief and expected.last_suggestions  # JSON fields with content

    read = one_row(WorkflowContext, id=uuid.UUID(workflow_id), owner=user.pk)

    assert_read_as_the_orm_reads(read, expected)
    assert read.updated_at.tzinfo is not None


def test_an_idempotency_key_reads_as_the_orm_reads(api):
    draft_order(api)  # prepare_order stores its key, settled with its response
    key = IdempotencyKey.objects.get(tool="prepare_order")

    read = one_row(IdempotencyKey, principal=key.principal, tool=key.tool, key=key.key)

    assert_read_as_the_orm_reads(read, key)


def test_no_matching_row_is_none(user, other_user, api):
    workflow_id = uuid.UUID(start(api))

    assert one_row(WorkflowContext, id=uuid.uuid4(), owner=user.pk) is None
    assert one_row(WorkflowContext, id=workflow_id, owner=other_user.pk) is None


def test_a_row_beside_a_scalar_reads_as_the_orm_reads_and_keeps_the_scalar(api, user):
    workflow_id = start(api)
    suggest(api, workflow_id)
    expected = WorkflowContext.objects.get(pk=workflow_id)
    scalar = Scalar("SELECT COUNT(*) FROM gifts_product WHERE stock > %s", [-1])

    read, value = one_row_beside(WorkflowContext, scalar, id=uuid.UUID(workflow_id), owner=user.pk)

    assert_read_as_the_orm_reads(read, expected)
    assert value == Product.objects.count() > 0


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


@pytest.mark.parametrize("size", [0, 1, 3, 130], ids=lambda n: f"{n} ids")
def test_any_of_matches_exactly_the_given_ids(size):
    assert supports_any_of()  # both test databases have the one-parameter form
    known = list(Product.objects.order_by("-id").values_list("id", flat=True)[:size])
    # Ids that name no product and a repeated id change nothing.
    asked = [*known, *known[:1], 10**12, -1]

    assert sorted(_any_of_ids(asked)) == sorted(known)
    assert len(known) == size


@pytest.mark.parametrize("bad", ["1", 1.0, "1) OR (1=1", None], ids=repr)
def test_any_of_refuses_anything_but_integers_before_asking(bad, django_assert_num_queries):
    with django_assert_num_queries(0), pytest.raises(TypeError):
        _any_of_ids([1, bad])
