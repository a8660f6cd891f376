"""The person's Customer at Stripe and the cards saved to it.

One Customer per signed-in user, made when first needed under an idempotency key derived from
the user, so two first calls at once make one Customer: Stripe answers both with the one it
made, and one row wins the insert here. Its id is kept in `StripeCustomer`.

A saved card is one attached to the person's Customer. Reading one never makes a Customer: a
person without one has no saved cards, and any card id they send is not theirs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import stripe
from django.db import IntegrityError, transaction

from checkout.models import StripeCustomer
from checkout.payments.stripe_objects import brand_name, client, provider_error

USER_FIELD = "giftgenius_user"  # the Customer's metadata: our user's primary key


@dataclass(frozen=True)
class SavedCard:
    id: str  # Stripe's PaymentMethod id, "pm_…"
    brand: str  # as people write it: "Visa"
    last4: str
    exp_month: int
    exp_year: int


def customer_idempotency_key(*, user: Any) -> str:
    # The id alone repeats across databases on one Stripe account (staging and a demo, or a
    # database made afresh): within Stripe's 24 hours another user 7 would be answered with
    # this one's Customer, and its cards. When the account was made tells them apart.
    joined = int(user.date_joined.timestamp() * 1_000_000)
    return f"giftgenius-customer-user-{user.pk}-{joined}"


def stripe_customer_id(*, user: Any) -> str | None:
    """The id of the person's Customer, or None while none was made."""
    return (
        StripeCustomer.objects.filter(user_id=user.pk).values_list("customer_id", flat=True).first()
    )


def ensure_stripe_customer(*, user: Any) -> str:
    """The person's Customer id, made at Stripe (and stored) if there is none yet. Raises a
    ProviderError when Stripe cannot be asked; nothing is stored then, and a later call sends
    the same key, so a Customer made before the answer was lost is the one found again (while
    Stripe keeps the key, 24 hours)."""
    found = stripe_customer_id(user=user)
    if found is not None:
        return found
    try:
        customer = client().v1.customers.create(
            params={"metadata": {USER_FIELD: str(user.pk)}},
            options={"idempotency_key": customer_idempotency_key(user=user)},
        )
    except stripe.StripeError as exc:
        raise provider_error(exc) from exc
    try:
        with transaction.atomic():
            StripeCustomer.objects.create(user_id=user.pk, customer_id=customer.id)
    except IntegrityError:
        pass  # a concurrent first call stored it: the same Customer, under the same key
    stored = stripe_customer_id(user=user)
    assert stored is not None
    return stored


def saved_cards(*, user: Any) -> list[SavedCard]:
    """The cards saved to the person's Customer, newest first; none without a Customer."""
    customer = stripe_customer_id(user=user)
    if customer is None:
        return []
    try:
        page = client().v1.customers.payment_methods.list(
            customer, params={"type": "card", "limit": 100}
        )
        return [_card(method) for method in page.auto_paging_iter()]
    except stripe.StripeError as exc:
        raise provider_error(exc) from exc


def saved_card(*, user: Any, payment_method_id: str) -> SavedCard | None:
    """The person's saved card with this id, or None: another person's card, a detached one
    and an id Stripe does not know all read the same, so the answer tells nothing about
    anybody else's cards."""
    customer = stripe_customer_id(user=user)
    if customer is None:
        return None
    try:
        method = client().v1.customers.payment_methods.retrieve(customer, payment_method_id)
    except stripe.InvalidRequestError as exc:
        if exc.http_status == 404 or exc.code == "resource_missing":
            return None
        raise provider_error(exc) from exc
    except stripe.StripeError as exc:
        raise provider_error(exc) from exc
    if method.type != "card" or method.customer != customer:
        return None
    return _card(method)


def _card(method: Any) -> SavedCard:
    card = method.card
    return SavedCard(
        id=str(method.id),
        brand=brand_name(card.brand),
        last4=str(card.last4),
        exp_month=int(card.exp_month),
        exp_year=int(card.exp_year),
    )
