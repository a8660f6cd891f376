"""The MCP endpoint over real HTTP with the SDK's own client: handshake, tool list, widget
resource, host/origin protection, principals, locale, correlation id and the error contract."""

from __future__ import annotations

import json
import re
import uuid

import httpx2
import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from jsonschema import Draft202012Validator

from giftgenius.transports import mcp as mcp_transport
from giftgenius.transports.mcp import WIDGET_URI, tool_result
from gifts.models import WorkflowContext
from tests.fixtures import BRIEF
from tests.live_server import McpTestClient
from tool_runtime.models import ToolCallLog
from tool_runtime.outcome import ToolOutcome
from tool_runtime.principals import issue_api_token
from tool_runtime.registry import REGISTRY
from widget.locale import normalize_locale
from widget.resource import widget_resource_meta

LIVE = pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"])
TOOL_META_KEYS = {
    "ui",
    "openai/outputTemplate",
    "openai/widgetAccessible",
    "openai/toolInvocation/invoking",
    "openai/toolInvocation/invoked",
}
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "chatgpt", "version": "1"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream"}
# A tool call that names a subject, sent as raw JSON-RPC to see the HTTP answer itself.
SUBJECT_CALL = {
    "jsonrpc": "2.0",
    "id": 2,
    "method": "tools/call",
    "params": {
        "name": "start_gift_workflow",
        "arguments": {},
        "_meta": {"openai/subject": "v1/someone"},
    },
}


def dump(result) -> dict:
    return result.model_dump(by_alias=True, exclude_none=True, mode="json")


# --- handshake and listing ----------------------------------------------------------------------


@LIVE
def test_legacy_initialize_handshake(live_url):
    version, server_info = McpTestClient(live_url).handshake()
    assert version != "2026-07-28"  # the initialize-handshake era, as ChatGPT speaks it
    assert server_info.name == "giftgenius"


@LIVE
def test_every_registry_tool_is_listed_once_with_its_full_contract(live_url):
    tools = McpTestClient(live_url).list_tools()
    names = [t.name for t in tools]
    assert sorted(names) == sorted(REGISTRY)
    assert len(names) == len(set(names))
    for tool in tools:
        spec = REGISTRY[tool.name]
        wire = dump(tool)
        assert wire["title"] == spec.title
        assert wire["description"] == spec.description
        assert wire["inputSchema"] == json.loads(json.dumps(spec.input_model.model_json_schema()))
        assert wire["annotations"] == spec.annotations.as_mcp()
        meta = wire["_meta"]
        assert set(meta) >= TOOL_META_KEYS
        callers = (
            ["app"] if spec.app_only else ["model", "app"][: 2 if spec.widget_accessible else 1]
        )
        assert meta["ui"] == {"resourceUri": WIDGET_URI, "visibility": callers}
        assert meta["openai/outputTemplate"] == WIDGET_URI
        assert meta["openai/widgetAccessible"] is spec.widget_accessible
        assert meta["openai/toolInvocation/invoking"] == spec.invoking
        assert meta["openai/toolInvocation/invoked"] == spec.invoked
        schema = wire["outputSchema"]
        Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object"


# pydantic's constraint names, which it writes into a schema where it cannot place them (an
# Optional with a validator): no JSON Schema validator, and no model, knows these words.
NOT_JSON_SCHEMA = {"ge", "gt", "le", "lt", "multiple_of", "decimal_places", "max_digits"}
SUBSCHEMA_MAPS = {"properties", "$defs", "patternProperties"}
SUBSCHEMA_LISTS = {"anyOf", "allOf", "oneOf", "prefixItems"}


def schema_words(schema: dict) -> set[str]:
    words = set(schema)
    for key, value in schema.items():
        if key in SUBSCHEMA_MAPS:
            for sub in value.values():
                words |= schema_words(sub)
        elif key in SUBSCHEMA_LISTS:
            for sub in value:
                words |= schema_words(sub)
        elif isinstance(value, dict) and key not in {"default", "const", "examples"}:
            words |= schema_words(value)
    return words


