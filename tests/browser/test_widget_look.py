"""The widget's look in Debian's Chromium: every state at 380, 720 and 1280 px in
English, Polish and Simplified Chinese, on the plain /widget/ page under the strict CSP.

Each state is screenshotted to var/screenshots/widget-look/ (kept by CI as an artifact) and checked:
no text overflows its box, every picture has alt text and loaded from the page's own origin,
no CSP violation (the `context` fixture fails the test on any), the carousel scrolls by
keyboard, and the cumulative layout shift stays under 0.05.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests import REPO_ROOT
from tests.browser.conftest import BROWSER_DB, log_in, serious_axe_violations

pytestmark = [pytest.mark.browser, BROWSER_DB]

SCREENSHOTS = REPO_ROOT / "var" / "screenshots" / "widget-look"
WIDTHS = [380, 720, 1280]
LOCALES = ["en", "pl", "zh-Hans"]
PRICES = {"en": r"^\$\d+\.\d\d$", "pl": r"^\d+,\d\d\sUSD$", "zh-Hans": r"^US\$\d+\.\d\d$"}

# Layout shifts not caused by the person's own input, summed as CLS is (the page is short-lived,
# so one session window). A display mode the host switches (inline ↔ fullscreen) relays the
# page out as the person's input does: the shifts within 500 ms of it do not count, the window
# the Layout Instability API gives input (`hadRecentInput`).
CLS_OBSERVER = """
window.__ggCls = 0;
window.__ggHostChange = -Infinity;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput || entry.startTime - window.__ggHostChange < 500) continue;
    window.__ggCls += entry.value;
  }
}).observe({type: "layout-shift", buffered: true});
"""


def set_display_mode(page: Page, mode: str | None) -> None:
    """What the bridge does when the host grants a display mode (None: back inline)."""
    page.evaluate(
        "(mode) => { window.__ggHostChange = performance.now();"
        " if (mode) document.documentElement.dataset.displayMode = mode;"
        " else delete document.documentElement.dataset.displayMode; }",
        mode,
    )


OVERFLOWING_TEXT = """() => [...document.querySelectorAll(
    '#gg-root h2, #gg-root h3, #gg-root p, #gg-root dt, #gg-root dd, #gg-root label,'
    + ' #gg-root button, #gg-root .gg-tag, #gg-root .gg-card__reasons li, #gg-root legend')]
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.tagName + '.' + e.className + ': ' + e.textContent.trim().slice(0, 40))"""

PICTURES = """() => [...document.querySelectorAll('#gg-root img')]
  .filter(i => i.offsetParent !== null)
  .map(i => {
    const box = i.getBoundingClientRect();
    const inView = box.right > 0 && box.left < innerWidth && box.bottom > 0 && box.top < innerHeight;
    return {alt: i.alt, origin: new URL(i.currentSrc || i.src).origin, inView,
            loaded: i.complete && i.naturalWidth > 0, lazy: i.loading};
  })"""


def shot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def check_state(page: Page, name: str) -> None:
    page.wait_for_function("() => document.getElementById('gg-root').ariaBusy !== 'true'")
    # Pictures in view have loaded (lazy ones out of view may still wait, as they should).
    page.wait_for_function(
        "() => [...document.querySelectorAll('#gg-root img')].every(i => {"
        " const b = i.getBoundingClientRect();"
        " return b.right <= 0 || b.left >= innerWidth || b.bottom <= 0 || b.top >= innerHeight"
        " || i.complete; })"
    )
    shot(page, name)
    assert page.evaluate(OVERFLOWING_TEXT) == [], name
    origin = page.evaluate("location.origin")
    for picture in page.evaluate(PICTURES):
        assert picture["alt"].strip(), (name, picture)
        assert picture["origin"] == origin, (name, picture)  # the CSP's img-src 'self'
        assert picture["lazy"] == "lazy", (name, picture)
        if picture["inView"]:
            assert picture["loaded"], (name, picture)


@pytest.fixture
def look_page(context: BrowserContext) -> Page:
    context.add_init_script(CLS_OBSERVER)
    return context.new_page()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("locale", LOCALES)
def test_every_state_looks_right(look_page: Page, locale: str, width: int):
    page = look_page
    page.set_viewport_size({"width": width, "height": 900})
    tag = f"{locale}-{width}"
    log_in(page, "demo", "demo", f"/widget/?locale={locale}")
    check_state(page, f"{tag}-1-start")

    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("brief-form")).to_be_visible()
    check_state(page, f"{tag}-2-brief")

    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee, cooking")
    page.get_by_test_id("suggest-gifts").click()
    cards = page.get_by_test_id("gift-card")
    expect(cards.first).to_be_visible()
    check_state(page, f"{tag}-3-ideas")
    assert cards.count() >= 3
    expect(cards.first.get_by_test_id("price")).to_have_text(re.compile(PRICES[locale]))
    expect(cards.first.get_by_test_id("match-reasons")).to_be_visible()
    assert page.get_by_test_id("filters").is_hidden()  # inline: the carousel, no filters

    # The carousel scrolls by keyboard: focus the region, arrow right, it moves.
    carousel = page.get_by_test_id("carousel")
    carousel.focus()
    assert page.evaluate("document.activeElement.dataset.testid") == "carousel"
    before = carousel.evaluate("e => e.scrollLeft")
    assert carousel.evaluate("e => e.scrollWidth > e.clientWidth")  # more ideas than fit
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "(x) => document.querySelector('[data-testid=carousel]').scrollLeft > x", arg=before
    )

    # Fullscreen (as the bridge marks it when the host grants it): a grid with the filters.
    set_display_mode(page, "fullscreen")
    expect(page.get_by_test_id("filters")).to_be_visible()
    expect(page.get_by_test_id("see-all")).to_be_hidden()
    assert carousel.evaluate("e => e.scrollWidth <= e.clientWidth")  # a grid, nothing to scroll
    check_state(page, f"{tag}-4-fullscreen")
    price = page.get_by_test_id("filter-price")
    price.locator("input[name=budget_max]").fill("40")
    price.locator("button[type=submit]").click()
    expect(page.get_by_test_id("gift-card").first).to_be_visible()
    check_state(page, f"{tag}-5-filtered")
    prices = page.get_by_test_id("price").all_inner_texts()
    assert prices and all(
        float("".join(c for c in p.replace(",", ".") if c.isdigit() or c == ".")) <= 40
        for p in prices
    )
    set_display_mode(page, None)

    # The skeleton of the next view while a tool runs (the bridge sets aria-busy on #gg-root).
    page.evaluate("document.getElementById('gg-root').setAttribute('aria-busy', 'true')")
    expect(page.locator("[data-testid=skeleton][data-next=card]")).to_be_visible()
    expect(page.get_by_test_id("gift-card").first).to_be_hidden()
    shot(page, f"{tag}-6-skeleton")
    page.evaluate("document.getElementById('gg-root').setAttribute('aria-busy', 'false')")

    page.get_by_test_id("select-gift").first.click()
    expect(page.get_by_test_id("go-to-checkout")).to_be_visible()
    check_state(page, f"{tag}-7-selected")
    assert page.locator("#gg-root img").count() == 1

    page.get_by_test_id("go-to-checkout").click()
    expect(page.get_by_test_id("payment-method")).to_be_visible()
    check_state(page, f"{tag}-8-checkout")

    page.get_by_test_id("prepare-order").click()
    expect(page.get_by_test_id("confirm-purchase")).to_be_visible()
    check_state(page, f"{tag}-9-summary")
    assert page.locator("#gg-root img").count() == 1

    page.get_by_test_id("confirm-purchase").click()
    expect(page.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")
    check_state(page, f"{tag}-10-completed")
    assert page.locator("#gg-root img").count() == 1
    # The standalone page has no chat: no follow-up messages, a new search instead.
    expect(page.get_by_test_id("follow-up")).to_have_count(0)
    expect(page.get_by_test_id("start-over")).to_have_attribute(
        "data-gg-tool", "start_gift_workflow"
    )

    assert page.evaluate("window.__ggCls") < 0.05
    print(f"screenshots: {SCREENSHOTS}")


def test_dark_theme_follows_the_host(look_page: Page):
    page = look_page
    page.set_viewport_size({"width": 720, "height": 900})
    log_in(page, "demo", "demo", "/widget/?theme=dark")
    page.get_by_test_id("start").click()
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee")
    page.get_by_test_id("suggest-gifts").click()
    expect(page.get_by_test_id("gift-card").first).to_be_visible()
    check_state(page, "dark-720-ideas")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(13, 17, 23)"


def test_a_picture_that_fails_leaves_a_neat_box(look_page: Page, problems):
    page = look_page
    problems.allow_console(r"status of 404 .*/static/widget/products/")
    page.set_viewport_size({"width": 720, "height": 900})
    # The picture is not found: the box keeps its size and shows the tinted initial.
    page.route("**/static/widget/products/**", lambda route: route.fulfill(status=404, body=""))
    log_in(page, "demo", "demo", "/widget/")
    page.get_by_test_id("start").click()
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee")
    page.get_by_test_id("suggest-gifts").click()
    box = page.locator(".gg-pic").first
    expect(box).to_be_visible()
    page.wait_for_function("() => document.querySelector('.gg-pic img').complete")
    assert page.locator(".gg-pic img").first.evaluate("i => i.naturalWidth") == 0
    size = box.bounding_box()
    assert size and abs(size["width"] / size["height"] - 4 / 3) < 0.02
    expect(box.locator("span")).to_have_text(re.compile(r"^\w$"))
    shot(page, "broken-picture-720")


@pytest.mark.parametrize("locale", LOCALES)
def test_ideas_and_completed_order_are_accessible(axe_page: Page, locale: str):
    page = axe_page
    page.set_viewport_size({"width": 380, "height": 900})
    log_in(page, "demo", "demo", f"/widget/?locale={locale}")
    page.get_by_test_id("start").click()
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee, cooking")
    page.get_by_test_id("suggest-gifts").click()
    expect(page.get_by_test_id("gift-card").first).to_be_visible()
    assert serious_axe_violations(page) == []
    page.evaluate("document.documentElement.dataset.displayMode = 'fullscreen'")
    assert serious_axe_violations(page) == []
    page.evaluate("delete document.documentElement.dataset.displayMode")
    page.get_by_test_id("select-gift").first.click()
    page.get_by_test_id("go-to-checkout").click()
    page.get_by_test_id("prepare-order").click()
    assert serious_axe_violations(page) == []
    page.get_by_test_id("confirm-purchase").click()
    expect(page.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")
    assert serious_axe_violations(page) == []


# Every visible form field as tall as its label, control and help text, and no taller; fields side
# by side are at least 120px wide.
FIELD_GAPS = """() => [...document.querySelectorAll('#gg-root .gg-field')]
  .filter(f => f.offsetParent !== null)
  .map(f => {
    const box = f.getBoundingClientRect();
    const kids = [...f.children].filter(k => k.offsetParent !== null).map(k => k.getBoundingClientRect());
    const content = Math.max(...kids.map(k => k.bottom)) - Math.min(...kids.map(k => k.top));
    return {field: f.querySelector('input,select').name, height: Math.round(box.height),
            content: Math.round(content), width: Math.round(box.width)};
  })
  .filter(f => f.height > f.content + 1 || f.width < 120)"""


@pytest.mark.parametrize("width", [360, 760])
def test_form_fields_take_the_height_they_need(look_page: Page, width: int):
    page = look_page
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "demo", "demo", "/widget/")
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("brief-form")).to_be_visible()
    relationship = page.locator(".gg-field:has(select[name=relationship])").bounding_box()
    assert relationship and relationship["height"] < 80, relationship  # 140px before
    assert page.evaluate(FIELD_GAPS) == []
    shot(page, f"fields-{width}-brief")

    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee")
    page.get_by_test_id("suggest-gifts").click()
    expect(page.get_by_test_id("gift-card").first).to_be_visible()
    page.evaluate("document.documentElement.dataset.displayMode = 'fullscreen'")
    expect(page.get_by_test_id("filters")).to_be_visible()
    assert page.evaluate(FIELD_GAPS) == []
    shot(page, f"fields-{width}-filters")
    page.evaluate("delete document.documentElement.dataset.displayMode")

    page.get_by_test_id("select-gift").first.click()
    page.get_by_test_id("go-to-checkout").click()
    expect(page.get_by_test_id("checkout-form")).to_be_visible()
    assert page.evaluate(FIELD_GAPS) == []
    shot(page, f"fields-{width}-checkout")


# Words of the order summary split across two lines ("Springfiel|d"): a word's range has more
# than one line box.
SPLIT_WORDS = """() => {
  const split = [];
  for (const dd of document.querySelectorAll('#gg-root dd')) {
    const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}"""


@pytest.mark.parametrize("width", [360, 760])
def test_the_order_summary_keeps_words_whole_and_stacks_the_picture_when_narrow(
    look_page: Page, width: int
):
    page = look_page
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "demo", "demo", "/widget/")
    page.get_by_test_id("start").click()
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee")
    page.get_by_test_id("suggest-gifts").click()
    page.get_by_test_id("select-gift").first.click()
    page.get_by_test_id("go-to-checkout").click()
    page.get_by_test_id("prepare-order").click()
    summary = page.get_by_test_id("order-summary")
    expect(summary).to_contain_text("Springfield")
    check_state(page, f"summary-{width}")
    assert page.evaluate(SPLIT_WORDS) == []
    picture = page.locator(".gg-order .gg-pic").bounding_box()
    box = summary.bounding_box()
    assert picture and box
    if width < 480:  # stacked: the summary has the whole width below the picture
        assert picture["y"] + picture["height"] <= box["y"] + 1
    else:  # side by side
        assert picture["x"] + picture["width"] <= box["x"] + 1
