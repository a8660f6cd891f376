"""The one entry for the person's writes to orders: prepare, commit and cancel an order, leave
checkout (the commerce tools and the gift workflow). Staff's writes: checkout.staff_rollback,
checkout.fulfilment, checkout.receipts.

Each write is one verb here, and checks what the person may do with the order now, turning
every refusal into a catalog error that says what to do next; the saga (checkout.saga) does the
work. Naming, a check-then-act pair per verb:
- `check_<verb>` (here) raises the ToolError that explains why the person may not do it now;
- `do_<verb>` (in checkout.saga) does it, and its docstring states the lock it takes or must be
  called under: do_prepare_order, do_commit_order, do_cancel_order, and do_release_draft for
  leaving checkout (it is the act, too, behind replacing a draft and expiring one).
A cancellation has no check of its own: whether an order may be cancelled is decided while
cancelling (the order may move under it), so do_cancel_order answers a refusal as its outcome,
which cancel_order raises and a staff rollback (checkout.staff_rollback) records.
"""

from __future__ import annotations

import hmac
import uuid
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from checkout import payment_choice, pricing, selectors
from checkout.models import FulfilmentStatus, Order, OrderStatus
from checkout.payments.methods import (
    PaymentMethod,
)
from checkout.saga import cancellation, commit, compensation, draft
from checkout.saga.cancellation import RollbackOutcome
from checkout.saga.outcome import InProgress, SagaOutcome
from checkout.saga.states import (
    DECLINE_CODES,
    FINAL_STATUSES,
    IN_FLIGHT,
    REFUSED,
)
from gifts.models import Product, WorkflowContext
from tool_runtime.errors import ToolError


@dataclass(frozen=True)
class PreparedOrder:
    order: Order
    workflow: WorkflowContext
    confirmation_token: str
    delivery_options: list[pricing.DeliveryOption]


@dataclass(frozen=True)
class CommittedOrder:
    order: Order
    workflow: WorkflowContext


# --- prepare --------------------------------------------------------------------------------


def check_prepare_order(
    *, workflow: WorkflowContext, payment_method_id: str
) -> tuple[Product, PaymentMethod]:
    """Raise the error that explains why no draft can be made (an unknown payment method, a
    gift no longer sold); returns the gift to order and the chosen payment method. Whether an
    order of the workflow is being paid is checked by do_prepare_order, under the workflow
    lock."""
    method = payment_choice.chosen_payment_method(payment_method_id, owner=workflow.owner)
    if isinstance(method, ToolError):
        raise method
    product = workflow.selected_product
    if product is None or not product.active:
        raise ToolError(
            "PRODUCT_UNAVAILABLE",
            "The selected gift is no longer available. Choose another gift with select_gift.",
            next_actions=["select_gift", "suggest_gifts"],
        )
    return product, method


def prepare_order(
    *,
    workflow: WorkflowContext,
    payment_method_id: str,
    shipping: dict,
    correlation_id: str,
    quantity: int = 1,
    shipping_option: str | None = None,
    gift_wrap: str | None = None,
    gift: draft.GiftOptions | None = None,
    currency: str | None = None,
) -> PreparedOrder:
    """A priced draft order for the selected gift with its stock held: the workflow's draft
    re-priced when it holds the same items (its hold kept), else a new one replacing it.
    Pricing refusals (quantity, currency, delivery option, wrap, tax rate) raise before
    anything is written."""
    product, method = check_prepare_order(workflow=workflow, payment_method_id=payment_method_id)
    quote = pricing.quote(
        product=product,
        quantity=quantity,
        country=shipping["country"],
        currency=currency,
        shipping_option=shipping_option,
        gift_wrap=gift_wrap,
    )
    result = draft.do_prepare_order(
        workflow=workflow,
        quote=quote,
        payment_method_id=method.id,
        payment_method_label=method.label,
        shipping=shipping,
        gift=gift or draft.GiftOptions(),
        correlation_id=correlation_id,
    )
    if isinstance(result, InProgress):
        busy = result.order
        raise ToolError(
            "ORDER_IN_PROGRESS",
            f"Order {busy.pk} of this workflow {_paid_or_paying(busy)} (status {busy.status}). "
            "Call get_order to follow it; this workflow prepares no other order meanwhile.",
            details={"order_id": str(busy.pk), "order_status": busy.status},
            next_actions=["get_order"],
        )
    if isinstance(result, SagaOutcome):
        raise ToolError(
            "OUT_OF_STOCK",
            f"'{product.name}' has just sold out, so no order was made. Offer the person another gift.",
            details={"product_id": product.pk, "order_id": str(result.order.pk)},
            next_actions=["select_gift with another suggested product_id", "suggest_gifts"],
        )
    workflow.refresh_from_db()
    return PreparedOrder(result.order, workflow, result.confirmation_token, quote.options)


