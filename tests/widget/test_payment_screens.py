"""The payment screens keep their context: a failed payment names the card and keeps the order
and the address in view, a service that keeps timing out says how long the gift stays held, a
waiting order asks again by itself, and an order waiting on a payment page says where to go."""

from __future__ import annotations

import json
import re
import uuid
from datetime import timedelta
from html import unescape

import pytest
from django.utils import timezone

from checkout.models import Order, Reservation, ReservationStatus
from tests.widget.test_fragments import ORDER, WORKFLOW, ok, render, visible_text
from tests.widget.test_views import act, attr_args, shopper, signed_in
from tool_runtime.outcome import ToolOutcome
from widget.rendering import render_fragment
from widget.screens.summary import summary_context

__all__ = ["shopper"]  # the signed-in shopper fixture (tests/widget/test_views.py)

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])
PAYMENT_PAGE = "https://checkout.stripe.com/c/pay/cs_test_a1"


def commit_with(client, card: str, *, locale: str = "en") -> str:
    """Through the widget's own endpoint: a gift chosen, the order prepared with `card` and
    an address, then confirmed; the confirmation's fragment."""
    started = act(client, "start_gift_workflow", {}).content.decode()
    workflow_id = json.loads(unescape(re.search(r'data-gg-args="([^"]*)"', started).group(1)))[
        "workflow_id"
    ]
    brief = {"relationship": "friend", "interests": ["coffee"], "budget_min": 10, "currency": "USD"}
    ideas = act(
        client, "suggest_gifts", {"workflow_id": workflow_id, **brief, "budget_max": 60}
    ).content.decode()
    act(client, "select_gift", attr_args(ideas, "select-gift"))
    prepare = {
        "workflow_id": workflow_id,
        "payment_method_id": card,
        "shipping": {
            "name": "Ann Smith",
            "line1": "5 Elm St",
            "city": "Springfield",
            "postal_code": "12345",
            "country": "US",
        },
        "idempotency_key": str(uuid.uuid4()),
    }
    summary = act(client, "prepare_order", prepare, locale=locale).content.decode()
    confirm = attr_args(summary, "confirm-purchase")
    return act(
        client, "commit_order", {**confirm, "idempotency_key": str(uuid.uuid4())}, locale=locale
    ).content.decode()


@pytest.mark.parametrize(
    ("card", "code", "words"),
    [
        ("pm_card_declined", "CARD_DECLINED", "Visa •••• 0002 was declined."),
        (
            "pm_card_insufficient_funds",
            "INSUFFICIENT_FUNDS",
            "Visa •••• 9995 was declined for insufficient funds.",
        ),
    ],
)
def test_a_decline_names_the_card_and_keeps_the_order_and_the_address(
    shopper, demo_catalog, card, code, words
):
    html = commit_with(signed_in(shopper), card)
    text = visible_text(html)
    assert f'data-error-code="{code}"' in html
    assert words in text and "Nothing was charged" in text
    assert "Ann Smith, 5 Elm St, 12345 Springfield, United States" in text  # the address, as typed
    order = Order.objects.get(payment_method_id=card)
    assert f"{order.amount}" in text.replace(",", "")  # the total stays on screen
    assert 'data-testid="change-payment"' in html and 'data-testid="retry"' not in html


def test_a_decline_is_named_in_the_persons_language(shopper, demo_catalog):
    html = commit_with(signed_in(shopper), "pm_card_declined", locale="pl")
    text = visible_text(html)
    assert "Karta Visa •••• 0002 została odrzucona." in text
    assert "Stany Zjednoczone" in text


def test_a_service_that_keeps_timing_out_says_the_gift_is_no_longer_held_and_what_to_do(
    shopper, demo_catalog
):
    html = commit_with(signed_in(shopper), "pm_card_timeout_always")
    text = visible_text(html)
    assert 'data-error-code="PAYMENT_TIMEOUT"' in html
    # The rollback released the hold: the screen says so rather than promising a time.
    assert not Reservation.objects.filter(status=ReservationStatus.HELD).exists()
    assert "The gift is no longer held for you" in text
    assert "Try again in a few minutes, or pay with another card." in text
    assert 'data-testid="retry"' in html and 'data-testid="change-payment"' in html
    assert "Mastercard •••• 0069" in text


