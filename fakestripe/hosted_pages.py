"""The pages a person sees: Checkout's hosted payment page at a session's `url`, and the 3-D
Secure test page a `redirect_to_url` next action points at. Plain server-rendered HTML with
forms (no script), so a browser test clicks through it like a person would:

- `GET /c/pay/{session}`: the order (line items, total), a choice of Stripe test cards (and
  SEPA debits, which settle later, for a session in EUR), "Save my payment details" where the
  session enables saving, a Pay button, and "Back" to the `cancel_url`;
- `POST /c/pay/{session}`: pays; then a redirect to `success_url` (`{CHECKOUT_SESSION_ID}`
  replaced), the 3-D Secure step, or the page again with the decline;
- `GET|POST /c/pay/{session}/authenticate`: "Complete authentication" or "Fail authentication";
- `GET|POST /_fake/authenticate/{payment_intents|setup_intents}/{id}?client_secret=…`: the same
  for an intent confirmed with a `return_url`, then a redirect to that URL with Stripe's query
  (`payment_intent`, `payment_intent_client_secret`, `redirect_status`).
"""

from __future__ import annotations

import html
from typing import Any
from urllib.parse import urlencode

from aiohttp import web
from localstripe import resources
from localstripe.errors import UserError

from fakestripe import checkout_payments, checkout_sessions, setup_intents

CARDS = (
    ("4242424242424242", "Visa 4242 4242 4242 4242: succeeds"),
    ("4000002500003155", "Visa 4000 0025 0000 3155: 3-D Secure unless set up"),
    ("4000002760003184", "Visa 4000 0027 6000 3184: 3-D Secure always"),
    ("4000008260003178", "Visa 4000 0082 6000 3178: 3-D Secure, then insufficient funds"),
    ("4000000000000002", "Visa 4000 0000 0000 0002: declined"),
    ("4000000000009995", "Visa 4000 0000 0000 9995: insufficient funds"),
)
SEPA_DEBITS = (
    ("DE89370400440532013000", "SEPA Direct Debit DE89 3704 0044 0532 0130 00: succeeds later"),
    ("DE62370400440532013001", "SEPA Direct Debit DE62 3704 0044 0532 0130 01: fails later"),
)
ZERO_DECIMAL = {
    "bif",
    "clp",
    "djf",
    "gnf",
    "jpy",
    "kmf",
    "krw",
    "mga",
    "pyg",
    "rwf",
    "ugx",
    "vnd",
    "vuv",
    "xaf",
    "xof",
    "xpf",
}
CSP = "default-src 'none'; base-uri 'none'; frame-ancestors 'none'"
PAGE_PATHS = ("/c/pay/", "/_fake/authenticate/")


def _money(amount: int, currency: str) -> str:
    value = amount if currency in ZERO_DECIMAL else f"{amount / 100:.2f}"
    return f"{value} {currency.upper()}"


def _page(title: str, body: str, status: int = 200) -> web.Response:
    text = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>'
        f"{html.escape(title)}</title></head><body><main><h1>{html.escape(title)}</h1>"
        f"{body}</main></body></html>"
    )
    return web.Response(
        text=text,
        status=status,
        content_type="text/html",
        headers={"Content-Security-Policy": CSP, "Cache-Control": "no-store"},
    )


def _session(request: web.Request) -> Any:
    try:
        return checkout_sessions.retrieve(request.match_info["id"])
    except UserError:
        raise web.HTTPNotFound(text="No such Checkout Session.") from None


def _done(session: Any) -> web.Response:
    if session.success_url:
        raise web.HTTPSeeOther(session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id))
    return _page("Payment complete", "<p>Your payment was received.</p>")


async def checkout_page(request: web.Request, error: str | None = None) -> web.Response:
    session = _session(request)
    if session.status == "expired":
        return _page("This Checkout Session is no longer active", "<p>It has expired.</p>", 410)
    if session.status == "complete":
        return _page("Payment complete", "<p>This Checkout Session is already paid.</p>")
    rows = "".join(
        f"<li>{html.escape(item['description'])} x {item['quantity']}: "
        f"{_money(item['amount_total'], item['currency'])}</li>"
        for item in session._line_items
    )
    if session.shipping_cost:
        rows += (
            f"<li>Shipping: {_money(session.shipping_cost['amount_total'], session.currency)}</li>"
        )
    methods = CARDS + (SEPA_DEBITS if "sepa_debit" in session.payment_method_types else ())
    choices = "".join(
        f'<p><input type="radio" name="payment_method" id="pm-{value}" value="{value}"'
        f'{" checked" if index == 0 else ""}><label for="pm-{value}">{html.escape(label)}</label></p>'
        for index, (value, label) in enumerate(methods)
    )
    saving = session.saved_payment_method_options or {}
    save = (
        '<p><input type="checkbox" name="save" id="save" value="on"><label for="save">'
        "Save my payment details for future purchases</label></p>"
        if saving.get("payment_method_save") == "enabled"
        else ""
    )
    alert = f'<p role="alert">{html.escape(error)}</p>' if error else ""
    verb = {"book": "Book", "donate": "Donate"}.get(session.submit_type or "", "Pay")
    back = (
        f'<p><a href="{html.escape(session.cancel_url)}">Back</a></p>' if session.cancel_url else ""
    )
    body = (
        f"<ul>{rows}</ul><p>Total: <strong>{_money(session.amount_total, session.currency)}"
        f"</strong></p>{alert}<form method='post' action='/c/pay/{session.id}'><fieldset><legend>Payment method</legend>"
        f'{choices}</fieldset>{save}<button type="submit">{verb} '
        f"{_money(session.amount_total, session.currency)}</button></form>{back}"
    )
    return _page("Checkout (localstripe test mode)", body)