def _paid_or_paying(order: Order) -> str:
    return "was paid for" if order.status == OrderStatus.COMPLETED else "is being paid for"


# --- commit ---------------------------------------------------------------------------------


def check_commit_order(
    *,
    order: Order,
    workflow: WorkflowContext,
    confirmation_token: str | None,
    correlation_id: str,
) -> None:
    """Raise the error that explains why the person may not confirm this order now: another
    workflow's order, no (or a wrong) confirmation token, or an order that can no longer be
    paid. A draft whose hold lapsed is expired here (stock released) before ORDER_EXPIRED is
    raised. An order already being paid passes: the commit reports it as it stands."""
    if order.workflow_id != workflow.pk:
        raise ToolError(
            "NOT_FOUND",
            f"Order {order.pk} does not belong to workflow {workflow.pk}.",
            field="order_id",
            expected="the order_id prepare_order returned for this workflow",
        )
    _check_token(order, confirmation_token)
    if order.status not in IN_FLIGHT:
        _check_committable(order, workflow, correlation_id)
        payment_choice.check_card_still_saved(order=order, workflow=workflow)


def commit_order(
    *,
    workflow: WorkflowContext,
    owner: AbstractBaseUser,
    order_id: uuid.UUID,
    confirmation_token: str | None,
    correlation_id: str,
    locale: str = "en",
) -> CommittedOrder:
    """Run the payment saga for an order the person confirmed in the widget (in `locale`, the
    language of what is sent to them later)."""
    order = selectors.order_for(owner=owner, order_id=order_id)
    check_commit_order(
        order=order,
        workflow=workflow,
        confirmation_token=confirmation_token,
        correlation_id=correlation_id,
    )
    if order.status not in IN_FLIGHT:  # in flight: a repeated confirm, answered as it stands
        order.locale = locale  # written by the claim, under the workflow lock
        outcome = commit.do_commit_order(order=order, correlation_id=correlation_id)
        if outcome.error_code:
            raise _checkout_failure(outcome.error_code, outcome.order)
        order = outcome.order
        if order.status not in (*IN_FLIGHT, OrderStatus.COMPLETED):
            # Another call moved the order first (expired, cancelled or replaced meanwhile): say
            # why, from the workflow as it is now.
            workflow.refresh_from_db()
            _check_committable(order, workflow, correlation_id)
            _check_still_current(order, workflow)
            raise _not_committable(order, "it changed while being confirmed")
    workflow.refresh_from_db()
    return CommittedOrder(order, workflow)


def committed_order_now(*, owner: AbstractBaseUser, order_id: uuid.UUID) -> CommittedOrder:
    """A repeated confirm whose first answer was not final: the order as it is now, read
    afresh; nothing is charged. A closed order raises what its commit would have raised."""
    order = selectors.order_for(owner=owner, order_id=order_id)
    if order.status == OrderStatus.FAILED:
        raise _checkout_failure(order.failure_code or "INTERNAL_ERROR", order)
    if order.status == OrderStatus.CANCELLED:
        raise _not_committable(
            order, f"it was cancelled ({order.failure_message or 'no reason given'})"
        )
    if order.status == OrderStatus.DRAFT:
        raise _not_committable(order, "it is a draft again")
    return CommittedOrder(order, order.workflow)


def _check_token(order: Order, token: str | None) -> None:
    if not token or not hmac.compare_digest(
        draft.token_digest(token), order.confirmation_token_digest
    ):
        raise ToolError(
            "CONFIRMATION_REQUIRED",
            'Only the person can confirm a purchase: they must press "Confirm purchase" in the widget, '
            "which sends the confirmation token. Show them the order summary and ask them to confirm "
            "there; never invent a token. A token shown before prepare_order re-priced the order no "
            "longer confirms it: the person confirms the new summary.",
            field="confirmation_token",
            details={"order_id": str(order.pk)},
        )


