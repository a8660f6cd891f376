"""A merchant's feed (ACP JSON, a directory of one per language, or CSV) read into catalog rows.

Nothing here writes: a file with any problem is refused whole (FeedRefused, every problem with
its place and field), so the import that follows only ever sees valid rows.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings

from gifts.product_feed.mapping import (
    AGE_TAXONOMY,
    INTEREST_TAXONOMY,
    MERCHANT_TAXONOMY,
    catalog_fields,
    translation_problems,
)
from gifts.product_feed.schema import FeedProblem, FeedRefused, json_path, schema_problems

# Bigger files are refused before parsing: a catalog is megabytes, not gigabytes.
MAX_FILE_BYTES = 50 * 1024 * 1024
# CSV columns: the feed's fields, flattened; `title:<language>` and `description:<language>` add
# a translation. Interests are separated by "|"; the age range is "min-max".
CSV_COLUMNS = (
    "product_id",
    "product_title",
    "id",
    "title",
    "description",
    "price_amount",
    "price_currency",
    "availability_status",
    "category",
    "interests",
    "age_range",
    "image_url",
    "image_alt_text",
    "image_width",
    "image_height",
)
# The column a variant's feed field came from, to name it in a problem.
_COLUMN_OF = {
    "id": "id",
    "title": "title",
    "description": "description",
    "description.plain": "description",
    "price": "price_amount",
    "price.amount": "price_amount",
    "price.currency": "price_currency",
    "availability.status": "availability_status",
    "categories": "category",
    "categories.value": "category",
    f"categories[{MERCHANT_TAXONOMY}]": "category",
    f"categories[{INTEREST_TAXONOMY}]": "interests",
    f"categories[{AGE_TAXONOMY}]": "age_range",
    "media": "image_url",
    "media.url": "image_url",
    "media.alt_text": "image_alt_text",
    "media.width": "image_width",
    "media.height": "image_height",
}
_REQUIRED_COLUMNS = ("product_id", "id", "title", "price_amount", "price_currency", "category")
_INTEGER_COLUMNS = ("price_amount", "image_width", "image_height")


@dataclass
class CatalogRow:
    """One product as the import writes it: the catalog's fields, and its translations by
    language (None: the language is managed by this file and the product has none in it)."""

    fields: dict[str, Any]
    translations: dict[str, tuple[str, str] | None] = field(default_factory=dict)


def translated_languages() -> list[str]:
    return [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


@dataclass(frozen=True)
class _Feed:
    """A schema-valid feed document and how to name a place in the file it came from."""

    document: dict[str, Any]
    place: Callable[[int, int | None], str]  # (product index, variant index or None) → place


def read_feed_path(path: Path) -> list[CatalogRow]:
    """Rows from a file or an export directory, read by its kind: a directory, `.csv`,
    `.jsonl`, else a JSON feed document."""
    if path.is_dir():
        return read_feed_directory(path)
    if not path.is_file():
        raise FeedRefused([FeedProblem(str(path), "", "no such file or directory")])
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return read_feed_csv(_read(path), name=path.name)
    return _rows_or_refuse(_feed_of(path))


def read_feed_json(data: bytes, *, name: str = "the feed") -> list[CatalogRow]:
    """Rows from an ACP feed document `{"products": [...]}` in the catalog's own language."""
    return _rows_or_refuse(_json_feed(data, name=name))


def read_feed_jsonl(data: bytes, *, name: str = "the feed") -> list[CatalogRow]:
    """Rows from an ACP offline feed file: one `Product` a line (RFC §3.4, `products.jsonl`)."""
    return _rows_or_refuse(_jsonl_feed(data, name=name))


def read_feed_directory(directory: Path) -> list[CatalogRow]:
    """Rows from an export's directory: products.json (or .jsonl), and products.<language>.json
    (or .jsonl) for each translation (a language's file makes the import manage its
    translations)."""
    base = _feed_file(directory, "products")
    if base is None:
        raise FeedRefused([FeedProblem(str(directory), "", "has no products.json or .jsonl")])
    rows = _rows_or_refuse(_feed_of(base))
    by_sku = {row.fields["sku"]: row for row in rows}
    problems: list[FeedProblem] = []
    for language in translated_languages():
        path = _feed_file(directory, f"products.{language}")
        if path is not None:
            problems += _merge_translations(_feed_of(path), language, by_sku, base=base.name)
    if problems:
        raise FeedRefused(problems)
    return rows


