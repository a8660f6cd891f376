"""The read every workflow tool call starts with: the caller's own workflow, by id (issue 12).

A fixed statement (giftgenius.fixed_reads). The selected product is not joined: only
prepare_order reads it, and it loads it when it does.
"""

from __future__ import annotations

import uuid

from giftgenius.fixed_reads import one_row
from giftgenius.models import WorkflowContext


def owned_workflow(*, owner_pk: object, workflow_id: uuid.UUID) -> WorkflowContext | None:
    """The workflow if `owner_pk` owns it; another principal's is indistinguishable from none."""
    return one_row(WorkflowContext, id=workflow_id, owner=owner_pk)
