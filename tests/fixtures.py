"""Builders and checks shared by the tests (pytest's own fixtures are in tests/conftest.py).

Everything here drives the real tools through a `ToolClient` (the `api` fixture):

    workflow_id = start(api)                            # a new workflow at brief
    workflow_id, product_id = workflow_with_gift(api)   # ideas suggested, the first one chosen
    draft = draft_order(api)                            # prepared: stock held, not committed
    order = paid_order(api)                             # committed and charged

Checkout builders need the demo catalog (`demo_catalog` fixture) and, because the payment
simulator keeps its own books, `@pytest.mark.django_db(databases=BOTH_DATABASES)`.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Sum

from checkout.ledger import check_ledger
from checkout.models import Order, OrderStatus, Reservation, ReservationStatus, SimulatedCharge
from checkout.payments import config
from checkout.payments.provider import get_provider
from gifts import services as workflow_services
from gifts.models import Product, WorkflowContext
from tests.localstripe import SAVED_TEST_CARDS, saved_test_card

BOTH_DATABASES = ["default", "payment_ledger"]

BRIEF = {
    "relationship": "friend",
    "interests": ["coffee"],
    "budget_min": 10,
    "budget_max": 60,
    "currency": "USD",
    "age": 35,
}
SHIPPING = {
    "name": "Ada Lovelace",
    "line1": "12 Market Street",
    "city": "Springfield",
    "postal_code": "62701",
    "country": "US",
}
ALL_METHODS = (
    "pm_card_visa",
    "pm_card_declined",
    "pm_card_insufficient_funds",
    "pm_card_timeout_once",
    "pm_card_timeout_always",
    "pm_card_unavailable",
    "pm_card_lost_response",
    "pm_card_pending",
)


def new_key() -> str:
    return str(uuid.uuid4())


# --- the workflow ------------------------------------------------------------------------------


def start(api) -> str:
    response = api.call("start_gift_workflow", {})
    assert response.status == 200, response.body
    return response.body["workflow_id"]


def suggest(api, workflow_id: str, **overrides: Any):
    return api.call("suggest_gifts", {"workflow_id": workflow_id, **BRIEF, **overrides})


def workflow_with_gift(api) -> tuple[str, int]:
    """A workflow at gift_selected, with the first suggestion chosen."""
    workflow_id = start(api)
    gifts = suggest(api, workflow_id).body["gifts"]
    assert gifts, "the demo catalog should have coffee gifts between 10 and 60 USD"
    product_id = gifts[0]["product_id"]
    selected = api.call("select_gift", {"workflow_id": workflow_id, "product_id": product_id})
    assert selected.status == 200, selected.body
    return workflow_id, product_id


def make_product(*, sku: str = "GG-CHK-GRINDER", stock: int = 5, price: str = "30.00") -> Product:
    return Product.objects.create(
        sku=sku,
        name=f"Coffee grinder {sku}",
        description="A burr grinder for fresh coffee.",
        category="kitchen",
        tags=["coffee", "cooking"],
        price=Decimal(price),
        currency="USD",
        stock=stock,
    )


def priced_order(owner, status: str, amount: Decimal = Decimal("30.00"), **fields) -> Order:
    """An order of one line at `amount` with its total made up as checkout.pricing makes it
    (what check_ledger expects), made directly in the database."""
    order = Order.objects.create(
        owner=owner,
        status=status,
        amount=amount,
        items_total=amount,
        currency="USD",
        payment_method_id="pm_card_visa",
        **fields,
    )
    product, _ = Product.objects.get_or_create(
        sku="GG-LEDGER-1",
        defaults={"name": "Ledger mug", "description": "d", "category": "kitchen", "price": 1},
    )
    order.lines.create(
        product=product,
        sku=product.sku,
        name=product.name,
        unit_price=amount,
        quantity=1,
        line_total=amount,
    )
    return order


def gift_selected(api, product: Product) -> str:
    """A new workflow at gift_selected with `product` chosen (through the real tools)."""
    workflow_id = start(api)
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    workflow_services.record_search_results(workflow=workflow, product_ids=[product.pk])
    selected = api.call("select_gift", {"workflow_id": workflow_id, "product_id": product.pk})
    assert selected.status == 200, selected.body
    return workflow_id


# --- checkout ------------------------------------------------------------------------------------


def prepare(
    api, workflow_id: str, method: str = "pm_card_visa", *, key: str | None = None, **overrides
):
    """prepare_order. With Stripe, a simulator test card that has a Stripe twin stands for the
    person's saved copy of it (tests.localstripe.saved_test_card)."""
    if settings.PAYMENT_PROVIDER == config.STRIPE and method in SAVED_TEST_CARDS:
        method = saved_test_card(api, method)
    arguments = {
        "workflow_id": workflow_id,
        "payment_method_id": method,
        "shipping": SHIPPING,
        "idempotency_key": key or new_key(),
        **overrides,
    }
    return api.call("prepare_order", arguments)


def prepared(api, workflow_id: str, method: str = "pm_card_visa") -> tuple[str, str]:
    """(order_id, confirmation_token) of a fresh draft."""
    response = prepare(api, workflow_id, method)
    assert response.status == 200, response.body
    return response.body["order_id"], response.body["_meta"]["confirmation_token"]