def _feed_file(directory: Path, stem: str) -> Path | None:
    return next(
        (p for suffix in (".json", ".jsonl") if (p := directory / f"{stem}{suffix}").is_file()),
        None,
    )


def _feed_of(path: Path) -> _Feed:
    reader = _jsonl_feed if path.suffix.lower() == ".jsonl" else _json_feed
    return reader(_read(path), name=path.name)


def read_feed_csv(data: bytes, *, name: str = "the file") -> list[CatalogRow]:
    """Rows from a CSV whose every row is one variant (rows of one product_id are its variants).

    Each row becomes a feed Variant and is checked against the schema like a JSON feed's; a
    problem is named by its line (the header is line 1) and column.
    """
    text = _text(data, name=name)
    reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
    records: list[tuple[int, dict[str, str]]] = []
    line = 1
    try:
        header = reader.fieldnames or []
        while True:
            line = reader.line_num + 1  # where the record starts (a quoted cell may span lines)
            record = next(reader, None)
            if record is None:
                break
            records.append((line, record))
    except csv.Error as error:
        where = f"{name} line {line}"
        raise FeedRefused([FeedProblem(where, "", f"not CSV: {error}")]) from None
    problems = _header_problems(header, name=name)
    if problems:
        raise FeedRefused(problems)
    products: dict[str, dict[str, Any]] = {}
    lines: dict[str, list[int]] = {}  # product id → the line of each of its variants
    translations: dict[int, dict[str, tuple[str, str] | None]] = {}
    for line, record in records:
        if None in record or None in record.values():
            problems.append(
                FeedProblem(
                    f"{name} line {line}", "", "has a different number of cells than the header"
                )
            )
            continue
        variant, row_problems = _csv_variant(record, where=f"{name} line {line}")
        problems += row_problems
        product = products.setdefault(
            record["product_id"], {"id": record["product_id"], "variants": []}
        )
        if record.get("product_title"):
            product.setdefault("title", record["product_title"])
        product["variants"].append(variant)
        lines.setdefault(record["product_id"], []).append(line)
        translations[line] = _csv_translations(record, header)

    def locate_in(product_id: str) -> Callable[[list], tuple[str, str]]:
        def locate(path: list) -> tuple[str, str]:
            if len(path) >= 2 and path[0] == "variants":
                feed_field = ".".join(str(p) for p in path[2:] if not isinstance(p, int))
                return f"{name} line {lines[product_id][path[1]]}", _column(feed_field)
            return f"{name} line {lines[product_id][0]}", "product_id"

        return locate

    document = {"products": list(products.values())}
    for product in document["products"]:
        problems += schema_problems(product, definition="Product", locate=locate_in(product["id"]))
    if problems:
        raise FeedRefused(problems)

    def place(p: int, v: int | None) -> str:
        return f"{name} line {lines[document['products'][p]['id']][v or 0]}"

    rows = _rows_or_refuse(_Feed(document, place), column=_column)
    for row, line in zip(
        rows, (ln for p in document["products"] for ln in lines[p["id"]]), strict=True
    ):
        row.translations = translations[line]
        for language, text in row.translations.items():
            if text is not None:
                translation_problems(
                    *text,
                    _reporter(
                        problems,
                        f"{name} line {line}",
                        lambda f, lg=language: f"{'title' if f == 'title' else 'description'}:{lg}",
                    ),
                )
    if problems:
        raise FeedRefused(problems)
    return rows


def _column(feed_field: str) -> str:
    return _COLUMN_OF.get(feed_field, feed_field)


def _reporter(problems: list[FeedProblem], where: str, column=lambda f: f):
    return lambda feed_field, message: problems.append(
        FeedProblem(where, column(feed_field), message)
    )


