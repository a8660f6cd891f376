"""`manage.py check_ledger`: the money invariant for every order, against the provider's books.

Prints one line per order (or only the problems with --problems-only) and a summary; exits
non-zero when anything is broken or the provider cannot be read.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from checkout.ledger import BROKEN, PENDING, check_ledger
from checkout.payments.provider import ProviderError

_HEADER = f"{'order':<36}  {'status':<15}  {'order-paid':>12}  {'provider-net':>12}  verdict"


class Command(BaseCommand):
    help = (
        "Check that what the payment provider captured minus refunded equals what each order "
        "says was paid."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--problems-only", action="store_true", help="List only BROKEN and PENDING orders."
        )

    def handle(self, *args, problems_only: bool = False, **options):
        try:
            report = check_ledger()
        except ProviderError as exc:
            raise CommandError(
                f"The payment provider could not be read ({exc.code}); the ledger was NOT checked."
            ) from None

        self.stdout.write(_HEADER)
        for row in report.rows:
            if problems_only and row.verdict not in (BROKEN, PENDING):
                continue
            line = (
                f"{row.order_id:<36}  {row.status:<15}  {row.order_paid:>12}  "
                f"{row.provider_net:>12}  {row.verdict}"
            )
            if row.verdict == BROKEN:
                self.stdout.write(self.style.ERROR(line + "  — " + "; ".join(row.problems)))
            elif row.verdict == PENDING:
                self.stdout.write(self.style.WARNING(line))
            else:
                self.stdout.write(line)
        for charge in report.orphan_charges:
            self.stdout.write(
                self.style.ERROR(
                    f"orphan charge {charge.id} ({charge.status}, "
                    f"{charge.amount} {charge.currency}, refunded {charge.refunded_amount}) "
                    f"names order {charge.order_id or '(none)'!r}, which does not exist  BROKEN"
                )
            )
        if not report.orphans_checked:
            self.stdout.write(
                self.style.WARNING("The provider cannot list charges: orphans not checked.")
            )

        ok_count = len(report.rows) - len(report.broken) - len(report.pending)
        summary = (
            f"{len(report.rows)} orders: {ok_count} OK, "
            f"{len(report.pending)} pending, {len(report.broken)} broken; "
            f"{len(report.orphan_charges)} orphan charges."
        )
        if not report.ok:
            raise CommandError(f"Ledger BROKEN. {summary}")
        self.stdout.write(self.style.SUCCESS(f"Ledger OK. {summary}"))
