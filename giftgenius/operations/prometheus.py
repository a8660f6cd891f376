"""Prometheus `GET /metrics`: every series built from the database at scrape time, so any app
process answers the same numbers. Bearer METRICS_TOKEN, or a staff session."""

from __future__ import annotations

import hmac
from collections.abc import Iterator

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import (
    CollectorRegistry,
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
)
from prometheus_client.registry import Collector

from giftgenius.operations import alerts, metrics
from tool_runtime import call_log


class DatabaseCollector(Collector):
    """Builds every metric family from aggregated rows at scrape time."""

    def describe(self) -> list:
        return []  # no DB access at registration time

    def collect(self) -> Iterator:
        totals = metrics.tool_call_totals()
        calls = CounterMetricFamily(
            "giftgenius_tool_calls",
            "Tool calls by tool and final status.",
            labels=["tool", "status"],
        )
        retries = CounterMetricFamily(
            "giftgenius_tool_upstream_retries", "Retries spent inside tool calls.", labels=["tool"]
        )
        recovered = CounterMetricFamily(
            "giftgenius_tool_calls_recovered_by_retry",
            "Calls that succeeded after at least one upstream retry.",
            labels=["tool"],
        )
        final = CounterMetricFamily(
            "giftgenius_tool_final_upstream_failures",
            "Calls that failed with an upstream error (retries exhausted or not retryable).",
            labels=["tool"],
        )
        replayed = CounterMetricFamily(
            "giftgenius_tool_calls_replayed",
            "Calls answered from a stored idempotent result.",
            labels=["tool"],
        )
        for row in totals:
            calls.add_metric([row.tool, "success"], row.calls - row.failures)
            calls.add_metric([row.tool, "failed"], row.failures)
            retries.add_metric([row.tool], row.upstream_retries)
            recovered.add_metric([row.tool], row.recovered_by_retry)
            final.add_metric([row.tool], row.final_upstream_failures)
            replayed.add_metric([row.tool], row.replayed)
        yield from (calls, retries, recovered, final, replayed)

        failures = CounterMetricFamily(
            "giftgenius_tool_failures",
            "Failed tool calls by error code; severity comes from the error catalog.",
            labels=["tool", "error_code", "error_type", "severity"],
        )
        for item in metrics.failure_counts():
            failures.add_metric(
                [item.tool, item.error_code, item.error_type, item.severity], item.count
            )
        yield failures

        duration = HistogramMetricFamily(
            "giftgenius_tool_duration_seconds", "Tool call duration.", labels=["tool"]
        )
        for hist in metrics.duration_histograms():
            buckets = [
                ("+Inf" if bound == float("inf") else repr(bound), n) for bound, n in hist.buckets
            ]
            duration.add_metric([hist.tool], buckets, hist.sum_seconds)
        yield duration

        saga = CounterMetricFamily(
            "giftgenius_saga_steps", "Saga step outcomes.", labels=["step", "status", "error_code"]
        )
        for item in metrics.saga_step_counts():
            saga.add_metric([item.step, item.status, item.error_code], item.count)
        yield saga

        orders = GaugeMetricFamily(
            "giftgenius_orders", "Orders by current status.", labels=["status"]
        )
        for status, count in metrics.order_status_counts().items():
            orders.add_metric([status], count)
        yield orders

        since = timezone.now() - metrics.WINDOWS["24h"][0]
        funnel = GaugeMetricFamily(
            "giftgenius_funnel_workflows",
            "Workflows started in the last 24 hours that reached each step.",
            labels=["step"],
        )
        for stage in metrics.conversion_funnel(since=since):
            funnel.add_metric([stage.step], stage.workflows)
        yield funnel

        active = alerts.active_alerts()
        count = GaugeMetricFamily("giftgenius_alerts_active", "Number of active alerts.")
        count.add_metric([], len(active))
        yield count
        per_alert = GaugeMetricFamily(
            "giftgenius_alert_active", "1 for each active alert.", labels=["alert", "rule"]
        )
        for alert in active:
            per_alert.add_metric([alert.key, alert.rule], 1)
        yield per_alert


def render_prometheus() -> bytes:
    registry = CollectorRegistry(auto_describe=False)
    # Counted in this process, not read from the database: served even while it is down.
    registry.register(call_log.UNRECORDED)
    registry.register(DatabaseCollector())
    return generate_latest(registry)


def _bearer_token(request: HttpRequest) -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def metrics_access(request: HttpRequest) -> int:
    """200 when allowed; 401 without credentials; 403 with credentials that are not enough."""
    expected = settings.METRICS_TOKEN
    presented = _bearer_token(request)
    if presented is not None:
        if expected and hmac.compare_digest(presented.encode(), expected.encode()):
            return 200
        return 403
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return 200 if user.is_active and user.is_staff else 403
    return 401


@never_cache
@require_GET
def prometheus_metrics(request: HttpRequest) -> HttpResponse:
    status = metrics_access(request)
    if status == 401:
        response = HttpResponse("Authentication required.\n", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    if status == 403:
        return HttpResponse("Forbidden.\n", status=403, content_type="text/plain")
    return HttpResponse(render_prometheus(), content_type=CONTENT_TYPE_LATEST)