def _read(path: Path) -> bytes:
    if path.stat().st_size > MAX_FILE_BYTES:
        raise FeedRefused([FeedProblem(path.name, "", f"is larger than {MAX_FILE_BYTES} bytes")])
    return path.read_bytes()


def _text(data: bytes, *, name: str) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise FeedRefused([FeedProblem(name, "", f"is larger than {MAX_FILE_BYTES} bytes")])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise FeedRefused(
            [
                FeedProblem(
                    f"{name} line {line}",
                    "",
                    f"is not UTF-8 (byte {error.start}: {error.reason}); save the file as UTF-8",
                )
            ]
        ) from None


def _json_feed(data: bytes, *, name: str) -> _Feed:
    text = _text(data, name=name)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        where = f"{name} line {error.lineno} column {error.colno}"
        raise FeedRefused([FeedProblem(where, "", f"not JSON: {error.msg}")]) from None
    problems = schema_problems(document, definition="ProductsResponse", where=name)
    if problems:
        raise FeedRefused(problems)

    def place(p: int, v: int | None) -> str:
        return f"{name} {json_path(['products', p] + ([] if v is None else ['variants', v]))}"

    return _Feed(document, place)


def _jsonl_feed(data: bytes, *, name: str) -> _Feed:
    text = _text(data, name=name)
    products: list[Any] = []
    lines: list[int] = []
    problems: list[FeedProblem] = []
    # Split on newlines only: JSON strings may hold other line separators (U+2028) unescaped.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            product = json.loads(line)
        except json.JSONDecodeError as error:
            where = f"{name} line {number} column {error.colno}"
            problems.append(FeedProblem(where, "", f"not JSON: {error.msg}"))
            continue

        def locate(path: list, number: int = number) -> tuple[str, str]:
            if path[:1] == ["variants"] and len(path) >= 2:
                return f"{name} line {number} variants[{path[1]}]", json_path(path[2:])
            return f"{name} line {number}", json_path(path) or "(the whole line)"

        problems += schema_problems(product, definition="Product", locate=locate)
        products.append(product)
        lines.append(number)
    if problems:
        raise FeedRefused(problems)

    def place(p: int, v: int | None) -> str:
        return f"{name} line {lines[p]}" + ("" if v is None else f" variants[{v}]")

    return _Feed({"products": products}, place)


def _rows_or_refuse(feed: _Feed, *, column=lambda feed_field: feed_field) -> list[CatalogRow]:
    """Catalog rows for a schema-valid feed, or every problem they have."""
    document, place = feed.document, feed.place
    problems: list[FeedProblem] = []
    rows: list[CatalogRow] = []
    seen_products: dict[str, str] = {}
    seen_variants: dict[str, str] = {}
    for p, product in enumerate(document["products"]):
        variants = product["variants"]
        if not variants:
            problems.append(
                FeedProblem(
                    place(p, None),
                    "variants",
                    "a product needs at least one variant",
                )
            )
        if product["id"] in seen_products:
            problems.append(
                FeedProblem(
                    place(p, None),
                    "id",
                    f"{product['id']!r} is also the id of {seen_products[product['id']]}",
                )
            )
        seen_products.setdefault(product["id"], place(p, None))
        single = len(variants) == 1 and variants[0]["id"] == product["id"]
        for v, variant in enumerate(variants):
            where = place(p, v)
            if variant["id"] in seen_variants:
                problems.append(
                    FeedProblem(
                        where,
                        column("id"),
                        f"{variant['id']!r} is also the id of {seen_variants[variant['id']]}",
                    )
                )
            seen_variants.setdefault(variant["id"], where)
            fields = catalog_fields(
                variant,
                family="" if single else product["id"],
                report=_reporter(problems, where, column),
            )
            rows.append(CatalogRow(fields=fields))
    for p, product in enumerate(document["products"]):
        # A family's id and a SKU share one space in the feed: the export would merge them.
        variants = product["variants"]
        single = len(variants) == 1 and variants[0]["id"] == product["id"]
        if not single and product["id"] in seen_variants:
            problems.append(
                FeedProblem(
                    place(p, None),
                    "id",
                    f"{product['id']!r} is also a variant's id ({seen_variants[product['id']]}); "
                    "a product of several variants needs an id of its own",
                )
            )
    if problems:
        raise FeedRefused(problems)
    return rows


