from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from checkout import views as checkout_views
from giftgenius import metrics_views, views
from giftgenius.api import build_api
from giftgenius.oauth_views import SignInView

api = build_api()

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    path("metrics", metrics_views.prometheus_metrics, name="metrics"),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
    path("webhooks/stripe", checkout_views.stripe_webhook, name="stripe-webhook"),
    path("o/login/", SignInView.as_view(), name="oauth-login"),
    path("", include("giftgenius.oauth_urls")),
    path("", include("widget.urls")),
    # The front door is the QA preview (staff log in first); ChatGPT itself talks to /mcp.
    path("", RedirectView.as_view(pattern_name="widget:preview"), name="home"),
]
