"""Order events to the agent that placed an order through ACP: written with the change, signed,
checked against the webhook schema by a live receiver, retried while the receiver is down,
parked after their tries and retried by staff, each arriving once and in order."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.db import transaction
from django.test import Client
from django.utils import timezone

from checkout import fulfilment, outbox, staff_rollback
from checkout.agentic.order_events import OUTBOX_KIND
from checkout.models import FulfilmentStatus, Order, OutboxMessage, OutboxStatus
from checkout.payments.config import SIMULATOR
from tests.checkout.payments.test_stripe_webhooks import deliver, localstripe
from tests.fixtures import make_product, paid_order
from tests.giftgenius.transports.acp_client import (
    Agent,
    agent_for,
    create_body,
    grant_token,
    spt_payment,
)
from tests.giftgenius.transports.order_events_receiver import Receiver, schema_errors
from tests.localstripe import intents
from tool_runtime.models import ApiToken, ApiTokenKind
from tool_runtime.principals import set_order_events_endpoint

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])
SECRET = "whsec_agent_order_events"
PARKED_URL = "/admin/checkout/parkedoutboxmessage/"


@pytest.fixture
def receiver():
    live = Receiver(secret=SECRET).start()
    yield live
    live.stop()


@pytest.fixture
def agent(user, stripe_provider, receiver, settings) -> Agent:
    settings.OUTBOX_MAX_ATTEMPTS = 3
    settings.OUTBOX_RETRY_BASE_SECONDS = 30
    settings.ACP_ORDER_EVENTS_TIMEOUT_SECONDS = 2
    make_product(sku="GG-ACP-EV", stock=5, price="30.00")
    acp = agent_for(user)
    token = ApiToken.objects.get(user=user, kind=ApiTokenKind.AGENT)
    set_order_events_endpoint(token_id=token.pk, url=receiver.url, secret=SECRET)
    return acp


@pytest.fixture
def staff(db, django_user_model):
    return django_user_model.objects.create_user(username="ops", password="pw", is_staff=True)


def place(agent: Agent, stripe_url: str) -> Order:
    session = agent.post("/checkout_sessions", create_body("GG-ACP-EV")).body
    total = next(t["amount"] for t in session["totals"] if t["type"] == "total")
    token = grant_token(stripe_url, max_amount=total)
    done = agent.post(f"/checkout_sessions/{session['id']}/complete", spt_payment(token))
    assert done.body["status"] == "completed", done.body
    return Order.objects.get(pk=done.body["order"]["id"])


def ship(order: Order, staff) -> None:
    shipment = fulfilment.Shipment(order.pk, "DHL", "JD0142", "https://track.example.com/JD0142")
    (report,) = fulfilment.mark_shipped(shipments=[shipment], actor=staff)
    assert report.outcome == "done"


def sweep(*, hours: float = 0) -> outbox.DeliveryReport:
    return outbox.deliver_due(now=timezone.now() + timedelta(hours=hours))


def events(order: Order) -> list[OutboxMessage]:
    return list(OutboxMessage.objects.filter(kind=OUTBOX_KIND, order_id=order.pk).order_by("pk"))


def arrived(receiver: Receiver) -> list[tuple[str, str]]:
    return [(d.event["type"], d.event["data"]["status"]) for d in receiver.unique()]


def test_each_change_arrives_once_signed_and_valid_against_the_webhook_schema(
    agent, stripe_provider, receiver, staff
):
    order = place(agent, stripe_provider)
    ship(order, staff)
    fulfilment.mark_delivered(order_ids=[order.pk], actor=staff)
    sweep()
    assert arrived(receiver) == [
        ("order_create", "confirmed"),
        ("order_update", "shipped"),
        ("order_update", "completed"),
    ]
    assert receiver.refused == [] and len(receiver.accepted) == 3
    for delivery in receiver.accepted:
        assert schema_errors(delivery.event) == []
        assert delivery.request_id.startswith("evt_")
        data = delivery.event["data"]
        assert data["id"] == str(order.pk) and data["checkout_session_id"].startswith("cs_")
    shipped = receiver.accepted[1].event["data"]
    (parcel,) = shipped["fulfillments"]
    assert (parcel["status"], parcel["carrier"], parcel["tracking_number"]) == (
        "shipped",
        "DHL",
        "JD0142",
    )
    assert parcel["tracking_url"] == "https://track.example.com/JD0142"
    assert shipped["line_items"][0]["quantity"] == {"ordered": 1, "current": 1, "fulfilled": 1}
    total = next(t for t in shipped["totals"] if t["type"] == "total")
    assert total["amount"] == int(order.amount * 100)
    # Delivered and swept again: nothing is sent twice.
    assert sweep(hours=48).delivered == 0
    fulfilment.mark_delivered(order_ids=[order.pk], actor=staff)  # refused: already delivered
    assert sweep(hours=48).delivered == 0 and len(receiver.accepted) == 3


def test_a_staff_rollback_sends_the_refund_then_the_cancellation(agent, stripe_provider, receiver):
    order = place(agent, stripe_provider)
    outcome = staff_rollback.roll_back_order(order_id=order.pk, reason="Buyer asked", actor="ops")
    assert outcome.order.status == "cancelled", outcome
    sweep()
    assert arrived(receiver) == [
        ("order_create", "confirmed"),
        ("order_update", "confirmed"),  # the refund, made before the order closes
        ("order_update", "canceled"),
    ]
    for delivery in receiver.accepted:
        assert schema_errors(delivery.event) == []
    cancelled = receiver.accepted[2].event["data"]
    refund = next(a for a in cancelled["adjustments"] if a["type"] == "refund")
    assert refund["amount"] == int(order.amount * 100) and refund["status"] == "completed"
    refunded = next(t for t in cancelled["totals"] if t["type"] == "amount_refunded")
    assert refunded["amount"] == int(order.amount * 100)
    assert cancelled["line_items"][0]["quantity"]["current"] == 0


def test_an_endpoint_that_is_down_loses_nothing_and_gets_each_event_once_in_order(
    agent, stripe_provider, receiver, staff
):
    receiver.stop()
    order = place(agent, stripe_provider)
    first = sweep()
    assert first.delivered >= 0 and receiver.accepted == []
    (create,) = events(order)
    create.refresh_from_db()
    assert (create.status, create.attempts) == (OutboxStatus.PENDING, 1)
    assert create.last_error.startswith("ConnectError")

    # Shipped while the create waits out its backoff: the update is due first, yet waits.
    ship(order, staff)
    receiver.start()
    sweep()
    assert receiver.accepted == []
    create, update = events(order)
    assert (update.status, update.attempts) == (OutboxStatus.PENDING, 0)
    assert update.last_error.startswith("Waiting: an earlier event")

    sweep(hours=1)
    assert arrived(receiver) == [("order_create", "confirmed"), ("order_update", "shipped")]
    assert len(receiver.accepted) == 2
    assert [d.request_id for d in receiver.accepted] == [
        m.payload["event_id"] for m in events(order)
    ]
    assert sweep(hours=24).delivered == 0 and len(receiver.accepted) == 2


def test_an_answer_lost_after_the_agent_took_the_event_repeats_the_same_id_and_body(
    agent, stripe_provider, receiver
):
    """The agent stored the event but its answer was an error: the retry is the same event
    (same Request-Id, same bytes), so the agent drops it as a duplicate."""
    receiver.lose_answers = 1
    order = place(agent, stripe_provider)
    sweep()
    (create,) = events(order)
    create.refresh_from_db()
    assert create.status == OutboxStatus.PENDING and create.last_error.endswith("HTTP 500")
    sweep(hours=1)
    assert [d.request_id for d in receiver.accepted] == [create.payload["event_id"]] * 2
    assert receiver.accepted[0].raw == receiver.accepted[1].raw
    assert len(receiver.unique()) == 1


def test_a_wrong_secret_is_refused_by_the_agent_and_retried_not_dropped(
    agent, stripe_provider, receiver, user
):
    token = ApiToken.objects.get(user=user, kind=ApiTokenKind.AGENT)
    set_order_events_endpoint(token_id=token.pk, url=receiver.url, secret="not-the-agents")
    order = place(agent, stripe_provider)
    sweep()
    assert receiver.accepted == [] and receiver.refused == [
        "Webhook signature verification failed."
    ]
    (create,) = events(order)
    create.refresh_from_db()
    assert create.status == OutboxStatus.PENDING and create.last_error.endswith("HTTP 401")

    set_order_events_endpoint(token_id=token.pk, url=receiver.url, secret=SECRET)
    sweep(hours=1)
    assert arrived(receiver) == [("order_create", "confirmed")]


def test_after_its_tries_an_event_is_parked_and_staff_retry_it_from_the_admin(
    agent, stripe_provider, receiver, staff
):
    receiver.answer = 503
    order = place(agent, stripe_provider)
    ship(order, staff)
    for hour in range(1, 6):
        sweep(hours=hour)
    create, update = events(order)
    assert (create.status, create.attempts) == (OutboxStatus.PARKED, 3)
    assert create.last_error == "EndpointRefused: HTTP 503"
    # The later event waits behind the parked one, however long: never parked, never first.
    assert (update.status, update.attempts) == (OutboxStatus.PENDING, 0)
    assert receiver.accepted == []

    staff.user_permissions.add(
        Permission.objects.get(codename="view_parkedoutboxmessage"),
        Permission.objects.get(codename="retry_outboxmessage"),
    )
    client = Client()
    client.force_login(staff)
    listed = client.get(PARKED_URL)
    assert listed.status_code == 200 and create.key in listed.content.decode()
    assert update.key not in listed.content.decode()

    receiver.answer = 200
    client.post(PARKED_URL, {"action": "retry_messages", "_selected_action": [create.pk]})
    create.refresh_from_db()
    assert create.status == OutboxStatus.DELIVERED
    assert arrived(receiver) == [("order_create", "confirmed")]
    sweep(hours=6)
    assert arrived(receiver) == [("order_create", "confirmed"), ("order_update", "shipped")]
    assert len(receiver.accepted) == 2


def test_staff_without_the_retry_permission_cannot_retry(agent, stripe_provider, receiver, staff):
    receiver.answer = 500
    order = place(agent, stripe_provider)
    for hour in range(1, 5):
        sweep(hours=hour)
    (create,) = events(order)
    staff.user_permissions.add(Permission.objects.get(codename="view_parkedoutboxmessage"))
    client = Client()
    client.force_login(staff)
    receiver.answer = 200
    client.post(PARKED_URL, {"action": "retry_messages", "_selected_action": [create.pk]})
    create.refresh_from_db()
    assert create.status == OutboxStatus.PARKED and receiver.accepted == []


def test_a_rolled_back_change_writes_no_event(agent, stripe_provider, receiver, staff):
    order = place(agent, stripe_provider)
    with pytest.raises(RuntimeError), transaction.atomic():
        ship(order, staff)
        assert len(events(order)) == 2  # written inside the change's transaction
        raise RuntimeError("the change failed after the shipment was recorded")
    order.refresh_from_db()
    assert order.fulfilment_status == FulfilmentStatus.UNFULFILLED
    assert [m.payload["change"] for m in events(order)] == ["confirmed"]
    sweep()
    assert arrived(receiver) == [("order_create", "confirmed")]


def test_an_order_not_placed_through_acp_writes_no_event(agent, api, receiver, staff, settings):
    settings.PAYMENT_PROVIDER = SIMULATOR
    placed = paid_order(api)
    order = Order.objects.get(pk=placed.order_id)
    assert order.status == "completed"
    ship(order, staff)
    staff_rollback.roll_back_order(
        order_id=order.pk, reason="test", actor="ops", shipped_confirmed=True
    )
    assert not OutboxMessage.objects.filter(kind=OUTBOX_KIND).exists()
    sweep()
    assert receiver.accepted == [] and receiver.refused == []


def test_an_agent_without_an_endpoint_or_revoked_since_gets_nothing(
    agent, stripe_provider, receiver, user, staff
):
    token = ApiToken.objects.get(user=user, kind=ApiTokenKind.AGENT)
    set_order_events_endpoint(token_id=token.pk, url="")
    order = place(agent, stripe_provider)
    assert events(order) == []

    set_order_events_endpoint(token_id=token.pk, url=receiver.url)
    ship(order, staff)  # the agent never had the order's create: no update either
    assert events(order) == []

    other = place(agent, stripe_provider)
    ApiToken.objects.filter(pk=token.pk).update(revoked=True)
    sweep()
    (create,) = events(other)
    create.refresh_from_db()
    assert create.status == OutboxStatus.DELIVERED and create.outcome.startswith("Not sent")
    assert receiver.accepted == []


def test_refunds_made_at_stripe_reach_the_agent_once_each_partial_then_full(
    agent, stripe_provider, receiver, settings
):
    order = place(agent, stripe_provider)
    (intent,) = [i for i in intents(stripe_provider) if i["status"] == "succeeded"]
    refund = localstripe(
        stripe_provider, "POST", "/v1/refunds", payment_intent=intent["id"], amount=1000
    )
    charge = localstripe(stripe_provider, "GET", f"/v1/charges/{refund['charge']}")
    deliver("charge.refunded", charge, secret=settings.STRIPE_WEBHOOK_SECRET)
    deliver("charge.refunded", charge, secret=settings.STRIPE_WEBHOOK_SECRET)  # again: no news
    localstripe(stripe_provider, "POST", "/v1/refunds", payment_intent=intent["id"])
    charge = localstripe(stripe_provider, "GET", f"/v1/charges/{refund['charge']}")
    deliver("charge.refunded", charge, secret=settings.STRIPE_WEBHOOK_SECRET)
    sweep()
    assert arrived(receiver) == [
        ("order_create", "confirmed"),
        ("order_update", "confirmed"),  # 10.00 back, the order stands
        ("order_update", "confirmed"),  # the rest back
        ("order_update", "canceled"),  # refunded in full: cancelled
    ]
    assert len(receiver.accepted) == 4
    refunded = [
        next(t["amount"] for t in d.event["data"]["totals"] if t["type"] == "amount_refunded")
        for d in receiver.accepted[1:]
    ]
    assert refunded == [1000, int(order.amount * 100), int(order.amount * 100)]
    for delivery in receiver.accepted:
        assert schema_errors(delivery.event) == []
