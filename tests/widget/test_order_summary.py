"""The checkout summary: line items, the delivery option chooser with dates, gift options and
the totals breakdown, in the person's language, through the widget's own endpoint."""

from __future__ import annotations

import json
import re
import uuid
from html import unescape

import pytest
from django.test import Client

from checkout.models import Order
from tests.fixtures import SHIPPING, gift_selected, make_product

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])

POLAND = {**SHIPPING, "country": "PL", "city": "Kraków", "postal_code": "30-001"}


def act(client: Client, tool: str, args: dict, *, locale: str = "en") -> str:
    response = client.post(
        f"/widget/actions/{tool}",
        data=json.dumps(args),
        content_type="application/json",
        HTTP_X_GG_LOCALE=locale,
    )
    assert response.status_code == 200
    return response.content.decode()


def text_of(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def totals_shown(html: str) -> dict[str, str]:
    rows = re.findall(r'<div data-total="([a-z_]+)"><dt>(.*?)</dt><dd[^>]*>(.*?)</dd>', html)
    return {code: f"{unescape(label)} = {unescape(amount)}" for code, label, amount in rows}


@pytest.fixture
def shopper_client(user) -> Client:
    client = Client(SERVER_NAME="127.0.0.1")
    client.force_login(user)
    return client


def prepare_args(workflow_id: str, **extra) -> dict:
    return {
        "workflow_id": workflow_id,
        "payment_method_id": "pm_card_visa",
        "shipping": POLAND,
        "idempotency_key": str(uuid.uuid4()),
        **extra,
    }


def test_the_summary_shows_lines_options_and_totals_in_polish(api, shopper_client):
    workflow_id = gift_selected(api, make_product(price="30.00"))
    html = act(
        shopper_client,
        "prepare_order",
        prepare_args(workflow_id, shipping_option="express", gift_wrap="classic"),
        locale="pl",
    )
    assert 'data-gg-state="summary"' in html
    assert "Coffee grinder GG-CHK-GRINDER" in text_of(html)
    assert totals_shown(html) == {
        "items": "Produkty = 30,00\xa0USD",
        "shipping": "Dostawa: Express = 9,90\xa0USD",
        "gift_wrap": "Opakowanie prezentowe: Classic paper and ribbon = 4,90\xa0USD",
        "tax": "w tym VAT 23 % = 8,38\xa0USD",  # 5.61 + 1.85 + 0.92
        "total": "Razem = 44,80\xa0USD",
    }
    options = re.findall(r'name="shipping_option" value="([a-z-]+)"( checked)?', html)
    assert options == [("standard", ""), ("economy-europe", ""), ("express", " checked")]
    assert re.search(r"Express: 9,90 USD, dostawa \d+", text_of(html))  # \xa0 read as a space
    assert re.search(r'name="gift_wrap" value="classic" checked', html)
    assert "Wiadomość do prezentu" in text_of(html) and "%(" not in text_of(html)
    assert "30-001 Kraków, Polska" in text_of(html)  # the country by its name, not "PL"


def test_choosing_another_option_in_the_summary_reprices_the_same_order(api, shopper_client):
    workflow_id = gift_selected(api, make_product(price="30.00"))
    first = act(
        shopper_client, "prepare_order", prepare_args(workflow_id, shipping_option="express")
    )
    form = re.search(r'data-gg-args="([^"]*)" data-gg-idem data-testid="order-options"', first)
    reprice = json.loads(unescape(form.group(1)))
    assert reprice == {
        "workflow_id": workflow_id,
        "payment_method_id": "pm_card_visa",
        "shipping": POLAND,
    }
    # What the bridge posts: the form's fields over its arguments.
    second = act(
        shopper_client,
        "prepare_order",
        {
            **reprice,
            "shipping_option": "standard",
            "gift_wrap": "",
            "gift_message": "Happy birthday! 🎉",
            "ship_to_recipient": "true",
            "quantity": 1,
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    assert totals_shown(second)["total"] == "Total = $30.00"
    order = Order.objects.get()
    assert (order.shipping_option, order.gift_message, order.ship_to_recipient) == (
        "standard",
        "Happy birthday! 🎉",
        True,
    )
    assert order.reservations.count() == 1


def test_a_gift_message_the_printable_rule_refuses_is_an_error_naming_the_field(
    api, shopper_client
):
    workflow_id = gift_selected(api, make_product(price="30.00"))
    html = act(
        shopper_client, "prepare_order", prepare_args(workflow_id, gift_message="Hi\u202eyou")
    )
    assert 'data-error-code="VALIDATION_ERROR"' in html
    assert not Order.objects.exists()
