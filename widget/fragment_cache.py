"""Rendered fragments, remembered by everything their rendering reads.

Rendering a view costs more than the tool call that asked for it, and the same view is drawn
again and again: every redraw of an unchanged workflow, a replay, the same ideas for the same
brief. A fragment is a function of its template, its context, the active language and the
script prefix (button URLs), so those are the key; the context is fingerprinted with orjson,
with every value whose type would change the output (safe markup, decimals, lazy texts) tagged,
and any other type not cached at all.

The views drawn most (a redraw of the workflow, a list of ideas) are keyed by their inputs
instead (`render_from_inputs`: what the view is computed from, fingerprinted the same way), so
that a remembered one is not even built: building and fingerprinting its context had cost
more than drawing it from the cache.

The one per-render value, the view id (it seeds the widget's idempotency keys and element ids,
so it must differ on every draw), is rendered as a placeholder and put in afterwards.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import orjson
from cachetools import LRUCache
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix
from django.utils.functional import Promise
from django.utils.translation import get_language

# Not a hex uuid (the letters past "f"), so no view id or other hex value can look like it.
VIEW_ID_PLACEHOLDER = "gg0view0id0placeholder0xxxxxxxxx"


class _Uncacheable(TypeError):
    pass


def _tagged(value: Any) -> Any:
    """What orjson cannot or must not write as plain JSON: tagged so it cannot equal plain data."""
    if hasattr(value, "__html__"):  # Markup / SafeString: not escaped again, unlike a str
        return ["\x00html", str(value.__html__())]
    if isinstance(value, Promise):  # a lazy text: its text in the active language (in the key)
        return str(value)
    if isinstance(value, Decimal):
        return ["\x00decimal", str(value)]
    if isinstance(value, str):
        return str(value)
    raise _Uncacheable(type(value).__name__)


def fingerprint(context: dict[str, Any]) -> bytes | None:
    """The context as bytes that differ whenever the rendering could; None: do not cache it."""
    try:
        return orjson.dumps(
            context,
            default=_tagged,
            option=orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_NON_STR_KEYS,
        )
    except (TypeError, orjson.JSONEncodeError):
        return None


class FragmentCache:
    def __init__(self, size: int) -> None:
        self.size = size
        self._parts: LRUCache[tuple, tuple[str, ...]] = LRUCache(maxsize=max(size, 1))
        self._lock = threading.Lock()

    def render(
        self, template: str, context: dict[str, Any], draw: Callable[[dict[str, Any]], str]
    ) -> str:
        """`draw(context)` once per distinct key; every call gets its own new view id."""
        return self._drawn(template, context, lambda view_id: draw({**context, "view_id": view_id}))

    def render_from_inputs(self, inputs: Any, draw: Callable[[str], str]) -> str:
        """`draw(view_id)` once per distinct `inputs`, for a view computed from its inputs alone
        (and the language and script prefix, in the key as for any view). A view remembered
        this way is not built at all, where a context-keyed one is built to be fingerprinted."""
        return self._drawn("\x00inputs", inputs, draw)

    def _drawn(self, kind: str, printable: Any, draw: Callable[[str], str]) -> str:
        view_id = uuid.uuid4().hex
        printed = fingerprint(printable) if self.size else None
        if printed is None:
            return draw(view_id)
        key = (kind, get_language(), get_script_prefix(), printed)
        with self._lock:
            parts = self._parts.get(key)
        if parts is None:
            parts = tuple(draw(VIEW_ID_PLACEHOLDER).split(VIEW_ID_PLACEHOLDER))
            with self._lock:
                self._parts[key] = parts
        return view_id.join(parts)


_cache = FragmentCache(settings.WIDGET_FRAGMENT_CACHE_SIZE)


def render(template: str, context: dict[str, Any], draw: Callable[[dict[str, Any]], str]) -> str:
    return _cache.render(template, context, draw)


def render_from_inputs(inputs: Any, draw: Callable[[str], str]) -> str:
    return _cache.render_from_inputs(inputs, draw)


@receiver(setting_changed)
def _settings_changed(**kwargs: Any) -> None:
    # Fragments read settings (picture origins, static URLs): after a change, start empty.
    global _cache
    _cache = FragmentCache(settings.WIDGET_FRAGMENT_CACHE_SIZE)
