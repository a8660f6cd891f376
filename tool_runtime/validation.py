"""Turns a request body into a tool's arguments, and pydantic validation errors into the
field-precise error contract.

Everything the error says (expected, allowed values, example) is read from the same JSON
schema the client was given, so the error and the schema can never disagree.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest
from pydantic import BaseModel, ValidationError

from tool_runtime.errors import ToolError
from tool_runtime.text import PRINTABLE, describe_refused


def json_arguments(request: HttpRequest) -> Any:
    """A tool call's JSON body (an empty body is `{}`), or the structured error for a body that
    is not JSON or is larger than Django reads into memory (`DATA_UPLOAD_MAX_MEMORY_SIZE`)."""
    try:
        return json.loads(request.body or b"{}")
    except RequestDataTooBig:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raise ToolError(
            "PAYLOAD_TOO_LARGE",
            f"The request body is larger than {limit} bytes. Send only the tool's fields.",
            field="(body)",
            expected=f"a JSON object of at most {limit} bytes",
            example={},
        ) from None
    except (ValueError, UnicodeDecodeError, RecursionError):  # nested past the parser's limit
        raise ToolError(
            "INVALID_JSON",
            "The request body is not valid JSON. Send a JSON object with the tool's fields.",
            field="(body)",
            expected="a JSON object",
            example={},
        ) from None


# The tools' own fields nest two levels (shipping.name, interests.0): deeper is never a tool call.
MAX_ARGUMENT_DEPTH = 16


def unusable_arguments(arguments: Any) -> ToolError | None:
    """The error for arguments no answer, log line or row can hold, else None: text that is not
    valid Unicode (JSON may spell a lone UTF-16 surrogate, `"\\ud800"`), or nesting deeper
    than any tool's fields (which would exhaust the recursion of every JSON writer). Walked
    without recursion, as the nesting is the caller's."""
    pending: list[tuple[Any, str, int]] = [(arguments, "", 0)]
    while pending:
        value, path, depth = pending.pop()
        field = path or "(arguments)"
        if isinstance(value, str):
            if not is_unicode(value):
                return _not_unicode(field)
            continue
        if isinstance(value, dict | list) and depth == MAX_ARGUMENT_DEPTH:
            return ToolError(
                "VALIDATION_ERROR",
                f"Field '{field}' nests deeper than {MAX_ARGUMENT_DEPTH} levels; no tool's "
                "fields do. Send the tool's fields as its input schema shows them.",
                field=field,
                expected=f"at most {MAX_ARGUMENT_DEPTH} levels of nesting",
            )
        if isinstance(value, dict):
            if not all(is_unicode(key) for key in value):
                return _not_unicode(field)  # a key that is not text cannot be named
            items = [(item, f"{path}.{key}" if path else key) for key, item in value.items()]
        elif isinstance(value, list):
            items = [(item, f"{path}.{i}" if path else str(i)) for i, item in enumerate(value)]
        else:
            continue
        pending.extend((item, inner, depth + 1) for item, inner in reversed(items))
    return None


