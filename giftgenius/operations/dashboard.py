"""The staff metrics dashboard, server-rendered SVG.

It reads the database through giftgenius.operations.metrics and .alerts, so every app process
answers the same numbers. No inline styles or scripts: charts use SVG presentation attributes
and classes from static/ops/ops.css, so the strict CSP holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.admin import AdminSite
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils import timezone

from giftgenius.operations import alerts, metrics

SERIES_CLASSES = 8  # colour classes .series-0 … .series-7 in ops.css

# --- chart geometry (the template only draws what is computed here) ------------------------------


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    css: str
    title: str


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str
    anchor: str = "start"


@dataclass
class Chart:
    width: int
    height: int
    bars: list[Bar]
    labels: list[Label]
    empty: bool
    legend: list[tuple[str, str]]  # (css class, text)
    title: str


def _r(value: float) -> float:
    return round(value, 1)


def funnel_chart(stages: list[metrics.FunnelStage]) -> Chart:
    left, bar_max, row = 140, 380, 30
    bars, labels = [], []
    started = stages[0].workflows if stages else 0
    for i, stage in enumerate(stages):
        y = 10 + i * row
        width = bar_max * stage.share_of_started
        bars.append(
            Bar(left, y, _r(width), 20, "funnel-bar", f"{stage.label}: {stage.workflows} workflows")
        )
        labels.append(Label(left - 8, y + 15, stage.label, "end"))
        labels.append(
            Label(_r(left + width + 6), y + 15, f"{stage.workflows} ({stage.share_of_started:.0%})")
        )
    return Chart(
        width=left + bar_max + 90,
        height=20 + row * len(stages),
        bars=bars,
        labels=labels,
        empty=started == 0,
        legend=[],
        title="Conversion funnel",
    )


def failures_chart(timeline: metrics.FailureTimeline, window: metrics.TimeWindow) -> Chart:
    left, top, plot_w, plot_h = 40, 10, 600, 170
    n = len(timeline.bucket_starts)
    totals = timeline.totals
    peak = max(totals, default=0)
    slot = plot_w / max(n, 1)
    bars, labels = [], []
    series = {code: f"series-{i % SERIES_CLASSES}" for i, code in enumerate(timeline.codes)}
    for i, start in enumerate(timeline.bucket_starts):
        stacked = 0
        for code in timeline.codes:
            count = timeline.counts[code][i]
            if not count:
                continue
            height = plot_h * count / peak
            y = top + plot_h - plot_h * stacked / peak - height
            stamp = timezone.localtime(start).strftime("%Y-%m-%d %H:%M")
            bars.append(
                Bar(
                    _r(left + i * slot + slot * 0.1),
                    _r(y),
                    _r(slot * 0.8),
                    _r(height),
                    series[code],
                    f"{stamp}: {count} x {code}",
                )
            )
            stacked += count
    fmt = "%m-%d %H:%M" if window.key in {"24h", "7d"} else "%H:%M"
    for i in sorted({0, n // 2, n - 1}) if n else []:
        stamp = timezone.localtime(timeline.bucket_starts[i]).strftime(fmt)
        labels.append(Label(_r(left + i * slot + slot / 2), top + plot_h + 16, stamp, "middle"))
    labels.append(Label(left - 6, top + 10, str(peak), "end"))
    labels.append(Label(left - 6, top + plot_h, "0", "end"))
    return Chart(
        width=left + plot_w + 10,
        height=top + plot_h + 26,
        bars=bars,
        labels=labels,
        empty=peak == 0,
        legend=[
            (series[code], f"{code} ({sum(timeline.counts[code])})") for code in timeline.codes
        ],
        title="Failures by error code",
    )


def retry_chart(share: metrics.RetryShare) -> Chart:
    width = 600
    recovered_w = width * share.recovered_share
    bars = []
    if share.troubled:
        bars = [
            Bar(
                0,
                0,
                _r(recovered_w),
                28,
                "retry-recovered",
                f"Recovered by retry: {share.recovered_by_retry}",
            ),
            Bar(
                _r(recovered_w),
                0,
                _r(width - recovered_w),
                28,
                "retry-final",
                f"Final upstream failures: {share.final_upstream_failures}",
            ),
        ]
    return Chart(
        width=width,
        height=28,
        bars=bars,
        labels=[],
        empty=not share.troubled,
        legend=[
            (
                "retry-recovered",
                f"recovered by retry: {share.recovered_by_retry} ({share.recovered_share:.0%})",
            ),
            (
                "retry-final",
                f"final failures: {share.final_upstream_failures} "
                f"({share.final_failure_share:.0%})",
            ),
        ],
        title="Retries vs final failures",
    )


def latency_chart(latency: list[metrics.Latency]) -> Chart:
    left, bar_max, row = 170, 380, 40
    peak = max((item.p95_ms for item in latency), default=0.0)
    bars, labels = [], []
    for i, item in enumerate(latency):
        y = 10 + i * row
        for offset, css, value, name in (
            (0, "lat-p50", item.p50_ms, "p50"),
            (15, "lat-p95", item.p95_ms, "p95"),
        ):
            width = bar_max * value / peak if peak else 0
            bars.append(
                Bar(left, y + offset, _r(width), 13, css, f"{item.tool} {name}: {value:.1f} ms")
            )
            labels.append(Label(_r(left + width + 6), y + offset + 11, f"{value:.0f} ms"))
        labels.append(Label(left - 8, y + 18, item.tool, "end"))
    return Chart(
        width=left + bar_max + 80,
        height=20 + row * len(latency),
        bars=bars,
        labels=labels,
        empty=not latency,
        legend=[("lat-p50", "p50"), ("lat-p95", "p95")],
        title="Tool latency (p50 / p95)",
    )


# --- the dashboard --------------------------------------------------------------------------


def dashboard_view(request: HttpRequest, *, admin_site: AdminSite) -> TemplateResponse:
    """Staff-only (wrapped in admin_site.admin_view by the admin that mounts it)."""
    window = metrics.time_window(request.GET.get("window"))
    data = metrics.dashboard_data(window=window)
    context = {
        **admin_site.each_context(request),
        "title": "Operations dashboard",
        "window": window,
        "windows": list(metrics.WINDOWS),
        "alerts": alerts.active_alerts(),
        "charts": [
            funnel_chart(data.funnel),
            failures_chart(data.timeline, window),
            retry_chart(data.retries),
            latency_chart(data.latency),
        ],
        "retries": data.retries,
        "failures": data.failures,
        "totals": data.totals,
    }
    return TemplateResponse(request, "admin/ops/dashboard.html", context)
