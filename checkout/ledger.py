"""The money invariant, checked against the provider's own books.

For every order: what the provider captured minus refunded (its succeeded charges for the order)
equals what the order says was paid (its succeeded/refunded Payment rows, amount - refunded).
On top of that an order's status fixes what it must have been paid:

- completed → exactly its amount;
- draft, failed, cancelled → nothing;
- payment_pending, processing → in flight: reported PENDING (a reconciliation or recovery sweep
  settles them), unless the refunds already disagree, which no later step can mend.

A charge whose metadata names no existing order is an orphan, which is always broken.

Every order's total is checked against its parts as well: each line is unit price times quantity,
the items total is the sum of the lines, the tax total the sum of the rounded line, shipping and
wrap taxes, and the amount items + shipping + wrap (+ tax when it is added); and every charge
the provider captured for it is exactly that amount.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, DecimalField, F, Q, Sum

from checkout.models import Order, OrderLine, OrderStatus, Payment, PaymentStatus
from checkout.payments.provider import Charge, ChargeStatus, PaymentProvider, get_provider

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
OK, PENDING, BROKEN = "OK", "PENDING", "BROKEN"
_IN_FLIGHT = {OrderStatus.PAYMENT_PENDING, OrderStatus.PROCESSING, OrderStatus.AWAITING_PAYMENT}
_UNPAID = {OrderStatus.DRAFT, OrderStatus.FAILED, OrderStatus.CANCELLED}


@dataclass(frozen=True)
class LedgerRow:
    order_id: str
    status: str
    currency: str
    amount: Decimal  # the order's price
    order_paid: Decimal  # what the order's Payment rows say was paid (net of refunds)
    provider_net: Decimal  # captured - refunded at the provider
    provider_pending: Decimal  # charges the provider still holds as pending
    verdict: str  # OK | PENDING | BROKEN
    problems: tuple[str, ...] = ()


@dataclass
class LedgerReport:
    rows: list[LedgerRow] = field(default_factory=list)
    broken: list[LedgerRow] = field(default_factory=list)
    orphan_charges: list[Charge] = field(default_factory=list)
    # False when the provider cannot list all charges, so orphans could not be looked for.
    orphans_checked: bool = True

    @property
    def pending(self) -> list[LedgerRow]:
        return [row for row in self.rows if row.verdict == PENDING]

    @property
    def ok(self) -> bool:
        return not self.broken and not self.orphan_charges


_MONEY = DecimalField(max_digits=14, decimal_places=2)


def _cents(value: object) -> Decimal:
    # SQLite may hand sums back as floats or unscaled decimals; compare money in cents.
    return Decimal(str(value or 0)).quantize(CENT)


def _order_books() -> dict[str, tuple[Decimal, Decimal]]:
    """order id → (paid net of refunds, refunded) from the app's Payment rows, in one query."""
    rows = (
        Payment.objects.filter(status__in=[PaymentStatus.SUCCEEDED, PaymentStatus.REFUNDED])
        .values("order_id")
        .annotate(
            net=Sum(F("amount") - F("refunded_amount"), output_field=_MONEY),
            refunded=Sum("refunded_amount", output_field=_MONEY),
        )
    )
    return {str(r["order_id"]): (_cents(r["net"]), _cents(r["refunded"])) for r in rows}


def _line_books() -> dict[str, tuple[Decimal, Decimal, int]]:
    """order id → (sum of line totals, sum of line taxes, lines whose total is not unit price
    times quantity), in one query."""
    rows = OrderLine.objects.values("order_id").annotate(
        items=Sum("line_total", output_field=_MONEY),
        tax=Sum("tax_amount", output_field=_MONEY),
        wrong=Count("pk", filter=~Q(line_total=F("unit_price") * F("quantity"))),
    )
    return {str(r["order_id"]): (_cents(r["items"]), _cents(r["tax"]), r["wrong"]) for r in rows}


