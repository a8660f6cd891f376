"""Buyers racing for the last units (real threads on PostgreSQL): as many drafts as there are
units, every other buyer told OUT_OF_STOCK, and no unit held twice."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model

from checkout.models import Order, OrderStatus, Reservation, ReservationStatus
from gifts.models import Product
from tests.concurrency import in_threads
from tests.conftest import ToolClient
from tests.fixtures import BOTH_DATABASES, assert_books_balance, gift_selected, prepare
from tool_runtime.principals import issue_api_token

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES),
]


def test_ten_buyers_for_the_last_three_units(demo_catalog):
    product = Product.objects.get(sku="GG-TEST-LAST3")
    assert product.stock == 3
    buyers = []
    for n in range(10):
        buyer = get_user_model().objects.create_user(username=f"buyer{n}", password="pw-buyer-123")
        bearer = issue_api_token(user=buyer)
        buyers.append((bearer, gift_selected(ToolClient(bearer), product)))

    results = in_threads(10, lambda i: prepare(ToolClient(buyers[i][0]), buyers[i][1]))

    codes = Counter(r.status for r in results)
    assert codes == {200: 3, 409: 7}, codes
    assert all(r.body["error"]["code"] == "OUT_OF_STOCK" for r in results if r.status == 409)
    product.refresh_from_db()
    assert product.stock == 0
    assert Reservation.objects.filter(product=product, status=ReservationStatus.HELD).count() == 3
    assert Order.objects.filter(status=OrderStatus.DRAFT).count() == 3
    assert_books_balance(product, initial={product.pk: 3})
