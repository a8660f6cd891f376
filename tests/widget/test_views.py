"""The widget's browser endpoints: the htmx action endpoint, the standalone page, the QA preview."""

from __future__ import annotations

import json
import os
import re
import subprocess
import uuid
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from checkout.models import Order, Payment
from gifts.models import WorkflowContext
from tests import REPO_ROOT
from tool_runtime.models import ApiToken
from tool_runtime.principals import user_for_token
from widget.views import PREVIEW_TOKEN_SESSION_KEY

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])

ACTION = "/widget/actions/{}"


@pytest.fixture
def staff(db):
    user = get_user_model().objects.create_user(
        username="qa", password="pw-qa-12345", is_staff=True
    )
    return user


@pytest.fixture
def shopper(db):
    return get_user_model().objects.create_user(username="shopper", password="pw-shop-12345")


def signed_in(user, **kwargs) -> Client:
    client = Client(SERVER_NAME="127.0.0.1", **kwargs)
    client.force_login(user)
    return client


def act(client: Client, tool: str, args: dict, *, locale: str = "en"):
    return client.post(
        ACTION.format(tool),
        data=json.dumps(args),
        content_type="application/json",
        HTTP_X_GG_LOCALE=locale,
    )


def attr_args(html: str, testid: str) -> dict:
    """The data-gg-args of the first element with this data-testid."""
    match = re.search(rf'data-gg-args="([^"]*)"[^>]*data-testid="{testid}"', html)
    assert match, f"no {testid} action in:\n{html}"
    return json.loads(unescape(match.group(1)))


def state_of(html: str) -> str:
    return re.search(r'data-gg-state="([^"]*)"', html).group(1)


# --- the htmx action endpoint -------------------------------------------------------------------


def test_the_whole_purchase_runs_through_the_widget_endpoint(shopper, demo_catalog):
    client = signed_in(shopper)
    started = act(client, "start_gift_workflow", {})
    assert started.status_code == 200 and started["X-GG-Fragment"] == "v1"
    assert state_of(started.content.decode()) == "brief"
    workflow_id = re.search(
        r'data-gg-args="([^"]*)"[^>]*data-testid="brief-form"', started.content.decode()
    )
    workflow_id = json.loads(unescape(workflow_id.group(1)))["workflow_id"]

    brief = {
        "relationship": "friend",
        "interests": ["coffee"],
        "budget_min": 10,
        "budget_max": 60,
        "currency": "USD",
    }
    ideas = act(client, "suggest_gifts", {"workflow_id": workflow_id, **brief}).content.decode()
    assert state_of(ideas) == "suggestions" and 'data-testid="gift-card"' in ideas
    select_args = attr_args(ideas, "select-gift")

    selected = act(client, "select_gift", select_args).content.decode()
    assert state_of(selected) == "selected"
    back = act(client, "user_navigated_to_step", attr_args(selected, "back")).content.decode()
    assert state_of(back) == "suggestions"  # Back redraws the same ideas from the workflow
    assert WorkflowContext.objects.get(pk=workflow_id).current_step == "ideas"
    selected = act(client, "select_gift", attr_args(back, "select-gift")).content.decode()

    checkout = act(
        client, "get_payment_methods", attr_args(selected, "go-to-checkout")
    ).content.decode()
    assert state_of(checkout) == "checkout"
    assert '<option value="pm_card_visa"' in checkout and 'value="Demo Buyer"' in checkout

    key = str(uuid.uuid4())
    prepare = {
        "workflow_id": workflow_id,
        "payment_method_id": "pm_card_visa",
        "shipping": {
            "name": "Demo Buyer",
            "line1": "1 Main St",
            "city": "Springfield",
            "postal_code": "12345",
            "country": "US",
        },
        "idempotency_key": key,
    }
    summary = act(client, "prepare_order", prepare).content.decode()
    assert state_of(summary) == "summary", summary
    confirm = attr_args(summary, "confirm-purchase")
    assert confirm["confirmation_token"]  # the widget-only token rides in the data attribute

    commit = {**confirm, "idempotency_key": str(uuid.uuid4())}
    done = act(client, "commit_order", commit).content.decode()
    assert 'data-testid="order-status" data-status="completed"' in done
    again = act(client, "commit_order", commit).content.decode()  # a repeated click: same key
    assert 'data-status="completed"' in again
    order = Order.objects.get(pk=confirm["order_id"])
    assert order.status == "completed"
    assert Payment.objects.filter(order=order).count() == 1