@LIVE
def test_every_tool_schema_states_its_bounds_in_json_schema_words(live_url):
    for tool in McpTestClient(live_url).list_tools():
        for schema in (tool.input_schema, tool.output_schema):
            assert not schema_words(schema) & NOT_JSON_SCHEMA, tool.name
    suggest = next(t for t in McpTestClient(live_url).list_tools() if t.name == "suggest_gifts")
    validator = Draft202012Validator(suggest.input_schema)
    assert not validator.is_valid({**BRIEF, "workflow_id": str(uuid.uuid4()), "age": 150})
    assert validator.is_valid({**BRIEF, "workflow_id": str(uuid.uuid4()), "age": 120})


@LIVE
def test_output_schemas_accept_the_error_body_and_refuse_a_malformed_one(live_url):
    error = {
        "ok": False,
        "error": {
            "code": "NOT_FOUND",
            "error_type": "business",
            "message": "x",
            "retryable": False,
        },
    }
    for tool in McpTestClient(live_url).list_tools():
        validator = Draft202012Validator(tool.output_schema)
        assert validator.is_valid(error), tool.name
        assert not validator.is_valid({"ok": False}), tool.name  # an error without its error object
        assert not validator.is_valid({"ok": "yes"}), tool.name


@LIVE
def test_commit_order_is_app_only_and_every_other_tool_is_offered_to_the_model(live_url):
    tools = {t.name: dump(t) for t in McpTestClient(live_url).list_tools()}
    # MCP Apps: ["app"] means the host never offers the tool to the model, only to the widget.
    assert tools["commit_order"]["_meta"]["ui"]["visibility"] == ["app"]
    # The Apps SDK's keys say the same: hidden from the model, callable from the widget.
    assert tools["commit_order"]["_meta"]["openai/visibility"] == "private"
    assert tools["commit_order"]["_meta"]["openai/widgetAccessible"] is True
    assert "confirmation_token" in tools["commit_order"]["inputSchema"]["properties"]
    for name, tool in tools.items():
        meta = tool["_meta"]
        callers = set(meta["ui"]["visibility"])
        # Both vocabularies agree on who may call each tool.
        assert ("model" in callers) is (meta.get("openai/visibility", "public") == "public"), name
        assert ("app" in callers) is meta["openai/widgetAccessible"], name
    model_visible = [n for n, t in tools.items() if "model" in t["_meta"]["ui"]["visibility"]]
    assert sorted(model_visible) == sorted(set(tools) - {"commit_order"})
    # The widget never starts a search itself in a host (it asks the model to).
    assert tools["start_gift_workflow"]["_meta"]["ui"]["visibility"] == ["model"]


@LIVE
def test_widget_resource_is_listed_and_read_as_an_mcp_app_with_explicit_csp(live_url):
    client = McpTestClient(live_url)
    listed = [r for r in client.list_resources() if str(r.uri) == WIDGET_URI]
    assert len(listed) == 1
    assert WIDGET_URI.startswith("ui://") and "-v2." in WIDGET_URI
    assert listed[0].mime_type == "text/html;profile=mcp-app"
    assert "openai/widgetCSP" in (listed[0].meta or {})

    contents = client.read_resource(WIDGET_URI).contents
    assert len(contents) == 1
    content = dump(contents[0])
    assert content["mimeType"] == "text/html;profile=mcp-app"
    assert "<html" in content["text"].lower()
    meta = content["_meta"]
    # The configured domains, then the origin the pictures' absolute URLs are on (this server).
    resource_domains = [*settings.WIDGET_RESOURCE_DOMAINS, live_url]
    assert meta["openai/widgetPrefersBorder"] is True
    assert meta["openai/widgetDescription"]
    assert meta["openai/widgetDomain"] == settings.WIDGET_DOMAIN
    assert meta["openai/widgetCSP"] == {
        "connect_domains": settings.WIDGET_CONNECT_DOMAINS,
        "resource_domains": resource_domains,
    }
    assert meta["ui"] == {
        "csp": {
            "connectDomains": settings.WIDGET_CONNECT_DOMAINS,
            "resourceDomains": resource_domains,
        },
        "domain": settings.WIDGET_DOMAIN,
        "prefersBorder": True,
    }
    domains = [
        *meta["openai/widgetCSP"]["connect_domains"],
        *meta["openai/widgetCSP"]["resource_domains"],
    ]
    assert domains
    assert all("*" not in d and d.startswith(("https://", "http://")) for d in domains)