def _check_committable(order: Order, workflow: WorkflowContext, correlation_id: str) -> None:
    """Raise the error that explains why this order cannot be confirmed now (if it cannot)."""
    expired_draft = (
        order.status == OrderStatus.DRAFT
        and order.expires_at
        and order.expires_at <= timezone.now()
    )
    if expired_draft:
        compensation.expire_draft(order_id=order.pk, correlation_id=correlation_id)
    if expired_draft or order.failure_code == "ORDER_EXPIRED":
        raise ToolError(
            "ORDER_EXPIRED",
            "The stock hold of this order expired before the purchase was confirmed, so the order was "
            "cancelled. Call prepare_order again to make a new draft (and get a new confirmation).",
            details={"order_id": str(order.pk)},
            next_actions=["prepare_order"],
        )
    if order.status == OrderStatus.CANCELLED:
        raise _not_committable(
            order, f"it was cancelled ({order.failure_message or 'no reason given'})"
        )
    if order.confirmation_used_at is not None:
        raise ToolError(
            "CONFIRMATION_REQUIRED",
            f"This confirmation was already used: the order is {order.status}. Call get_order to see it. "
            'A new purchase needs prepare_order and the person pressing "Confirm purchase" again.',
            field="confirmation_token",
            details={"order_id": str(order.pk), "order_status": order.status},
            next_actions=["get_order", "prepare_order"],
        )
    if order.status == OrderStatus.FAILED:
        _check_still_current(order, workflow)
        line = order.lines.first()
        if line is None or workflow.selected_product_id != line.product_id:
            raise _not_committable(order, "the person selected a different gift since")


def _check_still_current(order: Order, workflow: WorkflowContext) -> None:
    """Only the workflow's own order may be paid: two prepare_order calls may have raced (model
    and widget), or a failed order been replaced. The claim checks the same under the workflow
    lock; this says why it refused."""
    current = selectors.workflow_order_id(workflow=workflow)
    replaced = (
        current != order.pk
        if order.status == OrderStatus.DRAFT
        else current not in (None, order.pk)
    )
    if order.status in (OrderStatus.DRAFT, OrderStatus.FAILED) and replaced:
        raise _not_committable(order, f"a newer draft order {current} replaced it")


def _not_committable(order: Order, why: str) -> ToolError:
    return ToolError(
        "ORDER_NOT_COMMITTABLE",
        f"Order {order.pk} cannot be confirmed: {why}. Call prepare_order to make a new draft.",
        details={"order_id": str(order.pk), "order_status": order.status},
        next_actions=["prepare_order", "get_order"],
    )


def _checkout_failure(code: str, order: Order) -> ToolError:
    details = {
        "order_id": str(order.pk),
        "order_status": order.status,
        "current_step": "gift_selected",
    }
    if code in DECLINE_CODES:
        reason = "for insufficient funds" if code == "INSUFFICIENT_FUNDS" else "by the bank"
        return ToolError(
            code,
            f"The card was declined {reason}. Nothing was charged; the order was cancelled and its stock "
            "released. Ask the person to choose another payment method (then prepare_order again), "
            "pick a cheaper gift, or stop.",
            details=details,
            next_actions=[
                "prepare_order with another payment_method_id",
                "select_gift (a cheaper gift)",
                "stop",
            ],
        )
    if code == "CHECKOUT_EXPIRED":
        return ToolError(
            code,
            "The payment page expired before the person paid. Nothing was charged and the stock "
            'was released. The person can press "Try again" in the widget for a new payment page '
            "(the same order), or choose a saved card.",
            details=details,
            next_actions=[
                'ask the person to press "Try again" in the widget',
                "prepare_order with another payment_method_id",
            ],
        )
    if code == "OUT_OF_STOCK":
        return ToolError(
            code,
            "The gift sold out before the payment could be retried. Nothing was charged. Offer another gift.",
            details=details,
            next_actions=["select_gift with another suggested product_id", "suggest_gifts"],
        )
    if code == "PAYMENT_REJECTED":
        return ToolError(
            code,
            "The payment service refused this payment (or the bank asked for a check the person "
            "cannot be sent to). Nothing was charged; the order was rolled back. The same card "
            "will be refused again: ask the person to choose another payment method, then "
            "prepare_order again.",
            details=details,
            next_actions=["prepare_order with another payment_method_id", "stop"],
        )
    what = "did not answer in time" if code == "PAYMENT_TIMEOUT" else "is unavailable"
    return ToolError(
        code,
        f"The payment service {what}; it confirmed nothing was charged, and the order was rolled back. "
        'The person can press "Try again" in the widget (the same order, never charged twice), or '
        "choose another payment method.",
        details=details,
        next_actions=[
            'ask the person to press "Try again" in the widget',
            "prepare_order with another payment_method_id",
        ],
    )


