"""How the widget writes values for a person: money, times, countries, descriptions and pictures.

Every screen formats with these, in the active language. The caches are here because a list
of cards formats the same few catalog prices, texts and pictures on every redraw.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any
from urllib.parse import urljoin
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_time
from babel.numbers import format_currency
from django.utils import formats, translation
from django.utils.dateparse import parse_datetime
from django.utils.text import Truncator

from widget.locale import babel_locale

DESCRIPTION_WORDS = 22
DESCRIPTION_CHARS = 70  # for text written without spaces (Chinese, Japanese)

# The origin root-relative picture URLs are resolved against while one fragment renders: the
# page's own for the browser, WIDGET_IMAGE_BASE_URL for the MCP widget (another origin's frame).
_picture_origin: ContextVar[str] = ContextVar("picture_origin", default="")
# The person's IANA time zone while one fragment renders ("" when the host did not say).
_time_zone: ContextVar[str] = ContextVar("time_zone", default="")


def money(amount: Any, currency: str, *, language: str | None = None) -> str:
    """An amount as the active language (`language`, when the caller has it at hand) writes it
    (CLDR via Babel): $30.00, 30,00 USD, US$30.00."""
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        return f"{amount} {currency}"
    if not currency:
        return formats.number_format(value, 2, use_l10n=True)
    return _currency(value, currency, language or translation.get_language())


@lru_cache(maxsize=4096)
def _currency(value: Decimal, currency: str, language: str) -> str:
    """Babel's formatting is most of a card's cost, and a catalog has few distinct prices."""
    return format_currency(value, currency, locale=babel_locale(language))


def local_time(value: Any) -> str:
    """The time of day of a moment (a datetime or its ISO text) as the active language writes
    it, in the person's time zone (`in_time_zone`); where that is not known, in UTC and saying
    so. Empty when there is no moment."""
    moment = parse_datetime(value) if isinstance(value, str) else value
    if moment is None:
        return ""
    zone = _time_zone.get()
    locale = babel_locale(translation.get_language())
    if zone:
        return format_time(moment, "short", tzinfo=ZoneInfo(zone), locale=locale)
    return format_time(moment, "short", tzinfo=ZoneInfo("UTC"), locale=locale) + " UTC"


@contextmanager
def in_time_zone(zone: str | None) -> Iterator[None]:
    """While this lasts, `local_time` writes times in `zone` (a checked IANA name, or None)."""
    token = _time_zone.set(zone or "")
    try:
        yield
    finally:
        _time_zone.reset(token)


def country_choices(codes: tuple[str, ...]) -> list[tuple[str, str]]:
    """(code, name) for each ISO country code, named and ordered in the active language."""
    return _country_choices(codes, babel_locale(translation.get_language()))


@lru_cache(maxsize=16)
def _country_choices(codes: tuple[str, ...], locale: str) -> list[tuple[str, str]]:
    names = Locale.parse(locale).territories
    named = [(code, names.get(code, code)) for code in codes]
    return sorted(named, key=lambda pair: _sort_key(pair[1]))


def country_name(code: str) -> str:
    """An ISO country code by its name in the active language ("PL" → "Polska"); the code
    itself when it names no country."""
    names = Locale.parse(babel_locale(translation.get_language())).territories
    return names.get(code, code) if isinstance(code, str) else ""


def _sort_key(name: str) -> str:
    """Accents do not move a name to the end of the list ("Österreich" sorts with "O")."""
    return "".join(
        c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)
    ).casefold()


@lru_cache(maxsize=4096)
def short_description(text: str) -> str:
    """At most DESCRIPTION_WORDS words, cut between words with an ellipsis; text without spaces
    is cut by characters, since there every character boundary is a word boundary. Cached:
    every redraw of a list truncates the same few catalog texts again."""
    if len(text.split()) > 1:
        return Truncator(text).words(DESCRIPTION_WORDS, truncate="…")
    return Truncator(text).chars(DESCRIPTION_CHARS, truncate="…")


@contextmanager
def pictures_from(origin: str) -> Iterator[None]:
    """While this lasts, `picture` resolves root-relative URLs against `origin`."""
    token = _picture_origin.set(origin)
    try:
        yield
    finally:
        _picture_origin.reset(token)


def picture(item: dict[str, Any]) -> dict[str, Any] | None:
    """The <img> of a product: absolute URL, intrinsic size (no layout jump), alt text."""
    src = item.get("image") or ""
    if not src:
        return None
    name = item.get("name", "")
    return {
        "src": _absolute_url(_picture_origin.get(), src),
        "width": item.get("image_width") or 320,
        "height": item.get("image_height") or 240,
        "alt": item.get("image_alt") or name,
        "initial": name[:1].upper(),
    }


@lru_cache(maxsize=4096)
def _absolute_url(origin: str, src: str) -> str:
    """urljoin parses both URLs on every call; a catalog has few pictures and one origin."""
    return urljoin(origin, src)
