"""Operational metrics read from the database (selectors only; nothing here writes).

App processes keep no counters of their own (there are several workers), so every figure the
dashboard, Prometheus and the alert rules use is aggregated from ToolCallLog, SagaStep, Order and
WorkflowContext rows.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, F, Max, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from checkout.models import Order, OrderStatus, SagaStep
from gifts.models import Step, WorkflowContext
from gifts.workflow import ORDER as FUNNEL_STEPS
from tool_runtime import call_log
from tool_runtime.errors import ERROR_CATALOG, ErrorType, Severity
from tool_runtime.models import ToolCallStatus

# Dashboard windows: (length, width of one bar in the failures-over-time chart).
WINDOWS: dict[str, tuple[timedelta, timedelta]] = {
    "15m": (timedelta(minutes=15), timedelta(minutes=1)),
    "1h": (timedelta(hours=1), timedelta(minutes=5)),
    "24h": (timedelta(hours=24), timedelta(hours=1)),
    "7d": (timedelta(days=7), timedelta(hours=12)),
}
DEFAULT_WINDOW = "1h"

# Tool-call latency histogram buckets (seconds) for Prometheus.
DURATION_BUCKETS_SECONDS: tuple[float, ...] = (
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)


def severity_of(code: str) -> str:
    """Catalog severity; a code the catalog no longer knows is treated as a system failure."""
    spec = ERROR_CATALOG.get(code)
    return str(spec.severity) if spec else str(Severity.ALERT)


@dataclass(frozen=True)
class TimeWindow:
    key: str
    since: datetime
    until: datetime
    bucket: timedelta


def time_window(key: str | None, *, now: datetime | None = None) -> TimeWindow:
    """Resolve `?window=` to a concrete range; unknown values fall back to the default."""
    if key not in WINDOWS:
        key = DEFAULT_WINDOW
    length, bucket = WINDOWS[key]
    until = now or timezone.now()
    return TimeWindow(key=key, since=until - length, until=until, bucket=bucket)


# --- tool calls -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolCallTotals:
    tool: str
    calls: int
    failures: int
    replayed: int
    upstream_retries: int  # retries spent inside calls
    recovered_by_retry: int  # succeeded after at least one upstream retry
    final_upstream_failures: int  # failed with an upstream error (retries, if any, exhausted)


def _calls(since: datetime | None, until: datetime | None):
    rows = call_log.logged_calls()
    if since is not None:
        rows = rows.filter(created_at__gte=since)
    if until is not None:
        rows = rows.filter(created_at__lte=until)
    return rows


def tool_call_totals(
    *, since: datetime | None = None, until: datetime | None = None
) -> list[ToolCallTotals]:
    failed = Q(status=ToolCallStatus.FAILED)
    rows = (
        _calls(since, until)
        .values("tool")
        .annotate(
            calls=Count("id"),
            failures=Count("id", filter=failed),
            replayed=Count("id", filter=Q(replayed=True)),
            retries=Coalesce(Sum("upstream_retries"), 0),
            recovered=Count("id", filter=Q(status=ToolCallStatus.SUCCESS, upstream_retries__gt=0)),
            final_upstream=Count("id", filter=failed & Q(error_type=ErrorType.UPSTREAM)),
        )
        .order_by("tool")
    )
    return [
        ToolCallTotals(
            tool=row["tool"],
            calls=row["calls"],
            failures=row["failures"],
            replayed=row["replayed"],
            upstream_retries=row["retries"],
            recovered_by_retry=row["recovered"],
            final_upstream_failures=row["final_upstream"],
        )
        for row in rows
    ]


@dataclass(frozen=True)
class FailureCount:
    tool: str
    error_code: str
    error_type: str
    severity: str
    count: int


def failure_counts(
    *, since: datetime | None = None, until: datetime | None = None
) -> list[FailureCount]:
    rows = (
        _calls(since, until)
        .filter(status=ToolCallStatus.FAILED)
        .values("tool", "error_code", "error_type")
        .annotate(count=Count("id"))
        .order_by("tool", "error_code", "error_type")
    )
    return [
        FailureCount(
            tool=row["tool"],
            error_code=row["error_code"],
            error_type=row["error_type"],
            severity=severity_of(row["error_code"]),
            count=row["count"],
        )
        for row in rows
    ]


@dataclass(frozen=True)
class FailureTimeline:
    bucket_starts: list[datetime]
    codes: list[str]  # most frequent first
    counts: dict[str, list[int]]  # code -> one count per bucket

    @property
    def totals(self) -> list[int]:
        return [
            sum(self.counts[code][i] for code in self.codes) for i in range(len(self.bucket_starts))
        ]


def failures_over_time(*, window: TimeWindow) -> FailureTimeline:
    """Failed calls per error code in equal time buckets covering the window."""
    width = window.bucket.total_seconds()
    n_buckets = max(1, math.ceil((window.until - window.since).total_seconds() / width))
    starts = [window.since + i * window.bucket for i in range(n_buckets)]
    counts: dict[str, list[int]] = defaultdict(lambda: [0] * n_buckets)
    failed = _calls(window.since, window.until).filter(status=ToolCallStatus.FAILED)
    # Bucketing in Python keeps it portable (SQLite/PostgreSQL); only failures in one window load.
    for created_at, code in failed.values_list("created_at", "error_code").iterator():
        index = min(n_buckets - 1, int((created_at - window.since).total_seconds() // width))
        counts[code or "UNKNOWN"][index] += 1
    codes = sorted(counts, key=lambda code: (-sum(counts[code]), code))
    return FailureTimeline(bucket_starts=starts, codes=codes, counts=dict(counts))


@dataclass(frozen=True)
class RetryShare:
    calls: int
    upstream_retries: int
    recovered_by_retry: int
    final_upstream_failures: int

    @property
    def troubled(self) -> int:
        """Calls that met an upstream problem: saved by a retry or failed for good."""
        return self.recovered_by_retry + self.final_upstream_failures

    @property
    def recovered_share(self) -> float:
        return self.recovered_by_retry / self.troubled if self.troubled else 0.0

    @property
    def final_failure_share(self) -> float:
        return self.final_upstream_failures / self.troubled if self.troubled else 0.0


def retry_share(*, since: datetime | None = None, until: datetime | None = None) -> RetryShare:
    totals = tool_call_totals(since=since, until=until)
    return RetryShare(
        calls=sum(t.calls for t in totals),
        upstream_retries=sum(t.upstream_retries for t in totals),
        recovered_by_retry=sum(t.recovered_by_retry for t in totals),
        final_upstream_failures=sum(t.final_upstream_failures for t in totals),
    )


@dataclass(frozen=True)
class Latency:
    tool: str
    calls: int
    p50_ms: float
    p95_ms: float
    max_ms: float


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list (0.0 for an empty one)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def latency_by_tool(
    *, since: datetime | None = None, until: datetime | None = None
) -> list[Latency]:
    durations: dict[str, list[float]] = defaultdict(list)
    rows = _calls(since, until).values_list("tool", "duration_ms").order_by("tool", "duration_ms")
    for tool, duration in rows.iterator():
        durations[tool].append(float(duration))
    return [
        Latency(
            tool=tool,
            calls=len(values),
            p50_ms=percentile(values, 0.50),
            p95_ms=percentile(values, 0.95),
            max_ms=values[-1],
        )
        for tool, values in sorted(durations.items())
    ]


@dataclass(frozen=True)
class DurationHistogram:
    tool: str
    buckets: list[tuple[float, int]]  # (upper bound in seconds, cumulative count), +Inf last
    sum_seconds: float
    count: int


def duration_histograms() -> list[DurationHistogram]:
    """Cumulative latency histogram per tool over every logged call (one aggregate query)."""
    per_bucket = {
        f"le_{i}": Count("id", filter=Q(duration_ms__lte=bound * 1000))
        for i, bound in enumerate(DURATION_BUCKETS_SECONDS)
    }
    rows = (
        call_log.logged_calls()
        .values("tool")
        .annotate(total=Count("id"), total_ms=Coalesce(Sum("duration_ms"), 0.0), **per_bucket)
        .order_by("tool")
    )
    histograms = []
    for row in rows:
        buckets = [(bound, row[f"le_{i}"]) for i, bound in enumerate(DURATION_BUCKETS_SECONDS)]
        buckets.append((math.inf, row["total"]))
        histograms.append(
            DurationHistogram(
                tool=row["tool"],
                buckets=buckets,
                sum_seconds=row["total_ms"] / 1000,
                count=row["total"],
            )
        )
    return histograms


def failures_since(*, since: datetime, codes: list[str] | None = None) -> dict[str, int]:
    """Failed calls per error code since `since` (optionally only some codes)."""
    rows = call_log.logged_calls().filter(status=ToolCallStatus.FAILED, created_at__gte=since)
    if codes is not None:
        rows = rows.filter(error_code__in=codes)
    return {
        row["error_code"]: row["n"] for row in rows.values("error_code").annotate(n=Count("id"))
    }


# --- workflows --------------------------------------------------------------------------------


@dataclass(frozen=True)
class FunnelStage:
    step: str
    label: str
    workflows: int
    share_of_started: float  # 0..1


def conversion_funnel(
    *, since: datetime | None = None, until: datetime | None = None
) -> list[FunnelStage]:
    """Workflows started in the range, and how many of them reached each step.

    A workflow that went back still counts as having reached the later step (visited_steps keeps
    it), which is what a funnel measures. JSON containment lookups are not portable to SQLite,
    so the steps are tallied in Python over one window's workflows.
    """
    rows = WorkflowContext.objects.all()
    if since is not None:
        rows = rows.filter(created_at__gte=since)
    if until is not None:
        rows = rows.filter(created_at__lte=until)
    reached: dict[str, int] = dict.fromkeys(FUNNEL_STEPS, 0)
    started = 0
    for visited, current in rows.values_list("visited_steps", "current_step").iterator():
        started += 1
        seen = {*(visited or []), current, Step.BRIEF}
        for step in FUNNEL_STEPS:
            if step in seen:
                reached[step] += 1
    labels = dict(Step.choices)
    return [
        FunnelStage(
            step=str(step),
            label=str(labels[step]),
            workflows=reached[step],
            share_of_started=reached[step] / started if started else 0.0,
        )
        for step in FUNNEL_STEPS
    ]


# --- checkout ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SagaStepCount:
    step: str
    status: str
    error_code: str
    count: int


def saga_step_counts(*, since: datetime | None = None) -> list[SagaStepCount]:
    rows = SagaStep.objects.all()
    if since is not None:
        rows = rows.filter(started_at__gte=since)
    grouped = (
        rows.values("step", "status", "error_code")
        .annotate(n=Count("id"))
        .order_by("step", "status")
    )
    return [SagaStepCount(r["step"], r["status"], r["error_code"], r["n"]) for r in grouped]


def order_status_counts() -> dict[str, int]:
    counts = dict.fromkeys(OrderStatus.values, 0)
    for row in Order.objects.values("status").annotate(n=Count("id")):
        counts[row["status"]] = row["n"]
    return counts


def saga_payment_failures_since(*, since: datetime, codes: list[str]) -> int:
    """Payment-provider failures the saga itself recorded (charges and reconciliations)."""
    return SagaStep.objects.filter(
        status="failed", error_code__in=codes, started_at__gte=since
    ).count()


@dataclass(frozen=True)
class StuckOrder:
    order_id: str
    status: str
    last_activity: datetime
    last_step: str


def stuck_orders(
    *, status: str, idle_for: timedelta, now: datetime | None = None
) -> list[StuckOrder]:
    """Orders in `status` whose saga has not moved for `idle_for` (last step, else the order)."""
    cutoff = (now or timezone.now()) - idle_for
    candidates = (
        Order.objects.filter(status=status, updated_at__lt=cutoff)
        .annotate(
            last_started=Max("saga_steps__started_at"), last_finished=Max("saga_steps__finished_at")
        )
        .values("id", "status", "updated_at", "last_started", "last_finished")
    )
    stuck: list[StuckOrder] = []
    for row in candidates:
        moments = [m for m in (row["last_started"], row["last_finished"]) if m is not None]
        last = max(moments) if moments else row["updated_at"]
        if last < cutoff:
            last_step = (
                SagaStep.objects.filter(order_id=row["id"])
                .order_by(F("started_at").desc(), "-id")
                .values_list("step", flat=True)
                .first()
            )
            stuck.append(StuckOrder(str(row["id"]), row["status"], last, last_step or ""))
    return stuck


@dataclass
class DashboardData:
    window: TimeWindow
    funnel: list[FunnelStage]
    timeline: FailureTimeline
    retries: RetryShare
    latency: list[Latency]
    failures: list[FailureCount]
    totals: list[ToolCallTotals] = field(default_factory=list)


def dashboard_data(*, window: TimeWindow) -> DashboardData:
    return DashboardData(
        window=window,
        funnel=conversion_funnel(since=window.since, until=window.until),
        timeline=failures_over_time(window=window),
        retries=retry_share(since=window.since, until=window.until),
        latency=latency_by_tool(since=window.since, until=window.until),
        failures=failure_counts(since=window.since, until=window.until),
        totals=tool_call_totals(since=window.since, until=window.until),
    )
