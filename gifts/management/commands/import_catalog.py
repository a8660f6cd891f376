"""`manage.py import_catalog <file>`: load a merchant's catalog from an ACP feed or CSV."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from gifts.product_feed.loading import import_catalog_rows
from gifts.product_feed.reading import (
    MAX_FILE_BYTES,
    read_feed_csv,
    read_feed_directory,
    read_feed_json,
    read_feed_jsonl,
)
from gifts.product_feed.schema import FeedProblem, FeedRefused


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
            rows = _read(source)
            counts = import_catalog_rows(rows=rows, dry_run=options["dry_run"])
        except FeedRefused as refused:
            raise CommandError(f"Import refused, nothing was changed. {refused}") from None
        verb = "Would import" if options["dry_run"] else "Imported"
        self.stdout.write(
            f"{verb} {source.name}: {counts.created} created, {counts.updated} updated, "
            f"{counts.unchanged} unchanged"
        )


def _read(source: Path):
    if source.is_dir():
        return read_feed_directory(source)
    if not source.is_file():
        raise FeedRefused([FeedProblem(str(source), "", "no such file or directory")])
    if source.stat().st_size > MAX_FILE_BYTES:
        raise FeedRefused([FeedProblem(source.name, "", f"is larger than {MAX_FILE_BYTES} bytes")])
    data = source.read_bytes()
    if source.suffix.lower() == ".csv":
        return read_feed_csv(data, name=source.name)
    if source.suffix.lower() == ".jsonl":
        return read_feed_jsonl(data, name=source.name)
    return read_feed_json(data, name=source.name)
