"""The receipt a person reads: the confirmation e-mail (the outbox's handler for checkout's
receipt messages) and the receipt page its link opens.

Both show the same thing, in the person's language (`Order.locale`): line items, the totals
and how they are made up, the delivery option and window, the address, the gift options and a
link to the page. Times are written in the shop's zone and name it (an e-mail cannot know where
its reader is).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin
from zoneinfo import ZoneInfo

from babel import Locale
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext, pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from checkout import receipts as checkout_receipts
from checkout.models import FulfilmentStatus, Order, OutboxMessage
from widget.formatting import delivery_window, money
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
        .select_related("owner")
        .prefetch_related("lines")
        .first()
    )
    if order is None:
        raise NoSuchOrder(str(message.order_id))
    address = (order.owner.email or "").strip()
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
    """Everything a receipt shows, formatted in the active language."""
    currency = order.currency
    language = translation.get_language()
    shop_zone = ZoneInfo(settings.SHOP_TIME_ZONE)
    placed = (order.confirmation_used_at or order.created_at).astimezone(shop_zone)
    return {
        "shop_name": settings.SHOP_NAME,
        "html_lang": html_lang(language),
        "order_ref": order_ref(order),
        "placed_at": formats.date_format(placed, "DATETIME_FORMAT"),
        "shop_time_zone": settings.SHOP_TIME_ZONE,
        "lines": [
            {
                "name": line.name,
                "quantity": line.quantity,
                "unit_price": money(line.unit_price, currency),
                "line_total": money(line.line_total or line.unit_price * line.quantity, currency),
            }
            for line in order.lines.all()
        ],
        "totals": total_lines(order),
        "delivery_option": order.shipping_option_name,
        "delivery_window": delivery_window(order.delivery_earliest, order.delivery_latest),
        "address_lines": address_lines(order.shipping, language=language),
        "gift_message": order.gift_message,
        "gift_wrap": order.gift_wrap_name,
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


def total_lines(order: Order) -> list[dict[str, str]]:
    """Items, shipping, gift wrap, tax and total, each with a machine code and a label."""
    currency = order.currency
    rows = [("items", pgettext("receipt", "Items"), order.items_total or order.amount)]
    if order.shipping_total or order.shipping_option_name:
        rows.append(("shipping", pgettext("receipt", "Shipping"), order.shipping_total))
    if order.gift_wrap_total:
        rows.append(("gift_wrap", pgettext("receipt", "Gift wrap"), order.gift_wrap_total))
    if order.tax_total:
        tax = order.tax_name or pgettext("receipt", "tax")
        rate = formats.number_format(order.tax_rate.normalize(), use_l10n=True)
        label = (
            pgettext("receipt", "incl. %(tax)s %(rate)s %%") % {"tax": tax, "rate": rate}
            if order.prices_include_tax
            else pgettext("receipt", "+ %(tax)s") % {"tax": tax}
        )
        rows.append(("tax", label, order.tax_total))
    rows.append(("total", gettext("Total"), order.amount))
    return [
        {"code": code, "label": label, "amount": money(amount, currency)}
        for code, label, amount in rows
    ]


def address_lines(shipping: dict[str, Any], *, language: str) -> list[str]:
    """A postal address as lines, the country by its name in `language`."""
    city = " ".join(
        part for part in (shipping.get("postal_code", ""), shipping.get("city", "")) if part
    )
    country = shipping.get("country", "")
    try:
        country_name = Locale.parse(babel_locale(language)).territories.get(country, country)
    except (ValueError, TypeError):
        country_name = country
    lines = [shipping.get("name", ""), shipping.get("line1", ""), shipping.get("line2", "")]
    lines += [city, shipping.get("state", ""), country_name]
    return [str(line) for line in lines if line]
