"""Upserting the demo catalog by SKU, so seeding is safe to repeat on a live database."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from gifts.demo_catalog import demo_products
from gifts.demo_translations import demo_translations
from gifts.interest_vocabulary import vocabulary_rows
from gifts.models import CATALOG_FIELDS, InterestTerm, Product, ProductTranslation

_BATCH_SIZE = 200


@dataclass(frozen=True)
class SeedReport:
    created: int
    updated: int
    total: int
    categories: int
    translations_created: int = 0
    terms_created: int = 0


def seed_demo_catalog(*, reset_stock: bool = False) -> SeedReport:
    """Create missing demo products and bring changed ones back to the demo data.

    Existing stock is kept unless ``reset_stock`` is set, because orders reserve and sell units
    between seeds. Unchanged rows are not written, so a second run reports 0 created, 0 updated.
    """
    rows = demo_products()
    fields = (*CATALOG_FIELDS, "stock") if reset_stock else CATALOG_FIELDS
    with transaction.atomic():
        existing = Product.objects.select_for_update().in_bulk(
            [row["sku"] for row in rows], field_name="sku"
        )
        to_create: list[Product] = []
        to_update: list[Product] = []
        for row in rows:
            product = existing.get(row["sku"])
            if product is None:
                to_create.append(Product(**row))
                continue
            changed = [field for field in fields if getattr(product, field) != row[field]]
            if changed:
                for field in changed:
                    setattr(product, field, row[field])
                to_update.append(product)
        Product.objects.bulk_create(to_create, batch_size=_BATCH_SIZE)
        if to_update:
            Product.objects.bulk_update(to_update, fields=list(fields), batch_size=_BATCH_SIZE)
        translations = _seed_translations(rows)
        terms = _seed_terms()
    return SeedReport(
        created=len(to_create),
        updated=len(to_update),
        total=len(rows),
        categories=len({row["category"] for row in rows}),
        translations_created=translations,
        terms_created=terms,
    )


def _seed_translations(rows: list[dict]) -> int:
    """The demo translations a product lacks; one staff have written or changed is kept."""
    ids = dict(Product.objects.filter(sku__in=[r["sku"] for r in rows]).values_list("sku", "pk"))
    have = set(ProductTranslation.objects.values_list("product_id", "language"))
    missing = [
        ProductTranslation(
            product_id=ids[t["sku"]], **{k: t[k] for k in ("language", "name", "description")}
        )
        for t in demo_translations(rows)
        if t["sku"] in ids and (ids[t["sku"]], t["language"]) not in have
    ]
    ProductTranslation.objects.bulk_create(missing, batch_size=_BATCH_SIZE)
    return len(missing)


def _seed_terms() -> int:
    """The built-in interest terms not stored yet; stored ones are the staff's to change."""
    have = set(InterestTerm.objects.values_list("tag", "language"))
    missing = [
        InterestTerm(tag=tag, language=language, label=label, forms=forms)
        for tag, language, label, forms in vocabulary_rows()
        if (tag, language) not in have
    ]
    InterestTerm.objects.bulk_create(missing, batch_size=_BATCH_SIZE)
    return len(missing)
