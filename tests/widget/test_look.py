"""The widget's look and locale: pictures, prices, reasons, truncation, layout markup."""

from __future__ import annotations

import html as html_lib
import json
import os
import re
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings
from django.utils import translation

from giftgenius.transports.mcp import widget_resource_meta
from gifts.models import WorkflowContext
from tests import REPO_ROOT
from tests.fixtures import BOTH_DATABASES, paid_order, start, suggest
from tests.widget.test_fragments import GIFT, WORKFLOW, ok, visible_text
from tool_runtime.outcome import ToolOutcome
from widget.formatting import money, short_description
from widget.rendering import render_fragment
from widget.shell import gzipped_size, render_widget_shell

# Views look up workflows and orders, so rendering needs the database.
pytestmark = pytest.mark.django_db
PICTURE = {
    **GIFT,
    "image": "/static/widget/products/kitchen/tea-kettle.v2.svg",
    "image_width": 320,
    "image_height": 240,
    "image_alt": "Pour-over kettle (illustration)",
}


def in_language(language: str, function, *args):
    with translation.override(language):
        return function(*args)


def suggestions(gifts: list[dict], locale: str = "en", workflow_id: str = WORKFLOW, **kw) -> str:
    body = {"workflow_id": workflow_id, "current_step": "ideas", "gifts": gifts}
    return render_fragment(
        tool="suggest_gifts", outcome=ok("suggest_gifts", body), locale=locale, **kw
    )


def img_tags(html: str) -> list[str]:
    return re.findall(r"<img\b[^>]*>", html)


# --- prices ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "$30.00"), ("pl", "30,00\xa0USD"), ("zh-hans", "US$30.00")],
)
def test_prices_are_written_the_way_each_locale_writes_them(language, expected):
    # Babel (CLDR) puts a no-break space between amount and code, so "30,00 USD" never wraps.
    assert in_language(language, money, "30", "USD") == expected


def test_prices_follow_the_hosts_locale_in_the_cards():
    assert "US$34.50" in visible_text(suggestions([GIFT], "zh-CN"))
    assert "34,50\xa0USD" in suggestions([GIFT], "pl-PL")
    assert ">$34.50<" in suggestions([GIFT], "en-US")


def test_a_price_that_is_not_a_number_is_shown_as_given():
    assert in_language("pl", money, "n/a", "USD") == "n/a USD"


# --- descriptions --------------------------------------------------------------------------------


def test_long_descriptions_are_cut_between_words_with_an_ellipsis():
    text = " ".join(f"word{n}" for n in range(40))
    short = short_description(text)
    assert short.endswith("…")
    kept = short.removesuffix("…").split()
    assert len(kept) == 22 and all(w in text.split() for w in kept)  # whole words only


def test_short_descriptions_are_not_cut():
    assert short_description("Gooseneck, 1 litre.") == "Gooseneck, 1 litre."


def test_text_without_spaces_is_cut_by_characters():
    text = "这是一款适合咖啡爱好者的手冲壶" * 8
    short = short_description(text)
    assert short.endswith("…") and len(short) == 70 and text.startswith(short[:-1])
    assert short_description("手冲咖啡壶") == "手冲咖啡壶"


# --- match reasons -------------------------------------------------------------------------------


@pytest.fixture
def workflow_with_brief(user):
    brief = {
        "relationship": "friend",
        "interests": ["coffee"],
        "budget_min": "20",
        "budget_max": "60",
        "currency": "USD",
        "age": 35,
    }
    return str(WorkflowContext.objects.create(owner=user, current_step="ideas", brief=brief).pk)


