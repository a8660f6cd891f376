"""Hostile text at every entry, generated with hypothesis: every tool over REST and over MCP
(its `_meta` included), a signed webhook's body and the admin's list query strings. Each string
may hold NUL, other control characters, lone surrogates, bidi controls and zero-width
characters.

Whatever arrives: no 5xx; text the printable-text rule refuses is refused in that entry's own
error shape, naming the field; every tool call is either in the call log or counted as one that
could not be logged. On PostgreSQL (which refuses NUL in text) this is where a missed boundary
shows.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any
from urllib.parse import quote

import httpx2
import pytest
import stripe
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prometheus_client import CollectorRegistry

from giftgenius.transports.mcp import ACP_ERROR_CODE
from tests.conftest import ToolClient
from tool_runtime import call_log
from tool_runtime.errors import ERROR_CATALOG
from tool_runtime.models import ToolCallLog
from tool_runtime.principals import issue_api_token
from tool_runtime.registry import REGISTRY
from tool_runtime.text import describe_refused, drop_invisible
from tool_runtime.validation import is_unicode

LIVE = pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"])
FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,  # the same inputs on every run: a failure here is reproducible
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
WEBHOOK_SECRET = "whsec_fuzz"

# Text as an attacker or a careless host sends it: ordinary letters and emoji among NUL, C0/C1
# controls, lone surrogates, bidi controls, zero-width characters and the joiner.
HOSTILE_CHARS = st.sampled_from(
    [
        "\x00",
        "\x07",
        "\n",
        "\x85",
        "\ud800",
        "\udfff",
        "\u202e",
        "\u2066",
        "\u200b",
        "\ufeff",
        "\u200d",
        "a",
        "Z",
        "7",
        "-",
        " ",
        "é",
        "🎁",
    ]
)
hostile_text = st.lists(HOSTILE_CHARS, min_size=1, max_size=12).map("".join)


def refused(text: str) -> bool:
    """What the rule refuses (or no UTF-8 text can hold), after the invisible ones are dropped."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return True
    return describe_refused(drop_invisible(text)) is not None


def string_paths(value: Any, path: str = "") -> list[str]:
    if isinstance(value, str):
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in string_paths(v, f"{path}.{k}".lstrip("."))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in string_paths(v, f"{path}.{i}".lstrip("."))]
    return []


def with_text(arguments: dict, path: str, text: str) -> dict:
    arguments = json.loads(json.dumps(arguments))
    *parents, last = path.split(".")
    node: Any = arguments
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if isinstance(node, list):
        node[int(last)] = text
    else:
        node[last] = text
    return arguments


@st.composite
def hostile_calls(draw) -> tuple[str, dict, str, str]:
    """(tool, arguments, the path of the hostile text, the text): a tool's own example with
    one string replaced (or, for a tool with none, an extra field)."""
    spec = draw(st.sampled_from(sorted(REGISTRY.values(), key=lambda s: s.name)))
    example = spec.input_model.model_json_schema()["examples"][0]
    paths = string_paths(example) or ["note"]
    path = draw(st.sampled_from(paths))
    text = draw(hostile_text)
    return spec.name, with_text(example, path, text), path, text


def unrecorded_total() -> float:
    registry = CollectorRegistry()
    registry.register(call_log.UNRECORDED)
    return sum(
        sample.value
        for metric in registry.collect()
        for sample in metric.samples
        if sample.name == "giftgenius_tool_calls_unrecorded_total"
    )


def seen_calls() -> float:
    """Calls in the log plus calls counted as not logged."""
    call_log.flush()
    return ToolCallLog.objects.count() + unrecorded_total()


def assert_contract_error(error: dict, *, path: str, text: str) -> None:
    assert error["code"] in ERROR_CATALOG and isinstance(error["message"], str)
    if refused(text):
        assert error["code"] == "VALIDATION_ERROR", error
        named = [error.get("field"), *(error.get("details") or {}).get("other_invalid_fields", [])]
        assert path in named, (path, error)


@pytest.fixture
def loop_guard_off(settings):
    # The same example arguments fail again and again here, which the loop guard would stop.
    settings.LOOP_GUARD_MAX_FAILURES = 10**6


def test_every_tool_over_rest(user, demo_catalog, loop_guard_off):
    api = ToolClient(issue_api_token(user=user))

    @FUZZ
    @given(hostile_calls())
    def call(case):
        tool, arguments, path, text = case
        before = seen_calls()
        # Spelled as JSON spells it, lone surrogates included (`"\ud800"`).
        body = json.dumps(arguments)
        response = api.client.post(f"/api/tools/{tool}", data=body, content_type="application/json")
        assert response.status_code < 500, response.content
        assert response["Content-Type"] == "application/json"
        answer = json.loads(response.content)
        if not answer["ok"]:
            assert_contract_error(answer["error"], path=path, text=text)
        elif refused(text):
            pytest.fail(f"{tool}: {path}={text!r} was accepted")
        assert seen_calls() == before + 1

    call()


