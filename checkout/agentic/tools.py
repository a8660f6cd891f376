"""The five ACP checkout operations as MCP tools (the binding in vendor/acp/docs/
mcp-binding.md: `{meta, id, payload}` arguments), declared once in the shared registry. They
act for the signed-in caller, like every other tool, and run the same operations as REST
(checkout.agentic.operations); an ACP refusal is a tool error whose details carry ACP's own
error object."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _
from pydantic import BaseModel, ConfigDict, Field

from checkout.agentic import operations, payment_sheet, requests
from checkout.agentic.errors import AcpError
from checkout.scopes import ORDERS_WRITE
from gifts.tools import GIFTS_READ
from tool_runtime.errors import ANALYTICS, B, ToolError, declare_errors, error_spec
from tool_runtime.registry import Annotations, ToolContext, ToolResult, ToolSpec, register
from tool_runtime.schemas import ToolInput
from tool_runtime.text import PrintableText, describe_refused, drop_invisible
from tool_runtime.validation import InputCheck

declare_errors(
    error_spec(
        "CHECKOUT_SESSION_REFUSED",
        B,
        False,
        400,
        ANALYTICS,
        _("The checkout could not go on. Please review the order."),
    )
)

# ACP's error status → our catalog's code; the ACP error itself rides in details.acp_error.
CODES = {404: "NOT_FOUND", 409: "IDEMPOTENCY_IN_PROGRESS", 422: "IDEMPOTENCY_KEY_REUSED"}


class AcpMeta(BaseModel):
    """The protocol's HTTP headers as fields (unknown ones are accepted and ignored)."""

    model_config = ConfigDict(extra="allow", str_strip_whitespace=True)
    api_version: PrintableText = Field(description="ACP version, e.g. '2026-04-17'.")
    idempotency_key: PrintableText | None = Field(
        default=None,
        max_length=255,
        description="A new UUID per action, the same when retrying it (create, update, "
        "complete, cancel).",
    )
    request_id: PrintableText | None = None
    accept_language: PrintableText | None = None
    user_agent: PrintableText | None = None
    signature: PrintableText | None = None
    timestamp: PrintableText | None = None


META_EXAMPLE = {
    "api_version": "2026-04-17",
    "idempotency_key": "0b6f1a52-2f4e-4a53-9b0e-6f3c1d2e4a10",
}
ADDRESS_EXAMPLE = {
    "name": "Jane Doe",
    "line_one": "123 Main Street",
    "city": "New York",
    "state": "NY",
    "country": "US",
    "postal_code": "10001",
}
SESSION_EXAMPLE = "cs_3f9c2a1b7d6e5f4a3b2c1d0e"


def acp_schema(name: str) -> Callable[[dict[str, Any]], None]:
    """The payload's schema as ACP states it (bundled: no `$ref` to resolve), in place of a
    plain object; the operation still checks the payload against it and answers ACP's error."""

    def extra(schema: dict[str, Any]) -> None:
        acp = copy.deepcopy(requests.bundled(name))
        if "anyOf" in schema:  # optional: the object branch becomes ACP's, null stays
            schema["anyOf"] = [acp if s.get("type") == "object" else s for s in schema["anyOf"]]
        else:
            schema.pop("additionalProperties", None)
            schema.update({k: v for k, v in acp.items() if k != "description"})

    return extra


