"""A database outage: every entry answers a retryable SERVICE_UNAVAILABLE (503) in its own
contract (REST's error body, a JSON-RPC error on /mcp before a tool runs, a tool result after),
while /readyz says 503 too, and every tool call is counted as one the log could not hold."""

from __future__ import annotations

import httpx2
import pytest
from django.test import Client
from prometheus_client import CollectorRegistry

from tests.conftest import ToolClient
from tests.fixtures import assert_error_body
from tests.live_server import McpTestClient
from tests.outage import database_down
from tool_runtime import call_log
from tool_runtime.principals import issue_api_token

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"]),
]
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "start_gift_workflow", "arguments": {}},
}


def unrecorded(tool: str) -> float:
    registry = CollectorRegistry()
    registry.register(call_log.UNRECORDED)
    return registry.get_sample_value("giftgenius_tool_calls_unrecorded_total", {"tool": tool}) or 0


def assert_unavailable(error: dict) -> None:
    assert error["code"] == "SERVICE_UNAVAILABLE" and error["retryable"] is True
    assert error["details"]["retry_after_seconds"] > 0


def test_rest_answers_service_unavailable_from_the_bearer_check_and_from_the_executor(user):
    verified = ToolClient(issue_api_token(user=user))
    assert verified.call("start_gift_workflow").status == 200  # its caller is now cached
    unverified = ToolClient(issue_api_token(user=user))
    before = unrecorded("start_gift_workflow")

    with database_down():
        answers = [
            client.client.post(
                "/api/tools/start_gift_workflow", data="{}", content_type="application/json"
            )
            for client in (unverified, verified)
        ]
        ready = Client().get("/readyz")

    for response in answers:
        assert response.status_code == 503, response.content
        assert response["Content-Type"] == "application/json"
        assert response["Retry-After"] == "5"
        assert_unavailable(assert_error_body(response.json(), "SERVICE_UNAVAILABLE"))
    assert ready.status_code == 503
    assert unrecorded("start_gift_workflow") == before + 2


def test_mcp_answers_a_json_rpc_service_unavailable_when_the_bearer_check_cannot_read(
    live_url, user
):
    token = issue_api_token(user=user)
    before = unrecorded("start_gift_workflow")

    with database_down():
        response = httpx2.post(
            f"{live_url}/mcp", json=CALL, headers={**ACCEPT, "Authorization": f"Bearer {token}"}
        )

    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.headers["retry-after"] == "5"
    body = response.json()
    assert body["jsonrpc"] == "2.0" and body["error"]["code"] == -32603
    assert_unavailable(body["error"]["data"])
    assert unrecorded("start_gift_workflow") == before  # no tool call was read from it


def test_an_mcp_tool_call_that_cannot_reach_the_database_is_a_retryable_result(live_url, user):
    client = McpTestClient(live_url, token=issue_api_token(user=user))
    assert client.call("get_workflow", {"workflow_id": "0" * 32}).is_error  # caller now cached
    before = unrecorded("start_gift_workflow")

    with database_down():
        result = client.call("start_gift_workflow", {})

    assert result.is_error
    assert_unavailable(result.structured_content["error"])
    assert unrecorded("start_gift_workflow") == before + 1
