"""Our own sign-in and consent pages in front of django-oauth-toolkit's authorization endpoint.

Thin: the OAuth logic (PKCE, redirect URI and resource checks, codes) is the toolkit's; these
views only choose the templates and show the scopes in the person's language.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.urls import reverse_lazy
from oauth2_provider.views import AuthorizationView

from tool_runtime.registry import SCOPES


class SignInView(LoginView):
    template_name = "oauth/login.html"


class ConsentView(AuthorizationView):
    template_name = "oauth/consent.html"
    login_url = reverse_lazy("oauth-login")

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # The toolkit lets the request's `approval_prompt=auto` override the setting and skip
        # the consent page for a client the person approved before. Consent on every sign-in is
        # ours to decide (REQUEST_APPROVAL_PROMPT), not the client's to switch off.
        if "approval_prompt" in request.GET:
            request.GET = request.GET.copy()
            del request.GET["approval_prompt"]
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["scope_texts"] = [SCOPES.get(scope, scope) for scope in context.get("scopes", [])]
        return context

    def render_to_response(self, context: dict[str, Any], **kwargs: Any):
        response = super().render_to_response(context, **kwargs)
        redirect_uri = context.get("redirect_uri")
        if redirect_uri and not context.get("error"):
            # Submitting the form redirects the browser to the client, which CSP form-action
            # governs too: allow exactly the redirect URI's origin (the toolkit validated it).
            parts = urlsplit(redirect_uri)
            origin = f"{parts.scheme}://{parts.netloc}" if parts.netloc else f"{parts.scheme}:"
            response._csp_update = {"form-action": [origin]}
        return response
