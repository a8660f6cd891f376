"""Stripe as the payment provider (PaymentProvider), on the official SDK and PaymentIntents.

One PaymentIntent per order charge. The saga's provider key is per order
(checkout.saga.charge.provider_key), so every attempt at charging an order (gateway retries and
later saga runs alike) finds the SAME PaymentIntent and confirms it only while it is still
unconfirmed. A PaymentIntent succeeds at most once, so a late capture beside a second one cannot
happen: there is no second.

A charge is: find the order's PaymentIntent (see `retrieve_by_idempotency_key`), create it
unconfirmed if there is none (idempotency key "<key>-create"), confirm it if it still needs it
(idempotency key "<key>-confirm-<saga attempt>"), and report its state.

"Not charged" is only ever concluded from a fact. An intent still reading requires_confirmation
after a confirm was sent proves nothing: the confirm may be in flight or still being processed,
and capture after we answered. So a lookup that finds an unconfirmed intent CANCELS it first: a
cancel Stripe accepts proves the intent can never capture (a late confirm is then refused), and
a cancel refused because the intent moved on is answered by what it now is. A rerun of the order
that finds its intent cancelled makes a fresh one ("<key>-create-<saga attempt>").

`Charge.id` is the PaymentIntent id ("pi_..."), which the saga stores as
Payment.provider_charge_id; the intent's metadata carries order_id, workflow_id, correlation_id
and our key.

Each call is exactly one attempt (the SDK's own retries are off): retrying is the gateway's job.
Stripe's errors become the provider errors the gateway knows:

- card_error (402) → CardDeclined, "INSUFFICIENT_FUNDS" for that decline code, else "CARD_DECLINED";
- 429 (rate limit) and 409 (a concurrent request on the object) → ProviderUnavailable: Stripe
  did not process the request;
- 5xx → ProviderOutcomeUnknown (a time-out, for the gateway): Stripe may have processed it before
  failing, so the outcome is looked up rather than taken as "not charged";
- connection errors and time-outs → ProviderTimeout (unknown outcome, reconciled by lookup);
- any other 4xx → ProviderRejected.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, TypeVar

import stripe
from django.conf import settings

from checkout.payments.provider import (
    CardDeclined,
    Charge,
    ChargeStatus,
    ProviderError,
    ProviderOutcomeUnknown,
    ProviderRejected,
    ProviderTimeout,
    ProviderUnavailable,
    Refund,
)

T = TypeVar("T")

# Metadata fields of our own on PaymentIntents and Refunds (besides the caller's metadata).
KEY_FIELD = "giftgenius_key"  # the provider idempotency key the object was made under
METHOD_FIELD = "giftgenius_method"  # the saved card charged (a PaymentMethod id)
SHARED_PAYMENT_TOKEN_PREFIX = "spt_"  # noqa: S105 (an agent's Shared Payment Token: a prefix, no secret)
_DECLINES = {"insufficient_funds": "INSUFFICIENT_FUNDS"}  # every other decline: CARD_DECLINED

# Currencies Stripe counts in whole units (no cents).
ZERO_DECIMAL = frozenset(
    {"bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga"}
    | {"pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"}
)

_PENDING_STATES = {"processing", "requires_capture"}
_UNCONFIRMED_STATES = {"requires_confirmation"}


# --- the SDK client -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _client(api_key: str, api_base: str, timeout: float) -> stripe.StripeClient:
    # Cached: the HTTP client keeps one connection pool per thread. No SDK retries: the gateway
    # is the one retry layer.
    return stripe.StripeClient(
        api_key,
        base_addresses={"api": api_base},
        max_network_retries=0,
        http_client=stripe.RequestsClient(timeout=timeout),
    )


def client() -> stripe.StripeClient:
    """The configured client (settings read per call, so tests can point it elsewhere)."""
    return _client(
        settings.STRIPE_API_KEY,
        settings.STRIPE_API_BASE,
        float(settings.STRIPE_TIMEOUT_SECONDS),
    )


def _translated(call: Callable[[], T]) -> T:
    """Run one SDK call; Stripe's errors become provider errors (see the module docstring)."""
    try:
        return call()
    except stripe.StripeError as exc:
        raise provider_error(exc) from exc


