"""Admin rollbacks end to end: real orders placed through the tools, the real compensation,
the payment simulator's ledger checked afterwards."""

from __future__ import annotations

from decimal import Decimal
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from checkout.ledger import check_ledger
from checkout.models import (
    Order,
    OrderAuditEntry,
    OrderStatus,
    Payment,
    Reservation,
    SagaStep,
    SagaStepName,
    SimulatedCharge,
    SimulatedRefund,
)
from checkout.payments import gateway, simulator
from checkout.saga import compensation
from giftgenius.operations.metrics import saga_step_counts
from gifts.models import Product
from tests.fixtures import draft_order, paid_order

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])

ROLLBACK_URL = "/admin/checkout/order/rollback/"
CHANGELIST = "/admin/checkout/order/"


@pytest.fixture
def operator(db):
    user = get_user_model().objects.create_user(
        username="operator", password="pw-op-123", is_staff=True
    )
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="checkout", codename__startswith="view_"
        ),
        Permission.objects.get(codename="rollback_order"),
    )
    client = Client()
    client.force_login(user)
    client.user = user
    return client


def roll_back(client: Client, order_ids: list[str], reason: str = "Customer asked by phone"):
    response = client.post(ROLLBACK_URL, {"orders": order_ids, "reason": reason})
    assert response.status_code == 302, response.content[:500]
    return [str(m) for m in get_messages(response.wsgi_request)]


def ledger_is_clean() -> None:
    report = check_ledger()
    assert report.broken == [], [row.problems for row in report.broken]
    assert report.orphan_charges == []


def test_rolling_back_a_paid_order_refunds_releases_and_cancels(api, demo_catalog, operator):
    placed = paid_order(api)
    order = Order.objects.get(pk=placed.order_id)
    product = Product.objects.get(pk=placed.product_id)
    stock_after_sale = product.stock
    charge = SimulatedCharge.objects.get(order_id=placed.order_id)
    assert charge.refunded_amount == 0

    messages = roll_back(operator, [placed.order_id])

    assert any(f"Order {order.pk} rolled back" in m for m in messages), messages
    order.refresh_from_db()
    assert order.status == OrderStatus.CANCELLED
    charge.refresh_from_db()
    assert charge.refunded_amount == order.amount  # refunded at the provider
    assert SimulatedRefund.objects.filter(charge=charge).count() == 1
    payment = Payment.objects.get(order=order)
    assert payment.refunded_amount == order.amount
    reservations = Reservation.objects.filter(order=order)
    assert reservations and all(r.status == "released" for r in reservations)
    product.refresh_from_db()
    assert product.stock == stock_after_sale + sum(r.quantity for r in reservations)
    entry = OrderAuditEntry.objects.get(order=order)
    assert (entry.actor, entry.outcome, entry.reason) == (
        operator.user,
        "rolled_back",
        "Customer asked by phone",
    )
    ledger_is_clean()


def test_a_second_rollback_refunds_nothing_and_says_so(api, demo_catalog, operator):
    placed = paid_order(api)
    roll_back(operator, [placed.order_id])
    stock = Product.objects.get(pk=placed.product_id).stock

    messages = roll_back(operator, [placed.order_id], reason="Pressed twice")

    assert any("already rolled back" in m for m in messages), messages
    assert SimulatedRefund.objects.count() == 1
    assert Product.objects.get(pk=placed.product_id).stock == stock
    outcomes = list(
        OrderAuditEntry.objects.filter(order_id=placed.order_id)
        .order_by("created_at", "id")
        .values_list("outcome", flat=True)
    )
    assert outcomes == ["rolled_back", "already_rolled_back"]
    ledger_is_clean()


def test_an_order_whose_saga_is_running_is_refused(api, demo_catalog, operator, user):
    placed = paid_order(api)
    running = Order.objects.create(
        owner=user,
        status=OrderStatus.PROCESSING,
        amount=Decimal("30.00"),
        currency="USD",
        payment_method_id="pm_card_visa",
    )

    messages = roll_back(operator, [str(running.pk), placed.order_id])

    assert any(f"Order {running.pk} refused" in m for m in messages), messages
    assert any(f"Order {placed.order_id} rolled back" in m for m in messages), messages
    running.refresh_from_db()
    assert running.status == OrderStatus.PROCESSING  # untouched
    assert OrderAuditEntry.objects.get(order=running).outcome == "refused"
    assert Order.objects.get(pk=placed.order_id).status == OrderStatus.CANCELLED


def test_rolling_back_a_draft_releases_its_hold(api, demo_catalog, operator):
    placed = draft_order(api)
    product = Product.objects.get(pk=placed.product_id)
    held_stock = product.stock

    messages = roll_back(operator, [placed.order_id])

    assert any("rolled back" in m for m in messages), messages
    product.refresh_from_db()
    assert product.stock == held_stock + 1
    assert not SimulatedCharge.objects.filter(order_id=placed.order_id).exists()
    assert Order.objects.get(pk=placed.order_id).status == OrderStatus.CANCELLED
    ledger_is_clean()