def test_a_wildcard_widget_domain_is_refused(settings):
    settings.WIDGET_CONNECT_DOMAINS = ["https://*.example.com"]
    with pytest.raises(ImproperlyConfigured):
        widget_resource_meta()


@pytest.mark.parametrize("enabled", [False, True])
def test_the_sdks_opentelemetry_spans_are_kept_only_when_asked_for(settings, enabled):
    from mcp.server._otel import OpenTelemetryMiddleware

    settings.MCP_OPENTELEMETRY_SPANS = enabled
    chain = mcp_transport.build_mcp_server().middleware

    assert any(isinstance(m, OpenTelemetryMiddleware) for m in chain) is enabled
    assert chain  # the SDK's other middleware (request state) stays either way


# --- host / origin protection -------------------------------------------------------------------


@LIVE
def test_a_foreign_host_header_is_rejected_with_421(live_url):
    response = httpx2.post(f"{live_url}/mcp", json=INIT, headers={**ACCEPT, "Host": "evil.example"})
    assert response.status_code == 421


@LIVE
def test_a_foreign_origin_is_rejected_and_chatgpt_is_accepted(live_url):
    evil = httpx2.post(
        f"{live_url}/mcp", json=INIT, headers={**ACCEPT, "Origin": "https://evil.example"}
    )
    assert evil.status_code == 403
    chatgpt = httpx2.post(
        f"{live_url}/mcp", json=INIT, headers={**ACCEPT, "Origin": "https://chatgpt.com"}
    )
    assert chatgpt.status_code == 200
    assert chatgpt.json()["result"]["serverInfo"]["name"] == "giftgenius"


@LIVE
@pytest.mark.parametrize(
    "host", ["127.0.0.1:8614.evil.example", "127.0.0.1:80:81", "127.0.0.1:", "127.0.0.1.evil"]
)
def test_an_allowed_host_with_anything_after_it_is_rejected(live_url, host):
    """Host and port are matched as whole tokens: `127.0.0.1:*` allows any port, no suffix."""
    response = httpx2.post(f"{live_url}/mcp", json=INIT, headers={**ACCEPT, "Host": host})
    assert response.status_code == 421
    assert response.json()["error"]["code"] == -32600  # a JSON-RPC error, not plain text


@LIVE
def test_loopback_with_any_port_and_its_bare_name_are_accepted(live_url):
    for host in ("127.0.0.1:8614", "localhost:1", "127.0.0.1"):
        response = httpx2.post(f"{live_url}/mcp", json=INIT, headers={**ACCEPT, "Host": host})
        assert response.status_code == 200, (host, response.text)


@LIVE
@pytest.mark.parametrize("origin", ["http://127.0.0.1:8614.evil.example", "http://127.0.0.1:1/x"])
def test_an_allowed_origin_with_anything_after_it_is_rejected(live_url, origin):
    response = httpx2.post(f"{live_url}/mcp", json=INIT, headers={**ACCEPT, "Origin": origin})
    assert response.status_code == 403


def test_only_loopback_hosts_are_allowed_with_any_port():
    assert {h for h in settings.MCP_ALLOWED_HOSTS if h.endswith(":*")} <= {
        "127.0.0.1:*",
        "localhost:*",
        "[::1]:*",
    }


def json_rpc_error_data(response: httpx2.Response, status: int) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert (body["jsonrpc"], body["id"], body["error"]["code"]) == ("2.0", None, -32600)
    return body["error"]["data"]


@LIVE
def test_a_body_over_the_limit_is_a_json_rpc_error(live_url, user):
    auth = {
        **ACCEPT,
        "Authorization": f"Bearer {issue_api_token(user=user)}",
        "Content-Type": "application/json",
    }
    too_big = b'{"x": "' + b"a" * (5 * 1024 * 1024) + b'"}'
    declared = httpx2.post(f"{live_url}/mcp", content=too_big, headers=auth)
    assert json_rpc_error_data(declared, 413)["code"] == "PAYLOAD_TOO_LARGE"
    chunked = httpx2.post(f"{live_url}/mcp", content=iter([too_big]), headers=auth)
    assert json_rpc_error_data(chunked, 413)["code"] == "PAYLOAD_TOO_LARGE"


