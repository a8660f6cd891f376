"""Builders for checkout states, driven through the real tools (the `api` fixture's ToolClient).

    order_id = paid_order(api)                      # a completed, charged order
    draft = draft_order(api)                        # prepared (stock held), not committed

Both return a `PlacedOrder` with the ids and the raw tool responses. They need the demo catalog
(`demo_catalog` fixture) and, because the payment simulator keeps its own books, tests that use
them need `@pytest.mark.django_db(databases=["default", "payment_ledger"])`.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from tests.helpers import workflow_with_gift

SHIPPING = {
    "name": "Ada Lovelace",
    "line1": "12 Market Street",
    "city": "Springfield",
    "postal_code": "62701",
    "country": "US",
}


@dataclass
class PlacedOrder:
    workflow_id: str
    order_id: str
    product_id: int
    prepared: Any  # ToolResponse of prepare_order
    committed: Any = None  # ToolResponse of commit_order (None for a draft)

    @property
    def confirmation_token(self) -> str:
        return self.prepared.body["_meta"]["confirmation_token"]


def draft_order(api, *, payment_method_id: str = "pm_card_visa") -> PlacedOrder:
    """start_gift_workflow → suggest_gifts → select_gift → prepare_order (stock held)."""
    workflow_id, product_id = workflow_with_gift(api)
    prepared = api.call(
        "prepare_order",
        {
            "workflow_id": workflow_id,
            "payment_method_id": payment_method_id,
            "shipping": SHIPPING,
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    assert prepared.status == 200, prepared.body
    return PlacedOrder(workflow_id, prepared.body["order_id"], product_id, prepared)


def commit(api, order: PlacedOrder) -> Any:
    """The person's click on "Confirm purchase": commit_order with the widget-only token."""
    return api.call(
        "commit_order",
        {
            "workflow_id": order.workflow_id,
            "order_id": order.order_id,
            "confirmation_token": order.confirmation_token,
            "idempotency_key": str(uuid.uuid4()),
        },
    )


def paid_order(api, *, payment_method_id: str = "pm_card_visa") -> PlacedOrder:
    """A completed order whose card was charged (pm_card_visa succeeds at once)."""
    order = draft_order(api, payment_method_id=payment_method_id)
    order.committed = commit(api, order)
    assert order.committed.status == 200, order.committed.body
    assert order.committed.body["status"] == "completed", order.committed.body
    return order
