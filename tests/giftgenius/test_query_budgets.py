"""What a tool call costs in database statements: bounded, and independent of the catalog's size
(bench/README.md has the measured costs)."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from gifts.models import Product
from tests.fixtures import start, suggest


def _queries_for(call) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = call()
    assert response.status == 200, response.body
    return len(ctx.captured_queries)


def test_query_count_is_constant_whatever_the_catalog_size(api, demo_catalog):
    workflow_id = start(api)
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
    assert _queries_for(lambda: suggest(api, workflow_id)) == small_suggest
    assert _queries_for(lambda: api.call("get_workflow", {"workflow_id": workflow_id})) == small_get
    # The budgets: the token is cached and a read's call-log row is batched. Left for
    # suggest_gifts: the workflow with the loop guard's count beside it, live stock, catalog
    # details (the tests' cache is cold), one conditional update of the ideas, the call log; for
    # get_workflow: the workflow with the guard's count and the flush of the batched row the
    # test client does after each call.
    assert small_suggest <= 5
    assert small_get <= 2
