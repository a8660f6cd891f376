"""The workflow a tool call acts in, as the runtime sees it: an owned row with a current step.

Tools that take a `workflow_id` run inside one workflow; the executor reads it (with the loop
guard's count, in one statement), refuses another principal's, and gates the tool by the
workflow's step. What a workflow is, and how it is read, belongs to the layer that declares
the workflow tools: it registers a `WorkflowStore` here when its app is ready.
"""

from __future__ import annotations

import uuid
from typing import Any, Protocol

from tool_runtime.errors import ToolError
from tool_runtime.rows import Scalar


class Workflow(Protocol):
    pk: Any
    id: uuid.UUID
    current_step: str


class WorkflowStore(Protocol):
    def owned(self, *, owner_pk: object, workflow_id: uuid.UUID) -> Workflow | None:
        """The workflow if `owner_pk` owns it; another principal's is indistinguishable from
        none."""

    def owned_beside(
        self, *, owner_pk: object, workflow_id: uuid.UUID, scalar: Scalar
    ) -> tuple[Workflow | None, Any]:
        """`owned` and the value of `scalar`, in one statement."""

    def not_found(self, workflow_id: uuid.UUID) -> ToolError:
        """The NOT_FOUND error for a workflow this principal does not have."""


_store: WorkflowStore | None = None


def register_workflow_store(store: WorkflowStore) -> None:
    global _store
    _store = store


def workflow_store() -> WorkflowStore:
    if _store is None:
        raise RuntimeError("no workflow store is registered (the workflow app is not installed)")
    return _store