def test_a_timeout_with_the_stock_still_held_says_until_when_in_the_persons_time(
    shopper, demo_catalog
):
    client = signed_in(shopper)
    commit_with(client, "pm_card_timeout_always")
    order = Order.objects.get(payment_method_id="pm_card_timeout_always")
    # The order's hold taken again (as a retry does), ending at a known moment.
    until = timezone.now().replace(hour=16, minute=45, second=0, microsecond=0) + timedelta(days=1)
    Reservation.objects.filter(order=order).update(status=ReservationStatus.HELD, expires_at=until)
    error = {
        "code": "PAYMENT_TIMEOUT",
        "message": "for the model",
        "retryable": True,
        "details": {"order_id": str(order.pk)},
    }
    outcome = ToolOutcome("commit_order", {"ok": False, "error": error}, {}, 504, "cid")
    text = visible_text(
        render_fragment(
            tool="commit_order", outcome=outcome, locale="en", time_zone="Europe/Warsaw"
        )
    )
    assert "We hold the gift for you until 5:45" in text  # 16:45 UTC is 17:45 in Warsaw
    assert "UTC" not in text


def test_while_paying_the_confirm_button_says_what_is_happening(shopper, demo_catalog):
    html = commit_with(signed_in(shopper), "pm_card_visa")
    assert 'data-status="completed"' in html
    order = Order.objects.get(status="completed")
    body = {"workflow_id": str(order.workflow_id), "order_id": str(order.pk)}
    paying = summary_context({**body, "payment_method": {"id": "pm_card_visa"}}, {})
    hosted = summary_context({**body, "payment_method": {"id": "new_card"}}, {})
    assert paying["confirm"].busy_label == "Paying…"
    assert hosted["confirm"].busy_label == "Opening the payment page…"


@pytest.mark.parametrize("status", ["payment_pending", "processing"])
def test_a_waiting_order_asks_again_by_itself(status):
    html = render("get_order", ok("get_order", {"order_id": ORDER, "status": status}))
    assert 'data-gg-poll="get_order"' in html
    assert json.loads(unescape(re.search(r'data-gg-args="([^"]*)"', html).group(1))) == {
        "order_id": ORDER
    }


@pytest.mark.parametrize("status", ["completed", "failed", "cancelled", "draft"])
def test_a_settled_order_does_not_poll(status):
    html = render("get_order", ok("get_order", {"order_id": ORDER, "status": status}))
    assert "data-gg-poll" not in html


def awaiting(reason: str, **next_action) -> dict:
    return {
        "order_id": ORDER,
        "workflow_id": WORKFLOW,
        "status": "awaiting_payment",
        "next_action": {
            "type": "open_url",
            "reason": reason,
            "url": PAYMENT_PAGE,
            "expires_at": "2026-12-06T16:45:00+00:00",
            **next_action,
        },
    }


def test_awaiting_payment_opens_the_page_says_until_when_and_offers_cancel():
    html = render("commit_order", ok("commit_order", awaiting("hosted_checkout")))
    text = visible_text(html)
    assert "Finish paying in the tab that opened." in text
    assert "The gift is held for you until 4:45" in text
    link = re.search(r'<a [^>]*data-testid="open-payment-page"[^>]*>', html).group(0)
    assert f'href="{PAYMENT_PAGE}"' in link and "data-gg-open-on-show" in link
    assert 'rel="noopener noreferrer"' in link
    cancel = attr_args(html, "cancel-order")
    assert cancel["order_id"] == ORDER
    assert re.search(r'data-testid="cancel-order"[^>]*data-gg-idem', html)
    assert 'data-gg-poll="get_order"' in html


def test_a_bank_confirmation_says_the_bank_asks():
    html = render("commit_order", ok("commit_order", awaiting("authenticate")), locale="uk")
    text = visible_text(html)
    assert "Ваш банк просить підтвердити оплату." in text
    assert "Відкрити підтвердження ще раз" in text


@pytest.mark.parametrize("url", ["javascript:alert(1)", "", "data:text/html,x"])
def test_an_awaiting_order_without_a_web_page_to_open_offers_no_link(url):
    html = render("get_order", ok("get_order", awaiting("hosted_checkout", url=url)))
    assert "open-payment-page" not in html and "javascript:" not in html
    assert 'data-gg-poll="get_order"' in html  # it still updates by itself


def test_an_expired_payment_page_says_so_and_offers_to_pay_again():
    body = {
        "order_id": ORDER,
        "workflow_id": WORKFLOW,
        "status": "failed",
        "failure": {"code": "CHECKOUT_EXPIRED", "message": "for the model", "retryable": False},
    }
    html = render("get_order", ok("get_order", body), locale="pl")
    text = visible_text(html)
    assert "Zapłać ponownie" in text
    assert attr_args(html, "go-to-checkout") == {"workflow_id": WORKFLOW}
    assert "data-gg-poll" not in html and "open-payment-page" not in html
