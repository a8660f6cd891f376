"""Sweepers on several machines at once (real threads on PostgreSQL): each crashed order is
recovered by exactly one of them, and charged once."""

from __future__ import annotations

import pytest

from checkout.models import Order, OrderStatus, SagaStep
from checkout.saga import step_log
from checkout.sweeps import run_sweeps
from tests.concurrency import in_threads
from tests.fixtures import (
    BOTH_DATABASES,
    CrashPlan,
    SimulatedCrash,
    assert_books_balance,
    commit,
    gift_selected,
    make_product,
    prepared,
    provider_charges,
)

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES),
]


def test_sweepers_on_several_machines_recover_each_order_once(api, monkeypatch, provider):
    products, order_ids = [], []
    for n in range(6):
        product = make_product(sku=f"GG-CHK-SWEEP-{n}", stock=5)
        products.append(product)
        workflow_id = gift_selected(api, product)
        order_id, token = prepared(api, workflow_id)
        order_ids.append(order_id)
        # Die with the money captured but not yet recorded (the 2nd point of a commit).
        with monkeypatch.context() as patch:
            patch.setattr(step_log, "checkpoint", CrashPlan(crash_at=1))
            with pytest.raises(SimulatedCrash):
                commit(api, workflow_id, order_id, token)
    assert Order.objects.filter(status=OrderStatus.PROCESSING).count() == 6

    reports = in_threads(4, lambda i: run_sweeps(older_than_seconds=0))

    assert sum(report.recovered for report in reports) == 6
    assert sum(report.errors for report in reports) == 0
    for order_id in order_ids:
        assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
        assert SagaStep.objects.filter(order_id=order_id, step="complete").count() == 1
        assert [c.status for c in provider_charges(order_id)] == ["succeeded"]
    assert_books_balance(*products, initial={p.pk: 5 for p in products})