def commit(
    api, workflow_id: str, order_id: str, token: str | None, *, key: str | None = None, **headers
):
    """The person's click on "Confirm purchase": commit_order with the widget-only token."""
    arguments = {
        "workflow_id": workflow_id,
        "order_id": order_id,
        "idempotency_key": key or new_key(),
    }
    if token is not None:
        arguments["confirmation_token"] = token
    return api.call("commit_order", arguments, **headers)


def cancel(api, order_id: str, key: str | None = None):
    """The person's cancel_order, with a fresh idempotency key unless given one."""
    return api.call(
        "cancel_order",
        {"order_id": order_id, "reason": "Changed my mind", "idempotency_key": key or new_key()},
    )


def saga_timeline(api, order_id: str) -> list[tuple[str, str]]:
    """The order's saga steps as get_order reports them: (step, status) in order."""
    body = api.call("get_order", {"order_id": order_id}).body
    return [(step["step"], step["status"]) for step in body["saga"]]


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

    def commit(self, api) -> Any:
        return commit(api, self.workflow_id, self.order_id, self.confirmation_token)


def draft_order(api, *, payment_method_id: str = "pm_card_visa") -> PlacedOrder:
    """start_gift_workflow → suggest_gifts → select_gift → prepare_order (stock held)."""
    workflow_id, product_id = workflow_with_gift(api)
    response = prepare(api, workflow_id, payment_method_id)
    assert response.status == 200, response.body
    return PlacedOrder(workflow_id, response.body["order_id"], product_id, response)


def paid_order(api, *, payment_method_id: str = "pm_card_visa") -> PlacedOrder:
    """A completed order whose card was charged (pm_card_visa succeeds at once)."""
    order = draft_order(api, payment_method_id=payment_method_id)
    order.committed = order.commit(api)
    assert order.committed.status == 200, order.committed.body
    assert order.committed.body["status"] == "completed", order.committed.body
    return order


def order_of(order_id) -> Order:
    return Order.objects.get(pk=order_id)


# --- checks -------------------------------------------------------------------------------------


def assert_error(response, code: str, status: int) -> dict:
    """The error contract holds and the code and HTTP status are the expected ones."""
    assert response.status == status, response.body
    return assert_error_body(response.body, code)


def assert_error_body(body: dict, code: str) -> dict:
    """The error contract holds for a failed tool's body (REST's, or MCP's structuredContent)
    and its code is the expected one."""
    assert body["ok"] is False, body
    error = body["error"]
    assert error["code"] == code, error
    assert {"code", "error_type", "message", "retryable"} <= error.keys()
    assert error["error_type"] in {"validation", "business", "conflict", "upstream", "platform"}
    assert isinstance(error["retryable"], bool)
    assert error["message"] and "Traceback" not in error["message"]
    return error


def charges_for(order_id) -> list[SimulatedCharge]:
    return list(SimulatedCharge.objects.filter(order_id=str(order_id)))


def provider_charges(order_id) -> list:
    """The order's charges as the configured provider's own books hold them."""
    return get_provider().charges_for_order(order_id=str(order_id))


def assert_books_balance(*products: Product, initial: dict[int, int]) -> None:
    """Stock is conserved, no hold outlives its order, and the money invariant holds."""
    for product in products:
        product.refresh_from_db()
        assert product.stock >= 0
        held = (
            Reservation.objects.filter(
                product=product, status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED]
            ).aggregate(n=Sum("quantity"))["n"]
            or 0
        )
        assert product.stock + held == initial[product.pk], (
            product.stock,
            held,
            initial[product.pk],
        )
    orphans = Reservation.objects.filter(status=ReservationStatus.HELD).exclude(
        order__status__in=[
            OrderStatus.DRAFT,
            OrderStatus.PROCESSING,
            OrderStatus.PAYMENT_PENDING,
            OrderStatus.AWAITING_PAYMENT,
        ]
    )
    assert not orphans.exists(), list(orphans.values("order__status", "status"))
    confirmed_not_sold = Reservation.objects.filter(status=ReservationStatus.CONFIRMED).exclude(
        order__status=OrderStatus.COMPLETED
    )
    assert not confirmed_not_sold.exists()
    report = check_ledger()
    assert report.broken == [], [(row.order_id, row.status, row.problems) for row in report.broken]
    assert report.orphan_charges == []


# --- crashes (saga recovery) ----------------------------------------------------------------------


class SimulatedCrash(SystemExit):
    """The process dies: a BaseException, so no `except Exception` (and no compensation) runs."""


class CrashPlan:
    """Stands in for checkout.saga.step_log.checkpoint: records every point reached and dies at
    number `crash_at` (0-based), right after that step's progress was committed."""

    def __init__(self, crash_at: int | None = None) -> None:
        self.crash_at = crash_at
        self.points: list[tuple[str, str]] = []

    def __call__(self, order_id, step, status) -> None:
        self.points.append((str(step), str(status)))
        if self.crash_at is not None and len(self.points) - 1 == self.crash_at:
            raise SimulatedCrash(f"died after {step} {status}")
