"""Malformed calls get one field-precise, repairable error."""

import dataclasses
import json

import pytest

from gifts.models import WorkflowContext
from tests.fixtures import BRIEF, SHIPPING, prepare, start
from tool_runtime.errors import ERROR_CATALOG, ErrorType, Severity
from tool_runtime.models import ToolCallLog

pytestmark = pytest.mark.usefixtures("demo_catalog")

CONTRACT_KEYS = {"code", "error_type", "message", "retryable"}


def repaired(arguments: dict, error: dict) -> dict:
    """What a client that knows nothing but the error does: use the example for the field."""
    field = error["field"]
    fixed = dict(arguments)
    if error.get("expected") == "no such field":
        fixed.pop(field)
    elif "." in field:
        head, index = field.split(".", 1)
        fixed[head] = list(fixed[head])
        fixed[head][int(index)] = error["example"]
    else:
        fixed[field] = (
            error["example"] if error.get("example") is not None else error["allowed_values"][0]
        )
    return fixed


MALFORMED = [
    ("missing field", {k: v for k, v in BRIEF.items() if k != "relationship"}, "relationship"),
    ("unknown enum", {**BRIEF, "relationship": "boss"}, "relationship"),
    ("wrong type", {**BRIEF, "budget_max": "sixty"}, "budget_max"),
    ("negative", {**BRIEF, "budget_min": -5}, "budget_min"),
    ("unknown currency", {**BRIEF, "currency": "XYZ"}, "currency"),
    ("empty interests", {**BRIEF, "interests": []}, "interests"),
    ("blank interest", {**BRIEF, "interests": ["coffee", " "]}, "interests.1"),
    ("age out of range", {**BRIEF, "age": 300}, "age"),
    ("limit too big", {**BRIEF, "limit": 500}, "limit"),
    ("extra field", {**BRIEF, "budget": 50}, "budget"),
    ("budget_min above budget_max", {**BRIEF, "budget_min": 80, "budget_max": 60}, "budget_min"),
    ("too many decimals", {**BRIEF, "budget_max": 59.999}, "budget_max"),
    ("true for an integer", {**BRIEF, "age": True}, "age"),
    ("false for a count", {**BRIEF, "limit": False}, "limit"),
]


