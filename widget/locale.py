"""Locale helpers: map whatever the host says (BCP 47 tags, Accept-Language) to a shipped language."""

from __future__ import annotations

from functools import cache
from typing import Any
from zoneinfo import available_timezones

from django.conf import settings
from django.utils.translation.trans_real import parse_accept_lang_header

DEFAULT_LANGUAGE = "en"


def supported_languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def normalize_locale(tag: Any) -> str | None:
    """ "pl-PL" → "pl", "zh-CN"/"zh-Hans"/"zh_TW" → "zh-hans", "uk" → "uk"; unknown → None."""
    if not isinstance(tag, str) or not tag.strip():
        return None
    cleaned = tag.strip().lower().replace("_", "-")
    primary = cleaned.split("-")[0]
    languages = supported_languages()
    if cleaned in languages:
        return cleaned
    if primary == "zh":  # the only Chinese we ship is Simplified
        return "zh-hans" if "zh-hans" in languages else None
    return primary if primary in languages else None


def locale_or_default(tag: Any) -> str:
    return normalize_locale(tag) or DEFAULT_LANGUAGE


def locale_from_accept_language(header: str | None) -> str | None:
    """The first shipped language an Accept-Language header asks for, or None."""
    for tag, _quality in parse_accept_lang_header(header or ""):
        if found := normalize_locale(tag):
            return found
    return None


def locale_from_request(request: Any) -> str:
    """?locale= wins, then Accept-Language, then the language LocaleMiddleware picked."""
    return (
        normalize_locale(request.GET.get("locale"))
        or locale_from_accept_language(request.headers.get("Accept-Language"))
        or normalize_locale(getattr(request, "LANGUAGE_CODE", None))
        or DEFAULT_LANGUAGE
    )


def html_lang(language: str) -> str:
    """The value for <html lang>: BCP 47 spelling ("zh-Hans")."""
    return "zh-Hans" if language == "zh-hans" else language


# CLDR locales for number and currency formats: en is US English, and zh-hans is mainland
# Simplified Chinese (which writes the dollar "US$").
BABEL_LOCALES = {"en": "en_US", "zh-hans": "zh_Hans_CN"}


def babel_locale(language: str | None) -> str:
    language = locale_or_default(language)
    return BABEL_LOCALES.get(language, language.replace("-", "_"))


def normalize_time_zone(name: Any) -> str | None:
    """An IANA time zone name the host or browser gave ("Europe/Warsaw"), if it is one; else None."""
    if isinstance(name, str) and name.strip() in _time_zones():
        return name.strip()
    return None


@cache
def _time_zones() -> frozenset[str]:
    return frozenset(available_timezones())
