"""Catalog rows into the catalog: one django-import-export resource, used by the admin's import
(preview, then confirm) and by `manage.py import_catalog`, so both write the same way.

The rows arrive already checked (gifts.product_feed.reading); a file with any problem never gets
here. Each import is one transaction. Products are matched by SKU, so importing a file again
updates what it created. Stock is never written to an existing product: reservations move it
while the import runs, and orders keep the prices they were placed at (their lines and totals
are frozen on the draft), so re-pricing the catalog leaves them as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import tablib
from diff_match_patch import diff_match_patch
from django.utils.encoding import force_str
from django.utils.html import format_html, format_html_join
from import_export import resources, widgets
from import_export.formats.base_formats import Format
from import_export.resources import Diff

from gifts.models import CATALOG_FIELDS, Product, ProductTranslation
from gifts.product_feed.reading import (
    CatalogRow,
    read_feed_csv,
    read_feed_json,
    read_feed_jsonl,
    translated_languages,
)

IMPORTED_FIELDS = ("sku", *CATALOG_FIELDS)
_UPDATED_FIELDS = list(CATALOG_FIELDS)


def _translation_columns(language: str) -> tuple[str, str]:
    return f"name:{language}", f"description:{language}"


def rows_dataset(rows: list[CatalogRow]) -> tablib.Dataset:
    """The rows as the table the resource imports: the catalog's fields, then a name and a
    description column for each language the file manages (an empty name: no translation)."""
    languages = [
        lang for lang in translated_languages() if any(lang in r.translations for r in rows)
    ]
    headers = [*IMPORTED_FIELDS]
    for language in languages:
        headers += _translation_columns(language)
    dataset = tablib.Dataset(headers=headers)
    for row in rows:
        values = [row.fields[name] for name in IMPORTED_FIELDS]
        for language in languages:
            values += row.translations.get(language) or ("", "")
        dataset.append(values)
    return dataset


class _Typed(widgets.Widget):
    """Takes a value as it is (the reader made it the field's type already)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()

    def clean(self, value: Any, row: dict | None = None, **kwargs: Any) -> Any:
        return value


_MARKS = {-1: "<del>{}</del>", 0: "{}", 1: "<ins>{}</ins>"}


class _PlainDiff(Diff):
    """The preview's changes marked with <ins> and <del> alone: diff-match-patch's own HTML
    colours them with style attributes, which the admin's CSP blocks."""

    def as_html(self) -> list[str]:
        differ = diff_match_patch()
        cells = []
        for old, new in zip(self.left, self.right, strict=False):
            changes = differ.diff_main("" if self.new else force_str(old), force_str(new))
            differ.diff_cleanupSemantic(changes)
            cells.append(format_html_join("", "{}", ((_mark(op, text),) for op, text in changes)))
        return cells


def _mark(op: int, text: str) -> str:
    return format_html(_MARKS[op], text)


class ProductFeedResource(resources.ModelResource):
    """Products by SKU, with their translations; values arrive typed, so no widget converts."""

    class Meta:
        model = Product
        fields = IMPORTED_FIELDS
        import_id_fields = ("sku",)
        skip_unchanged = True
        report_skipped = True
        use_transactions = True
        use_bulk = False

    @classmethod
    def widget_from_django_field(cls, f, default=widgets.Widget):
        return _Typed

    def get_diff_class(self) -> type[Diff]:
        return _PlainDiff

    def before_import(self, dataset: tablib.Dataset, **kwargs: Any) -> None:
        # The rows this import will update, locked until it commits (admin edits and other
        # imports wait; reservations only take stock, which the import does not write).
        skus = dataset["sku"] if dataset.height else []
        list(Product.objects.select_for_update().filter(sku__in=skus).values_list("pk"))

    def do_instance_save(self, instance: Product, is_create: bool) -> None:
        if is_create:
            instance.save()  # stock starts at 0: staff add units in the admin
        else:
            instance.save(update_fields=_UPDATED_FIELDS)

    def skip_row(self, instance, original, row, import_validation_errors=None) -> bool:
        unchanged = super().skip_row(instance, original, row, import_validation_errors)
        if not unchanged or original is None:
            return False
        wanted = _wanted(row)
        have = _translations_of(original)
        return all(have[language] == text for language, text in wanted.items())

    def after_save_instance(self, instance: Product, row: dict, **kwargs: Any) -> None:
        for language, text in _wanted(row).items():
            if text is None:
                instance.translations.filter(language=language).delete()
            else:
                ProductTranslation.objects.update_or_create(
                    product=instance,
                    language=language,
                    defaults={"name": text[0], "description": text[1]},
                )


def _wanted(row: dict) -> dict[str, tuple[str, str] | None]:
    wanted = {}
    for language in translated_languages():
        name_column, description_column = _translation_columns(language)
        if name_column in row:
            wanted[language] = (
                (row[name_column], row[description_column]) if row[name_column] else None
            )
    return wanted


def _translations_of(product: Product) -> dict[str, tuple[str, str] | None]:
    have: dict[str, tuple[str, str] | None] = {lang: None for lang in translated_languages()}
    for translation in product.translations.all():
        have[translation.language] = (translation.name, translation.description)
    return have


class _FeedFormat(Format):
    """An import format of the admin that reads the file through gifts.product_feed.reading
    (bytes, so a file that is not UTF-8 is reported as such). Titled by the file extension, which
    is how the import page picks the format of a chosen file."""

    extension = ""
    title = ""

    def __init__(self, encoding: str | None = None) -> None:
        self.encoding = encoding

    def get_title(self) -> str:
        return self.title

    def get_extension(self) -> str:
        return self.extension

    def can_import(self) -> bool:
        return True

    def create_dataset(self, in_stream: bytes) -> tablib.Dataset:
        return rows_dataset(self.read(in_stream))

    @staticmethod
    def read(data: bytes) -> list[CatalogRow]:
        raise NotImplementedError


class FeedJsonFormat(_FeedFormat):
    extension = "json"
    title = "json"

    @staticmethod
    def read(data: bytes) -> list[CatalogRow]:
        return read_feed_json(data)


class FeedJsonlFormat(_FeedFormat):
    extension = "jsonl"
    title = "jsonl"

    @staticmethod
    def read(data: bytes) -> list[CatalogRow]:
        return read_feed_jsonl(data)


class FeedCsvFormat(_FeedFormat):
    extension = "csv"
    title = "csv"

    @staticmethod
    def read(data: bytes) -> list[CatalogRow]:
        return read_feed_csv(data)


@dataclass(frozen=True)
class ImportCounts:
    created: int
    updated: int
    unchanged: int


def import_catalog_rows(*, rows: list[CatalogRow], dry_run: bool = False) -> ImportCounts:
    """Write the rows into the catalog in one transaction (rolled back when `dry_run`); any
    error leaves the catalog as it was and is raised."""
    result = ProductFeedResource().import_data(
        rows_dataset(rows), dry_run=dry_run, raise_errors=True, use_transactions=True
    )
    totals = result.totals
    return ImportCounts(created=totals["new"], updated=totals["update"], unchanged=totals["skip"])
