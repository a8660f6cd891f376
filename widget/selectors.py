"""Reads the widget needs to redraw a step the tool result does not spell out (e.g. after Back).

Callers pass ids taken from a tool outcome the executor has already authorised for its
principal, so these reads do not re-check ownership.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.utils import translation

from checkout import selectors as checkout_selectors
from checkout.payments.methods import offered_payment_methods
from gifts import catalog
from gifts.catalog import CatalogItem
from gifts.models import WorkflowContext


@dataclass(frozen=True)
class WorkflowView:
    id: UUID
    current_step: str
    brief: dict[str, Any]
    offered: list[dict[str, Any]]
    selected: dict[str, Any] | None


def product_card(item: CatalogItem) -> dict[str, Any]:
    """In the active language (the catalog's own text where it has no translation)."""
    language = translation.get_language() or "en"
    return {**catalog.localized_fields(item, language=language), "match_reasons": []}


def _workflow(workflow_id: Any, loaded: WorkflowContext | None) -> WorkflowContext | None:
    """`loaded` is the workflow as the tool just left it (ToolOutcome.workflow): no second read."""
    try:
        key = UUID(str(workflow_id))
    except ValueError:
        return None
    if loaded is not None and loaded.pk == key:
        return loaded
    return WorkflowContext.objects.filter(pk=key).first()


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
    selected_id = workflow.selected_product_id
    # One query for what was offered and what was selected: live stock, details from the cache.
    by_id = catalog.items_by_id([*ids, *([selected_id] if selected_id else [])])
    # One card per family: the variants offered beside an idea are not ideas of their own.
    families: set[str] = set()
    offered = []
    for pid in ids:
        item = by_id.get(pid)
        if item is not None and item.active and item.family_key not in families:
            families.add(item.family_key)
            offered.append(product_card(item))
    selected = product_card(by_id[selected_id]) if selected_id in by_id else None
    return WorkflowView(
        workflow.pk, workflow.current_step, dict(workflow.brief or {}), offered, selected
    )


SHIPPING_FIELDS = ("name", "line1", "city", "postal_code", "country")


def last_shipping(*, workflow_id: Any) -> dict[str, str] | None:
    """The address the person last entered in this workflow, as the checkout form's fields."""
    try:
        key = UUID(str(workflow_id))
    except ValueError:
        return None
    shipping = checkout_selectors.last_shipping(workflow_id=key)
    if shipping is None:
        return None
    return {k: str(shipping.get(k) or "") for k in SHIPPING_FIELDS}


def order_gift(order_id: Any) -> dict[str, Any] | None:
    """The first line of an order as a product card (its name as ordered), or None."""
    try:
        key = UUID(str(order_id))
    except ValueError:
        return None
    line = checkout_selectors.first_line(order_id=key)
    if line is None:
        return None
    card = product_card(catalog.item_of(line.product))
    return {**card, "name": line.name, "max_per_order": line.product.max_per_order}


def payment_methods() -> list[dict[str, str]]:
    """The payment methods offered, as get_payment_methods lists them, for the checkout form
    drawn again after a refused prepare_order (whose outcome lists none). The caller is not
    known here, so with a provider that keeps each person's saved cards, none are listed."""
    return [
        {"id": m.id, "label": m.label, "description": m.description}
        for m in offered_payment_methods(user=None)
    ]


def order_fulfilment(order_id: Any) -> dict[str, Any] | None:
    """Where an order's gift is (status, delivery window, tracking), or None."""
    try:
        key = UUID(str(order_id))
    except ValueError:
        return None
    return checkout_selectors.fulfilment_of(order_id=key)


@dataclass(frozen=True)
class PaymentAttempt:
    """What a payment screen keeps on show around a failed or waiting payment."""

    gift_name: str
    quantity: int
    amount: Any
    currency: str
    shipping: dict[str, str]
    card_label: str
    held_until: Any  # when the order's live stock hold lapses; None when nothing is held


def payment_attempt(order_id: Any) -> PaymentAttempt | None:
    """The order a payment was for: its gift, total, address and card, and its stock hold."""
    try:
        key = UUID(str(order_id))
    except ValueError:
        return None
    order = checkout_selectors.order_with_holds(order_id=key)
    if order is None:
        return None
    line = next(iter(order.lines.all()), None)
    holds = [r.expires_at for r in order.reservations.all() if r.status == "held"]
    return PaymentAttempt(
        gift_name=line.name if line else "",
        quantity=line.quantity if line else 1,
        amount=order.amount,
        currency=order.currency,
        shipping={k: str(order.shipping.get(k) or "") for k in SHIPPING_FIELDS},
        card_label=checkout_selectors.payment_method_ref(order)["label"],
        held_until=min(holds) if holds else None,
    )
