"""`manage.py import_catalog <file>`: load a merchant's catalog from an ACP feed or CSV."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from gifts.product_feed.loading import import_catalog_rows
from gifts.product_feed.reading import read_feed_path
from gifts.product_feed.schema import FeedRefused


class Command(BaseCommand):
    help = (
        "Create or update products (matched by SKU = variant id) from an ACP product feed "
        "(.json), an offline feed (.jsonl, a Product a line), an export directory "
        "(products.json + products.<language>.json) or a CSV. "
        "All or nothing: a file with any problem changes nothing. Stock is not imported."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "source", type=Path, help="A .json or .jsonl feed, a .csv, or a directory."
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="Check and count, then roll back."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        source: Path = options["source"]
        try:
            rows = read_feed_path(source)
            counts = import_catalog_rows(rows=rows, dry_run=options["dry_run"])
        except FeedRefused as refused:
            raise CommandError(f"Import refused, nothing was changed. {refused}") from None
        verb = "Would import" if options["dry_run"] else "Imported"
        self.stdout.write(
            f"{verb} {source.name}: {counts.created} created, {counts.updated} updated, "
            f"{counts.unchanged} unchanged"
        )
