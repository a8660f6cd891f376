"""`manage.py export_product_feed`: the catalog as ACP product feeds, one per language."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from gifts.product_feed.export import catalog_feed, feed_languages
from gifts.product_feed.schema import FeedRefused


class Command(BaseCommand):
    help = (
        "Write the catalog as ACP product feeds ({products: [...]}), checked against the "
        "vendored feed schema: to a directory (products.json, products.<language>.json) or one "
        "language to standard output."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--output",
            type=Path,
            help="Directory for products.json and one products.<language>.json per translation "
            "(import_catalog reads it back). Without it, one feed goes to standard output.",
        )
        parser.add_argument(
            "--language",
            choices=feed_languages(),
            default=feed_languages()[0],
            help="The language of the feed written to standard output.",
        )
        parser.add_argument(
            "--jsonl",
            action="store_true",
            help="One Product a line (the RFC's offline products.jsonl) instead of one document.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        output: Path | None = options["output"]
        languages = feed_languages() if output else [options["language"]]
        try:
            # Every language is built (and checked) before any file is written.
            feeds = {language: catalog_feed(language=language) for language in languages}
        except FeedRefused as refused:
            raise CommandError(f"Export refused, nothing written. {refused}") from None
        dumps = _dumps_lines if options["jsonl"] else _dumps
        if output is None:
            self.stdout.write(dumps(feeds[options["language"]]), ending="")
            return
        output.mkdir(parents=True, exist_ok=True)
        suffix = ".jsonl" if options["jsonl"] else ".json"
        for language, feed in feeds.items():
            stem = "products" if language == languages[0] else f"products.{language}"
            (output / f"{stem}{suffix}").write_text(dumps(feed), encoding="utf-8")
        products = sum(len(p["variants"]) for p in feeds[languages[0]]["products"])
        self.stderr.write(
            f"Wrote {products} variants in {len(feeds[languages[0]]['products'])} products, "
            f"{len(languages)} language(s), to {output}"
        )


def _dumps(feed: dict) -> str:
    return json.dumps(feed, ensure_ascii=False, indent=1) + "\n"


def _dumps_lines(feed: dict) -> str:
    return "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in feed["products"])