# --- cancel and roll back --------------------------------------------------------------------


def cancel_order(
    *, owner: AbstractBaseUser, order_id: uuid.UUID, reason: str, correlation_id: str
) -> RollbackOutcome:
    """The person cancels: refund if charged → release the stock → cancel. Twice is a no-op.
    A gift already on its way is not the person's to cancel: that is a return, through the shop
    (staff may still roll it back, confirming they know it was shipped)."""
    order = selectors.order_for(owner=owner, order_id=order_id)
    if order.fulfilment_status != FulfilmentStatus.UNFULFILLED:
        raise _already_shipped(order)
    result = cancellation.do_cancel_order(
        order=order, reason=reason, actor="the person", correlation_id=correlation_id
    )
    if result.outcome == REFUSED:
        now = result.order or order
        raise ToolError(
            result.code or "ORDER_NOT_CANCELLABLE",
            result.detail,
            details={"order_id": str(order.pk), "order_status": now.status},
            next_actions=["get_order"],
            # Refused while a payment is open: nothing was done, and once the payment settles
            # the same call may cancel, so the key does not keep this answer.
            final=now.status not in IN_FLIGHT,
        )
    return result


def _already_shipped(order: Order) -> ToolError:
    tracking = f"{order.carrier} {order.tracking_number}".strip() or "no tracking number recorded"
    return ToolError(
        "ORDER_ALREADY_SHIPPED",
        f"This gift was already {order.fulfilment_status} ({tracking}), so it can no longer be "
        "cancelled; nothing was changed and nothing was refunded. Tell the person to contact the "
        "shop for a return, and give them the carrier and tracking number.",
        details={
            "order_id": str(order.pk),
            "order_status": order.status,
            "fulfilment_status": order.fulfilment_status,
            "carrier": order.carrier,
            "tracking_number": order.tracking_number,
        },
        next_actions=["get_order", "contact the shop for a return"],
    )


# --- leave checkout (the gift workflow's hooks) ----------------------------------------------


class WorkflowCheckout:
    """Checkout's hooks on the gift workflow (gifts.hooks): its order, and leaving checkout."""

    def order_id(self, *, workflow: WorkflowContext) -> uuid.UUID | None:
        return selectors.workflow_order_id(workflow=workflow)

    def leave_checkout(self, *, workflow: WorkflowContext) -> list[str]:
        """Cancel the workflow's draft and give its stock back. Says so, or that the order had
        already ended unpaid (nothing to release). Raises ORDER_IN_PROGRESS if it is being (or
        was) paid: the workflow must keep it. The caller (navigate_back) holds the workflow
        lock, which a commit's claim takes too, and moves the workflow itself."""
        order_id = selectors.workflow_order_id(workflow=workflow)
        if order_id is None:
            return []
        if compensation.do_release_draft(order_id=order_id, reason="navigated back"):
            return [f"draft order {order_id} (cancelled, stock released)"]
        check_leave_checkout(order_id=order_id)
        return [f"draft order {order_id} (already closed)"]


def check_leave_checkout(*, order_id: uuid.UUID) -> None:
    """Raise ORDER_IN_PROGRESS when the workflow's order is being (or was) paid: the workflow
    must keep it. Asked after do_release_draft found no draft to release, not before: its
    compare-and-swap is what decides, so a claim that got in first is seen here."""
    order = Order.objects.filter(pk=order_id).first()
    if order is None or order.status in FINAL_STATUSES:
        return
    raise ToolError(
        "ORDER_IN_PROGRESS",
        f"Order {order.pk} {_paid_or_paying(order)} (status {order.status}); the workflow cannot go back from "
        "checkout while it runs or after it was paid. Call get_order to follow it.",
        field="step_id",
        details={"order_id": str(order.pk), "order_status": order.status},
        next_actions=["get_order"],
    )
