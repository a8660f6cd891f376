"""The ideas view with the demo catalog's pictures in Debian's Chromium, at 390, 760 and 1280 px
in English, Polish and Simplified Chinese: each card shows its own product's picture from the
page's origin under the strict CSP (the `context` fixture fails the test on any violation),
nothing overflows sideways, the backdrop follows the theme, and axe finds nothing serious.

Screenshots go to var/screenshots/product-pictures/.
"""

from __future__ import annotations

import struct
import zlib

import pytest
from playwright.sync_api import Page, expect

from gifts.models import Product
from tests import REPO_ROOT
from tests.browser.conftest import BROWSER_DB, log_in, serious_axe_violations
from tests.browser.test_widget_look import OVERFLOWING_TEXT

pytestmark = [pytest.mark.browser, BROWSER_DB]

SCREENSHOTS = REPO_ROOT / "var" / "screenshots" / "product-pictures"
WIDTHS = [390, 760, 1280]
LOCALES = ["en", "pl", "zh-Hans"]
# Interests that reach several categories, so the ideas show several kinds of thing.
INTERESTS = "gardening, tea, music, cooking"

# What overflows the page sideways: the document wider than the window, or an element (outside
# the carousel, which scrolls on purpose) reaching past the window's right edge.
SIDEWAYS = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth) out.push('document '
      + document.documentElement.scrollWidth + ' > ' + innerWidth);
  for (const e of document.querySelectorAll('#gg-root *')) {
    if (e.offsetParent === null || e.closest('[data-testid=carousel]')) continue;
    const box = e.getBoundingClientRect();
    if (box.right > innerWidth + 1) out.push(e.tagName + '.' + e.className + ' ' + box.right);
  }
  return out;
}"""

CARD_PICTURES = """() => [...document.querySelectorAll('[data-testid=gift-card]')].map(card => {
  const img = card.querySelector('.gg-pic img');
  const box = img.getBoundingClientRect();
  return {id: Number(card.dataset.productId), src: new URL(img.currentSrc || img.src),
          alt: img.alt, loaded: img.complete && img.naturalWidth === 320,
          inView: box.right > 0 && box.left < innerWidth && box.bottom > 0 && box.top < innerHeight,
          x: box.left + 12, y: box.top + 12};
}).map(p => ({...p, origin: p.src.origin, path: p.src.pathname}))"""


def pixel(page: Page, x: float, y: float) -> tuple[int, int, int]:
    """The colour of one screen pixel (a 1 x 1 PNG: its one row's filter adds nothing)."""
    png = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1}, scale="css")
    chunks, at = {}, 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        chunks[kind] = chunks.get(kind, b"") + png[at + 8 : at + 8 + length]
        at += 12 + length
    red, green, blue = zlib.decompress(chunks[b"IDAT"])[1:4]
    return red, green, blue


def lightness(rgb: tuple[int, int, int]) -> float:
    return (max(rgb) + min(rgb)) / 2 / 255


def show_ideas(page: Page, locale: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, "demo", "demo", f"/widget/?locale={locale}")
    page.get_by_test_id("start").click()
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill(INTERESTS)
    page.get_by_test_id("suggest-gifts").click()
    expect(page.get_by_test_id("gift-card").first).to_be_visible()
    page.wait_for_function("() => document.getElementById('gg-root').ariaBusy !== 'true'")


def pictures_in_view_loaded(page: Page) -> list[dict]:
    page.wait_for_function(
        "() => [...document.querySelectorAll('.gg-pic img')].every(i => {"
        " const b = i.getBoundingClientRect();"
        " return b.right <= 0 || b.left >= innerWidth || b.bottom <= 0 || b.top >= innerHeight"
        " || i.complete; })"
    )
    return page.evaluate(CARD_PICTURES)


def check_pictures(page: Page, name: str) -> list[dict]:
    cards = pictures_in_view_loaded(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    assert page.evaluate(SIDEWAYS) == [], name
    assert page.evaluate(OVERFLOWING_TEXT) == [], name
    origin = page.evaluate("location.origin")
    images = dict(
        Product.objects.filter(id__in=[c["id"] for c in cards]).values_list("id", "image")
    )
    for card in cards:
        # The card's own product's picture, from this origin (img-src 'self'), with alt text.
        assert card["path"] == f"/static/{images[card['id']]}", (name, card)
        assert card["origin"] == origin and card["alt"].strip(), (name, card)
        if card["inView"]:
            assert card["loaded"], (name, card)
    return cards


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("locale", LOCALES)
def test_ideas_show_each_products_own_picture(page: Page, locale: str, width: int):
    show_ideas(page, locale, width)
    tag = f"{locale}-{width}"
    cards = check_pictures(page, f"{tag}-ideas")
    assert len(cards) >= 3 and len({c["path"] for c in cards}) >= 3  # not one picture for all

    # Fullscreen: every idea in a grid, each with its picture.
    page.evaluate("document.documentElement.dataset.displayMode = 'fullscreen'")
    expect(page.get_by_test_id("filters")).to_be_visible()
    cards = check_pictures(page, f"{tag}-ideas-fullscreen")
    first = next(c for c in cards if c["inView"])
    assert lightness(pixel(page, first["x"], first["y"])) > 0.8

    # The host turns dark (the bridge sets data-theme): the picture's backdrop turns dark too.
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    check_pictures(page, f"{tag}-ideas-fullscreen-dark")
    assert lightness(pixel(page, first["x"], first["y"])) < 0.3


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("locale", LOCALES)
def test_ideas_with_pictures_are_accessible(axe_page: Page, locale: str, width: int):
    show_ideas(axe_page, locale, width)
    pictures_in_view_loaded(axe_page)
    assert serious_axe_violations(axe_page) == []
    axe_page.evaluate("document.documentElement.dataset.theme = 'dark'")
    assert serious_axe_violations(axe_page) == []
