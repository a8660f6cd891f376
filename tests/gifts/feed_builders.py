"""Small ACP feed documents and CSV files for the product feed tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

SCHEMA = json.loads(
    (
        Path(__file__).resolve().parents[2]
        / "vendor/acp/spec/2026-04-17/json-schema/schema.feed.json"
    ).read_text()
)

CSV_HEADER = (
    "product_id,product_title,id,title,description,price_amount,price_currency,"
    "availability_status,category,interests,age_range,image_url,image_alt_text,"
    "image_width,image_height,title:pl,description:pl"
)


def assert_valid_feed(document: Any) -> None:
    """Checked with jsonschema directly against the vendored file (not through our code)."""
    schema = {**SCHEMA, "$ref": "#/$defs/ProductsResponse"}
    jsonschema.Draft202012Validator(schema).validate(document)


def variant(sku: str, **overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": sku,
        "title": f"Mug {sku}",
        "description": {"plain": f"A mug called {sku}."},
        "price": {"amount": 1999, "currency": "USD"},
        "availability": {"available": True, "status": "in_stock"},
        "categories": [
            {"value": "kitchen", "taxonomy": "merchant"},
            {"value": "coffee", "taxonomy": "giftgenius:interest"},
            {"value": "12-99", "taxonomy": "giftgenius:age"},
        ],
    }
    body.update(overrides)
    return {key: value for key, value in body.items() if value is not None}


def product(product_id: str, *variants: dict[str, Any], title: str = "Mug") -> dict[str, Any]:
    return {"id": product_id, "title": title, "variants": list(variants)}


def feed_bytes(*products: dict[str, Any]) -> bytes:
    return json.dumps({"products": list(products)}).encode()


def csv_bytes(*rows: str, header: str = CSV_HEADER) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode()