MIDDLE_OF_BUDGET = {
    "en": "in the middle of your budget",
    "pl": "w środku budżetu",
    "zh-Hans": "处于预算的中间",
    "uk": "у середині бюджету",  # noqa: RUF001
    "ru": "в середине бюджета",
}


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", ["Matches the interest “coffee”", "Suits someone aged 35"]),
        ("pl", ["Pasuje do zainteresowania „kawa”", "Pasuje dla osoby w wieku 35 lat"]),
        ("zh-Hans", ["符合兴趣“咖啡”", "适合 35 岁"]),
        ("uk", ["Відповідає інтересу «кава»", "Підходить для віку 35"]),
        ("ru", ["Подходит под интерес «кофе»", "Подходит для возраста 35"]),
    ],
)
def test_match_reasons_are_shown_in_the_persons_language(workflow_with_brief, locale, expected):
    html = suggestions([GIFT], locale, workflow_with_brief)
    reasons = re.search(r'data-testid="match-reasons">(.*?)</ul>', html).group(1)
    *shown, budget = re.findall(r"<li>(.*?)</li>", reasons)
    assert shown == expected
    assert "34" in budget and budget.endswith(MIDDLE_OF_BUDGET[locale])
    assert "matches interest" not in html


def test_the_budget_reason_carries_the_localized_price(workflow_with_brief):
    from widget.screens.card import card_reasons

    with translation.override("zh-hans"):
        brief = {"interests": ["coffee"], "age": None, "budget_min": "30", "budget_max": "90"}
        reasons = card_reasons(GIFT, brief, language="zh-hans")
    assert reasons == ["符合兴趣“咖啡”", "US$34.50，处于预算的低端"]  # noqa: RUF001


@pytest.mark.parametrize(
    ("locale", "label"),
    [("en", "Also as: "), ("pl", "Także jako: "), ("zh-Hans", "其他款式：")],  # noqa: RUF001
)
def test_an_ideas_other_versions_are_named_on_its_card(workflow_with_brief, locale, label):
    variants = [
        {"product_id": 8, "name": "Copper Pour-over kettle", "price": "39.00"},
        {"product_id": 9, "name": "Matte Pour-over kettle", "price": "41.00"},
    ]
    html = suggestions([{**GIFT, "variants": variants}], locale, workflow_with_brief)
    shown = re.search(r'data-testid="variants">(.*?)</p>', html).group(1)
    assert shown == f"{label}Copper Pour-over kettle, Matte Pour-over kettle"
    assert 'data-testid="variants"' not in suggestions([GIFT], locale, workflow_with_brief)


def test_reasons_come_only_with_a_fresh_ranking(workflow_with_brief):
    html = suggestions([{**GIFT, "match_reasons": []}], "pl", workflow_with_brief)
    assert 'data-testid="match-reasons"' not in html


@pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES)
def test_real_suggestions_explain_themselves_in_polish(api, demo_catalog):
    workflow_id = start(api)
    gifts = suggest(api, workflow_id).body["gifts"]
    assert gifts and all(g["match_reasons"][0] == "serves the interest 'coffee'" for g in gifts)
    html = suggestions(gifts, "pl", workflow_id)
    assert html.count("Pasuje do zainteresowania „kawa”") == len(gifts)


# --- pictures ------------------------------------------------------------------------------------


def test_cards_show_a_lazy_picture_of_fixed_size_with_alt_text():
    (img,) = img_tags(suggestions([PICTURE], origin="https://shop.example"))
    assert 'src="https://shop.example/static/widget/products/kitchen/tea-kettle.v2.svg"' in img
    assert 'width="320"' in img and 'height="240"' in img and 'loading="lazy"' in img
    assert 'alt="Pour-over kettle (illustration)"' in img
    assert "onerror" not in img  # the fallback is CSS: the initial behind the picture
    assert '<div class="gg-pic"><span aria-hidden="true">P</span><img ' in suggestions([PICTURE])


def test_the_mcp_widget_gets_pictures_on_the_public_origin():
    with override_settings(WIDGET_IMAGE_BASE_URL="https://giftgenius.example"):
        (img,) = img_tags(suggestions([PICTURE]))
    assert (
        'src="https://giftgenius.example/static/widget/products/kitchen/tea-kettle.v2.svg"' in img
    )


def test_a_catalogs_own_absolute_picture_url_is_kept():
    gift = {**PICTURE, "image": "https://cdn.shop.example/p/7.webp"}
    (img,) = img_tags(suggestions([gift], origin="https://giftgenius.example"))
    assert 'src="https://cdn.shop.example/p/7.webp"' in img


def test_a_product_without_a_picture_has_no_img():
    assert img_tags(suggestions([GIFT])) == []


@pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES)
def test_summary_and_completed_order_show_the_gifts_picture(api, demo_catalog):
    order = paid_order(api)
    summary = render_fragment(
        tool="prepare_order",
        outcome=ToolOutcome("prepare_order", order.prepared.body, {}, 200, "c"),
        locale="en",
        origin="http://testserver",
    )
    done = render_fragment(
        tool="commit_order",
        outcome=ToolOutcome("commit_order", order.committed.body, {}, 200, "c"),
        locale="pl",
        origin="http://testserver",
    )
    for html in (summary, done):
        (img,) = img_tags(html)
        assert re.search(
            r'src="http://testserver/static/widget/products/\w+/[\w-]+\.v\d+\.svg"', img
        )
        assert 'alt="' in img and 'alt=""' not in img
    # Next steps go into the chat as the person's own words, in their language (contract (b)).
    buttons = re.findall(r"<button [^>]*data-gg-follow-?up=[^>]*>[^<]+<", done)
    assert [
        re.search(r'data-gg-follow-?up="([^"]+)"[^>]*>([^<]+)<', b).groups() for b in buttons
    ] == [
        ("Pomóż mi napisać krótki liścik do tego prezentu.", "Napisz treść kartki"),
        ("Poszukajmy innego prezentu.", "Znajdź inny prezent"),
    ]
    assert all(b.startswith('<button type="button"') for b in buttons)


# --- image origins in the CSPs -----------------------------------------------------------------


def test_image_origins_join_the_page_csp_and_the_widget_resource_domains():
    script = (
        "import django, json; django.setup();"
        "from django.conf import settings; from giftgenius.transports.mcp import widget_resource_meta;"
        "m = widget_resource_meta();"
        "print(json.dumps([settings.CONTENT_SECURITY_POLICY['DIRECTIVES']['img-src'],"
        " m['ui']['csp']['resourceDomains'], m['openai/widgetCSP']['resource_domains']]))"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "giftgenius.settings.test",
        "PUBLIC_ORIGIN": "https://giftgenius.example",
        "WIDGET_IMAGE_ORIGINS": "https://img.shop.example, https://cdn.shop.example",
    }
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=REPO_ROOT, capture_output=True, check=True
    )
    img_src, resource_domains, openai_domains = json.loads(out.stdout)
    assert img_src == ["'self'", "data:", "https://img.shop.example", "https://cdn.shop.example"]
    assert (
        resource_domains
        == openai_domains
        == [
            "https://giftgenius.example",
            "https://img.shop.example",
            "https://cdn.shop.example",
        ]
    )


def test_by_default_pictures_load_only_from_the_app():
    assert settings.WIDGET_IMAGE_ORIGINS == []
    assert settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]["img-src"] == ["'self'", "data:"]
    assert (
        widget_resource_meta()["ui"]["csp"]["resourceDomains"] == settings.WIDGET_RESOURCE_DOMAINS
    )


@pytest.mark.parametrize(
    "origin", ["https://*.shop.example", "*", "cdn.shop.example", "https://a.example/img"]
)
def test_an_image_origin_must_be_explicit(origin):
    with override_settings(WIDGET_IMAGE_ORIGINS=[origin]), pytest.raises(ImproperlyConfigured):
        widget_resource_meta()


# --- layout markup: carousel, "See all", filters, skeletons -------------------------------------


def test_inline_ideas_are_a_keyboard_reachable_labelled_carousel_of_list_items():
    html = suggestions([GIFT, {**GIFT, "product_id": 8}])
    region = re.search(r'<div class="gg-carousel"[^>]*>', html).group(0)
    assert 'role="region"' in region and 'tabindex="0"' in region
    assert 'aria-label="Gift ideas for you"' in region
    assert re.search(r'gg-carousel"[^>]*><ul class="gg-cards">\s*<li class="gg-card"', html)


def test_see_all_asks_the_host_for_fullscreen():
    button = re.search(
        r'<button[^>]*data-testid="see-all"[^>]*>([^<]*)<', suggestions([GIFT], "pl")
    )
    assert 'type="button"' in button.group(
        0
    ) and 'data-gg-display-mode="fullscreen"' in button.group(0)
    assert button.group(1) == "Zobacz wszystkie"


