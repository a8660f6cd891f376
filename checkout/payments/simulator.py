"""The built-in payment provider: a simulator that behaves like an external Stripe-like service.

Its books (SimulatedCharge / SimulatedRefund / SimulatedChargeRequest) live behind the
"payment_ledger" database connection, so no app transaction can roll a capture back, exactly
as with a real provider. Each write is one tiny `atomic(using="payment_ledger")`; the default
database is never touched.

The test payment methods (checkout.payments.methods) each trigger one behaviour:
declined, insufficient funds, time-out once, time-out always, 503, response lost after
capturing, pending then settled. `outage()` makes every call answer 503 for a while.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from checkout.models import (
    SimulatedCharge,
    SimulatedChargeRequest,
    SimulatedChargeStatus,
    SimulatedRefund,
)
from checkout.payments import methods
from checkout.payments.provider import (
    CardDeclined,
    Charge,
    ProviderRejected,
    ProviderTimeout,
    ProviderUnavailable,
    Refund,
)
from checkout.payments.router import LEDGER_DB
from checkout.payments.simulated_checkout import BANK_PAGE_PATH, SimulatedHostedCheckout

CENT = Decimal("0.01")
_DECLINES = {methods.DECLINED: "CARD_DECLINED", methods.INSUFFICIENT_FUNDS: "INSUFFICIENT_FUNDS"}


# --- Outage switch (tests): process-wide, so it holds across threads -----------------------


@dataclass
class _Outage:
    calls_before_start: int  # provider calls still answered normally before the outage begins


_outage_lock = threading.Lock()
_outages: list[_Outage] = []


@contextmanager
def outage(*, after_calls: int = 0) -> Iterator[None]:
    """While active, every provider call (charge, retrieve, refund, listing) raises
    ProviderUnavailable. `after_calls=n` lets the next n calls through first, e.g. a
    pm_card_lost_response charge that captures, loses its answer, and then finds the provider
    gone (the gateway answers UNKNOWN)."""
    entry = _Outage(calls_before_start=after_calls)
    with _outage_lock:
        _outages.append(entry)
    try:
        yield
    finally:
        with _outage_lock:
            _outages.remove(entry)


def _gate() -> None:
    """Called first by every provider operation."""
    with _outage_lock:
        blocked = any(o.calls_before_start <= 0 for o in _outages)
        for o in _outages:
            if o.calls_before_start > 0:
                o.calls_before_start -= 1
    if blocked:
        raise ProviderUnavailable("payment provider answered 503 (outage)")


# --- Helpers -------------------------------------------------------------------------------


def _new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:24]}"


def _money(value: object, *, field: str) -> Decimal:
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise ProviderRejected(f"{field} is not a number", code="INVALID_REQUEST") from None
    if not amount.is_finite() or amount <= 0 or amount != amount.quantize(CENT):
        raise ProviderRejected(
            f"{field} must be positive with at most 2 decimals", code="INVALID_REQUEST"
        )
    return amount.quantize(CENT)


def _to_charge(row: SimulatedCharge) -> Charge:
    return Charge(
        id=row.charge_id,
        idempotency_key=row.idempotency_key,
        amount=Decimal(row.amount),
        currency=row.currency,
        payment_method_id=row.payment_method_id,
        status=row.status,
        failure_code=row.failure_code or None,
        refunded_amount=Decimal(row.refunded_amount),
        metadata=dict(row.metadata or {}),
        card_label=card.label if (card := methods.payment_method(row.payment_method_id)) else "",
        action_url=f"{settings.PUBLIC_ORIGIN}{BANK_PAGE_PATH}{row.charge_id}"
        if row.status == SimulatedChargeStatus.REQUIRES_ACTION
        else "",
    )


def _settled(row: SimulatedCharge) -> SimulatedCharge:
    """A pending charge settles once it is read at or after its settles_at (lazy settlement)."""
    if (
        row.status == SimulatedChargeStatus.PENDING
        and row.settles_at
        and timezone.now() >= row.settles_at
    ):
        SimulatedCharge.objects.using(LEDGER_DB).filter(
            pk=row.pk, status=SimulatedChargeStatus.PENDING
        ).update(status=SimulatedChargeStatus.SUCCEEDED)
        row.refresh_from_db(using=LEDGER_DB)
    return row


def _declined(row: SimulatedCharge) -> CardDeclined:
    return CardDeclined(row.failure_code or "CARD_DECLINED", charge=_to_charge(row))


class SimulatedProvider(SimulatedHostedCheckout):
    """One attempt per call, like a remote API (checkout.payments.provider.PaymentProvider)."""

    _gate = staticmethod(_gate)

    # -- charge ---------------------------------------------------------------------------

    def charge(
        self,
        *,
        amount: Decimal,
        currency: str,
        payment_method_id: str,
        idempotency_key: str,
        metadata: dict,
        charge_id: str = "",
        on_created: Callable[[str], None] | None = None,
    ) -> Charge:
        # charge_id / on_created are not needed: a simulated charge is created and attempted in
        # one step, and the ledger is searched by key exactly.
        _gate()
        amount = _money(amount, field="amount")
        if not idempotency_key:
            raise ProviderRejected("an idempotency key is required", code="INVALID_REQUEST")
        if not isinstance(currency, str) or len(currency) != 3:
            raise ProviderRejected("currency must be a 3-letter code", code="INVALID_REQUEST")
        if methods.payment_method(payment_method_id) is None:
            raise ProviderRejected("no such payment method", code="NO_SUCH_PAYMENT_METHOD")
        if payment_method_id == methods.UNAVAILABLE:
            # Refused at the door: nothing is recorded, the request was not processed.
            raise ProviderUnavailable("payment provider answered 503")
        currency = currency.upper()
        metadata = dict(metadata or {})
        order_id = str(metadata.get("order_id") or "")

        raise_after: Exception | None = None
        with transaction.atomic(using=LEDGER_DB):
            attempt = self._count_request(idempotency_key, payment_method_id)
            existing = (
                SimulatedCharge.objects.using(LEDGER_DB)
                .filter(idempotency_key=idempotency_key)
                .first()
            )
            if existing is not None:
                row = self._replay(existing, amount, currency, payment_method_id, order_id, attempt)
            elif payment_method_id == methods.TIMEOUT_ALWAYS or (
                payment_method_id == methods.TIMEOUT_ONCE and attempt == 1
            ):
                raise_after = ProviderTimeout("payment provider did not answer in time")
                row = None
            else:
                row = self._create(
                    amount=amount,
                    currency=currency,
                    payment_method_id=payment_method_id,
                    idempotency_key=idempotency_key,
                    metadata=metadata,
                    order_id=order_id,
                    attempt=attempt,
                )
                if payment_method_id == methods.LOST_RESPONSE:
                    # Captured and committed, but the answer never reaches the caller.
                    raise_after = ProviderTimeout("payment provider answer was lost")
        # Raised only after the ledger write committed: a lost answer must not undo a capture.
        if raise_after is not None:
            raise raise_after
        if row.status == SimulatedChargeStatus.FAILED:
            raise _declined(row)
        return _to_charge(row)

    def _count_request(self, idempotency_key: str, payment_method_id: str) -> int:
        """Counts this attempt under its key; the row lock serialises attempts for one key."""
        request, _ = SimulatedChargeRequest.objects.using(LEDGER_DB).get_or_create(
            idempotency_key=idempotency_key, defaults={"payment_method_id": payment_method_id}
        )
        SimulatedChargeRequest.objects.using(LEDGER_DB).filter(pk=request.pk).update(
            attempts=F("attempts") + 1, last_seen_at=timezone.now()
        )
        locked = (
            SimulatedChargeRequest.objects.using(LEDGER_DB).select_for_update().get(pk=request.pk)
        )
        return locked.attempts

    def _replay(
        self,
        row: SimulatedCharge,
        amount: Decimal,
        currency: str,
        payment_method_id: str,
        order_id: str,
        attempt: int,
    ) -> SimulatedCharge:
        if (row.amount, row.currency, row.payment_method_id, row.order_id) != (
            amount,
            currency,
            payment_method_id,
            order_id,
        ):
            raise ProviderRejected(
                "idempotency key already used with other parameters", code="IDEMPOTENCY_KEY_REUSED"
            )
        changes: dict = {"attempts": attempt}
        if (
            row.payment_method_id == methods.AUTHENTICATION_REQUIRED
            and row.status == SimulatedChargeStatus.FAILED
            and not row.failure_code
        ):
            # Cancelled while the bank waited (its page lapsed): only the order's next attempt
            # sends this request again, and Stripe makes that attempt a new PaymentIntent, so
            # the bank asks afresh rather than the old cancellation reading as a decline.
            changes.update(charge_id=_new_id("ch"), status=SimulatedChargeStatus.REQUIRES_ACTION)
        SimulatedCharge.objects.using(LEDGER_DB).filter(pk=row.pk).update(**changes)
        row.refresh_from_db(using=LEDGER_DB)
        return _settled(row)

    def _create(
        self,
        *,
        amount: Decimal,
        currency: str,
        payment_method_id: str,
        idempotency_key: str,
        metadata: dict,
        order_id: str,
        attempt: int,
    ) -> SimulatedCharge:
        status, failure_code, settles_at = SimulatedChargeStatus.SUCCEEDED, "", None
        if payment_method_id in _DECLINES:
            status, failure_code = SimulatedChargeStatus.FAILED, _DECLINES[payment_method_id]
        elif payment_method_id == methods.AUTHENTICATION_REQUIRED:
            status = SimulatedChargeStatus.REQUIRES_ACTION  # settled on the bank's page
        elif payment_method_id == methods.PENDING:
            status = SimulatedChargeStatus.PENDING
            delay = float(getattr(settings, "SIMULATOR_PENDING_SETTLE_SECONDS", 0))
            settles_at = timezone.now() + timedelta(seconds=delay)
        return SimulatedCharge.objects.using(LEDGER_DB).create(
            charge_id=_new_id("ch"),
            idempotency_key=idempotency_key,
            amount=amount,
            currency=currency,
            payment_method_id=payment_method_id,
            status=status,
            failure_code=failure_code,
            metadata=metadata,
            order_id=order_id,
            attempts=attempt,
            settles_at=settles_at,
        )

    # -- reads ----------------------------------------------------------------------------

    def retrieve_by_idempotency_key(
        self, *, idempotency_key: str, charge_id: str = "", since: datetime | None = None
    ) -> Charge | None:
        _gate()
        ledger = SimulatedCharge.objects.using(LEDGER_DB)
        # By id first: a charge made on the payment page has a key of its own (one per try).
        row = ledger.filter(charge_id=charge_id).first() if charge_id else None
        row = row or ledger.filter(idempotency_key=idempotency_key).first()
        return None if row is None else _to_charge(_settled(row))

    def retrieve_charge(self, *, charge_id: str) -> Charge:
        _gate()
        row = SimulatedCharge.objects.using(LEDGER_DB).filter(charge_id=charge_id).first()
        if row is None:
            raise ProviderRejected("no such charge", code="NO_SUCH_CHARGE")
        return _to_charge(_settled(row))

    def charges_for_order(self, *, order_id: str) -> list[Charge]:
        _gate()
        rows = SimulatedCharge.objects.using(LEDGER_DB).filter(order_id=str(order_id))
        return [_to_charge(_settled(row)) for row in rows]

    def list_charges(self) -> list[Charge]:
        """Every charge in the ledger (like Stripe's charges.list); used to find orphan charges."""
        _gate()
        return [_to_charge(_settled(row)) for row in SimulatedCharge.objects.using(LEDGER_DB).all()]

    # -- refund ---------------------------------------------------------------------------

    def refund(self, *, charge_id: str, amount: Decimal, idempotency_key: str) -> Refund:
        _gate()
        amount = _money(amount, field="amount")
        if not idempotency_key:
            raise ProviderRejected("an idempotency key is required", code="INVALID_REQUEST")
        try:
            with transaction.atomic(using=LEDGER_DB):
                return self._refund_locked(charge_id, amount, idempotency_key)
        except IntegrityError:
            # The same refund key was used at the same moment elsewhere: answer like a replay.
            existing = (
                SimulatedRefund.objects.using(LEDGER_DB)
                .filter(idempotency_key=idempotency_key)
                .first()
            )
            if existing is None:
                raise
            return self._refund_replay(existing, charge_id, amount)

    def _refund_locked(self, charge_id: str, amount: Decimal, idempotency_key: str) -> Refund:
        # Lock the charge first so concurrent refunds of one charge run one after the other.
        charge = (
            SimulatedCharge.objects.using(LEDGER_DB)
            .select_for_update()
            .filter(charge_id=charge_id)
            .first()
        )
        if charge is None:
            raise ProviderRejected("no such charge", code="NO_SUCH_CHARGE")
        existing = (
            SimulatedRefund.objects.using(LEDGER_DB).filter(idempotency_key=idempotency_key).first()
        )
        if existing is not None:
            return self._refund_replay(existing, charge_id, amount)
        charge = _settled(charge)
        if charge.status != SimulatedChargeStatus.SUCCEEDED:
            raise ProviderRejected(
                f"cannot refund a {charge.status} charge", code="CHARGE_NOT_CAPTURED"
            )
        if charge.refunded_amount + amount > charge.amount:
            raise ProviderRejected(
                "refund exceeds the captured amount", code="REFUND_EXCEEDS_CAPTURE"
            )
        row = SimulatedRefund.objects.using(LEDGER_DB).create(
            refund_id=_new_id("re"), charge=charge, amount=amount, idempotency_key=idempotency_key
        )
        SimulatedCharge.objects.using(LEDGER_DB).filter(pk=charge.pk).update(
            refunded_amount=F("refunded_amount") + amount
        )
        return Refund(
            id=row.refund_id,
            charge_id=charge.charge_id,
            amount=amount,
            idempotency_key=idempotency_key,
        )

    @staticmethod
    def _refund_replay(existing: SimulatedRefund, charge_id: str, amount: Decimal) -> Refund:
        if existing.charge_id != charge_id or existing.amount != amount:
            raise ProviderRejected(
                "idempotency key already used with other parameters", code="IDEMPOTENCY_KEY_REUSED"
            )
        return Refund(
            id=existing.refund_id,
            charge_id=existing.charge_id,
            amount=Decimal(existing.amount),
            idempotency_key=existing.idempotency_key,
        )
