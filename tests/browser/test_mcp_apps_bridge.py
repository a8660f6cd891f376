"""The bridge's MCP Apps dialect in the QA preview (which plays an MCP Apps host over postMessage):
bad host messages, a result without a fragment, display modes, follow-ups and the frame height."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import BROWSER_DB, screenshot, widget_frame, widget_frame_handle
from tests.browser.flows import mcp_calls, start_in_preview

pytestmark = [pytest.mark.browser, BROWSER_DB]

IGNORED = "GiftGenius widget ignored a host message: "

# Posts from the preview page (the host window, the host's origin) into the widget frame.
POST_FROM_HOST = """messages => {
    const frame = document.querySelector('[data-testid="qa-frame"]').contentWindow;
    for (const m of messages) frame.postMessage(m, location.origin);
}"""


def post_from_host(page: Page, *messages) -> None:
    page.evaluate(POST_FROM_HOST, list(messages))


def settle_host_messages(page: Page, theme: str) -> None:
    """Messages from one window arrive in order: once a later theme change shows, the widget
    has handled everything the host posted before it."""
    post_from_host(
        page,
        {
            "jsonrpc": "2.0",
            "method": "ui/notifications/host-context-changed",
            "params": {"theme": theme},
        },
    )
    expect(widget_frame(page).locator("html")).to_have_attribute("data-theme", theme)


def test_bad_host_messages_are_ignored_logged_once_and_leave_the_widget_working(staff_page: Page):
    page = staff_page
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    start_in_preview(page)
    widget = widget_frame(page)
    expect(widget.locator("#gg-app")).to_have_attribute("data-gg-mode", "mcp")
    before = widget.locator("#gg-root").inner_html()

    bad = [
        "not JSON-RPC at all",
        {"jsonrpc": "1.0", "method": "ui/notifications/tool-result", "params": {}},
        {"jsonrpc": "2.0", "method": "ui/notifications/made-up", "params": {}},
        {"jsonrpc": "2.0", "id": 4242, "result": {"content": []}},  # an answer to nothing
        {"jsonrpc": "2.0", "method": "ui/notifications/tool-result", "params": "not an object"},
    ]
    post_from_host(page, *bad, *bad)  # each kind twice: still one console line per kind
    settle_host_messages(page, "dark")
    # The right shape from the wrong window (the frame itself): would blank the view if obeyed.
    widget_frame_handle(page).evaluate(
        """() => new Promise(done => {
            window.addEventListener("message", () => done(), {once: true});
            window.postMessage({jsonrpc: "2.0", method: "ui/notifications/tool-result",
                                params: {content: [{type: "text", text: "forged"}]}}, "*");
        })"""
    )

    assert widget.locator("#gg-root").inner_html() == before
    expect(widget.get_by_test_id("error-banner")).to_have_count(0)
    logged = [w.split(IGNORED, 1)[1] for w in warnings if IGNORED in w]
    assert len(logged) == 5, logged
    for reason in (
        "not JSON-RPC 2.0",
        "unknown method",
        "a response to a request never sent",
        "bad params",
        "not from the host window",
    ):
        assert sum(entry.startswith(reason) for entry in logged) == 1, (reason, logged)

    # The widget still works: the next click is a real tools/call through the host.
    widget.get_by_test_id("select-gift").first.click()
    expect(widget.get_by_test_id("go-to-checkout")).to_be_visible()


def test_a_host_tool_result_without_a_fragment_shows_the_error_banner(staff_page: Page):
    page = staff_page
    start_in_preview(page)
    post_from_host(
        page,
        {
            "jsonrpc": "2.0",
            "method": "ui/notifications/tool-result",
            "params": {
                "content": [{"type": "text", "text": "3 gift ideas found."}],
                "structuredContent": {"ok": True},
            },
        },
    )
    banner = widget_frame(page).get_by_test_id("error-banner")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-error-code", "CLIENT_UNREACHABLE")


def test_an_apps_own_call_answered_without_a_fragment_shows_the_error_banner(staff_page: Page):
    page = staff_page
    start_in_preview(page)

    def strip_fragment(route: Route) -> None:
        answer = route.fetch().json()
        answer["result"]["_meta"].pop("html")
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    page.route("**/mcp", strip_fragment)
    widget = widget_frame(page)
    widget.get_by_test_id("select-gift").first.click()
    expect(widget.get_by_test_id("error-banner")).to_have_attribute(
        "data-error-code", "CLIENT_UNREACHABLE"
    )
    expect(widget.get_by_test_id("retry")).to_be_visible()
    page.unroute("**/mcp")
    widget.get_by_test_id("retry").click()  # the same action again, now with its fragment
    expect(widget.get_by_test_id("go-to-checkout")).to_be_visible()


def test_a_host_repeating_its_tool_result_does_not_undo_the_persons_steps(staff_page: Page):
    page = staff_page
    start_in_preview(page)
    widget = widget_frame(page)
    widget.get_by_test_id("select-gift").first.click()
    expect(widget.get_by_test_id("go-to-checkout")).to_be_visible()
    original = page.evaluate("() => GiftGeniusPreviewHost.snapshot().toolResult")
    assert "html" in original["_meta"]
    post_from_host(
        page, {"jsonrpc": "2.0", "method": "ui/notifications/tool-result", "params": original}
    )
    settle_host_messages(page, "dark")
    expect(widget.get_by_test_id("go-to-checkout")).to_have_count(1)
    expect(widget.get_by_test_id("gift-card")).to_have_count(1)


def test_display_mode_follows_the_host_and_the_widget_can_ask_for_fullscreen(staff_page: Page):
    page = staff_page
    start_in_preview(page)
    widget = widget_frame(page)
    root = widget.locator("html")
    expect(root).to_have_attribute("data-display-mode", "inline")

    page.get_by_test_id("qa-display-mode").select_option("fullscreen")  # the host switches
    expect(root).to_have_attribute("data-display-mode", "fullscreen")
    page.get_by_test_id("qa-display-mode").select_option("inline")
    expect(root).to_have_attribute("data-display-mode", "inline")

    # The widget asks (the ideas' own "See all" button): the host grants it and says so.
    widget.get_by_test_id("see-all").click()
    expect(root).to_have_attribute("data-display-mode", "fullscreen")
    expect(page.locator("#qa-stage")).to_have_class("qa-stage__frame qa-stage__frame--fullscreen")
    expect(page.get_by_test_id("qa-display-mode")).to_have_value("fullscreen")


def test_a_follow_up_button_sends_a_user_message_not_a_tool_call(staff_page: Page):
    page = staff_page
    start_in_preview(page)
    widget = widget_frame(page)
    calls_before = page.get_by_test_id("qa-log-entry").count()
    widget.locator("#gg-root").evaluate(
        """root => root.insertAdjacentHTML("beforeend",
            '<button type="button" data-testid="card" data-gg-follow-up="Write a card message for Ada">Card</button>')"""
    )
    widget.get_by_test_id("card").click()
    expect(page.get_by_test_id("qa-log-note").first).to_contain_text(
        "follow-up message to the model: Write a card message for Ada"
    )
    assert page.get_by_test_id("qa-log-entry").count() == calls_before


def test_the_frame_takes_the_height_the_app_asks_for(staff_page: Page):
    page = staff_page
    start_in_preview(page)
    # The host never reads into the frame; it sizes it from ui/notifications/size-changed.
    page.wait_for_function(
        """() => {
            const frame = document.querySelector('[data-testid="qa-frame"]');
            const wanted = Math.ceil(frame.contentDocument.documentElement.getBoundingClientRect().height);
            return wanted > 240 && frame.style.height === wanted + "px";
        }"""
    )


@pytest.mark.parametrize(
    ("dialect", "mode"),
    [("mcp-apps", "mcp"), ("openai", "openai")],
    ids=["mcp-apps", "window.openai"],
)
def test_each_widget_instance_shows_its_own_tool_result(staff_page: Page, dialect: str, mode: str):
    """Every widget of the app in a tab shares one origin (one sessionStorage): the view a person
    left in an earlier widget must not take the place of a later widget's own tool result, while
    a re-mount of the same widget (a reload) still shows where the person left it. Both dialects
    behave alike (window.openai keeps widget state per widget; MCP Apps keeps none)."""
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page, f"?dialect={dialect}")
    widget = widget_frame(page)
    widget.get_by_test_id("select-gift").first.click()
    expect(widget.locator("[data-gg-state=selected]")).to_be_visible()

    # The model answers again, for another brief and in Polish: a new widget instance.
    page.get_by_test_id("qa-locale").select_option("pl-PL")
    page.get_by_test_id("qa-brief").fill(
        json.dumps(
            {
                "relationship": "friend",
                "interests": ["gardening"],
                "budget_min": 10,
                "budget_max": 80,
                "currency": "USD",
            }
        )
    )
    page.get_by_test_id("qa-start").click()
    frame = page.locator('[data-testid="qa-frame"]')
    expect(frame).to_have_attribute("src", re.compile(r"instance=2"))
    second = [c for c in calls if c["name"] == "suggest_gifts"][-1]["arguments"]["workflow_id"]
    first = next(c for c in calls if c["name"] == "select_gift")["arguments"]["workflow_id"]
    assert second != first
    widget = widget_frame(page)
    expect(widget.locator("#gg-app")).to_have_attribute("data-gg-mode", mode)
    view = widget.locator("#gg-root [data-gg-view]")
    expect(view).to_have_attribute("data-gg-workflow", second)
    expect(view).to_have_attribute("data-gg-state", "suggestions")
    expect(widget.get_by_test_id("select-gift").first).to_have_text("Wybierz")

    # Its buttons act on its own workflow...
    widget.get_by_test_id("select-gift").first.click()
    expect(widget.locator("[data-gg-state=selected]")).to_have_attribute("data-gg-workflow", second)
    selects = [c["arguments"]["workflow_id"] for c in calls if c["name"] == "select_gift"]
    assert selects == [first, second]
    # ...and a reload re-mounts this widget for the same result: where the person left it.
    page.reload()
    widget = widget_frame(page)
    expect(widget.locator("#gg-app")).to_have_attribute("data-gg-mode", mode)
    expect(widget.locator("#gg-root [data-gg-view]")).to_have_attribute("data-gg-state", "selected")
    expect(widget.locator("#gg-root [data-gg-view]")).to_have_attribute("data-gg-workflow", second)


@pytest.mark.parametrize("dialect", ["mcp-apps", "openai"], ids=["mcp-apps", "window.openai"])
def test_a_late_answer_to_a_call_given_up_on_leaves_the_retry_in_charge(
    staff_page: Page, dialect: str
):
    """After the 30-second client timeout the person tries again; the first call's answer comes
    in while the retry still runs. It must not end the retry's busy state (a second click would
    then run the action twice at once) nor draw over the retry's view."""
    page = staff_page
    page.clock.install()  # time flows as usual; the test jumps over the client timeout
    held: list[Route] = []

    def hold_selects(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        if body.get("params", {}).get("name") == "select_gift":
            held.append(route)  # answered later, by the test
        else:
            route.continue_()

    def wait_for_held(count: int) -> None:
        for _ in range(100):
            if len(held) >= count:
                return
            page.wait_for_timeout(50)
        raise AssertionError(f"{len(held)} select_gift calls, expected {count}")

    def answer(route: Route) -> None:
        route.fulfill(response=route.fetch())

    start_in_preview(page, f"?dialect={dialect}")
    page.route("**/mcp", hold_selects)
    widget = widget_frame(page)
    gg_root = widget.locator("#gg-root")
    widget.get_by_test_id("select-gift").first.click()
    wait_for_held(1)
    expect(gg_root).to_have_attribute("aria-busy", "true")

    page.clock.fast_forward(31_000)
    expect(widget.get_by_test_id("error-banner")).to_have_attribute(
        "data-error-code", "CLIENT_TIMEOUT"
    )
    widget.get_by_test_id("retry").click()
    wait_for_held(2)
    expect(gg_root).to_have_attribute("aria-busy", "true")

    answer(held[0])  # the late answer of the call given up on
    expect(page.get_by_test_id("qa-log-entry").first).to_have_attribute("data-tool", "select_gift")
    settle_host_messages(page, "dark")  # the widget has handled the late answer by now
    expect(gg_root).to_have_attribute("aria-busy", "true")
    expect(widget.locator("[data-gg-state=selected]")).to_have_count(0)
    # A click now (the banner's "Try again") is refused: one action at a time.
    widget.get_by_test_id("retry").evaluate("button => button.click()")
    settle_host_messages(page, "light")
    assert len(held) == 2

    answer(held[1])
    expect(widget.locator("[data-gg-state=selected]")).to_be_visible()
    expect(gg_root).to_have_attribute("aria-busy", "false")
    args = [json.loads(r.request.post_data or "{}")["params"]["arguments"] for r in held]
    assert args[0] == args[1]  # the retry was the same action, idempotency key included


@pytest.mark.parametrize("dialect", ["mcp-apps", "openai"])
def test_qa_can_leave_full_screen_by_the_hosts_bar_or_escape(staff_page: Page, dialect: str):
    page = staff_page
    start_in_preview(page, f"?dialect={dialect}")
    widget = widget_frame(page)
    root = widget.locator("html")
    exit_button = page.get_by_test_id("qa-exit-fullscreen")
    expect(exit_button).to_be_hidden()  # inline: nothing to leave

    widget.get_by_test_id("see-all").click()
    expect(root).to_have_attribute("data-display-mode", "fullscreen")
    expect(exit_button).to_be_visible()
    screenshot(page, f"preview-fullscreen-exit-bar-{dialect}")
    exit_button.click()  # above the frame, not covered by it
    expect(root).to_have_attribute("data-display-mode", "inline")
    expect(page.get_by_test_id("qa-display-mode")).to_have_value("inline")
    expect(exit_button).to_be_hidden()
    page.get_by_test_id("qa-display-mode").click()  # the host controls are reachable again

    widget.get_by_test_id("see-all").click()
    expect(root).to_have_attribute("data-display-mode", "fullscreen")
    widget.get_by_test_id("filter-category").locator(
        "select[name=category]"
    ).focus()  # focus in the widget
    page.keyboard.press("Escape")
    expect(root).to_have_attribute("data-display-mode", "inline")
    expect(page.get_by_test_id("qa-display-mode")).to_have_value("inline")