async def pay(request: web.Request) -> web.Response:
    session = _session(request)
    if session.status != "open":
        return await checkout_page(request)
    form = await request.post()
    value = str(form.get("payment_method", ""))
    if value in dict(CARDS):
        card = {"number": value, "exp_month": "12", "exp_year": "2034", "cvc": "123"}
        method = resources.PaymentMethod(type="card", card=card)
    elif value in dict(SEPA_DEBITS) and "sepa_debit" in session.payment_method_types:
        method = resources.PaymentMethod(
            type="sepa_debit",
            sepa_debit={"iban": value},
            billing_details={"email": session.customer_email},
        )
    else:
        return await checkout_page(request, error="Choose a payment method.")
    outcome = checkout_payments.pay(session, method, save=form.get("save") == "on")
    if outcome == "authenticate":
        raise web.HTTPSeeOther(f"/c/pay/{session.id}/authenticate")
    if outcome is not None:
        return await checkout_page(request, error=outcome)
    return _done(session)


def _challenge(action: str, hidden: dict[str, str] | None = None) -> web.Response:
    fields = "".join(
        f'<input type="hidden" name="{k}" value="{html.escape(v)}">'
        for k, v in (hidden or {}).items()
    )
    body = (
        "<p>This is a test 3-D Secure page: complete or fail the authentication.</p>"
        f'<form method="post" action="{html.escape(action)}">{fields}'
        '<button type="submit" name="outcome" value="complete">Complete authentication</button> '
        '<button type="submit" name="outcome" value="fail">Fail authentication</button></form>'
    )
    return _page("3D Secure test authentication", body)


async def session_challenge(request: web.Request) -> web.Response:
    session = _session(request)
    if session.status != "open" or session.payment_intent is None:
        return await checkout_page(request)
    return _challenge(f"/c/pay/{session.id}/authenticate")


async def session_authenticate(request: web.Request) -> web.Response:
    session = _session(request)
    if session.status != "open" or session.payment_intent is None:
        return await checkout_page(request)
    form = await request.post()
    problem = checkout_payments.authenticate(session, success=form.get("outcome") == "complete")
    if problem is not None:
        return await checkout_page(request, error=problem)
    return _done(session)


def _intent(request: web.Request, secret: str) -> tuple[str, Any]:
    kind, id = request.match_info["kind"], request.match_info["id"]
    cls = {"payment_intents": resources.PaymentIntent, "setup_intents": resources.SetupIntent}
    if kind not in cls:
        raise web.HTTPNotFound()
    try:
        intent = cls[kind]._api_retrieve(id)
    except UserError:
        raise web.HTTPNotFound() from None
    if secret != intent.client_secret:
        raise web.HTTPUnauthorized(text="Wrong client_secret.")
    return kind, intent


async def intent_challenge(request: web.Request) -> web.Response:
    secret = request.query.get("client_secret", "")
    _intent(request, secret)
    return _challenge(request.path, {"client_secret": secret})


async def intent_authenticate(request: web.Request) -> web.Response:
    form = await request.post()
    secret = str(form.get("client_secret", ""))
    kind, intent = _intent(request, secret)
    success = form.get("outcome") == "complete"
    return_url = intent._return_url
    try:
        if kind == "payment_intents":
            intent = resources.PaymentIntent._api_authenticate(
                intent.id, client_secret=secret, success=success
            )
        else:
            intent = setup_intents.authenticate_setup(
                resources.SetupIntent, intent.id, client_secret=secret, success=success
            )
    except UserError:
        pass  # declined after authenticating: the intent says so
    name = "payment_intent" if kind == "payment_intents" else "setup_intent"
    status = "succeeded" if intent.status in ("succeeded", "processing") else "failed"
    query = urlencode({name: intent.id, f"{name}_client_secret": secret, "redirect_status": status})
    raise web.HTTPSeeOther(f"{return_url}{'&' if '?' in return_url else '?'}{query}")


def add_routes(app: web.Application) -> None:
    app.router.add_get("/c/pay/{id}", checkout_page)
    app.router.add_post("/c/pay/{id}", pay)
    app.router.add_get("/c/pay/{id}/authenticate", session_challenge)
    app.router.add_post("/c/pay/{id}/authenticate", session_authenticate)
    app.router.add_get("/_fake/authenticate/{kind}/{id}", intent_challenge)
    app.router.add_post("/_fake/authenticate/{kind}/{id}", intent_authenticate)
