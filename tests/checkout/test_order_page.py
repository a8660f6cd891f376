"""The staff's order list and order page, as a shop's read: who bought what for whom, found by
the customer's name or e-mail or the short code; on the page, the order on top with the saga
timeline beside it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tests.fixtures import SHIPPING, order_of, paid_order

pytestmark = [
    pytest.mark.django_db(databases=["default", "payment_ledger"]),
    pytest.mark.usefixtures("demo_catalog"),
]

CHANGELIST = "/admin/checkout/order/"


@pytest.fixture
def staff(db, django_user_model):
    user = django_user_model.objects.create_user(username="desk", password="pw", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="checkout", codename__startswith="view_")
    )
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def customer(user):
    user.first_name, user.last_name, user.email = "Grace", "Hopper", "grace@example.com"
    user.save()
    return user


def rows(page) -> str:
    html = page.content.decode()
    return html[html.index('id="result_list"') :]


def test_the_list_shows_customer_product_and_recipient(api, staff, customer):
    placed = paid_order(api)
    order = order_of(placed.order_id)
    listing = rows(staff.get(CHANGELIST))
    assert "Grace Hopper" in listing and "grace@example.com" in listing
    assert order.lines.get().name in listing and SHIPPING["name"] in listing
    assert str(order.pk).split("-")[0].upper() in listing
    assert "payment_method_id" not in listing and str(order.pk) not in listing.replace(
        f"/{order.pk}/", ""
    )


@pytest.mark.parametrize("term", ["grace hopper", "Hopper", "grace@example", "short code"])
def test_an_order_is_found_by_customer_name_email_or_short_code(api, staff, customer, term):
    placed = paid_order(api)
    other = paid_order(api)
    code = placed.order_id.split("-")[0]
    query = code.upper() if term == "short code" else term
    listing = rows(staff.get(CHANGELIST, {"q": query}))
    assert f"/{placed.order_id}/" in listing
    if term == "short code":
        assert f"/{other.order_id}/" not in listing


def test_a_search_that_matches_nothing_finds_nothing(api, staff, customer):
    paid_order(api)
    html = staff.get(CHANGELIST, {"q": "nobody-like-this"}).content.decode()
    assert 'id="result_list"' not in html and "0 results" in html


def test_the_order_page_shows_the_order_on_top_and_the_timeline_beside(api, staff, customer):
    placed = paid_order(api)
    order = order_of(placed.order_id)
    html = staff.get(f"{CHANGELIST}{placed.order_id}/change/").content.decode()
    overview = html[html.index('id="order-overview"') : html.index('id="order-timeline"')]
    assert "Grace Hopper" in overview and "grace@example.com" in overview
    assert order.lines.get().name in overview
    # The address formatted as lines, not as JSON.
    assert "Ada Lovelace<br>12 Market Street<br>62701 Springfield<br>United States" in overview
    assert "{&quot;" not in overview and '{"' not in overview
    assert "Total" in overview and str(order.amount) in overview
    timeline = html[html.index('id="order-timeline"') :]
    assert "Charge card" in timeline and "Complete" in timeline
    assert order.receipt_key not in html  # a credential, not shown in the record
