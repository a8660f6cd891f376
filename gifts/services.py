"""Writes to the gift workflow. Every step change goes through gifts.workflow."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from gifts import hooks
from gifts import workflow as steps
from gifts.models import Product, Step, WorkflowContext
from tool_runtime.errors import ToolError
from tool_runtime.registry import step_gate_error
from tool_runtime.rows import update_where


def start_workflow(*, owner: AbstractBaseUser) -> WorkflowContext:
    return WorkflowContext.objects.create(
        owner=owner, current_step=Step.BRIEF, visited_steps=[Step.BRIEF]
    )


def record_ideas(
    *, workflow: WorkflowContext, brief: dict, product_ids: list[int]
) -> WorkflowContext:
    """Remember the brief and what was offered; a new brief replaces an earlier selection.

    `workflow` is the row as this call read it (changed in place). One conditional UPDATE (a
    fixed statement, tool_runtime.rows) applies the change if the row is still as read
    (same step, same updated_at); after a concurrent change it locks the row and applies the
    change to what is there now. A "Regenerate" that finds the ideas the workflow
    already shows, for the same brief, changes nothing and writes nothing: the call takes
    effect where it read the row, as if it had run just before any change made since.
    """
    read_step, read_at = workflow.current_step, workflow.updated_at
    as_read = _ideas_state(workflow)
    _with_ideas(workflow, brief=brief, product_ids=product_ids)
    if _ideas_state(workflow) == as_read:
        return workflow
    workflow.updated_at = timezone.now()
    changed = update_where(
        WorkflowContext,
        where={"id": workflow.pk, "current_step": read_step, "updated_at": read_at},
        values={
            "current_step": workflow.current_step,
            "visited_steps": workflow.visited_steps,
            "brief": workflow.brief,
            "last_suggestions": workflow.last_suggestions,
            "selected_product": workflow.selected_product_id,
            "updated_at": workflow.updated_at,
        },
    )
    if changed:
        return workflow
    with transaction.atomic():
        locked = WorkflowContext.objects.select_for_update().get(pk=workflow.pk)
        _refuse_after_gift_search(locked, tool="suggest_gifts")
        _with_ideas(locked, brief=brief, product_ids=product_ids)
        locked.save(
            update_fields=[
                "current_step",
                "visited_steps",
                "brief",
                "last_suggestions",
                "selected_product",
                "updated_at",
            ]
        )
    return locked


def _ideas_state(workflow: WorkflowContext) -> tuple:
    """What recording ideas may change, as values (copies: _with_ideas replaces them)."""
    return (
        workflow.current_step,
        list(workflow.visited_steps),
        dict(workflow.brief or {}),
        list(workflow.last_suggestions),
        workflow.selected_product_id,
    )


def _refuse_after_gift_search(workflow: WorkflowContext, *, tool: str) -> None:
    """The call passed its step gate on the row as it read it; the row, locked now, may have
    moved on to checkout meanwhile, and then gift ideas must not overwrite what it holds."""
    if workflow.current_step not in steps.BEFORE_CHECKOUT:
        raise step_gate_error(
            tool=tool, allowed_steps=steps.BEFORE_CHECKOUT, current_step=workflow.current_step
        )


def _with_ideas(
    workflow: WorkflowContext, *, brief: dict, product_ids: list[int]
) -> WorkflowContext:
    if workflow.current_step == Step.BRIEF:
        steps.move(workflow, Step.IDEAS)
    elif workflow.current_step == Step.GIFT_SELECTED:
        steps.move(workflow, Step.IDEAS)
        workflow.selected_product = None
    workflow.brief = brief
    workflow.last_suggestions = product_ids
    return workflow


def record_search_results(*, workflow: WorkflowContext, product_ids: list[int]) -> WorkflowContext:
    """Search results join what may be selected (suggestions stay selectable too)."""
    with transaction.atomic():
        locked = WorkflowContext.objects.select_for_update().get(pk=workflow.pk)
        _refuse_after_gift_search(locked, tool="search_products")
        if locked.current_step == Step.BRIEF:
            steps.move(locked, Step.IDEAS)
        offered = list(dict.fromkeys([*locked.last_suggestions, *product_ids]))
        locked.last_suggestions = offered
        locked.save(
            update_fields=["current_step", "visited_steps", "last_suggestions", "updated_at"]
        )
    return locked


@dataclass(frozen=True)
class Selection:
    workflow: WorkflowContext
    product: Product


def unknown_product_error(product_id: int) -> ToolError | None:
    """NOT_FOUND for an id no product has (an invented one), else None. No side effect:
    select_gift declares it as an input check, run with validation."""
    if Product.objects.filter(pk=product_id).exists():
        return None
    return ToolError(
        "NOT_FOUND",
        f"There is no product {product_id}: product ids come from this workflow's "
        "suggest_gifts or search_products results; never invent one.",
        field="product_id",
        expected="a product_id suggest_gifts or search_products returned for this workflow",
        next_actions=["get_workflow", "suggest_gifts", "search_products"],
    )


def select_gift(*, workflow: WorkflowContext, product_id: int) -> Selection:
    if product_id not in workflow.last_suggestions:
        raise ToolError(
            "PRODUCT_NOT_OFFERED",
            f"Product {product_id} was not among this workflow's suggestions or search results.",
            field="product_id",
            expected="a product_id returned by suggest_gifts or search_products for this workflow",
            allowed_values=list(workflow.last_suggestions)[:50],
            example=workflow.last_suggestions[0] if workflow.last_suggestions else None,
        )
    with transaction.atomic():
        locked = WorkflowContext.objects.select_for_update().get(pk=workflow.pk)
        product = Product.objects.filter(pk=product_id).first()
        if product is None or not product.active:
            raise ToolError(
                "PRODUCT_UNAVAILABLE",
                f"Product {product_id} has been discontinued. Choose another of the suggested gifts.",
                field="product_id",
                next_actions=["select_gift with another product_id", "suggest_gifts"],
            )
        if product.stock <= 0:
            raise ToolError(
                "OUT_OF_STOCK",
                f"Product {product_id} ({product.name}) is out of stock. Choose another of the suggested gifts.",
                field="product_id",
                next_actions=["select_gift with another product_id", "suggest_gifts"],
            )
        steps.move(locked, Step.GIFT_SELECTED)
        locked.selected_product = product
        locked.save(
            update_fields=["current_step", "visited_steps", "selected_product", "updated_at"]
        )
    return Selection(locked, product)


@dataclass(frozen=True)
class Navigation:
    workflow: WorkflowContext
    invalidated: list[str]


def navigate_back(*, workflow: WorkflowContext, step_id: str) -> Navigation:
    """Logical rollback to a visited step; going back from checkout releases the draft order."""
    if step_id == workflow.current_step:
        return Navigation(workflow, [])
    if not steps.can_go_back(workflow, step_id):
        raise ToolError(
            "STEP_NOT_VISITED",
            f"Cannot go back to '{step_id}' from '{workflow.current_step}': only earlier steps this "
            "workflow has visited are allowed.",
            field="step_id",
            expected="an earlier, visited step",
            allowed_values=steps.back_targets(workflow) or None,
            details={
                "current_step": workflow.current_step,
                "visited_steps": workflow.visited_steps,
            },
        )
    invalidated: list[str] = []
    with transaction.atomic():
        locked = WorkflowContext.objects.select_for_update().get(pk=workflow.pk)
        target_index = steps.ORDER.index(step_id)
        if locked.current_step == Step.CHECKOUT and target_index < steps.ORDER.index(Step.CHECKOUT):
            # Refuses (ORDER_IN_PROGRESS) while the order is being paid: the workflow keeps it.
            invalidated.extend(hooks.checkout().leave_checkout(workflow=locked))
        if locked.selected_product_id and target_index < steps.ORDER.index(Step.GIFT_SELECTED):
            invalidated.append(f"selected gift {locked.selected_product_id}")
            locked.selected_product = None
        if target_index < steps.ORDER.index(Step.IDEAS):
            if locked.last_suggestions:
                invalidated.append("gift suggestions")
            locked.last_suggestions = []
        locked.current_step = step_id
        # Steps after the target are no longer "visited": the person must pass them again.
        locked.visited_steps = [
            s for s in locked.visited_steps if s in steps.ORDER[: target_index + 1]
        ]
        locked.save()
    return Navigation(locked, invalidated)


class StockAdjustmentRefused(Exception):
    """Removing that many units would take stock below zero (what is left to reserve)."""

    def __init__(self, *, available: int, change: int) -> None:
        super().__init__(f"only {available} unit(s) available, cannot remove {-change}")
        self.available = available
        self.change = change


def adjust_stock(*, product_id: int, change: int) -> int:
    """Add (change > 0) or remove (change < 0) units of a product's stock; returns the new stock.

    `Product.stock` is what is left to reserve: a hold takes its units out of it with one
    conditional UPDATE (checkout.saga.draft.reserve_items) and a release adds them back. So staff
    never write a number they read earlier (that would undo every hold taken or released since):
    the change is applied to the row as it is now, `stock = stock + change`, in one UPDATE that
    matches only while at least the removed units are available, so units held by live
    reservations are never taken back. Raises StockAdjustmentRefused otherwise.
    """
    with transaction.atomic():
        changed = Product.objects.filter(pk=product_id, stock__gte=max(0, -change)).update(
            stock=F("stock") + change
        )
        stock = Product.objects.values_list("stock", flat=True).get(pk=product_id)
    if not changed:
        raise StockAdjustmentRefused(available=stock, change=change)
    return stock
