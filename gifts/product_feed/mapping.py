"""One catalog product ↔ one ACP feed variant, both ways, and the checks a variant must pass
before it may become a product (the schema says what a feed may hold; these say what our
catalog can hold)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any
from urllib.parse import urljoin, urlsplit

from babel.numbers import get_currency_precision, is_currency
from django.conf import settings
from django.templatetags.static import static

from gifts.catalog import image_url
from gifts.models import Product, ProductTranslation
from gifts.schemas import CATEGORIES

# Category taxonomies: the merchant's own is the catalog's category; ours carry the interest
# tags and the age range, which ACP has no field for but are the catalog's filtering signals.
MERCHANT_TAXONOMY = "merchant"
INTEREST_TAXONOMY = "giftgenius:interest"
AGE_TAXONOMY = "giftgenius:age"
DISCONTINUED = "discontinued"
# A description this long is a mistake (or an attack), not a gift's blurb.
MAX_DESCRIPTION_CHARS = 10_000
MAX_TAGS = 20
_LIMITS = {f.name: f.max_length for f in Product._meta.concrete_fields if f.max_length}
_DEFAULTS = {
    name: Product._meta.get_field(name).default
    for name in ("age_min", "age_max", "image_width", "image_height")
}
_TRANSLATION_NAME_LIMIT = ProductTranslation._meta.get_field("name").max_length
_PRICE_LIMIT = Decimal(10) ** (
    Product._meta.get_field("price").max_digits - Product._meta.get_field("price").decimal_places
)

# A problem is reported as (feed field path, message); the reader turns the path into a place.
Report = Callable[[str, str], None]


def minor_units(price: Decimal, currency: str) -> int:
    """A price in ISO 4217 minor units (cents for USD, yen for JPY)."""
    amount = price.scaleb(get_currency_precision(currency))
    if amount != amount.to_integral_value():
        raise ValueError(f"{price} {currency} has more decimals than {currency} has")
    return int(amount)


def family_title(names: list[str]) -> str:
    """The words every variant's name ends with ("Red Mug", "Blue Mug" → "Mug")."""
    split = [name.split() for name in names]
    common: list[str] = []
    for words in zip(*(reversed(s) for s in split), strict=False):
        if len(set(words)) != 1:
            break
        common.insert(0, words[0])
    return " ".join(common) or names[0]


def feed_variant(
    product: Product, *, translation: ProductTranslation | None, seller: dict
) -> dict[str, Any]:
    """The feed's Variant for one catalog product, in the translation's language if given."""
    title = translation.name if translation else product.name
    description = (translation.description if translation else "") or product.description
    variant: dict[str, Any] = {"id": product.sku, "title": title}
    if description:
        variant["description"] = {"plain": description}
    variant["price"] = {
        "amount": minor_units(product.price, product.currency),
        "currency": product.currency,
    }
    status = (
        DISCONTINUED if not product.active else "in_stock" if product.stock > 0 else "out_of_stock"
    )
    variant["availability"] = {"available": status == "in_stock", "status": status}
    variant["categories"] = [
        {"value": product.category, "taxonomy": MERCHANT_TAXONOMY},
        *({"value": tag, "taxonomy": INTEREST_TAXONOMY} for tag in product.tags),
        {"value": f"{product.age_min}-{product.age_max}", "taxonomy": AGE_TAXONOMY},
    ]
    variant["condition"] = ["new"]
    if product.image:
        media = {"type": "image", "url": urljoin(settings.PUBLIC_ORIGIN, image_url(product.image))}
        if product.image_alt:
            media["alt_text"] = product.image_alt
        variant["media"] = [{**media, "width": product.image_width, "height": product.image_height}]
    variant["seller"] = seller
    return variant


def seller() -> dict[str, Any]:
    """The shop as every variant's seller, with its policy links (settings.SHOP_LINKS)."""
    links = []
    for pair in settings.SHOP_LINKS:
        kind, _, url = (part.strip() for part in pair.partition("="))
        if not kind or urlsplit(url).scheme not in {"http", "https"}:
            raise ValueError(f"SHOP_LINKS entry {pair!r} is not type=https://…")
        links.append({"type": kind, "url": url})
    return {"name": settings.SHOP_NAME, **({"links": links} if links else {})}


def catalog_fields(variant: dict[str, Any], *, family: str, report: Report) -> dict[str, Any]:
    """The catalog's fields for a schema-valid feed variant; what does not fit is reported."""
    _check_text(variant["id"], "id", _LIMITS["sku"], report)
    _check_text(variant["title"], "title", _LIMITS["name"], report)
    _check_text(family, "product id", _LIMITS["family"], report, required=False)
    description = variant.get("description", {}).get("plain", "")
    if len(description) > MAX_DESCRIPTION_CHARS:
        report("description.plain", f"longer than {MAX_DESCRIPTION_CHARS} characters")
    fields: dict[str, Any] = {
        "sku": variant["id"],
        "name": variant["title"],
        "description": description,
        "family": family,
        "active": variant.get("availability", {}).get("status") != DISCONTINUED,
        **_price(variant.get("price"), report),
        **_categories(variant.get("categories", []), report),
        **_picture(variant.get("media", []), report),
    }
    return fields


