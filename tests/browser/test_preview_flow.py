"""The QA preview end to end: the panel plays the model, the widget runs as it would in ChatGPT."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, Route, expect

from checkout.models import Order, Payment
from gifts.models import WorkflowContext
from tests.browser.conftest import BROWSER_DB, screenshot, widget_frame
from tests.browser.flows import go_to_summary, mcp_calls, start_in_preview

pytestmark = [pytest.mark.browser, BROWSER_DB]


@pytest.mark.parametrize(
    ("dialect", "mode"),
    [("mcp-apps", "mcp"), ("openai", "openai")],
    ids=["mcp-apps", "window.openai"],
)
def test_the_whole_flow_from_brief_to_completed(staff_page: Page, dialect: str, mode: str):
    """The same purchase in both dialects: an MCP Apps host, and one offering only window.openai."""
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page, f"?dialect={dialect}")
    widget = widget_frame(page)
    expect(widget.locator("#gg-app")).to_have_attribute("data-gg-mode", mode)
    cards = widget.get_by_test_id("gift-card")
    assert cards.count() >= 2
    screenshot(page, f"preview-suggestions-light-{dialect}")

    first_name = cards.nth(0).locator("h3").inner_text()
    widget.get_by_test_id("select-gift").nth(0).click()
    expect(widget.get_by_test_id("go-to-checkout")).to_be_visible()
    expect(widget.locator("[data-gg-state=selected] .gg-card__name")).to_have_text(first_name)

    widget.get_by_test_id("back").click()  # Back → user_navigated_to_step(ideas)
    expect(widget.get_by_test_id("gift-card").nth(1)).to_be_visible()
    second_name = widget.get_by_test_id("gift-card").nth(1).locator("h3").inner_text()
    widget.get_by_test_id("select-gift").nth(1).click()
    expect(widget.locator("[data-gg-state=selected] .gg-card__name")).to_have_text(second_name)

    widget.get_by_test_id("go-to-checkout").click()
    widget.get_by_test_id("payment-method").select_option("pm_card_visa")
    widget.get_by_test_id("prepare-order").click()
    confirm = widget.get_by_test_id("confirm-purchase")
    expect(confirm).to_be_visible()
    expect(widget.get_by_test_id("order-summary")).to_contain_text(second_name)
    # The confirmation token is in the button's data attribute, never in the visible text.
    token = json.loads(confirm.get_attribute("data-gg-args"))["confirmation_token"]
    assert token and token not in widget.locator("body").inner_text()

    confirm.click()
    status = widget.get_by_test_id("order-status")
    expect(status).to_have_attribute("data-status", "completed")
    screenshot(page, f"preview-completed-light-{dialect}")

    workflow = WorkflowContext.objects.get(owner__username="demo")
    assert workflow.current_step == "completed"
    order = Order.objects.get(workflow=workflow, status="completed")
    assert order.lines.get().name == second_name
    assert Payment.objects.filter(order=order).count() == 1

    tools = [c["name"] for c in calls]
    assert tools == [
        "start_gift_workflow", "suggest_gifts", "select_gift", "user_navigated_to_step", "select_gift",
        "get_payment_methods", "prepare_order", "commit_order",
    ]  # fmt: skip
    keys = [
        c["arguments"].get("idempotency_key")
        for c in calls
        if c["name"] in {"prepare_order", "commit_order"}
    ]
    assert all(keys) and len(set(keys)) == 2  # one fresh key per new action
    assert all(c["_meta"]["openai/locale"] == "en-US" for c in calls)

    # The log shows each call, with what the model sees beside the widget-only _meta.
    log = page.get_by_test_id("qa-log")
    expect(log.get_by_test_id("qa-log-entry")).to_have_count(len(calls))
    prepare_entry = log.locator('[data-tool="prepare_order"]')
    model_side, widget_side = prepare_entry.locator(".qa-col").all()
    assert token not in model_side.inner_text()
    assert "confirmation_token" in widget_side.inner_text()


def test_dark_theme_and_polish_from_the_url(staff_page: Page):
    page = staff_page
    start_in_preview(page, "?locale=pl&theme=dark")
    widget = widget_frame(page)
    expect(widget.locator("html")).to_have_attribute("data-theme", "dark")
    expect(widget.get_by_test_id("select-gift").first).to_have_text("Wybierz")
    screenshot(page, "preview-suggestions-dark-pl")
    go_to_summary(page)
    widget.get_by_test_id("confirm-purchase").click()
    expect(widget.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")
    expect(widget.get_by_test_id("order-status")).to_contain_text("Dziękujemy")
    screenshot(page, "preview-completed-dark-pl")


@pytest.mark.parametrize("dialect", ["mcp-apps", "openai"])
def test_the_theme_follows_the_host_without_a_reload(staff_page: Page, dialect: str):
    page = staff_page
    start_in_preview(page, f"?dialect={dialect}")
    widget = widget_frame(page)
    page.get_by_test_id("qa-theme").select_option("dark")
    expect(widget.locator("html")).to_have_attribute("data-theme", "dark")
    page.get_by_test_id("qa-theme").select_option("light")
    expect(widget.locator("html")).to_have_attribute("data-theme", "light")


def test_a_host_repeating_its_globals_does_not_undo_the_persons_steps(staff_page: Page):
    page = staff_page
    start_in_preview(page, "?dialect=openai")
    widget = widget_frame(page)
    widget.get_by_test_id("select-gift").first.click()
    expect(widget.get_by_test_id("go-to-checkout")).to_be_visible()
    # ChatGPT may send openai:set_globals again with the original tool result; listeners run
    # synchronously inside dispatchEvent, so the widget has reacted when evaluate returns.
    page.evaluate(
        """() => {
            const now = GiftGeniusPreviewHost.snapshot();
            GiftGeniusPreviewHost.setGlobals({toolOutput: now.toolOutput, toolResponseMetadata: now.toolResponseMetadata});
        }"""
    )
    expect(widget.get_by_test_id("go-to-checkout")).to_have_count(1)
    expect(widget.get_by_test_id("gift-card")).to_have_count(1)


def test_catalog_fault_then_try_again_after_clearing_it(staff_page: Page):
    page = staff_page
    calls = mcp_calls(page)
    page.goto("/preview/?fault=catalog_503")
    page.get_by_test_id("qa-start").click()
    widget = widget_frame(page)
    banner = widget.get_by_test_id("error-banner")
    expect(banner).to_have_attribute("data-error-code", "UPSTREAM_UNAVAILABLE")
    expect(banner).to_contain_text("Our gift catalog is not answering right now")
    assert "UPSTREAM_UNAVAILABLE" not in banner.inner_text()  # the code is an attribute, not text

    page.get_by_test_id("qa-fault").select_option("none")
    widget.get_by_test_id("retry").click()
    expect(widget.get_by_test_id("gift-card").first).to_be_visible()
    suggest = [c for c in calls if c["name"] == "suggest_gifts"]
    assert len(suggest) == 2
    assert (
        suggest[0]["_meta"]["giftgenius/fault"] == "catalog=503"
        and "giftgenius/fault" not in suggest[1]["_meta"]
    )
    assert suggest[0]["arguments"] == suggest[1]["arguments"]  # "Try again" repeats the same call


def test_catalog_timeout_fault_in_polish(staff_page: Page):
    page = staff_page
    page.goto("/preview/?fault=catalog_timeout&locale=pl")
    page.get_by_test_id("qa-start").click()
    banner = widget_frame(page).get_by_test_id("error-banner")
    expect(banner).to_have_attribute("data-error-code", "UPSTREAM_TIMEOUT")
    expect(banner).to_contain_text("Nasz katalog prezentów odpowiada zbyt długo")
    expect(widget_frame(page).get_by_test_id("retry")).to_have_text("Spróbuj ponownie")


def test_a_lost_answer_and_a_reload_resend_the_same_key_and_charge_once(staff_page: Page):
    """The commit's answer is lost on the way back; after a reload the person clicks again."""
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page)
    go_to_summary(page)

    def lose_the_answer(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        if body.get("params", {}).get("name") != "commit_order":
            route.continue_()
            return
        route.fetch()  # the server runs the call (and charges)...
        lost = {
            "jsonrpc": "2.0",
            "id": body.get("id"),
            "error": {"code": -32000, "message": "connection reset"},
        }
        route.fulfill(
            status=200, content_type="application/json", body=json.dumps(lost)
        )  # ...the answer is lost

    page.route("**/mcp", lose_the_answer)
    widget = widget_frame(page)
    widget.get_by_test_id("confirm-purchase").click()
    expect(widget.get_by_test_id("error-banner")).to_have_attribute(
        "data-error-code", "CLIENT_UNREACHABLE"
    )
    page.unroute("**/mcp")

    page.reload()  # the widget comes back where it was, with its widget state
    confirm = widget_frame(page).get_by_test_id("confirm-purchase")
    expect(confirm).to_be_visible()
    confirm.click()
    expect(widget_frame(page).get_by_test_id("order-status")).to_have_attribute(
        "data-status", "completed"
    )

    commits = [c for c in calls if c["name"] == "commit_order"]
    assert len(commits) == 2
    assert commits[0]["arguments"]["idempotency_key"] == commits[1]["arguments"]["idempotency_key"]
    order = Order.objects.get(pk=commits[0]["arguments"]["order_id"])
    assert order.status == "completed"
    assert Payment.objects.filter(order=order).count() == 1


def test_try_again_after_a_lost_answer_resends_the_same_key(staff_page: Page):
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page)
    go_to_summary(page)
    lost_once = {"done": False}

    def lose_first_answer(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        if body.get("params", {}).get("name") == "commit_order" and not lost_once["done"]:
            lost_once["done"] = True
            route.fetch()
            route.fulfill(status=200, content_type="application/json", body=json.dumps(
                {"jsonrpc": "2.0", "id": body.get("id"), "error": {"code": -32000, "message": "connection reset"}}
            ))  # fmt: skip
            return
        route.continue_()

    page.route("**/mcp", lose_first_answer)
    widget = widget_frame(page)
    widget.get_by_test_id("confirm-purchase").click()
    widget.get_by_test_id("retry").click()
    expect(widget.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")
    commits = [c for c in calls if c["name"] == "commit_order"]
    assert len(commits) == 2 and commits[0]["arguments"] == commits[1]["arguments"]
    assert Payment.objects.filter(order_id=commits[0]["arguments"]["order_id"]).count() == 1


@pytest.mark.parametrize("dialect", ["mcp-apps", "openai"])
def test_a_product_the_person_names_is_found_and_bought(staff_page: Page, dialect: str):
    """start_gift_workflow → search_products(workflow_id) → select_gift: the search moved the
    workflow to ideas, so its results are selectable at once and the purchase completes."""
    page = staff_page
    calls = mcp_calls(page)
    page.goto(f"/preview/?dialect={dialect}")
    page.get_by_test_id("qa-search").fill("espresso cups")
    page.get_by_test_id("qa-search-start").click()
    widget = widget_frame(page)
    cards = widget.get_by_test_id("gift-card")
    expect(cards.first).to_be_visible()
    name = cards.first.locator("h3").inner_text()
    widget.get_by_test_id("select-gift").first.click()
    expect(widget.locator("[data-gg-state=selected] .gg-card__name")).to_have_text(name)
    widget.get_by_test_id("go-to-checkout").click()
    widget.get_by_test_id("payment-method").select_option("pm_card_visa")
    widget.get_by_test_id("prepare-order").click()
    widget.get_by_test_id("confirm-purchase").click()
    expect(widget.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")

    assert [c["name"] for c in calls][:3] == [
        "start_gift_workflow",
        "search_products",
        "select_gift",
    ]
    workflow_id = calls[1]["arguments"]["workflow_id"]
    assert calls[2]["arguments"]["workflow_id"] == workflow_id  # selected within that workflow
    order = Order.objects.get(workflow_id=workflow_id, status="completed")
    assert order.lines.get().name == name


@pytest.mark.parametrize("dialect", ["mcp-apps", "openai"])
def test_no_results_say_why_in_polish_and_the_brief_can_be_changed_right_there(
    staff_page: Page, dialect: str
):
    page = staff_page
    calls = mcp_calls(page)
    page.goto(f"/preview/?locale=pl&dialect={dialect}")
    brief = {
        "relationship": "friend",
        "interests": ["underwater basket weaving"],
        "budget_min": 20,
        "budget_max": 60,
        "currency": "USD",
    }
    page.fill("#qa-brief", json.dumps(brief))
    page.get_by_test_id("qa-start").click()
    widget = widget_frame(page)
    expect(widget.get_by_test_id("no-results-reason")).to_have_text(
        "Nic w katalogu nie pasuje do „underwater basket weaving”."
    )
    form = widget.get_by_test_id("brief-form")
    interests = form.locator("input[name=interests]")
    expect(interests).to_have_value("underwater basket weaving")
    screenshot(page, f"preview-empty-pl-{dialect}")
    interests.fill("coffee")
    form.get_by_test_id("suggest-gifts").click()
    expect(widget.get_by_test_id("gift-card").first).to_be_visible()
    again = [c for c in calls if c["name"] == "suggest_gifts"][-1]["arguments"]
    assert again["interests"] == ["coffee"] and again["workflow_id"]


def test_the_category_filter_lists_a_category_offers_the_nearest_change_and_remembers_it(
    staff_page: Page,
):
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page)
    widget = widget_frame(page)
    ideas = widget.get_by_test_id("gift-card").count()
    widget.get_by_test_id("see-all").click()
    category = widget.get_by_test_id("filter-category")
    expect(category).to_be_visible()
    select = category.locator("select[name=category]")
    expect(select.locator("option").first).to_have_text(re.compile(r"^All \(\d+\)$"))
    jewelry = select.locator("option[value=jewelry]").inner_text()
    count = int(re.search(r"\((\d+)\)", jewelry).group(1))
    assert count > 0

    # Nothing typed: everything in the category within the budget, never the interests.
    select.select_option("jewelry")
    category.locator("button[type=submit]").click()
    expect(widget.locator("[data-gg-tool=search_products] h2")).to_have_text(f"{count} results")
    asked = [c for c in calls if c["name"] == "search_products"][-1]["arguments"]
    assert asked["category"] == "jewelry" and "query" not in asked
    assert {"min_price", "max_price"} <= asked.keys()

    # Words with no hit in the category: the nearest change that finds some, with its count.
    category.locator("input[name=query]").fill("coffee")
    category.locator("select[name=category]").select_option("pets")
    category.locator("button[type=submit]").click()
    expect(widget.locator("[data-gg-tool=search_products] h2")).to_have_text(
        "Nothing found with these filters."
    )
    expect(widget.get_by_test_id("filters")).to_be_visible()  # still in fullscreen, not stuck
    screenshot(page, "preview-fullscreen-category-without-hits")
    every = widget.get_by_test_id("apply-suggestion").filter(has_text="Search every category")
    found = int(re.search(r"\((\d+) results\)", every.inner_text()).group(1))
    every.click()
    expect(widget.locator("[data-gg-tool=search_products] h2")).to_have_text(f"{found} results")

    # Sorted by price, low to high.
    category = widget.get_by_test_id("filter-category")
    category.locator("select[name=sort]").select_option("price_asc")
    category.locator("button[type=submit]").click()
    expect(widget.get_by_test_id("gift-card").first).to_be_visible()
    assert [c for c in calls if c["name"] == "search_products"][-1]["arguments"]["sort"] == (
        "price_asc"
    )

    # Back at the ideas, the category last chosen is still chosen (the widget's own state).
    widget.get_by_test_id("filter-category").locator("select[name=category]").select_option(
        "kitchen"
    )
    widget.get_by_test_id("back").click()
    expect(
        widget.locator("[data-gg-state=suggestions][data-gg-tool=user_navigated_to_step]")
    ).to_be_visible()
    assert widget.get_by_test_id("gift-card").count() >= ideas
    expect(widget.get_by_test_id("filter-category").locator("select[name=category]")).to_have_value(
        "kitchen"
    )


def test_a_delivery_option_chosen_in_the_summary_reprices_what_is_charged(staff_page: Page):
    page = staff_page
    start_in_preview(page)
    go_to_summary(page)
    widget = widget_frame(page)
    expect(widget.locator('[data-total="shipping"]')).to_contain_text("Standard")
    widget.locator('input[name="shipping_option"][value="express"]').check()
    widget.get_by_test_id("update-order").click()
    expect(widget.locator('[data-total="shipping"]')).to_contain_text("$9.90")
    order = Order.objects.get(workflow__owner__username="demo", status="draft")
    assert order.shipping_option == "express"
    expect(widget.locator('[data-total="total"]')).to_contain_text(f"${order.amount}")
    widget.get_by_test_id("confirm-purchase").click()
    expect(widget.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")
    (payment,) = Payment.objects.filter(order=order)
    assert payment.amount == order.amount == order.items_total + order.shipping_total
