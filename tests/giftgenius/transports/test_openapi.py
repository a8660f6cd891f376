"""Schemathesis against /api/openapi.json: no 5xx, and every response matches its documented schema.

Every error body must match the ToolError contract schema, so a malformed call can never
produce anything else (a stack trace, an HTML page, an undocumented status). The schema is
honest both ways: a call that violates it is refused, and a call it allows is refused only for
a reason no JSON schema can state (docs/testing.md lists them).
"""

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings

from tool_runtime.principals import issue_api_token

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", get_wsgi_application())
schema.config.generation.update(modes=[schemathesis.GenerationMode.POSITIVE])
violating = schemathesis.openapi.from_wsgi("/api/openapi.json", get_wsgi_application())
violating.config.generation.update(modes=[schemathesis.GenerationMode.NEGATIVE])

CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.response_schema_conformance,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
]


@pytest.fixture
def keep_test_connection():
    """Like Django's test client: the WSGI app must not close the test transaction's connection."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def bearer(django_user_model, demo_catalog, keep_test_connection):
    user, _ = django_user_model.objects.get_or_create(username="fuzzer")
    return {"Authorization": f"Bearer {issue_api_token(user=user)}"}


def test_openapi_document_lists_every_tool(client):
    from tool_runtime.registry import REGISTRY

    document = client.get("/api/openapi.json", SERVER_NAME="127.0.0.1").json()
    paths = {path.rsplit("/", 1)[-1] for path in document["paths"]}
    assert set(REGISTRY) <= paths
    suggest = document["paths"]["/api/tools/suggest_gifts"]["post"]
    body_ref = suggest["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body_ref.endswith("/SuggestGiftsInput")
    assert "422" in suggest["responses"] and "200" in suggest["responses"]
    raw = client.get("/api/openapi.json", SERVER_NAME="127.0.0.1").content.decode()
    assert raw.count('"200"') == len(document["paths"])  # one success response per operation


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_tools_never_fail_with_5xx_and_match_the_contract(case, bearer):
    response = case.call(headers=bearer)
    case.validate_response(response, checks=CHECKS)
    if response.status_code == 422:
        error = response.json()["error"]
        assert refused_for_a_reason_no_schema_states(error) or untrimmed(case.body), response.text


# Refusals of a schema-valid call that depend on data or on more than one field (docs/testing.md).
DATA_REFUSALS = {"IDEMPOTENCY_KEY_REUSED", "PAYMENT_METHOD_UNKNOWN", "PRODUCT_NOT_OFFERED"}


def refused_for_a_reason_no_schema_states(error: dict) -> bool:
    codes = (
        {entry["code"] for entry in error["details"]["invalid_fields"]}
        if ("invalid_fields" in error.get("details", {}))
        else {error["code"]}
    )
    if codes <= DATA_REFUSALS:
        return True
    # Across fields (a minimum above its maximum, a search with neither words nor a category),
    # or a JSON number with more than 2 decimal places.
    # complete_checkout's buyer is an open object in the tool schema, and so are the parts of an
    # ACP payload the specification leaves open: their strings follow the printable-text rule.
    acp_text = (
        str(error.get("field", "")).startswith(("payload", "buyer"))
        and "may not contain" in (error["message"])
    )
    return (
        any(
            reason in error["message"]
            for reason in (
                "greater than budget_max",
                "greater than max_price",
                "no category is given",
            )
        )
        or ("decimal places" in error["message"])
        or acp_text
    )


def untrimmed(value) -> bool:
    """Text with surrounding whitespace: every tool trims it first (a blank name is then empty),
    which no JSON schema can say."""
    if isinstance(value, str):
        return value != value.strip()
    if isinstance(value, dict):
        return any(untrimmed(v) for v in value.values())
    return isinstance(value, list) and any(untrimmed(v) for v in value)


@pytest.mark.django_db
@violating.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_a_call_that_violates_the_schema_is_refused(case, bearer):
    response = case.call(headers=bearer)
    case.validate_response(
        response,
        checks=[
            schemathesis.checks.negative_data_rejection,
            schemathesis.checks.not_a_server_error,
        ],
    )
