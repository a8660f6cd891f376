"""The money invariant check and `manage.py check_ledger`."""

from __future__ import annotations

import uuid
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from checkout.ledger import BROKEN, OK, PENDING, check_ledger
from checkout.models import Order, OrderStatus, Payment, PaymentStatus
from checkout.payments import gateway, simulator
from checkout.payments.gateway import ChargeResult
from checkout.payments.provider import ProviderUnavailable
from tests.fixtures import priced_order

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])

PRICE = Decimal("30.00")


def make_order(user, status: str, amount: Decimal = PRICE) -> Order:
    return priced_order(user, status, amount)


def pay(order: Order, method: str = "pm_card_visa", *, record: str | None = None) -> Payment:
    """Charge through the gateway and record the Payment the way the saga would (or as
    `record` says, to fake a saga bug)."""
    key = f"pay-{uuid.uuid4()}"
    outcome = gateway.charge(
        amount=order.amount,
        currency=order.currency,
        payment_method_id=method,
        idempotency_key=key,
        order_id=str(order.id),
    )
    status = record or {
        ChargeResult.SUCCEEDED: PaymentStatus.SUCCEEDED,
        ChargeResult.PENDING: PaymentStatus.PENDING,
        ChargeResult.DECLINED: PaymentStatus.FAILED,
    }.get(outcome.result, PaymentStatus.UNKNOWN)
    return Payment.objects.create(
        order=order,
        provider_idempotency_key=key,
        provider_charge_id=outcome.charge.id if outcome.charge else "",
        amount=order.amount,
        currency=order.currency,
        status=status,
    )


def refund(payment: Payment, amount: Decimal, *, record: bool = True) -> None:
    done = gateway.refund(
        charge_id=payment.provider_charge_id, amount=amount, idempotency_key=f"re-{uuid.uuid4()}"
    )
    if record:
        payment.refunded_amount += amount
        payment.provider_refund_id = done.id
        if payment.refunded_amount == payment.amount:
            payment.status = PaymentStatus.REFUNDED
        payment.save()


def run_command(*args: str) -> str:
    out = StringIO()
    call_command("check_ledger", *args, stdout=out)
    return out.getvalue()


def verdicts(report) -> dict[str, str]:
    return {row.order_id: row.verdict for row in report.rows}


@pytest.fixture
def consistent_books(user):
    """Every shape of order the saga leaves behind, each with matching books."""
    completed = make_order(user, OrderStatus.COMPLETED)
    pay(completed)
    completed_after_timeout = make_order(user, OrderStatus.COMPLETED)
    pay(completed_after_timeout, "pm_card_lost_response")
    declined = make_order(user, OrderStatus.FAILED)
    pay(declined, "pm_card_declined")
    compensated = make_order(user, OrderStatus.FAILED)
    refund(pay(compensated), PRICE)
    cancelled = make_order(user, OrderStatus.CANCELLED)
    refund(pay(cancelled), PRICE)
    not_charged = make_order(user, OrderStatus.FAILED)
    pay(not_charged, "pm_card_timeout_always")
    draft = make_order(user, OrderStatus.DRAFT)
    waiting = make_order(user, OrderStatus.PAYMENT_PENDING)
    pay(waiting, "pm_card_pending")
    return {
        "completed": completed,
        "completed_after_timeout": completed_after_timeout,
        "declined": declined,
        "compensated": compensated,
        "cancelled": cancelled,
        "not_charged": not_charged,
        "draft": draft,
        "waiting": waiting,
    }


def test_consistent_books_are_ok(consistent_books):
    report = check_ledger()
    assert report.ok, [(r.status, r.problems) for r in report.broken]
    assert report.orphan_charges == []
    by_id = {row.order_id: row for row in report.rows}
    assert len(by_id) == len(consistent_books)
    completed = by_id[str(consistent_books["completed"].id)]
    assert (completed.order_paid, completed.provider_net, completed.verdict) == (PRICE, PRICE, OK)
    compensated = by_id[str(consistent_books["compensated"].id)]
    assert (compensated.order_paid, compensated.provider_net) == (0, 0)
    waiting = by_id[str(consistent_books["waiting"].id)]
    assert waiting.verdict == PENDING
    assert [r.order_id for r in report.pending] == [waiting.order_id]


def test_command_prints_a_table_and_succeeds(consistent_books):
    output = run_command()
    lines = output.splitlines()
    assert lines[0].split() == ["order", "status", "order-paid", "provider-net", "verdict"]
    completed_line = next(line for line in lines if str(consistent_books["completed"].id) in line)
    assert completed_line.split()[1:] == ["completed", "30.00", "30.00", "OK"]
    assert "payment_pending" in output and "PENDING" in output
    assert "Ledger OK. 8 orders: 7 OK, 1 pending, 0 broken; 0 orphan charges." in output


def test_empty_books_are_ok():
    assert check_ledger().ok
    assert "Ledger OK. 0 orders" in run_command()


