"""The ideas for the benchmark's briefs over the demo catalog (bench/ideas.py) meet its targets:
each servable interest covered when there are ideas enough, prices spread, no variants twice."""

from __future__ import annotations

import statistics
from decimal import Decimal

import pytest

from bench.ideas import BRIEFS, measure
from gifts.selectors import Brief, suggest_ideas

pytestmark = pytest.mark.django_db


@pytest.fixture
def figures(demo_catalog):
    return [measure(*brief) for brief in BRIEFS]


def test_the_benchmark_has_two_dozen_varied_briefs_of_two_to_four_interests():
    assert len(BRIEFS) >= 24
    assert all(2 <= len(interests) <= 4 for _, interests, *_ in BRIEFS)
    assert len({interests for _, interests, *_ in BRIEFS}) == len(BRIEFS)
    assert len({(low, high) for _, _, low, high, *_ in BRIEFS}) >= 12


def test_every_servable_interest_is_covered_when_there_are_ideas_enough(figures):
    enough = [f for f in figures if f.ideas >= f.servable]
    assert len(enough) >= 20
    assert [f.interests for f in enough if f.covered != f.servable] == []
    # With fewer ideas than servable interests, each idea serves an interest of its own.
    fewer = [f for f in figures if f.ideas < f.servable]
    assert fewer and all(f.covered >= f.ideas for f in fewer)


def test_prices_spread_and_no_idea_is_a_variant_of_another(figures):
    assert statistics.fmean(f.spread for f in figures) >= 0.4
    assert sum(f.duplicates for f in figures) == 0


def test_the_same_brief_gives_the_same_ideas_every_time(demo_catalog):
    brief = Brief("friend", ("gardening", "tea", "music"), Decimal(25), Decimal(80), None)
    first = [(g.item.sku, g.reasons) for g in suggest_ideas(brief=brief, currency="USD", limit=6)]
    for _ in range(3):
        again = suggest_ideas(brief=brief, currency="USD", limit=6)
        assert [(g.item.sku, g.reasons) for g in again] == first
