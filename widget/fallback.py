"""When a fragment cannot be rendered after its tool already ran (it may have charged a card).

The tool's outcome stands; only the picture of it is missing. MCP then sends no `_meta.html`
(the bridge shows its banner); the browser endpoint swaps in a short notice that offers to
redraw the workflow as it is now, and never a 500.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.html import format_html

from tool_runtime.observability import get_logger
from tool_runtime.outcome import ToolOutcome
from widget import fragments
from widget.locale import html_lang, locale_or_default
from widget.screens.status import unshown_context

log = get_logger("widget.fragments")


def fragment_or_none(
    *, outcome: ToolOutcome, locale: str, origin: str | None = None, hosted: bool = True
) -> str | None:
    try:
        return fragments.render_fragment(
            tool=outcome.tool, outcome=outcome, locale=locale, origin=origin, hosted=hosted
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
            return fragments.render_view("status", context, tool=outcome.tool, language=language)
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
