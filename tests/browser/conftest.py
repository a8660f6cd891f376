"""Browser tests: Debian's Chromium driven by Playwright against a real uvicorn live server.

Every page a test opens is watched: a `securitypolicyviolation` listener (installed in every
frame before any page script runs), console errors and uncaught page errors are collected and
must all be empty when the test ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, BrowserContext, Frame, FrameLocator, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from tests import REPO_ROOT

# Playwright's sync API keeps an event loop on this thread; the ORM calls the tests make
# between browser steps are ordinary synchronous code, so Django's async guard (read at each
# call) is lifted for the browser tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # The SDK host test's sandbox origin is a routed fake public host while the live server is
    # loopback; Chromium's local-network checks would refuse that pairing, which real hosts
    # (both public) never meet. CSP is still enforced.
    "--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,LocalNetworkAccessChecks",
]
AXE_JS = REPO_ROOT / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = REPO_ROOT / "var" / "browser-artifacts"
BROWSER_DB = pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"])

CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.__ggReportCsp({
    directive: e.effectiveDirective || e.violatedDirective,
    blocked: e.blockedURI,
    source: e.sourceFile,
    line: e.lineNumber,
    sample: e.sample,
    page: location.href,
  });
}, true);
"""


@dataclass
class BrowserProblems:
    """What went wrong in the browser: all of it must stay empty."""

    csp_violations: list[dict[str, Any]] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    allowed_console: list[re.Pattern[str]] = field(default_factory=list)

    def allow_console(self, pattern: str) -> None:
        """Expect a console error a test provokes on purpose (e.g. an aborted request)."""
        self.allowed_console.append(re.compile(pattern))

    def watch(self, page: Page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.page_errors.append(f"{error} @ {page.url}"))

    def _on_console(self, message: Any) -> None:
        if message.type == "error":
            self.console_errors.append(f"{message.text} @ {message.location.get('url', '')}")

    def unexpected(self) -> dict[str, list[Any]]:
        console = [
            m for m in self.console_errors if not any(p.search(m) for p in self.allowed_console)
        ]
        found = {
            "csp_violations": self.csp_violations,
            "console_errors": console,
            "page_errors": self.page_errors,
        }
        return {k: v for k, v in found.items() if v}


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is required at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def demo_users(transactional_db) -> None:
    call_command("ensure_demo_users", stdout=open(os.devnull, "w"))  # noqa: SIM115


@pytest.fixture
def server(live_url: str, demo_users: None, demo_catalog: Any) -> str:
    """A live server with the demo users (demo/demo is staff) and the demo catalog."""
    return live_url


@pytest.fixture
def problems() -> BrowserProblems:
    return BrowserProblems()


def new_context(
    browser: Browser, server: str, problems: BrowserProblems, **options: Any
) -> BrowserContext:
    context = browser.new_context(
        base_url=server, viewport={"width": 1280, "height": 900}, **options
    )
    context.set_default_timeout(15_000)
    context.expose_binding(
        "__ggReportCsp", lambda source, violation: problems.csp_violations.append(violation)
    )
    context.add_init_script(CSP_LISTENER)
    context.on("page", problems.watch)
    return context


def flush_reports(page: Page) -> None:
    """Let pending violation reports reach Python; a page still navigating (an OAuth redirect
    landing at teardown) is waited for first."""
    try:
        page.evaluate("1")
    except PlaywrightError as exc:
        if "Execution context was destroyed" not in str(exc):
            raise
        page.wait_for_load_state()
        page.evaluate("1")


@contextlib.contextmanager
def watched_context(
    browser: Browser, base_url: str, problems: BrowserProblems, **options: Any
) -> Iterator[BrowserContext]:
    """A context whose pages must all end with no CSP violation, console or page error;
    `options` as for Browser.new_context (a time zone, a locale)."""
    context = new_context(browser, base_url, problems, **options)
    yield context
    for open_page in context.pages:
        flush_reports(open_page)
    context.close()
    unexpected = problems.unexpected()
    assert not unexpected, "browser problems:\n" + json.dumps(unexpected, indent=2, default=str)


@pytest.fixture
def context(browser: Browser, server: str, problems: BrowserProblems) -> Iterator[BrowserContext]:
    with watched_context(browser, server, problems) as context:
        yield context


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


@pytest.fixture
def axe_page(browser: Browser, server: str, problems: BrowserProblems) -> Iterator[Page]:
    """A page in a context that bypasses CSP, only so axe-core can be injected as a script."""
    if not AXE_JS.exists():
        pytest.fail(f"{AXE_JS} is missing: run `npm ci` (package.json pins axe-core)")
    context = new_context(browser, server, problems, bypass_csp=True)
    yield context.new_page()
    context.close()
    unexpected = {k: v for k, v in problems.unexpected().items() if k != "csp_violations"}
    assert not unexpected, "browser problems:\n" + json.dumps(unexpected, indent=2, default=str)


def serious_axe_violations(target: Page | Frame) -> list[dict[str, Any]]:
    """axe-core's serious and critical findings (WCAG 2.1 A/AA and best practices) in a page or frame."""
    # Judge the settled screen, not a cross-fade: wait until no request or swap is in flight.
    target.wait_for_function(
        """() => !document.querySelector('.htmx-request, .gg-busy, .htmx-settling, .htmx-swapping')
               && (!document.getElementById('gg-root')
                   || getComputedStyle(document.getElementById('gg-root')).opacity === '1')"""
    )
    if not target.evaluate("() => typeof window.axe !== 'undefined'"):
        target.add_script_tag(path=str(AXE_JS))
    result = target.evaluate(
        """async () => {
            const r = await axe.run(document, {
                runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
                resultTypes: ["violations"],
            });
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                           nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)}));
        }"""
    )
    return [v for v in result if v["impact"] in {"serious", "critical"}]


def log_in(page: Page, username: str, password: str, next_path: str) -> None:
    page.goto(f"/admin/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("input[type=submit], button[type=submit]").first.click()
    page.wait_for_url(f"**{next_path}")


@pytest.fixture
def staff_page(page: Page) -> Page:
    """Signed in as the demo staff user through the admin login form."""
    log_in(page, "demo", "demo", "/preview/")
    return page


def widget_frame(page: Page) -> FrameLocator:
    return page.frame_locator('[data-testid="qa-frame"]')


def widget_frame_handle(page: Page) -> Frame:
    handle = page.locator('[data-testid="qa-frame"]').element_handle()
    frame = handle.content_frame() if handle else None
    assert frame is not None
    return frame


def screenshot(page: Page, name: str) -> Path:
    """The whole page and, in the preview, the widget frame alone (var/browser-artifacts/)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    frame = page.locator('[data-testid="qa-frame"]')
    if frame.count():
        frame.screenshot(path=str(ARTIFACTS / f"{name}-widget.png"))
    return path
