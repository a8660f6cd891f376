"""The catalog adapter retries transient failures only, within bounds."""

import pytest
from django.test import override_settings

from tool_runtime import faults
from tool_runtime.errors import ToolError
from tool_runtime.models import ToolCallLog

pytestmark = pytest.mark.usefixtures("demo_catalog")

SEARCH = {"query": "coffee", "limit": 3}


def test_transient_failures_then_success(api):
    response = api.call("search_products", SEARCH, HTTP_X_FAULT_INJECT="catalog=503x2")
    assert response.status == 200
    assert response.body["products"]
    log = ToolCallLog.objects.get(tool="search_products")
    assert log.status == "success"
    assert log.upstream_retries == 2


def test_timeouts_then_success(api):
    response = api.call("search_products", SEARCH, HTTP_X_FAULT_INJECT="catalog=timeoutx1")
    assert response.status == 200
    assert ToolCallLog.objects.get(tool="search_products").upstream_retries == 1


@pytest.mark.parametrize(
    ("fault", "code", "status"),
    [("503", "UPSTREAM_UNAVAILABLE", 503), ("timeout", "UPSTREAM_TIMEOUT", 504)],
)
def test_exhausted_retries_give_a_retryable_upstream_error(api, fault, code, status):
    response = api.call("search_products", SEARCH, HTTP_X_FAULT_INJECT=f"catalog={fault}")
    assert response.status == status
    assert response.error["code"] == code
    assert response.error["error_type"] == "upstream"
    assert response.error["retryable"] is True
    log = ToolCallLog.objects.get(tool="search_products")
    assert log.upstream_retries == 2  # three attempts in all (UPSTREAM_RETRY_ATTEMPTS)


def test_retry_attempts_are_bounded_by_settings(api):
    with override_settings(UPSTREAM_RETRY_ATTEMPTS=5):
        assert (
            api.call("search_products", SEARCH, HTTP_X_FAULT_INJECT="catalog=503x4").status == 200
        )
    with override_settings(UPSTREAM_RETRY_ATTEMPTS=2):
        assert (
            api.call("search_products", SEARCH, HTTP_X_FAULT_INJECT="catalog=503x2").status == 503
        )


def test_a_rejection_is_never_retried(api):
    response = api.call("search_products", SEARCH, HTTP_X_FAULT_INJECT="catalog=400")
    assert response.status == 502
    assert response.error["code"] == "UPSTREAM_REJECTED"
    assert response.error["retryable"] is False
    assert ToolCallLog.objects.get(tool="search_products").upstream_retries == 0


def test_suggest_gifts_goes_through_the_same_adapter(api):
    workflow_id = api.call("start_gift_workflow", {}).body["workflow_id"]
    brief = {
        "workflow_id": workflow_id,
        "relationship": "friend",
        "interests": ["coffee"],
        "budget_min": 10,
        "budget_max": 60,
        "currency": "USD",
    }
    failed = api.call("suggest_gifts", brief, HTTP_X_FAULT_INJECT="catalog=503")
    assert failed.error["code"] == "UPSTREAM_UNAVAILABLE"
    assert api.call("suggest_gifts", brief).status == 200


def test_malformed_fault_plan_is_refused():
    with pytest.raises(ToolError) as caught:
        faults.parse("catalog=explode")
    assert caught.value.field == "fault"


def test_faults_cannot_be_switched_on_when_disabled(api):
    with override_settings(FAULT_INJECTION_ENABLED=False):
        response = api.call("search_products", SEARCH, HTTP_X_FAULT_INJECT="catalog=503")
    assert response.status == 200