def test_action_over_several_paid_orders(api, demo_catalog, operator):
    first, second = paid_order(api), paid_order(api)
    page = operator.post(
        CHANGELIST,
        {"action": "rollback_orders", "_selected_action": [first.order_id, second.order_id]},
    )
    assert page.status_code == 200
    messages = roll_back(operator, [first.order_id, second.order_id])
    assert sum("rolled back" in m for m in messages) == 2
    assert set(Order.objects.values_list("status", flat=True)) == {OrderStatus.CANCELLED}
    assert SimulatedRefund.objects.count() == 2
    ledger_is_clean()


def test_order_page_after_rollback_shows_the_audit_entry(api, demo_catalog, operator):
    placed = paid_order(api)
    roll_back(operator, [placed.order_id], reason="Duplicate purchase")
    html = operator.get(
        reverse("admin:checkout_order_change", args=[placed.order_id])
    ).content.decode()
    assert "Duplicate purchase" in html and "rolled_back" in html


def test_provider_outage_refuses_the_rollback_and_changes_nothing(api, demo_catalog, operator):
    from checkout.payments.simulator import outage

    placed = paid_order(api)
    with outage():
        messages = roll_back(operator, [placed.order_id])
    assert any(f"Order {placed.order_id} refused" in m for m in messages), messages
    assert Order.objects.get(pk=placed.order_id).status == OrderStatus.COMPLETED
    assert SimulatedRefund.objects.count() == 0
    assert OrderAuditEntry.objects.get(order_id=placed.order_id).outcome == "refused"
    # Once the provider is back, the same rollback goes through.
    messages = roll_back(operator, [placed.order_id])
    assert any("rolled back" in m for m in messages), messages
    ledger_is_clean()


# --- two rollbacks at once record one refund ----------------------------------------------------


def refund_rows(order_id) -> list[str]:
    return list(
        SagaStep.objects.filter(order_id=order_id, step=SagaStepName.REFUND).values_list(
            "status", flat=True
        )
    )


def test_a_refund_made_meanwhile_by_another_caller_is_not_recorded_twice(api, demo_catalog):
    """Interleaving of two rollbacks (two staff, or staff and the person's cancel_order): both
    read the payment as captured; the other one refunds and marks it while this one is at the
    provider. The provider refunds once (same refund key): so must the saga log and the total."""
    placed = paid_order(api)
    order = Order.objects.get(pk=placed.order_id)
    real_refund = gateway.refund
    seen: dict = {}

    def refund_after_the_other_caller(**kwargs):
        if "other" not in seen:  # the first call: the other caller overtakes this one here
            seen["other"] = None
            seen["other"] = compensation.refund_payments(
                order=Order.objects.get(pk=order.pk), correlation_id="the-other-caller"
            )
        return real_refund(**kwargs)

    with mock.patch.object(gateway, "refund", refund_after_the_other_caller):
        mine = compensation.refund_payments(order=order, correlation_id="this-caller")

    assert (seen["other"], mine) == (order.amount, Decimal("0.00"))
    assert SimulatedRefund.objects.count() == 1
    assert sorted(refund_rows(order.pk)) == ["skipped", "succeeded"]
    skipped = SagaStep.objects.get(order=order, step=SagaStepName.REFUND, status="skipped")
    assert skipped.detail.startswith("Already refunded")
    counts = {(c.step, c.status): c.count for c in saga_step_counts()}
    assert counts[("refund", "succeeded")] == 1
    payment = Payment.objects.get(order=order)
    assert (payment.status, payment.refunded_amount) == ("refunded", order.amount)


# --- a retryably failed order: closing it for good is not "nothing to do" -----------------------


def test_rolling_back_a_retryably_failed_order_says_it_ends_the_retry(api, demo_catalog, operator):
    placed = draft_order(api)
    with simulator.outage():
        failed = placed.commit(api)
    assert failed.status == 503 and failed.body["error"]["retryable"] is True
    assert Order.objects.get(pk=placed.order_id).status == OrderStatus.FAILED

    messages = roll_back(operator, [placed.order_id])

    assert len(messages) == 1
    assert "closed for good: the person can no longer retry this order" in messages[0]
    assert "nothing to do" not in messages[0]
    entry = OrderAuditEntry.objects.get(order_id=placed.order_id)
    assert entry.outcome == "closed_for_good"
    assert "can no longer retry" in entry.detail
    retried = placed.commit(api)  # the same confirmation: spent now
    assert retried.status == 403 and retried.body["error"]["code"] == "CONFIRMATION_REQUIRED"

    again = roll_back(operator, [placed.order_id])  # now there really is nothing to do

    assert again[-1].endswith("already rolled back: The order is already failed; nothing to do.")
    assert list(
        OrderAuditEntry.objects.filter(order_id=placed.order_id)
        .order_by("created_at", "pk")
        .values_list("outcome", flat=True)
    ) == ["closed_for_good", "already_rolled_back"]


@pytest.mark.parametrize("reason", ["Refund \u202edetneffo", "two\nlines", "nul\x00"])
def test_a_reason_that_is_not_printable_text_rolls_nothing_back(
    api, demo_catalog, operator, reason
):
    """The reason is shown to staff and kept in the audit trail: a bidi override could make it
    read as something else."""
    placed = paid_order(api)
    response = operator.post(ROLLBACK_URL, {"orders": [placed.order_id], "reason": reason})
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["reason"]
    assert Order.objects.get(pk=placed.order_id).status == OrderStatus.COMPLETED
    assert not OrderAuditEntry.objects.exists()
    ledger_is_clean()
