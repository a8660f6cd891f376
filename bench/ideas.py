"""`make bench-ideas`: how well suggest_gifts' ideas cover a brief, over the demo catalog.

For each of the briefs below (2-4 interests, budgets from small to large), the ideas are made
as suggest_gifts makes them (gifts.selectors.suggest_ideas) and three figures are taken:

- interest coverage: the share of the interests the catalog can serve (a product in budget,
  in stock, for the age) that some idea serves; when there are fewer ideas than such
  interests, the most that can be covered is the number of ideas;
- price spread: (highest - lowest idea price) ÷ (budget max - budget min);
- duplicate rate: the share of ideas that are a variant of (in one family with) another idea.

Usage: python -m bench.ideas [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from dataclasses import asdict, dataclass
from decimal import Decimal

# (relationship, interests, budget min, budget max, age, ideas asked for)
BRIEFS: tuple[tuple[str, tuple[str, ...], int, int, int | None, int], ...] = (
    ("friend", ("gardening", "tea", "music"), 25, 80, None, 6),
    ("mother", ("cooking", "wellness"), 20, 60, 58, 5),
    ("father", ("coffee", "outdoors", "tools"), 30, 120, 62, 6),
    ("partner", ("jewelry", "romance", "wine"), 40, 200, 34, 5),
    ("child", ("lego", "science", "puzzles"), 10, 50, 9, 5),
    ("colleague", ("coffee", "stationery"), 10, 30, None, 4),
    ("teacher", ("reading", "tea", "journaling"), 15, 45, None, 5),
    ("grandparent", ("gardening", "birds", "puzzles", "history"), 20, 90, 78, 6),
    ("sibling", ("gaming", "tech", "sci-fi"), 20, 100, 24, 5),
    ("friend", ("hiking", "photography"), 30, 150, 29, 5),
    ("spouse", ("yoga", "skincare", "sleep"), 25, 120, 41, 6),
    ("friend", ("baking", "chocolate", "coffee", "cheese"), 15, 70, None, 8),
    ("parent", ("dogs", "walking", "home"), 20, 80, None, 5),
    ("child", ("drawing", "painting", "toys"), 8, 40, 7, 5),
    ("friend", ("cycling", "running", "fitness"), 25, 140, 35, 6),
    ("colleague", ("office", "tech", "plants"), 20, 60, None, 3),
    ("partner", ("fragrance", "fashion"), 50, 250, 30, 4),
    ("father", ("golf", "beer", "cooking", "watches"), 40, 300, 55, 8),
    ("friend", ("board-games", "strategy", "party"), 15, 70, None, 5),
    ("mother", ("knitting", "embroidery", "reading"), 10, 60, 64, 5),
    ("sibling", ("vinyl", "music", "retro"), 20, 120, 27, 6),
    ("friend", ("camping", "fishing", "astronomy"), 30, 200, 40, 6),
    ("grandparent", ("tea", "poetry", "relaxation"), 10, 50, 81, 4),
    ("child", ("trains", "building", "kids"), 15, 80, 5, 5),
    ("friend", ("cocktails", "entertaining", "snacks"), 20, 90, 30, 6),
    ("other", ("cats", "candles", "cozy"), 10, 45, None, 5),
    ("friend", ("calligraphy", "writing", "stationery", "poetry"), 10, 60, None, 2),
    ("spouse", ("travel", "photography", "coffee"), 60, 400, 45, 6),
)


@dataclass(frozen=True)
class BriefFigures:
    interests: str
    budget: str
    ideas: int
    servable: int
    covered: int
    coverage: float  # covered ÷ the most that can be covered with this many ideas
    spread: float
    duplicates: int


def measure(
    relationship: str,
    interests: tuple[str, ...],
    low: int,
    high: int,
    age: int | None,
    limit: int,
) -> BriefFigures:
    from gifts import catalog
    from gifts.ranking import price_spread
    from gifts.selectors import read_brief, suggest_ideas

    brief = read_brief(
        relationship=relationship,
        interests=interests,
        budget_min=Decimal(low),
        budget_max=Decimal(high),
        age=age,
    )
    ideas = suggest_ideas(brief=brief, currency="USD", limit=limit)
    in_budget = catalog.sellable_candidates(
        currency="USD", min_price=brief.budget_min, max_price=brief.budget_max, age=age
    )
    servable = {hit for item in in_budget for hit in brief.hits(item)}
    covered = {hit for idea in ideas for hit in brief.hits(idea.item)}
    families = [idea.item.family_key for idea in ideas]
    reachable = min(len(servable), len(ideas)) or 1
    return BriefFigures(
        interests=", ".join(interests),
        budget=f"{low}-{high}",
        ideas=len(ideas),
        servable=len(servable),
        covered=len(covered & servable),
        coverage=min(len(covered & servable) / reachable, 1.0) if servable else 1.0,
        spread=price_spread(
            [idea.item.price for idea in ideas], low=brief.budget_min, high=brief.budget_max
        ),
        duplicates=len(families) - len(set(families)),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "giftgenius.settings.dev")
    import django

    django.setup()
    figures = [measure(*brief) for brief in BRIEFS]
    ideas = sum(f.ideas for f in figures)
    summary = {
        "briefs": len(figures),
        "mean_coverage": statistics.fmean(f.coverage for f in figures),
        "coverage_when_ideas_at_least_interests": min(
            (f.coverage for f in figures if f.ideas >= f.servable), default=1.0
        ),
        "mean_spread": statistics.fmean(f.spread for f in figures),
        "duplicate_rate": sum(f.duplicates for f in figures) / ideas if ideas else 0.0,
    }
    if args.json:
        print(json.dumps({"briefs": [asdict(f) for f in figures], "summary": summary}, indent=2))
        return 0
    print(f"{'interests':<44} {'budget':>8} {'ideas':>5} {'servable':>8} {'covered':>7} "
          f"{'coverage':>8} {'spread':>6} {'dupl.':>5}")  # fmt: skip
    for f in figures:
        print(f"{f.interests:<44} {f.budget:>8} {f.ideas:>5} {f.servable:>8} {f.covered:>7} "
              f"{f.coverage:>8.2f} {f.spread:>6.2f} {f.duplicates:>5}")  # fmt: skip
    print()
    print(f"briefs {summary['briefs']}: mean coverage {summary['mean_coverage']:.3f}, lowest "
          f"coverage with as many ideas as interests {summary['coverage_when_ideas_at_least_interests']:.2f}, "
          f"mean spread {summary['mean_spread']:.3f}, duplicate rate {summary['duplicate_rate']:.3f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
