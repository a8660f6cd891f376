"""Our own sign-in and consent pages in front of django-oauth-toolkit's authorization endpoint.

Thin: the OAuth logic (PKCE, redirect URI and resource checks, codes) is the toolkit's; these
views only choose the templates and show the scopes in the person's language.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import LoginView
from django.urls import reverse_lazy
from oauth2_provider.views import AuthorizationView

from giftgenius.registry import SCOPES


class SignInView(LoginView):
    template_name = "oauth/login.html"


class ConsentView(AuthorizationView):
    template_name = "oauth/consent.html"
    login_url = reverse_lazy("oauth-login")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["scope_texts"] = [SCOPES.get(scope, scope) for scope in context.get("scopes", [])]
        return context
