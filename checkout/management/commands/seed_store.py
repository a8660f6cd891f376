"""`manage.py seed_store`: the demo shop's delivery options, tax rates and gift wrap."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from checkout.store_seed import DEMO_COUNTRIES, seed_demo_store


class Command(BaseCommand):
    help = "Upsert the demo delivery options, tax rates and gift wrap (safe to run repeatedly)."

    def handle(self, *args: Any, **options: Any) -> None:
        seed_demo_store()
        self.stdout.write(f"Store: delivery and tax for {', '.join(DEMO_COUNTRIES)}")
