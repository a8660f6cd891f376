"""A conditional UPDATE by fixed columns, through a statement written out once (issue 12).

`suggest_gifts` records its ideas with one UPDATE guarded by the row as it was read (see
services.record_ideas); building it with the ORM cost ~0.5 ms per call, several times running
it. Values are prepared by the fields themselves (`get_db_prep_save` for what is set,
`get_db_prep_value` for what is matched, as the ORM's update compiler does), so the row is
written and matched exactly as `QuerySet.filter(...).update(...)` would.
"""

from __future__ import annotations

from functools import cache
from typing import Any

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
