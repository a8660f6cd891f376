"""Turns a request body into a tool's arguments, and pydantic validation errors into the
field-precise error contract.

Everything the error says (expected, allowed values, example) is read from the same JSON
schema the client was given, so the error and the schema can never disagree.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

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


@dataclass(frozen=True)
class InputCheck:
    """A tool's check of one argument that its schema cannot state (an id that must exist),
    run with schema validation and before any idempotency key is claimed, so it must have no
    side effect. `check` gets the field's value as validated and returns the error or None;
    with `with_caller`, also the calling principal (`caller=`), for a value that must be the
    caller's own (a saved card)."""

    field: str
    check: Callable[..., ToolError | None]
    with_caller: bool = False


def validate_arguments(
    model: type[BaseModel],
    arguments: Any,
    *,
    checks: tuple[InputCheck, ...] = (),
    missing: dict[str, ToolError] | None = None,
    fresh_examples: dict[str, Callable[[], Any]] | None = None,
    caller: Any = None,
) -> BaseModel:
    """The validated arguments, or one error listing every invalid field: the schema's
    findings, the checks across fields the call would still fail once those took their
    examples, then the tool's input checks of the fields the schema accepted. `missing`: the
    specific error for a required field left out (the idempotency key's guidance);
    `fresh_examples`: a field whose example must be new in every error (a key, which copied
    twice would be a reuse); `caller`: the principal, for the checks that take it."""
    if not isinstance(arguments, dict):
        raise ToolError(
            "VALIDATION_ERROR",
            "The arguments must be a JSON object with the tool's fields.",
            field="(arguments)",
            expected="a JSON object",
            example=_model_example(model),
        )
    entries: list[dict[str, Any]] = []
    validated: BaseModel | None = None
    try:
        validated = model.model_validate(arguments)
    except ValidationError as exc:
        entries = [_entry(model, error, missing or {}) for error in exc.errors(include_url=False)]
        entries += _across_fields(model, arguments, entries)
    except ToolError as exc:  # a model validator's check across fields (budget_min > budget_max)
        entries = [_error_entry(exc)]
    for entry in entries:
        if entry["field"] in (fresh_examples or {}):
            entry["example"] = fresh_examples[entry["field"]]()
    refused = {entry["field"] for entry in entries}
    for input_check in checks:
        if input_check.field in refused or input_check.field not in arguments:
            continue
        value = (
            getattr(validated, input_check.field)
            if validated is not None
            else _field_value(model, input_check.field, arguments[input_check.field])
        )
        if value is _INVALID:
            continue
        error = (
            input_check.check(value, caller=caller)
            if input_check.with_caller
            else input_check.check(value)
        )
        if error is not None:
            entries.append(_error_entry(error))
    if entries:
        raise _invalid(entries)
    assert validated is not None
    return validated


