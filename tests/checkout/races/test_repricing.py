"""Buyers changing their delivery option while their confirmation is being paid (real threads
on PostgreSQL): no order is ever charged anything but its total."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from checkout.ledger import check_ledger
from checkout.models import Order, OrderStatus, PaymentStatus, Reservation, ReservationStatus
from tests.concurrency import in_threads
from tests.conftest import ToolClient
from tests.fixtures import (
    BOTH_DATABASES,
    charges_for,
    commit,
    gift_selected,
    make_product,
    prepare,
)
from tool_runtime.principals import issue_api_token

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES),
]

BUYERS = 10
TOTAL_BY_OPTION = {"standard": Decimal("30.00"), "express": Decimal("39.90")}


def test_ten_buyers_changing_delivery_options_while_committing():
    product = make_product(stock=BUYERS, price="30.00")
    buyers = []
    for n in range(BUYERS):
        user = get_user_model().objects.create_user(username=f"buyer{n}", password="pw-buyer-1")
        api = ToolClient(issue_api_token(user=user))
        workflow_id = gift_selected(api, product)
        first = prepare(api, workflow_id)
        assert first.status == 200, first.body
        buyers.append((api, workflow_id, first.body))

    def work(i: int):
        api, workflow_id, first = buyers[i % BUYERS]
        if i < BUYERS:  # the person presses "Confirm purchase" on the first summary
            token = first["_meta"]["confirmation_token"]
            return ("commit", commit(api, workflow_id, first["order_id"], token).status)
        statuses = []  # meanwhile the model switches the delivery option back and forth
        for option in ("express", "standard", "express"):
            statuses.append(prepare(api, workflow_id, shipping_option=option).status)
        return ("reprice", tuple(statuses))

    results = in_threads(2 * BUYERS, work)

    commits = Counter(status for kind, status in results if kind == "commit")
    assert set(commits) <= {200, 403, 409}, commits
    reprices = Counter(s for kind, statuses in results if kind == "reprice" for s in statuses)
    assert set(reprices) <= {200, 409}, reprices
    orders = list(Order.objects.filter(owner__username__startswith="buyer"))
    assert len(orders) == BUYERS  # re-pricing never made a second draft
    paid = 0
    for order in orders:
        assert order.amount == TOTAL_BY_OPTION[order.shipping_option]
        charges = charges_for(order.pk)
        payments = list(order.payments.all())
        if order.status == OrderStatus.COMPLETED:
            paid += 1
            assert [c.amount for c in charges] == [order.amount]
            assert [(p.amount, p.status) for p in payments] == [
                (order.amount, PaymentStatus.SUCCEEDED)
            ]
        else:
            assert order.status == OrderStatus.DRAFT and charges == [] and payments == []
    assert paid == commits[200]
    assert Reservation.objects.filter(status=ReservationStatus.HELD).count() == BUYERS - paid
    report = check_ledger()
    assert report.ok, report.broken
