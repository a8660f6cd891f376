"""What the checkout saga calls to move money. The ONE layer that retries provider calls.

Transient failures (ProviderTimeout, ProviderUnavailable) are retried with stamina: bounded
attempts inside a total deadline, exponential backoff with jitter, always with the same provider
idempotency key, so a retry after a lost answer can never capture twice. Declines and rejections
are never retried.

An exhausted charge is classified, never guessed:
- only refusals (ProviderUnavailable: the simulator's 503, Stripe's 429 or 409) →
  NOT_CHARGED_UNAVAILABLE (the provider did not process the request); a real API's 5xx is a
  ProviderOutcomeUnknown, which may have been processed and is handled as a time-out;
- any time-out → ask the provider by idempotency key (itself retried): succeeded/pending/failed
  as found, nothing found → NOT_CHARGED_TIMEOUT, provider unreachable → UNKNOWN (the order must
  wait for reconciliation).

No database transaction is opened here: the caller guarantees none is open around provider calls
(the simulator writes only its own ledger connection).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import TypeVar

import stamina
import structlog
from django.conf import settings

from checkout.payments.provider import (
    CardDeclined,
    Charge,
    ChargeStatus,
    HostedCheckout,
    ProviderRejected,
    ProviderTimeout,
    ProviderUnavailable,
    Refund,
    get_provider,
)
from tool_runtime import upstream

T = TypeVar("T")
TRANSIENT = (ProviderTimeout, ProviderUnavailable)


class ChargeResult(StrEnum):
    SUCCEEDED = "succeeded"
    PENDING = "pending"
    DECLINED = "declined"
    NOT_CHARGED_TIMEOUT = "not_charged_timeout"
    NOT_CHARGED_UNAVAILABLE = "not_charged_unavailable"
    REJECTED = "rejected"  # the provider refused the request itself (4xx): not charged
    UNKNOWN = "unknown"
    ACTION_REQUIRED = "action_required"  # the person authenticates first (3-D Secure)


@dataclass(frozen=True)
class ChargeOutcome:
    result: ChargeResult
    charge: Charge | None  # when SUCCEEDED / PENDING (and DECLINED when the provider recorded it)
    decline_code: str | None  # when DECLINED
    attempts: int  # provider calls made for the charge (for the saga log)


def _log():
    # Looked up per call (cheap) so log capture in tests sees the current configuration.
    return structlog.get_logger("checkout.payments")


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def _retrying(*, deadline: float | None = None) -> Iterator[stamina.Attempt]:
    """The one retry policy for provider calls (settings.PAYMENT_RETRY_*)."""
    timeout = _setting("PAYMENT_RETRY_DEADLINE_SECONDS", 5.0) if deadline is None else deadline
    return stamina.retry_context(
        on=TRANSIENT,
        attempts=int(_setting("PAYMENT_RETRY_ATTEMPTS", 3)),
        # stamina warns on timeout=0; a spent budget still allows the one first attempt.
        timeout=max(timeout, 0.001),
        wait_initial=_setting("PAYMENT_RETRY_WAIT_INITIAL_SECONDS", 0.1),
        wait_max=_setting("PAYMENT_RETRY_WAIT_MAX_SECONDS", 1.0),
        wait_jitter=_setting("PAYMENT_RETRY_WAIT_JITTER_SECONDS", 0.1),
    )


def _error_name(exc: BaseException) -> str:
    return "timeout" if isinstance(exc, ProviderTimeout) else "unavailable"


def _outcome_from_charge(charge: Charge, attempts: int) -> ChargeOutcome:
    if charge.status == ChargeStatus.SUCCEEDED:
        return ChargeOutcome(ChargeResult.SUCCEEDED, charge, None, attempts)
    if charge.status == ChargeStatus.PENDING:
        return ChargeOutcome(ChargeResult.PENDING, charge, None, attempts)
    if charge.status == ChargeStatus.REQUIRES_ACTION:
        return ChargeOutcome(ChargeResult.ACTION_REQUIRED, charge, None, attempts)
    return ChargeOutcome(
        ChargeResult.DECLINED, charge, charge.failure_code or "CARD_DECLINED", attempts
    )


@dataclass
class _Tries:
    count: int = 0


def _retried_call(
    call: Callable[[], T], *, event: str, fields: dict, tries: _Tries, deadline: float | None = None
) -> T:
    """Runs `call` under the retry policy, counting attempts in `tries`. Raises the last
    transient error when exhausted, and any non-transient error at once."""
    for attempt in _retrying(deadline=deadline):
        with attempt:
            tries.count += 1
            if attempt.num > 1:
                upstream.count_retry()  # the tool call's log counts payment retries too
            try:
                return call()
            except TRANSIENT as exc:
                _log().warning(
                    event, attempt=tries.count, result="retry", error=_error_name(exc), **fields
                )
                raise
    raise AssertionError("retry loop ended without a result")  # pragma: no cover


def charge(
    *,
    amount: Decimal,
    currency: str,
    payment_method_id: str,
    idempotency_key: str,
    order_id: str,
    workflow_id: str = "",
    correlation_id: str = "",
    attempt: int = 1,
    charge_id: str = "",
    on_created: Callable[[str], None] | None = None,
) -> ChargeOutcome:
    """Charge once (whatever the retries), and say plainly what happened.

    `order_id`, `workflow_id` and `correlation_id` go to the provider as the charge's metadata;
    `attempt` (the saga run) lets a provider tell one run's retries from the next run.
    `charge_id` is the provider's id of the charge already made under the key (if recorded);
    `on_created(id)` is called when the provider made one and has not yet attempted it, so the
    caller records it before money can move (retries and the lookup then ask by that id)."""
    provider = get_provider()
    metadata = {
        "order_id": str(order_id),
        "workflow_id": workflow_id,
        "correlation_id": correlation_id,
        "attempt": str(attempt),
    }
    fields = {"idempotency_key": idempotency_key, "order_id": str(order_id)}
    started = time.monotonic()
    tries = _Tries()
    timed_out = False
    known_id = charge_id

    def created(new_id: str) -> None:
        nonlocal known_id
        if on_created is not None:
            on_created(new_id)  # first: if recording fails, nothing is confirmed
        known_id = new_id

    def attempt_charge() -> Charge:
        nonlocal timed_out
        try:
            return provider.charge(
                amount=amount,
                currency=currency,
                payment_method_id=payment_method_id,
                idempotency_key=idempotency_key,  # the same key on every attempt
                metadata=metadata,
                charge_id=known_id,
                on_created=created,
            )
        except ProviderTimeout:
            timed_out = True
            raise

    try:
        charged = _retried_call(attempt_charge, event="payment_charge", fields=fields, tries=tries)
        outcome = _outcome_from_charge(charged, tries.count)
    except CardDeclined as exc:
        outcome = ChargeOutcome(ChargeResult.DECLINED, exc.charge, exc.code, tries.count)
    except ProviderRejected as exc:
        _log().error(
            "payment_charge", attempt=tries.count, result="rejected", error=exc.code, **fields
        )
        raise
    except TRANSIENT:
        if not timed_out:
            outcome = ChargeOutcome(ChargeResult.NOT_CHARGED_UNAVAILABLE, None, None, tries.count)
        else:
            # A time-out may have been processed: ask rather than guess, within what is left
            # of the deadline.
            remaining = _setting("PAYMENT_RETRY_DEADLINE_SECONDS", 5.0) - (
                time.monotonic() - started
            )
            found = _lookup_outcome(
                idempotency_key, charge_id=known_id, since=None, deadline=remaining, fields=fields
            )
            outcome = ChargeOutcome(found.result, found.charge, found.decline_code, tries.count)
    _log().info(
        "payment_charge",
        attempt=tries.count,
        result=str(outcome.result),
        charge_id=outcome.charge.id if outcome.charge else None,
        decline_code=outcome.decline_code,
        **fields,
    )
    return outcome


def _lookup_outcome(
    idempotency_key: str,
    *,
    charge_id: str,
    since: datetime | None,
    deadline: float | None,
    fields: dict,
) -> ChargeOutcome:
    provider = get_provider()
    tries = _Tries()
    try:
        found = _retried_call(
            lambda: provider.retrieve_by_idempotency_key(
                idempotency_key=idempotency_key, charge_id=charge_id, since=since
            ),
            event="payment_lookup",
            fields=fields,
            tries=tries,
            deadline=deadline,
        )
    except TRANSIENT:
        return ChargeOutcome(ChargeResult.UNKNOWN, None, None, tries.count)
    except ProviderRejected as exc:
        # The lookup itself was refused (a 4xx: credentials, a provider-side change): that says
        # nothing about the charge, which may have gone through. Never "not charged" on a guess.
        _log().error("payment_lookup", result="rejected", error=exc.code, **fields)
        return ChargeOutcome(ChargeResult.UNKNOWN, None, None, tries.count)
    if found is None:
        return ChargeOutcome(ChargeResult.NOT_CHARGED_TIMEOUT, None, None, tries.count)
    return _outcome_from_charge(found, tries.count)


def lookup(
    *, idempotency_key: str, charge_id: str = "", since: datetime | None = None
) -> ChargeOutcome:
    """Ask the provider what became of a charge (reconciliation). `attempts` counts lookups.
    Nothing under the key → NOT_CHARGED_TIMEOUT; provider unreachable → UNKNOWN. Pass the
    recorded `charge_id` and `since` (when the key was first used): see PaymentProvider."""
    fields = {"idempotency_key": idempotency_key}
    outcome = _lookup_outcome(
        idempotency_key, charge_id=charge_id, since=since, deadline=None, fields=fields
    )
    _log().info(
        "payment_lookup",
        attempt=outcome.attempts,
        result=str(outcome.result),
        charge_id=outcome.charge.id if outcome.charge else None,
        **fields,
    )
    return outcome


def refund(*, charge_id: str, amount: Decimal, idempotency_key: str) -> Refund:
    """Refund (retried with the same refund key, so it happens once). Raises ProviderError
    (the last transient error, or ProviderRejected) when it cannot be done."""
    provider = get_provider()
    fields = {"idempotency_key": idempotency_key, "charge_id": charge_id}
    tries = _Tries()
    try:
        done = _retried_call(
            lambda: provider.refund(
                charge_id=charge_id, amount=amount, idempotency_key=idempotency_key
            ),
            event="payment_refund",
            fields=fields,
            tries=tries,
        )
    except ProviderRejected as exc:
        _log().error(
            "payment_refund", attempt=tries.count, result="rejected", error=exc.code, **fields
        )
        raise
    except TRANSIENT as exc:
        _log().error(
            "payment_refund", attempt=tries.count, result="failed", error=_error_name(exc), **fields
        )
        raise
    _log().info(
        "payment_refund", attempt=tries.count, result="succeeded", refund_id=done.id, **fields
    )
    return done


def retrieve(*, charge_id: str, tries: _Tries | None = None) -> Charge:
    """The provider's current view of one charge (retried like every read). Raises
    ProviderError (the last transient error, or ProviderRejected for an unknown charge)."""
    provider = get_provider()
    return _retried_call(
        lambda: provider.retrieve_charge(charge_id=charge_id),
        event="payment_retrieve",
        fields={"charge_id": charge_id},
        tries=_Tries() if tries is None else tries,
    )


# --- hosted checkout: the provider's own page, where the person pays -------------------------


def start_hosted_checkout(*, idempotency_key: str, **page: object) -> HostedCheckout:
    """Open the payment page for an order attempt (once per key, whatever the retries): see
    PaymentProvider.start_hosted_checkout. Raises ProviderError when it cannot be opened; the
    person was then given no page, so nothing can have been paid through it."""
    provider = get_provider()
    return _retried_call(
        lambda: provider.start_hosted_checkout(idempotency_key=idempotency_key, **page),
        event="payment_checkout_start",
        fields={"idempotency_key": idempotency_key},
        tries=_Tries(),
    )


def retrieve_hosted_checkout(*, checkout_id: str) -> HostedCheckout:
    """What the provider says about a payment page now (retried like every read)."""
    provider = get_provider()
    return _retried_call(
        lambda: provider.retrieve_hosted_checkout(checkout_id=checkout_id),
        event="payment_checkout_retrieve",
        fields={"checkout_id": checkout_id},
        tries=_Tries(),
    )


def expire_hosted_checkout(*, checkout_id: str) -> HostedCheckout:
    """Close a payment page so nothing more can be paid through it; answered with what it is
    (paid meanwhile, or expired)."""
    provider = get_provider()
    page = _retried_call(
        lambda: provider.expire_hosted_checkout(checkout_id=checkout_id),
        event="payment_checkout_expire",
        fields={"checkout_id": checkout_id},
        tries=_Tries(),
    )
    _log().info("payment_checkout_expire", checkout_id=checkout_id, status=page.status)
    return page
