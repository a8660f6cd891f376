"""Request bodies checked against the vendored ACP OpenAPI document's own schemas, so a
refusal names the JSON path the specification's schema names."""

from __future__ import annotations

from functools import cache
from typing import Any

import yaml
from django.conf import settings
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from checkout.agentic.errors import AcpError
from checkout.models import GuestBuyer
from tool_runtime.text import PRINTABLE, describe_refused

SPEC_VERSION = "2026-04-17"
OPENAPI_PATH = f"vendor/acp/spec/{SPEC_VERSION}/openapi/openapi.agentic_checkout.yaml"
DOCUMENT_URI = "urn:acp:openapi"
# The buyer's fields as GuestBuyer keeps them (a full name goes into first_name).
BUYER_COLUMNS = {
    "first_name": "first_name",
    "last_name": "last_name",
    "full_name": "first_name",
    "email": "email",
    "phone_number": "phone_number",
}


@cache
def openapi_document() -> dict[str, Any]:
    with open(settings.BASE_DIR / OPENAPI_PATH, encoding="utf-8") as f:
        return yaml.safe_load(f)


@cache
def validator(schema_name: str) -> Draft202012Validator:
    """A validator for one of the specification's component schemas, by name."""
    document = openapi_document()
    registry = Registry().with_resource(
        DOCUMENT_URI, Resource.from_contents(document, default_specification=DRAFT202012)
    )
    schema = {"$ref": f"{DOCUMENT_URI}#/components/schemas/{schema_name}"}
    return Draft202012Validator(schema, registry=registry)


def check_body(schema_name: str, body: Any) -> None:
    """Raise a 400 naming the first place the body breaks the specification's schema."""
    if not isinstance(body, dict):
        raise AcpError(400, "invalid", "The request body must be a JSON object.", param="$")
    _check_text(body, "$")
    errors = sorted(validator(schema_name).iter_errors(body), key=lambda e: list(e.path))
    if errors:
        first = errors[0]
        raise AcpError(400, "invalid", first.message[:300], param=first.json_path)
    _check_buyer_lengths(body.get("buyer"))


def _check_buyer_lengths(buyer: Any) -> None:
    """The specification sets no length on a buyer's fields; our guest buyer record does, and
    a longer value is refused by name rather than cut short or failing the write."""
    if not isinstance(buyer, dict):
        return
    for name, column in BUYER_COLUMNS.items():
        limit = GuestBuyer._meta.get_field(column).max_length
        value = buyer.get(name)
        if isinstance(value, str) and len(value) > limit:
            raise AcpError(
                400, "invalid", f"{name} is at most {limit} characters.", param=f"$.buyer.{name}"
            )


def _check_text(value: Any, path: str) -> None:
    """The printable-text rule (tool_runtime.text) for every string of the body, keys too: what
    an agent sends may be stored and shown to staff."""
    if isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, path)
            _check_text(item, f"{path}.{key}" if key.isidentifier() else f"{path}['{key}']")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_text(item, f"{path}[{index}]")
    elif isinstance(value, str):
        why = describe_refused(value)
        if why is None and not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                why = "a lone surrogate"
        if why is not None:
            raise AcpError(400, "invalid", f"Text may not contain {why}.", param=path)


def item_quantities(body: dict[str, Any]) -> tuple[dict[str, Any], list[int]]:
    """The body without each line item's `quantity`, and the quantities (1 when absent): the
    specification's Item schema has no quantity field, though its examples send one."""
    items = body.get("line_items")
    if not isinstance(items, list):
        return body, []
    quantities, stripped = [], []
    for index, item in enumerate(items):
        if isinstance(item, dict) and "quantity" in item:
            item = dict(item)
            quantity = item.pop("quantity")
            if not isinstance(quantity, int) or isinstance(quantity, bool) or quantity < 1:
                raise AcpError(
                    400,
                    "invalid",
                    "quantity must be a whole number of at least 1.",
                    param=f"$.line_items[{index}].quantity",
                )
            quantities.append(quantity)
        else:
            quantities.append(1)
        stripped.append(item)
    return {**body, "line_items": stripped}, quantities


@cache
def bundled(schema_name: str) -> dict[str, Any]:
    """One request schema with every `$ref` inlined, for an ACP tool's `payload` (so the model
    sees the real fields). The same components `check_body` checks with, saying only what it
    enforces: examples (some break their own schema) and formats (not checked) are left out.
    Our extension, `line_items[].quantity` (docs/acp.md §6), is added where items are sent."""
    components = openapi_document()["components"]["schemas"]
    schema = _inline(components[schema_name], components, (schema_name,))
    items = schema.get("properties", {}).get("line_items", {}).get("items")
    if items is not None:
        items["properties"]["quantity"] = {
            "type": "integer",
            "minimum": 1,
            "description": "How many of the item (1 when absent).",
        }
    return schema


def _inline(node: Any, components: dict[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(item, components, seen) for item in node]
    if not isinstance(node, dict):
        return node
    found: dict[str, Any] = {}
    ref = node.get("$ref")
    if ref is not None:
        name = ref.rsplit("/", 1)[-1]
        # A schema that contains itself stays an object (none of the requests has one today).
        found = (
            {"type": "object"}
            if name in seen
            else _inline(components[name], components, (*seen, name))
        )
    for key, value in node.items():
        if key in ("$ref", "example", "examples", "format"):
            continue
        if key == "properties":
            found[key] = {p: _inline(s, components, seen) for p, s in value.items()}
        else:
            found[key] = _inline(value, components, seen)
    if found.get("type") == "string" and not {"enum", "const", "pattern"} & found.keys():
        # The operation refuses control and bidi characters in every string (check_body).
        found["pattern"] = PRINTABLE
    return found