@pytest.mark.parametrize(("case", "arguments", "field"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_suggest_gifts_names_the_field_and_can_be_repaired_in_one_step(
    api, case, arguments, field
):
    workflow_id = start(api)
    arguments = {"workflow_id": workflow_id, **arguments}
    response = api.call("suggest_gifts", arguments)
    assert response.status == 422, response.body
    error = response.error
    assert error.keys() >= CONTRACT_KEYS
    assert error["code"] == "VALIDATION_ERROR"
    assert error["error_type"] == "validation"
    assert error["retryable"] is False
    assert error["field"] == field
    assert field in error["message"]
    assert error["expected"]
    assert error.get("example") is not None or error.get("allowed_values")
    # The goal we measure: the error alone is enough to repair the call in one step.
    fixed = api.call("suggest_gifts", repaired(arguments, error))
    assert fixed.status == 200, (case, fixed.body)


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [("relationship", "boss", "friend"), ("currency", "EUR", "USD")],
)
def test_enum_like_fields_list_their_allowed_values(api, field, value, allowed):
    workflow_id = start(api)
    error = api.call("suggest_gifts", {"workflow_id": workflow_id, **BRIEF, field: value}).error
    assert allowed in error["allowed_values"]


def test_search_category_lists_the_categories(api):
    error = api.call("search_products", {"query": "mug", "category": "kitchenware"}).error
    assert error["field"] == "category"
    assert "kitchen" in error["allowed_values"]
    assert len(error["allowed_values"]) >= 12


def test_a_money_field_says_it_is_a_number_with_its_bounds(api):
    error = api.call("suggest_gifts", {**BRIEF, "workflow_id": start(api), "budget_min": "12.345"})
    assert error.error["field"] == "budget_min"
    assert error.error["expected"] == (
        "a number >= 0.0 <= 100000.0 (Lowest price, e.g. 20 (at most 2 decimal places).)"
    )
    assert "2 decimal places" in error.error["message"]


def test_an_unknown_nested_field_lists_the_fields_of_its_own_object(api):
    error = prepare(api, start(api), shipping={**SHIPPING, "phone": "555"}).error
    assert error["field"] == "shipping.phone"
    assert error["allowed_values"] == sorted(SHIPPING)
    assert "Accepted fields: city, country, line1, name, postal_code." in error["message"]


@pytest.mark.parametrize("query", ["  ", "\u3000\u3000", " \t "])
def test_a_search_for_no_words_is_refused_and_offers_nothing(api, query):
    workflow_id = start(api)
    response = api.call("search_products", {"query": query, "workflow_id": workflow_id})
    assert response.status == 422
    assert (response.error["code"], response.error["field"]) == ("VALIDATION_ERROR", "query")
    assert WorkflowContext.objects.get(pk=workflow_id).last_suggestions == []


def test_a_product_id_of_true_is_not_product_1(api):
    error = api.call("select_gift", {"workflow_id": start(api), "product_id": True}).error
    assert (error["code"], error["field"]) == ("VALIDATION_ERROR", "product_id")
    assert "not true or false" in error["message"]


def test_a_long_list_of_allowed_values_is_carried_once_not_spelled_out_in_the_message(api):
    error = prepare(api, start(api), shipping={**SHIPPING, "country": "XX"}).error
    assert error["field"] == "shipping.country"
    assert len(error["allowed_values"]) > 200 and "US" in error["allowed_values"]
    assert len(error["message"]) < 300, error["message"]
    assert error["expected"].startswith(f"one of the {len(error['allowed_values'])} values")


def test_invalid_workflow_id_format_says_where_the_id_comes_from_not_a_made_up_one(api):
    error = api.call("get_workflow", {"workflow_id": "not-a-uuid"}).error
    assert error["field"] == "workflow_id"
    assert "UUID" in error["expected"] and "start_gift_workflow" in error["expected"]
    assert "example" not in error


def test_body_that_is_not_json(api):
    response = api.client.post(
        "/api/tools/get_workflow", data="{oops", content_type="application/json"
    )
    body = json.loads(response.content)
    assert response.status_code == 400
    assert body["error"]["code"] == "INVALID_JSON"


def test_body_larger_than_django_reads_is_refused_with_its_limit(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 64
    body = json.dumps({"workflow_id": "x" * 64})
    response = api.client.post(
        "/api/tools/get_workflow", data=body, content_type="application/json"
    )
    error = json.loads(response.content)["error"]
    assert response.status_code == 413
    assert error["code"] == "PAYLOAD_TOO_LARGE"
    assert error["field"] == "(body)"
    assert "64 bytes" in error["message"] and "64 bytes" in error["expected"]
    assert error["retryable"] is False


def test_body_at_the_limit_is_read(api, settings):
    body = json.dumps({"workflow_id": "not-a-uuid"})
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(body)
    response = api.client.post(
        "/api/tools/get_workflow", data=body, content_type="application/json"
    )
    assert response.status_code == 422  # read and validated, not refused for its size
    assert json.loads(response.content)["error"]["field"] == "workflow_id"


def test_body_that_is_not_an_object(api):
    response = api.call("get_workflow", ["workflow_id"])
    assert response.status == 422
    assert response.error["field"] == "(arguments)"


# JSON may spell a lone UTF-16 surrogate, which no UTF-8 answer, log line or row can hold.
LONE_SURROGATE = "\\ud800"
INVALID_TEXT = [
    ("a field", "suggest_gifts", '"relationship": "fr{s}iend"', "relationship"),
    ("a list item", "suggest_gifts", '"interests": ["coffee", "{s}"]', "interests.1"),
    ("a nested field", "prepare_order", '"shipping": {{"name": "A{s}"}}', "shipping.name"),
    ("an idempotency key", "commit_order", '"idempotency_key": "k{s}"', "idempotency_key"),
    ("an unknown key", "get_workflow", '"x{s}": 1', "(arguments)"),
]


@pytest.mark.parametrize(
    ("case", "tool", "member", "field"), INVALID_TEXT, ids=[c[0] for c in INVALID_TEXT]
)
def test_text_that_is_not_unicode_is_a_validation_error_naming_its_field(
    api, case, tool, member, field
):
    workflow_id = start(api)
    body = f'{{"workflow_id": "{workflow_id}", {member.format(s=LONE_SURROGATE)}}}'
    response = api.client.post(f"/api/tools/{tool}", data=body, content_type="application/json")
    assert response.status_code == 422, response.content
    assert response["Content-Type"] == "application/json"
    error = json.loads(response.content)["error"]
    assert (error["code"], error["field"]) == ("VALIDATION_ERROR", field)
    assert error["expected"] == "valid Unicode text"
    row = ToolCallLog.objects.get(tool=tool)  # recorded, with nothing of the text kept
    assert (row.status, row.error_code, row.idempotency_key) == ("failed", "VALIDATION_ERROR", "")
    assert row.workflow_id is None


@pytest.mark.parametrize(
    ("depth", "code", "field"),
    [
        (17, "VALIDATION_ERROR", "x" + ".0" * 15),  # parsed, deeper than any tool's fields
        (500, "VALIDATION_ERROR", "x" + ".0" * 15),  # the parser reads it; no writer could
        (100_000, "INVALID_JSON", "(body)"),  # past the parser's own limit
    ],
)
def test_arguments_nested_deeper_than_any_tool_are_refused_with_the_contract(
    api, depth, code, field
):
    body = '{"x": ' + "[" * depth + "]" * depth + "}"
    response = api.client.post(
        "/api/tools/get_workflow", data=body, content_type="application/json"
    )
    assert response["Content-Type"] == "application/json"
    error = json.loads(response.content)["error"]
    assert (error["code"], error["field"]) == (code, field)
    assert response.status_code == ERROR_CATALOG[code].http_status


def test_unexpected_exception_becomes_internal_error_without_internals(api, monkeypatch):
    from tool_runtime import registry

    spec = registry.REGISTRY["get_workflow"]

    def explode(context, args):
        raise RuntimeError(
            "SELECT * FROM secret_table at /srv/app/giftgenius/tools.py password=hunter2"
        )

    monkeypatch.setitem(
        registry.REGISTRY, "get_workflow", dataclasses.replace(spec, handler=explode)
    )
    workflow_id = start(api)
    response = api.call(
        "get_workflow", {"workflow_id": workflow_id}, HTTP_X_CORRELATION_ID="corr-123"
    )
    assert response.status == 500
    error = response.error
    assert error["code"] == "INTERNAL_ERROR"
    assert error["details"]["correlation_id"] == "corr-123"
    text = response.raw.decode()
    for leak in (
        "SELECT",
        "secret_table",
        "/srv/",
        "tools.py",
        "hunter2",
        "RuntimeError",
        "Traceback",
    ):
        assert leak not in text


@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_a_crash_outside_the_executor_is_answered_with_the_contract(
    api, monkeypatch, settings, debug
):
    settings.DEBUG = debug  # Ninja's own handler answered the traceback under DEBUG

    def explode(*args, **kwargs):
        raise RuntimeError("connection to db-primary.internal:5432 refused, password=hunter2")

    monkeypatch.setattr("giftgenius.transports.rest.caller_for_bearer_header", explode)
    response = api.call("get_workflow", {}, HTTP_X_CORRELATION_ID="corr-456")
    assert response.status == 500
    assert response.headers["Content-Type"] == "application/json"
    assert response.error["code"] == "INTERNAL_ERROR"
    assert response.error["details"]["correlation_id"] == "corr-456"
    assert response.headers["X-Correlation-ID"] == "corr-456"
    for leak in ("db-primary", "hunter2", "RuntimeError", "Traceback"):
        assert leak not in response.raw.decode()


def test_missing_and_bad_credentials_are_unauthorized(db):
    from tests.conftest import ToolClient

    for client in (ToolClient(None), ToolClient("gg_not-a-real-token")):
        response = client.call("start_gift_workflow", {})
        assert response.status == 401
        assert response.error["code"] == "UNAUTHORIZED"
        assert response.error["field"] == "Authorization"


def test_every_catalog_entry_is_complete():
    for code, spec in ERROR_CATALOG.items():
        assert spec.code == code
        assert isinstance(spec.error_type, ErrorType)
        assert isinstance(spec.severity, Severity)
        assert 400 <= spec.http_status <= 599
        assert str(spec.banner)
    assert ERROR_CATALOG["UPSTREAM_UNAVAILABLE"].severity == Severity.ALERT
    assert ERROR_CATALOG["CARD_DECLINED"].severity == Severity.ANALYTICS


# --- requests no tool reads: still the contract ---------------------------------------------------


@pytest.mark.parametrize("path", ["/api/tools/get_workflow", "/api/tools/no_such_tool"])
@pytest.mark.parametrize("method", ["get", "put", "patch", "delete"])
def test_a_method_other_than_post_is_the_contracts_method_not_allowed(api, path, method):
    response = getattr(api.client, method)(path)
    assert response.status_code == 405
    assert (response["Content-Type"], response["Allow"]) == ("application/json", "POST")
    error = json.loads(response.content)["error"]
    assert (error["code"], error["field"], error["allowed_values"]) == (
        "METHOD_NOT_ALLOWED",
        "(method)",
        ["POST"],
    )


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)
def test_a_body_that_is_not_sent_as_json_is_the_contracts_unsupported_media_type(api, content_type):
    """A page on another site can post these without asking the browser first: never read."""
    response = api.client.generic(
        "POST", "/api/tools/start_gift_workflow", b"{}", content_type=content_type
    )
    assert response.status_code == 415
    assert response["Content-Type"] == "application/json"
    error = json.loads(response.content)["error"]
    assert (error["code"], error["field"]) == ("UNSUPPORTED_MEDIA_TYPE", "Content-Type")
    assert not WorkflowContext.objects.exists()


def test_a_body_sent_as_json_with_a_charset_is_read(api):
    response = api.client.generic(
        "POST",
        "/api/tools/start_gift_workflow",
        b"{}",
        content_type="application/json; charset=utf-8",
    )
    assert response.status_code == 200, response.content
