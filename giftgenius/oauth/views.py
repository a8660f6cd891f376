"""Our own sign-in and consent pages in front of django-oauth-toolkit's authorization endpoint,
and its registration and token endpoints behind our boundary checks.

Thin: the OAuth logic (PKCE, redirect URI and resource checks, codes) is the toolkit's, what we
refuse first is giftgenius.oauth.boundaries'; these views choose the templates, show the scopes
in the person's language, and answer a refusal in OAuth's error shape.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse_lazy
from django.views.generic import TemplateView
from oauth2_provider import views as dot_views
from oauth2_provider.views import AuthorizationView

from giftgenius.oauth import boundaries
from tool_runtime.registry import SCOPES


class SignInView(LoginView):
    template_name = "oauth/login.html"


class SignedInView(TemplateView):
    """Where a sign-in without `next` lands (an app's sign-in always carries one)."""

    template_name = "oauth/signed_in.html"


class RegistrationView(dot_views.DynamicClientRegistrationView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal = boundaries.registration_refusal(request)
        if refusal:
            return refusal.response()
        return super().post(request, *args, **kwargs)


class RegistrationManagementView(dot_views.DynamicClientRegistrationManagementView):
    def put(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal = boundaries.registration_refusal(request, count=False)
        if refusal:
            return refusal.response()
        return super().put(request, *args, **kwargs)


class TokenView(dot_views.TokenView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal = boundaries.token_request_refusal(request)
        if refusal:
            return refusal.response()
        response = super().post(request, *args, **kwargs)
        if response.content.startswith(b"{") and "json" not in response.get("Content-Type", ""):
            # oauthlib leaves the type off a custom error (invalid_target): RFC 6749 §5.2's JSON.
            response["Content-Type"] = "application/json"
        return response


class ConsentView(AuthorizationView):
    template_name = "oauth/consent.html"
    login_url = reverse_lazy("oauth-login")

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal = boundaries.form_refusal(request.GET) or boundaries.form_refusal(request.POST)
        if refusal:
            # Nothing in the request can be trusted to redirect to: say it on the page.
            error = {"error": refusal.error, "description": refusal.description}
            return render(request, self.template_name, {"error": error}, status=400)
        return super().dispatch(request, *args, **kwargs)

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
