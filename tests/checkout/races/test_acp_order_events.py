"""On PostgreSQL: ten staff marking one ACP order shipped at the same instant write one event,
and ten sweeps delivering at the same instant send each event once, in order (each thread its
own session; a live receiver counts what arrives, repeats included)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from checkout import fulfilment, outbox
from checkout.agentic.order_events import OUTBOX_KIND
from checkout.models import OutboxMessage, OutboxStatus
from tests.concurrency import in_threads
from tests.fixtures import BOTH_DATABASES, make_product
from tests.giftgenius.transports.acp_client import agent_for
from tests.giftgenius.transports.order_events_receiver import Receiver
from tests.giftgenius.transports.test_acp_order_events import SECRET, place
from tool_runtime.models import ApiToken, ApiTokenKind
from tool_runtime.principals import set_order_events_endpoint

RACERS = 10
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES),
]


def test_simultaneous_changes_and_sweeps_send_each_event_once_in_order(
    user, stripe_provider, settings, django_user_model
):
    settings.ACP_ORDER_EVENTS_TIMEOUT_SECONDS = 5
    receiver = Receiver(secret=SECRET).start()
    try:
        make_product(sku="GG-ACP-EV", stock=5, price="30.00")
        agent = agent_for(user)
        token = ApiToken.objects.get(user=user, kind=ApiTokenKind.AGENT)
        set_order_events_endpoint(token_id=token.pk, url=receiver.url, secret=SECRET)
        staff = django_user_model.objects.create_user(username="ops", is_staff=True)
        order = place(agent, stripe_provider)

        shipment = fulfilment.Shipment(order.pk, "DHL", "JD0142")
        reports = in_threads(
            RACERS, lambda i: fulfilment.mark_shipped(shipments=[shipment], actor=staff)
        )
        assert sorted(r.outcome for (r,) in reports) == ["done"] + ["refused"] * (RACERS - 1)
        messages = OutboxMessage.objects.filter(kind=OUTBOX_KIND, order_id=order.pk)
        assert sorted(messages.values_list("payload__change", flat=True)) == [
            "confirmed",
            "shipped",
        ]

        later = timezone.now() + timedelta(hours=1)
        for when in (timezone.now(), later, later + timedelta(hours=1)):
            in_threads(RACERS, lambda i, when=when: outbox.deliver_due(now=when))
        assert set(messages.values_list("status", flat=True)) == {OutboxStatus.DELIVERED}
        # Every request the receiver accepted, repeats included: each event exactly once.
        assert [(d.event["type"], d.event["data"]["status"]) for d in receiver.accepted] == [
            ("order_create", "confirmed"),
            ("order_update", "shipped"),
        ]
    finally:
        receiver.stop()
