"""The widget shell (the MCP Apps resource ui://widget/giftgenius-v2.html): bridge and CSS only.

ChatGPT caches this shell, so it holds no data: every state arrives later as a fragment
(widget.rendering). Its contract version ("v1") is in `data-gg-contract`; a change to the
fragment attributes or the `_meta` key means a new version and a new resource URI.

The MCP resource inlines its assets (the sandboxed frame loads nothing else) and carries no
htmx: in a host the bridge sends every action to the host itself, and htmx would be two thirds
of the gzip budget. The browser page (widget.views) links the same files from /static/, htmx
included, so `script-src 'self'` covers them.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from pathlib import Path

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from widget.locale import html_lang, supported_languages

# The shell's contract with the fragments (the `_meta` key, the data attributes): every fragment
# and the shell name it, so a shell cached by a host can tell a fragment it cannot read.
CONTRACT = "v1"
BRIDGE_STATIC = "widget/bridge.js"
CSS_STATIC = "widget/widget.css"
GZIP_BUDGET_BYTES = 25 * 1024

# htmx under a strict CSP: nothing evaluated, no script tags from responses, no injected
# indicator <style> (widget.css ships it). Only 200 answers are swapped; the bridge shows its
# own banner for anything else, so htmx never logs them as errors.
HTMX_CONFIG = {
    "allowEval": False,
    "allowScriptTags": False,
    "includeIndicatorStyles": False,
    "selfRequestsOnly": True,
    "historyEnabled": False,
    "timeout": 30000,
    "defaultSwapStyle": "innerHTML",
    "responseHandling": [
        {"code": "200", "swap": True},
        {"code": "...", "swap": False, "error": False},
    ],
}


def _static_text(path: str) -> str:
    found = finders.find(path)
    if not found:
        raise FileNotFoundError(f"static file {path} is missing")
    return Path(found).read_text(encoding="utf-8")


def _inline(text: str, tag: str) -> SafeString:
    # Our own files; the only thing that could end the element early is its closing tag.
    return mark_safe(text.replace(f"</{tag}", f"<\\/{tag}"))  # noqa: S308


def fallback_strings() -> dict[str, dict[str, str]]:
    """The few texts the bridge shows when no fragment can arrive, in every language."""
    table = {}
    for language in supported_languages():
        with translation.override(language):
            table[language] = {
                "loading": _("Working on it…"),
                "slow": _(
                    "This is taking longer than usual. You can try again; nothing will be done twice."
                ),
                "unreachable": _("We could not reach GiftGenius. Please try again."),
                "retry": _("Try again"),
            }
    return table


def shell_context(
    *,
    inline: bool,
    nonce: str | None = None,
    head_scripts: Iterable[str] = (),
    initial_html: str = "",
    csrf_token: str | None = None,
    language: str = "en",
    theme: str | None = None,
    instance: str | None = None,
) -> dict:
    context = {
        "contract": CONTRACT,
        "inline": inline,
        "nonce": nonce,
        "head_scripts": list(head_scripts),
        "initial_html": mark_safe(initial_html),  # noqa: S308 - rendered by our templates, escaped there
        "csrf_token_value": csrf_token,
        "html_lang": html_lang(language),
        "theme": theme if theme in {"light", "dark"} else None,
        "instance": instance,
        "htmx_config": None if inline else json.dumps(HTMX_CONFIG, separators=(",", ":")),
        "action_url": reverse("widget:action", args=["TOOL"]).removesuffix("TOOL"),
        "i18n": fallback_strings(),
    }
    if inline:
        context.update(
            css=_inline(_static_text(CSS_STATIC), "style"),
            bridge_js=_inline(_static_text(BRIDGE_STATIC), "script"),
        )
    return context


def render_widget_shell(*, nonce: str | None = None, head_scripts: Iterable[str] = ()) -> str:
    """The self-contained shell served as the MCP resource (inline assets).

    `nonce`/`head_scripts` are for the QA preview, which serves this same shell under the
    site's strict CSP with the host emulator loaded first.
    """
    return render_to_string(
        "widget/shell.html", shell_context(inline=True, nonce=nonce, head_scripts=head_scripts)
    )


def gzipped_size(html: str) -> int:
    return len(gzip.compress(html.encode("utf-8"), compresslevel=9))