def test_completed_order_without_a_capture_is_broken(user, consistent_books):
    unpaid = make_order(user, OrderStatus.COMPLETED)
    pay(unpaid, "pm_card_declined")  # the saga "completed" it anyway

    report = check_ledger()
    assert not report.ok
    assert [row.order_id for row in report.broken] == [str(unpaid.id)]
    assert report.broken[0].problems == ("completed order paid 0.00 of 30.00",)
    with pytest.raises(CommandError, match="Ledger BROKEN"):
        run_command()


def test_completed_order_that_records_a_payment_the_provider_never_took_is_broken(user):
    order = make_order(user, OrderStatus.COMPLETED)
    pay(order, "pm_card_timeout_always", record=PaymentStatus.SUCCEEDED)

    [row] = check_ledger().broken
    assert (row.order_paid, row.provider_net) == (PRICE, 0)
    assert any("provider holds 0" in p for p in row.problems)


def test_captured_charge_on_a_failed_order_is_broken(user, consistent_books):
    kept_money = make_order(user, OrderStatus.FAILED)
    pay(kept_money, record=PaymentStatus.FAILED)  # captured, but nobody refunded

    report = check_ledger()
    assert verdicts(report)[str(kept_money.id)] == BROKEN
    assert [row.order_id for row in report.broken] == [str(kept_money.id)]
    with pytest.raises(CommandError):
        run_command()


def test_captured_and_recorded_money_on_a_failed_order_is_still_broken(user):
    """Both sides agree, but a failed order must hold nothing."""
    order = make_order(user, OrderStatus.FAILED)
    pay(order)
    [row] = check_ledger().broken
    assert any("must hold nothing" in p for p in row.problems)


def test_unrecorded_partial_refund_is_broken(user):
    order = make_order(user, OrderStatus.COMPLETED)
    refund(pay(order), Decimal("5.00"), record=False)
    [row] = check_ledger().broken
    assert (row.order_paid, row.provider_net) == (PRICE, Decimal("25.00"))


def test_orphan_charge_is_broken(user, consistent_books):
    orphan = gateway.charge(
        amount=PRICE,
        currency="USD",
        payment_method_id="pm_card_visa",
        idempotency_key=f"pay-{uuid.uuid4()}",
        order_id=str(uuid.uuid4()),  # no such order
    )

    report = check_ledger()
    assert not report.ok
    assert report.broken == []  # every order is fine; the charge itself is the problem
    assert [c.id for c in report.orphan_charges] == [orphan.charge.id]
    with pytest.raises(CommandError, match="1 orphan charges"):
        run_command()


def test_orphan_is_named_in_the_output(user):
    orphan = gateway.charge(
        amount=PRICE,
        currency="USD",
        payment_method_id="pm_card_visa",
        idempotency_key=f"pay-{uuid.uuid4()}",
        order_id="gone",
    )
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_ledger", stdout=out)
    assert f"orphan charge {orphan.charge.id}" in out.getvalue()
    assert "'gone'" in out.getvalue()


def test_pending_order_with_a_refund_mismatch_is_broken(user):
    order = make_order(user, OrderStatus.PAYMENT_PENDING)
    refund(pay(order, record=PaymentStatus.UNKNOWN), Decimal("30.00"), record=False)
    report = check_ledger()
    assert verdicts(report)[str(order.id)] == BROKEN


def test_pending_order_whose_charge_already_settled_is_still_pending(user):
    """Reconciliation has not run yet: not broken, just waiting."""
    order = make_order(user, OrderStatus.PAYMENT_PENDING)
    pay(order, record=PaymentStatus.UNKNOWN)
    report = check_ledger()
    assert report.ok
    assert verdicts(report)[str(order.id)] == PENDING


def test_unreachable_provider_fails_the_check_instead_of_passing_it(user, consistent_books):
    with simulator.outage():
        with pytest.raises(ProviderUnavailable):
            check_ledger()
        with pytest.raises(CommandError, match="NOT checked"):
            run_command()


def test_problems_only_lists_just_the_problems(user, consistent_books):
    bad = make_order(user, OrderStatus.COMPLETED)
    with pytest.raises(CommandError):
        call_command("check_ledger", "--problems-only", stdout=(out := StringIO()))
    body = out.getvalue().splitlines()[1:]
    assert any(str(bad.id) in line and "BROKEN" in line for line in body)
    assert not any(str(consistent_books["completed"].id) in line for line in body)


class ProtocolOnlyProvider:
    """A provider offering just the PaymentProvider protocol (it cannot list every charge)."""

    def __init__(self):
        self._inner = simulator.SimulatedProvider()

    def charges_for_order(self, *, order_id: str):
        return self._inner.charges_for_order(order_id=order_id)


def test_a_provider_that_cannot_list_charges_is_checked_per_order(user):
    good = make_order(user, OrderStatus.COMPLETED)
    pay(good)
    bad = make_order(user, OrderStatus.CANCELLED)
    pay(bad)  # captured on a cancelled order

    report = check_ledger(provider=ProtocolOnlyProvider())
    assert verdicts(report) == {str(good.id): OK, str(bad.id): BROKEN}
    assert report.orphans_checked is False
    assert report.orphan_charges == []
