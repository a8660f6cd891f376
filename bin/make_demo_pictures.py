"""Writes the demo catalog's pictures: one small SVG per category under static/widget/products/.

Run it after changing the art (and bump demo_catalog.PICTURE_VERSION, since the files are
cached for ever): `.venv/bin/python bin/make_demo_pictures.py`. The output is committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gifts.demo_catalog import CATEGORY_CODES, PICTURE_SIZE, picture_path  # noqa: E402

MAX_BYTES = 8 * 1024

# A shape per kind of thing, drawn in a 320 by 240 box around its centre.
MOTIFS = {
    "box": '<rect x="110" y="95" width="100" height="80" rx="6"/><rect x="100" y="78" width="120"'
    ' height="24" rx="5"/><path d="M160 78v97" stroke="#fff" stroke-width="10"/>',
    "book": '<path d="M160 80c-25-12-50-12-70-6v100c20-6 45-6 70 6c25-12 50-12 70-6V74c-20-6-45'
    '-6-70 6z"/><path d="M160 80v100" stroke="#fff" stroke-width="4"/>',
    "cup": '<path d="M105 90h90v45a45 45 0 0 1-90 0z"/><path d="M195 102h12a18 18 0 0 1 0 36h-12"'
    ' fill="none" stroke-width="10"/><rect x="95" y="182" width="110" height="10" rx="5"/>',
    "note": '<circle cx="130" cy="165" r="22"/><circle cx="200" cy="150" r="22"/><path d="M150'
    ' 165V82l70-14v82" fill="none" stroke-width="10"/>',
    "leaf": '<path d="M110 170c0-60 40-95 100-100c0 70-40 100-100 100z"/><path d="M110 170l60-60"'
    ' stroke="#fff" stroke-width="5"/>',
    "gem": '<path d="M125 85h70l25 30-60 70-60-70z"/><path d="M100 115h120M145 85l15 30 15-30M160'
    ' 115v70" fill="none" stroke="#fff" stroke-width="4"/>',
    "ball": '<circle cx="160" cy="125" r="50"/><path d="M110 125h100M160 75v100M125 90c20 20 20'
    ' 50 0 70M195 90c-20 20-20 50 0 70" fill="none" stroke="#fff" stroke-width="4"/>',
    "pad": '<rect x="100" y="95" width="120" height="70" rx="35"/><path d="M130 115v30M115 130h30"'
    ' stroke="#fff" stroke-width="8"/><circle cx="185" cy="122" r="7" fill="#fff"/><circle'
    ' cx="200" cy="138" r="7" fill="#fff"/>',
    "brush": '<rect x="150" y="60" width="20" height="80" rx="6"/><path d="M140 140h40l-5 45h-30z"/>',
    "paw": '<ellipse cx="160" cy="150" rx="32" ry="26"/><circle cx="125" cy="115" r="12"/><circle'
    ' cx="148" cy="98" r="12"/><circle cx="172" cy="98" r="12"/><circle cx="195" cy="115" r="12"/>',
    "shirt": '<path d="M130 75l-40 25 15 25 20-10v70h70v-70l20 10 15-25-40-25c-5 12-15 18-30'
    ' 18s-25-6-30-18z"/>',
    "bolt": '<path d="M175 65l-55 80h35l-15 60 60-85h-37z"/>',
}
# (motif, hue) per category; hues spread round the wheel so neighbours differ.
CATEGORY_ART = {
    "art_supplies": ("brush", 12),
    "beauty": ("gem", 330),
    "books": ("book", 28),
    "electronics": ("bolt", 210),
    "fashion": ("shirt", 290),
    "food": ("cup", 40),
    "games": ("pad", 265),
    "garden": ("leaf", 120),
    "home": ("box", 190),
    "jewelry": ("gem", 48),
    "kitchen": ("cup", 0),
    "music": ("note", 240),
    "outdoors": ("leaf", 150),
    "pets": ("paw", 25),
    "sports": ("ball", 100),
    "stationery": ("book", 225),
    "toys": ("ball", 350),
    "wellness": ("leaf", 170),
}


def picture(motif: str, hue: int) -> str:
    width, height = PICTURE_SIZE
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"'
        f' width="{width}" height="{height}">'
        f'<rect width="{width}" height="{height}" fill="hsl({hue} 70% 92%)"/>'
        f'<circle cx="160" cy="130" r="88" fill="hsl({hue} 60% 84%)"/>'
        f'<g fill="hsl({hue} 55% 42%)" stroke="hsl({hue} 55% 42%)" stroke-linecap="round"'
        f' stroke-linejoin="round">{MOTIFS[motif]}</g></svg>\n'
    )


def main() -> None:
    if set(CATEGORY_ART) != set(CATEGORY_CODES):
        raise SystemExit("CATEGORY_ART must name every demo category")
    for category, (motif, hue) in CATEGORY_ART.items():
        target = ROOT / "static" / picture_path(category)
        target.parent.mkdir(parents=True, exist_ok=True)
        svg = picture(motif, hue)
        if len(svg.encode()) > MAX_BYTES:
            raise SystemExit(f"{target.name} is over {MAX_BYTES} bytes")
        target.write_text(svg, encoding="utf-8")
        print(f"{target.relative_to(ROOT)} {len(svg.encode())} bytes")


if __name__ == "__main__":
    main()
