"""The receipt a person reads: the confirmation e-mail (the outbox's handler for checkout's
receipt messages) and the receipt page its link opens.

Both show the same thing, in the person's language (`Order.locale`): line items, the totals
and how they are made up, the delivery option and window, the address, the gift options and a
link to the page. Times are written in the shop's zone and name it (an e-mail cannot know where
its reader is).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from urllib.parse import urljoin
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from checkout import receipts as checkout_receipts
from checkout import selectors as checkout_selectors
from checkout.models import FulfilmentStatus, Order, OrderStatus, OutboxMessage
from widget.locale import babel_locale, html_lang


class NoSuchOrder(Exception):
    """The message names an order this database does not hold (parked after its tries)."""


def receipt_url(order: Order) -> str:
    """The receipt page's absolute URL, or "" while the order has no link."""
    if not order.receipt_key:
        return ""
    return urljoin(settings.PUBLIC_ORIGIN, reverse("widget:receipt", args=[order.receipt_key]))


def order_ref(order: Order) -> str:
    """The short code a person quotes (the first block of the order id, as the widget shows)."""
    return str(order.pk).split("-")[0].upper()


# --- the e-mail (the outbox's handler) --------------------------------------------------------


def send_receipt_email(message: OutboxMessage) -> str:
    """Send one copy of an order's receipt; returns what was done. Raises to be tried again."""
    order = (
        Order.objects.filter(pk=message.order_id)
        .select_related("owner", "buyer")
        .prefetch_related("lines")
        .first()
    )
    if order is None:
        raise NoSuchOrder(str(message.order_id))
    if order.status != OrderStatus.COMPLETED:
        # Cancelled (and refunded) before its receipt went out: "confirmed" would be untrue.
        return f"The order is {order.status} now; no receipt was sent."
    address = order.receipt_email.strip()
    if not address:
        return "The customer has no e-mail address; nothing was sent."
    with translation.override(order.locale):
        context = receipt_context(order)
        subject = pgettext("receipt", "Your %(shop)s order %(ref)s is confirmed") % {
            "shop": settings.SHOP_NAME,
            "ref": context["order_ref"],
        }
        text = render_to_string("widget/receipt/email.txt", context)
        html = render_to_string("widget/receipt/email.html", context)
    email = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[address],
        # One id per message: should a crash after sending make the sweeps send it again,
        # mail clients show the repeat as the same e-mail.
        headers={"Message-ID": f"<{message.key.replace(':', '.')}@giftgenius>"},
    )
    email.attach_alternative(html, "text/html")
    email.send()
    return f"Sent to {_masked(address)} ({message.payload.get('copy', '')})."


def _masked(address: str) -> str:
    name, _at, domain = address.partition("@")
    return f"{name[:1]}***@{domain}"


# --- the page ---------------------------------------------------------------------------------


@require_GET
@never_cache
def receipt_page(request: HttpRequest, receipt_key: str) -> HttpResponse:
    """The receipt: server-rendered, no script, printable. The key is the only credential."""
    order = checkout_receipts.order_for_receipt(receipt_key=receipt_key)
    if order is None:
        raise Http404("No receipt here.")
    with translation.override(order.locale):
        response = render(request, "widget/receipt/page.html", receipt_context(order))
    # The key is in the URL: never sent on to another site, never indexed.
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


# --- what both show ---------------------------------------------------------------------------


def receipt_context(order: Order) -> dict[str, Any]:
    """Everything a receipt shows, formatted in the active language (the totals as get_order
    gives them: checkout computes and labels them in one place)."""
    language = translation.get_language()
    placed = (order.confirmation_used_at or order.created_at).astimezone(
        ZoneInfo(settings.SHOP_TIME_ZONE)
    )
    money = checkout_selectors.order_totals(order)
    delivery = money["delivery"] or {}
    return {
        "shop_name": settings.SHOP_NAME,
        "html_lang": html_lang(language),
        "order_ref": order_ref(order),
        "placed_at": formats.date_format(placed, "DATETIME_FORMAT"),
        "shop_time_zone": settings.SHOP_TIME_ZONE,
        "lines": [
            {
                "name": line["name"],
                "quantity": line["quantity"],
                "unit_price": checkout_selectors.money_display(
                    Decimal(line["unit_price"]), order.currency
                ),
                "line_total": checkout_selectors.money_display(
                    Decimal(line["line_total"]), order.currency
                ),
            }
            for line in money["line_items"]
        ],
        "totals": money["totals"],
        "delivery_option": delivery.get("name", ""),
        "delivery_window": delivery.get("window", ""),
        "address_lines": checkout_selectors.address_lines(
            order.shipping, locale=babel_locale(language)
        ),
        "gift_message": order.gift_message,
        "gift_wrap": order.gift_wrap_name,
        "paid_with": checkout_selectors.payment_method_ref(order)["label"],
        "ship_to_recipient": order.ship_to_recipient,
        "fulfilment_status": fulfilment_label(order.fulfilment_status),
        "fulfilment_code": order.fulfilment_status,
        "carrier": order.carrier,
        "tracking_number": order.tracking_number,
        "tracking_url": order.tracking_url,
        "receipt_url": receipt_url(order),
    }


def fulfilment_label(status: str) -> str:
    labels = {
        FulfilmentStatus.UNFULFILLED: pgettext("receipt", "Not shipped yet"),
        FulfilmentStatus.SHIPPED: pgettext("receipt", "Shipped"),
        FulfilmentStatus.DELIVERED: pgettext("receipt", "Delivered"),
    }
    return labels.get(status, status)
