"""Banners and widget texts in English, Polish, Ukrainian, Russian and Simplified Chinese."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tool_runtime.errors import ERROR_CATALOG
from tool_runtime.outcome import ToolOutcome
from widget.locale import locale_or_default, normalize_locale
from widget.rendering import render_fragment
from widget.shell import fallback_strings

pytestmark = pytest.mark.django_db
LANGUAGES = ["en", "pl", "uk", "ru", "zh-hans"]
TRANSLATED = ["pl", "uk", "ru", "zh-hans"]
SCRIPTS = {
    "uk": r"[\u0400-\u04ff]",
    "ru": r"[\u0400-\u04ff]",
    "zh-hans": r"[\u4e00-\u9fff]",
    "pl": r"[a-ząćęłńóśźż]",
}
UI_STRINGS = [
    "Confirm purchase", "Try again", "Back", "Select", "Continue to checkout", "Check again",
    "Choose another payment method", "Thank you! Your order is confirmed.", "Payment method",
    "Shipping address", "Gift ideas for you", "Who is the gift for?", "Or change the brief:",
    "Change the brief:", "Back to ideas", "Search for", "Everything", "Sort by", "Best match",
    "Price: low to high", "Price: high to low", "Search every category",
    "Show everything in this category", "Nothing found with these filters.", "Paying…",
    "Opening the payment page…", "Finish paying in the tab that opened.",
    "Your bank asks you to confirm the payment.", "Open the payment page again",
    "Open the confirmation again", "Cancel the order", "Pay again",
]  # fmt: skip


def banner_html(code: str, locale: str) -> str:
    spec = ERROR_CATALOG[code]
    body = {
        "ok": False,
        "error": {
            "code": code,
            "error_type": str(spec.error_type),
            "message": "m",
            "retryable": spec.retryable,
        },
    }
    return render_fragment(
        tool="suggest_gifts",
        outcome=ToolOutcome("suggest_gifts", body, {}, 500, "c"),
        locale=locale,
    )


def banner_text(html: str) -> str:
    return re.search(r'class="gg-banner__text"[^>]*>([^<]*)<', html).group(1)


def in_language(text, language: str) -> str:
    with translation.override(language):
        return str(text)


@pytest.mark.parametrize("code", sorted(ERROR_CATALOG))
def test_every_banner_is_translated_into_every_language(code):
    english = in_language(ERROR_CATALOG[code].banner, "en")
    for language in TRANSLATED:
        translated = in_language(ERROR_CATALOG[code].banner, language)
        assert translated != english, f"{code} has no {language} translation"
        assert re.search(SCRIPTS[language], translated.lower()), (
            f"{code}/{language}: {translated!r}"
        )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_banner_fragment_is_in_the_requested_language(language):
    for code in ("PAYMENT_TIMEOUT", "CARD_DECLINED", "UPSTREAM_UNAVAILABLE"):
        html = banner_html(code, language)
        assert banner_text(html) == in_language(ERROR_CATALOG[code].banner, language)
        assert f'lang="{"zh-Hans" if language == "zh-hans" else language}"' in html
        retry = re.search(r'data-testid="retry"[^>]*>([^<]*)<', html)
        if retry:
            assert retry.group(1) == in_language(translation.gettext_lazy("Try again"), language)


def test_the_payment_timeout_banner_keeps_the_lectures_tone():
    # The seed lectures' own wording for a payment timeout, reused for the tone.
    assert "Usługa płatnicza nie odpowiedziała na czas" in banner_text(
        banner_html("PAYMENT_TIMEOUT", "pl")
    )
    assert "Платіжний сервіс не відповів вчасно" in banner_text(
        banner_html("PAYMENT_TIMEOUT", "uk")
    )
    assert "支付服务未能及时响应" in banner_text(banner_html("PAYMENT_TIMEOUT", "zh-hans"))
    assert "Платёжный сервис не ответил вовремя" in banner_text(
        banner_html("PAYMENT_TIMEOUT", "ru")
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_widget_texts_are_translated(language):
    for text in UI_STRINGS:
        assert in_language(translation.gettext_lazy(text), language) != text, (
            f"{text!r} in {language}"
        )


def test_the_shells_fallback_texts_exist_in_every_language():
    table = fallback_strings()
    assert sorted(table) == sorted(LANGUAGES)
    for language in TRANSLATED:
        for key, english in table["en"].items():
            assert table[language][key] != english, f"{key} in {language}"


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("pl-PL", "pl"), ("PL", "pl"), ("uk_UA", "uk"), ("ru-RU", "ru"), ("zh-CN", "zh-hans"),
        ("zh-Hans", "zh-hans"), ("zh-TW", "zh-hans"), ("en-GB", "en"), ("de-DE", None), ("", None), (None, None),
    ],
)  # fmt: skip
def test_host_locales_map_to_shipped_languages(tag, expected):
    assert normalize_locale(tag) == expected
    assert locale_or_default(tag) == (expected or "en")


def test_an_unsupported_locale_falls_back_to_english():
    html = banner_html("CARD_DECLINED", "de-DE")
    assert (
        banner_text(html) == in_language(ERROR_CATALOG["CARD_DECLINED"].banner, "en")
        and 'lang="en"' in html
    )
