"""A person's own Customer and saved cards at Stripe: the real SDK against localstripe, the
tools over REST, no mocks. One person never sees, chooses or charges another's card."""

from __future__ import annotations

import httpx
import pytest

from checkout.models import Order, OrderStatus, StripeCustomer
from checkout.payments.stripe_customers import ensure_stripe_customer, stripe_customer_id
from checkout.payments.stripe_provider import client
from tests.concurrency import in_threads
from tests.fixtures import (
    BOTH_DATABASES,
    SHIPPING,
    assert_books_balance,
    assert_error,
    commit,
    gift_selected,
    make_product,
    new_key,
    prepare,
    prepared,
)
from tests.localstripe import API_KEY, intents, save_card
from tool_runtime.models import IdempotencyKey

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)

SIMULATOR_TEST_CARDS = {
    "pm_card_visa",
    "pm_card_declined",
    "pm_card_insufficient_funds",
    "pm_card_authentication_required",
    "pm_card_timeout_once",
    "pm_card_timeout_always",
    "pm_card_unavailable",
    "pm_card_lost_response",
    "pm_card_pending",
}


def customers(url: str) -> list[dict]:
    """Every Customer localstripe holds, read straight from it."""
    response = httpx.get(
        f"{url}/v1/customers", params={"limit": 100}, auth=(API_KEY, ""), timeout=10
    )
    response.raise_for_status()
    return response.json()["data"]


def listed(api, workflow_id: str) -> list[dict]:
    response = api.call("get_payment_methods", {"workflow_id": workflow_id})
    assert response.status == 200, response.body
    return response.body["payment_methods"]


def assert_ledger_clean() -> None:
    from checkout.ledger import check_ledger

    report = check_ledger()
    assert report.broken == [], [row.problems for row in report.broken]
    assert report.orphan_charges == []


# --- the Customer ----------------------------------------------------------------------------------


def test_a_customer_is_made_once_and_its_id_kept(user, stripe_provider):
    first = ensure_stripe_customer(user=user)
    again = ensure_stripe_customer(user=user)

    assert first == again and first.startswith("cus_")
    assert StripeCustomer.objects.get(user=user).customer_id == first
    [customer] = customers(stripe_provider)
    assert customer["id"] == first
    assert customer["metadata"] == {"giftgenius_user": str(user.pk)}


def test_a_customer_lost_before_it_was_stored_is_found_again_under_its_key(user, stripe_provider):
    """Stripe made the Customer but our row was never written (the answer lost, the process
    gone): the next first call sends the same key and gets the same Customer."""
    made = ensure_stripe_customer(user=user)
    StripeCustomer.objects.filter(user=user).delete()

    assert ensure_stripe_customer(user=user) == made
    assert len(customers(stripe_provider)) == 1


def test_the_same_user_id_in_another_database_gets_a_customer_of_its_own(user, stripe_provider):
    """Two databases on one Stripe account (staging and a demo, or one made afresh) both have
    a user with this id: within Stripe's 24 hours the second must not be answered with the
    first one's Customer, and so its cards."""
    from datetime import timedelta

    theirs = ensure_stripe_customer(user=user)
    StripeCustomer.objects.filter(user=user).delete()
    type(user).objects.filter(pk=user.pk).update(date_joined=user.date_joined + timedelta(days=1))
    user.refresh_from_db()

    ours = ensure_stripe_customer(user=user)
    assert ours != theirs
    assert len(customers(stripe_provider)) == 2


def test_listing_cards_makes_no_customer(api, user, stripe_provider):
    workflow_id = gift_selected(api, make_product())

    methods = listed(api, workflow_id)

    assert [m["id"] for m in methods] == ["new_card"]  # never the test list
    assert methods[0]["last4"] == "" and methods[0]["exp_month"] is None
    assert stripe_customer_id(user=user) is None
    assert customers(stripe_provider) == []


# --- saved cards -----------------------------------------------------------------------------------