@LIVE
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_body_not_sent_as_json_is_a_json_rpc_unsupported_media_type(live_url, user, content_type):
    headers = {**ACCEPT, "Authorization": f"Bearer {issue_api_token(user=user)}"}
    if content_type:
        headers["Content-Type"] = content_type
    response = httpx2.post(f"{live_url}/mcp", content=json.dumps(INIT).encode(), headers=headers)
    data = json_rpc_error_data(response, 415)
    assert (data["code"], data["field"]) == ("UNSUPPORTED_MEDIA_TYPE", "Content-Type")


# The 2026-07-28 era: no handshake, every request a self-contained envelope. The SDK serves it on
# its own path (no per-request session); a current SDK client in "auto" mode discovers it.
ENVELOPE_ERA = "2026-07-28"


def envelope_call(tool: str, arguments: dict | None = None) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {
            "name": tool,
            "arguments": arguments or {},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": ENVELOPE_ERA,
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }


def envelope_headers(tool: str) -> dict:
    return {
        **ACCEPT,
        "MCP-Protocol-Version": ENVELOPE_ERA,
        "Mcp-Method": "tools/call",
        "Mcp-Name": tool,
    }


def without_view_id(html: str) -> str:
    (view_id,) = set(re.findall(r'data-gg-view="([0-9a-f]{32})"', html))
    return html.replace(view_id, "VIEW")


@LIVE
def test_a_current_sdk_client_discovers_the_2026_era(live_url):
    version, server_info = McpTestClient(live_url, mode="auto").handshake()
    assert version == ENVELOPE_ERA
    assert server_info.name == "giftgenius"
    tools = McpTestClient(live_url, mode=ENVELOPE_ERA).list_tools()
    assert sorted(t.name for t in tools) == sorted(REGISTRY)


@LIVE
def test_the_2026_era_answers_a_tool_call_as_the_handshake_era_does(live_url, user):
    token = issue_api_token(user=user)
    envelope = McpTestClient(live_url, token=token, mode=ENVELOPE_ERA)
    handshake = McpTestClient(live_url, token=token)
    workflow_id = envelope.call("start_gift_workflow", {}).structured_content["workflow_id"]
    assert WorkflowContext.objects.get(id=workflow_id).owner == user
    envelope.call("suggest_gifts", {"workflow_id": workflow_id, **BRIEF})

    answers = [c.call("get_workflow", {"workflow_id": workflow_id}) for c in (envelope, handshake)]

    new, old = (dump(a) for a in answers)
    assert new["isError"] is False and new["structuredContent"]["current_step"] == "ideas"
    assert new["structuredContent"] == old["structuredContent"]
    assert new["content"] == old["content"]
    # The same widget view, drawn apart (each draw has its own view id).
    assert without_view_id(new["_meta"]["html"]) == without_view_id(old["_meta"]["html"])
    assert 'data-gg-workflow="' + workflow_id in new["_meta"]["html"]
    assert new["_meta"]["locale"] == old["_meta"]["locale"] == "en"


@LIVE
def test_the_2026_era_still_needs_credentials(live_url):
    result = McpTestClient(live_url, mode=ENVELOPE_ERA).call("start_gift_workflow", {})
    assert result.is_error is True
    assert result.structured_content["error"]["code"] == "UNAUTHORIZED"

    # A bad token is refused at the HTTP layer (the OAuth challenge), before any tool runs.
    response = httpx2.post(
        f"{live_url}/mcp",
        json=envelope_call("start_gift_workflow"),
        headers={**envelope_headers("start_gift_workflow"), "Authorization": "Bearer gg_bad"},
    )
    assert response.status_code == 401
    assert 'error="invalid_token"' in response.headers["www-authenticate"]
    assert not WorkflowContext.objects.exists()


@LIVE
def test_a_2026_request_without_its_envelope_is_a_precise_json_rpc_error(live_url, user):
    call = envelope_call("start_gift_workflow")
    del call["params"]["_meta"]
    headers = {
        **envelope_headers("start_gift_workflow"),
        "Authorization": f"Bearer {issue_api_token(user=user)}",
    }

    response = httpx2.post(f"{live_url}/mcp", json=call, headers=headers)

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == -32602  # INVALID_PARAMS
    assert "protocolVersion" in error["message"] and "clientCapabilities" in error["message"]
    assert "Traceback" not in response.text
    assert not WorkflowContext.objects.exists()


