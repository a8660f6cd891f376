"""Metrics read from the database: counts, retries, latency, funnel, dashboard and /metrics."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from checkout.models import Order, OrderStatus, Payment, SagaStep, SimulatedChargeRequest
from giftgenius.operations import metrics
from gifts.models import Step, WorkflowContext
from tests.fixtures import paid_order
from tool_runtime.models import ToolCallLog

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])

TOKEN = "metrics-test-token-0123456789"


def log_call(
    tool: str,
    *,
    code: str = "",
    error_type: str = "",
    retries: int = 0,
    ms: float = 10.0,
    ago: timedelta = timedelta(seconds=30),
    replayed: bool = False,
) -> ToolCallLog:
    return ToolCallLog.objects.create(
        tool=tool,
        status="failed" if code else "success",
        error_code=code,
        error_type=error_type,
        retryable=code in {"UPSTREAM_TIMEOUT", "PAYMENT_TIMEOUT"},
        upstream_retries=retries,
        duration_ms=ms,
        replayed=replayed,
        correlation_id=uuid.uuid4().hex,
        created_at=timezone.now() - ago,
    )


@pytest.fixture
def scripted_mix(db):
    """A known mix: 9 recent calls over 3 tools, and one old call outside every short window."""
    log_call("search_products", ms=100)
    log_call("search_products", retries=2, ms=300)  # saved by retries
    log_call("search_products", ms=200)
    log_call("search_products", code="UPSTREAM_TIMEOUT", error_type="upstream", retries=2, ms=900)
    log_call("search_products", code="UPSTREAM_TIMEOUT", error_type="upstream", retries=2, ms=800)
    log_call("suggest_gifts", ms=20)
    log_call("suggest_gifts", ms=40, replayed=True)
    log_call("commit_order", code="CARD_DECLINED", error_type="business", ms=50)
    log_call("commit_order", code="PAYMENT_TIMEOUT", error_type="upstream", retries=1, ms=3000)
    log_call(
        "suggest_gifts", code="VALIDATION_ERROR", error_type="validation", ago=timedelta(days=3)
    )


def by_tool(rows):
    return {row.tool: row for row in rows}


def test_tool_call_totals_count_calls_failures_retries_and_replays(scripted_mix):
    totals = by_tool(metrics.tool_call_totals(since=timezone.now() - timedelta(hours=1)))
    search = totals["search_products"]
    assert (search.calls, search.failures, search.upstream_retries) == (5, 2, 6)
    assert (search.recovered_by_retry, search.final_upstream_failures) == (1, 2)
    suggest = totals["suggest_gifts"]
    assert (suggest.calls, suggest.failures, suggest.replayed) == (2, 0, 1)
    commit = totals["commit_order"]
    assert (commit.calls, commit.failures, commit.final_upstream_failures) == (2, 2, 1)


def test_totals_without_a_window_include_old_calls(scripted_mix):
    totals = by_tool(metrics.tool_call_totals())
    assert totals["suggest_gifts"].calls == 3
    assert totals["suggest_gifts"].failures == 1


def test_failure_counts_carry_catalog_severity(scripted_mix):
    failures = metrics.failure_counts(since=timezone.now() - timedelta(hours=1))
    table = {(f.tool, f.error_code): (f.error_type, f.severity, f.count) for f in failures}
    assert table == {
        ("search_products", "UPSTREAM_TIMEOUT"): ("upstream", "alert", 2),
        ("commit_order", "CARD_DECLINED"): ("business", "analytics", 1),
        ("commit_order", "PAYMENT_TIMEOUT"): ("upstream", "alert", 1),
    }


def test_retry_share_separates_recovered_from_final_failures(scripted_mix):
    share = metrics.retry_share(since=timezone.now() - timedelta(hours=1))
    assert share.calls == 9
    assert share.upstream_retries == 7
    assert (share.recovered_by_retry, share.final_upstream_failures) == (1, 3)
    assert share.recovered_share == pytest.approx(0.25)
    assert share.final_failure_share == pytest.approx(0.75)


def test_retry_share_of_an_empty_window_is_zero(db):
    share = metrics.retry_share(since=timezone.now() - timedelta(minutes=5))
    assert (share.calls, share.troubled, share.recovered_share, share.final_failure_share) == (
        0,
        0,
        0,
        0,
    )


def test_latency_percentiles_per_tool(scripted_mix):
    latency = by_tool(metrics.latency_by_tool(since=timezone.now() - timedelta(hours=1)))
    search = latency["search_products"]  # 100, 200, 300, 800, 900
    assert (search.calls, search.p50_ms, search.p95_ms, search.max_ms) == (5, 300, 900, 900)
    assert latency["suggest_gifts"].p50_ms == 20


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert metrics.percentile(values, 0.5) == 50
    assert metrics.percentile(values, 0.95) == 95
    assert metrics.percentile([], 0.5) == 0.0
    assert metrics.percentile([7.0], 0.95) == 7.0


def test_failures_over_time_puts_each_failure_in_its_bucket(db):
    window = metrics.time_window("1h")  # 12 buckets of 5 minutes
    now = window.until
    for minutes_ago, code in [
        (2, "UPSTREAM_TIMEOUT"),
        (3, "UPSTREAM_TIMEOUT"),
        (58, "CARD_DECLINED"),
    ]:
        log_call(
            "search_products", code=code, error_type="upstream", ago=timedelta(minutes=minutes_ago)
        )
    log_call("search_products")  # successes are not failures
    log_call("search_products", code="UPSTREAM_TIMEOUT", ago=timedelta(hours=2))  # outside
    timeline = metrics.failures_over_time(window=window)
    assert len(timeline.bucket_starts) == 12
    assert timeline.codes == ["UPSTREAM_TIMEOUT", "CARD_DECLINED"]
    assert timeline.counts["UPSTREAM_TIMEOUT"][11] == 2
    assert sum(timeline.counts["UPSTREAM_TIMEOUT"]) == 2
    assert timeline.counts["CARD_DECLINED"][0] == 1
    assert sum(timeline.totals) == 3
    assert timeline.bucket_starts[0] == now - timedelta(hours=1)


def test_unknown_window_falls_back_to_the_default():
    assert metrics.time_window("forever").key == metrics.DEFAULT_WINDOW
    assert metrics.time_window("7d").bucket == timedelta(hours=12)


def make_workflow(owner, visited: list[str], *, ago: timedelta = timedelta(minutes=1)):
    return WorkflowContext.objects.create(
        owner=owner,
        current_step=visited[-1],
        visited_steps=visited,
        created_at=timezone.now() - ago,
    )


def test_conversion_funnel_counts_workflows_reaching_each_step(user):
    brief, ideas, selected, checkout, completed = (
        Step.BRIEF,
        Step.IDEAS,
        Step.GIFT_SELECTED,
        Step.CHECKOUT,
        Step.COMPLETED,
    )
    make_workflow(user, [brief])
    make_workflow(user, [brief, ideas])
    make_workflow(user, [brief, ideas, selected])
    went_back = make_workflow(user, [brief, ideas, selected, checkout])
    went_back.current_step = ideas  # went back: still reached checkout
    went_back.save()
    make_workflow(user, [brief, ideas, selected, checkout, completed])
    make_workflow(user, [brief, ideas], ago=timedelta(days=2))  # outside the window
    funnel = metrics.conversion_funnel(since=timezone.now() - timedelta(hours=1))
    assert [(s.step, s.workflows) for s in funnel] == [
        ("brief", 5),
        ("ideas", 4),
        ("gift_selected", 3),
        ("checkout", 2),
        ("completed", 1),
    ]
    assert funnel[-1].share_of_started == pytest.approx(0.2)


def make_order(owner, status: str, *, idle: timedelta, step_ago: timedelta | None = None) -> Order:
    order = Order.objects.create(
        owner=owner,
        status=status,
        amount=Decimal("30.00"),
        currency="USD",
        payment_method_id="pm_card_visa",
    )
    Order.objects.filter(pk=order.pk).update(updated_at=timezone.now() - idle)
    if step_ago is not None:
        SagaStep.objects.create(
            order=order, step="charge_card", status="started", started_at=timezone.now() - step_ago
        )
    return order


def test_stuck_orders_look_at_the_last_saga_step(user):
    stuck = make_order(
        user, OrderStatus.PROCESSING, idle=timedelta(minutes=20), step_ago=timedelta(minutes=15)
    )
    make_order(
        user, OrderStatus.PROCESSING, idle=timedelta(minutes=20), step_ago=timedelta(seconds=30)
    )
    make_order(user, OrderStatus.PROCESSING, idle=timedelta(seconds=10))
    make_order(user, OrderStatus.COMPLETED, idle=timedelta(days=1))
    found = metrics.stuck_orders(status=OrderStatus.PROCESSING, idle_for=timedelta(minutes=5))
    assert [(o.order_id, o.last_step) for o in found] == [(str(stuck.pk), "charge_card")]


def test_saga_step_counts_and_order_status_counts(user):
    order = make_order(user, OrderStatus.FAILED, idle=timedelta(0))
    for status, code in [
        ("succeeded", ""),
        ("failed", "PAYMENT_TIMEOUT"),
        ("failed", "PAYMENT_TIMEOUT"),
    ]:
        SagaStep.objects.create(order=order, step="charge_card", status=status, error_code=code)
    counts = {(c.step, c.status, c.error_code): c.count for c in metrics.saga_step_counts()}
    assert counts == {
        ("charge_card", "succeeded", ""): 1,
        ("charge_card", "failed", "PAYMENT_TIMEOUT"): 2,
    }
    statuses = metrics.order_status_counts()
    assert statuses["failed"] == 1 and statuses["completed"] == 0


# --- /metrics ---------------------------------------------------------------------------------


def samples(text: str) -> dict[tuple[str, tuple], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


@override_settings(METRICS_TOKEN=TOKEN)
def test_metrics_refuses_anonymous_and_bad_tokens(client):
    anonymous = client.get("/metrics")
    assert anonymous.status_code == 401
    assert anonymous["WWW-Authenticate"].startswith("Bearer")
    assert b"giftgenius" not in anonymous.content
    wrong = client.get("/metrics", HTTP_AUTHORIZATION="Bearer not-the-token")
    assert wrong.status_code == 403
    basic = client.get("/metrics", HTTP_AUTHORIZATION="Basic dXNlcjpwdw==")
    assert basic.status_code == 401


@override_settings(METRICS_TOKEN="")
def test_metrics_without_a_configured_token_refuses_every_bearer(client):
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer anything").status_code == 403


@override_settings(METRICS_TOKEN=TOKEN)
def test_metrics_refuses_a_non_staff_session(client, user):
    client.force_login(user)
    assert client.get("/metrics").status_code == 403


@override_settings(METRICS_TOKEN=TOKEN)
def test_metrics_serves_prometheus_text_with_the_token(client, scripted_mix, user):
    make_workflow(user, [Step.BRIEF, Step.IDEAS])
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    values = samples(response.content.decode())
    assert (
        values[
            ("giftgenius_tool_calls_total", (("status", "success"), ("tool", "search_products")))
        ]
        == 3
    )
    assert (
        values[("giftgenius_tool_calls_total", (("status", "failed"), ("tool", "search_products")))]
        == 2
    )
    assert (
        values[("giftgenius_tool_calls_total", (("status", "failed"), ("tool", "suggest_gifts")))]
        == 1
    )
    failure_key = (
        "giftgenius_tool_failures_total",
        (
            ("error_code", "PAYMENT_TIMEOUT"),
            ("error_type", "upstream"),
            ("severity", "alert"),
            ("tool", "commit_order"),
        ),
    )
    assert values[failure_key] == 1
    assert values[("giftgenius_tool_upstream_retries_total", (("tool", "search_products"),))] == 6
    assert (
        values[("giftgenius_tool_calls_recovered_by_retry_total", (("tool", "search_products"),))]
        == 1
    )
    assert (
        values[("giftgenius_tool_final_upstream_failures_total", (("tool", "search_products"),))]
        == 2
    )
    assert values[("giftgenius_tool_calls_replayed_total", (("tool", "suggest_gifts"),))] == 1
    # Histogram: search durations 100, 200, 300, 800, 900 ms.
    assert (
        values[
            (
                "giftgenius_tool_duration_seconds_bucket",
                (("le", "0.25"), ("tool", "search_products")),
            )
        ]
        == 2
    )
    assert (
        values[
            (
                "giftgenius_tool_duration_seconds_bucket",
                (("le", "1.0"), ("tool", "search_products")),
            )
        ]
        == 5
    )
    assert (
        values[
            (
                "giftgenius_tool_duration_seconds_bucket",
                (("le", "+Inf"), ("tool", "search_products")),
            )
        ]
        == 5
    )
    assert values[("giftgenius_tool_duration_seconds_count", (("tool", "search_products"),))] == 5
    assert values[
        ("giftgenius_tool_duration_seconds_sum", (("tool", "search_products"),))
    ] == pytest.approx(2.3)
    assert values[("giftgenius_funnel_workflows", (("step", "ideas"),))] == 1
    assert values[("giftgenius_funnel_workflows", (("step", "checkout"),))] == 0
    assert values[("giftgenius_orders", (("status", "completed"),))] == 0
    # One PAYMENT_TIMEOUT is not a mass outage, and no other rule fires on this mix.
    assert values[("giftgenius_alerts_active", ())] == 0


@override_settings(METRICS_TOKEN=TOKEN)
def test_metrics_accepts_a_staff_session(client, db):
    staff = get_user_model().objects.create_user(
        username="ops", password="pw-ops-123", is_staff=True
    )
    client.force_login(staff)
    response = client.get("/metrics")
    assert response.status_code == 200
    assert "giftgenius_alerts_active" in response.content.decode()


@override_settings(METRICS_TOKEN=TOKEN)
def test_metrics_reports_active_alerts(client, db):
    log_call("search_products", code="INTERNAL_ERROR", error_type="platform")
    values = samples(client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").content.decode())
    assert values[("giftgenius_alerts_active", ())] == 1
    assert (
        values[
            ("giftgenius_alert_active", (("alert", "internal_errors"), ("rule", "internal_errors")))
        ]
        == 1
    )


# --- dashboard --------------------------------------------------------------------------------

DASHBOARD = "/admin/tool_runtime/toolcalllog/dashboard/"


@pytest.fixture
def staff_client(db):
    staff = get_user_model().objects.create_user(
        username="ops", password="pw-ops-123", is_staff=True
    )
    client = Client()
    client.force_login(staff)
    return client


@pytest.mark.parametrize("window", ["15m", "1h", "24h", "7d", "bogus"])
def test_dashboard_renders_svg_charts_without_inline_styles(
    staff_client, scripted_mix, user, window
):
    make_workflow(user, [Step.BRIEF, Step.IDEAS, Step.GIFT_SELECTED])
    response = staff_client.get(DASHBOARD, {"window": window})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('<svg class="ops-chart"') >= 3
    assert not re.search(r"\sstyle=", html), "inline style attributes break the strict CSP"
    assert "<style" not in html
    assert not re.search(r"<script(?![^>]*\ssrc=)", html), "inline scripts break the strict CSP"
    assert "search_products" in html
    assert "No active alerts." in html
    csp = response["Content-Security-Policy"]
    assert "'unsafe-inline'" not in csp and "style-src 'self'" in csp


def test_dashboard_lists_active_alerts(staff_client):
    log_call("get_order", code="INTERNAL_ERROR", error_type="platform")
    html = staff_client.get(DASHBOARD).content.decode()
    assert "internal_errors" in html
    assert "No active alerts." not in html


def test_dashboard_failure_bars_match_the_counts(staff_client, db):
    for _ in range(3):
        log_call(
            "search_products",
            code="UPSTREAM_UNAVAILABLE",
            error_type="upstream",
            ago=timedelta(minutes=1),
        )
    html = staff_client.get(DASHBOARD, {"window": "15m"}).content.decode()
    assert html.count("3 x UPSTREAM_UNAVAILABLE") == 1
    assert "UPSTREAM_UNAVAILABLE (3)" in html


def test_dashboard_is_staff_only(client, user):
    anonymous = client.get(DASHBOARD)
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]
    client.force_login(user)
    not_staff = client.get(DASHBOARD)
    assert not_staff.status_code == 302 and "/admin/login/" in not_staff["Location"]


def test_admin_index_links_to_the_dashboard(staff_client):
    html = staff_client.get("/admin/").content.decode()
    assert DASHBOARD in html
    assert 'href="/metrics"' in html


# --- payment retries are upstream retries too ---------------------------------------------------


@pytest.mark.parametrize("method", ["pm_card_timeout_once", "pm_card_lost_response"])
def test_payment_retries_reach_the_call_log_and_the_metrics(api, demo_catalog, method):
    """The gateway's retries count in the same per-call counter as the catalog's, so a charge
    recovered by a retry shows as "recovered by retry" on the dashboard and in /metrics."""
    placed = paid_order(api, payment_method_id=method)

    provider_attempts = SimulatedChargeRequest.objects.get(
        idempotency_key=Payment.objects.get(order_id=placed.order_id).provider_idempotency_key
    ).attempts
    assert provider_attempts == 2  # one retry
    log = ToolCallLog.objects.get(tool="commit_order")
    assert (log.status, log.upstream_retries) == ("success", provider_attempts - 1)
    (commit,) = [t for t in metrics.tool_call_totals() if t.tool == "commit_order"]
    assert (commit.upstream_retries, commit.recovered_by_retry) == (1, 1)


def test_a_call_without_payment_retries_counts_none(api, demo_catalog):
    paid_order(api)
    assert ToolCallLog.objects.get(tool="commit_order").upstream_retries == 0