def test_saved_cards_are_listed_with_brand_last_4_and_expiry(api, user, stripe_provider):
    workflow_id = gift_selected(api, make_product())
    visa = save_card(user)
    failing = save_card(user, "pm_card_chargeCustomerFail")

    methods = listed(api, workflow_id)

    assert [m["id"] for m in methods] == [failing, visa, "new_card"]  # newest first
    assert methods[1] == {
        "id": visa,
        "label": "Visa •••• 4242",
        "brand": "Visa",
        "last4": "4242",
        "exp_month": 12,
        "exp_year": 2030,
        "description": "Saved card, expires 12/30.",
    }
    assert methods[0]["last4"] == "0341"
    assert not SIMULATOR_TEST_CARDS & {m["id"] for m in methods}


def test_a_saved_card_pays_with_a_payment_intent_naming_the_customer(api, user, stripe_provider):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    card = save_card(user)

    order_id, token = prepared(api, workflow_id, card)
    response = commit(api, workflow_id, order_id, token)

    assert response.status == 200, response.body
    assert response.body["status"] == "completed"
    [intent] = intents(stripe_provider)
    assert intent["status"] == "succeeded"
    assert intent["customer"] == stripe_customer_id(user=user)
    assert intent["payment_method"] == card
    assert len(customers(stripe_provider)) == 1
    # The next purchase lists the same card.
    assert card in {m["id"] for m in listed(api, gift_selected(api, make_product(sku="GG-2")))}
    assert_ledger_clean()
    assert_books_balance(product, initial={product.pk: 5})


def test_a_card_detached_after_prepare_is_never_charged(api, user, stripe_provider):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    card = save_card(user)
    order_id, token = prepared(api, workflow_id, card)
    client().v1.payment_methods.detach(card)

    response = commit(api, workflow_id, order_id, token)

    error = assert_error(response, "PAYMENT_METHOD_UNKNOWN", 422)
    assert error["details"]["payment_method_id"] == card
    assert Order.objects.get(pk=order_id).status == OrderStatus.DRAFT  # nothing moved
    assert intents(stripe_provider) == []
    # Another saved card: prepared and paid.
    other = save_card(user)
    order_id, token = prepared(api, workflow_id, other)
    assert commit(api, workflow_id, order_id, token).body["status"] == "completed"
    assert_ledger_clean()
    assert_books_balance(product, initial={product.pk: 5})


# --- isolation and bad ids ---------------------------------------------------------------------------


def test_two_people_see_only_their_own_cards(api, other_api, user, other_user, stripe_provider):
    mine = save_card(user)
    theirs = save_card(other_user)

    assert [m["id"] for m in listed(api, gift_selected(api, make_product()))] == [
        mine,
        "new_card",
    ]
    other_workflow = gift_selected(other_api, make_product(sku="GG-2"))
    assert [m["id"] for m in listed(other_api, other_workflow)] == [
        theirs,
        "new_card",
    ]
    assert stripe_customer_id(user=user) != stripe_customer_id(user=other_user)


def _refused(api, workflow_id: str, method: str, code: str, status: int) -> dict:
    """prepare_order with `method` is refused naming the field, and nothing is written: no
    order, and the idempotency key never claimed."""
    key = new_key()
    arguments = {
        "workflow_id": workflow_id,
        "payment_method_id": method,
        "shipping": SHIPPING,
        "idempotency_key": key,
    }
    error = assert_error(api.call("prepare_order", arguments), code, status)
    assert error["field"] == "payment_method_id"
    assert not Order.objects.exists()
    assert not IdempotencyKey.objects.filter(key=key).exists()
    return error


def test_another_persons_card_is_not_found(api, other_api, user, other_user, stripe_provider):
    theirs = save_card(other_user)
    save_card(user)
    workflow_id = gift_selected(api, make_product())

    error = _refused(api, workflow_id, theirs, "PAYMENT_METHOD_UNKNOWN", 422)

    assert theirs not in error["allowed_values"]
    assert theirs not in str(listed(api, workflow_id))
    assert intents(stripe_provider) == []


def test_a_detached_card_is_not_found(api, user, stripe_provider):
    card = save_card(user)
    client().v1.payment_methods.detach(card)
    workflow_id = gift_selected(api, make_product())

    _refused(api, workflow_id, card, "PAYMENT_METHOD_UNKNOWN", 422)
    assert card not in {m["id"] for m in listed(api, workflow_id)}


