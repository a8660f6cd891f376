"""Reads and writes of rows by fixed columns, through statements written out once.

For the reads on every tool call's path (the caller's workflow, an idempotency key, the live
stock of the products a view shows or a brief names): the ORM spent about 0.4 ms building such
a query on every call, more than running it costs, and `Manager.raw` still spent ~0.12 ms per
read resolving columns and converters. Here the statement, the loaded fields and each field's
converters (the backend's and the field's own, as the ORM's compiler applies them) are looked
up once per model and vendor; values are prepared by the fields and come back converted, as
values or as model instances (`Model.from_db`), so this stays the ORM's reading of the row,
only cheaper to ask for.

Writes on the same path: `update_where`, the one conditional UPDATE with which `suggest_gifts`
records its ideas (the ORM spent ~0.5 ms building it, several times running it), and
`insert_rows`, the call log's batches (`bulk_create` of 50 rows took 5.5 ms on PostgreSQL and
3.2 ms on SQLite, this 2.7 and 1.3 ms). Values are prepared by the fields themselves
(`get_db_prep_save` for what is set, `get_db_prep_value` for what is matched), as the ORM's
compilers do.

Each read resolves the thread's connection once (`django.db.connection` is a proxy that looks
it up again on every attribute: preparing the ~130 ids of a `suggest_gifts` candidate read
through it cost more than running the statement).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, TypeVar

import orjson
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class _Reader:
    """A fixed statement and how to convert its rows: to values, or to `model` instances."""

    model: type[Model]
    statement: str
    attnames: tuple[str, ...]
    # (column index, converters, the column expression they expect), only where there are any
    converters: tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]

    def values(self, db: BaseDatabaseWrapper, params: Sequence[Any]) -> list[list[Any]]:
        """Each row's values, converted, in the order of `attnames`."""
        with db.cursor() as cursor:
            cursor.execute(self.statement, params)
            fetched = cursor.fetchall()
        found = []
        for row in fetched:
            values = list(row)
            for index, converters, column in self.converters:
                for convert in converters:
                    values[index] = convert(values[index], column, db)
            found.append(values)
        return found

    def rows(self, db: BaseDatabaseWrapper, params: Sequence[Any]) -> list[Any]:
        return [self.model.from_db(db.alias, self.attnames, v) for v in self.values(db, params)]


def default_db() -> BaseDatabaseWrapper:
    """This thread's connection to the default database, the object itself (not the proxy)."""
    return connections[DEFAULT_DB_ALIAS]


def _converters(
    db: BaseDatabaseWrapper, model: type[Model], fields: Sequence[Any], *, first: int = 0
) -> tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]:
    """Each field's converters, for the column at its position plus `first`."""
    found = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        converters = (*db.ops.get_db_converters(column), *column.get_db_converters(db))
        if converters:
            found.append((index + first, converters, column))
    return tuple(found)


def _reader(
    db: BaseDatabaseWrapper, model: type[Model], fields: Sequence[Any], where: str
) -> _Reader:
    """`fields` in the model's concrete order for `rows` (Model.from_db defers any other by
    position); any order for `values`."""
    meta = model._meta
    q = db.ops.quote_name
    selected = ", ".join(q(field.column) for field in fields)
    return _Reader(
        model=model,
        statement=f"SELECT {selected} FROM {q(meta.db_table)} WHERE {where}",  # noqa: S608
        attnames=tuple(field.attname for field in fields),
        converters=_converters(db, model, fields),
    )


# The readers below are cached per database vendor (the quoting and converters are the
# connection's, and the same for every connection of a vendor); `db` only builds a missing one.


@cache
def _equal_reader(model: type[Model], columns: tuple[str, ...], vendor: str) -> _Reader:
    db = default_db()
    meta = model._meta
    q = db.ops.quote_name
    where = " AND ".join(f"{q(meta.get_field(name).column)} = %s" for name in columns)
    return _reader(db, model, meta.concrete_fields, where)


def one_row(model: type[M], **equal: Any) -> M | None:
    """The row whose fields equal `equal` (a unique or primary key), or None."""
    db = default_db()
    meta = model._meta
    params = [meta.get_field(name).get_db_prep_value(v, db) for name, v in equal.items()]
    found = _equal_reader(model, tuple(equal), db.vendor).rows(db, params)
    return found[0] if found else None


@dataclass(frozen=True)
class Scalar:
    """A scalar subquery (`sql`, a fixed statement, and its `params`) read beside a row."""

    sql: str
    params: Sequence[Any]


