"""The strict CSP on every HTML page we serve, and the widget shell's own contract."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from widget.shell import GZIP_BUDGET_BYTES, HTMX_CONFIG, gzipped_size, render_widget_shell

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in filter(None, (p.strip() for p in header.split(";"))):
        name, *values = part.split()
        parsed[name] = values
    return parsed


@pytest.fixture
def admin_client(db):
    user = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-boss-12345")
    client = Client(SERVER_NAME="127.0.0.1")
    client.force_login(user)
    return client


HTML_PAGES = [
    ("/widget/", "'none'"),
    ("/preview/", "'none'"),
    ("/preview/frame/", "'self'"),
    ("/api/docs", "'none'"),
    ("/admin/", "'none'"),
    ("/admin/checkout/order/", "'none'"),
    ("/admin/auth/user/add/", "'none'"),
]


@pytest.mark.parametrize(("path", "ancestors"), HTML_PAGES)
def test_every_html_page_has_the_strict_policy(admin_client, path, ancestors):
    response = admin_client.get(path)
    assert response.status_code == 200, path
    assert response["Content-Type"].startswith("text/html")
    header = response["Content-Security-Policy"]
    policy = directives(header)
    assert "'unsafe-inline'" not in header and "'unsafe-eval'" not in header
    assert "*" not in header and "'unsafe-hashes'" not in header
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == [ancestors]
    assert policy["default-src"] == ["'self'"]
    for source in policy["script-src"]:  # only 'self' and a real per-response nonce
        assert source == "'self'" or re.fullmatch(r"'nonce-[A-Za-z0-9+/=]{20,}'", source), source


def test_the_login_page_and_fragments_have_the_policy_too(db):
    client = Client(SERVER_NAME="127.0.0.1")
    login = client.get("/admin/login/")
    assert directives(login["Content-Security-Policy"])["object-src"] == ["'none'"]
    fragment = client.post(
        "/widget/actions/get_workflow", data="{}", content_type="application/json"
    )
    assert "'unsafe-inline'" not in fragment["Content-Security-Policy"]


def test_a_nonce_is_fresh_per_response(admin_client):
    first = admin_client.get("/preview/frame/")["Content-Security-Policy"]
    second = admin_client.get("/preview/frame/")["Content-Security-Policy"]
    assert re.search(r"'nonce-[^']+'", first).group(0) != re.search(r"'nonce-[^']+'", second).group(
        0
    )


def test_the_frame_page_allows_its_inline_style_only_by_nonce(admin_client):
    policy = directives(admin_client.get("/preview/frame/")["Content-Security-Policy"])
    assert policy["style-src"][0] == "'self'" and policy["style-src"][1].startswith("'nonce-")
    assert len(policy["style-src"]) == 2


def test_pages_without_inline_code_carry_no_nonce(admin_client):
    policy = directives(admin_client.get("/widget/")["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]


# --- the shell -------------------------------------------------------------------------------------


def test_the_shell_is_small_enough(capsys):
    html = render_widget_shell()
    size = gzipped_size(html)
    with capsys.disabled():
        print(
            f"\nwidget shell: {len(html.encode())} bytes, {size} bytes gzipped (budget {GZIP_BUDGET_BYTES})"
        )
    # The budget: 25 KB gzipped, and room left under 22 KB for the widget's own CSS.
    assert GZIP_BUDGET_BYTES == 25 * 1024
    assert size <= GZIP_BUDGET_BYTES
    assert size <= 22 * 1024


def test_the_shell_carries_the_contract_and_no_htmx():
    html = render_widget_shell()
    assert 'data-gg-contract="v1"' in html
    assert '"gg-i18n"' in html or 'id="gg-i18n"' in html
    assert "GiftGenius widget bridge" in html and ".gg-card" in html
    # In a host the bridge runs the actions itself; htmx is only on the standalone page.
    assert "htmx-config" not in html and "hx-swap-oob" not in html


def test_the_standalone_page_carries_the_strict_htmx_config(admin_client):
    html = admin_client.get("/widget/").content.decode()
    assert HTMX_CONFIG["allowEval"] is False and HTMX_CONFIG["allowScriptTags"] is False
    assert HTMX_CONFIG["includeIndicatorStyles"] is False
    meta = re.search(r'<meta name="htmx-config" content="([^"]+)">', html).group(1)
    assert (
        "&quot;allowEval&quot;:false" in meta and "&quot;includeIndicatorStyles&quot;:false" in meta
    )
    assert "/static/django_htmx/htmx-2.min.js" in html


def test_the_shell_has_no_inline_handlers_styles_or_remote_assets():
    html = render_widget_shell()
    markup = re.sub(r"<script[^>]*>.*?</script>|<style[^>]*>.*?</style>", "", html, flags=re.S)
    assert not re.search(r"\son[a-z]+=", markup) and not re.search(r"\sstyle=", markup)
    assert "hx-on" not in markup and "https://" not in markup and "http://" not in markup
    bridge = re.search(r"GiftGenius widget bridge.*?</script>", html, re.S).group(0)
    assert "eval(" not in bridge and "new Function" not in bridge and "innerHTML = html" in bridge


def test_the_shell_for_the_preview_puts_the_nonce_on_every_inline_element():
    html = render_widget_shell(nonce="abc123", head_scripts=["/static/widget/host-emulator.js"])
    assert len(re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", html)) == 1
    assert html.count(' nonce="abc123"') == 2  # the <style> and the bridge
    assert html.index("host-emulator.js") < html.index("GiftGenius widget bridge")
