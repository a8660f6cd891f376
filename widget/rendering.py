"""Drawing the widget's HTML fragments: one server-rendered screen per tool outcome.

`render_fragment` draws the screen widget.screens picks for an outcome. The MCP adapter puts
it in the tool result's widget-only `_meta.html`; the browser endpoint (widget.views) returns
it to htmx. Buttons carry their tool and arguments as data attributes; the bridge script
decides the transport and adds idempotency keys. Person-facing text is translated; user data
is escaped by the templates' autoescape; error codes appear only in data attributes.

A fragment that cannot be drawn after its tool already ran (it may have charged a card) does
not hide the outcome: `fragment_or_none` gives None, and MCP then sends no `_meta.html` (the
bridge shows its banner); the browser endpoint swaps in `unshown_notice`, a short notice that
offers to redraw the workflow as it is now, and never a 500.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html

from tool_runtime.observability import get_logger
from tool_runtime.outcome import ToolOutcome
from widget import fragment_cache
from widget.formatting import in_time_zone, pictures_from
from widget.locale import html_lang, locale_or_default, normalize_time_zone
from widget.screens.dispatch import screen_for, screen_inputs
from widget.screens.resume import start_context
from widget.screens.status import unshown_context
from widget.shell import CONTRACT

# The logger name the failures have always been logged under: what fails is a fragment.
log = get_logger("widget.fragments")


def render_fragment(
    *,
    tool: str,
    outcome: ToolOutcome,
    locale: str,
    origin: str | None = None,
    hosted: bool = True,
    time_zone: str | None = None,
    arguments: Any = None,
) -> str:
    """The HTML fragment showing `outcome` of `tool`, in `locale` (any BCP 47 tag).

    `hosted`: the fragment is for a host with a chat (MCP, the preview); False for the
    standalone page's htmx endpoint, where buttons that only send a message into the chat
    would do nothing. `time_zone`: the person's IANA zone, where the host or browser said it
    (times are shown in UTC otherwise). `arguments`: what the call was sent (a form the tool
    refused is drawn again with them)."""
    language = locale_or_default(locale)
    picture_origin = origin or settings.WIDGET_IMAGE_BASE_URL
    zone = normalize_time_zone(time_zone)
    with pictures_from(picture_origin), translation.override(language), in_time_zone(zone):
        if (found := screen_inputs(tool, outcome)) is not None:
            inputs, build = found
            return fragment_cache.render_from_inputs(
                (tool, picture_origin, inputs),
                lambda view_id: _draw(*build(), tool=tool, language=language, view_id=view_id),
            )
        template, context = screen_for(tool, outcome, hosted=hosted, arguments=arguments)
        return render_view(template, context, tool=tool, language=language)


def fragment_or_none(
    *,
    outcome: ToolOutcome,
    locale: str,
    origin: str | None = None,
    hosted: bool = True,
    time_zone: str | None = None,
    arguments: Any = None,
) -> str | None:
    """`render_fragment` for the outcome's own tool, or None (logged) where it fails."""
    try:
        return render_fragment(
            tool=outcome.tool,
            outcome=outcome,
            locale=locale,
            origin=origin,
            hosted=hosted,
            time_zone=time_zone,
            arguments=arguments,
        )
    except Exception:
        log.exception(
            "widget_fragment_failed", tool=outcome.tool, correlation_id=outcome.correlation_id
        )
        return None


def unshown_notice(*, outcome: ToolOutcome, locale: str) -> str:
    """A notice in place of the fragment: what happened is kept; a button redraws the state."""
    language = locale_or_default(locale)
    with translation.override(language):
        context = unshown_context(workflow_id=outcome.body.get("workflow_id"), tool_ran=outcome.ok)
        try:
            return render_view("status", context, tool=outcome.tool, language=language)
        except Exception:
            log.exception("widget_notice_failed", tool=outcome.tool)
            # The templates themselves are broken: plain, escaped text is all that is left.
            return format_html(
                '<section class="gg-view" data-gg-state="unshown" lang="{}" role="status">'
                "<h2>{}</h2><p>{}</p></section>",
                html_lang(language),
                context["heading"],
                context["text"],
            )


def render_start(*, locale: str) -> str:
    """The first view of the standalone browser page: one button that starts a gift search."""
    language = locale_or_default(locale)
    with translation.override(language):
        return render_view("resume", start_context(), tool="", language=language)


def render_view(template: str, context: dict[str, Any], *, tool: str, language: str) -> str:
    """The view drawn once per distinct context (widget.fragment_cache), with a new view id."""
    _frame(context, tool=tool, language=language)
    name = _template_name(template)
    return fragment_cache.render(
        name, context, lambda drawn: render_to_string(name, drawn, using="jinja2")
    )


def _draw(template: str, context: dict[str, Any], *, tool: str, language: str, view_id: str) -> str:
    _frame(context, tool=tool, language=language)
    context["view_id"] = view_id
    return render_to_string(_template_name(template), context, using="jinja2")


def _frame(context: dict[str, Any], *, tool: str, language: str) -> None:
    """What every view's outer element carries besides its own context."""
    context.update(tool=tool, contract=CONTRACT, html_lang=html_lang(language))


def _template_name(template: str) -> str:
    return f"widget/fragments/{template}.html"