def _merge_translations(
    feed: _Feed, language: str, by_sku: dict[str, CatalogRow], *, base: str
) -> list[FeedProblem]:
    """A language's feed as translations of the rows: a variant whose text differs from the
    catalog's own is translated; one that repeats it has no translation."""
    problems: list[FeedProblem] = []
    for p, product in enumerate(feed.document["products"]):
        for v, variant in enumerate(product["variants"]):
            where = feed.place(p, v)
            row = by_sku.get(variant["id"])
            if row is None:
                problems.append(FeedProblem(where, "id", f"{variant['id']!r} is not in {base}"))
                continue
            title = variant["title"]
            description = variant.get("description", {}).get("plain", "")
            translation_problems(title, description, _reporter(problems, where))
            own = (row.fields["name"], row.fields["description"])
            if (title, description) == own:
                row.translations[language] = None
            else:
                row.translations[language] = (title, "" if description == own[1] else description)
    for row in by_sku.values():
        row.translations.setdefault(language, None)
    return problems


def _header_problems(header: list[str], *, name: str) -> list[FeedProblem]:
    problems = []
    known = set(CSV_COLUMNS) | {
        f"{kind}:{language}"
        for kind in ("title", "description")
        for language in translated_languages()
    }
    for column in header:
        if column not in known:
            problems.append(FeedProblem(f"{name} line 1", column, "unknown column"))
    for column in _REQUIRED_COLUMNS:
        if column not in header:
            problems.append(FeedProblem(f"{name} line 1", column, "required column missing"))
    if len(header) != len(set(header)):
        problems.append(FeedProblem(f"{name} line 1", "", "a column is named twice"))
    return problems


def _csv_variant(record: dict[str, str], *, where: str) -> tuple[dict[str, Any], list[FeedProblem]]:
    """The feed Variant one CSV row stands for (the schema checks it next)."""
    problems = [
        FeedProblem(where, column, "must not be empty")
        for column in _REQUIRED_COLUMNS
        if not record[column].strip()
    ]
    numbers: dict[str, int] = {}
    for column in _INTEGER_COLUMNS:
        value = record.get(column, "").strip()
        if value:
            try:
                numbers[column] = int(value)
            except ValueError:
                problems.append(FeedProblem(where, column, f"{value[:40]!r} is not a whole number"))
    variant: dict[str, Any] = {"id": record["id"], "title": record["title"]}
    if record.get("description"):
        variant["description"] = {"plain": record["description"]}
    variant["price"] = {
        "amount": numbers.get("price_amount", 0),
        "currency": record["price_currency"],
    }
    if record.get("availability_status"):
        status = record["availability_status"]
        variant["availability"] = {"available": status == "in_stock", "status": status}
    variant["categories"] = [
        {"value": record["category"], "taxonomy": MERCHANT_TAXONOMY},
        *(
            {"value": tag.strip(), "taxonomy": INTEREST_TAXONOMY}
            for tag in record.get("interests", "").split("|")
            if tag.strip()
        ),
        *(
            [{"value": record["age_range"], "taxonomy": AGE_TAXONOMY}]
            if record.get("age_range")
            else []
        ),
    ]
    if record.get("image_url"):
        media: dict[str, Any] = {"type": "image", "url": record["image_url"]}
        if record.get("image_alt_text"):
            media["alt_text"] = record["image_alt_text"]
        for side in ("width", "height"):
            if f"image_{side}" in numbers:
                media[side] = numbers[f"image_{side}"]
        variant["media"] = [media]
    return variant, problems


def _csv_translations(
    record: dict[str, str], header: list[str]
) -> dict[str, tuple[str, str] | None]:
    translations: dict[str, tuple[str, str] | None] = {}
    for language in translated_languages():
        if f"title:{language}" in header:
            title = record[f"title:{language}"]
            description = record.get(f"description:{language}", "")
            translations[language] = (title, description) if title else None
    return translations
