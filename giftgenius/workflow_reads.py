"""The read every workflow tool call starts with: the caller's own workflow, by id (issue 12).

One fixed statement, written out once: the ORM spent about 0.4 ms building it on every call
(more than a third of a whole get_workflow), while running it costs a tenth of that. The
selected product is not joined: only prepare_order reads it, and it loads it when it does.
Rows still come back as model instances with every field converted (Manager.raw).
"""

from __future__ import annotations

import uuid
from functools import cache

from django.db import connection

from giftgenius.models import WorkflowContext


@cache
def _statement(vendor: str) -> str:
    del vendor  # cached per database vendor: the quoting is the connection's
    meta = WorkflowContext._meta
    q = connection.ops.quote_name
    columns = ", ".join(q(field.column) for field in meta.concrete_fields)
    owner = q(meta.get_field("owner").column)
    return (
        f"SELECT {columns} FROM {q(meta.db_table)}"  # noqa: S608 (names from the model)
        f" WHERE {q(meta.pk.column)} = %s AND {owner} = %s"
    )


def owned_workflow(*, owner_pk: object, workflow_id: uuid.UUID) -> WorkflowContext | None:
    """The workflow if `owner_pk` owns it; another principal's is indistinguishable from none."""
    params = [WorkflowContext._meta.pk.get_db_prep_value(workflow_id, connection), owner_pk]
    found = list(WorkflowContext.objects.raw(_statement(connection.vendor), params))
    return found[0] if found else None