def test_a_declined_card_shows_its_banner_and_the_way_out(shopper, demo_catalog):
    client = signed_in(shopper)
    workflow_id = json.loads(
        unescape(
            re.search(
                r'data-gg-args="([^"]*)"', act(client, "start_gift_workflow", {}).content.decode()
            ).group(1)
        )
    )["workflow_id"]
    brief = {
        "relationship": "friend",
        "interests": ["coffee"],
        "budget_min": 10,
        "budget_max": 60,
        "currency": "USD",
    }
    ideas = act(client, "suggest_gifts", {"workflow_id": workflow_id, **brief}).content.decode()
    act(client, "select_gift", attr_args(ideas, "select-gift"))
    prepare = {
        "workflow_id": workflow_id,
        "payment_method_id": "pm_card_declined",
        "shipping": {
            "name": "A B",
            "line1": "1 Main St",
            "city": "Springfield",
            "postal_code": "12345",
            "country": "US",
        },
        "idempotency_key": str(uuid.uuid4()),
    }
    summary = act(client, "prepare_order", prepare, locale="pl").content.decode()
    confirm = attr_args(summary, "confirm-purchase")
    response = act(
        client, "commit_order", {**confirm, "idempotency_key": str(uuid.uuid4())}, locale="pl"
    )
    html = response.content.decode()
    assert response.status_code == 200 and response["X-GG-Tool-Status"] == "402"
    assert 'data-error-code="CARD_DECLINED"' in html
    assert "Karta Visa •••• 0002 została odrzucona" in html
    assert 'data-testid="change-payment"' in html and 'data-testid="retry"' not in html


def broken_fragments(monkeypatch, *, also_templates: bool = False) -> None:
    from widget import rendering

    def fail(*args, **kwargs):
        raise RuntimeError("template bug")

    monkeypatch.setattr(rendering, "render_fragment", fail)
    if also_templates:
        monkeypatch.setattr(rendering, "render_view", fail)


def test_a_render_error_after_the_tool_ran_keeps_its_outcome_and_offers_the_state(
    shopper, demo_catalog, monkeypatch
):
    client = signed_in(shopper)
    workflow_id = json.loads(
        unescape(
            re.search(
                r'data-gg-args="([^"]*)"[^>]*data-testid="brief-form"',
                act(client, "start_gift_workflow", {}).content.decode(),
            ).group(1)
        )
    )["workflow_id"]
    broken_fragments(monkeypatch)
    brief = {"relationship": "friend", "interests": ["coffee"], "budget_min": 10, "budget_max": 60}
    answer = act(client, "suggest_gifts", {"workflow_id": workflow_id, **brief, "currency": "USD"})
    html = answer.content.decode()
    assert answer.status_code == 200 and answer["X-GG-Tool-Status"] == "200"
    assert state_of(html) == "unshown" and "Traceback" not in html and "template bug" not in html
    assert "Done, but this view could not be shown." in html
    assert attr_args(html, "show-current-state") == {"workflow_id": workflow_id}
    assert WorkflowContext.objects.get(pk=workflow_id).current_step == "ideas"  # the tool ran

    monkeypatch.undo()  # the redraw the notice offers works again
    redrawn = act(client, "get_workflow", {"workflow_id": workflow_id}).content.decode()
    assert state_of(redrawn) == "suggestions"


def test_a_render_error_of_a_failure_is_a_notice_in_the_persons_language(shopper, monkeypatch):
    broken_fragments(monkeypatch)
    answer = act(
        signed_in(shopper), "get_workflow", {"workflow_id": str(uuid.uuid4())}, locale="pl"
    )
    assert answer.status_code == 200 and answer["X-GG-Tool-Status"] == "404"
    html = answer.content.decode()
    assert state_of(html) == "unshown" and 'lang="pl"' in html
    assert "This view could not be shown." not in html  # translated


def test_even_broken_templates_answer_with_plain_escaped_text(shopper, monkeypatch):
    broken_fragments(monkeypatch, also_templates=True)
    answer = act(signed_in(shopper), "get_workflow", {"workflow_id": str(uuid.uuid4())})
    assert answer.status_code == 200
    html = answer.content.decode()
    assert state_of(html) == "unshown" and "<h2>This view could not be shown.</h2>" in html


def test_actions_need_the_csrf_token(shopper):
    client = signed_in(shopper, enforce_csrf_checks=True)
    response = act(client, "start_gift_workflow", {})
    assert response.status_code == 403
    assert "X-GG-Fragment" not in response  # not a fragment: the bridge will not swap it in


