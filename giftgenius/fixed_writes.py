"""Writes on every call's path, through statements written out once (issue 12).

`update_where`: `suggest_gifts` records its ideas with one UPDATE guarded by the row as it was
read (see services.record_ideas); building it with the ORM cost ~0.5 ms per call, several
times running it. `insert_rows`: the call log's rows (giftgenius.call_log); `bulk_create` of a
batch of 50 took 5.5 ms on PostgreSQL (it sends each column as an array, which psycopg dumps in
Python) and 3.2 ms on SQLite, this 2.7 and 1.3 ms.

Values are prepared by the fields themselves (`get_db_prep_save` for what is set,
`get_db_prep_value` for what is matched, as the ORM's compilers do), so rows are written and
matched exactly as the ORM would.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import transaction
from django.db.models import Model

from giftgenius.fixed_reads import default_db


@cache
def _statement(
    model: type[Model], assigned: tuple[str, ...], matched: tuple[str, ...], vendor: str
) -> str:
    del vendor  # cached per database vendor: the quoting is the connection's
    meta = model._meta
    q = default_db().ops.quote_name
    sets = ", ".join(f"{q(meta.get_field(name).column)} = %s" for name in assigned)
    where = " AND ".join(f"{q(meta.get_field(name).column)} = %s" for name in matched)
    return f"UPDATE {q(meta.db_table)} SET {sets} WHERE {where}"  # noqa: S608 (model names)


def update_where(model: type[Model], *, where: dict[str, Any], values: dict[str, Any]) -> int:
    """Set `values` on the rows whose fields equal `where`; returns how many rows changed."""
    db = default_db()
    meta = model._meta
    params = [meta.get_field(name).get_db_prep_save(v, db) for name, v in values.items()]
    params += [meta.get_field(name).get_db_prep_value(v, db) for name, v in where.items()]
    statement = _statement(model, tuple(values), tuple(where), db.vendor)
    with db.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.rowcount


@cache
def _insert(model: type[Model], vendor: str) -> tuple[tuple[Any, ...], str]:
    """The fields an insert sets (all but an auto primary key) and its one-row statement."""
    del vendor  # cached per database vendor: the quoting is the connection's
    meta = model._meta
    q = default_db().ops.quote_name
    fields = tuple(f for f in meta.concrete_fields if not (f.primary_key and f.db_returning))
    if any(getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False) for f in fields):
        raise TypeError(f"{model.__name__}: insert_rows does not run pre_save (auto_now)")
    columns = ", ".join(q(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return fields, f"INSERT INTO {q(meta.db_table)} ({columns}) VALUES ({marks})"  # noqa: S608


def insert_rows(model: type[Model], *, rows: Sequence[dict[str, Any]]) -> None:
    """Insert `rows`, each a dict of field names to values (a field left out gets its default),
    all or none: one statement run for every row, in one transaction (psycopg sends the rows
    together; SQLite had committed each row on its own, 2.0 against 1.3 ms for 50)."""
    if not rows:
        return
    db = default_db()
    fields, statement = _insert(model, db.vendor)
    params = [
        [f.get_db_prep_save(row[f.name] if f.name in row else f.get_default(), db) for f in fields]
        for row in rows
    ]
    if len(params) == 1:
        with db.cursor() as cursor:
            cursor.execute(statement, params[0])
        return
    with transaction.atomic(using=db.alias), db.cursor() as cursor:
        cursor.executemany(statement, params)