def provider_error(exc: stripe.StripeError) -> ProviderError:
    if isinstance(exc, stripe.CardError):
        return CardDeclined(_decline(_error_field(exc, "decline_code")), str(exc))
    if isinstance(exc, stripe.RateLimitError):
        return ProviderUnavailable(f"Stripe answered 429: {exc}")
    if isinstance(exc, stripe.APIConnectionError):
        return ProviderTimeout(f"Stripe did not answer: {exc}")
    if isinstance(exc, stripe.IdempotencyError):
        return ProviderRejected(str(exc), code="IDEMPOTENCY_KEY_REUSED")
    if isinstance(exc, stripe.InvalidRequestError):
        missing = exc.http_status == 404 or exc.code == "resource_missing"
        return ProviderRejected(str(exc), code="NO_SUCH_CHARGE" if missing else "INVALID_REQUEST")
    if isinstance(exc, stripe.APIError):
        if exc.http_status == 409:
            return ProviderUnavailable(f"Stripe answered 409: {exc}")
        if exc.http_status is None or exc.http_status >= 500:
            return ProviderOutcomeUnknown(f"Stripe answered {exc.http_status}: {exc}")
    # Authentication, permission, other 4xx: configuration or request problems.
    return ProviderRejected(str(exc))


def _error_field(exc: stripe.StripeError, name: str) -> str | None:
    body = exc.json_body if isinstance(exc.json_body, dict) else {}
    error = body.get("error") or {}
    return error.get(name) if isinstance(error, dict) else None


def _decline(decline_code: str | None) -> str:
    return _DECLINES.get(decline_code or "", "CARD_DECLINED")


# --- money ------------------------------------------------------------------------------------------


def to_minor(amount: Decimal, currency: str) -> int:
    """Our decimal amount in Stripe's integer minor units (cents, or units for JPY and co.)."""
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        raise ProviderRejected("amount is not a number", code="INVALID_REQUEST") from None
    exponent = 0 if currency.lower() in ZERO_DECIMAL else 2
    minor = value.scaleb(exponent)
    if not minor.is_finite() or minor <= 0 or minor != minor.to_integral_value():
        raise ProviderRejected(
            f"amount must be positive with at most {exponent} decimals", code="INVALID_REQUEST"
        )
    return int(minor)


def from_minor(minor: int, currency: str) -> Decimal:
    exponent = 0 if currency.lower() in ZERO_DECIMAL else 2
    quantum = Decimal(1) if exponent == 0 else Decimal("0.01")
    return (Decimal(int(minor or 0)).scaleb(-exponent)).quantize(quantum, ROUND_HALF_UP)


# --- PaymentIntent → Charge ---------------------------------------------------------------------------


def _plain(obj: Any) -> Any:
    """An SDK object as a plain dict (a webhook event's data.object already is one)."""
    to_dict = getattr(obj, "to_dict", None)
    return to_dict() if callable(to_dict) else obj


def _get(obj: Any, name: str, default: Any = None) -> Any:
    obj = _plain(obj)
    return obj.get(name, default) if isinstance(obj, dict) else default


def _metadata(intent: Any) -> dict:
    raw = _get(intent, "metadata") or {}
    return {str(k): str(v) for k, v in raw.items()}


def charge_status(intent: Any) -> str | None:
    """Our ChargeStatus for a PaymentIntent's status, or None while it was never confirmed
    (nothing was attempted, so nothing can be captured under it yet)."""
    status = _get(intent, "status")
    if status == "succeeded":
        return ChargeStatus.SUCCEEDED
    if status in _PENDING_STATES:
        return ChargeStatus.PENDING
    if status in _UNCONFIRMED_STATES:
        return None
    if status == "requires_payment_method" and not _get(intent, "last_payment_error"):
        return None
    # requires_payment_method after a decline, requires_action (we cannot authenticate a person
    # from the server), canceled: nothing captured, nothing coming.
    return ChargeStatus.FAILED


