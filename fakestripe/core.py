"""The first patches: an in-memory store, lists newest first, Stripe's decline and 3-D Secure
test cards, card errors shaped like Stripe's, and the `Idempotency-Key` header honoured."""

from __future__ import annotations

import asyncio
import hashlib

from localstripe import resources
from localstripe.errors import UserError

# Card numbers Stripe declines when charged, with the decline code Stripe reports.
DECLINE_CODES = {
    "4000000000000002": "generic_decline",
    "4000000000009995": "insufficient_funds",
    "4000000000000341": "generic_decline",  # attaches to a Customer; every charge is declined
    "4000008260003178": "insufficient_funds",  # after 3-D Secure
}
# Stripe's documented test PaymentMethods that localstripe 1.15.10 lacks (docs.stripe.com/testing).
TEST_METHODS = {
    "pm_card_chargeDeclined": "4000000000000002",
    "pm_card_chargeDeclinedInsufficientFunds": "4000000000009995",
    "pm_card_chargeCustomerFail": "4000000000000341",
    "pm_card_authenticationRequired": "4000002760003184",
    "pm_card_authenticationRequiredOnSetup": "4000002500003155",
    "pm_card_authenticationRequiredSetupForOffSession": "4000003800000446",
    "pm_card_authenticationRequiredChargeDeclinedInsufficientFunds": "4000008260003178",
}


def card_error(status: int, message: str, **fields) -> UserError:
    """A Stripe `card_error` (localstripe types every error invalid_request_error)."""
    error = UserError(status, message, {k: v for k, v in fields.items() if v is not None})
    error.body["error"]["type"] = "card_error"
    return error


def patch() -> None:
    PaymentMethod, Charge, PaymentIntent = (
        resources.PaymentMethod,
        resources.Charge,
        resources.PaymentIntent,
    )
    # One store per process, in memory: the stock one pickles itself to one /tmp file shared by
    # every localstripe on the machine.
    resources.Store.dump_to_disk = lambda self: None
    resources.Store.try_load_from_disk = lambda self: None

    list_all = resources.StripeObject._api_list_all.__func__

    def newest_first(cls, url, limit=None, starting_after=None, **kwargs):
        # Stripe lists newest first; localstripe lists in the order objects were made.
        page = list_all(cls, url, limit=limit, starting_after=starting_after, **kwargs)
        page._list.reverse()
        return page

    resources.StripeObject._api_list_all = classmethod(newest_first)

    canonical = PaymentMethod._try_get_canonical_test_article.__func__

    def test_article(cls, id):
        number = TEST_METHODS.get(id)
        if number is None:
            return canonical(cls, id)
        card = {"number": number, "exp_month": "12", "exp_year": "2030", "cvc": "123"}
        return PaymentMethod(type="card", card=card)

    PaymentMethod._try_get_canonical_test_article = classmethod(test_article)

    charging_is_declined = PaymentMethod._charging_is_declined

    def declined(self):
        return charging_is_declined(self) or (
            self.type == "card" and self._card_number in DECLINE_CODES
        )

    PaymentMethod._charging_is_declined = declined

    set_auth_failure = Charge._set_auth_failure

    def auth_failure(self):
        set_auth_failure(self)
        method = PaymentMethod._api_retrieve(self.payment_method)
        self._decline_code = DECLINE_CODES.get(
            getattr(method, "_card_number", ""), "generic_decline"
        )

    Charge._set_auth_failure = auth_failure

    def raise_failure(self):
        raise card_error(
            402,
            self.failure_message,
            code=self.failure_code,
            charge=self.id,
            decline_code=getattr(self, "_decline_code", None),
        )

    Charge._raise_failure = raise_failure

    initialize_charge = Charge._initialize_charge

    def initialize(self, on_success=None, on_failure_now=None, on_failure_later=None):
        # A debit that settles later stays pending (its intent `processing`) until it settles;
        # localstripe marks it succeeded at once and only calls back later.
        if self._authorized and self._is_async_payment_method():
            if self.captured:
                self._trigger_payment(on_success)
            return
        initialize_charge(self, on_success, on_failure_now, on_failure_later)

    Charge._initialize_charge = initialize

    last_payment_error = PaymentIntent.last_payment_error.fget

    def payment_error(self):
        if getattr(self, "_payment_error", None):
            return self._payment_error
        error = last_payment_error(self)
        code = getattr(self.latest_charge, "_decline_code", None)
        if error and code:
            error = {**error, "decline_code": code, "type": "card_error"}
        return error

    PaymentIntent.last_payment_error = property(payment_error)


def idempotency_middleware():
    """POSTs honour `Idempotency-Key` as Stripe does: the first answer under a key is kept and
    replayed (with `Idempotent-Replayed: true`); the same key with another path or body is a 400
    idempotency_error. One difference: a request whose key is still being processed waits for
    that answer, where Stripe answers 409."""
    from aiohttp import web

    answers: dict[str, tuple[str, int, bytes, str]] = {}  # key → (fingerprint, status, body, type)
    locks: dict[str, asyncio.Lock] = {}

    @web.middleware
    async def idempotency(request, handler):
        if request.method == "DELETE" and request.path == "/_config/data":
            answers.clear()  # the store is flushed: what the keys answered is gone with it
        key = request.headers.get("Idempotency-Key")
        if request.method != "POST" or not key:
            return await handler(request)
        fingerprint = hashlib.sha256(request.path.encode() + b"\0" + await request.read())
        fingerprint = fingerprint.hexdigest()
        async with locks.setdefault(key, asyncio.Lock()):
            if key not in answers:
                response = await handler(request)
                answers[key] = (fingerprint, response.status, response.body, response.content_type)
                return response
        kept, status, body, content_type = answers[key]
        if kept != fingerprint:
            error = {
                "type": "idempotency_error",
                "message": f"Keys for idempotent requests can only be used with the same "
                f"parameters they were first used with ({key}).",
            }
            return web.json_response({"error": error}, status=400)
        return web.Response(
            body=body,
            status=status,
            content_type=content_type,
            headers={"Idempotent-Replayed": "true"},
        )

    return idempotency
