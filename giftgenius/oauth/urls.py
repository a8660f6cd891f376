"""The authorization server's routes (django-oauth-toolkit), under its own URL namespace.

Metadata lives at the origin root, as RFC 8414 and RFC 9728 place it (also the path-suffixed
form, e.g. /.well-known/oauth-protected-resource/mcp, which MCP clients try first); the OAuth
endpoints live under /o/, with our own consent page in place of the toolkit's.
"""

from django.urls import path
from oauth2_provider import urls as dot_urls
from oauth2_provider import views as dot_views

from giftgenius.oauth.views import (
    ConsentView,
    RegistrationManagementView,
    RegistrationView,
    TokenView,
)

app_name = "oauth2_provider"

urlpatterns = [
    *dot_urls.metadata_urlpatterns,
    path("o/authorize/", ConsentView.as_view(), name="authorize"),
    path("o/token/", TokenView.as_view(), name="token"),
    path("o/revoke_token/", dot_views.RevokeTokenView.as_view(), name="revoke-token"),
    path("o/introspect/", dot_views.IntrospectTokenView.as_view(), name="introspect"),
    path("o/register/", RegistrationView.as_view(), name="dcr-register"),
    path(
        "o/register/<str:client_id>/",
        RegistrationManagementView.as_view(),
        name="dcr-register-management",
    ),
]
