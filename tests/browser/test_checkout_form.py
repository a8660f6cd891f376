"""The checkout form in Chromium, as a person fills it: a country chosen by its name, an error
beside its field with everything typed kept, Back that keeps the form, times in their zone."""

from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import Browser, FrameLocator, Page, expect

from checkout.models import Order
from gifts.models import WorkflowContext
from tests.browser.conftest import (
    BROWSER_DB,
    BrowserProblems,
    log_in,
    serious_axe_violations,
    watched_context,
    widget_frame,
)
from tests.browser.flows import go_to_summary, mcp_calls, start_in_preview
from widget.formatting import in_time_zone, local_time

pytestmark = [pytest.mark.browser, BROWSER_DB]
DIALECTS = pytest.mark.parametrize(
    "dialect", ["mcp-apps", "openai"], ids=["mcp-apps", "window.openai"]
)
ADDRESS = {
    "shipping.name": "Zoë Kowalska",
    "shipping.line1": "ul. Długa 5",
    "shipping.city": "Gdańsk",
    "shipping.postal_code": "80-837",
}


def to_checkout(widget: FrameLocator) -> None:
    widget.get_by_test_id("select-gift").first.click()
    widget.get_by_test_id("go-to-checkout").click()
    expect(widget.get_by_test_id("checkout-form")).to_be_visible()


def fill(widget: FrameLocator, fields: dict[str, str]) -> None:
    for name, value in fields.items():
        widget.locator(f"[data-testid=checkout-form] [name='{name}']").fill(value)


def expect_form(widget: FrameLocator, fields: dict[str, str]) -> None:
    for name, value in fields.items():
        expect(widget.locator(f"[data-testid=checkout-form] [name='{name}']")).to_have_value(value)


def test_the_country_is_chosen_by_its_name_in_the_persons_language(staff_page: Page):
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page, "?locale=pl")
    widget = widget_frame(page)
    to_checkout(widget)
    country = widget.get_by_test_id("country")
    expect(widget.locator("label[for]", has_text="Kraj")).to_be_visible()
    expect(country.locator("option[value=DE]")).to_have_text("Niemcy")
    country.select_option(label="Polska")
    expect(country).to_have_value("PL")
    widget.get_by_test_id("prepare-order").click()
    expect(widget.get_by_test_id("confirm-purchase")).to_be_visible()

    sent = [c for c in calls if c["name"] == "prepare_order"]
    assert [c["arguments"]["shipping"]["country"] for c in sent] == ["PL"]
    assert Order.objects.get(owner__username="demo", status="draft").shipping["country"] == "PL"


def test_a_refused_field_shows_its_error_beside_it_and_keeps_everything_typed(staff_page: Page):
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page)
    widget = widget_frame(page)
    to_checkout(widget)
    widget.get_by_test_id("payment-method").select_option("pm_card_pending")
    widget.get_by_test_id("country").select_option(label="Poland")
    # The browser lets "#" through (the field has no pattern); the tool refuses it.
    typed = {**ADDRESS, "shipping.postal_code": "80-8#7"}
    fill(widget, typed)
    widget.get_by_test_id("prepare-order").click()

    expect(widget.get_by_test_id("form-errors")).to_be_visible()
    postal = widget.locator("[name='shipping.postal_code']")
    field = widget.locator(".gg-field", has=postal)
    expect(field.get_by_test_id("field-error")).to_have_text(
        "Enter the postal code: 2 to 16 letters, digits, spaces or hyphens."
    )
    expect(widget.get_by_test_id("field-error")).to_have_count(1)  # only beside that field
    expect(postal).to_have_attribute("aria-invalid", "true")
    expect(postal).to_be_focused()
    expect(widget.get_by_test_id("error-banner")).to_have_count(0)  # no page-level banner
    expect_form(widget, {**typed, "shipping.country": "PL", "payment_method_id": "pm_card_pending"})
    assert not Order.objects.filter(owner__username="demo").exists()

    postal.fill("80-837")
    widget.get_by_test_id("prepare-order").click()
    expect(widget.get_by_test_id("confirm-purchase")).to_be_visible()
    order = Order.objects.get(owner__username="demo", status="draft")
    assert order.shipping == {
        "name": "Zoë Kowalska",
        "line1": "ul. Długa 5",
        "city": "Gdańsk",
        "postal_code": "80-837",
        "country": "PL",
    }
    assert order.payment_method_id == "pm_card_pending"
    assert [c["name"] for c in calls].count("prepare_order") == 2


