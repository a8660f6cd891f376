"""Browser endpoints of the widget: the standalone page, the htmx action endpoint, the QA preview.

Views stay thin: actions go through tool_runtime.executor.execute_tool exactly as REST and MCP
calls do, and the answer is the same fragment the MCP adapter sends to ChatGPT.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any

from csp.constants import NONCE, SELF
from csp.decorators import csp_replace
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_GET, require_POST

from checkout.payments.provider import ProviderError
from checkout.payments.test_tokens import grant_test_token
from tool_runtime.errors import ToolError
from tool_runtime.executor import execute_tool
from tool_runtime.observability import correlation_id_from
from tool_runtime.outcome import ToolOutcome, error_body
from tool_runtime.principals import issue_api_token, user_for_token
from tool_runtime.registry import REGISTRY
from tool_runtime.validation import json_arguments
from widget.locale import html_lang, locale_from_request, normalize_locale, normalize_time_zone
from widget.rendering import fragment_or_none, render_start, unshown_notice
from widget.resource import widget_resource_meta
from widget.shell import CONTRACT, render_widget_shell, shell_context

PREVIEW_TOKEN_SESSION_KEY = "preview_mcp_token"  # noqa: S105 - a session key name, not a secret
# The standalone page may start a search itself; in ChatGPT only the model does.
BROWSER_ONLY_TOOLS = frozenset({"start_gift_workflow"})
PREVIEW_BRIEF = {
    "relationship": "friend",
    "interests": ["coffee", "cooking"],
    "budget_min": 20,
    "budget_max": 60,
    "currency": "USD",
    "age": 35,
    "limit": 6,
}
PREVIEW_LOCALES = [
    ("en", "en-US"),
    ("pl", "pl-PL"),
    ("uk", "uk-UA"),
    ("ru", "ru-RU"),
    ("zh-hans", "zh-CN"),
]
# The host the preview plays: MCP Apps (the standard), or window.openai only (older ChatGPT).
PREVIEW_DIALECTS = ("mcp-apps", "openai")
PREVIEW_FAULTS = {"none": "", "catalog_503": "catalog=503", "catalog_timeout": "catalog=timeout"}


def staff_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Anonymous → the login page; signed in but not staff → 403 (not a login loop)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not (request.user.is_active and request.user.is_staff):
            raise PermissionDenied("The QA preview is for staff only.")
        return view(request, *args, **kwargs)

    return wrapper


def _widget_locale(request: HttpRequest) -> str:
    return normalize_locale(request.headers.get("X-GG-Locale")) or locale_from_request(request)


# --- the standalone page and its htmx endpoint -----------------------------------------------------


@require_GET
@login_required
@never_cache
def widget_page(request: HttpRequest) -> HttpResponse:
    """The widget in a plain browser: htmx posts its actions to widget_action."""
    language = locale_from_request(request)
    with translation.override(language):
        context = shell_context(
            inline=False,
            initial_html=render_start(locale=language),
            csrf_token=get_token(request),
            language=language,
            theme=request.GET.get("theme"),
            instance="page",
        )
    return render(request, "widget/shell.html", context)


@require_POST
@never_cache
def widget_action(request: HttpRequest, tool: str) -> HttpResponse:
    """Run one widget action for the signed-in person and answer with its fragment.

    The fragment is the answer even for a failed tool (it is the banner), so the status is 200
    and the tool's own status travels in X-GG-Tool-Status; anything else is not a fragment.
    """
    locale = _widget_locale(request)
    correlation_id = correlation_id_from(request.headers.get("X-Correlation-ID"))
    principal = request.user if request.user.is_authenticated else None
    spec = REGISTRY.get(tool)
    arguments: Any = None
    try:
        if spec is None or not (spec.widget_accessible or tool in BROWSER_ONLY_TOOLS):
            raise ToolError("UNKNOWN_TOOL", f"'{tool}' is not a widget action.", field="tool")
        arguments = json_arguments(request)
    except ToolError as exc:
        outcome = ToolOutcome(tool, error_body(exc), {}, exc.spec.http_status, correlation_id)
    else:
        outcome = execute_tool(
            name=tool,
            arguments=arguments,
            principal=principal,
            correlation_id=correlation_id,
            transport="widget",
            locale=locale,
        )
    # Pictures on this app load from the origin the page itself came from.
    origin = f"{request.scheme}://{request.get_host()}"
    # This endpoint serves htmx, which only the standalone page runs (a host's widget resource
    # carries no htmx and calls tools through the host): there is no chat here.
    html = fragment_or_none(
        outcome=outcome,
        locale=locale,
        origin=origin,
        hosted=False,
        time_zone=request.headers.get("X-GG-Time-Zone"),  # the browser's, checked when used
        arguments=arguments,
    ) or unshown_notice(outcome=outcome, locale=locale)
    response = HttpResponse(html)
    response["X-GG-Fragment"] = CONTRACT
    response["X-GG-Tool-Status"] = str(outcome.http_status)
    response["X-Correlation-ID"] = outcome.correlation_id
    response["Content-Language"] = html_lang(locale)
    return response


# --- the QA preview ------------------------------------------------------------------------------


def preview_token(request: HttpRequest) -> str:
    """One bearer token per preview session, for the signed-in staff member only; it expires
    (a new one is issued then) and the sweeps delete expired ones."""
    token = request.session.get(PREVIEW_TOKEN_SESSION_KEY)
    if not token or user_for_token(token) != request.user:
        ttl = timedelta(seconds=settings.PREVIEW_TOKEN_TTL_SECONDS)
        token = issue_api_token(user=request.user, ttl=ttl)
        request.session[PREVIEW_TOKEN_SESSION_KEY] = token
    return token


@require_GET
@staff_required
@never_cache
def preview(request: HttpRequest) -> HttpResponse:
    locale = normalize_locale(request.GET.get("locale")) or "en"
    theme = request.GET.get("theme") if request.GET.get("theme") in {"light", "dark"} else "light"
    fault = request.GET.get("fault") if request.GET.get("fault") in PREVIEW_FAULTS else "none"
    fault_enabled = bool(settings.FAULT_INJECTION_ENABLED)
    dialect = request.GET.get("dialect")
    config = {
        "dialect": dialect if dialect in PREVIEW_DIALECTS else PREVIEW_DIALECTS[0],
        "mcpUrl": "/mcp",
        "token": preview_token(request),
        "frameUrl": reverse("widget:preview-frame"),
        "paymentTokenUrl": reverse("widget:preview-payment-token"),
        "csrf": get_token(request),
        "locale": dict(PREVIEW_LOCALES)[locale],
        "theme": theme,
        "fault": fault if fault_enabled else "none",
        "faults": PREVIEW_FAULTS,
        "faultEnabled": fault_enabled,
        "user": request.user.get_username(),
        # The time zone the host puts in its context (?tz=): else this browser's.
        "timeZone": normalize_time_zone(request.GET.get("tz")),
    }
    context = {
        "config": config,
        "brief_json": json.dumps(PREVIEW_BRIEF, indent=2),
        "locales": PREVIEW_LOCALES,
        "faults": list(PREVIEW_FAULTS),
        "selected_locale": config["locale"],
        "selected_theme": theme,
        "selected_fault": config["fault"],
        "fault_enabled": fault_enabled,
    }
    return render(request, "widget/preview.html", context)


@require_POST
@staff_required
@never_cache
def preview_payment_token(request: HttpRequest) -> HttpResponse:
    """The preview's payment sheet pays with a test Shared Payment Token for the session's
    total (checkout.payments.test_tokens), as ChatGPT's sheet hands one to complete_checkout."""
    try:
        body = json.loads(request.body or b"{}")
        amount, currency = int(body["amount"]), str(body["currency"])
    except (ValueError, KeyError, TypeError):
        return JsonResponse({"error": "amount and currency are required"}, status=400)
    try:
        token = grant_test_token(amount_minor=amount, currency=currency, now=int(time.time()))
    except ProviderError as refused:
        return JsonResponse({"error": str(refused)}, status=409)
    return JsonResponse({"token": token})


