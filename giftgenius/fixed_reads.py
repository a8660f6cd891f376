"""Rows by fixed columns, through statements written out once (issue 12).

For the reads on every tool call's path (the caller's workflow, an idempotency key, the live
stock of the products a view shows): the ORM
spent about 0.4 ms building such a query on every call, more than running it costs. Rows still
come back as model instances with every field converted (Manager.raw), and values are prepared
by the fields themselves, so this stays the ORM's reading of the row, only cheaper to ask for.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model

M = TypeVar("M", bound=Model)


@cache
def _statement(model: type[Model], columns: tuple[str, ...], vendor: str) -> str:
    del vendor  # cached per database vendor: the quoting is the connection's
    meta = model._meta
    q = connection.ops.quote_name
    selected = ", ".join(q(field.column) for field in meta.concrete_fields)
    where = " AND ".join(f"{q(meta.get_field(name).column)} = %s" for name in columns)
    return f"SELECT {selected} FROM {q(meta.db_table)} WHERE {where}"  # noqa: S608 (model names)


def one_row(model: type[M], **equal: Any) -> M | None:
    """The row whose fields equal `equal` (a unique or primary key), or None."""
    meta = model._meta
    params = [meta.get_field(name).get_db_prep_value(v, connection) for name, v in equal.items()]
    statement = _statement(model, tuple(equal), connection.vendor)
    found = list(model.objects.raw(statement, params))
    return found[0] if found else None


@cache
def _in_statement(model: type[Model], fields: tuple[str, ...], count: int, vendor: str) -> str:
    del vendor
    meta = model._meta
    q = connection.ops.quote_name
    selected = ", ".join(q(meta.get_field(name).column) for name in (meta.pk.name, *fields))
    marks = ", ".join(["%s"] * count)
    return f"SELECT {selected} FROM {q(meta.db_table)} WHERE {q(meta.pk.column)} IN ({marks})"  # noqa: S608


def rows_by_pk(model: type[M], *, pks: list[Any], fields: tuple[str, ...]) -> list[M]:
    """The rows with these primary keys, only `fields` loaded (any other field is deferred)."""
    if not pks:
        return []
    meta = model._meta
    params = [meta.pk.get_db_prep_value(pk, connection) for pk in pks]
    statement = _in_statement(model, fields, len(params), connection.vendor)
    return list(model.objects.raw(statement, params))