@DIALECTS
def test_back_from_the_review_and_from_checkout_keeps_the_form(staff_page: Page, dialect: str):
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page, f"?dialect={dialect}")
    widget = widget_frame(page)
    to_checkout(widget)
    widget.get_by_test_id("payment-method").select_option("pm_card_pending")
    widget.get_by_test_id("country").select_option("PL")
    fill(widget, ADDRESS)
    widget.get_by_test_id("prepare-order").click()
    expect(widget.get_by_test_id("confirm-purchase")).to_be_visible()

    # Back from the review: the form, as it was sent; the draft keeps its hold.
    widget.get_by_test_id("back").click()
    expect(widget.get_by_test_id("checkout-form")).to_be_visible()
    whole = {**ADDRESS, "shipping.country": "PL", "payment_method_id": "pm_card_pending"}
    expect_form(widget, whole)
    assert calls[-1]["name"] == "get_payment_methods"
    workflow = WorkflowContext.objects.get(owner__username="demo")
    assert workflow.current_step == "checkout"
    assert Order.objects.filter(workflow=workflow, status="draft").count() == 1

    # Typed but not sent, then Back from checkout and on to checkout again: still there.
    widget.locator("[name='shipping.name']").fill("Jan Nowak")
    widget.get_by_test_id("country").select_option("DE")
    widget.get_by_test_id("back").click()
    expect(widget.get_by_test_id("go-to-checkout")).to_be_visible()
    widget.get_by_test_id("go-to-checkout").click()
    expect(widget.get_by_test_id("checkout-form")).to_be_visible()
    expect_form(widget, {**whole, "shipping.name": "Jan Nowak", "shipping.country": "DE"})

    # Sent again, the review shows the new entry (and the form's draft is done with).
    widget.get_by_test_id("prepare-order").click()
    expect(widget.get_by_test_id("order-summary")).to_contain_text("Jan Nowak")


@pytest.mark.parametrize("dialect", ["mcp-apps", "openai", "htmx"])
def test_the_hold_is_shown_in_the_persons_time_zone(
    browser: Browser, server: str, problems: BrowserProblems, dialect: str
):
    zone = "Asia/Tokyo"  # nine hours from UTC all year: never the UTC time
    with watched_context(browser, server, problems, timezone_id=zone) as context:
        page = context.new_page()
        calls = mcp_calls(page)
        if dialect == "htmx":
            log_in(page, "demo", "demo", "/widget/")
            page.get_by_test_id("start").click()
            page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee")
            page.get_by_test_id("suggest-gifts").click()
            page.get_by_test_id("select-gift").first.click()
            page.get_by_test_id("go-to-checkout").click()
            page.get_by_test_id("prepare-order").click()
            widget = page
        else:
            log_in(page, "demo", "demo", "/preview/")
            start_in_preview(page, f"?dialect={dialect}")
            go_to_summary(page)
            widget = widget_frame(page)
        held = widget.locator("[data-gg-state=summary] .gg-help")
        expect(held).to_be_visible()
        order = Order.objects.get(owner__username="demo", status="draft")
        with translation.override("en"):
            with in_time_zone(zone):
                tokyo = local_time(order.expires_at)
            utc = local_time(order.expires_at)
        expect(held).to_contain_text(tokyo)
        assert utc.removesuffix(" UTC") not in held.inner_text() and "UTC" not in held.inner_text()

        prepare = next(c for c in calls if c["name"] == "prepare_order") if calls else None
        if dialect == "mcp-apps":  # from the host context, sent by the widget with its call
            assert prepare["_meta"]["giftgenius/timeZone"] == zone
        elif dialect == "openai":  # window.openai cannot add _meta: the host's own hint
            assert prepare["_meta"]["openai/userLocation"]["timezone"] == zone


def test_the_hosts_time_zone_wins_over_the_browsers(
    browser: Browser, server: str, problems: BrowserProblems
):
    host_zone = "America/Los_Angeles"  # the host's context says so; the browser is in Tokyo
    with watched_context(browser, server, problems, timezone_id="Asia/Tokyo") as context:
        page = context.new_page()
        calls = mcp_calls(page)
        log_in(page, "demo", "demo", "/preview/")
        start_in_preview(page, f"?tz={host_zone}")
        go_to_summary(page)
        order = Order.objects.get(owner__username="demo", status="draft")
        with translation.override("en"), in_time_zone(host_zone):
            expected = local_time(order.expires_at)
        held = widget_frame(page).locator("[data-gg-state=summary] .gg-help")
        expect(held).to_contain_text(expected)
        widget_calls = [c for c in calls if c["name"] == "prepare_order"]
        assert [c["_meta"]["giftgenius/timeZone"] for c in widget_calls] == [host_zone]


def test_the_form_with_an_error_beside_a_field_is_accessible(axe_page: Page):
    page = axe_page
    log_in(page, "demo", "demo", "/widget/")
    page.get_by_test_id("start").click()
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee")
    page.get_by_test_id("suggest-gifts").click()
    page.get_by_test_id("select-gift").first.click()
    page.get_by_test_id("go-to-checkout").click()
    page.locator("[name='shipping.postal_code']").fill("80-8#7")
    page.get_by_test_id("prepare-order").click()
    expect(page.get_by_test_id("field-error")).to_be_visible()
    expect(page.locator("[name='shipping.postal_code']")).to_be_focused()
    expect(page.locator("[name='shipping.postal_code']")).to_have_value("80-8#7")
    assert serious_axe_violations(page) == []


def test_what_was_typed_survives_a_reload_of_the_page(page: Page):
    log_in(page, "demo", "demo", "/widget/")
    page.get_by_test_id("start").click()
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee")
    page.get_by_test_id("suggest-gifts").click()
    page.get_by_test_id("select-gift").first.click()
    page.get_by_test_id("go-to-checkout").click()
    page.locator("[name='shipping.name']").fill("Jan Nowak")
    page.get_by_test_id("country").select_option("PL")
    page.reload()
    expect(page.get_by_test_id("checkout-form")).to_be_visible()
    expect(page.locator("[name='shipping.name']")).to_have_value("Jan Nowak")
    expect(page.get_by_test_id("country")).to_have_value("PL")
