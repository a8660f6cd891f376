"""What a layer above the gift domain attaches to the workflow: the domain calls these hooks and
never imports the layer that fills them.

Checkout attaches its orders. A workflow at checkout (or past it) has an order; leaving
checkout for an earlier step must give that order's stock back first, or refuse while it is
being paid. With no checkout installed, a workflow has no order and leaving checkout frees
nothing.
"""

from __future__ import annotations

import uuid
from typing import Protocol

from gifts.models import WorkflowContext


class CheckoutHooks(Protocol):
    def order_id(self, *, workflow: WorkflowContext) -> uuid.UUID | None:
        """The workflow's current order, if it has one."""

    def leave_checkout(self, *, workflow: WorkflowContext) -> list[str]:
        """Release what the workflow's checkout holds, called with the workflow row locked;
        returns what that invalidated (for the model), or raises a ToolError to refuse."""


class _NoCheckout:
    def order_id(self, *, workflow: WorkflowContext) -> uuid.UUID | None:
        return None

    def leave_checkout(self, *, workflow: WorkflowContext) -> list[str]:
        return []


_checkout: CheckoutHooks = _NoCheckout()


def attach_checkout(hooks: CheckoutHooks) -> None:
    global _checkout
    _checkout = hooks


def checkout() -> CheckoutHooks:
    return _checkout