def charge_from_intent(intent: Any) -> Charge:
    """The Charge a PaymentIntent stands for (an SDK object, or the dict of a webhook event's
    `data.object`). A never-confirmed intent reads as failed with no failure code: nothing was
    captured and nothing is pending. `refunded_amount` comes from the intent's latest charge
    when it is expanded (an id only: 0, so fetch it with `StripeProvider.retrieve_charge`)."""
    currency = str(_get(intent, "currency") or "")
    status = charge_status(intent) or ChargeStatus.FAILED
    error = _get(intent, "last_payment_error")
    failure = (
        _decline(_get(error, "decline_code")) if status == ChargeStatus.FAILED and error else None
    )
    latest = _get(intent, "latest_charge")
    refunded = (
        0 if latest is None or isinstance(latest, str) else _get(latest, "amount_refunded", 0)
    )
    meta = _metadata(intent)
    return Charge(
        id=str(_get(intent, "id")),
        idempotency_key=meta.get(KEY_FIELD, ""),
        amount=from_minor(_get(intent, "amount", 0), currency),
        currency=currency.upper(),
        payment_method_id=meta.get(METHOD_FIELD, ""),
        status=status,
        failure_code=failure,
        refunded_amount=from_minor(refunded, currency),
        metadata=meta,
    )


# --- the provider ------------------------------------------------------------------------------------


_EXPAND = ["latest_charge"]
_RANK = {"succeeded": 0, "processing": 1, "requires_capture": 1}  # which intent answers for a key