def _across_fields(
    model: type[BaseModel], arguments: dict[str, Any], entries: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The error of a check across fields (a model validator) that the call would still meet
    once every refused field took its example: reported now, not one round trip later."""
    repaired = dict(arguments)
    for entry in entries:
        name = entry["field"].split(".", 1)[0]
        if entry.get("unknown") and "." not in entry["field"]:
            repaired.pop(name, None)
        elif "." not in entry["field"] and "example" in entry:
            repaired[name] = entry["example"]
        else:
            return []  # nothing to stand in for it: the check cannot be run fairly
    try:
        model.model_validate(repaired)
    except ToolError as exc:
        return [] if exc.field in {e["field"] for e in entries} else [_error_entry(exc)]
    except ValidationError:
        pass
    return []


def _invalid(entries: list[dict[str, Any]]) -> ToolError:
    """The first invalid field at the top level (as a single-field error always was), every
    one in `details.invalid_fields`."""
    first = entries[0]
    message = first["message"]
    if len(entries) > 1:
        others = ", ".join(f"'{e['field']}'" for e in entries[1:])
        message += (
            f" Also invalid: {others}. Fix every field listed in details.invalid_fields, "
            "then send the call once."
        )
    return ToolError(
        first["code"],
        message,
        field=first["field"],
        expected=first.get("expected"),
        allowed_values=first.get("allowed_values"),
        example=first.get("example"),
        details={**first.get("details", {}), "invalid_fields": entries},
        next_actions=first.get("next_actions"),
    )


def _error_entry(error: ToolError) -> dict[str, Any]:
    entry = {k: v for k, v in error.to_dict().items() if k not in ("error_type", "retryable")}
    entry.setdefault("field", "(arguments)")
    return entry


def _entry(
    model: type[BaseModel], error: dict[str, Any], missing: dict[str, ToolError]
) -> dict[str, Any]:
    """One invalid field: its path, what is expected, the allowed values, an example, and for
    a field the tool does not take, the nearest name it does."""
    path = [str(part) for part in error["loc"]]
    field = ".".join(path) or "(arguments)"
    if error["type"] == "missing" and field in missing:
        return _error_entry(missing[field])
    if error["type"] == "extra_forbidden":
        parent = _field_schema(model, path[:-1]) if len(path) > 1 else None
        accepted = sorted((parent or {}).get("properties") or model.model_fields)
        nearest = nearest_name(path[-1], accepted)
        hint = f"did you mean '{nearest}'? " if nearest else ""
        entry: dict[str, Any] = {
            "field": field,
            "code": "VALIDATION_ERROR",
            "message": f"Field '{field}' is not accepted by this tool; {hint}remove it. "
            f"Accepted fields: {', '.join(accepted)}.",
            "expected": "no such field",
            "allowed_values": accepted,
            "unknown": True,
        }
        if nearest:
            entry["nearest_field"] = ".".join([*path[:-1], nearest])
        return entry
    schema = _field_schema(model, path)
    expected = describe(schema) if schema else "a valid value"
    if is_id(path, schema) and schema and schema.get("description"):
        # Where the id comes from first: it is what the caller must go and find.
        kind = describe({k: v for k, v in schema.items() if k != "description"})
        expected = f"{schema['description'].rstrip('.')} ({kind})"
    allowed = _allowed_values(schema)
    if error["type"] == "missing":
        message = f"Field '{field}' is required: {expected}."
    else:
        message = (
            f"Field '{field}' is invalid ({_why(error, schema, allowed)}); expected {expected}."
        )
    entry = {"field": field, "code": "VALIDATION_ERROR", "message": message, "expected": expected}
    if allowed is not None:
        entry["allowed_values"] = allowed
    example = _field_example(model, path, schema)
    if example is not None:
        entry["example"] = example
    return entry


def nearest_name(name: str, accepted: list[str]) -> str | None:
    """The accepted field a mistyped name most likely meant: the same letters in another case
    or separator (budgetMax, budget-max), else the closest spelling."""
    folded = {_fold(a): a for a in accepted}
    if _fold(name) in folded:
        return folded[_fold(name)]
    close = difflib.get_close_matches(_fold(name), list(folded), n=1, cutoff=0.75)
    return folded[close[0]] if close else None


def _fold(name: str) -> str:
    return "".join(c for c in name.lower() if c.isalnum())


_INVALID = object()


def _field_value(model: type[BaseModel], field: str, raw: Any) -> Any:
    """One top-level field's value as the model would validate it (trimmed, coerced), or
    _INVALID; for the input checks when another field made the whole model fail."""
    try:
        return _field_adapter(model, field).validate_python(raw)
    except ValidationError:
        return _INVALID


@cache
def _field_adapter(model: type[BaseModel], field: str) -> TypeAdapter:
    info = model.model_fields[field]
    config = {k: v for k, v in model.model_config.items() if k == "str_strip_whitespace"}
    return TypeAdapter(Annotated[info.annotation, info], config=ConfigDict(**config))


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
        kinds = sorted(v.get("type", "") for v in variants)
        if kinds == ["number", "string"]:
            # A decimal: a number, which pydantic also reads from a string.
            variants = [v for v in variants if v.get("type") == "number"]
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


def is_id(path: list[str], schema: dict[str, Any] | None) -> bool:
    """An id names something that exists (a workflow, an order, a product): an invented one
    would be NOT_FOUND when copied, so errors say where it comes from (its description) and
    give no made-up example."""
    return bool(path) and (path[-1].endswith("_id") or (schema or {}).get("format") == "uuid")


def _model_example(model: type[BaseModel]) -> Any:
    """The model's example without its ids (see is_id)."""
    examples = _schema(model).get("examples")
    if not examples:
        return None
    fields = _schema(model).get("properties", {})
    return {k: v for k, v in examples[0].items() if not is_id([k], fields.get(k))}


def _field_example(model: type[BaseModel], path: list[str], schema: dict[str, Any] | None) -> Any:
    if is_id(path, schema):
        # Only a real one: an allowed value, or the example the field itself declares (a
        # payment method every person has); never the model's made-up example.
        allowed = _allowed_values(schema) or (schema or {}).get("examples")
        return allowed[0] if allowed else None
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
