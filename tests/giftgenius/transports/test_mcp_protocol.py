"""The protocol answers hosts and conformance suites expect, in both eras (docs/mcp.md §2):
truthful capabilities, no prompts, an unknown tool as a JSON-RPC error, each tool's
securitySchemes in _meta, and no read-only hint on a tool that writes."""

from __future__ import annotations

import httpx2
import pytest

from tests.giftgenius.transports.test_mcp import ACCEPT, ENVELOPE_ERA, INIT, LIVE
from tool_runtime.registry import REGISTRY

HANDSHAKE_ERA = "2025-06-18"
ENVELOPE_META = {
    "io.modelcontextprotocol/protocolVersion": ENVELOPE_ERA,
    "io.modelcontextprotocol/clientCapabilities": {},
}


def rpc(live_url: str, era: str, method: str, params: dict | None = None) -> dict:
    """One JSON-RPC request as raw HTTP, in the handshake era or the 2026 era (whose
    requests carry their version and capabilities in _meta and in headers)."""
    params = dict(params or {})
    headers = {**ACCEPT, "MCP-Protocol-Version": era}
    if era == ENVELOPE_ERA:
        params["_meta"] = {**ENVELOPE_META, **params.get("_meta", {})}
        headers["Mcp-Method"] = method
        if "name" in params:
            headers["Mcp-Name"] = params["name"]
    body = {"jsonrpc": "2.0", "id": 9, "method": method, "params": params}
    response = httpx2.post(f"{live_url}/mcp", json=body, headers=headers)
    assert "Traceback" not in response.text
    return response.json()


def capabilities(live_url: str, era: str) -> dict:
    if era == ENVELOPE_ERA:
        return rpc(live_url, era, "server/discover")["result"]["capabilities"]
    response = httpx2.post(f"{live_url}/mcp", json=INIT, headers=ACCEPT)
    return response.json()["result"]["capabilities"]


@LIVE
def test_both_eras_advertise_the_same_truthful_capabilities(live_url):
    handshake, envelope = (capabilities(live_url, era) for era in (HANDSHAKE_ERA, ENVELOPE_ERA))
    for found in (handshake, envelope):
        # Nothing is ever sent on change: no list_changed, no resource subscriptions.
        assert not found["tools"].get("listChanged")
        assert not found["resources"].get("listChanged")
        assert not found["resources"].get("subscribe")
        assert not found.get("prompts", {}).get("listChanged")
    assert {k: handshake[k] for k in ("tools", "resources")} == {
        k: envelope[k] for k in ("tools", "resources")
    }


@LIVE
@pytest.mark.parametrize("era", [HANDSHAKE_ERA, ENVELOPE_ERA])
def test_an_unknown_prompt_is_invalid_params(live_url, era):
    answer = rpc(live_url, era, "prompts/get", {"name": "gift_ideas"})
    assert answer["error"]["code"] == -32602, answer
    assert "gift_ideas" in answer["error"]["message"]
    assert rpc(live_url, era, "prompts/list")["result"]["prompts"] == []


@LIVE
@pytest.mark.parametrize("era", [HANDSHAKE_ERA, ENVELOPE_ERA])
def test_an_unknown_tool_is_a_json_rpc_error_naming_the_tools(live_url, era):
    answer = rpc(
        live_url,
        era,
        "tools/call",
        {"name": "buy_everything", "arguments": {}, "_meta": {"openai/subject": "v1/alice"}},
    )
    error = answer["error"]
    assert error["code"] == -32602, answer
    assert "buy_everything" in error["message"]
    assert "start_gift_workflow" in error["message"] and "prepare_order" in error["message"]
    assert "commit_order" not in error["message"]  # app-only: never named to the model


@LIVE
@pytest.mark.parametrize("era", [HANDSHAKE_ERA, ENVELOPE_ERA])
def test_every_tool_names_its_security_scheme_in_meta(live_url, era):
    tools = rpc(live_url, era, "tools/list")["result"]["tools"]
    assert sorted(t["name"] for t in tools) == sorted(REGISTRY)
    for tool in tools:
        scheme = [{"type": "oauth2", "scopes": [REGISTRY[tool["name"]].scope]}]
        assert tool["_meta"]["securitySchemes"] == scheme


@LIVE
def test_no_tool_that_writes_is_annotated_read_only(live_url):
    tools = rpc(live_url, HANDSHAKE_ERA, "tools/list")["result"]["tools"]
    for tool in tools:
        spec = REGISTRY[tool["name"]]
        writes = spec.scope.endswith(":write") or (spec.workflow_scope or "").endswith(":write")
        assert tool["annotations"]["readOnlyHint"] is not writes, tool["name"]
