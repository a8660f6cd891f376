"""The catalog as ACP feed documents: one per language, checked against the schema before
anyone sees them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Prefetch

from gifts.models import Product, ProductTranslation
from gifts.product_feed.mapping import family_title, feed_variant, seller
from gifts.product_feed.schema import FeedProblem, FeedRefused, schema_problems

DEFINITION = "ProductsResponse"


def feed_languages() -> list[str]:
    """Every language a feed is written in; the catalog's own comes first."""
    return [settings.LANGUAGE_CODE] + [
        code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE
    ]


def catalog_feed(*, language: str) -> dict[str, Any]:
    """The whole catalog as a feed `{"products": [...]}` in `language` (a product without a
    translation into it keeps the catalog's text, so each language's feed lists every product).

    A family (a product's colors, sizes, flavors) is one feed Product with a Variant per
    catalog product; a product of its own is a feed Product with one Variant of the same id.
    Availability is the live stock at the time of the read. Raises FeedRefused when the result
    breaks the schema (e.g. a price with more decimals than its currency has), so an invalid feed
    is never written.
    """
    translations = ProductTranslation.objects.filter(language=language)
    products = Product.objects.order_by("sku").prefetch_related(
        Prefetch("translations", queryset=translations, to_attr="in_language")
    )
    try:
        shop = seller()
    except ValueError as refused:
        raise FeedRefused([FeedProblem("the setting SHOP_LINKS", "", str(refused))]) from None
    groups: dict[str, list[dict[str, Any]]] = {}
    problems: list[FeedProblem] = []
    for product in products:
        translation = product.in_language[0] if product.in_language else None
        try:
            variant = feed_variant(product, translation=translation, seller=shop)
        except ValueError as refused:
            problems.append(FeedProblem(f"product {product.sku}", "price", str(refused)))
            continue
        groups.setdefault(product.family or product.sku, []).append(variant)
    document = {
        "products": [
            {
                "id": product_id,
                "title": family_title([v["title"] for v in variants]),
                "variants": variants,
            }
            for product_id, variants in groups.items()
        ]
    }
    problems += schema_problems(document, definition=DEFINITION, where="the export")
    if problems:
        raise FeedRefused(problems)
    return document
