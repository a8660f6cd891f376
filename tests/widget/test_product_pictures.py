"""The demo catalog's pictures: one per product noun, shipped, small, self-contained SVGs that
follow the theme, served as SVG from the page's own origin (the CSP's img-src 'self')."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from collections import defaultdict
from xml.etree import ElementTree

import pytest
from django.test import Client

from gifts.demo_catalog import PICTURE_SIZE, demo_products, picture_path, pictured_nouns
from tests import REPO_ROOT

STATIC = REPO_ROOT / "static"
SCRIPT = REPO_ROOT / "bin" / "build_product_pictures.py"
ICON_SET = REPO_ROOT / "node_modules" / "@iconify-json" / "fluent-emoji-flat" / "icons.json"
SVG = "{http://www.w3.org/2000/svg}"
MAX_BYTES = 8 * 1024


def noun_of(name: str, nouns: list[str]) -> str:
    """A product's noun: the longest of its category's nouns its name ends with ("Travel
    Watercolor Set" is a Watercolor Set)."""
    return max((noun for noun in nouns if name.endswith(noun)), key=len)


def shared_pictures(products: list[dict], *, root=STATIC) -> dict[str, set[str]]:
    """Pictures that two different product nouns of one category show (by content, so two
    files with the same drawing count as one picture)."""
    nouns = pictured_nouns()
    by_picture: dict[tuple[str, str], set[str]] = defaultdict(set)
    for product in products:
        drawing = hashlib.sha256((root / product["image"]).read_bytes()).hexdigest()
        noun = noun_of(product["name"], nouns[product["category"]])
        by_picture[product["category"], drawing].add(noun)
    return {f"{c}/{d[:8]}": found for (c, d), found in by_picture.items() if len(found) > 1}


def test_each_product_noun_has_its_own_picture_and_only_variants_share_one():
    products = demo_products()
    assert shared_pictures(products) == {}
    # Variants of one product do share it: every Watercolor Set shows the same palette.
    watercolor = {p["image"] for p in products if p["name"].endswith(" Watercolor Set")}
    assert watercolor == {picture_path("art_supplies", "Watercolor Set")}
    assert len({p["image"] for p in products}) == sum(map(len, pictured_nouns().values()))


def test_a_picture_shared_by_two_nouns_is_found(tmp_path):
    products = demo_products()
    kettle = next(p for p in products if p["name"].endswith(" Tea Kettle"))
    knife = next(p for p in products if p["name"].endswith(" Chef's Knife"))
    same = [kettle, {**knife, "image": kettle["image"]}]
    assert list(shared_pictures(same).values()) == [{"Tea Kettle", "Chef's Knife"}]
    # The same drawing under another file name is still the same picture.
    for name in ("a.svg", "b.svg"):
        (tmp_path / name).write_bytes((STATIC / kettle["image"]).read_bytes())
    copies = [{**kettle, "image": "a.svg"}, {**knife, "image": "b.svg"}]
    assert list(shared_pictures(copies, root=tmp_path).values()) == [{"Tea Kettle", "Chef's Knife"}]


def test_the_asked_for_nouns_get_their_own_thing():
    """A teapot for a teapot, a plug for a smart plug: the picture names the product's emoji."""
    expected = {
        ("kitchen", "Tea Kettle"): "teapot",
        ("electronics", "Smart Plug"): "electric-plug+mobile-phone",
        ("music", "Kalimba"): "wood+musical-keyboard",
        ("food", "Hot Sauce Sampler"): "hot-pepper",
        ("sports", "Bike Light Set"): "bicycle+light-bulb",
    }
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        from build_product_pictures import ART
    finally:
        sys.path.remove(str(SCRIPT.parent))
    assert {key: ART[key[0]][1][key[1]] for key in expected} == expected


def test_every_referenced_picture_is_a_small_self_contained_svg_that_follows_the_theme():
    products = demo_products()
    assert all(
        p["image_alt"] and (p["image_width"], p["image_height"]) == PICTURE_SIZE for p in products
    )
    paths = {p["image"] for p in products}
    width, height = PICTURE_SIZE
    for path in sorted(paths):
        file = STATIC / path
        assert file.exists(), path
        assert file.stat().st_size <= MAX_BYTES, path
        text = file.read_text(encoding="utf-8")
        svg = ElementTree.fromstring(text)  # noqa: S314 - our own committed file
        assert svg.tag == f"{SVG}svg" and (svg.get("width"), svg.get("height")) == (
            str(width),
            str(height),
        )
        # Nothing an <img> would refuse or fetch: no script, no outside reference.
        assert svg.find(f".//{SVG}script") is None, path
        refs = re.findall(r'(?:href|src)="([^"]*)"|url\(([^)]*)\)', text)
        assert all(ref.startswith("#") for pair in refs for ref in pair if ref), path
        # The backdrop has a dark form, picked by the color-scheme of the page showing it.
        assert "@media (prefers-color-scheme:dark)" in text, path
        assert svg[1].tag == f"{SVG}rect" and svg[1].get("class") == "b", path


def test_pictures_are_served_as_svg_with_a_year_long_cache():
    client = Client()
    for path in sorted({p["image"] for p in demo_products()}):
        response = client.get(f"/static/{path}")
        assert response.status_code == 200, path
        assert response["Content-Type"] == "image/svg+xml", path
        assert response["Cache-Control"] == "public, max-age=31536000, immutable", path
        assert response["X-Content-Type-Options"] == "nosniff", path
    assert client.get("/static/widget/products/kitchen/no-such-thing.v2.svg").status_code == 404
    css = client.get("/static/widget/widget.css")
    assert css.status_code == 200 and "immutable" not in css.get("Cache-Control", "")


@pytest.mark.skipif(
    not ICON_SET.exists(), reason="needs `npm ci` (the emoji set is an npm package)"
)
def test_the_script_rebuilds_exactly_the_committed_pictures(tmp_path):
    built = subprocess.run(
        [sys.executable, str(SCRIPT), "--into", str(tmp_path)], capture_output=True, text=True
    )
    assert built.returncode == 0, built.stderr
    committed = {
        p.relative_to(STATIC): p.read_bytes()
        for p in (STATIC / "widget" / "products").rglob("*.svg")
    }
    rebuilt = {
        p.relative_to(tmp_path): p.read_bytes()
        for p in (tmp_path / "widget" / "products").rglob("*.svg")
    }
    assert rebuilt == committed
    # --check notices a picture that differs from what the script would draw.
    tampered = tmp_path / picture_path("kitchen", "Tea Kettle")
    tampered.write_text(tampered.read_text().replace("teapot", "kettle") + " ")
    check = subprocess.run(
        [sys.executable, str(SCRIPT), "--check", "--into", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert check.returncode != 0 and "tea-kettle" in check.stderr
