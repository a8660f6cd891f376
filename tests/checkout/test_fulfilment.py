"""Fulfilment from the admin: bulk "mark shipped" with tracking, "mark delivered", both audited;
get_order and the widget say where the gift is; rolling back a shipped order needs staff to
confirm they know it was shipped; the rollback's confirmation previews what it will do."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.test import Client

from checkout import fulfilment, staff_rollback
from checkout.models import (
    FulfilmentStatus,
    Order,
    OrderAuditEntry,
    OrderStatus,
    StaffAction,
)
from tests.fixtures import cancel, draft_order, order_of, paid_order
from tool_runtime.outcome import ToolOutcome
from widget.rendering import render_fragment

pytestmark = [
    pytest.mark.django_db(databases=["default", "payment_ledger"]),
    pytest.mark.usefixtures("demo_catalog"),
]

CHANGELIST = "/admin/checkout/order/"
SHIP_URL = "/admin/checkout/order/ship/"
ROLLBACK_URL = "/admin/checkout/order/rollback/"


@pytest.fixture
def warehouse(db, django_user_model):
    user = django_user_model.objects.create_user(
        username="warehouse", password="pw-wh-123", is_staff=True
    )
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="checkout", codename__startswith="view_"
        ),
        Permission.objects.get(codename="fulfil_order"),
        Permission.objects.get(codename="rollback_order"),
    )
    client = Client()
    client.force_login(user)
    client.user = user
    return client


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def ship(client, orders, *, carrier="DHL", numbers=None, urls=None):
    data = {"orders": [str(o) for o in orders], "carrier": carrier}
    for i, order_id in enumerate(orders):
        data[f"tracking_{order_id}"] = (numbers or {}).get(order_id, f"JD0146000{i}")
        data[f"url_{order_id}"] = (urls or {}).get(order_id, "")
    return client.post(SHIP_URL, data)


def test_bulk_mark_shipped_with_tracking_per_order_is_audited(api, warehouse):
    first, second = paid_order(api), paid_order(api)
    ids = [first.order_id, second.order_id]
    page = warehouse.post(CHANGELIST, {"action": "mark_shipped", "_selected_action": ids})
    assert page.status_code == 200 and "Tracking number" in page.content.decode()

    response = ship(
        warehouse,
        ids,
        numbers={first.order_id: "JD111", second.order_id: "JD222"},
        urls={first.order_id: "https://track.example/JD111"},
    )

    assert response.status_code == 302
    one, two = order_of(first.order_id), order_of(second.order_id)
    assert (one.fulfilment_status, one.carrier, one.tracking_number) == ("shipped", "DHL", "JD111")
    assert one.tracking_url == "https://track.example/JD111" and one.shipped_at is not None
    assert (two.tracking_number, two.tracking_url) == ("JD222", "")
    entries = OrderAuditEntry.objects.filter(action=StaffAction.MARK_SHIPPED)
    assert {(str(e.order_id), e.outcome, e.actor_id) for e in entries} == {
        (first.order_id, "done", warehouse.user.pk),
        (second.order_id, "done", warehouse.user.pk),
    }


def test_a_missing_tracking_number_or_a_bad_url_marks_nothing(api, warehouse):
    placed = paid_order(api)
    response = ship(warehouse, [placed.order_id], numbers={placed.order_id: ""})
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    response = ship(warehouse, [placed.order_id], urls={placed.order_id: "javascript:alert(1)"})
    assert response.status_code == 200 and "Enter a valid URL" in response.content.decode()
    assert order_of(placed.order_id).fulfilment_status == FulfilmentStatus.UNFULFILLED
    assert not OrderAuditEntry.objects.exists()


def test_only_a_paid_unshipped_order_ships_and_refusals_are_audited(api, warehouse):
    draft = draft_order(api)
    paid = paid_order(api)
    ship(warehouse, [paid.order_id])
    reports = fulfilment.mark_shipped(
        shipments=[
            fulfilment.Shipment(draft.order_id, "DHL", "X1"),
            fulfilment.Shipment(paid.order_id, "UPS", "X2"),  # already shipped
        ],
        actor=warehouse.user,
    )
    assert [r.outcome for r in reports] == ["refused", "refused"]
    assert "draft, not completed" in reports[0].detail
    assert "shipped, not unfulfilled" in reports[1].detail
    assert order_of(draft.order_id).fulfilment_status == FulfilmentStatus.UNFULFILLED
    assert order_of(paid.order_id).carrier == "DHL"  # the first shipment's, kept
    assert OrderAuditEntry.objects.filter(outcome="refused").count() == 2


def test_delivered_follows_shipped_only(api, warehouse):
    placed = paid_order(api)
    warehouse.post(CHANGELIST, {"action": "mark_delivered", "_selected_action": [placed.order_id]})
    assert order_of(placed.order_id).fulfilment_status == FulfilmentStatus.UNFULFILLED
    ship(warehouse, [placed.order_id])
    warehouse.post(CHANGELIST, {"action": "mark_delivered", "_selected_action": [placed.order_id]})
    order = order_of(placed.order_id)
    assert order.fulfilment_status == FulfilmentStatus.DELIVERED and order.delivered_at
    outcomes = list(
        OrderAuditEntry.objects.filter(action=StaffAction.MARK_DELIVERED)
        .order_by("created_at")
        .values_list("outcome", flat=True)
    )
    assert outcomes == ["refused", "done"]


def test_staff_without_the_permission_cannot_mark_shipped(api, db, django_user_model):
    placed = paid_order(api)
    viewer = django_user_model.objects.create_user(username="viewer", password="pw", is_staff=True)
    viewer.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="checkout", codename__startswith="view_")
    )
    client = Client()
    client.force_login(viewer)
    assert "mark_shipped" not in client.get(CHANGELIST).content.decode()
    assert ship(client, [placed.order_id]).status_code == 403
    assert order_of(placed.order_id).fulfilment_status == FulfilmentStatus.UNFULFILLED


# --- where is my gift? ------------------------------------------------------------------------


def test_get_order_and_the_widget_say_where_the_gift_is(api, warehouse):
    placed = paid_order(api)
    ship(warehouse, [placed.order_id], urls={placed.order_id: "https://track.example/1"})
    Order.objects.filter(pk=placed.order_id).update(
        delivery_earliest=date(2027, 3, 12), delivery_latest=date(2027, 3, 14)
    )

    response = api.call("get_order", {"order_id": placed.order_id})

    shipped = response.body["fulfilment"]
    assert shipped["status"] == "shipped" and shipped["carrier"] == "DHL"
    assert shipped["tracking_url"] == "https://track.example/1"
    delivery = response.body["delivery"]
    assert (delivery["earliest"], delivery["latest"]) == ("2027-03-12", "2027-03-14")
    body = {k: v for k, v in response.body.items() if k != "_meta"}
    outcome = ToolOutcome("get_order", body, response.body["_meta"], 200, "cid-1")
    html = render_fragment(tool="get_order", outcome=outcome, locale="en")
    assert 'data-testid="fulfilment"' in html and "Shipped" in html and "DHL" in html
    window = delivery["window"]
    assert window and 'data-testid="delivery-window"' in html and window in html
    receipt_key = order_of(placed.order_id).receipt_key
    assert f"/receipts/{receipt_key}/" in html  # in the widget's view, from _meta
    assert receipt_key not in str({k: v for k, v in response.body.items() if k != "_meta"})


# --- rolling back a shipped order -------------------------------------------------------------


def test_rolling_back_a_shipped_order_needs_a_confirmation_that_says_so(api, warehouse):
    placed = paid_order(api)
    ship(warehouse, [placed.order_id], numbers={placed.order_id: "JD999"})

    page = warehouse.get(ROLLBACK_URL, {"ids": placed.order_id}).content.decode()
    assert "was already shipped (DHL JD999)" in page
    refused = warehouse.post(ROLLBACK_URL, {"orders": [placed.order_id], "reason": "asked"})
    assert refused.status_code == 200 and "confirm that you know" in refused.content.decode()
    assert order_of(placed.order_id).status == OrderStatus.COMPLETED

    # The service refuses on its own too, whatever calls it.
    [report] = staff_rollback.roll_back_orders(
        order_ids=[placed.order_id], reason="asked", actor=warehouse.user
    )
    assert report.outcome == "refused" and "confirm that it was shipped" in report.detail
    assert order_of(placed.order_id).status == OrderStatus.COMPLETED

    done = warehouse.post(
        ROLLBACK_URL,
        {"orders": [placed.order_id], "reason": "lost in transit", "confirm_shipped": "on"},
    )
    assert done.status_code == 302, done.content[:300]
    assert order_of(placed.order_id).status == OrderStatus.CANCELLED


def test_the_rollback_confirmation_previews_what_will_happen(api, warehouse):
    placed = paid_order(api)
    order = order_of(placed.order_id)
    page = warehouse.get(ROLLBACK_URL, {"ids": placed.order_id}).content.decode()
    expected = (
        f"refund {order.amount:.2f} {order.currency} to Visa •••• 4242, release 1 unit, "
        "cancel the order, e-mail the customer: no"
    )
    assert expected in page
    draft = draft_order(api)
    page = warehouse.get(ROLLBACK_URL, {"ids": draft.order_id}).content.decode()
    assert "no refund (nothing was charged), release 1 unit" in page


def test_rollback_is_not_offered_on_a_cancelled_order(api, warehouse):
    placed = paid_order(api)
    change = f"{CHANGELIST}{placed.order_id}/change/"
    assert 'id="rollback-order"' in warehouse.get(change).content.decode()
    assert cancel(api, placed.order_id).status == 200
    assert Order.objects.get(pk=placed.order_id).status == OrderStatus.CANCELLED
    assert 'id="rollback-order"' not in warehouse.get(change).content.decode()
    page = warehouse.get(ROLLBACK_URL, {"ids": placed.order_id}).content.decode()
    assert "Nothing: the order is already cancelled." in page