class StripeProvider:
    """One attempt per call, like every provider (checkout.payments.provider.PaymentProvider)."""

    # A person pays with the cards saved to their own Customer (checkout.payments.methods).
    keeps_saved_cards = True

    def __init__(self) -> None:
        self.stripe = client()

    # -- charge -------------------------------------------------------------------------------

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
        if not idempotency_key:
            raise ProviderRejected("an idempotency key is required", code="INVALID_REQUEST")
        if not isinstance(currency, str) or len(currency) != 3:
            raise ProviderRejected("currency must be a 3-letter code", code="INVALID_REQUEST")
        minor = to_minor(amount, currency)
        meta = {str(k): str(v) for k, v in (metadata or {}).items() if v is not None}
        attempt = meta.pop("attempt", "1")

        # By id when the caller recorded it: listing only reaches back STRIPE_LOOKUP_WINDOW_SECONDS.
        existing = self._retrieve(charge_id) if charge_id else self._find_intent(idempotency_key)
        intent = existing
        if existing is None or existing.status == "canceled":
            # A cancelled intent (see _void_unconfirmed) proved "not charged"; this run needs a
            # new one, under a create key of its own (the first one replays the cancelled intent).
            create_key = f"{idempotency_key}-create" + ("" if existing is None else f"-{attempt}")
            intent = _translated(
                lambda: self.stripe.v1.payment_intents.create(
                    params={
                        "amount": minor,
                        "currency": currency.lower(),
                        **self._paid_with(payment_method_id),
                        "allowed_payment_method_types": ["card"],
                        "metadata": {
                            **meta,
                            KEY_FIELD: idempotency_key,
                            METHOD_FIELD: payment_method_id,
                        },
                    },
                    options={"idempotency_key": create_key},
                )
            )
        elif (intent.amount, intent.currency, _metadata(intent).get(METHOD_FIELD)) != (
            minor,
            currency.lower(),
            payment_method_id,
        ):
            raise ProviderRejected(
                "idempotency key already used with other parameters", code="IDEMPOTENCY_KEY_REUSED"
            )
        if intent.status in _UNCONFIRMED_STATES:
            if on_created is not None and intent.id != charge_id:
                # The caller records the id before the confirm can move money, so every later
                # question about this charge goes to this very intent (no window, no guess).
                on_created(str(intent.id))
            intent = self._confirm(intent.id, key=f"{idempotency_key}-confirm-{attempt}")
        found = charge_from_intent(intent)
        if found.status == ChargeStatus.FAILED:
            raise CardDeclined(found.failure_code or "CARD_DECLINED", charge=found)
        return found

    def _paid_with(self, payment_method_id: str) -> dict[str, Any]:
        """A saved card is charged with its Customer; an agent's Shared Payment Token (spt_)
        through `payment_method_data`, where Stripe checks the grant's currency, amount limit
        and expiry, and declines a token already used up."""
        if payment_method_id.startswith(SHARED_PAYMENT_TOKEN_PREFIX):
            return {"payment_method_data": {"shared_payment_granted_token": payment_method_id}}
        return {
            "payment_method": payment_method_id,
            "customer": self._card_owner(payment_method_id),
        }

    def _card_owner(self, payment_method_id: str) -> str:
        """The Customer a saved card is attached to: its PaymentIntent names it, as Stripe
        requires for a saved card. A card attached to no Customer (detached since the order
        was prepared) is refused, never charged."""
        method = _translated(lambda: self.stripe.v1.payment_methods.retrieve(payment_method_id))
        customer = method.customer
        if not customer:
            raise ProviderRejected(
                f"payment method {payment_method_id!r} is not saved to a customer",
                code="NO_SUCH_PAYMENT_METHOD",
            )
        return customer if isinstance(customer, str) else str(customer.id)

    def _confirm(self, intent_id: str, *, key: str) -> Any:
        """Confirm once. A decline or "unexpected state" (someone confirmed it meanwhile) is
        answered by what the intent now says."""
        try:
            return self.stripe.v1.payment_intents.confirm(
                intent_id, params={"expand": _EXPAND}, options={"idempotency_key": key}
            )
        except (stripe.CardError, stripe.InvalidRequestError) as exc:
            intent = self._retrieve(intent_id)
            if isinstance(exc, stripe.CardError) or charge_status(intent) is not None:
                return intent
            raise provider_error(exc) from exc
        except stripe.StripeError as exc:
            raise provider_error(exc) from exc

    def _void_unconfirmed(self, intent: Any, *, idempotency_key: str) -> Any:
        """Cancel an intent that still reads unconfirmed, so that it can never capture.

        A confirm sent earlier may still reach Stripe (or be mid-way through it): its status
        says nothing until the intent is cancelled. Stripe refuses a cancel once the intent moved
        on (the confirm landed), and the intent then answers with what it is now."""
        try:
            return self.stripe.v1.payment_intents.cancel(
                intent.id,
                params={"expand": _EXPAND},
                options={"idempotency_key": f"{idempotency_key}-cancel-{intent.id}"},
            )
        except stripe.InvalidRequestError as exc:
            current = self._retrieve(intent.id)
            if current.status in _UNCONFIRMED_STATES:
                raise provider_error(exc) from exc  # refused for another reason: cannot tell
            return current
        except stripe.StripeError as exc:
            raise provider_error(exc) from exc

    # -- reads --------------------------------------------------------------------------------

    def _retrieve(self, intent_id: str) -> Any:
        return _translated(
            lambda: self.stripe.v1.payment_intents.retrieve(intent_id, params={"expand": _EXPAND})
        )

    def _intents(self, *, since: float | None = None) -> Iterable[Any]:
        """Our PaymentIntents, newest first (Stripe's list order), back to `since` (epoch s)."""
        page = _translated(
            lambda: self.stripe.v1.payment_intents.list(
                params={"limit": 100, "expand": ["data.latest_charge"]}
            )
        )
        iterator = iter(page.auto_paging_iter())
        while True:
            try:
                intent = _translated(lambda: next(iterator))
            except StopIteration:
                return
            if since is not None and (intent.created or 0) < since:
                return
            if KEY_FIELD in _metadata(intent):
                yield intent

    def _find_intent(self, idempotency_key: str, *, since: datetime | None = None) -> Any | None:
        start = time.time() - float(settings.STRIPE_LOOKUP_WINDOW_SECONDS)
        if since is not None:
            # Back to when the key was first used (a minute's slack for clock skew), however
            # long ago: "not found" must mean "never made", not "older than the window".
            start = min(start, since.timestamp() - 60)
        matches = [
            intent
            for intent in self._intents(since=start)
            if _metadata(intent).get(KEY_FIELD) == idempotency_key
        ]
        # Normally one. Should an unconfirmed twin exist (a create whose answer was lost), the
        # one that holds money answers for the key.
        matches.sort(key=lambda intent: (_RANK.get(intent.status, 2), -(intent.created or 0)))
        return matches[0] if matches else None

    def retrieve_by_idempotency_key(
        self, *, idempotency_key: str, charge_id: str = "", since: datetime | None = None
    ) -> Charge | None:
        """What became of the charge made under our provider key; None when nothing can ever be
        captured under it: no PaymentIntent, or one cancelled before it was confirmed (an
        unconfirmed one is cancelled here first, see the module docstring). Callers ask only
        when no charge of the order is running (after a charge's retries, or for an order that
        is not processing), so the cancel never cuts a live attempt short.

        Stripe has no lookup by idempotency key, so the key is also written into the intent's
        metadata and found again by listing the account's PaymentIntents, newest first, back to
        STRIPE_LOOKUP_WINDOW_SECONDS (48 h, past Stripe's 24 h key lifetime and any order's
        hold; or back to `since`, when the key was first used, if that is earlier). Callers pass
        `charge_id` once it is recorded (it is, before any confirm), so listing is only needed
        for an intent whose create answer never arrived. Listing is strongly consistent; the
        Search API is not (it lags up to a minute, so "not found" right after a time-out would
        mean nothing) and localstripe lacks it. The
        cost is one listing of the window's intents per lookup, fine for a small shop; a large
        one would keep the intent id locally or list per Stripe Customer instead.
        """
        if charge_id:
            intent = self._retrieve(charge_id)
        else:
            intent = self._find_intent(idempotency_key, since=since)
        if intent is not None and intent.status in _UNCONFIRMED_STATES:
            intent = self._void_unconfirmed(intent, idempotency_key=idempotency_key)
        if intent is None or intent.status == "canceled" or charge_status(intent) is None:
            return None
        return charge_from_intent(intent)

    def retrieve_charge(self, *, charge_id: str) -> Charge:
        """The current state of a PaymentIntent ("pi_..."), its refunds included (a never
        confirmed one reads as failed with no failure code: see charge_from_intent)."""
        return charge_from_intent(self._retrieve(charge_id))

    def charges_for_order(self, *, order_id: str) -> list[Charge]:
        return [c for c in self.list_charges() if c.order_id == str(order_id)]

    def list_charges(self) -> list[Charge]:
        """Every PaymentIntent this app made (those carrying our key), for the ledger check."""
        return [charge_from_intent(intent) for intent in self._intents()]

    # -- refund -------------------------------------------------------------------------------

    def refund(self, *, charge_id: str, amount: Decimal, idempotency_key: str) -> Refund:
        """Refund part or all of a captured PaymentIntent, once per refund key: a refund made
        under the key before (found in the intent's refunds) is answered again, so a retry after
        a lost answer never refunds twice, even past Stripe's 24 h key lifetime."""
        if not idempotency_key:
            raise ProviderRejected("an idempotency key is required", code="INVALID_REQUEST")
        intent = self._retrieve(charge_id)
        currency = str(intent.currency)
        minor = to_minor(amount, currency)
        for existing in self._refunds(charge_id):
            if _metadata(existing).get(KEY_FIELD) == idempotency_key:
                if existing.amount != minor:
                    raise ProviderRejected(
                        "idempotency key already used with other parameters",
                        code="IDEMPOTENCY_KEY_REUSED",
                    )
                return _to_refund(existing, charge_id, idempotency_key)
        if intent.status != "succeeded":
            raise ProviderRejected(
                f"cannot refund a {intent.status} payment", code="CHARGE_NOT_CAPTURED"
            )
        latest = intent.latest_charge
        refunded = 0 if latest is None or isinstance(latest, str) else latest.amount_refunded
        if (refunded or 0) + minor > intent.amount:
            raise ProviderRejected(
                "refund exceeds the captured amount", code="REFUND_EXCEEDS_CAPTURE"
            )
        made = _translated(
            lambda: self.stripe.v1.refunds.create(
                params={
                    "payment_intent": charge_id,
                    "amount": minor,
                    "metadata": {
                        KEY_FIELD: idempotency_key,
                        "order_id": _metadata(intent).get("order_id", ""),
                    },
                },
                options={"idempotency_key": idempotency_key},
            )
        )
        return _to_refund(made, charge_id, idempotency_key)

    def _refunds(self, intent_id: str) -> list[Any]:
        page = _translated(
            lambda: self.stripe.v1.refunds.list(params={"payment_intent": intent_id, "limit": 100})
        )
        return list(_translated(lambda: list(page.auto_paging_iter())))


def _to_refund(refund: Any, charge_id: str, idempotency_key: str) -> Refund:
    return Refund(
        id=str(refund.id),
        charge_id=charge_id,
        amount=from_minor(refund.amount, str(refund.currency)),
        idempotency_key=idempotency_key,
    )
