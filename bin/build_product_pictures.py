"""Builds the demo catalog's pictures: one SVG per product noun under static/widget/products/.

Each picture is one or two Fluent Emoji (MIT, Microsoft; the flat style, shipped on npm as
@iconify-json/fluent-emoji-flat and pinned in package-lock.json) on the category's backdrop.
A noun the set has no emoji for (a smart plug, a kalimba) gets the nearest emoji and a second,
smaller one that says what kind of thing it is (a plug and a phone).

Run by a developer after changing the art, with Node's npm on the machine (`make run` needs only
Python, so the output is committed); bump demo_catalog.PICTURE_VERSION when a picture changes:

    npm ci && .venv/bin/python bin/build_product_pictures.py

`--check` writes nothing and fails if a committed picture differs from what it would write.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gifts.demo_catalog import PICTURE_SIZE, picture_path, pictured_nouns  # noqa: E402

ICON_SET = ROOT / "node_modules" / "@iconify-json" / "fluent-emoji-flat" / "icons.json"
STATIC = ROOT / "static"
MAX_BYTES = 8 * 1024

# Per category: the backdrop's hue (spread round the wheel so neighbours differ) and, per noun,
# "emoji" or "emoji+smaller emoji" by their Fluent Emoji names.
ART: dict[str, tuple[int, dict[str, str]]] = {
    "art_supplies": (12, {
        "Watercolor Set": "artist-palette+droplet",
        "Sketchbook": "notebook+pencil",
        "Graphite Pencil Set": "pencil",
        "Acrylic Paint Kit": "paintbrush",
        "Tabletop Easel": "framed-picture+paintbrush",
        "Calligraphy Pen Set": "black-nib+scroll",
        "Knitting Kit": "yarn",
        "Embroidery Kit": "thread+sewing-needle",
        "Oil Pastel Set": "crayon",
        "Pottery Wheel": "amphora",
        "Alcohol Marker Set": "pen+artist-palette",
        "Linocut Printing Kit": "page-with-curl+paintbrush",
    }),
    "beauty": (330, {
        "Facial Serum": "lotion-bottle+droplet",
        "Skincare Gift Set": "lotion-bottle+wrapped-gift",
        "Eau de Parfum": "lotion-bottle+rose",
        "Face Roller": "gem-stone+relieved-face",
        "Hair Dryer": "person-getting-haircut+dashing-away",
        "Eyeshadow Palette": "artist-palette+eye",
        "Lip Care Set": "kiss-mark+honey-pot",
        "Sheet Mask Pack": "relieved-face+leafy-green",
        "Bath Bomb Set": "bathtub+bubbles",
        "Beard Grooming Kit": "man-beard+razor",
        "Nail Polish Set": "nail-polish",
        "Hair Straightener": "woman-red-hair+fire",
    }),
    "books": (28, {
        "Fantasy Trilogy Box Set": "books+dragon",
        "Sci-Fi Anthology": "closed-book+rocket",
        "World History Atlas": "world-map+open-book",
        "Cookbook": "orange-book+cooking",
        "Mystery Novel Collection": "closed-book+detective",
        "Poetry Collection": "green-book+feather",
        "Picture Book": "open-book+teddy-bear",
        "Graphic Novel": "open-book+speech-balloon",
        "Astronomy Guide": "blue-book+ringed-planet",
        "Travel Guide": "ledger+airplane",
        "Reading Light": "flashlight+open-book",
        "Science Encyclopedia": "books+atom-symbol",
        "Romance Novel Bundle": "closed-book+heart-with-ribbon",
        "Chess Strategy Book": "green-book+chess-pawn",
    }),
    "electronics": (210, {
        "Wireless Earbuds": "ear+musical-note",
        "Bluetooth Speaker": "speaker-high-volume+musical-notes",
        "Smart Plug": "electric-plug+mobile-phone",
        "Smart Speaker": "speaker-medium-volume+speech-balloon",
        "E-Reader": "open-book+mobile-phone",
        "Instant Camera": "camera-with-flash",
        "Fitness Tracker": "watch+red-heart",
        "Power Bank": "battery+high-voltage",
        "Mechanical Keyboard": "keyboard",
        "Gaming Headset": "headphone+video-game",
        "Action Camera": "video-camera+water-wave",
        "Camera Drone": "helicopter+camera",
        "Smart Watch": "watch+wireless",
        "Over-Ear Headphones": "headphone",
        "Smart Light Bulb Kit": "light-bulb+mobile-phone",
    }),
    "fashion": (290, {
        "Leather Wallet": "purse+credit-card",
        "Cashmere Scarf": "scarf",
        "Silk Tie": "necktie",
        "Sunglasses": "sunglasses",
        "Canvas Tote Bag": "shopping-bags",
        "Knit Beanie": "womans-hat+yarn",
        "Leather Belt": "jeans+link",
        "Wristwatch": "watch",
        "Crossbody Bag": "handbag",
        "Sock Gift Box": "socks+wrapped-gift",
        "Sneakers": "running-shoe",
        "Rain Jacket": "coat+umbrella-with-rain-drops",
    }),
    "food": (40, {
        "Chocolate Truffle Box": "chocolate-bar+wrapped-gift",
        "Coffee Bean Sampler": "hot-beverage+beans",
        "Loose Leaf Tea Collection": "teacup-without-handle+leaf-fluttering-in-wind",
        "Red Wine Duo": "wine-glass+grapes",
        "Hot Sauce Sampler": "hot-pepper",
        "Cheese Board Gift Box": "cheese-wedge",
        "Olive Oil Set": "olive+droplet",
        "Baking Mix Kit": "cupcake+egg",
        "Sparkling Wine": "bottle-with-popping-cork",
        "Gourmet Snack Basket": "basket+pretzel",
        "Craft Beer Sampler": "beer-mug",
        "Spice Blend Set": "salt+garlic",
        "Honey Tasting Set": "honey-pot",
        "Hot Chocolate Gift Set": "hot-beverage+chocolate-bar",
    }),
    "games": (265, {
        "Strategy Board Game": "game-die+crossed-swords",
        "Party Card Game": "joker+partying-face",
        "Chess Set": "chess-pawn",
        "Jigsaw Puzzle": "puzzle-piece",
        "Game Controller": "video-game",
        "Cooperative Board Game": "game-die+handshake",
        "Dice Set": "game-die",
        "Family Board Game": "game-die+house",
        "Brain Teaser Puzzle": "brain+puzzle-piece",
        "Retro Game Console": "joystick",
        "Poker Set": "spade-suit+coin",
        "Escape Room Game": "door+old-key",
    }),
    "garden": (120, {
        "Herb Garden Kit": "herb",
        "Pruning Shears": "scissors+rose",
        "Ceramic Planter": "potted-plant",
        "Gardening Tool Set": "toolbox+seedling",
        "Bird Feeder": "bird+ear-of-corn",
        "Raised Garden Bed": "carrot+wood",
        "Succulent Collection": "cactus",
        "Garden Kneeler": "person-kneeling+seedling",
        "Seed Starter Kit": "seedling",
        "Watering Can": "sweat-droplets+tulip",
        "Solar Lights": "sun+light-bulb",
        "Compost Bin": "wastebasket+worm",
        "Bonsai Tree Kit": "deciduous-tree",
        "Gardening Gloves": "gloves+seedling",
    }),
    "home": (190, {
        "Scented Candle": "candle",
        "Throw Blanket": "couch-and-lamp+yarn",
        "Picture Frame": "framed-picture",
        "Essential Oil Diffuser": "amphora+fog",
        "Table Lamp": "light-bulb+chair",
        "Wall Clock": "three-oclock",
        "Linen Sheet Set": "bed",
        "Throw Pillow Set": "couch-and-lamp+cloud",
        "Doormat": "door+footprints",
        "Weighted Blanket": "person-in-bed",
        "Photo Album": "notebook-with-decorative-cover+camera",
        "Plant Stand": "potted-plant+ladder",
        "Candle Making Kit": "candle+honey-pot",
        "Home Tool Kit": "hammer-and-wrench",
    }),
    "jewelry": (48, {
        "Pendant Necklace": "gem-stone+link",
        "Stud Earrings": "ear+gem-stone",
        "Charm Bracelet": "link+four-leaf-clover",
        "Engraved Locket": "sparkling-heart+locked",
        "Cufflinks": "man-in-tuxedo+gem-stone",
        "Stacking Ring Set": "ring",
        "Jewelry Box": "wrapped-gift+gem-stone",
        "Hoop Earrings": "ear+hollow-red-circle",
        "Anklet": "foot+link",
        "Initial Necklace": "input-latin-uppercase+link",
        "Pearl Bracelet": "prayer-beads+oyster",
        "Chain Bracelet": "link",
    }),
    "kitchen": (0, {
        "Coffee Grinder": "beans+gear",
        "Pour-Over Coffee Set": "hot-beverage+pouring-liquid",
        "Chef's Knife": "kitchen-knife",
        "Cast Iron Skillet": "cooking",
        "Stand Mixer": "bowl-with-spoon+gear",
        "Tea Kettle": "teapot",
        "Baking Set": "pie+spoon",
        "Cutting Board": "wood+cucumber",
        "Espresso Machine": "hot-beverage+high-voltage",
        "Wine Decanter": "amphora+wine-glass",
        "Pasta Maker": "spaghetti",
        "Dutch Oven": "pot-of-food",
        "Matcha Whisk Set": "teacup-without-handle+herb",
        "Spice Rack": "salt+hot-pepper",
        "Cocktail Shaker Set": "cocktail-glass",
        "Apron": "cook",
        "Espresso Cups": "hot-beverage",
        "Pour-Over Kettle": "teapot+hot-beverage",
        "Coffee Scale": "balance-scale+beans",
    }),
    "music": (240, {
        "Acoustic Guitar": "guitar",
        "Guitar Pedal": "control-knobs+guitar",
        "Vinyl Record Player": "optical-disk+musical-notes",
        "Ukulele": "guitar+palm-tree",
        "Studio Headphones": "headphone+studio-microphone",
        "Digital Piano": "musical-keyboard",
        "Record Storage Crate": "package+optical-disk",
        "Guitar Strap": "guitar+link",
        "USB Microphone": "studio-microphone+electric-plug",
        "Harmonica": "mouth+musical-notes",
        "Metronome": "stopwatch+musical-note",
        "Kalimba": "wood+musical-keyboard",
        "Drum Practice Pad": "drum",
        "Guitar Care Kit": "guitar+sponge",
    }),
    "outdoors": (150, {
        "Headlamp": "flashlight+billed-cap",
        "Camping Hammock": "evergreen-tree+zzz",
        "Insulated Water Bottle": "droplet+snowflake",
        "Camp Stove": "pot-of-food+fire",
        "Trekking Poles": "person-walking+snow-capped-mountain",
        "Daypack": "backpack",
        "Fishing Rod Combo": "fishing-pole",
        "Tackle Box": "toolbox+fish",
        "Sleeping Bag": "sleeping-face+camping",
        "Camping Lantern": "diya-lamp+tent",
        "Binoculars": "magnifying-glass-tilted-left+eyes",
        "Multi-Tool": "screwdriver+kitchen-knife",
        "Tent": "tent",
        "Chalk Bag": "person-climbing",
        "Portable Fire Pit": "fire+wood",
    }),
    "pets": (25, {
        "Dog Bed": "bed+dog-face",
        "Cat Tree": "deciduous-tree+cat-face",
        "Interactive Dog Toy": "puzzle-piece+dog-face",
        "Cat Toy Set": "yarn+cat-face",
        "Dog Leash": "service-dog",
        "Pet Camera": "video-camera+paw-prints",
        "Pet Grooming Kit": "poodle+scissors",
        "Dog Treat Sampler": "bone",
        "Cat Water Fountain": "fountain+cat-face",
        "Pet Portrait": "framed-picture+dog-face",
        "Dog Raincoat": "dog+umbrella-with-rain-drops",
        "Aquarium Starter Kit": "tropical-fish",
        "Pet Travel Carrier": "luggage+cat-face",
    }),
    "sports": (100, {
        "Yoga Mat": "person-in-lotus-position",
        "Running Belt": "person-running+key",
        "Bike Light Set": "bicycle+light-bulb",
        "Football": "soccer-ball",
        "Tennis Racket": "badminton+tennis",
        "Swim Goggles": "goggles",
        "Resistance Band Set": "flexed-biceps",
        "Adjustable Dumbbells": "person-lifting-weights",
        "Cycling Jersey": "running-shirt+bicycle",
        "Golf Balls": "flag-in-hole",
        "Basketball": "basketball",
        "Foam Roller": "leg+relieved-face",
        "Jump Rope": "curly-loop+boxing-glove",
        "Tennis Ball Pack": "tennis",
        "Swim Towel": "person-swimming+sweat-droplets",
    }),
    "stationery": (225, {
        "Fountain Pen": "fountain-pen",
        "Leather Journal": "notebook-with-decorative-cover",
        "Dotted Notebook": "notebook",
        "Desk Organizer": "card-file-box+pencil",
        "Washi Tape Set": "roll-of-paper+cherry-blossom",
        "Planner": "spiral-calendar",
        "Wax Seal Kit": "envelope+candle",
        "Greeting Card Set": "envelope+sparkles",
        "Gel Pen Set": "pen+rainbow",
        "Desk Lamp": "light-bulb+spiral-notepad",
        "Ink Bottle Set": "jar+black-nib",
        "Letter Opener": "envelope+dagger",
        "Mechanical Pencil": "pencil+gear",
        "Notepad Set": "spiral-notepad",
    }),
    "toys": (350, {
        "Building Brick Set": "brick",
        "Brick Model Kit": "brick+classical-building",
        "Science Kit": "test-tube",
        "Plush Toy": "teddy-bear",
        "Wooden Train Set": "locomotive",
        "Remote Control Car": "racing-car",
        "Marble Run": "roller-coaster+blue-circle",
        "Telescope for Kids": "telescope",
        "Craft Kit": "scissors+sparkles",
        "Dollhouse": "house-with-garden",
        "Coding Robot": "robot",
        "Magnetic Tiles": "magnet",
        "Floor Puzzle": "puzzle-piece+sauropod",
        "Play Kitchen": "cooking+child",
        "Action Figure Set": "person-superhero",
        "Board Game for Kids": "game-die+child",
    }),
    "wellness": (170, {
        "Meditation Cushion": "person-in-lotus-position+cloud",
        "Massage Gun": "person-getting-massage+high-voltage",
        "Sleep Mask": "sleeping-face",
        "Aromatherapy Oil Set": "lotion-bottle+herb",
        "Sunrise Alarm Clock": "alarm-clock+sunrise",
        "Acupressure Mat": "cactus+relieved-face",
        "Gratitude Journal": "notebook+folded-hands",
        "Singing Bowl": "bell+lotus",
        "Spa Gift Basket": "basket+soap",
        "Heated Neck Wrap": "scarf+fire",
        "Herbal Tea Sampler": "teacup-without-handle+blossom",
        "Foot Massager": "foot+sparkles",
        "Himalayan Salt Lamp": "rock+light-bulb",
        "Yoga Block Set": "wood+person-in-lotus-position",
    }),
}  # fmt: skip

# One emoji sits in the middle; with a second, the first moves up-left and the second, smaller,
# overlaps its lower right. (x, y, size) in the 320 x 240 box; the emoji are drawn on a 32 grid.
ALONE = (88, 48, 144)
FIRST = (62, 28, 140)
SECOND = (178, 118, 92)


def backdrop(hue: int) -> str:
    """The category's tint, light or dark as the page is: an <img> SVG follows the color-scheme
    of the element it is in (the widget sets it from the host's theme or the system's)."""
    return (
        f"<style>.b{{fill:hsl({hue} 70% 92%)}}.d{{fill:hsl({hue} 60% 84%)}}"
        f"@media (prefers-color-scheme:dark){{.b{{fill:hsl({hue} 30% 16%)}}"
        f".d{{fill:hsl({hue} 35% 24%)}}}}</style>"
        '<rect class="b" width="320" height="240"/><circle class="d" cx="160" cy="120" r="100"/>'
    )


def placed(body: str, *, at: tuple[int, int, int], ids: str) -> str:
    """An emoji's body moved and scaled into place; its ids (gradients, clips) get a prefix so
    two emoji in one picture cannot clash."""
    x, y, size = at
    body = re.sub(r'id="([^"]+)"', rf'id="{ids}\1"', body)
    body = re.sub(r"url\(#([^)]+)\)", rf"url(#{ids}\1)", body)
    body = re.sub(r'href="#([^"]+)"', rf'href="#{ids}\1"', body)
    scale = f"{size / 32:g}"
    return f'<g transform="translate({x} {y}) scale({scale})">{body}</g>'


def picture(*, hue: int, art: str, icons: dict[str, str]) -> str:
    names = art.split("+")
    if len(names) == 1:
        glyphs = placed(icons[names[0]], at=ALONE, ids="a")
    else:
        first, second = names
        glyphs = placed(icons[first], at=FIRST, ids="a") + placed(icons[second], at=SECOND, ids="b")
    width, height = PICTURE_SIZE
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"'
        f' width="{width}" height="{height}">{backdrop(hue)}{glyphs}</svg>\n'
    )


def load_icons() -> dict[str, str]:
    if not ICON_SET.exists():
        sys.exit(f"{ICON_SET.relative_to(ROOT)} is missing: run `npm ci` first.")
    data = json.loads(ICON_SET.read_text(encoding="utf-8"))
    icons = {name: icon["body"] for name, icon in data["icons"].items()}
    for alias, target in data.get("aliases", {}).items():
        if target.get("parent") in icons and len(target) == 1:
            icons[alias] = icons[target["parent"]]
    return icons


def pictures(into: Path) -> dict[Path, str]:
    """Every picture's file under `into` and its SVG; fails on a noun without art or art
    without a noun."""
    icons = load_icons()
    nouns = pictured_nouns()
    files: dict[Path, str] = {}
    for category, category_nouns in nouns.items():
        hue, art = ART[category]
        if set(art) != set(category_nouns):
            sys.exit(f"{category}: art and nouns differ: {set(art) ^ set(category_nouns)}")
        for noun in category_nouns:
            unknown = [name for name in art[noun].split("+") if name not in icons]
            if unknown:
                sys.exit(f"{category}/{noun}: no such emoji {unknown}")
            svg = picture(hue=hue, art=art[noun], icons=icons)
            if len(svg.encode()) > MAX_BYTES:
                sys.exit(f"{category}/{noun}: {len(svg.encode())} bytes, over {MAX_BYTES}")
            files[into / picture_path(category, noun)] = svg
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("--into", type=Path, default=STATIC, help="static root (default: static/)")
    args = parser.parse_args()
    files = pictures(args.into)
    stale = {p for p in (args.into / "widget" / "products").rglob("*.svg") if p not in files}
    changed = {path for path, svg in files.items() if not path.exists() or path.read_text() != svg}
    if args.check:
        if stale or changed:
            sys.exit(f"pictures out of date: {sorted(str(p) for p in stale | changed)[:5]}")
        print(f"{len(files)} pictures up to date")
        return
    for path in stale:
        path.unlink()
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path], encoding="utf-8")
    total = sum(len(svg.encode()) for svg in files.values())
    print(f"{len(files)} pictures ({len(changed)} written, {len(stale)} removed), {total} bytes")


if __name__ == "__main__":
    main()
