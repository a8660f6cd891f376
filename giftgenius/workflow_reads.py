"""The read every workflow tool call starts with: the caller's own workflow, by id (issue 12).

A fixed statement (giftgenius.fixed_reads). The selected product is not joined: only
prepare_order reads it, and it loads it when it does. The executor reads the loop guard's count
beside it, in the same statement (`owned_workflow_beside`).
"""

from __future__ import annotations

import uuid
from typing import Any

from giftgenius.fixed_reads import Scalar, one_row, one_row_beside
from giftgenius.models import WorkflowContext


def owned_workflow(*, owner_pk: object, workflow_id: uuid.UUID) -> WorkflowContext | None:
    """The workflow if `owner_pk` owns it; another principal's is indistinguishable from none."""
    return one_row(WorkflowContext, id=workflow_id, owner=owner_pk)


def owned_workflow_beside(
    *, owner_pk: object, workflow_id: uuid.UUID, scalar: Scalar
) -> tuple[WorkflowContext | None, Any]:
    """`owned_workflow` and the value of `scalar`, in one statement."""
    return one_row_beside(WorkflowContext, scalar, id=workflow_id, owner=owner_pk)
