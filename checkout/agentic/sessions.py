"""An agent's checkout session (Agentic Commerce Protocol) is one of our draft orders: the
session keeps the protocol's fields (buyer, fulfilment details) beside a gift workflow, and the
workflow's current order is priced, held and paid by the same pricing, draft and saga as the
widget's checkout. One function per operation, shared by REST and MCP; each returns the
session's authoritative state (checkout.agentic.shape) or raises an AcpError.

Locks: each write goes through the saga's own entries (do_prepare_order, do_commit_order,
do_release_draft), which take the workflow row lock themselves; call outside any transaction.
What makes or releases a draft also holds the session row lock (`_open_for_writing`), taken
before the workflow's, so a cancel and a complete or update cannot cross: a cancel never
answers "canceled" over a payment that went through, and nothing makes a draft for a session
canceled meanwhile. A claim takes only the workflow lock, which a cancel holds too.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from checkout import pricing
from checkout.agentic import authentication, shape
from checkout.agentic.errors import AcpError, not_found
from checkout.agentic.requests import check_body, item_quantities
from checkout.models import CheckoutSession, GuestBuyer, Order, OrderStatus
from checkout.payments.stripe_provider import SHARED_PAYMENT_TOKEN_PREFIX
from checkout.saga import commit, compensation, draft
from checkout.saga.locks import lock_workflow
from checkout.saga.outcome import InProgress, SagaOutcome
from checkout.saga.states import IN_FLIGHT
from gifts.models import Product, Step, WorkflowContext
from tool_runtime.errors import ToolError

SESSION_PREFIX = "cs_"
SESSION_ID = re.compile(SESSION_PREFIX + "[0-9a-f]{24}")  # as new sessions are named
# Our refusals' fields, as JSON paths into the ACP request.
FIELD_PATHS = {
    "quantity": "$.line_items[0].quantity",
    "currency": "$.currency",
    "shipping.country": "$.fulfillment_details.address.country",
    "shipping_option": "$.selected_fulfillment_options[0].option_id",
}
PAYMENT_PATH = "$.payment_data.instrument.credential"


def new_session_id() -> str:
    return SESSION_PREFIX + secrets.token_hex(12)


def session_for(*, owner: AbstractBaseUser, session_id: str) -> CheckoutSession:
    """The owner's live session; another owner's, or one past ACP_SESSION_TTL_SECONDS, is
    answered as one that does not exist."""
    oldest = timezone.now() - timedelta(seconds=settings.ACP_SESSION_TTL_SECONDS)
    found = (
        CheckoutSession.objects.select_related("workflow", "buyer")
        .filter(pk=session_id, owner=owner, created_at__gt=oldest)
        .first()
    )
    if found is None:
        raise not_found(session_id)
    return found


def currencies_sold() -> list[str]:
    """The currencies of the items an agent may put in a session (lower case, as ACP writes)."""
    found = Product.objects.filter(active=True).values_list("currency", flat=True).distinct()
    return sorted({currency.lower() for currency in found})


def get_session(*, owner: AbstractBaseUser, session_id: str) -> dict[str, Any]:
    return shape.session_view(session_for(owner=owner, session_id=session_id))


# --- create and update ----------------------------------------------------------------------


def create_session(
    *, owner: AbstractBaseUser, body: Any, correlation_id: str, locale: str = "en"
) -> dict[str, Any]:
    """A new session with its draft priced and its stock held. Nothing is written when the
    items cannot be priced at all (an unknown item, another currency): that is a 400."""
    stripped, quantities = item_quantities(body) if isinstance(body, dict) else (body, [])
    check_body("CheckoutSessionCreateRequest", stripped)
    product = _product(stripped["line_items"])
    details = stripped.get("fulfillment_details") or {}
    try:
        quote = _quote(
            product=product,
            quantity=quantities[0],
            details=details,
            currency=stripped["currency"],
            option=None,
        )
    except ToolError as refusal:
        raise _as_acp_error(refusal) from None
    with transaction.atomic():
        workflow = WorkflowContext.objects.create(
            owner=owner,
            current_step=Step.GIFT_SELECTED,
            visited_steps=[Step.BRIEF, Step.IDEAS, Step.GIFT_SELECTED],
            selected_product=product,
        )
        session = CheckoutSession.objects.create(
            id=new_session_id(),
            owner=owner,
            workflow=workflow,
            buyer=_buyer(None, stripped.get("buyer")),
            fulfillment_details=details,
            locale=locale,
            interventions=stripped["capabilities"].get("interventions", {}).get("supported", []),
        )
    problems = _prepare(session, quote=quote, details=details, correlation_id=correlation_id)
    return shape.session_view(session, messages=problems)


def update_session(
    *, owner: AbstractBaseUser, session_id: str, body: Any, correlation_id: str
) -> dict[str, Any]:
    """Apply the changes and re-price the draft (its hold kept when the items are the same).
    A change that cannot be priced leaves the draft as it was and comes back as a message."""
    stripped, quantities = item_quantities(body) if isinstance(body, dict) else (body, [])
    check_body("CheckoutSessionUpdateRequest", stripped)
    session = session_for(owner=owner, session_id=session_id)
    order = shape.current_order(session)
    _refuse_closed(session, order)
    if order is not None and order.status in IN_FLIGHT:
        return shape.session_view(session)
    line = order.lines.first() if order is not None else None
    product = session.workflow.selected_product
    quantity = line.quantity if line is not None else 1
    if stripped.get("line_items"):
        product, quantity = _product(stripped["line_items"]), quantities[0]
    details = session.fulfillment_details
    if "fulfillment_details" in stripped:
        details = stripped["fulfillment_details"] or {}
    if "selected_fulfillment_options" not in stripped:
        option = _kept_option(details, order)
    else:  # an empty list clears the choice (the schema takes no null): the cheapest again
        selected = stripped["selected_fulfillment_options"] or []
        option = selected[0]["option_id"] if selected else None
    try:
        quote = _quote(
            product=product,
            quantity=quantity,
            details=details,
            currency=order.currency if order else product.currency,
            option=option,
        )
    except ToolError as refusal:
        # Nothing is applied: the session still shows what its draft is priced for.
        return shape.session_view(session, messages=[_as_message(refusal)])
    with _open_for_writing(session):
        if product != session.workflow.selected_product:
            WorkflowContext.objects.filter(pk=session.workflow_id).update(selected_product=product)
            session.workflow.selected_product = product
        if "buyer" in stripped:
            session.buyer = _buyer(session.buyer, stripped["buyer"])
        session.fulfillment_details = details
        session.save(update_fields=["buyer", "fulfillment_details", "updated_at"])
        problems = _prepare(session, quote=quote, details=details, correlation_id=correlation_id)
    return shape.session_view(session, messages=problems)


@contextmanager
def _open_for_writing(session: CheckoutSession) -> Iterator[None]:
    """Hold the session row lock for a write that makes or re-prices its draft; a session
    canceled meanwhile is refused (405) with nothing written."""
    with transaction.atomic():
        locked = CheckoutSession.objects.select_for_update().filter(pk=session.pk)
        if locked.values_list("canceled", flat=True).first():
            session.canceled = True
            raise AcpError(405, "not_modifiable", "The checkout session is canceled.")
        yield


def _kept_option(details: dict[str, Any], order: Order | None) -> str | None:
    """The delivery option chosen before, if it still serves the (maybe new) address; else
    None, the cheapest."""
    if order is None or not order.shipping_option:
        return None
    country = (details.get("address") or {}).get("country")
    offered = pricing.delivery_options(
        country=(country or settings.ACP_DEFAULT_COUNTRY).upper(), currency=order.currency
    )
    return order.shipping_option if any(o.code == order.shipping_option for o in offered) else None


def _product(items: list[dict[str, Any]]) -> Product:
    if len(items) > 1:
        raise AcpError(
            400,
            "unsupported",
            "A checkout session holds one item here; send the others in sessions of their own.",
            param="$.line_items[1]",
        )
    product = Product.objects.filter(sku=items[0]["id"], active=True).first()
    if product is None:
        raise AcpError(
            400, "invalid", f"There is no item {items[0]['id']!r}.", param="$.line_items[0].id"
        )
    return product


def _quote(
    *, product: Product, quantity: int, details: dict, currency: str, option: str | None
) -> pricing.Quote:
    country = (details.get("address") or {}).get("country") or settings.ACP_DEFAULT_COUNTRY
    return pricing.quote(
        product=product,
        quantity=quantity,
        country=country.upper(),
        currency=currency.upper(),
        shipping_option=option,
    )


def _prepare(
    session: CheckoutSession, *, quote: pricing.Quote, details: dict, correlation_id: str
) -> list[dict[str, Any]]:
    """The workflow's draft for `quote` (do_prepare_order), its buyer set; messages for what
    kept it from being held."""
    result = draft.do_prepare_order(
        workflow=session.workflow,
        quote=quote,
        payment_method_id="",
        shipping=_shipping(details),
        gift=draft.GiftOptions(),
        correlation_id=correlation_id,
    )
    if isinstance(result, InProgress):
        return []
    order = result.order
    Order.objects.filter(pk=order.pk).update(buyer=session.buyer, locale=session.locale)
    if isinstance(result, SagaOutcome):
        sold_out = format_lazy(_("{name} is sold out."), name=quote.lines[0].product.name)
        return [shape.message("out_of_stock", sold_out, param="$.line_items[0]")]
    return []


def _shipping(details: dict) -> dict[str, str]:
    address = details.get("address") or {}
    return {
        "name": address.get("name") or details.get("name") or "",
        "line1": address.get("line_one", ""),
        "line2": address.get("line_two", ""),
        "city": address.get("city", ""),
        "state": address.get("state", ""),
        "postal_code": address.get("postal_code", ""),
        "country": (address.get("country") or settings.ACP_DEFAULT_COUNTRY).upper(),
    }


def _buyer(current: GuestBuyer | None, data: dict[str, Any] | None) -> GuestBuyer | None:
    if not data:
        return current
    fields = {
        "email": data.get("email", ""),
        "first_name": data.get("first_name") or data.get("full_name", ""),
        "last_name": data.get("last_name", ""),
        "phone_number": data.get("phone_number", ""),
    }
    if current is None:
        return GuestBuyer.objects.create(**fields)
    GuestBuyer.objects.filter(pk=current.pk).update(**fields)
    current.refresh_from_db()
    return current


def _as_acp_error(refusal: ToolError) -> AcpError:
    return AcpError(400, "invalid", refusal.message, param=FIELD_PATHS.get(refusal.field or ""))


def _as_message(refusal: ToolError) -> dict[str, Any]:
    code = "region_restricted" if refusal.code == "SHIPPING_NOT_AVAILABLE" else "invalid"
    return shape.message(code, refusal.message, param=FIELD_PATHS.get(refusal.field or ""))


def _refuse_closed(session: CheckoutSession, order: Order | None) -> None:
    if session.canceled or (order is not None and order.status == OrderStatus.COMPLETED):
        state = "canceled" if session.canceled else "completed"
        raise AcpError(405, "not_modifiable", f"The checkout session is {state}.")


# --- complete and cancel --------------------------------------------------------------------


def complete_session(
    *, owner: AbstractBaseUser, session_id: str, body: Any, correlation_id: str
) -> dict[str, Any]:
    """Pay the session's draft with the agent's Shared Payment Token through the saga (one
    provider key per order, so however many completes race, one charge). A completed session
    answers as it is; a decline comes back as a `payment_declined` message."""
    check_body("CheckoutSessionCompleteRequest", body)
    session = session_for(owner=owner, session_id=session_id)
    order = shape.current_order(session)
    if session.canceled:
        raise AcpError(405, "not_modifiable", "The checkout session is canceled.")
    if shape.authenticating(order) and session.directory_server:
        return authentication.settle(
            session, order, result=body.get("authentication_result"), correlation_id=correlation_id
        )
    if order is not None and (order.status == OrderStatus.COMPLETED or order.status in IN_FLIGHT):
        return _as_it_stands(session)
    token = _shared_payment_token(body["payment_data"])
    if "buyer" in body:
        session.buyer = _buyer(session.buyer, body["buyer"])
        session.save(update_fields=["buyer", "updated_at"])
    if not (session.fulfillment_details.get("address") or {}):
        return shape.session_view(session)  # not ready: its messages say what is missing
    if order is None or order.status != OrderStatus.DRAFT or shape.expired(order):
        with _open_for_writing(session):
            order = _fresh_draft(session, order, correlation_id=correlation_id)
        if order is None or order.status != OrderStatus.DRAFT:
            return shape.session_view(session)
    if not token.startswith(SHARED_PAYMENT_TOKEN_PREFIX):
        # Not a token Stripe could have granted us: declined before anything is asked.
        return shape.session_view(session, messages=[shape.declined_message()])
    Order.objects.filter(pk=order.pk, status=OrderStatus.DRAFT).update(
        payment_method_id=token, buyer=session.buyer
    )
    order.payment_method_id = token
    order.locale = session.locale
    outcome = commit.do_commit_order(order=order, correlation_id=correlation_id)
    if not outcome.claimed:  # another call got the draft first: this one charged nothing
        return _as_it_stands(session)
    if shape.authenticating(outcome.order):
        return authentication.hand_to_agent(session, outcome.order, correlation_id=correlation_id)
    messages = []
    if outcome.order.status == OrderStatus.FAILED:
        messages.append(shape.failure_message(outcome.order))
    return shape.session_view(session, messages=messages)


def _as_it_stands(session: CheckoutSession) -> dict[str, Any]:
    """A complete that charged nothing: the session as it now is, saying so when it is paid
    (or being paid) already."""
    session.refresh_from_db(fields=["canceled", "directory_server"])  # a cancel may have won
    order = shape.current_order(session)
    if order is None or not (order.status == OrderStatus.COMPLETED or order.status in IN_FLIGHT):
        return shape.session_view(session)
    already = (
        _("This checkout session was paid already; nothing more was charged.")
        if order.status == OrderStatus.COMPLETED
        else _("This checkout session is being paid already; nothing more was charged.")
    )
    return shape.session_view(session, messages=[shape.info(already)])


def _shared_payment_token(payment_data: dict[str, Any]) -> str:
    instrument = payment_data.get("instrument")
    if instrument is None:
        raise AcpError(
            400,
            "unsupported",
            "Only a delegated payment token is accepted here, not a purchase order.",
            param="$.payment_data.instrument",
        )
    credential = instrument["credential"]
    if credential["type"] != "spt":
        raise AcpError(
            400,
            "unsupported",
            "Pay with a Stripe Shared Payment Token: credential type 'spt'.",
            param=f"{PAYMENT_PATH}.type",
        )
    return credential["token"]


def _fresh_draft(
    session: CheckoutSession, order: Order | None, *, correlation_id: str
) -> Order | None:
    """A new draft for the same items after the last one failed (a decline) or lapsed."""
    line = order.lines.first() if order is not None else None
    try:
        quote = _quote(
            product=session.workflow.selected_product,
            quantity=line.quantity if line else 1,
            details=session.fulfillment_details,
            currency=order.currency if order else session.workflow.selected_product.currency,
            option=order.shipping_option if order else None,
        )
    except ToolError:
        return None
    _prepare(
        session, quote=quote, details=session.fulfillment_details, correlation_id=correlation_id
    )
    return shape.current_order(session)


def cancel_session(
    *, owner: AbstractBaseUser, session_id: str, correlation_id: str, body: Any = None
) -> dict:
    """Release the draft's stock and close the session; a completed or canceled session (or
    one being paid) is not cancelable (405). The body's intent trace is checked, not kept."""
    if body is not None:
        check_body("CancelSessionRequest", body)
    session = session_for(owner=owner, session_id=session_id)
    with transaction.atomic():
        # The session's lock, then the workflow's (the claim's): the order read here cannot be
        # claimed before it is released, and no write of this session can make a new draft.
        session.canceled = (
            CheckoutSession.objects.select_for_update()
            .values_list("canceled", flat=True)
            .get(pk=session.pk)
        )
        lock_workflow(session.workflow_id)
        order = shape.current_order(session)
        _refuse_closed(session, order)
        if order is not None and order.status in IN_FLIGHT:
            raise AcpError(405, "not_cancelable", "The checkout session is being paid.")
        if order is not None and order.status == OrderStatus.DRAFT:
            compensation.do_release_draft(
                order_id=order.pk,
                reason="The agent canceled the checkout session.",
                correlation_id=correlation_id,
                rollback_workflow=True,
            )
        CheckoutSession.objects.filter(pk=session.pk).update(canceled=True)
    session.canceled = True
    return shape.session_view(session)