def test_fullscreen_filters_call_the_tools_again_with_the_brief(workflow_with_brief):
    html = suggestions([GIFT], "en", workflow_with_brief)
    price = re.search(r'<form[^>]*data-testid="filter-price"[^>]*>', html).group(0)
    assert (
        'hx-post="/widget/actions/suggest_gifts"' in price
        and 'data-gg-tool="suggest_gifts"' in price
    )
    args = json.loads(html_lib.unescape(re.search(r'data-gg-args="([^"]*)"', price).group(1)))
    assert args == {
        "workflow_id": workflow_with_brief,
        "interests": ["coffee"],
        "relationship": "friend",
        "currency": "USD",
        "age": 35,
    }
    assert 'name="budget_min"' in html and 'value="60"' in html
    category = re.search(r'<form[^>]*data-testid="filter-category"[^>]*>', html).group(0)
    assert 'data-gg-tool="search_products"' in category
    args = json.loads(html_lib.unescape(re.search(r'data-gg-args="([^"]*)"', category).group(1)))
    # What the person types (nothing: everything) in the budget; never the interests unasked.
    assert args == {
        "workflow_id": workflow_with_brief,
        "min_price": "20",
        "max_price": "60",
        "limit": 24,
    }
    assert re.search(r'<input[^>]*name="query"[^>]*value=""', html)
    select = re.search(r'<select[^>]*name="category"(.*?)</select>', html, re.S)
    options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))
    assert len(options) == 19 and options[0][0] == "" and options[0][1].startswith("All (")
    assert "selected" not in select.group(0)  # on the ideas, the widget's remembered choice
    assert 'data-gg-remember="category"' in select.group(0)


def test_without_a_brief_there_are_no_filters():
    assert 'data-testid="filters"' not in suggestions([GIFT])  # the workflow is unknown here


@pytest.mark.parametrize(
    ("tool", "body", "next_view"),
    [
        ("start_gift_workflow", {"workflow_id": WORKFLOW, "current_step": "brief"}, "cards"),
        (
            "suggest_gifts",
            {"workflow_id": WORKFLOW, "current_step": "ideas", "gifts": [GIFT]},
            "card",
        ),
        (
            "select_gift",
            {"workflow_id": WORKFLOW, "current_step": "gift_selected", "gift": GIFT},
            "form",
        ),
    ],
)
def test_every_view_carries_a_hidden_skeleton_of_the_next(tool, body, next_view):
    html = render_fragment(tool=tool, outcome=ok(tool, body), locale="en")
    skeleton = re.search(r'<div class="gg-skeleton"[^>]*>', html).group(0)
    assert 'aria-hidden="true"' in skeleton and f'data-next="{next_view}"' in skeleton


def test_widget_css_styles_the_contract_attributes_and_the_shell_stays_small():
    css = (REPO_ROOT / "static" / "widget" / "widget.css").read_text()
    for selector in (
        '[data-display-mode="fullscreen"] .gg-filters',
        ':root[data-theme="dark"]',
        '#gg-root[aria-busy="true"]:not(.gg-inplace) .gg-skeleton',
        "scroll-snap-type: x mandatory",
        "aspect-ratio: 4 / 3",
    ):
        assert selector in css
    assert gzipped_size(render_widget_shell()) <= 25 * 1024  # pictures are not in the shell


def test_prices_in_the_summary_are_localized():
    body = {
        "workflow_id": WORKFLOW,
        "order_id": "9b1d5c7e-2f4a-4e8b-a6c3-0d2e4f6a8b10",
        "amount": "34.50",
        "currency": "USD",
        "gift": {"name": "Kettle", "quantity": 1},
        "shipping": {},
        "payment_method": {"label": "Visa"},
    }
    html = render_fragment(
        tool="prepare_order", outcome=ok("prepare_order", body), locale="zh-Hans"
    )
    assert "US$34.50" in html


def test_card_words_are_in_the_language_asked_for_whichever_is_active():
    from widget.screens.card import card_words

    card_words.cache_clear()
    with translation.override("en"):
        polish = card_words("pl")
    with translation.override("pl"):
        english = card_words("en")
    assert polish.select != english.select == "Select"
    with translation.override("pl"):
        assert polish.select == translation.gettext("Select")
