"""`manage.py run_sweeps [--loop SECONDS] [--older-than SECONDS]`: the checkout's background sweeps.

Run it from cron, or as a long-lived process with --loop; several copies may run at once.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from checkout.sweeps import DEFAULT_OLDER_THAN_SECONDS, run_sweeps


class Command(BaseCommand):
    help = (
        "Expire stale draft orders, recover stuck checkout sagas, reconcile pending payments with the "
        "payment provider, deliver the outbox's due messages (provider events to apply, e-mails "
        "to send; parking those out of tries), and purge expired idempotency keys and expired QA preview tokens. One pass, or one "
        "every --loop seconds."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--loop",
            type=float,
            metavar="SECONDS",
            default=None,
            help="Repeat a pass every SECONDS (until stopped).",
        )
        parser.add_argument(
            "--older-than",
            type=float,
            metavar="SECONDS",
            default=DEFAULT_OLDER_THAN_SECONDS,
            help="Treat a saga as stuck when its last step is older than this (default: %(default)s).",
        )

    def handle(self, *args, loop: float | None, older_than: float, **options) -> None:
        while True:
            report = run_sweeps(older_than_seconds=older_than)
            self.stdout.write(report.summary())
            if not loop:
                return
            close_old_connections()  # a long-lived loop must not keep a dead connection
            time.sleep(loop)
