"""REST adapter: `POST /api/tools/<name>` for every registered tool, with OpenAPI docs.

The routes are generated from the tool registry and stay thin: read the body, the bearer
token and the correlation id, call the executor, write its outcome. Validation is the
executor's (the same path as MCP), so Ninja only documents the schemas.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from oauth2_provider.www_authenticate import build_bearer_challenge
from pydantic import BaseModel

from tool_runtime import call_log
from tool_runtime.errors import ERROR_CATALOG, ToolError
from tool_runtime.executor import execute_tool
from tool_runtime.observability import correlation_id_from, get_logger
from tool_runtime.outcome import (
    ToolOutcome,
    error_body,
    error_outcome,
    internal_error_outcome,
    is_outage,
    unavailable_outcome,
)
from tool_runtime.principals import caller_for_bearer_header
from tool_runtime.registry import REGISTRY, ToolSpec
from tool_runtime.validation import json_arguments

REF = "#/components/schemas/{model}"
# Answered METHOD_NOT_ALLOWED in the contract (Ninja's own answer is an HTML page).
OTHER_METHODS = ["GET", "PUT", "PATCH", "DELETE"]
FAULT_HEADER = "HTTP_X_FAULT_INJECT"
# The REST tools are one protected resource (RFC 9728): tokens are asked for this path.
TOOLS_RESOURCE_PATH = "/api/tools"

log = get_logger("giftgenius.transports.rest")


class GiftGeniusAPI(NinjaAPI):
    """Adds the tool schemas (and their nested models) to the OpenAPI components."""

    def get_openapi_schema(self, *, path_prefix: str | None = None, path_params: Any = None) -> Any:
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        components = schema.setdefault("components", {})
        schemas = components.setdefault("schemas", {})
        for spec in REGISTRY.values():
            for model in (spec.input_model, spec.output_model):
                schemas.update(component_schemas(model))
        schemas["ToolError"] = ERROR_SCHEMA
        components.setdefault("securitySchemes", {})["bearerAuth"] = {
            "type": "http",
            "scheme": "bearer",
        }
        return schema


# A value the field would accept: any JSON value but null (a field without one omits it).
EXAMPLE_SCHEMA: dict[str, Any] = {
    "type": ["string", "number", "integer", "boolean", "object", "array"],
    "description": "A value the field accepts, to copy (never a made-up id).",
}
# One entry of details.invalid_fields: every invalid field of the call, the first one also at
# the top level of the error.
INVALID_FIELD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["field", "code", "message"],
    "properties": {
        "field": {
            "type": "string",
            "description": "The field's dotted path, e.g. shipping.country.",
        },
        "code": {"type": "string", "enum": sorted(ERROR_CATALOG)},
        "message": {"type": "string"},
        "expected": {"type": "string"},
        "allowed_values": {"type": "array"},
        "example": EXAMPLE_SCHEMA,
        "unknown": {"type": "boolean", "description": "A field this tool does not take."},
        "nearest_field": {"type": "string", "description": "The accepted name it likely meant."},
        "details": {"type": "object"},
        "next_actions": {"type": "array", "items": {"type": "string"}},
    },
}
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["ok", "error"],
    "properties": {
        "ok": {"const": False},
        "error": {
            "type": "object",
            "required": ["code", "error_type", "message", "retryable"],
            "properties": {
                "code": {"type": "string", "enum": sorted(ERROR_CATALOG)},
                "error_type": {
                    "type": "string",
                    "enum": ["validation", "business", "conflict", "upstream", "platform"],
                },
                "message": {"type": "string"},
                "retryable": {"type": "boolean"},
                "field": {"type": "string"},
                "expected": {"type": "string"},
                "allowed_values": {"type": "array"},
                "example": EXAMPLE_SCHEMA,
                "details": {
                    "type": "object",
                    "properties": {
                        "invalid_fields": {"type": "array", "items": INVALID_FIELD_SCHEMA}
                    },
                },
                "next_actions": {"type": "array", "items": {"type": "string"}},
            },
        },
        "_meta": {"type": "object"},
    },
}


def component_schemas(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template=REF)
    found = schema.pop("$defs", {})
    found[model.__name__] = schema
    return found


def render(outcome: ToolOutcome) -> HttpResponse:
    """The JSON body is rebuilt identically from (body, meta), so a replay is byte-for-byte."""
    # orjson writes the same compact UTF-8 as json.dumps(ensure_ascii=False, separators=(",", ":")),
    # several times faster.
    payload = orjson.dumps({**outcome.body, "_meta": outcome.meta}, option=orjson.OPT_NON_STR_KEYS)
    response = HttpResponse(payload, status=outcome.http_status, content_type="application/json")
    response["X-Correlation-ID"] = outcome.correlation_id
    for header, value in outcome.extra_headers.items():
        response[header] = value
    if outcome.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def tool_view(spec: ToolSpec):
    def view(request: HttpRequest) -> HttpResponse:
        correlation_id = correlation_id_from(request.headers.get("X-Correlation-ID"))
        try:
            refuse_media_type(request)
            arguments = json_arguments(request)
        except ToolError as exc:
            return render(
                ToolOutcome(
                    spec.name,
                    error_body(exc),
                    {"correlation_id": correlation_id},
                    exc.spec.http_status,
                    correlation_id,
                )
            )
        header = request.headers.get("Authorization")
        caller = caller_for_bearer_header(
            header, resource_uri=request.build_absolute_uri(request.path)
        )
        outcome = execute_tool(
            name=spec.name,
            arguments=arguments,
            principal=caller.user if caller else None,
            correlation_id=correlation_id,
            transport="rest",
            locale=getattr(request, "LANGUAGE_CODE", "en"),
            fault_plan=request.META.get(FAULT_HEADER),
            scopes=caller.scopes if caller else None,
        )
        response = render(outcome)
        if caller is None:
            response["WWW-Authenticate"] = bearer_challenge(request, sent_token=header is not None)
        return response

    view.__name__ = f"tool_{spec.name}"
    return view


def refuse_media_type(request: HttpRequest) -> None:
    """A body sent as something other than JSON (a form, text/plain: what a page on another
    site can post without asking) is refused; a body without a Content-Type is read as JSON."""
    media_type = request.content_type or ""
    if request.headers.get("Content-Type") is None or media_type == "application/json":
        return
    if media_type.startswith("application/") and media_type.endswith("+json"):
        return
    raise ToolError(
        "UNSUPPORTED_MEDIA_TYPE",
        f"The body is sent as '{media_type}'; a tool call is JSON. Send it with "
        "'Content-Type: application/json'.",
        field="Content-Type",
        expected="application/json",
        example="application/json",
    )


def method_not_allowed(request: HttpRequest) -> HttpResponse:
    """Every tool is called with POST; another method is answered in the contract."""
    correlation_id = correlation_id_from(request.headers.get("X-Correlation-ID"))
    error = ToolError(
        "METHOD_NOT_ALLOWED",
        f"{request.method} is not how a tool is called: send POST with the tool's fields as a "
        "JSON object.",
        field="(method)",
        expected="POST",
        allowed_values=["POST"],
    )
    tool = request.path.rstrip("/").rpartition("/")[2]
    outcome = error_outcome(name=tool, error=error, correlation_id=correlation_id)
    outcome.meta = {"correlation_id": correlation_id}
    response = render(outcome)
    response["Allow"] = "POST"
    return response


def unknown_tool_method_not_allowed(request: HttpRequest, name: str) -> HttpResponse:
    return method_not_allowed(request)


def bearer_challenge(request: HttpRequest, *, sent_token: bool) -> str:
    """RFC 6750/9728: where to find out how to sign in; an error code only if a token was sent."""
    error = {"error": "invalid_token"} if sent_token else None
    metadata = request.build_absolute_uri("/.well-known/oauth-protected-resource")
    return build_bearer_challenge(
        request, error, resource_metadata_url=metadata + TOOLS_RESOURCE_PATH
    )


def _error_responses() -> dict[str, Any]:
    statuses = sorted({spec.http_status for spec in ERROR_CATALOG.values()})
    content = {"application/json": {"schema": {"$ref": REF.format(model="ToolError")}}}
    # Integer keys, like Ninja's own, so they merge with (not duplicate) the generated responses.
    return {
        status: {"description": "Error (see error.code)", "content": content} for status in statuses
    }


def build_api() -> GiftGeniusAPI:
    api = GiftGeniusAPI(
        title="GiftGenius tools",
        version="1.0.0",
        description=(
            "Every tool the model can call over MCP, also callable over plain HTTP. Send "
            "`Authorization: Bearer <token>` (from `manage.py create_api_token <username>`)."
        ),
        urls_namespace="tools-api",
    )
    for spec in REGISTRY.values():
        api.post(
            f"/tools/{spec.name}",
            operation_id=spec.name,
            summary=spec.title,
            description=spec.description,
            tags=["tools"],
            openapi_extra={
                "requestBody": {
                    # A tool without required fields runs on an empty body ({}).
                    "required": bool(spec.input_model.model_json_schema().get("required")),
                    "content": {
                        "application/json": {
                            "schema": {"$ref": REF.format(model=spec.input_model.__name__)}
                        }
                    },
                },
                "responses": {
                    200: {
                        "description": "Success",
                        "content": {
                            "application/json": {
                                "schema": {"$ref": REF.format(model=spec.output_model.__name__)}
                            }
                        },
                    },
                    **_error_responses(),
                },
                "security": [{"bearerAuth": []}],
            },
        )(tool_view(spec))
        api.api_operation(OTHER_METHODS, f"/tools/{spec.name}", include_in_schema=False)(
            method_not_allowed
        )
    api.post("/tools/{name}", include_in_schema=False)(unknown_tool_view)
    api.api_operation(OTHER_METHODS, "/tools/{name}", include_in_schema=False)(
        unknown_tool_method_not_allowed
    )
    # Ninja's own handler re-raises (Django's HTML 500), or under DEBUG answers the traceback.
    api.add_exception_handler(Exception, internal_error_response)
    return api


def internal_error_response(request: HttpRequest, exc: Exception) -> HttpResponse:
    """Anything that escaped the executor (the bearer check's database read, say) is answered
    with the contract too: an unreachable database as SERVICE_UNAVAILABLE."""
    correlation_id = correlation_id_from(request.headers.get("X-Correlation-ID"))
    name = request.path.rstrip("/").rpartition("/")[2]
    if name in REGISTRY:  # the executor did not run, so it did not log the call
        call_log.not_recorded(tool=name, correlation_id=correlation_id, exc=exc)
    if is_outage(exc):
        log.error("rest_database_unavailable", path=request.path, correlation_id=correlation_id)
        return render(unavailable_outcome(name=name, correlation_id=correlation_id))
    log.error("rest_call_crashed", path=request.path, correlation_id=correlation_id, exc_info=exc)
    return render(internal_error_outcome(name=name, correlation_id=correlation_id))


def unknown_tool_view(request: HttpRequest, name: str) -> HttpResponse:
    correlation_id = correlation_id_from(request.headers.get("X-Correlation-ID"))
    outcome = execute_tool(name=name, arguments={}, principal=None, correlation_id=correlation_id)
    return render(outcome)
