"""Reads the widget needs to redraw a step the tool result does not spell out (e.g. after Back).

Callers pass ids taken from a tool outcome the executor has already authorised for its
principal, so these reads do not re-check ownership.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from giftgenius.catalog import image_url
from giftgenius.models import Product, WorkflowContext


@dataclass(frozen=True)
class WorkflowView:
    id: UUID
    current_step: str
    brief: dict[str, Any]
    offered: list[dict[str, Any]]
    selected: dict[str, Any] | None


def product_card(product: Product) -> dict[str, Any]:
    return {
        "product_id": product.pk,
        "sku": product.sku,
        "name": product.name,
        "description": product.description,
        "price": str(product.price),
        "currency": product.currency,
        "category": product.category,
        "tags": list(product.tags),
        "in_stock": product.in_stock,
        "image": image_url(product.image),
        "image_width": product.image_width,
        "image_height": product.image_height,
        "image_alt": product.image_alt,
        "match_reasons": [],
    }


def _workflow(workflow_id: Any, loaded: WorkflowContext | None) -> WorkflowContext | None:
    """`loaded` is the workflow as the tool just left it (ToolOutcome.workflow): no second read."""
    try:
        key = UUID(str(workflow_id))
    except ValueError:
        return None
    if loaded is not None and loaded.pk == key:
        return loaded
    return WorkflowContext.objects.select_related("selected_product").filter(pk=key).first()


def workflow_brief(workflow_id: Any, *, loaded: WorkflowContext | None = None) -> dict[str, Any]:
    """The brief suggest_gifts recorded ({} for none or an unknown workflow)."""
    workflow = _workflow(workflow_id, loaded)
    return dict(workflow.brief or {}) if workflow else {}


def workflow_view(
    workflow_id: Any, *, loaded: WorkflowContext | None = None
) -> WorkflowView | None:
    workflow = _workflow(workflow_id, loaded)
    if workflow is None:
        return None
    ids = [pid for pid in workflow.last_suggestions if isinstance(pid, int)]
    by_id = {p.pk: p for p in Product.objects.filter(pk__in=ids, active=True)} if ids else {}
    offered = [product_card(by_id[pid]) for pid in ids if pid in by_id]
    selected = product_card(workflow.selected_product) if workflow.selected_product_id else None
    return WorkflowView(
        workflow.pk, workflow.current_step, dict(workflow.brief or {}), offered, selected
    )


def order_gift(order_id: Any) -> dict[str, Any] | None:
    """The first line of an order as a product card (its name as ordered), or None."""
    from checkout.models import OrderLine

    try:
        key = UUID(str(order_id))
    except ValueError:
        return None
    line = OrderLine.objects.select_related("product").filter(order_id=key).order_by("id").first()
    return {**product_card(line.product), "name": line.name} if line else None