def test_actions_with_the_csrf_token_pass(shopper):
    client = signed_in(shopper, enforce_csrf_checks=True)
    page = client.get("/widget/")
    token = re.search(r'data-gg-csrf="([^"]+)"', page.content.decode()).group(1)
    response = client.post(
        ACTION.format("start_gift_workflow"),
        data="{}",
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200 and state_of(response.content.decode()) == "brief"


def test_an_anonymous_action_is_unauthorized_not_run(db):
    response = act(Client(SERVER_NAME="127.0.0.1"), "start_gift_workflow", {})
    html = response.content.decode()
    assert 'data-error-code="UNAUTHORIZED"' in html
    assert WorkflowContext.objects.count() == 0


@pytest.mark.parametrize("tool", ["no_such_tool", "search_products_typo"])
def test_unknown_tools_are_refused_with_a_banner(shopper, tool):
    html = act(signed_in(shopper), tool, {}).content.decode()
    assert 'data-error-code="UNKNOWN_TOOL"' in html


def test_a_body_that_is_not_json_gets_a_banner(shopper):
    response = signed_in(shopper).post(
        ACTION.format("get_workflow"), data="{nope", content_type="application/json"
    )
    assert 'data-error-code="INVALID_JSON"' in response.content.decode()


def test_a_body_too_large_to_read_gets_a_banner(shopper, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 16
    response = signed_in(shopper).post(
        ACTION.format("get_workflow"),
        data=json.dumps({"workflow_id": "0" * 32}),
        content_type="application/json",
    )
    assert 'data-error-code="PAYLOAD_TOO_LARGE"' in response.content.decode()


def test_actions_only_accept_post(shopper):
    assert signed_in(shopper).get(ACTION.format("get_workflow")).status_code == 405


def test_another_persons_workflow_is_not_found(shopper, other_user, demo_catalog):
    theirs = WorkflowContext.objects.create(
        owner=other_user, current_step="brief", visited_steps=["brief"]
    )
    html = act(signed_in(shopper), "get_workflow", {"workflow_id": str(theirs.pk)}).content.decode()
    assert 'data-error-code="NOT_FOUND"' in html


# --- pages -----------------------------------------------------------------------------------------


def test_the_standalone_page_needs_a_login(db):
    response = Client(SERVER_NAME="127.0.0.1").get("/widget/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_the_standalone_page_links_its_assets(shopper):
    html = signed_in(shopper).get("/widget/?locale=uk").content.decode()
    assert 'data-gg-contract="v1"' in html and 'lang="uk"' in html
    assert "/static/django_htmx/htmx-2.min.js" in html and "/static/widget/bridge.js" in html
    assert 'data-testid="start"' in html


def test_the_preview_sends_anonymous_people_to_the_login(db):
    response = Client(SERVER_NAME="127.0.0.1").get("/preview/")
    assert response.status_code == 302 and "/admin/login/?next=/preview/" in response["Location"]


def test_the_preview_refuses_non_staff(shopper):
    assert signed_in(shopper).get("/preview/").status_code == 403
    assert signed_in(shopper).get("/preview/frame/").status_code == 403


def test_the_preview_frame_sends_anonymous_people_to_the_login(db):
    assert Client(SERVER_NAME="127.0.0.1").get("/preview/frame/").status_code == 302


def preview_config(html: str) -> dict:
    raw = re.search(
        r'<script id="qa-config" type="application/json">(.*?)</script>', html, re.S
    ).group(1)
    return json.loads(raw)


def test_the_preview_mints_one_token_per_session_for_the_staff_member(staff):
    client = signed_in(staff)
    first = preview_config(client.get("/preview/").content.decode())
    second = preview_config(client.get("/preview/").content.decode())
    assert first["token"] == second["token"] == client.session[PREVIEW_TOKEN_SESSION_KEY]
    assert user_for_token(first["token"]) == staff
    assert ApiToken.objects.filter(user=staff).count() == 1


def test_a_revoked_preview_token_is_replaced(staff):
    client = signed_in(staff)
    first = preview_config(client.get("/preview/").content.decode())["token"]
    ApiToken.objects.filter(user=staff).update(revoked=True)
    second = preview_config(client.get("/preview/").content.decode())["token"]
    assert second != first and user_for_token(second) == staff


def test_preview_tokens_expire_and_an_expired_one_is_replaced(staff, settings):
    client = signed_in(staff)
    before = timezone.now()
    first = preview_config(client.get("/preview/").content.decode())["token"]
    row = ApiToken.objects.get(user=staff)
    lifetime = row.expires_at - before
    ttl = timedelta(seconds=settings.PREVIEW_TOKEN_TTL_SECONDS)
    assert ttl <= lifetime < ttl + timedelta(minutes=1)
    ApiToken.objects.filter(pk=row.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert user_for_token(first) is None  # an expired token opens nothing, MCP included
    second = preview_config(client.get("/preview/").content.decode())["token"]
    assert second != first and user_for_token(second) == staff


def test_signing_out_revokes_the_preview_token(staff):
    client = signed_in(staff)
    token = preview_config(client.get("/preview/").content.decode())["token"]
    api = Client(SERVER_NAME="127.0.0.1", HTTP_AUTHORIZATION=f"Bearer {token}")
    started = api.post("/api/tools/start_gift_workflow", "{}", content_type="application/json")
    assert started.status_code == 200  # and its caller is now cached

    assert client.post("/admin/logout/").status_code == 200

    again = api.post("/api/tools/start_gift_workflow", "{}", content_type="application/json")
    assert again.status_code == 401
    assert again.json()["error"]["code"] == "UNAUTHORIZED"
    assert ApiToken.objects.get(user=staff).revoked is True


def test_the_preview_has_every_qa_control(staff):
    html = signed_in(staff).get("/preview/").content.decode()
    controls = ("qa-brief", "qa-start", "qa-search", "qa-search-start", "qa-locale", "qa-theme")
    for testid in (*controls, "qa-fault", "qa-log"):
        assert f'data-testid="{testid}"' in html
    brief = re.search(r'data-testid="qa-brief"[^>]*>(.*?)</textarea>', html, re.S).group(1)
    assert json.loads(unescape(brief))["interests"]  # prefilled with a valid JSON brief


def test_the_preview_takes_locale_theme_and_fault_from_the_url(staff):
    html = signed_in(staff).get("/preview/?locale=pl&theme=dark&fault=catalog_503").content.decode()
    config = preview_config(html)
    assert (
        config["locale"] == "pl-PL"
        and config["theme"] == "dark"
        and config["fault"] == "catalog_503"
    )
    assert config["faults"]["catalog_503"] == "catalog=503"
    assert '<option value="pl-PL" selected>' in html and 'data-theme="dark"' in html


def test_the_preview_ignores_unknown_url_values(staff):
    config = preview_config(
        signed_in(staff).get("/preview/?locale=xx&theme=neon&fault=db_down").content.decode()
    )
    assert config["locale"] == "en-US" and config["theme"] == "light" and config["fault"] == "none"


def test_faults_cannot_be_chosen_when_injection_is_off(staff, settings):
    settings.FAULT_INJECTION_ENABLED = False
    html = signed_in(staff).get("/preview/?fault=catalog_503").content.decode()
    assert preview_config(html)["fault"] == "none"
    assert re.search(r'data-testid="qa-fault" disabled', html)


def test_the_preview_frame_is_the_mcp_shell_and_the_openai_dialect_adds_the_host_emulator(staff):
    client = signed_in(staff)
    response = client.get("/preview/frame/")
    html = response.content.decode()
    nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"]).group(1)
    assert html.count(f' nonce="{nonce}"') == 2  # the <style> and the bridge
    assert "host-emulator.js" not in html  # MCP Apps: the preview page speaks postMessage
    assert response["X-Frame-Options"] == "SAMEORIGIN"
    legacy = client.get("/preview/frame/?dialect=openai").content.decode()
    assert legacy.index("/static/widget/host-emulator.js") < legacy.index(
        "GiftGenius widget bridge"
    )


def test_the_preview_plays_an_mcp_apps_host_unless_asked_for_window_openai(staff):
    client = signed_in(staff)
    assert preview_config(client.get("/preview/").content.decode())["dialect"] == "mcp-apps"
    legacy = client.get("/preview/?dialect=openai").content.decode()
    assert preview_config(legacy)["dialect"] == "openai"
    assert preview_config(client.get("/preview/?dialect=bogus").content.decode())["dialect"] == (
        "mcp-apps"
    )


def test_favicon_is_served(db):
    response = Client(SERVER_NAME="127.0.0.1").get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"


def test_the_preview_frame_allows_pictures_from_where_mcp_fragments_put_them(staff, settings):
    # `PORT=8103 make run` with PUBLIC_ORIGIN left at :8000 had put /mcp pictures on another
    # origin than the frame's img-src 'self' allowed: the frame allows what the resource declares.
    settings.WIDGET_IMAGE_BASE_URL = "http://127.0.0.1:8000"
    settings.WIDGET_IMAGE_ORIGINS = ["https://img.example.com"]
    policy = signed_in(staff).get("/preview/frame/")["Content-Security-Policy"]
    img_src = re.search(r"img-src ([^;]*)", policy).group(1).split()
    assert {"'self'", "http://127.0.0.1:8000", "https://img.example.com"} <= set(img_src)
    assert "*" not in img_src
    assert re.search(r"style-src [^;]*'nonce-", policy)


def test_make_run_derives_the_public_origin_from_host_and_port():
    def announced(**env: str) -> str:
        done = subprocess.run(
            ["make", "-n", "run", *(f"{k}={v}" for k, v in env.items())],
            cwd=REPO_ROOT,
            env={k: v for k, v in os.environ.items() if k != "PUBLIC_ORIGIN"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        return re.search(r"GiftGenius on (\S+)/ ", done.stdout).group(1)

    assert announced(PORT="8103") == "http://127.0.0.1:8103"
    assert announced(PORT="8103", PUBLIC_ORIGIN="https://gg.example") == "https://gg.example"
