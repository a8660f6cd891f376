"""The pages on our own domain around a hosted payment: where the provider sends the person
back (paid / not paid), and the simulator's own payment page.

None of them trusts the address it was reached by: a session id in a URL is only a reason to
ask the provider afresh (checkout.saga.hosted), and no page shows anything about an order, so a
wrong, foreign or unknown id tells nothing to whoever holds it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from django.utils.translation import gettext_lazy as _

from checkout.models import Order, OrderStatus
from checkout.payments import methods
from checkout.payments.gateway import ChargeResult
from checkout.payments.provider import (
    CheckoutStatus,
    HostedCheckout,
    ProviderError,
    get_provider,
)
from checkout.payments.simulator import SimulatedProvider
from checkout.saga import hosted, lease
from checkout.saga.compensation import RefundFailed
from checkout.webhooks import receive_simulator_event

# A Checkout Session's id, or a PaymentIntent's back from 3-D Secure (the simulator's charge).
CHECKOUT_ID = re.compile(r"(cs|pi|ch)_[A-Za-z0-9_]{1,250}")


def _order_paying_on(checkout_id: str) -> Order | None:
    if not CHECKOUT_ID.fullmatch(checkout_id or ""):
        return None
    return Order.objects.filter(payment_session_id=checkout_id).first()


def returned_paid(*, checkout_id: str) -> bool:
    """The person came back from the payment page: settle sooner by asking the provider (never
    on the redirect's word). True only when the provider says this page was paid."""
    order = _order_paying_on(checkout_id)
    if order is None:
        return False
    lease_until = lease.claim_order(order_id=order.pk)
    if lease_until is not None:  # else a webhook or a sweep is settling it right now
        try:
            hosted.settle_hosted_checkout(order=order, correlation_id=f"return-{order.pk}")
        except (ProviderError, RefundFailed):
            pass  # the webhook or the sweep settles it (and retries a refund that failed)
        finally:
            lease.release_order(order_id=order.pk, lease_until=lease_until)
    order.refresh_from_db()
    return order.status in (OrderStatus.COMPLETED, OrderStatus.PAYMENT_PENDING)


# --- the simulator's payment page -----------------------------------------------------------

SESSION_ID = re.compile(r"cs_[A-Za-z0-9_]{1,250}")


@dataclass(frozen=True)
class SimulatedPage:
    page: HostedCheckout
    lines: list[dict]
    amount: str
    currency: str
    cancel_url: str
    success_url: str
    cards: tuple[methods.PaymentMethod, ...] = methods.PAGE_PAYMENT_METHODS
    problem: object = ""  # what went wrong with the last try, for the person (lazy text)


def simulated_page(*, checkout_id: str) -> SimulatedPage | None:
    """The simulator's payment page, open or paid; None when it is not the simulator's, unknown
    or expired (nothing can be paid on it any more)."""
    provider = get_provider()
    if not isinstance(provider, SimulatedProvider) or not SESSION_ID.fullmatch(checkout_id):
        return None
    try:
        page = provider.retrieve_hosted_checkout(checkout_id=checkout_id)
        summary = provider.page_summary(checkout_id=checkout_id)
    except ProviderError:
        return None  # unknown to it, or it is down
    if page.status == CheckoutStatus.EXPIRED:
        return None
    return SimulatedPage(page=page, **summary)


PROBLEMS = {
    ChargeResult.DECLINED: _("The card was declined. Choose another card."),
    ChargeResult.NOT_CHARGED_TIMEOUT: _(
        "The payment service did not answer in time. You have not been charged; try again or "
        "choose another card."
    ),
    ChargeResult.NOT_CHARGED_UNAVAILABLE: _(
        "The payment service is unavailable. You have not been charged; try again in a moment."
    ),
    ChargeResult.REJECTED: _("The payment could not be processed. Choose another card."),
    ChargeResult.UNKNOWN: _(
        "The payment service did not answer. Return to the chat: the order shows whether the "
        "payment went through."
    ),
}


def pay_simulated_page(*, checkout_id: str, payment_method_id: str) -> SimulatedPage | None:
    """The person pays on the simulator's page with a test card. The order then settles through
    the same path as a provider's event (checkout.webhooks), never here."""
    current = simulated_page(checkout_id=checkout_id)
    if current is None or current.page.status != CheckoutStatus.OPEN:
        return current
    provider = get_provider()
    try:
        page, outcome = provider.pay_on_page(
            checkout_id=checkout_id, payment_method_id=payment_method_id
        )
        result = outcome.result
    except ProviderError:
        page, result = current.page, ChargeResult.REJECTED
    order = _order_paying_on(checkout_id)
    if order is not None:
        receive_simulator_event(checkout_id=checkout_id, order_id=order.pk)
    problem = "" if result in (ChargeResult.SUCCEEDED, ChargeResult.PENDING) else PROBLEMS[result]
    return replace(current, page=page, problem=problem)


# --- the simulator's bank (3-D Secure on a saved test card) -----------------------------------

CHARGE_ID = re.compile(r"ch_[A-Za-z0-9_]{1,250}")


def simulated_bank_waits(*, charge_id: str) -> bool:
    """Whether the simulator's bank is waiting for the person to confirm this charge. Nothing
    else is shown on its page: an unknown, foreign or answered id tells nothing."""
    provider = get_provider()
    if not isinstance(provider, SimulatedProvider) or not CHARGE_ID.fullmatch(charge_id):
        return False
    try:
        page = provider.retrieve_hosted_checkout(checkout_id=charge_id)
    except ProviderError:
        return False
    return page.status == CheckoutStatus.OPEN


def answer_simulated_bank(*, charge_id: str, confirmed: bool) -> None:
    """The person confirms (or fails) the payment on the simulator's bank page; the order then
    settles through the same path as a provider's event (checkout.webhooks), never here."""
    if not simulated_bank_waits(charge_id=charge_id):
        return
    get_provider().authenticate(charge_id=charge_id, success=confirmed)
    order = _order_paying_on(charge_id)
    if order is not None:
        receive_simulator_event(checkout_id=charge_id, order_id=order.pk)
