"""HTTP endpoints of checkout: the payment provider's signed webhooks, the pages the provider's
payment page sends the person back to, and the simulator's own payment page."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from checkout import hosted_pages, webhooks
from checkout.payments.provider import CheckoutStatus
from tool_runtime.observability import get_logger


@csrf_exempt  # the caller is Stripe, proven by the signature, not a browser session
@require_POST
def stripe_webhook(request: HttpRequest) -> JsonResponse:
    if not settings.STRIPE_WEBHOOK_SECRET:
        return _error(404, "WEBHOOKS_NOT_CONFIGURED", "Stripe webhooks are not configured here.")
    payload = _bounded_body(request, limit=settings.WEBHOOK_MAX_BODY_BYTES)
    try:
        if payload is None:
            raise webhooks.too_large()
        receipt = webhooks.receive_stripe_event(
            payload=payload, signature_header=request.headers.get("Stripe-Signature")
        )
    except webhooks.WebhookRejected as exc:
        # Never the body or the signature: a PaymentIntent carries its client secret.
        get_logger(webhooks.LOGGER).warning(
            "webhook_rejected", error=exc.code, body_bytes=len(payload or b"")
        )
        return _error(400, exc.code, exc.message, field=exc.field)
    return JsonResponse(
        {"received": True, "event_id": receipt.event_id, "status": receipt.status}, status=200
    )


def _bounded_body(request: HttpRequest, *, limit: int) -> bytes | None:
    """The body, or None when it is larger than `limit` (then never read in full)."""
    declared = request.META.get("CONTENT_LENGTH") or ""
    if declared.isdigit() and int(declared) > limit:
        return None
    body = request.read(limit + 1)
    return None if len(body) > limit else body


def _error(status: int, code: str, message: str, *, field: str | None = None) -> JsonResponse:
    error = {"code": code, "message": message, **({"field": field} if field else {})}
    return JsonResponse({"error": error}, status=status)


# --- back from the payment page, and the simulator's own page ---------------------------------
# Nothing on these pages names an order: the session id in the address is only a reason to ask
# the provider (checkout.hosted_pages).


@require_GET
def payment_returned(request: HttpRequest) -> HttpResponse:
    # From a Checkout Session, or back from 3-D Secure on a saved card's payment.
    checkout_id = request.GET.get("session_id") or request.GET.get("payment_intent") or ""
    paid = hosted_pages.returned_paid(checkout_id=checkout_id[:300])
    return render(request, "checkout/payment_returned.html", {"paid": paid})


@require_GET
def payment_not_made(request: HttpRequest) -> HttpResponse:
    return render(request, "checkout/payment_not_made.html")


@require_http_methods(["GET", "POST"])
def simulated_payment_page(request: HttpRequest, checkout_id: str) -> HttpResponse:
    if request.method == "POST":
        page = hosted_pages.pay_simulated_page(
            checkout_id=checkout_id,
            payment_method_id=request.POST.get("payment_method", "")[:64],
        )
    else:
        page = hosted_pages.simulated_page(checkout_id=checkout_id)
    if page is None:
        raise Http404("No such payment page.")
    if page.page.status == CheckoutStatus.COMPLETE:
        return redirect(page.success_url)
    return render(request, "checkout/simulated_payment_page.html", {"page": page})


@require_http_methods(["GET", "POST"])
def simulated_bank_page(request: HttpRequest, charge_id: str) -> HttpResponse:
    charge_id = charge_id[:300]
    if request.method == "POST":
        confirmed = request.POST.get("answer") == "confirm"
        if not hosted_pages.simulated_bank_waits(charge_id=charge_id):
            raise Http404("No such payment to confirm.")
        hosted_pages.answer_simulated_bank(charge_id=charge_id, confirmed=confirmed)
        # Back as from a real bank: that page asks the provider what became of it.
        return redirect(f"/checkout/paid?payment_intent={charge_id}")
    if not hosted_pages.simulated_bank_waits(charge_id=charge_id):
        raise Http404("No such payment to confirm.")
    return render(request, "checkout/simulated_bank_page.html")