@LIVE
def test_every_tool_over_mcp_with_its_meta(live_url, user, demo_catalog, loop_guard_off):
    token = issue_api_token(user=user)

    @FUZZ
    @given(hostile_calls(), st.none() | hostile_text, st.booleans())
    def call(case, subject, signed_in):
        tool, arguments, path, text = case
        meta: dict[str, Any] = {"openai/locale": "en"}
        if subject is not None:
            meta["openai/subject"] = subject
        headers = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
        }
        if signed_in or subject is None:
            headers["Authorization"] = f"Bearer {token}"
        message = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments, "_meta": meta},
        }
        before = seen_calls()

        response = httpx2.post(f"{live_url}/mcp", content=json.dumps(message), headers=headers)

        assert response.status_code < 500, response.text
        answer = response.json()
        if "error" in answer and answer["error"]["code"] == ACP_ERROR_CODE:
            # An ACP tool's refusal, a JSON-RPC error as ACP's MCP binding says (the data is
            # ACP's Error): the text was accepted (a refused one is a VALIDATION_ERROR first).
            assert tool.endswith("_checkout_session") and not refused(text), answer
            assert {"type", "code", "message"} <= set(answer["error"]["data"])
            assert seen_calls() == before + 1
            return
        if "error" in answer:
            # The SDK's JSON parser refuses a lone surrogate escape in the handshake era (the
            # envelope era reads it and answers the tool's VALIDATION_ERROR): a JSON-RPC parse
            # error, before any tool is called.
            assert answer["error"]["code"] == -32700, answer
            assert not is_unicode(text) or (subject is not None and not is_unicode(subject))
            assert seen_calls() == before
            return
        result = answer["result"]
        content = result["structuredContent"]
        if subject is not None and refused(subject):
            # The subject is refused first: it decides who is calling when no token is sent.
            assert result["isError"] and content["error"]["code"] == "VALIDATION_ERROR"
            assert content["error"]["field"] == "_meta.openai/subject"
        elif not content["ok"]:
            assert_contract_error(content["error"], path=path, text=text)
        elif refused(text):
            pytest.fail(f"{tool}: {path}={text!r} was accepted")
        assert seen_calls() == before + 1

    call()


@pytest.mark.django_db(databases=["default", "payment_ledger"])
def test_a_signed_webhook_body(settings):
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    fields = ["id", "type", "data.object.id", "data.object.payment_intent"]
    fields += ["data.object.metadata.order_id"]

    @FUZZ
    @given(st.sampled_from(fields), hostile_text)
    def deliver(path, text):
        event = {
            "id": f"evt_{uuid.uuid4().hex}",
            "object": "event",
            "type": "charge.succeeded",
            "created": int(time.time()),
            "data": {
                "object": {
                    "id": "ch_fuzz",
                    "object": "charge",
                    "payment_intent": "pi_fuzz",
                    "metadata": {"order_id": str(uuid.uuid4())},
                }
            },
        }
        payload = json.dumps(with_text(event, path, text))
        header = stripe.WebhookSignature.generate_signature_header(payload, WEBHOOK_SECRET)
        response = Client().post(
            "/webhooks/stripe",
            data=payload,
            content_type="application/json",
            HTTP_STRIPE_SIGNATURE=header,
        )
        assert response.status_code < 500, response.content
        body = json.loads(response.content)
        stored = path != "data.object.metadata.order_id"  # metadata is read as a UUID, or not
        if stored and refused(text):
            assert response.status_code == 400
            assert body["error"]["code"] == "WEBHOOK_MALFORMED"
            assert body["error"]["field"] == path
        elif response.status_code == 400:
            assert body["error"]["code"].startswith("WEBHOOK_") and body["error"]["message"]

    deliver()


@pytest.mark.django_db(databases=["default", "payment_ledger"])
def test_the_admins_list_query_strings():
    staff = get_user_model().objects.create_superuser(username="root", password="pw-root-123")
    client = Client(raise_request_exception=False)
    client.force_login(staff)
    lists = [
        (model, field)
        for model, model_admin in admin.site._registry.items()
        for field in [*(f for f in model_admin.list_filter if isinstance(f, str)), "q"]
    ]

    @FUZZ
    @given(st.sampled_from(lists), hostile_text)
    def browse(target, text):
        model, field = target
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        name = field if field == "q" else f"{field}__exact"
        # A lone surrogate cannot be sent in a URL: its bytes arrive as invalid UTF-8, which
        # Django reads as U+FFFD.
        encoded = quote(text.encode("utf-8", "surrogatepass"))
        received = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        response = client.get(f"{url}?{name}={encoded}")
        assert response.status_code < 500, (url, name, text)
        if describe_refused(received) is not None:
            assert response.status_code == 400
            assert name in response.content.decode()
        else:
            assert response.status_code in (200, 302)

    browse()