def is_unicode(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _not_unicode(field: str) -> ToolError:
    return ToolError(
        "VALIDATION_ERROR",
        f"Field '{field}' holds text that is not valid Unicode (a lone UTF-16 surrogate such as "
        "\\ud800). Send it as valid UTF-8 text.",
        field=field,
        expected="valid Unicode text",
    )


def validate_arguments(model: type[BaseModel], arguments: Any) -> BaseModel:
    if not isinstance(arguments, dict):
        raise ToolError(
            "VALIDATION_ERROR",
            "The arguments must be a JSON object with the tool's fields.",
            field="(arguments)",
            expected="a JSON object",
            example=_model_example(model),
        )
    try:
        return model.model_validate(arguments)
    except ValidationError as exc:
        raise reshape(model, exc) from None


def reshape(model: type[BaseModel], exc: ValidationError) -> ToolError:
    errors = exc.errors(include_url=False)
    first = errors[0]
    path = [str(part) for part in first["loc"]]
    field = ".".join(path) or "(arguments)"
    schema = _field_schema(model, path)
    others = [".".join(str(p) for p in e["loc"]) for e in errors[1:]]
    details: dict[str, Any] | None = {"other_invalid_fields": others} if others else None

    if first["type"] == "extra_forbidden":
        parent = _field_schema(model, path[:-1]) if len(path) > 1 else None
        accepted = sorted((parent or {}).get("properties") or model.model_fields)
        return ToolError(
            "VALIDATION_ERROR",
            f"Field '{field}' is not accepted by this tool; remove it. Accepted fields: {', '.join(accepted)}.",
            field=field,
            expected="no such field",
            allowed_values=accepted,
            example=_model_example(model),
            details=details,
        )

    expected = describe(schema) if schema else "a valid value"
    allowed = _allowed_values(schema)
    if first["type"] == "missing":
        message = f"Field '{field}' is required: {expected}."
    else:
        message = (
            f"Field '{field}' is invalid ({_why(first, schema, allowed)}); expected {expected}."
        )
    return ToolError(
        "VALIDATION_ERROR",
        message,
        field=field,
        expected=expected,
        allowed_values=allowed,
        example=_field_example(model, path, schema),
        details=details,
    )


def _why(error: dict[str, Any], schema: dict[str, Any] | None, allowed: list[Any] | None) -> str:
    """What is wrong with the value, in words the caller can act on."""
    if _too_many_to_list(allowed):
        return "not an allowed value"  # pydantic's own text lists every value: ~3 KB for a country
    value = error.get("input")
    if schema and schema.get("pattern") == PRINTABLE and isinstance(value, str):
        refused = describe_refused(value)
        if refused:
            return f"{refused} is not allowed in text"
    return error["msg"]


def _allowed_values(schema: dict[str, Any] | None) -> list[Any] | None:
    if not schema:
        return None
    if "enum" in schema:
        return list(schema["enum"])
    if "const" in schema:
        return [schema["const"]]
    return None


# An error's message and `expected` name at most this many allowed values; `allowed_values`
# always carries them all.
MAX_LISTED_VALUES = 20


def _too_many_to_list(allowed: list[Any] | None) -> bool:
    return allowed is not None and len(allowed) > MAX_LISTED_VALUES


def describe(schema: dict[str, Any]) -> str:
    """A short human description of a JSON-schema field: type and constraints."""
    allowed = _allowed_values(schema)
    if _too_many_to_list(allowed):
        return f"one of the {len(allowed)} values in allowed_values, e.g. {allowed[0]!r}"
    if allowed:
        return "one of " + ", ".join(repr(v) for v in allowed)
    kind = schema.get("type", "value")
    parts = [
        {
            "integer": "an integer",
            "number": "a number",
            "string": "a string",
            "array": "a list",
            "boolean": "true or false",
            "object": "an object",
        }.get(kind, kind)
    ]
    if schema.get("format") == "uuid":
        parts = ["a UUID string"]
    bounds = [
        (">=", schema.get("minimum")),
        (">", schema.get("exclusiveMinimum")),
        ("<=", schema.get("maximum")),
        ("<", schema.get("exclusiveMaximum")),
    ]
    parts += [f"{op} {value}" for op, value in bounds if value is not None]
    if "minLength" in schema or "maxLength" in schema:
        parts.append(
            f"{schema.get('minLength', 0)} to {schema.get('maxLength', 'any number of')} characters"
        )
    if "minItems" in schema or "maxItems" in schema:
        parts.append(
            f"{schema.get('minItems', 0)} to {schema.get('maxItems', 'any number of')} items"
        )
    if schema.get("pattern") == PRINTABLE:
        parts.append("of printable text (no control or bidirectional-control characters)")
    elif "pattern" in schema:
        parts.append(f"matching {schema['pattern']}")
    if schema.get("description"):
        parts.append(f"({schema['description']})")
    return " ".join(parts)


@cache
def _schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema()


def _resolve(root: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    if "anyOf" in node:  # Optional[X]: describe X
        variants = [v for v in node["anyOf"] if v.get("type") != "null"]
        if len(variants) == 2 and {"type": "string"} in variants:
            # A decimal: a number, which pydantic also reads from a string.
            variants = [v for v in variants if v != {"type": "string"}]
        if len(variants) == 1:
            merged = {k: v for k, v in node.items() if k != "anyOf"}
            return {**_resolve(root, variants[0]), **merged}
    return node


def _field_schema(model: type[BaseModel], path: list[str]) -> dict[str, Any] | None:
    root = _schema(model)
    node: dict[str, Any] = root
    for part in path:
        node = _resolve(root, node)
        if part.isdigit() and "items" in node:
            node = node["items"]
        elif part in node.get("properties", {}):
            node = node["properties"][part]
        else:
            return None
    return _resolve(root, node)


def _model_example(model: type[BaseModel]) -> Any:
    examples = _schema(model).get("examples")
    return examples[0] if examples else None


def _field_example(model: type[BaseModel], path: list[str], schema: dict[str, Any] | None) -> Any:
    value = _model_example(model)
    for part in path:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            value = None
            break
    if value is None and schema:
        if schema.get("examples"):
            return schema["examples"][0]
        if _allowed_values(schema):
            return _allowed_values(schema)[0]
    return value