@LIVE
def test_mcp_path_is_exact_and_django_still_serves_the_rest(live_url):
    assert httpx2.get(f"{live_url}/healthz").json() == {"status": "ok"}
    response = httpx2.post(f"{live_url}/mcp", json=INIT, headers=ACCEPT, follow_redirects=False)
    assert response.status_code == 200  # no 307 to /mcp/


# --- principals ---------------------------------------------------------------------------------


@LIVE
def test_a_call_without_credentials_is_unauthorized(live_url):
    result = McpTestClient(live_url).call("start_gift_workflow", {})
    assert result.is_error is True
    assert result.structured_content["ok"] is False
    assert result.structured_content["error"]["code"] == "UNAUTHORIZED"
    assert "UNAUTHORIZED" in result.content[0].text
    assert not WorkflowContext.objects.exists()


@LIVE
def test_a_bad_bearer_token_is_not_rescued_by_a_subject(live_url):
    # Refused at the HTTP layer (401, the OAuth challenge), before any tool runs.
    response = httpx2.post(
        f"{live_url}/mcp",
        json=SUBJECT_CALL,
        headers={**ACCEPT, "Authorization": "Bearer gg_not-a-real-token"},
    )
    assert response.status_code == 401
    assert 'error="invalid_token"' in response.headers["www-authenticate"]
    assert not WorkflowContext.objects.exists()


@LIVE
def test_a_subject_alone_is_refused_unless_the_deployment_trusts_it(live_url, settings):
    settings.MCP_TRUST_OPENAI_SUBJECT = False
    response = httpx2.post(f"{live_url}/mcp", json=SUBJECT_CALL, headers=ACCEPT)
    assert response.status_code == 401
    assert "resource_metadata=" in response.headers["www-authenticate"]
    assert not WorkflowContext.objects.exists()


@LIVE
def test_a_bearer_token_acts_for_its_user(live_url, user):
    client = McpTestClient(live_url, token=issue_api_token(user=user))
    result = client.call("start_gift_workflow", {})
    assert result.is_error is False
    assert WorkflowContext.objects.get(id=result.structured_content["workflow_id"]).owner == user


# --- the result envelope ------------------------------------------------------------------------


@LIVE
@pytest.mark.usefixtures("demo_catalog")
def test_success_result_carries_body_summary_and_widget_meta(live_url):
    client = McpTestClient(live_url)
    meta = {
        "openai/subject": "v1/alice",
        "openai/locale": "pl-PL",
        "giftgenius/correlationId": "cid-mcp-1",
    }
    workflow_id = client.call("start_gift_workflow", {}, meta=meta).structured_content[
        "workflow_id"
    ]
    result = client.call("suggest_gifts", {"workflow_id": workflow_id, **BRIEF}, meta=meta)
    assert result.is_error is False
    body = result.structured_content
    assert body["ok"] is True
    assert body["gifts"]
    count = len(body["gifts"])
    assert result.content[0].text == f"{count} gift idea{'s' if count != 1 else ''} found."
    assert result.meta["correlation_id"] == "cid-mcp-1"
    assert result.meta["locale"] == "pl"
    if mcp_server_has_fragments():
        assert isinstance(result.meta["html"], str) and result.meta["html"].strip()
    else:
        assert "html" not in result.meta


def mcp_server_has_fragments() -> bool:
    import importlib.util

    return importlib.util.find_spec("widget.rendering") is not None


