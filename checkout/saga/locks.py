"""The workflow row lock: the lock that serialises a person's actions on one checkout.

do_prepare_order (replacing the draft), a step back (releasing it) and a commit's claim
(starting to pay it) each take it first, so an order can only start being paid while it is the
workflow's draft, and the draft is never replaced or released while an order of the workflow is
being paid.

Lock order everywhere in checkout: the workflow row, then the order row, then stock rows. It is
a database row lock (select_for_update), so it lasts until the transaction that took it ends:
no caller may hold it across a payment-provider call.
"""

from __future__ import annotations

from checkout import selectors
from gifts.models import WorkflowContext


def lock_workflow(workflow_id: object, *, with_order: bool = False) -> WorkflowContext | None:
    """Lock the workflow row (select_for_update) until the caller's transaction ends;
    `with_order` reads its newest order's id in the same statement. Call inside
    transaction.atomic(). None for an order without a workflow."""
    if workflow_id is None:
        return None
    rows = WorkflowContext.objects.select_for_update()
    if with_order:
        rows = rows.annotate(newest_order_id=selectors.newest_order_id())
    return rows.filter(pk=workflow_id).first()