def _examples(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(
        extra="forbid", str_strip_whitespace=True, json_schema_extra={"examples": list(examples)}
    )


class CreateCheckoutSessionInput(ToolInput):
    model_config = _examples(
        {
            "meta": META_EXAMPLE,
            "payload": {
                "line_items": [{"id": "GG-COFFEE-GRINDER", "quantity": 1}],
                "currency": "usd",
                "capabilities": {},
                "fulfillment_details": {"name": "Jane Doe", "address": ADDRESS_EXAMPLE},
            },
        }
    )
    meta: AcpMeta
    payload: dict[str, Any] = Field(
        description="An ACP CheckoutSessionCreateRequest.",
        json_schema_extra=acp_schema("CheckoutSessionCreateRequest"),
    )


class GetCheckoutSessionInput(ToolInput):
    model_config = _examples({"meta": META_EXAMPLE, "id": SESSION_EXAMPLE})
    meta: AcpMeta
    id: PrintableText = Field(description="The checkout session's id (cs_…).")


class UpdateCheckoutSessionInput(GetCheckoutSessionInput):
    model_config = _examples(
        {
            "meta": META_EXAMPLE,
            "id": SESSION_EXAMPLE,
            "payload": {"fulfillment_details": {"name": "Jane Doe", "address": ADDRESS_EXAMPLE}},
        }
    )
    payload: dict[str, Any] = Field(
        description="An ACP CheckoutSessionUpdateRequest.",
        json_schema_extra=acp_schema("CheckoutSessionUpdateRequest"),
    )


class CompleteCheckoutSessionInput(GetCheckoutSessionInput):
    model_config = _examples(
        {
            "meta": META_EXAMPLE,
            "id": SESSION_EXAMPLE,
            "payload": {
                "buyer": {"first_name": "Jane", "last_name": "Doe", "email": "jane@example.com"},
                "payment_data": {
                    "handler_id": "stripe_spt",
                    "instrument": {
                        "type": "card",
                        "credential": {"type": "spt", "token": "spt_1QexampleGrantedToken"},
                    },
                },
            },
        }
    )
    payload: dict[str, Any] = Field(
        description="An ACP CheckoutSessionCompleteRequest.",
        json_schema_extra=acp_schema("CheckoutSessionCompleteRequest"),
    )


class CancelCheckoutSessionInput(GetCheckoutSessionInput):
    model_config = _examples({"meta": META_EXAMPLE, "id": SESSION_EXAMPLE})
    payload: dict[str, Any] | None = Field(
        default=None,
        description="An ACP CancelSessionRequest (optional).",
        json_schema_extra=acp_schema("CancelSessionRequest"),
    )


class CheckoutSessionOutput(BaseModel):
    """An ACP CheckoutSession (or CheckoutSessionWithOrder once completed), as REST returns it."""

    model_config = ConfigDict(extra="allow")
    ok: bool = True
    id: str
    status: str


class SheetPaymentData(BaseModel):
    """What ChatGPT's payment sheet sends: the Shared Payment Token it was granted."""

    model_config = ConfigDict(extra="allow", str_strip_whitespace=True)
    token: PrintableText = Field(max_length=255, description="The Shared Payment Token (spt_…).")
    provider: PrintableText = Field(default="stripe", max_length=40)
    billing_address: dict[str, Any] | None = None


class CompleteCheckoutInput(ToolInput):
    """OpenAI's `complete_checkout`, called by ChatGPT after its payment sheet."""

    model_config = _examples(
        {
            "checkout_session_id": SESSION_EXAMPLE,
            "buyer": {"first_name": "Jane", "last_name": "Doe", "email": "jane@example.com"},
            "payment_data": {"token": "spt_1QexampleGrantedToken", "provider": "stripe"},
        }
    )
    checkout_session_id: PrintableText = Field(description="The checkout session's id (cs_…).")
    buyer: dict[str, Any] | None = None
    payment_data: SheetPaymentData


def printable_payload(value: Any, path: str = "payload") -> ToolError | None:
    """The printable-text rule for every string of the payload, keys included, checked with
    validation (before any key is claimed), naming the first refused one's dotted path."""
    if isinstance(value, dict):
        items = [(f"{path}.{k}", k) for k in value] + [(f"{path}.{k}", v) for k, v in value.items()]
    elif isinstance(value, list):
        items = [(f"{path}.{i}", v) for i, v in enumerate(value)]
    elif isinstance(value, str):
        why = describe_refused(drop_invisible(value))
        if why is None and not value.isascii():
            try:
                value.encode()
            except UnicodeEncodeError:
                why = "a lone surrogate"
        if why is None:
            return None
        return ToolError(
            "VALIDATION_ERROR",
            f"Field '{path}' is invalid: text may not contain {why}.",
            field=path,
            expected="printable text",
        )
    else:
        return None
    for item_path, item in items:
        if (error := printable_payload(item, item_path)) is not None:
            return error
    return None


def _locale(meta: AcpMeta, context: ToolContext) -> str:
    if not meta.accept_language:
        return context.locale
    tag = meta.accept_language.split(",")[0].split(";")[0].strip()
    try:
        return translation.get_supported_language_variant(tag)
    except LookupError:
        return context.locale


def _handler(operation: str):
    def handler(context: ToolContext, args: Any) -> ToolResult:
        meta: AcpMeta = args.meta
        try:
            operations.check_version(meta.api_version)
            done = operations.answer(
                principal=context.principal,
                operation=operation,
                session_id=getattr(args, "id", ""),
                body=getattr(args, "payload", None),
                idempotency_key=None if operation == "get" else meta.idempotency_key,
                correlation_id=context.correlation_id,
                locale=_locale(meta, context),
            )
        except AcpError as refused:
            done = operations.Answer(refused.status, refused.body())
        if done.status >= 400:
            raise ToolError(
                CODES.get(done.status, "CHECKOUT_SESSION_REFUSED"),
                done.body["message"],
                field=done.body.get("param"),
                details={"acp_error": done.body, "http_status": done.status},
            )
        return ToolResult(data=CheckoutSessionOutput.model_validate(done.body))

    handler.__name__ = f"{operation}_checkout_session_tool"
    return handler


def complete_checkout_tool(context: ToolContext, args: CompleteCheckoutInput) -> ToolResult:
    """ACP's complete under OpenAI's name: one implementation, the session service's."""
    done = operations.answer(
        principal=context.principal,
        operation="complete",
        session_id=args.checkout_session_id,
        body=payment_sheet.complete_body(buyer=args.buyer, token=args.payment_data.token),
        idempotency_key=None,  # the saga charges a session at most once, however often asked
        correlation_id=context.correlation_id,
        locale=context.locale,
    )
    if done.status >= 400:
        raise ToolError(
            CODES.get(done.status, "CHECKOUT_SESSION_REFUSED"),
            done.body["message"],
            field=done.body.get("param"),
            # Not ACP's MCP binding: OpenAI's tool refuses as any other tool does.
            details={"checkout_error": done.body, "http_status": done.status},
        )
    return ToolResult(data=CheckoutSessionOutput.model_validate(done.body))


WRITE = Annotations(read_only=False, destructive=False, idempotent=True, open_world=True)
TOOLS = [
    (
        "create_checkout_session",
        "Create a checkout session",
        "ACP (Agentic Commerce Protocol) checkout for an agent buying on the person's behalf: "
        "create a session for one item (payload: line_items [{id: the item's SKU, quantity}], "
        "currency, capabilities, optional buyer and fulfillment_details). The shop prices it "
        "and holds the stock; the answer lists totals in minor units, delivery options and "
        "messages saying what is missing. Do NOT use it inside the gift workflow (use "
        "prepare_order there).",
        CreateCheckoutSessionInput,
        _handler("create"),
        ORDERS_WRITE,
        WRITE,
    ),
    (
        "get_checkout_session",
        "Get a checkout session",
        "The current state of an ACP checkout session (id: cs_…). Changes nothing.",
        GetCheckoutSessionInput,
        _handler("get"),
        GIFTS_READ,
        Annotations(read_only=True, destructive=False, idempotent=None, open_world=False),
    ),
    (
        "update_checkout_session",
        "Update a checkout session",
        "Change an ACP checkout session's item, buyer, address (fulfillment_details) or "
        "delivery option (selected_fulfillment_options); the session is re-priced. Do NOT use "
        "it on a completed or canceled session.",
        UpdateCheckoutSessionInput,
        _handler("update"),
        ORDERS_WRITE,
        WRITE,
    ),
    (
        "complete_checkout_session",
        "Pay for a checkout session",
        "Pay an ACP checkout session that is ready_for_payment with the Shared Payment Token "
        "the buyer granted for it (payload.payment_data.instrument.credential: {type: 'spt', "
        "token}). Charges at most once per session, however often it is sent. A decline comes "
        "back as a payment_declined message. Do NOT invent a token.",
        CompleteCheckoutSessionInput,
        _handler("complete"),
        ORDERS_WRITE,
        Annotations(read_only=False, destructive=False, idempotent=True, open_world=True),
    ),
    (
        "complete_checkout",
        "Pay with ChatGPT's payment sheet",
        "Called by ChatGPT's payment sheet, not by the model: pay the checkout session the "
        "widget handed to window.openai.requestCheckout with the sheet's Shared Payment Token "
        "(payment_data.token). The same payment as complete_checkout_session: at most one "
        "charge per session. A decline comes back as a payment_declined message.",
        CompleteCheckoutInput,
        complete_checkout_tool,
        ORDERS_WRITE,
        Annotations(read_only=False, destructive=False, idempotent=True, open_world=True),
    ),
    (
        "cancel_checkout_session",
        "Cancel a checkout session",
        "Cancel an ACP checkout session that is not completed: its stock hold is released. "
        "Do NOT use it to refund a completed purchase.",
        CancelCheckoutSessionInput,
        _handler("cancel"),
        ORDERS_WRITE,
        Annotations(read_only=False, destructive=True, idempotent=True, open_world=False),
    ),
]

for name, title, description, input_model, handler, scope, hints in TOOLS:
    register(
        ToolSpec(
            name=name,
            title=title,
            description=description,
            input_model=input_model,
            output_model=CheckoutSessionOutput,
            annotations=hints,
            handler=handler,
            scope=scope,
            input_checks=tuple(
                InputCheck(free, lambda value, free=free: printable_payload(value, free))
                for free in ("payload", "buyer")
                if free in input_model.model_fields
            ),
        )
    )