@LIVE
def test_validation_error_is_the_field_precise_contract(live_url):
    client = McpTestClient(live_url)
    meta = {"openai/subject": "v1/alice"}
    workflow_id = client.call("start_gift_workflow", {}, meta=meta).structured_content[
        "workflow_id"
    ]
    result = client.call(
        "suggest_gifts", {"workflow_id": workflow_id, **BRIEF, "relationship": "boss"}, meta=meta
    )
    assert result.is_error is True
    error = result.structured_content["error"]
    assert result.structured_content["ok"] is False
    assert error["code"] == "VALIDATION_ERROR"
    assert error["error_type"] == "validation"
    assert error["retryable"] is False
    assert error["field"] == "relationship"
    assert "friend" in error["allowed_values"]
    assert error["expected"]
    assert "example" in error
    assert result.content[0].text.startswith("VALIDATION_ERROR: ")
    schema = next(t for t in client.list_tools() if t.name == "suggest_gifts").output_schema
    Draft202012Validator(schema).validate(result.structured_content)


@LIVE
def test_missing_arguments_reach_the_executor_not_the_sdk(live_url):
    result = McpTestClient(live_url).call("get_workflow", {}, meta={"openai/subject": "v1/alice"})
    assert result.is_error is True
    error = result.structured_content["error"]
    assert (error["code"], error["field"]) == ("VALIDATION_ERROR", "workflow_id")


@LIVE
@pytest.mark.parametrize(
    ("meta", "headers", "locale"),
    [
        ({"openai/locale": "uk-UA"}, {}, "uk"),
        ({"openai/locale": "zh-CN"}, {}, "zh-hans"),
        ({"openai/locale": "de-DE"}, {"Accept-Language": "de-DE, ru;q=0.8"}, "ru"),
        ({}, {"Accept-Language": "pl"}, "pl"),
        ({"openai/locale": "fr-FR"}, {}, "en"),
    ],
)
def test_locale_comes_from_meta_then_accept_language_then_english(live_url, meta, headers, locale):
    client = McpTestClient(live_url, headers=headers)
    result = client.call("start_gift_workflow", {}, meta={"openai/subject": "v1/alice", **meta})
    assert result.meta["locale"] == locale


@LIVE
def test_correlation_id_falls_back_to_the_header_and_is_minted_otherwise(live_url):
    client = McpTestClient(live_url, headers={"X-Correlation-ID": "cid-from-header"})
    result = client.call("start_gift_workflow", {}, meta={"openai/subject": "v1/alice"})
    assert result.meta["correlation_id"] == "cid-from-header"
    minted = McpTestClient(live_url).call(
        "start_gift_workflow", {}, meta={"openai/subject": "v1/alice"}
    )
    assert len(minted.meta["correlation_id"]) == 32


@LIVE
@pytest.mark.usefixtures("demo_catalog")
def test_fault_plan_from_meta_reaches_the_upstream(live_url):
    meta = {"openai/subject": "v1/alice", "giftgenius/fault": "catalog=503"}
    result = McpTestClient(live_url).call(
        "search_products", {"query": "coffee", "limit": 3}, meta=meta
    )
    assert result.is_error is True
    assert result.structured_content["error"]["code"] == "UPSTREAM_UNAVAILABLE"
    assert result.structured_content["error"]["retryable"] is True


@LIVE
@pytest.mark.usefixtures("demo_catalog")
def test_fault_plan_is_ignored_when_fault_injection_is_off(live_url, settings):
    settings.FAULT_INJECTION_ENABLED = False
    meta = {"openai/subject": "v1/alice", "giftgenius/fault": "catalog=503"}
    result = McpTestClient(live_url).call(
        "search_products", {"query": "coffee", "limit": 3}, meta=meta
    )
    assert result.is_error is False
    assert result.structured_content["products"]


@LIVE
def test_an_unexpected_crash_is_internal_error_without_its_text(live_url, monkeypatch):
    def explode(**kwargs):
        raise RuntimeError("db password=hunter2 at /srv/app/secret.py")

    monkeypatch.setattr(mcp_transport, "execute_tool", explode)
    result = McpTestClient(live_url).call(
        "start_gift_workflow",
        {},
        meta={"openai/subject": "v1/alice", "giftgenius/correlationId": "cid-crash"},
    )
    assert result.is_error is True
    error = result.structured_content["error"]
    assert error["code"] == "INTERNAL_ERROR"
    assert error["details"] == {"correlation_id": "cid-crash"}
    wire = json.dumps(dump(result))
    for leak in ("hunter2", "secret.py", "RuntimeError", "Traceback"):
        assert leak not in wire