@cache
def _beside_reader(
    model: type[Model], columns: tuple[str, ...], scalar_sql: str, vendor: str
) -> _Reader:
    db = default_db()
    meta = model._meta
    q = db.ops.quote_name
    table = q(meta.db_table)
    fields = meta.concrete_fields
    selected = ", ".join(f"{table}.{q(field.column)}" for field in fields)
    on = " AND ".join(f"{table}.{q(meta.get_field(name).column)} = %s" for name in columns)
    # One row always: the scalar first, then the row's columns (NULL when there is no row).
    statement = (
        f"SELECT ({scalar_sql}), {selected} FROM (SELECT 1) AS {q('one')}"  # noqa: S608
        f" LEFT JOIN {table} ON {on}"
    )
    attnames = tuple(field.attname for field in fields)
    return _Reader(model, statement, attnames, _converters(db, model, fields, first=1))


def one_row_beside(model: type[M], scalar: Scalar, **equal: Any) -> tuple[M | None, Any]:
    """`one_row(model, **equal)` and the value of `scalar`, in one statement (one round trip
    instead of two, on the path of every call; the scalar is read whether the row exists or
    not)."""
    db = default_db()
    meta = model._meta
    keys = [meta.get_field(name).get_db_prep_value(v, db) for name, v in equal.items()]
    reader = _beside_reader(model, tuple(equal), scalar.sql, db.vendor)
    ((value, *columns),) = reader.values(db, [*scalar.params, *keys])
    if columns[reader.attnames.index(meta.pk.attname)] is None:
        return None, value
    return model.from_db(db.alias, reader.attnames, columns), value


@lru_cache(maxsize=256)
def _where_reader(model: type[Model], fields: tuple[str, ...], where: str, vendor: str) -> _Reader:
    db = default_db()
    meta = model._meta
    q = db.ops.quote_name
    columns = {field.name: q(field.column) for field in meta.concrete_fields}
    return _reader(db, model, [meta.get_field(name) for name in fields], where.format(**columns))


@dataclass(frozen=True)
class AnyOf:
    """A parameter of `values_where` standing for a set of integers (ids), as one value where
    the SQL says `any_of_sql(...)`: PostgreSQL gets them as one array literal in text, cast on
    the server, and SQLite as one JSON array (`json_each`), both read as a subquery (on
    PostgreSQL a hashed one: `= ANY(%s)` compared each row with every id). A list of ~130
    `IN (%s, …)` parameters cost more to prepare, to bind and, once prepared on PostgreSQL, to
    execute (1.27 ms there, against 0.35 ms as one array) than the rest of the read; a Python
    list as the array cost ~0.1 ms more than its text (psycopg dumps a list element by element,
    and each id had also gone through the field's preparation, which an integer does not need)."""

    values: Sequence[int]


def _pg_array(ids: list[int]) -> str:
    return "{" + ",".join(map(str, ids)) + "}"


# Per vendor: the SQL of "column is one of the set", and how the integers become its parameter.
_ANY_OF: dict[str, tuple[str, Callable[[list[int]], str]]] = {
    "postgresql": ("{column} IN (SELECT unnest(%s::int8[]))", _pg_array),
    "sqlite": ("{column} IN (SELECT value FROM json_each(%s))", lambda v: orjson.dumps(v).decode()),
}


def supports_any_of() -> bool:
    return default_db().vendor in _ANY_OF


def any_of_sql(column: str) -> str:
    """SQL for `column` being one of an `AnyOf` parameter's values (see supports_any_of)."""
    return _ANY_OF[default_db().vendor][0].format(column=column)


def values_where(
    model: type[M],
    *,
    fields: tuple[str, ...],
    where: str,
    params: Sequence[tuple[str, Any]],
) -> list[list[Any]]:
    """The converted values of `fields` of the rows matching `where`, SQL in which `{name}`
    stands for a field's column and each `%s` for one of `params`: (field name, value) pairs,
    prepared by that field (an `AnyOf`'s integers are packed into one parameter). Each distinct
    `where` is one cached statement, so keep their number small (a set of ids goes in one
    `AnyOf`)."""
    db = default_db()
    meta = model._meta
    preparers: dict[str, Callable[..., Any]] = {}
    prepared = []
    for name, value in params:
        prepare = preparers.get(name)
        if prepare is None:
            prepare = preparers[name] = meta.get_field(name).get_db_prep_value
        if isinstance(value, AnyOf):
            # operator.index: integers only (a str or a float is refused, never interpolated).
            prepared.append(_ANY_OF[db.vendor][1](list(map(operator.index, value.values))))
        else:
            prepared.append(prepare(value, db))
    return _where_reader(model, fields, where, db.vendor).values(db, prepared)


# --- writes -------------------------------------------------------------------------------------


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
