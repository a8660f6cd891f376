"""One principal never reaches another's workflow or order, over every transport: REST with API
tokens, MCP with the host's subject, MCP with OAuth tokens. Each attempt is NOT_FOUND under the
error contract, the answer a workflow that does not exist gets, and changes nothing."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from checkout.models import OrderStatus, SimulatedCharge
from checkout.selectors import workflow_order_id
from gifts.models import WorkflowContext
from tests.conftest import ToolClient
from tests.fixtures import BOTH_DATABASES, BRIEF, SHIPPING, assert_error_body, new_key, order_of
from tests.giftgenius.oauth.sign_in import access_token
from tests.live_server import McpTestClient
from tool_runtime.principals import issue_api_token

pytestmark = [
    pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES),
    pytest.mark.usefixtures("demo_catalog"),
]


@dataclass
class Answer:
    body: dict  # what the model is shown: REST's body without `_meta`, MCP's structuredContent
    meta: dict  # what only the widget gets
    http_status: int | None  # REST's own; MCP answers a failed tool as a result, not a status


@dataclass
class Principal:
    """One principal calling the tools over one transport."""

    call: Callable[[str, dict], Answer]

    def ok(self, name: str, arguments: dict) -> dict:
        answer = self.call(name, arguments)
        assert answer.body["ok"] is True, (name, answer.body)
        return answer.body

    def refused(self, name: str, arguments: dict) -> dict:
        """The call is answered NOT_FOUND under the error contract; returns the error."""
        answer = self.call(name, arguments)
        if answer.http_status is not None:
            assert answer.http_status == 404, (name, answer.body)
        return assert_error_body(answer.body, "NOT_FOUND")


def over_rest(token: str) -> Principal:
    client = ToolClient(token)

    def call(name: str, arguments: dict) -> Answer:
        response = client.call(name, arguments)
        body = {k: v for k, v in response.body.items() if k != "_meta"}
        return Answer(body, response.body.get("_meta", {}), response.status)

    return Principal(call)


def over_mcp(client: McpTestClient, host_meta: dict | None = None) -> Principal:
    def call(name: str, arguments: dict) -> Answer:
        result = client.call(name, arguments, meta=host_meta)
        body = result.structured_content
        assert result.is_error is (body["ok"] is False), body
        return Answer(body, result.meta or {}, None)

    return Principal(call)


@pytest.fixture(params=["rest", "mcp-subject", "mcp-oauth"])
def owner_and_thief(request, user, other_user) -> tuple[Principal, Principal]:
    if request.param == "rest":
        return over_rest(issue_api_token(user=user)), over_rest(issue_api_token(user=other_user))
    live_url = request.getfixturevalue("live_url")
    if request.param == "mcp-subject":
        client = McpTestClient(live_url)
        return (
            over_mcp(client, {"openai/subject": "v1/buyer"}),
            over_mcp(client, {"openai/subject": "v1/thief"}),
        )
    request.getfixturevalue("oauth_only")
    resource = f"{live_url}/mcp"
    return (
        over_mcp(McpTestClient(live_url, token=access_token(user, resource=resource))),
        over_mcp(McpTestClient(live_url, token=access_token(other_user, resource=resource))),
    )


def test_another_principal_finds_neither_the_workflow_nor_its_order(owner_and_thief):
    owner, thief = owner_and_thief
    workflow_id = owner.ok("start_gift_workflow", {})["workflow_id"]
    theirs = {"workflow_id": workflow_id}

    # At brief: neither read nor moved, and told what a workflow that does not exist is told.
    stolen = thief.refused("get_workflow", theirs)
    missing = str(uuid.uuid4())
    unknown = thief.refused("get_workflow", {"workflow_id": missing})
    assert workflow_id in stolen["message"]
    assert stolen["message"] == unknown["message"].replace(missing, workflow_id)
    thief.refused("suggest_gifts", {**theirs, **BRIEF})
    thief.refused("user_navigated_to_step", {**theirs, "step_id": "brief"})
    assert WorkflowContext.objects.get(pk=workflow_id).current_step == "brief"

    # The owner goes on to a draft order, holding its stock.
    gifts = owner.ok("suggest_gifts", {**theirs, **BRIEF})["gifts"]
    product_id = gifts[0]["product_id"]
    owner.ok("select_gift", {**theirs, "product_id": product_id})
    prepared = owner.call(
        "prepare_order",
        {
            **theirs,
            "payment_method_id": "pm_card_visa",
            "shipping": SHIPPING,
            "idempotency_key": new_key(),
        },
    )
    assert prepared.body["ok"] is True, prepared.body
    order_id, token = prepared.body["order_id"], prepared.meta["confirmation_token"]
    assert isinstance(token, str) and len(token) >= 16
    assert token not in json.dumps(prepared.body)

    # Even with the person's confirmation token, the thief can neither pay the order (from the
    # owner's workflow or from its own, with the same gift chosen), nor read it, nor cancel it.
    own = thief.ok("start_gift_workflow", {})["workflow_id"]
    thief.ok("suggest_gifts", {"workflow_id": own, **BRIEF})
    thief.ok("select_gift", {"workflow_id": own, "product_id": product_id})
    for workflow in (workflow_id, own):
        thief.refused(
            "commit_order",
            {
                "workflow_id": workflow,
                "order_id": order_id,
                "confirmation_token": token,
                "idempotency_key": new_key(),
            },
        )
    thief.refused("get_order", {"order_id": order_id})
    thief.refused(
        "cancel_order", {"order_id": order_id, "reason": "mine now", "idempotency_key": new_key()}
    )
    thief.refused("get_workflow", theirs)
    thief.refused("user_navigated_to_step", {**theirs, "step_id": "gift_selected"})

    assert order_of(order_id).status == OrderStatus.DRAFT
    assert not SimulatedCharge.objects.filter(order_id=order_id).exists()
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    assert (workflow.current_step, str(workflow_order_id(workflow=workflow))) == (
        "checkout",
        order_id,
    )
    # The owner's own view is untouched.
    assert owner.ok("get_workflow", theirs)["workflow_id"] == workflow_id
    assert owner.ok("get_order", {"order_id": order_id})["status"] == "draft"
