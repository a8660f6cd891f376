"""ChatGPT's payment sheet (window.openai.requestCheckout): the widget hands the host an ACP
checkout session for the draft the person is confirming, and ChatGPT pays it by calling the
`complete_checkout` tool with a Shared Payment Token. Both sides are the ACP session service
(checkout.agentic.sessions): the sheet's session is the workflow's own session, and its
completion is ACP's complete."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from checkout.agentic import shape
from checkout.agentic.sessions import new_session_id
from checkout.models import CheckoutSession, Order

STRIPE = "stripe"


def sheet_session(*, owner: AbstractBaseUser, order: Order) -> dict[str, Any]:
    """The ACP checkout session over `order`'s workflow (made on first use, its address the
    order's), with the fields OpenAI's reference adds for the sheet: `payment_provider` and
    `payment_mode`.

    A session the person can no longer pay (canceled over ACP, or past ACP_SESSION_TTL_SECONDS
    when they come back to the workflow) is started afresh under a new id: the draft being
    confirmed is new, and the sheet must be able to pay it."""
    session, created = CheckoutSession.objects.get_or_create(
        workflow_id=order.workflow_id,
        defaults={
            "id": new_session_id(),
            "owner": owner,
            "locale": order.locale or "en",
        },
    )
    oldest = timezone.now() - timedelta(seconds=settings.ACP_SESSION_TTL_SECONDS)
    if not created and (session.canceled or session.created_at <= oldest):
        CheckoutSession.objects.filter(pk=session.pk).update(
            id=new_session_id(),
            canceled=False,
            created_at=timezone.now(),
            directory_server="",
        )
        # Read by workflow: a concurrent prepare may have renewed it first.
        session = CheckoutSession.objects.get(workflow_id=order.workflow_id)
    details = _fulfillment_details(order.shipping or {})
    if session.fulfillment_details != details:
        session.fulfillment_details = details
        session.save(update_fields=["fulfillment_details", "updated_at"])
    return {
        **shape.session_view(session),
        "payment_provider": {
            "provider": STRIPE,
            "merchant_id": settings.CHATGPT_MERCHANT_ID,
            "supported_payment_methods": ["card"],
        },
        # Test mode takes test cards only: nothing but a live key moves money.
        "payment_mode": "live" if settings.STRIPE_API_KEY.startswith("sk_live_") else "test",
    }


def _fulfillment_details(shipping: dict[str, str]) -> dict[str, Any]:
    address = {
        "name": shipping.get("name", ""),
        "line_one": shipping.get("line1", ""),
        "line_two": shipping.get("line2", ""),
        "city": shipping.get("city", ""),
        "state": shipping.get("state", ""),
        "country": shipping.get("country", ""),
        "postal_code": shipping.get("postal_code", ""),
    }
    return {"name": address["name"], "address": {k: v for k, v in address.items() if v}}


def complete_body(*, buyer: dict[str, Any] | None, token: str) -> dict[str, Any]:
    """The sheet's payment data as ACP's CheckoutSessionCompleteRequest."""
    body: dict[str, Any] = {
        "payment_data": {
            "handler_id": "stripe_spt",
            "instrument": {"type": "card", "credential": {"type": "spt", "token": token}},
        }
    }
    if buyer:
        body["buyer"] = buyer
    return body
