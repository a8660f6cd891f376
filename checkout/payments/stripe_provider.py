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

import time
from collections.abc import Callable, Iterable
from datetime import datetime
from decimal import Decimal
from typing import Any

import stripe
from django.conf import settings

from checkout.payments.provider import (
    CardDeclined,
    Charge,
    ChargeStatus,
    ProviderRejected,
    Refund,
)
from checkout.payments.stripe_checkout import StripeHostedCheckout
from checkout.payments.stripe_objects import (
    KEY_FIELD,
    METHOD_FIELD,
    UNCONFIRMED_STATES,
    charge_from_intent,
    charge_status,
    client,
    from_minor,
    metadata_of,
    provider_error,
    to_minor,
    translated,
)

SHARED_PAYMENT_TOKEN_PREFIX = "spt_"  # noqa: S105 (an agent's Shared Payment Token: a prefix, no secret)

# --- the provider ------------------------------------------------------------------------------------


_EXPAND = ["latest_charge", "payment_method"]
_RANK = {"succeeded": 0, "processing": 1, "requires_capture": 1}  # which intent answers for a key


class StripeProvider(StripeHostedCheckout):
    """One attempt per call, like every provider (checkout.payments.provider.PaymentProvider)."""

    # A person pays with the cards saved to their own Customer (checkout.payments.methods).
    keeps_saved_cards = True

    def __init__(self) -> None:
        self.stripe = client()

    def dashboard_url(self, *, object_id: str) -> str:
        """Where staff see a Checkout Session ("cs_...") or PaymentIntent ("pi_...") in
        Stripe's dashboard (its test-mode half for a test key)."""
        mode = "/test" if settings.STRIPE_API_KEY.startswith(("sk_test_", "rk_test_")) else ""
        kind = "checkout/sessions" if object_id.startswith("cs_") else "payments"
        return f"https://dashboard.stripe.com{mode}/{kind}/{object_id}"

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
            paid_with = self._paid_with(payment_method_id)
            intent = translated(
                lambda: self.stripe.v1.payment_intents.create(
                    params={
                        "amount": minor,
                        "currency": currency.lower(),
                        **paid_with,
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
        elif (intent.amount, intent.currency, metadata_of(intent).get(METHOD_FIELD)) != (
            minor,
            currency.lower(),
            payment_method_id,
        ):
            raise ProviderRejected(
                "idempotency key already used with other parameters", code="IDEMPOTENCY_KEY_REUSED"
            )
        if intent.status in UNCONFIRMED_STATES:
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
        method = translated(lambda: self.stripe.v1.payment_methods.retrieve(payment_method_id))
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
                intent_id,
                # On session: a card whose bank asks for 3-D Secure is authenticated on the
                # redirect, and the person comes back to our page (checkout.hosted_pages).
                params={"expand": _EXPAND, "return_url": f"{settings.PUBLIC_ORIGIN}/checkout/paid"},
                options={"idempotency_key": key},
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
            if current.status in UNCONFIRMED_STATES:
                raise provider_error(exc) from exc  # refused for another reason: cannot tell
            return current
        except stripe.StripeError as exc:
            raise provider_error(exc) from exc

    # -- reads --------------------------------------------------------------------------------

    def _retrieve(self, intent_id: str) -> Any:
        return translated(
            lambda: self.stripe.v1.payment_intents.retrieve(intent_id, params={"expand": _EXPAND})
        )

    def _intents(self, *, since: float | None = None) -> Iterable[Any]:
        """Our PaymentIntents, newest first (Stripe's list order), back to `since` (epoch s)."""
        page = translated(
            lambda: self.stripe.v1.payment_intents.list(
                params={"limit": 100, "expand": ["data.latest_charge", "data.payment_method"]}
            )
        )
        iterator = iter(page.auto_paging_iter())
        while True:
            try:
                intent = translated(lambda: next(iterator))
            except StopIteration:
                return
            if since is not None and (intent.created or 0) < since:
                return
            if KEY_FIELD in metadata_of(intent):
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
            if metadata_of(intent).get(KEY_FIELD) == idempotency_key
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
        if intent is not None and intent.status in UNCONFIRMED_STATES:
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
            if metadata_of(existing).get(KEY_FIELD) == idempotency_key:
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
        made = translated(
            lambda: self.stripe.v1.refunds.create(
                params={
                    "payment_intent": charge_id,
                    "amount": minor,
                    "metadata": {
                        KEY_FIELD: idempotency_key,
                        "order_id": metadata_of(intent).get("order_id", ""),
                    },
                },
                options={"idempotency_key": idempotency_key},
            )
        )
        return _to_refund(made, charge_id, idempotency_key)

    def _refunds(self, intent_id: str) -> list[Any]:
        page = translated(
            lambda: self.stripe.v1.refunds.list(params={"payment_intent": intent_id, "limit": 100})
        )
        return list(translated(lambda: list(page.auto_paging_iter())))


def _to_refund(refund: Any, charge_id: str, idempotency_key: str) -> Refund:
    return Refund(
        id=str(refund.id),
        charge_id=charge_id,
        amount=from_minor(refund.amount, str(refund.currency)),
        idempotency_key=idempotency_key,
    )
