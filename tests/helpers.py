"""Small builders shared by tests: a brief and a workflow moved to a given step."""

from __future__ import annotations

from typing import Any

BRIEF = {
    "relationship": "friend",
    "interests": ["coffee"],
    "budget_min": 10,
    "budget_max": 60,
    "currency": "USD",
    "age": 35,
}


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
