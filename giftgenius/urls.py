from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from checkout import views as checkout_views
from giftgenius.oauth.views import SignedInView, SignInView
from giftgenius.operations import health, prometheus
from giftgenius.transports import acp
from giftgenius.transports.rest import build_api

api = build_api()

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", prometheus.prometheus_metrics, name="metrics"),
    path("api/", api.urls),
    path("acp/checkout_sessions", acp.checkout_sessions, name="acp-sessions"),
    path("acp/checkout_sessions/<str:session_id>", acp.checkout_session, name="acp-session"),
    path("acp/checkout_sessions/<str:session_id>/complete", acp.complete, name="acp-complete"),
    path("acp/checkout_sessions/<str:session_id>/cancel", acp.cancel, name="acp-cancel"),
    path(".well-known/acp.json", acp.discovery, name="acp-discovery"),
    path("admin/", admin.site.urls),
    path("webhooks/stripe", checkout_views.stripe_webhook, name="stripe-webhook"),
    path("checkout/paid", checkout_views.payment_returned, name="checkout-paid"),
    path("checkout/not-paid", checkout_views.payment_not_made, name="checkout-not-paid"),
    path(
        "checkout/simulated-pay/<str:checkout_id>",
        checkout_views.simulated_payment_page,
        name="checkout-simulated-pay",
    ),
    path(
        "checkout/simulated-bank/<str:charge_id>",
        checkout_views.simulated_bank_page,
        name="checkout-simulated-bank",
    ),
    path("o/login/", SignInView.as_view(), name="oauth-login"),
    path("o/signed-in/", SignedInView.as_view(), name="oauth-signed-in"),
    path("", include("giftgenius.oauth.urls")),
    path("", include("widget.urls")),
    # The front door is the QA preview (staff log in first); ChatGPT itself talks to /mcp.
    path("", RedirectView.as_view(pattern_name="widget:preview"), name="home"),
]