@pytest.mark.parametrize("method", ["pm_doesnotexist42", "pm_card_visa", "pm_card_timeout_once"])
def test_an_unknown_card_or_a_simulator_test_card_is_not_found(api, user, stripe_provider, method):
    save_card(user)
    workflow_id = gift_selected(api, make_product())

    _refused(api, workflow_id, method, "PAYMENT_METHOD_UNKNOWN", 422)


def test_an_unknown_card_reads_the_same_without_a_customer(api, user, stripe_provider):
    workflow_id = gift_selected(api, make_product())

    _refused(api, workflow_id, "pm_doesnotexist42", "PAYMENT_METHOD_UNKNOWN", 422)
    assert customers(stripe_provider) == []  # a check never makes a Customer


@pytest.mark.parametrize("method", ["4242424242424242", "pm_", "pm_12/../x", "card visa", "pm_x y"])
def test_a_malformed_card_id_is_a_validation_error(api, user, stripe_provider, method):
    workflow_id = gift_selected(api, make_product())

    error = _refused(api, workflow_id, method, "VALIDATION_ERROR", 422)

    assert "pm_" in error["expected"]


def test_a_refused_card_then_a_good_one_under_a_new_key_prepares(api, user, stripe_provider):
    card = save_card(user)
    workflow_id = gift_selected(api, make_product())
    _refused(api, workflow_id, "pm_doesnotexist42", "PAYMENT_METHOD_UNKNOWN", 422)

    response = prepare(api, workflow_id, card)

    assert response.status == 200, response.body
    assert response.body["payment_method"] == {"id": card, "label": "Visa •••• 4242"}


# --- the simulator keeps its list ----------------------------------------------------------------------


def test_the_simulator_offers_its_test_cards_and_makes_no_customer(api, user):
    workflow_id = gift_selected(api, make_product())

    methods = listed(api, workflow_id)

    # Its test cards stand for the demo user's saved cards; a new card is paid on its own page.
    assert {m["id"] for m in methods} == {*SIMULATOR_TEST_CARDS, "new_card"}
    assert prepare(api, workflow_id, "new_card").status == 200
    assert not StripeCustomer.objects.exists()


# --- one Customer under a race ---------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES)
def test_racing_first_calls_make_one_customer(user, stripe_provider):
    made = in_threads(12, lambda i: ensure_stripe_customer(user=user))

    assert len(set(made)) == 1
    assert StripeCustomer.objects.filter(user=user).count() == 1
    assert [c["id"] for c in customers(stripe_provider)] == made[:1]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES)
def test_racing_first_calls_of_two_people_make_one_customer_each(user, other_user, stripe_provider):
    people = [user, other_user]
    made = in_threads(12, lambda i: (people[i % 2].pk, ensure_stripe_customer(user=people[i % 2])))

    by_person = {pk: {cid for p, cid in made if p == pk} for pk, _ in made}
    assert all(len(ids) == 1 for ids in by_person.values()) and len(by_person) == 2
    assert StripeCustomer.objects.count() == 2
    assert len(customers(stripe_provider)) == 2


# --- Stripe unreachable while a card is checked --------------------------------------------------------

CARD_CHECK = r"/v1/customers/cus_\w+/payment_methods/pm_\w+"


def test_stripe_down_at_prepare_refuses_retryably_and_writes_nothing(api, user, stripe_proxy):
    card = save_card(user)
    workflow_id = gift_selected(api, make_product())
    stripe_proxy.fault("GET", CARD_CHECK, "503", times=None)

    error = _refused(api, workflow_id, card, "PAYMENT_PROVIDER_ERROR", 503)

    assert error["retryable"] is True


def test_stripe_down_at_commit_charges_nothing_and_keeps_the_draft(api, user, stripe_proxy):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, save_card(user))
    stripe_proxy.fault("GET", CARD_CHECK, "503")

    key = new_key()
    refused = commit(api, workflow_id, order_id, token, key=key)

    assert_error(refused, "PAYMENT_PROVIDER_ERROR", 503)
    assert Order.objects.get(pk=order_id).status == OrderStatus.DRAFT
    assert intents(stripe_proxy.upstream) == []
    # "Try again" replays the same key, which runs again (a retryable answer is not kept).
    assert commit(api, workflow_id, order_id, token, key=key).body["status"] == "completed"
    assert_ledger_clean()
    assert_books_balance(product, initial={product.pk: 5})