def _check_text(value: str, field: str, limit: int, report: Report, *, required=True) -> None:
    if required and not value.strip():
        report(field, "must not be empty")
    elif len(value) > limit:
        report(field, f"longer than {limit} characters ({len(value)})")


def _price(price: dict | None, report: Report) -> dict[str, Any]:
    if price is None:
        report("price", "missing: every product needs a price")
        return {}
    currency = price["currency"]
    if not is_currency(currency):
        report("price.currency", f"{currency} is not an ISO 4217 currency")
        return {}
    if currency not in settings.SUPPORTED_CURRENCIES:
        sold = ", ".join(settings.SUPPORTED_CURRENCIES)
        report("price.currency", f"{currency} is not a currency this shop sells in ({sold})")
        return {}
    amount = Decimal(price["amount"]).scaleb(-get_currency_precision(currency))
    if amount <= 0:
        report("price.amount", "must be more than 0")
    elif amount >= _PRICE_LIMIT:
        report("price.amount", f"must be less than {_PRICE_LIMIT} {currency}")
    return {"price": amount.quantize(Decimal("0.01")), "currency": currency}


def _categories(categories: list[dict], report: Report) -> dict[str, Any]:
    by_taxonomy: dict[str | None, list[str]] = {}
    for category in categories:
        by_taxonomy.setdefault(category.get("taxonomy"), []).append(category["value"])
    fields: dict[str, Any] = {"age_min": _DEFAULTS["age_min"], "age_max": _DEFAULTS["age_max"]}
    merchant = by_taxonomy.get(MERCHANT_TAXONOMY, [])
    if len(merchant) != 1 or merchant[0] not in CATEGORIES:
        report(
            f"categories[{MERCHANT_TAXONOMY}]",
            f"needs exactly one category with taxonomy {MERCHANT_TAXONOMY!r}, one of "
            f"{', '.join(CATEGORIES)} (got {merchant or 'none'})",
        )
    else:
        fields["category"] = merchant[0]
    tags = by_taxonomy.get(INTEREST_TAXONOMY, [])
    if len(tags) > MAX_TAGS or any(not tag or tag != tag.lower() or len(tag) > 40 for tag in tags):
        report(
            f"categories[{INTEREST_TAXONOMY}]",
            f"interest tags must be at most {MAX_TAGS}, lowercase, 1-40 chars",
        )
    fields["tags"] = tags
    ages = by_taxonomy.get(AGE_TAXONOMY, [])
    if ages:
        low, _, high = ages[0].partition("-")
        whole = all(part.isascii() and part.isdigit() for part in (low, high))  # not '²'
        if len(ages) > 1 or not whole or int(low) > int(high):
            report(
                f"categories[{AGE_TAXONOMY}]",
                f"age range must be one 'min-max' in years (got {ages})",
            )
        else:
            fields["age_min"], fields["age_max"] = min(int(low), 120), min(int(high), 120)
    return fields


def _picture(media: list[dict], report: Report) -> dict[str, Any]:
    images = [m for m in media if m["type"] == "image"]
    if not images:
        return {
            "image": "",
            "image_alt": "",
            "image_width": _DEFAULTS["image_width"],
            "image_height": _DEFAULTS["image_height"],
        }
    image = images[0]
    url = image["url"]
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    own_static = urljoin(settings.PUBLIC_ORIGIN, static(""))
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        report("media.url", "must be an absolute http(s) URL")
        return {}
    if url.startswith(own_static):
        url = url.removeprefix(own_static)  # one of our static pictures: stored as its path
    elif origin not in settings.WIDGET_IMAGE_ORIGINS:
        report("media.url", f"{origin} is not an allowed picture origin (WIDGET_IMAGE_ORIGINS)")
    _check_text(url, "media.url", _LIMITS["image"], report)
    _check_text(
        image.get("alt_text", ""), "media.alt_text", _LIMITS["image_alt"], report, required=False
    )
    fields = {
        "image": url,
        "image_alt": image.get("alt_text", ""),
        "image_width": _DEFAULTS["image_width"],
        "image_height": _DEFAULTS["image_height"],
    }
    for side in ("width", "height"):
        if side in image:
            if not 1 <= image[side] <= 4096:
                report(f"media.{side}", "must be 1-4096 pixels")
            fields[f"image_{side}"] = image[side]
    return fields


def translation_problems(name: str, description: str, report: Report) -> None:
    _check_text(name, "title", _TRANSLATION_NAME_LIMIT, report)
    if len(description) > MAX_DESCRIPTION_CHARS:
        report("description.plain", f"longer than {MAX_DESCRIPTION_CHARS} characters")
