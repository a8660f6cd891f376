"""Commerce tools, declared once in the shared registry. Handlers stay thin: they call services
and selectors, and are named after their tool (`<tool name>_tool`), never after the service
they call (services.prepare_order is the write; prepare_order_tool answers the tool call)."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from checkout import payment_choice, selectors, services
from checkout.agentic import payment_sheet
from checkout.payments.methods import offered_payment_methods
from checkout.saga.draft import GiftOptions
from checkout.saga.states import ALREADY, CLOSED, IN_FLIGHT
from checkout.schemas import (
    CancelOrderInput,
    CancelOrderOutput,
    CommitOrderInput,
    CommitOrderOutput,
    GetOrderInput,
    GetOrderOutput,
    GetPaymentMethodsInput,
    GetPaymentMethodsOutput,
    PaymentMethodOut,
    PrepareOrderInput,
    PrepareOrderOutput,
)
from checkout.scopes import ORDERS_WRITE
from gifts.models import Step, WorkflowContext
from gifts.tools import GIFTS_READ
from tool_runtime.registry import (
    Annotations,
    ToolContext,
    ToolResult,
    ToolSpec,
    declare_scopes,
    register,
)
from tool_runtime.validation import InputCheck

declare_scopes({ORDERS_WRITE: _("Prepare, pay for and cancel orders you confirm")})

COMMERCE_STEPS = frozenset({Step.GIFT_SELECTED, Step.CHECKOUT})

COMMIT_MESSAGES = {
    "completed": "The purchase is complete and paid. Tell the person it is done.",
    "payment_pending": (
        "The payment is being processed by the payment service. Tell the person it is processing "
        "(not failed) and that they will not be charged twice; check later with get_order."
    ),
    "processing": "The payment is being processed right now. Check the outcome with get_order in a moment.",
    "awaiting_payment": (
        "The person finishes paying on the payment service's page that opened (next_action.url). "
        "Tell them to finish paying there and come back to the chat; the gift is held until "
        "next_action.expires_at, after which the order is cancelled and nothing is charged. "
        "Never ask for card details in the chat. Follow the order with get_order."
    ),
}


def _workflow(context: ToolContext) -> WorkflowContext:
    assert context.workflow is not None  # the executor loads it for every workflow tool
    return context.workflow


def get_payment_methods_tool(context: ToolContext, args: GetPaymentMethodsInput) -> ToolResult:
    workflow = _workflow(context)
    methods = [
        PaymentMethodOut(
            id=m.id,
            label=m.label,
            brand=m.brand,
            last4=m.last4,
            description=m.description,
            exp_month=m.exp_month,
            exp_year=m.exp_year,
        )
        for m in offered_payment_methods(user=context.principal)
    ]
    return ToolResult(
        GetPaymentMethodsOutput(
            workflow_id=workflow.id,
            current_step=workflow.current_step,
            payment_methods=methods,
            selected_payment_method_id=selectors.workflow_orders(workflow=workflow)
            .values_list("payment_method_id", flat=True)
            .first(),
        )
    )


def prepare_order_tool(context: ToolContext, args: PrepareOrderInput) -> ToolResult:
    prepared = services.prepare_order(
        workflow=_workflow(context),
        payment_method_id=args.payment_method_id,
        shipping=args.shipping.model_dump(mode="json"),
        correlation_id=context.correlation_id,
        quantity=args.quantity,
        shipping_option=args.shipping_option,
        gift_wrap=args.gift_wrap,
        gift=GiftOptions(message=args.gift_message or "", ship_to_recipient=args.ship_to_recipient),
        currency=args.currency,
    )
    order = prepared.order
    with translation.override(context.locale):
        output = PrepareOrderOutput(
            workflow_id=prepared.workflow.id,
            current_step=prepared.workflow.current_step,
            order_id=order.pk,
            status="draft",
            gift=selectors.gift_of(order),
            amount=str(order.amount),
            currency=order.currency,
            shipping=order.shipping,
            delivery_options=[
                selectors.delivery_option_out(option, selected=order.shipping_option)
                for option in prepared.delivery_options
            ],
            gift_wrap_options=selectors.gift_wrap_options(currency=order.currency),
            payment_method=selectors.payment_method_ref(order),
            expires_at=order.expires_at,
            next_step=(
                "Show this summary to the person (the total, the delivery option and its dates). "
                "To change the delivery option, quantity or gift options, call prepare_order again "
                'with them. Nothing is charged until the person presses "Confirm purchase" in '
                "the widget; do not call commit_order yourself."
            ),
            **selectors.order_totals(order),
        )
    # The token goes to the widget only (_meta); the model never sees it.
    meta = {
        "confirmation_token": prepared.confirmation_token,
        "idempotency_key": args.idempotency_key,
    }
    if settings.CHATGPT_PAYMENT_SHEET:
        # For the widget to hand to ChatGPT's payment sheet (checkout.agentic.payment_sheet).
        meta["checkout_session"] = payment_sheet.sheet_session(owner=context.principal, order=order)
    return ToolResult(output, meta)


def commit_order_tool(context: ToolContext, args: CommitOrderInput) -> ToolResult:
    committed = services.commit_order(
        workflow=_workflow(context),
        owner=context.principal,
        order_id=args.order_id,
        confirmation_token=args.confirmation_token,
        correlation_id=context.correlation_id,
        locale=context.locale,
    )
    return _commit_answer(committed, args)


def commit_order_current_answer(context: ToolContext, args: CommitOrderInput) -> ToolResult:
    """A repeated commit_order while the order was being paid: the order as it is now."""
    return _commit_answer(
        services.committed_order_now(owner=context.principal, order_id=args.order_id), args
    )


def _commit_answer(committed: services.CommittedOrder, args: CommitOrderInput) -> ToolResult:
    order = committed.order
    output = CommitOrderOutput(
        workflow_id=committed.workflow.id,
        current_step=committed.workflow.current_step,
        order_id=order.pk,
        status=order.status,
        amount=str(order.amount),
        currency=order.currency,
        message=COMMIT_MESSAGES[order.status],
        next_action=selectors.next_action_of(order),
    )
    # The person's receipt link and payment page: for the widget, never for the model.
    meta = {"idempotency_key": args.idempotency_key, **selectors.payment_url_of(order)}
    if order.receipt_key:
        meta["receipt_key"] = order.receipt_key
    # An order still being paid is not a final answer: the key does not keep it.
    return ToolResult(output, meta, final=order.status not in IN_FLIGHT)


def cancel_order_tool(context: ToolContext, args: CancelOrderInput) -> ToolResult:
    result = services.cancel_order(
        owner=context.principal,
        order_id=args.order_id,
        reason=args.reason,
        correlation_id=context.correlation_id,
    )
    order = result.order
    output = CancelOrderOutput(
        order_id=order.pk,
        status=order.status,
        # Closing a failed order for good ends its retry, but it was already not going ahead.
        already_cancelled=result.outcome in {ALREADY, CLOSED},
        refunded_amount=str(result.refunded),
        currency=order.currency,
        message=result.detail,
    )
    return ToolResult(output, {"idempotency_key": args.idempotency_key})


def get_order_tool(context: ToolContext, args: GetOrderInput) -> ToolResult:
    order = selectors.order_with_history(owner=context.principal, order_id=args.order_id)
    # The person's receipt link and payment page: for the widget, never for the model.
    meta = selectors.payment_url_of(order)
    if order.receipt_key:
        meta["receipt_key"] = order.receipt_key
    with translation.override(context.locale):
        return ToolResult(GetOrderOutput(**selectors.order_detail(order)), meta)


register(
    ToolSpec(
        name="get_payment_methods",
        title="List payment methods",
        description=(
            "List the person's saved payment methods (id, label such as 'Visa •••• 4242', expiry). Call it "
            "once a gift is selected, before prepare_order, and pass the chosen id as payment_method_id. "
            "The entry 'new_card' means paying with a new card on the payment service's own page (the "
            "person types the card there, never in the chat). It changes nothing. Do NOT call it before select_gift, and never invent payment method ids."
        ),
        input_model=GetPaymentMethodsInput,
        output_model=GetPaymentMethodsOutput,
        annotations=Annotations(
            read_only=True, destructive=False, idempotent=None, open_world=False
        ),
        handler=get_payment_methods_tool,
        scope=GIFTS_READ,
        allowed_steps=COMMERCE_STEPS,
        widget_accessible=True,
        invoking="Loading payment methods…",
        invoked="Payment methods loaded",
    )
)
register(
    ToolSpec(
        name="prepare_order",
        title="Prepare the order",
        description=(
            "Create a draft order for the selected gift with a payment method and shipping address, and hold "
            "the stock for a limited time. Returns the priced summary to show the person: line items, "
            "totals (items, shipping, gift wrap, tax, total; 'total' is exactly what is charged), the "
            "delivery options serving the address with their prices and arrival dates (the cheapest is "
            "chosen unless shipping_option names another), gift wrap options, and a one-line summary "
            "such as '€54.90 including €4.90 shipping, arriving Mar 12-14'. It charges nothing. Call it "
            "again to change the delivery option, quantity or gift options: the draft is re-priced and "
            "keeps its stock hold. Requires an idempotency_key (a new UUID per action; the same one when "
            "retrying). Do NOT call it before select_gift, and do NOT follow it with commit_order "
            "yourself: the person confirms in the widget."
        ),
        input_model=PrepareOrderInput,
        output_model=PrepareOrderOutput,
        annotations=Annotations(
            read_only=False, destructive=False, idempotent=True, open_world=False
        ),
        handler=prepare_order_tool,
        scope=ORDERS_WRITE,
        allowed_steps=COMMERCE_STEPS,
        requires_idempotency_key=True,
        input_checks=(
            InputCheck(
                "payment_method_id",
                lambda value, *, caller: payment_choice.payment_method_error(value, owner=caller),
                with_caller=True,
            ),
        ),
        widget_accessible=True,
        invoking="Preparing your order…",
        invoked="Order ready to confirm",
    )
)
register(
    ToolSpec(
        name="commit_order",
        title="Confirm and pay",
        description=(
            "Charge the payment method and complete a prepared order. Only works with the confirmation "
            'token the widget sends when the person presses "Confirm purchase"; the model cannot confirm '
            "on its own. Result status: completed; payment_pending (processing: tell the person it is "
            "processing, not failed); or awaiting_payment with next_action (a new card, or a bank "
            "check on a saved card): tell the person to finish paying on the page that opened and "
            "come back, the gift being held until next_action.expires_at. A retry with the same "
            "idempotency_key never charges twice and returns the same page. Do NOT "
            "call it without the person's confirmation, and do NOT use it to change an order (use "
            "prepare_order)."
        ),
        input_model=CommitOrderInput,
        output_model=CommitOrderOutput,
        annotations=Annotations(
            read_only=False, destructive=True, idempotent=True, open_world=True
        ),
        handler=commit_order_tool,
        current_answer=commit_order_current_answer,
        scope=ORDERS_WRITE,
        allowed_steps=COMMERCE_STEPS,
        requires_idempotency_key=True,
        widget_accessible=True,
        app_only=True,
        invoking="Processing your payment…",
        invoked="Payment processed",
    )
)
register(
    ToolSpec(
        name="cancel_order",
        title="Cancel an order",
        description=(
            "Cancel one of the person's orders: refunds the payment if it was charged, releases the stock "
            "and cancels it. Cancelling an already cancelled order is a harmless no-op. Only when the person "
            "asks to cancel. Do NOT use it to switch gift or payment method before paying (prepare_order "
            "replaces a draft). An order awaiting payment is cancelled at the payment service first "
            "(nothing is charged; a payment that got through is refunded). It cannot cancel while a "
            "payment is still processing (retry with the same "
            "idempotency_key once it settles), nor a gift already shipped (the person contacts the shop "
            "for a return)."
        ),
        input_model=CancelOrderInput,
        output_model=CancelOrderOutput,
        annotations=Annotations(
            read_only=False, destructive=True, idempotent=True, open_world=True
        ),
        handler=cancel_order_tool,
        # A refusal while the payment was open acted on nothing: a repeat asks again (cancelling
        # is idempotent) until the answer is final, and the key keeps that one.
        current_answer=cancel_order_tool,
        scope=ORDERS_WRITE,
        requires_idempotency_key=True,
        widget_accessible=True,
        invoking="Cancelling the order…",
        invoked="Order cancelled",
    )
)
register(
    ToolSpec(
        name="get_order",
        title="Show an order",
        description=(
            "Read one of the person's orders: status, line items and totals, the delivery option and its "
            "arrival window, gift options, payments (charged, refunded), the checkout steps with their "
            "outcomes, the failure reason if any, and fulfilment: shipping status (unfulfilled, shipped, "
            "delivered) and tracking, and next_action (the page to finish paying on) while the order is "
            "awaiting_payment. Call it to follow a payment_pending or awaiting_payment order, to "
            "explain a failure, or "
            "when the person asks where their gift is. It changes nothing; do NOT call it in a tight loop."
        ),
        input_model=GetOrderInput,
        output_model=GetOrderOutput,
        annotations=Annotations(
            read_only=True, destructive=False, idempotent=None, open_world=False
        ),
        handler=get_order_tool,
        scope=GIFTS_READ,
        widget_accessible=True,
        invoking="Checking the order…",
        invoked="Order checked",
    )
)
