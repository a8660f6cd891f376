"""Print the active alerts; exit 1 when any is active (for cron, CI or a probe), 0 when clear."""

from django.core.management.base import BaseCommand, CommandError

from giftgenius.operations.alerts import active_alerts


class Command(BaseCommand):
    help = "Evaluate the alert rules against the database; non-zero exit when any alert is active."

    def handle(self, *args, **options) -> None:
        alerts = active_alerts()
        if not alerts:
            self.stdout.write("no active alerts")
            return
        for alert in alerts:
            self.stdout.write(f"ALERT {alert.key}: {alert.summary}")
        raise CommandError(f"{len(alerts)} active alert(s)", returncode=1)