@LIVE
def test_a_crash_while_finding_the_principal_is_internal_error_too(live_url, monkeypatch):
    def explode(subject):
        raise RuntimeError("connection to 10.0.0.7 refused")

    monkeypatch.setattr(mcp_transport, "user_for_subject", explode)
    result = McpTestClient(live_url).call(
        "start_gift_workflow", {}, meta={"openai/subject": "v1/alice"}
    )
    assert result.structured_content["error"]["code"] == "INTERNAL_ERROR"
    assert "10.0.0.7" not in json.dumps(dump(result))


def fake_fragments(monkeypatch, render) -> None:
    from widget import rendering

    monkeypatch.setattr(rendering, "render_fragment", render)


@LIVE
def test_the_rendered_fragment_goes_in_meta_only(live_url, monkeypatch):
    calls = []

    def render(*, tool, outcome, locale, origin=None, hosted=True, time_zone=None, arguments=None):
        calls.append((tool, outcome.ok, locale))
        return f"<section data-tool='{tool}'>fragment</section>"

    fake_fragments(monkeypatch, render)
    meta = {"openai/subject": "v1/alice", "openai/locale": "ru"}
    result = McpTestClient(live_url).call("start_gift_workflow", {}, meta=meta)
    assert result.meta["html"] == "<section data-tool='start_gift_workflow'>fragment</section>"
    assert calls == [("start_gift_workflow", True, "ru")]
    assert "fragment" not in json.dumps(result.structured_content) + result.content[0].text


@LIVE
def test_a_broken_fragment_renderer_does_not_hide_the_tools_outcome(live_url, monkeypatch):
    def render(*, tool, outcome, locale, origin=None, hosted=True, time_zone=None, arguments=None):
        raise RuntimeError("template blew up at /srv/templates/x.html")

    fake_fragments(monkeypatch, render)
    result = McpTestClient(live_url).call(
        "start_gift_workflow", {}, meta={"openai/subject": "v1/alice"}
    )
    assert result.is_error is False  # the workflow was created; say so
    assert WorkflowContext.objects.filter(id=result.structured_content["workflow_id"]).exists()
    assert "html" not in result.meta
    assert "blew up" not in json.dumps(dump(result))


@LIVE
@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        ({"giftgenius/timeZone": "Asia/Tokyo"}, "Asia/Tokyo"),
        ({"openai/userLocation": {"city": "Kraków", "timezone": "Europe/Warsaw"}}, "Europe/Warsaw"),
        # The widget asked the host; its word wins over the coarse location hint.
        (
            {"giftgenius/timeZone": "Asia/Tokyo", "openai/userLocation": {"timezone": "UTC"}},
            "Asia/Tokyo",
        ),
        ({"giftgenius/timeZone": "../../etc/passwd"}, None),
        ({"openai/userLocation": "Europe/Warsaw"}, None),
        ({}, None),
    ],
    ids=["widget", "chatgpt-hint", "widget-wins", "not-a-zone", "hint-not-an-object", "none"],
)
def test_the_fragment_is_drawn_in_the_time_zone_the_request_meta_names(
    live_url, monkeypatch, meta, expected
):
    zones = []

    def render(*, tool, outcome, locale, origin=None, hosted=True, time_zone=None, arguments=None):
        zones.append(time_zone)
        return "<section>fragment</section>"

    fake_fragments(monkeypatch, render)
    McpTestClient(live_url).call(
        "start_gift_workflow", {}, meta={"openai/subject": "v1/alice", **meta}
    )
    assert zones == [expected]


# --- units (no server) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("en-US", "en"),
        ("pl", "pl"),
        ("PL_pl", "pl"),
        ("uk-UA", "uk"),
        ("ru-RU", "ru"),
        ("zh-Hans-CN", "zh-hans"),
        ("zh", "zh-hans"),
        ("de-DE", None),
        ("", None),
        (None, None),
        (42, None),
    ],
)
def test_supported_locale(tag, expected):
    assert normalize_locale(tag) == expected


@pytest.fixture
def no_fragments(monkeypatch):
    fake_fragments(monkeypatch, lambda **kwargs: "<p>fragment</p>")


