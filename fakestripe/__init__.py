"""The fake Stripe API GiftGenius develops and tests against: localstripe 1.15.10 (PyPI, a
stateful fake Stripe API) with what it lacks added, served by `bin/localstripe`.

What each module adds (docs/payments.md §4.2 lists every difference from Stripe):
- core: an in-memory store, Stripe's decline and 3-D Secure test cards, card errors, the
  `Idempotency-Key` header;
- params: every request's parameters checked against the installed `stripe` SDK's types;
- intents, setup_intents: PaymentIntents and SetupIntents as Stripe has them (3-D Secure on and
  off session, `setup_future_usage`, `payment_method_data`, saving cards), customers' saved cards;
- checkout_sessions, checkout_line_items, checkout_payments, hosted_pages: Checkout Sessions,
  and the page a person pays them on;
- shared_payment: Shared Payment Tokens granted by an agent, and charging them;
- delivery: webhooks signed and retried as Stripe does.
"""

from __future__ import annotations

from typing import Any


def build_app() -> Any:
    """localstripe's aiohttp application, patched (import order matters: localstripe's server
    captures its handlers when it is imported)."""
    from fakestripe import core, delivery, intents, setup_intents

    core.patch()
    intents.patch()
    setup_intents.patch()
    delivery.patch()

    from localstripe import server

    from fakestripe import (
        checkout_payments,
        checkout_sessions,
        hosted_pages,
        params,
        shared_payment,
    )
    from fakestripe.stock import origin_middleware

    app = server.app
    # The hosted pages are for people, who have no API key.
    checked_auth = server.auth_middleware

    from aiohttp import web

    @web.middleware
    async def auth(request, handler):
        if request.path.startswith(hosted_pages.PAGE_PATHS):
            return await handler(request)
        return await checked_auth(request, handler)

    position = app.middlewares.index(checked_auth)
    app.middlewares[position] = auth
    app.middlewares.insert(position + 1, params.middleware())  # authenticated first, as at Stripe
    # Outermost: the idempotency replay keeps the final answer (errors included).
    app.middlewares.insert(0, core.idempotency_middleware())
    app.middlewares.insert(1, origin_middleware())
    for module in (
        intents,
        setup_intents,
        checkout_sessions,
        hosted_pages,
        shared_payment,
        delivery,
    ):
        module.add_routes(app)
    checkout_payments.add_listener()
    return app