def total_problems(order: Order, lines: tuple[Decimal, Decimal, int]) -> list[str]:
    """How an order's total fails to be the sum of its parts (nothing when it is)."""
    items, line_tax, wrong_lines = lines
    problems = []
    if wrong_lines:
        problems.append(f"{wrong_lines} line(s) not unit price times quantity")
    if items != _cents(order.items_total):
        problems.append(f"lines sum to {items}, items total says {_cents(order.items_total)}")
    tax = line_tax + _cents(order.shipping_tax) + _cents(order.gift_wrap_tax)
    if tax != _cents(order.tax_total):
        problems.append(f"line taxes sum to {tax}, tax total says {_cents(order.tax_total)}")
    parts = order.items_total + order.shipping_total + order.gift_wrap_total
    if not order.prices_include_tax:
        parts += order.tax_total
    if _cents(parts) != _cents(order.amount):
        problems.append(f"parts sum to {_cents(parts)}, total says {_cents(order.amount)}")
    return problems


def _check_order(
    order: Order,
    books: tuple[Decimal, Decimal],
    charges: list[Charge],
    lines: tuple[Decimal, Decimal, int],
) -> LedgerRow:
    order_paid, order_refunded = books
    succeeded = [c for c in charges if c.status == ChargeStatus.SUCCEEDED]
    provider_net = _cents(sum((c.net_captured for c in succeeded), ZERO))
    provider_refunded = _cents(sum((c.refunded_amount for c in succeeded), ZERO))
    provider_pending = _cents(
        sum((c.amount for c in charges if c.status == ChargeStatus.PENDING), ZERO)
    )

    problems = total_problems(order, lines)
    if order.status in _IN_FLIGHT:
        if provider_refunded != order_refunded:
            problems.append(
                f"provider refunded {provider_refunded}, order records {order_refunded} refunded"
            )
    else:
        if provider_net != order_paid:
            problems.append(f"provider holds {provider_net}, order says {order_paid} paid")
        if order.status == OrderStatus.COMPLETED and order_paid != _cents(order.amount):
            problems.append(f"completed order paid {order_paid} of {_cents(order.amount)}")
        if order.status in _UNPAID and (order_paid != ZERO or provider_net != ZERO):
            problems.append(f"{order.status} order must hold nothing")
        if provider_pending:
            problems.append(
                f"provider still has {provider_pending} pending for a {order.status} order"
            )
    for charge in succeeded:
        if _cents(charge.amount) != _cents(order.amount):
            problems.append(f"charge {charge.id} is {charge.amount}, order total {order.amount}")
        if charge.currency != order.currency:
            problems.append(
                f"charge {charge.id} is in {charge.currency}, order in {order.currency}"
            )

    if problems:
        verdict = BROKEN
    elif order.status in _IN_FLIGHT:
        verdict = PENDING
    else:
        verdict = OK
    return LedgerRow(
        order_id=str(order.id),
        status=order.status,
        currency=order.currency,
        amount=_cents(order.amount),
        order_paid=order_paid,
        provider_net=provider_net,
        provider_pending=provider_pending,
        verdict=verdict,
        problems=tuple(problems),
    )


def check_ledger(*, provider: PaymentProvider | None = None) -> LedgerReport:
    """Compare every order with the provider's books. Raises ProviderError when the provider
    cannot be read (the check is then impossible, not passed)."""
    provider = provider or get_provider()
    report = LedgerReport()
    # One listing of the provider's books when it can list them (also finds orphans);
    # otherwise one charges_for_order call per order.
    list_charges = getattr(provider, "list_charges", None)
    by_order: dict[str, list[Charge]] | None = None
    if list_charges is not None:
        by_order = defaultdict(list)
        for charge in list_charges():
            by_order[charge.order_id].append(charge)
    books = _order_books()
    lines = _line_books()
    order_ids: set[str] = set()

    for order in Order.objects.order_by("created_at", "id").iterator():
        order_id = str(order.id)
        order_ids.add(order_id)
        if by_order is None:
            charges = provider.charges_for_order(order_id=order_id)
        else:
            charges = by_order.get(order_id, [])
        row = _check_order(
            order, books.get(order_id, (ZERO, ZERO)), charges, lines.get(order_id, (ZERO, ZERO, 0))
        )
        report.rows.append(row)
        if row.verdict == BROKEN:
            report.broken.append(row)

    if by_order is None:
        report.orphans_checked = False
    else:
        report.orphan_charges = [
            charge
            for order_id, charges in by_order.items()
            if order_id not in order_ids
            for charge in charges
        ]
    return report
