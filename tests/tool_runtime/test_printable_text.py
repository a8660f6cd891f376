"""The one printable-text rule (tool_runtime.text) on every free-text tool field."""

from __future__ import annotations

import re

import pytest

from checkout.models import Order
from tests.fixtures import (
    BOTH_DATABASES,
    SHIPPING,
    assert_error,
    commit,
    draft_order,
    gift_selected,
    make_product,
    paid_order,
    prepare,
    start,
    suggest,
)
from tool_runtime.models import ToolCallLog
from tool_runtime.registry import REGISTRY
from tool_runtime.text import PRINTABLE, describe_refused, printable

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)

REFUSED = {
    "\x00": "U+0000 (a control character)",  # NUL: PostgreSQL refuses it in text
    "\n": "U+000A (a control character)",
    "\x7f": "U+007F (a control character)",
    "\x85": "U+0085 (a control character)",  # C1: NEXT LINE
    "\u202e": "U+202E (RIGHT-TO-LEFT OVERRIDE)",
    "\u2066": "U+2066 (LEFT-TO-RIGHT ISOLATE)",
}


def free_text_fields(schema: dict, root: dict, path: str = "") -> list[tuple[str, dict]]:
    """Every string property without a closed set of values, at any depth."""
    found = []
    for name, node in schema.get("properties", {}).items():
        while "$ref" in node:
            node = root["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        variants = node.get("anyOf", [node])
        if any(v.get("type") == "number" for v in variants):
            continue  # a decimal amount, which pydantic also reads from its string form
        for variant in variants:
            inner = variant.get("items", variant)
            while "$ref" in inner:
                inner = root["$defs"][inner["$ref"].rsplit("/", 1)[-1]]
            if inner.get("type") == "object":
                found += free_text_fields(inner, root, f"{path}{name}.")
            elif inner.get("type") == "string" and not {"enum", "const", "format"} & inner.keys():
                found.append((f"{path}{name}", inner))
    return found


# Identifiers and codes with a stricter grammar of their own (letters, digits and a few marks).
IDENTIFIERS = {
    "idempotency_key",
    "shipping.postal_code",
    "payment_method_id",
    "shipping_option",
    "gift_wrap",
    "currency",
}


def test_every_free_text_field_of_every_tool_follows_the_rule():
    checked = []
    for spec in REGISTRY.values():
        schema = spec.input_model.model_json_schema()
        for field, node in free_text_fields(schema, schema):
            if field in IDENTIFIERS or field.endswith("_id") or field.endswith("_token"):
                continue
            checked.append(f"{spec.name}.{field}")
            pattern = node.get("pattern")
            # The rule's own pattern, or a stricter one of the field's own (an ACP date, say)
            # that refuses every character the rule refuses.
            assert pattern == PRINTABLE or (
                pattern and not any(re.search(pattern, f"a{c}b") for c in REFUSED)
            ), f"{spec.name}.{field}: {node}"
    # The fields that take a person's words: interests, search words, an address, a reason.
    assert {
        "suggest_gifts.interests",
        "search_products.query",
        "prepare_order.shipping.name",
        "prepare_order.shipping.line1",
        "prepare_order.shipping.city",
        "cancel_order.reason",
        "prepare_order.gift_message",
    } <= set(checked)


@pytest.mark.parametrize(("char", "named"), REFUSED.items())
def test_a_refused_character_is_named_with_its_position(char, named):
    assert describe_refused(f"Ada{char}x") == f"{named} at character 4"
    with pytest.raises(ValueError) as refused:
        printable(f"Ada\u200b{char}x")  # counted after the invisible character is dropped
    assert str(refused.value) == f"not printable text: {named} at character 4"


def test_invisible_characters_are_dropped_and_the_joiner_kept():
    assert printable("Ada\u200bLove\ufefflace") == "AdaLovelace"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert printable(family) == family
    assert describe_refused("Zoë 李 🎁") is None


@pytest.mark.parametrize("char", REFUSED)
def test_a_shipping_name_with_a_refused_character_is_a_validation_error_naming_it(
    api, demo_catalog, char
):
    workflow_id = gift_selected(api, make_product())
    response = prepare(api, workflow_id, shipping={**SHIPPING, "name": f"Ada{char}Lovelace"})
    error = assert_error(response, "VALIDATION_ERROR", 422)
    assert error["field"] == "shipping.name"
    assert REFUSED[char].split(" ")[0] in error["message"]
    assert "printable text" in error["expected"]
    assert Order.objects.count() == 0  # nothing half-written


def test_a_shipping_name_keeps_emoji_drops_zero_width_spaces_and_counts_characters(
    api, demo_catalog
):
    workflow_id = gift_selected(api, make_product(stock=5))
    name = "Zoë \U0001f468\u200d\U0001f469\u200d\U0001f467 Li\u200b"
    response = prepare(api, workflow_id, shipping={**SHIPPING, "name": name})
    assert response.status == 200, response.body
    stored = Order.objects.get(pk=response.body["order_id"]).shipping["name"]
    assert stored == "Zoë \U0001f468\u200d\U0001f469\u200d\U0001f467 Li"

    # 100 characters fit (each emoji is one code point, four bytes); 101 do not.
    at_limit = prepare(api, workflow_id, shipping={**SHIPPING, "name": "🎁" * 100})
    assert at_limit.status == 200, at_limit.body
    over = prepare(api, workflow_id, shipping={**SHIPPING, "name": "🎁" * 101})
    assert assert_error(over, "VALIDATION_ERROR", 422)["field"] == "shipping.name"


def test_a_cancel_reason_with_nul_is_refused_and_the_order_stays_as_it_was(api, demo_catalog):
    order = paid_order(api)
    response = api.call(
        "cancel_order",
        {
            "workflow_id": order.workflow_id,
            "order_id": order.order_id,
            "reason": "changed my mind\x00",
            "idempotency_key": "cancel-with-nul-0001",
        },
    )
    error = assert_error(response, "VALIDATION_ERROR", 422)
    assert error["field"] == "reason" and "U+0000" in error["message"]
    assert Order.objects.get(pk=order.order_id).status == "completed"


def test_an_interest_with_a_bidi_override_is_refused_by_its_position(api, demo_catalog):
    workflow_id = start(api)
    response = suggest(api, workflow_id, interests=["coffee", "tea\u202e"])
    error = assert_error(response, "VALIDATION_ERROR", 422)
    assert error["field"] == "interests.1"
    assert "U+202E" in error["message"]


# --- text no database row can hold, before it is validated --------------------------------------


@pytest.mark.parametrize("tool", ["prepare_order", "commit_order"])
def test_an_idempotency_key_with_nul_is_a_validation_error_not_a_retryable_crash(
    api, demo_catalog, tool
):
    """The raw key is read (beside the loop guard) before the arguments are validated: on
    PostgreSQL a NUL in it was a 500 INTERNAL_ERROR that invited a retry."""
    draft = draft_order(api)
    key = "abcd\x00efgh-1234"
    if tool == "prepare_order":
        response = prepare(api, draft.workflow_id, key=key)
    else:
        response = commit(api, draft.workflow_id, draft.order_id, draft.confirmation_token, key=key)

    error = assert_error(response, "VALIDATION_ERROR", 422)
    assert error["field"] == "idempotency_key" and error["retryable"] is False
    row = ToolCallLog.objects.get(tool=tool, status="failed")  # logged, without the key
    assert (row.error_code, row.idempotency_key) == ("VALIDATION_ERROR", "")
    assert Order.objects.get(pk=draft.order_id).status == "draft"
