"""The simulator's hosted checkout: a payment page served by our own server
(checkout.views.simulated_checkout_page), where a "new card" is one of the simulator's test
cards, each with its fault (declined, time-out, pending, lost answer…).

Like Stripe's Checkout Session, the page is made once per key, lives until `expires_at`, and
what it says is read from the simulator's books: a page is complete once a charge made through
it captured (or is pending), whatever answer the page itself got. Each attempt on the page
charges under a key of its own, so a decline leaves the page open for another card.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from checkout.models import SimulatedCharge, SimulatedChargeStatus, SimulatedCheckoutSession
from checkout.payments import gateway, methods
from checkout.payments.gateway import ChargeOutcome
from checkout.payments.provider import (
    ChargeStatus,
    CheckoutLine,
    CheckoutStatus,
    HostedCheckout,
    ProviderRejected,
)
from checkout.payments.router import LEDGER_DB

PAGE_PATH = "/checkout/simulated-pay/"
# The simulated bank's 3-D Secure page for a saved card's charge (its "ch_..." id is the page's).
BANK_PAGE_PATH = "/checkout/simulated-bank/"
CHARGE_PREFIX = "ch_"


def _sessions():
    return SimulatedCheckoutSession.objects.using(LEDGER_DB)


class SimulatedHostedCheckout:
    """SimulatedProvider's hosted checkout (the PaymentProvider methods of that name)."""

    _gate: Any  # SimulatedProvider's: the injected outage (503), as for every call
    retrieve_by_idempotency_key: Any  # SimulatedProvider's
    retrieve_charge: Any  # SimulatedProvider's

    def start_hosted_checkout(
        self,
        *,
        amount: Decimal,
        currency: str,
        lines: list[CheckoutLine],
        shipping: CheckoutLine | None,
        payer: object,
        idempotency_key: str,
        metadata: dict,
        success_url: str,
        cancel_url: str,
        expires_at: datetime,
    ) -> HostedCheckout:
        self._gate()
        shown = [*lines, *([shipping] if shipping is not None else [])]
        if sum(line.unit_amount * line.quantity for line in shown) != amount:
            raise ProviderRejected(
                "the checkout lines do not add up to the amount", code="INVALID_REQUEST"
            )
        meta = {str(k): str(v) for k, v in (metadata or {}).items()}
        key = f"{idempotency_key}-session-{meta.pop('attempt', '1')}"
        checkout_id = f"cs_sim_{uuid.uuid4().hex[:24]}"
        row, _ = _sessions().get_or_create(
            idempotency_key=key,
            defaults={
                "checkout_id": checkout_id,
                "order_id": meta.get("order_id", ""),
                "amount": amount,
                "currency": currency.upper(),
                "lines": [{**asdict(line), "unit_amount": str(line.unit_amount)} for line in shown],
                "metadata": {**meta, "giftgenius_key": idempotency_key},
                "success_url": success_url.replace("{CHECKOUT_SESSION_ID}", checkout_id),
                "cancel_url": cancel_url.replace("{CHECKOUT_SESSION_ID}", checkout_id),
                "expires_at": expires_at,
            },
        )
        return self._page(row)

    def retrieve_hosted_checkout(self, *, checkout_id: str) -> HostedCheckout:
        self._gate()
        if checkout_id.startswith(CHARGE_PREFIX):
            return self._authentication(checkout_id)
        return self._page(_session(checkout_id))

    def expire_hosted_checkout(self, *, checkout_id: str) -> HostedCheckout:
        self._gate()
        if checkout_id.startswith(CHARGE_PREFIX):
            # Cancel a charge still waiting for the bank: it can never capture afterwards.
            self._answer_bank(checkout_id, to=SimulatedChargeStatus.FAILED, failure_code="")
            return self._authentication(checkout_id)
        with transaction.atomic(using=LEDGER_DB):
            row = _sessions().select_for_update().filter(checkout_id=checkout_id).first()
            if row is None:
                raise ProviderRejected("no such checkout session", code="NO_SUCH_CHARGE")
            page = self._page(row)
            if page.status == CheckoutStatus.OPEN:
                _sessions().filter(pk=row.pk).update(status=CheckoutStatus.EXPIRED)
                row.status = CheckoutStatus.EXPIRED
        return self._page(row)

    def pay_on_page(
        self, *, checkout_id: str, payment_method_id: str
    ) -> tuple[HostedCheckout, ChargeOutcome]:
        """The person pays on the page with a test card: one charge attempt through the
        gateway (its retries and lookups, as for any charge). Refused when the page is no
        longer open.

        A try gets a key of its own only after the last one was declined, so another card may
        follow a decline; until then the last try's key is used again. A second submit while
        the first is still at the provider (a double click) is then the same request: the
        provider serialises it on the key and answers the same charge, charged once."""
        if payment_method_id not in {card.id for card in methods.PAGE_PAYMENT_METHODS}:
            raise ProviderRejected("no such payment method", code="NO_SUCH_PAYMENT_METHOD")
        with transaction.atomic(using=LEDGER_DB):
            row = _sessions().select_for_update().get(checkout_id=checkout_id)
            page = self._page(row)
            if page.status != CheckoutStatus.OPEN:
                raise ProviderRejected("this payment page is no longer open", code="PAGE_CLOSED")
            if not row.charge_key or page.charge is not None:
                row.tries += 1
                row.charge_key = f"{row.idempotency_key}-try-{row.tries}"
                _sessions().filter(pk=row.pk).update(tries=row.tries, charge_key=row.charge_key)
        outcome = gateway.charge(
            amount=row.amount,
            currency=row.currency,
            payment_method_id=payment_method_id,
            idempotency_key=row.charge_key,
            order_id=row.order_id,
            workflow_id=row.metadata.get("workflow_id", ""),
            correlation_id=row.metadata.get("correlation_id", ""),
        )
        return self._page(_session(checkout_id)), outcome

    def authenticate(self, *, charge_id: str, success: bool) -> HostedCheckout:
        """The person's answer on the simulated bank's page: a charge waiting for it captures,
        or is declined (CARD_DECLINED). Once answered, answering again changes nothing."""
        self._gate()
        if success:
            self._answer_bank(charge_id, to=SimulatedChargeStatus.SUCCEEDED, failure_code="")
        else:
            self._answer_bank(
                charge_id, to=SimulatedChargeStatus.FAILED, failure_code="CARD_DECLINED"
            )
        return self._authentication(charge_id)

    def _answer_bank(self, charge_id: str, *, to: str, failure_code: str) -> None:
        SimulatedCharge.objects.using(LEDGER_DB).filter(
            charge_id=charge_id, status=SimulatedChargeStatus.REQUIRES_ACTION
        ).update(status=to, failure_code=failure_code)

    def _authentication(self, charge_id: str) -> HostedCheckout:
        """A charge waiting for the bank, read as a payment page (as Stripe's intent is): open
        while the bank waits, complete once paid or declined, expired once cancelled."""
        charge = self.retrieve_charge(charge_id=charge_id)
        if charge.status == ChargeStatus.REQUIRES_ACTION:
            status = CheckoutStatus.OPEN
        elif charge.status == ChargeStatus.FAILED and not charge.failure_code:
            status = CheckoutStatus.EXPIRED
        else:
            status = CheckoutStatus.COMPLETE
        return HostedCheckout(
            id=charge.id,
            url=charge.action_url,
            status=status,
            paid=charge.status == ChargeStatus.SUCCEEDED,
            expires_at=None,
            charge=charge,
            metadata=charge.metadata,
        )

    def page_summary(self, *, checkout_id: str) -> dict:
        """What the simulator's page shows besides its state: lines, total, where it returns."""
        row = _session(checkout_id)
        return {
            "lines": row.lines,
            "amount": str(row.amount),
            "currency": row.currency,
            "success_url": row.success_url,
            "cancel_url": row.cancel_url,
        }

    def _page(self, row: SimulatedCheckoutSession) -> HostedCheckout:
        charge = (
            self.retrieve_by_idempotency_key(idempotency_key=row.charge_key)
            if row.charge_key
            else None
        )
        taken = charge is not None and charge.status in (
            ChargeStatus.SUCCEEDED,
            ChargeStatus.PENDING,
        )
        status = row.status
        if taken:
            status = CheckoutStatus.COMPLETE
        elif status == CheckoutStatus.OPEN and row.expires_at <= timezone.now():
            status = CheckoutStatus.EXPIRED
        if status != row.status:
            _sessions().filter(pk=row.pk, status=CheckoutStatus.OPEN).update(status=status)
        return HostedCheckout(
            id=row.checkout_id,
            url=f"{settings.PUBLIC_ORIGIN}{PAGE_PATH}{row.checkout_id}"
            if status == CheckoutStatus.OPEN
            else "",
            status=status,
            paid=charge is not None and charge.status == ChargeStatus.SUCCEEDED,
            expires_at=row.expires_at,
            charge=charge,
            metadata=dict(row.metadata),
        )


def _session(checkout_id: str) -> SimulatedCheckoutSession:
    row = _sessions().filter(checkout_id=checkout_id).first()
    if row is None:
        raise ProviderRejected("no such checkout session", code="NO_SUCH_CHARGE")
    return row
