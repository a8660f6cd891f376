"""What a tool call costs in database statements: bounded, and independent of the catalog's size
(bench/README.md has the measured costs)."""

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from gifts.models import Product
from tests.fixtures import (
    BOTH_DATABASES,
    commit,
    gift_selected,
    make_product,
    prepared,
    start,
    suggest,
)


def _queries_for(call) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = call()
    assert response.status == 200, response.body
    return len(ctx.captured_queries)


@override_settings(CATALOG_CACHE_SECONDS=3600)
def test_query_count_is_constant_whatever_the_catalog_size(api, demo_catalog):
    """In the steady state a server is in: the catalog's details cached (each size is measured
    after one call that loads them: products, their translations and the interest terms)."""
    workflow_id = start(api)
    suggest(api, workflow_id)
    small_suggest = _queries_for(lambda: suggest(api, workflow_id))
    small_get = _queries_for(lambda: api.call("get_workflow", {"workflow_id": workflow_id}))
    template = Product.objects.get(sku="GG-TEST-LAST3")
    Product.objects.bulk_create(
        Product(
            sku=f"GG-EXTRA-{i:04d}",
            name=f"Extra coffee mug {i}",
            description="coffee",
            category="kitchen",
            tags=["coffee"],
            price=template.price,
            stock=5,
        )
        for i in range(600)
    )
    suggest(api, workflow_id)  # meets the new products: the cached details are loaded again
    assert _queries_for(lambda: suggest(api, workflow_id)) == small_suggest
    assert _queries_for(lambda: api.call("get_workflow", {"workflow_id": workflow_id})) == small_get
    # The budgets: the token is cached and a read's call-log row is batched. Left for
    # suggest_gifts: the workflow with the loop guard's count beside it, live stock, one
    # conditional update of the ideas, the call log; for
    # get_workflow: the workflow with the guard's count and the flush of the batched row the
    # test client does after each call.
    assert small_suggest <= 4
    assert small_get <= 2


@pytest.mark.django_db(databases=BOTH_DATABASES)
def test_one_commit_stays_within_its_query_budget(api, django_assert_max_num_queries):
    workflow_id = gift_selected(api, make_product())
    order_id, token = prepared(api, workflow_id)
    # The key read with the loop guard's count beside it, the claim, workflow, order, the
    # workflow lock and conditional claim of the order, the saga (payment and step rows,
    # order/reservation/workflow updates, the receipt's outbox row, the order-change hook's one
    # read: is it an agent's order?), the workflow as it ended, the key settled, the call log:
    # 20 statements on the default DB, plus the 10 savepoints the test transaction adds (the
    # bearer token is cached; the simulator's ledger is another database).
    with django_assert_max_num_queries(30):
        response = commit(api, workflow_id, order_id, token, key="budget-key-0001")
    assert response.status == 200
    # A replay is one indexed read of the key, the loop guard's count beside it, and the
    # call-log row.
    with django_assert_max_num_queries(2):
        replay = commit(api, workflow_id, order_id, token, key="budget-key-0001")
    assert replay.raw == response.raw