@pytest.mark.usefixtures("no_fragments")
def test_the_confirmation_token_stays_in_meta():
    token = "ct_very-secret-token"
    outcome = ToolOutcome(
        "prepare_order", {"ok": True, "order_id": "o1"}, {"confirmation_token": token}, 200, "cid"
    )
    result = tool_result(outcome, locale="en")
    assert result.meta["confirmation_token"] == token
    assert token not in json.dumps(result.structured_content) + result.content[0].text


# JSON may spell a lone UTF-16 surrogate, which no UTF-8 answer, log line or row can hold.
NOT_UNICODE = "v1/\\ud800"


def post_spelled(live_url: str, call: dict, *, token: str) -> httpx2.Response:
    """The envelope call with its PLACEHOLDER spelled as NOT_UNICODE in the JSON itself."""
    headers = {
        **envelope_headers(call["params"]["name"]),
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
    }
    body = json.dumps(call).replace("PLACEHOLDER", NOT_UNICODE).encode()
    return httpx2.post(f"{live_url}/mcp", content=body, headers=headers)


@LIVE
def test_an_argument_that_is_not_unicode_gets_the_error_contract_over_mcp(live_url, user):
    call = envelope_call("start_gift_workflow", {"note": "PLACEHOLDER"})

    response = post_spelled(live_url, call, token=issue_api_token(user=user))

    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert result["isError"] is True
    error = result["structuredContent"]["error"]
    assert (error["code"], error["field"]) == ("VALIDATION_ERROR", "note")
    assert not WorkflowContext.objects.exists()
    assert ToolCallLog.objects.get().error_code == "VALIDATION_ERROR"


@LIVE
def test_a_correlation_id_that_is_not_unicode_is_replaced(live_url, user):
    call = envelope_call("start_gift_workflow")
    call["params"]["_meta"]["giftgenius/correlationId"] = "PLACEHOLDER"

    response = post_spelled(live_url, call, token=issue_api_token(user=user))

    assert response.status_code == 200, response.text
    assert response.json()["result"]["isError"] is False
    row = ToolCallLog.objects.get()
    assert (row.tool, row.status) == ("start_gift_workflow", "success")
    assert re.fullmatch(r"[0-9a-f]{32}", row.correlation_id)  # a minted one


@LIVE
@pytest.mark.parametrize("spelled", [NOT_UNICODE, "v1/\\u0000x", "v1/\\u202ex", "x" * 257])
def test_a_subject_no_row_can_hold_is_a_validation_error_naming_it(live_url, user, spelled):
    """The subject is stored with the call (and names a user when trusted): a NUL in it once
    lost the call's log row on PostgreSQL, and the batch the row was in."""
    call = envelope_call("start_gift_workflow")
    call["params"]["_meta"]["openai/subject"] = "PLACEHOLDER"
    body = json.dumps(call).replace("PLACEHOLDER", spelled).encode()
    headers = {
        **envelope_headers("start_gift_workflow"),
        "Authorization": f"Bearer {issue_api_token(user=user)}",
        "Content-Type": "application/json",
    }

    response = httpx2.post(f"{live_url}/mcp", content=body, headers=headers)

    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert result["isError"] is True
    error = result["structuredContent"]["error"]
    assert (error["code"], error["field"]) == ("VALIDATION_ERROR", "_meta.openai/subject")
    assert not WorkflowContext.objects.exists()
    row = ToolCallLog.objects.get()  # recorded, without the subject
    assert (row.error_code, row.host_subject) == ("VALIDATION_ERROR", "")


def test_the_models_line_of_text_says_what_the_result_says():
    def line(tool: str, body: dict) -> str:
        return mcp_transport.summarize(ToolOutcome(tool, {"ok": True, **body}, {}, 200, "c"))

    pending = {"order_id": "o-1", "status": "payment_pending", "message": "It is processing."}
    assert line("commit_order", pending) == "It is processing. Order o-1 is payment_pending."
    assert "processed" not in line("commit_order", pending)
    empty = {"products": [], "no_results_reason": "No active product mentions 'zzz'."}
    assert line("search_products", empty) == "No products found. No active product mentions 'zzz'."
    assert line("search_products", {"products": [{}, {}]}) == "2 products found."
    assert line("get_workflow", {"current_step": "ideas"}) == (
        "Gift search checked. Current step: ideas."
    )
