"""`manage.py seed_catalog`: load or refresh the demo gift catalog (safe to run repeatedly)."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from gifts.catalog_seed import seed_demo_catalog


class Command(BaseCommand):
    help = "Upsert the demo gift catalog by SKU; existing stock is kept unless --reset-stock."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--reset-stock",
            action="store_true",
            help="Also set stock of existing products back to the demo values.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        report = seed_demo_catalog(reset_stock=options["reset_stock"])
        self.stdout.write(
            f"Catalog: {report.total} products ({report.created} created, "
            f"{report.updated} updated) in {report.categories} categories; "
            f"{report.translations_created} translations and {report.terms_created} interest "
            "terms added"
        )