@require_GET
@staff_required
@never_cache
@xframe_options_sameorigin
@csp_replace({"frame-ancestors": [SELF]})  # framed by /preview/ on this origin, nobody else
def preview_frame(request: HttpRequest) -> HttpResponse:
    """The exact MCP widget shell; for the window.openai dialect the host emulator runs first."""
    emulator = [static("widget/host-emulator.js")] if request.GET.get("dialect") == "openai" else []
    html = render_widget_shell(nonce=str(request.csp_nonce), head_scripts=emulator)
    response = HttpResponse(html)
    # django-csp's per-view update (what @csp_update sets), computed per request from settings:
    # the shell's one inline <style>, as ChatGPT receives it, and pictures from the origins the
    # widget resource declares (`resourceDomains`), as a real host's frame allows them. The
    # fragments from /mcp put pictures on WIDGET_IMAGE_BASE_URL, which need not be this origin.
    response._csp_update = {  # type: ignore[attr-defined]
        "style-src": [NONCE],
        "img-src": widget_resource_meta()["ui"]["csp"]["resourceDomains"],
    }
    return response


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico on every page (admin included); answer instead of 404."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
        '<rect width="16" height="16" rx="3" fill="#0b5cad"/>'
        '<path d="M3 7h10v6H3zM2 5h12v2H2zM8 5v8" stroke="#fff" fill="none"/></svg>'
    )
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response
