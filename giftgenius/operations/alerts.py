"""Alert rules over the database metrics: what should page someone right now.

Only `alert`-severity failures from the error catalog (upstream down, mass payment time-outs,
internal errors, sagas left inconsistent) can fire. Business events — no results, declined
cards, validation mistakes, every `analytics` code — are counted on the dashboard but never page.

Thresholds come from `settings.ALERT_THRESHOLDS` (a dict overriding any of the defaults below).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from checkout.models import OrderStatus
from giftgenius.operations import metrics
from tool_runtime import call_log
from tool_runtime.errors import ERROR_CATALOG, ErrorType, Severity
from tool_runtime.models import ToolCallStatus, UnrecordedToolCall

PAYMENT_OUTAGE_CODES = ["PAYMENT_TIMEOUT", "PAYMENT_PROVIDER_ERROR"]
INTERNAL_CODES = ["INTERNAL_ERROR"]


@dataclass(frozen=True)
class Thresholds:
    window_seconds: int = 300  # the "last 5 minutes" every rate/count rule looks at
    upstream_failure_ratio: float = 0.2  # upstream failures / calls of one tool
    upstream_min_calls: int = 10  # below this many calls a ratio says nothing
    payment_outage_count: int = 5  # PAYMENT_TIMEOUT + PAYMENT_PROVIDER_ERROR in the window
    internal_error_count: int = 1  # any unexpected crash is worth a look
    alert_code_count: int = 10  # any other alert-severity code in the window
    saga_stuck_minutes: int = 5  # an order left in `processing` this long
    payment_pending_stuck_minutes: int = 30  # reconciliation should have settled it by then
    check_ledger: bool = True  # compare the provider ledger with the orders


def thresholds() -> Thresholds:
    overrides = getattr(settings, "ALERT_THRESHOLDS", None) or {}
    known = {f.name for f in fields(Thresholds)}
    unknown = set(overrides) - known
    if unknown:
        raise ValueError(f"unknown ALERT_THRESHOLDS keys: {sorted(unknown)}")
    return replace(Thresholds(), **overrides)


@dataclass(frozen=True)
class Alert:
    rule: str
    summary: str
    labels: tuple[tuple[str, str], ...] = ()
    value: float = 0
    threshold: float = 0
    severity: str = str(Severity.ALERT)

    @property
    def key(self) -> str:
        return ":".join([self.rule, *(value for _, value in self.labels)])


Rule = Callable[[datetime, Thresholds], list[Alert]]


def _alert_codes() -> set[str]:
    return {code for code, spec in ERROR_CATALOG.items() if spec.severity == Severity.ALERT}


def upstream_failure_rate(now: datetime, limits: Thresholds) -> list[Alert]:
    """A tool whose upstream keeps failing (after its own retries) for a share of its calls."""
    since = now - timedelta(seconds=limits.window_seconds)
    upstream_alert_codes = [
        code
        for code, spec in ERROR_CATALOG.items()
        if spec.error_type == ErrorType.UPSTREAM and spec.severity == Severity.ALERT
    ]
    rows = (
        call_log.logged_calls()
        .filter(created_at__gte=since, created_at__lte=now)
        .values("tool")
        .annotate(
            calls=Count("id"),
            upstream=Count(
                "id", filter=Q(status=ToolCallStatus.FAILED, error_code__in=upstream_alert_codes)
            ),
        )
    )
    alerts = []
    for row in rows:
        if row["calls"] < limits.upstream_min_calls or not row["upstream"]:
            continue
        ratio = row["upstream"] / row["calls"]
        if ratio >= limits.upstream_failure_ratio:
            alerts.append(
                Alert(
                    rule="upstream_failure_rate",
                    summary=(
                        f"{row['tool']}: {row['upstream']} of {row['calls']} calls ({ratio:.0%}) "
                        f"failed upstream in the last {limits.window_seconds // 60} min"
                    ),
                    labels=(("tool", row["tool"]),),
                    value=round(ratio, 4),
                    threshold=limits.upstream_failure_ratio,
                )
            )
    return alerts


def payment_outage(now: datetime, limits: Thresholds) -> list[Alert]:
    """Mass payment time-outs / provider errors, whether the tool or the saga recorded them."""
    since = now - timedelta(seconds=limits.window_seconds)
    from_tools = sum(metrics.failures_since(since=since, codes=PAYMENT_OUTAGE_CODES).values())
    from_saga = metrics.saga_payment_failures_since(since=since, codes=PAYMENT_OUTAGE_CODES)
    # One provider failure usually shows up in both logs; the larger count avoids double counting.
    count = max(from_tools, from_saga)
    if count < limits.payment_outage_count:
        return []
    return [
        Alert(
            rule="payment_outage",
            summary=(
                f"{count} payment time-outs/provider errors "
                f"in the last {limits.window_seconds // 60} min"
            ),
            value=count,
            threshold=limits.payment_outage_count,
        )
    ]


def internal_errors(now: datetime, limits: Thresholds) -> list[Alert]:
    since = now - timedelta(seconds=limits.window_seconds)
    count = sum(metrics.failures_since(since=since, codes=INTERNAL_CODES).values())
    if count < limits.internal_error_count:
        return []
    return [
        Alert(
            rule="internal_errors",
            summary=f"{count} internal errors in the last {limits.window_seconds // 60} min",
            value=count,
            threshold=limits.internal_error_count,
        )
    ]


def other_alert_codes(now: datetime, limits: Thresholds) -> list[Alert]:
    """Any remaining alert-severity code (e.g. RETRY_LIMIT_EXCEEDED loops) seen in bulk."""
    covered = {*INTERNAL_CODES, *PAYMENT_OUTAGE_CODES}
    covered |= {c for c, s in ERROR_CATALOG.items() if s.error_type == ErrorType.UPSTREAM}
    codes = sorted(_alert_codes() - covered)
    since = now - timedelta(seconds=limits.window_seconds)
    counts = metrics.failures_since(since=since, codes=codes)
    return [
        Alert(
            rule="alert_code_burst",
            summary=f"{code}: {count} failures in the last {limits.window_seconds // 60} min",
            labels=(("error_code", code),),
            value=count,
            threshold=limits.alert_code_count,
        )
        for code, count in sorted(counts.items())
        if count >= limits.alert_code_count
    ]


def saga_stuck(now: datetime, limits: Thresholds) -> list[Alert]:
    """Orders whose saga stopped half-way: recovery should have finished or compensated them."""
    alerts = []
    for status, minutes in (
        (OrderStatus.PROCESSING, limits.saga_stuck_minutes),
        (OrderStatus.PAYMENT_PENDING, limits.payment_pending_stuck_minutes),
    ):
        stuck = metrics.stuck_orders(status=status, idle_for=timedelta(minutes=minutes), now=now)
        if stuck:
            sample = ", ".join(order.order_id for order in stuck[:3])
            alerts.append(
                Alert(
                    rule="saga_stuck",
                    summary=(
                        f"{len(stuck)} order(s) left in {status} for over {minutes} min "
                        f"(e.g. {sample})"
                    ),
                    labels=(("status", str(status)),),
                    value=len(stuck),
                    threshold=1,
                )
            )
    return alerts


def ledger_mismatch(now: datetime, limits: Thresholds) -> list[Alert]:
    """The money invariant: captured - refunded at the provider equals what each order says."""
    if not limits.check_ledger:
        return []
    try:
        from checkout.ledger import check_ledger
        from checkout.payments.provider import ProviderError
    except ImportError:  # the payment simulator is optional in a bare checkout
        return []
    try:
        broken = list(check_ledger().broken)
    except ProviderError:
        # Not a pass: the invariant could not be checked at all, which is itself worth a page.
        return [
            Alert(
                rule="ledger_unverifiable",
                summary="The payment provider's ledger could not be read to check the orders",
                value=1,
                threshold=1,
            )
        ]
    if not broken:
        return []
    return [
        Alert(
            rule="ledger_mismatch",
            summary=f"{len(broken)} order(s) where the payment ledger disagrees with the order",
            value=len(broken),
            threshold=1,
        )
    ]


def calls_not_recorded(now: datetime, limits: Thresholds) -> list[Alert]:
    """Calls whose log row could not be written: every other rule reads those rows, so a call
    that crashed without one would otherwise page nobody. Counts the tallies in the database and
    those this process still holds for it."""
    since = now - timedelta(seconds=limits.window_seconds)
    count = UnrecordedToolCall.objects.filter(created_at__gte=since).count()
    count += sum(1 for tally in call_log.untallied() if tally["created_at"] >= since)
    if count < 1:
        return []
    return [
        Alert(
            rule="calls_not_recorded",
            summary=(
                f"{count} tool call(s) in the last {limits.window_seconds // 60} min could not be "
                "logged (see the tool_call_not_recorded log lines)"
            ),
            value=count,
            threshold=1,
        )
    ]


RULES: list[Rule] = [
    upstream_failure_rate,
    payment_outage,
    internal_errors,
    calls_not_recorded,
    other_alert_codes,
    saga_stuck,
    ledger_mismatch,
]


def active_alerts(*, now: datetime | None = None) -> list[Alert]:
    """Evaluate every rule now; an empty list means all clear."""
    now = now or timezone.now()
    limits = thresholds()
    alerts: list[Alert] = []
    for rule in RULES:
        alerts.extend(rule(now, limits))
    return alerts
