"""Alert rules: alert-severity failures fire and clear; business events never page."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError
from django.test import override_settings
from django.utils import timezone

from checkout.models import Order, OrderStatus, SagaStep
from giftgenius.operations import alerts
from tests.fixtures import priced_order
from tool_runtime.errors import ERROR_CATALOG, Severity
from tool_runtime.models import ToolCallLog

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])


def log_calls(tool: str, n: int, *, code: str = "", ago: timedelta = timedelta(seconds=20)) -> None:
    spec = ERROR_CATALOG.get(code)
    ToolCallLog.objects.bulk_create(
        ToolCallLog(
            tool=tool,
            status="failed" if code else "success",
            error_code=code,
            error_type=str(spec.error_type) if spec else "",
            retryable=spec.retryable if spec else False,
            created_at=timezone.now() - ago,
        )
        for _ in range(n)
    )


def rules_firing() -> list[str]:
    return sorted(alert.key for alert in alerts.active_alerts())


def run_check_alerts() -> tuple[int, str]:
    """Run the command as `manage.py check_alerts` would: (exit code, stdout)."""
    out = io.StringIO()
    try:
        call_command("check_alerts", stdout=out)
    except CommandError as exc:
        return exc.returncode, out.getvalue()
    return 0, out.getvalue()


def test_all_clear_on_an_empty_database():
    assert rules_firing() == []
    assert run_check_alerts() == (0, "no active alerts\n")


def test_business_events_never_raise_an_alert():
    # Plenty of failures, all of analytics severity: declined cards, sold out, bad input...
    analytics_codes = [
        code for code, spec in ERROR_CATALOG.items() if spec.severity == Severity.ANALYTICS
    ]
    assert {"CARD_DECLINED", "INSUFFICIENT_FUNDS", "OUT_OF_STOCK", "VALIDATION_ERROR"} <= set(
        analytics_codes
    )
    for code in analytics_codes:
        log_calls("commit_order", 30, code=code)
    log_calls("suggest_gifts", 50)  # "no results" is a success, not an error
    assert rules_firing() == []


def test_upstream_failure_rate_fires_above_the_ratio_with_enough_calls():
    log_calls("search_products", 7)
    log_calls("search_products", 3, code="UPSTREAM_UNAVAILABLE")  # 30% of 10 calls
    fired = alerts.active_alerts()
    assert [a.key for a in fired] == ["upstream_failure_rate:search_products"]
    assert fired[0].value == pytest.approx(0.3)
    assert "3 of 10 calls" in fired[0].summary


def test_upstream_failure_rate_stays_quiet_below_ratio_or_min_calls():
    log_calls("search_products", 9)
    log_calls("search_products", 1, code="UPSTREAM_TIMEOUT")  # 10%
    log_calls("get_order", 4, code="UPSTREAM_TIMEOUT")  # 100% but only 4 calls
    assert rules_firing() == []


def test_upstream_failure_rate_counts_only_the_last_five_minutes():
    log_calls("search_products", 10, code="UPSTREAM_UNAVAILABLE", ago=timedelta(minutes=6))
    log_calls("search_products", 10)
    assert rules_firing() == []


def test_upstream_failure_rate_ignores_business_failures_of_the_same_tool():
    log_calls("commit_order", 10, code="CARD_DECLINED")
    log_calls("commit_order", 1, code="PAYMENT_TIMEOUT")
    assert rules_firing() == []


@override_settings(ALERT_THRESHOLDS={"upstream_failure_ratio": 0.5, "upstream_min_calls": 2})
def test_thresholds_come_from_settings():
    log_calls("search_products", 2)
    log_calls("search_products", 1, code="UPSTREAM_TIMEOUT")  # 33% < 50%
    assert rules_firing() == []
    log_calls("search_products", 1, code="UPSTREAM_TIMEOUT")  # 50%
    assert rules_firing() == ["upstream_failure_rate:search_products"]


@override_settings(ALERT_THRESHOLDS={"no_such_threshold": 1})
def test_unknown_threshold_names_are_rejected():
    with pytest.raises(ValueError, match="no_such_threshold"):
        alerts.active_alerts()


def test_mass_payment_timeouts_fire_from_the_tool_log():
    log_calls("commit_order", 50)  # plenty of calls, so the ratio rule stays quiet
    log_calls("commit_order", 3, code="PAYMENT_TIMEOUT")
    log_calls("commit_order", 1, code="PAYMENT_PROVIDER_ERROR")
    assert rules_firing() == []  # 4 < 5
    log_calls("commit_order", 1, code="PAYMENT_TIMEOUT")
    assert rules_firing() == ["payment_outage"]


def make_order(owner, status: str = OrderStatus.FAILED, *, idle: timedelta = timedelta(0)) -> Order:
    order = priced_order(owner, status)
    Order.objects.filter(pk=order.pk).update(updated_at=timezone.now() - idle)
    return order


def test_mass_payment_timeouts_fire_from_the_saga_log(user):
    order = make_order(user)
    for _ in range(5):
        SagaStep.objects.create(
            order=order, step="charge_card", status="failed", error_code="PAYMENT_TIMEOUT"
        )
    SagaStep.objects.create(
        order=order,
        step="charge_card",
        status="failed",
        error_code="PAYMENT_TIMEOUT",
        started_at=timezone.now() - timedelta(minutes=30),
    )
    assert rules_firing() == ["payment_outage"]
    alert = alerts.active_alerts()[0]
    assert alert.value == 5  # the old one is outside the window


def test_payment_timeouts_in_both_logs_are_not_double_counted(user):
    order = make_order(user)
    for _ in range(3):
        SagaStep.objects.create(
            order=order, step="charge_card", status="failed", error_code="PAYMENT_TIMEOUT"
        )
    log_calls("commit_order", 30)
    log_calls("commit_order", 3, code="PAYMENT_TIMEOUT")
    assert rules_firing() == []


def test_one_internal_error_fires():
    log_calls("get_workflow", 1, code="INTERNAL_ERROR")
    assert rules_firing() == ["internal_errors"]


def test_other_alert_codes_fire_in_bulk_only():
    log_calls("select_gift", 9, code="RETRY_LIMIT_EXCEEDED")
    assert rules_firing() == []
    log_calls("select_gift", 1, code="RETRY_LIMIT_EXCEEDED")
    assert rules_firing() == ["alert_code_burst:RETRY_LIMIT_EXCEEDED"]


def test_saga_left_in_processing_fires_until_it_moves(user):
    order = make_order(user, OrderStatus.PROCESSING, idle=timedelta(minutes=10))
    step = SagaStep.objects.create(
        order=order,
        step="charge_card",
        status="started",
        started_at=timezone.now() - timedelta(minutes=9),
    )
    assert rules_firing() == ["saga_stuck:processing"]
    assert str(order.pk) in alerts.active_alerts()[0].summary
    # Recovery moves it on: a fresh step clears the alert.
    SagaStep.objects.filter(pk=step.pk).update(status="succeeded", finished_at=timezone.now())
    assert rules_firing() == []


def test_recent_processing_and_old_payment_pending_orders(user):
    make_order(user, OrderStatus.PROCESSING, idle=timedelta(minutes=1))
    make_order(user, OrderStatus.PAYMENT_PENDING, idle=timedelta(minutes=20))
    assert rules_firing() == []  # both within their limits
    make_order(user, OrderStatus.PAYMENT_PENDING, idle=timedelta(minutes=45))
    assert rules_firing() == ["saga_stuck:payment_pending"]


def test_ledger_mismatch_fires_when_a_completed_order_was_never_paid(user):
    make_order(user, OrderStatus.COMPLETED)  # completed, but no charge at the provider
    assert rules_firing() == ["ledger_mismatch"]


@override_settings(ALERT_THRESHOLDS={"check_ledger": False})
def test_ledger_check_can_be_switched_off(user):
    make_order(user, OrderStatus.COMPLETED)
    assert rules_firing() == []


def test_check_alerts_exits_non_zero_while_active_and_zero_once_cleared():
    log_calls("search_products", 6)
    log_calls("search_products", 4, code="UPSTREAM_TIMEOUT")
    code, out = run_check_alerts()
    assert code == 1
    assert "ALERT upstream_failure_rate:search_products" in out
    # Five minutes later the failures have aged out of the window: the alert clears.
    ToolCallLog.objects.update(created_at=timezone.now() - timedelta(minutes=6))
    assert run_check_alerts() == (0, "no active alerts\n")


def test_check_alerts_process_exit_code(capsys):
    log_calls("get_workflow", 1, code="INTERNAL_ERROR")
    with pytest.raises(SystemExit) as exited:
        ManagementUtility(["manage.py", "check_alerts"]).execute()
    assert exited.value.code == 1
    captured = capsys.readouterr()
    assert "ALERT internal_errors" in captured.out
    assert "1 active alert(s)" in captured.err


def test_an_unreadable_provider_ledger_is_an_alert_not_a_crash(user):
    from checkout.payments.simulator import outage

    make_order(user, OrderStatus.FAILED)
    with outage():
        assert rules_firing() == ["ledger_unverifiable"]
        assert run_check_alerts()[0] == 1
    assert rules_firing() == []
