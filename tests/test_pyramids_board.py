"""The compiled scoring kernels of board.py against the reference's scoring (reference.py), which
works from each card's stones rather than from the packed card codes: every card of the deck on
its own, then random tombs, obelisks and pyramids, large stones as one stone and as two cells."""
from __future__ import annotations

import numpy as np
import pytest

from sim.pyramids import board as B
from sim.pyramids import deck as D
from sim.pyramids import observation as O
from sim.pyramids import reference as ref
from sim.pyramids.rules import PyramidsRules

BASE = PyramidsRules()
RULE_SETS = [BASE, BASE.replace(large_stone="cells"), BASE.replace(bonus_group=2, glyph_points=3)]
IDS = ["stone", "cells", "bonus-2"]


# Every layout the card format allows: the shipped and generated decks join cells only
# vertically (bl+tl, br+tr), so the bottom and top joins are only met here.
LAYOUTS = ([], ["bl+tl"], ["br+tr"], ["bl+br"], ["tl+tr"], ["bl+tl", "br+tr"], ["bl+br", "tl+tr"])


def every_layout_deck(n_cards=126, seed=4):
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n_cards):
        large = LAYOUTS[i % len(LAYOUTS)]
        small = [c for c in D.CELLS if not any(c in s.split("+") for s in large)]
        stones = [f"{D.COLOURS[rng.integers(5)]}@{cells}" for cells in large + small]
        rows.append(f"{i},{' '.join(stones)},{D.GLYPHS[rng.integers(4)]}")
    return D.parse_deck("id,stones,glyph\n" + "\n".join(rows) + "\n")


def deck(r, shipped=True):
    cards = r.cards() if shipped else every_layout_deck()
    return cards, np.array([O.card_code(c) for c in cards], np.int64)


def test_the_handmade_deck_has_every_join():
    _, codes = deck(BASE, shipped=False)
    joins = {O.code_joins(int(c)) for c in codes}
    assert joins == {0, O.JOIN_LEFT, O.JOIN_RIGHT, O.JOIN_BOTTOM, O.JOIN_TOP,
                     O.JOIN_LEFT | O.JOIN_RIGHT, O.JOIN_BOTTOM | O.JOIN_TOP}


@pytest.mark.parametrize("shipped", [True, False], ids=["shipped", "every-layout"])
@pytest.mark.parametrize("r", RULE_SETS, ids=IDS)
def test_tomb_colours_of_every_card_and_of_random_tombs(r, shipped):
    cards, codes = deck(r, shipped)
    assert any(len(s.cells) == 2 for c in cards for s in c.stones)      # the deck has large stones
    out = np.zeros(B.N_COLOURS, np.int64)
    rng = np.random.default_rng(1)
    tombs = [[c] for c in range(len(cards))] + [list(rng.choice(len(cards), k, replace=False))
                                                for k in rng.integers(0, 12, 300)]
    for t in tombs:
        B.tomb_colours(np.array(t + [0], np.int64), len(t), codes, r.large_stone == "cells", out)
        assert list(out) == ref.tomb_colours(t, cards, r), t
        assert B.tomb_glyphs(np.array(t + [0], np.int64), len(t), codes) == ref.glyphs(t, D.TOMB, cards)


@pytest.mark.parametrize("shipped", [True, False], ids=["shipped", "every-layout"])
@pytest.mark.parametrize("r", RULE_SETS, ids=IDS)
def test_obelisk_points_of_every_card_and_of_random_obelisks(r, shipped):
    cards, codes = deck(r, shipped)
    table = np.array(r.obelisk_points, np.int64)
    rng = np.random.default_rng(2)
    obelisks = [[c] for c in range(len(cards))] + [list(rng.choice(len(cards), k, replace=False))
                                                   for k in rng.integers(0, 12, 300)]
    for o in obelisks:
        got = B.obelisk_points(np.array(o + [0], np.int64), len(o), codes, table, r.glyph_points)
        assert tuple(got) == ref.obelisk_points(o, cards, r), o


@pytest.mark.parametrize("shipped", [True, False], ids=["shipped", "every-layout"])
@pytest.mark.parametrize("r", RULE_SETS, ids=IDS)
def test_pyramid_points_of_random_pyramids(r, shipped):
    """Any cards in any slots (the groups' geometry does not depend on how they came there),
    from one card to the full ten."""
    cards, codes = deck(r, shipped)
    rng = np.random.default_rng(3)
    args = (codes, r.large_stone == "cells", r.bonus_points, r.bonus_group, r.glyph_points)
    bonuses = 0
    for _ in range(2000):
        pyr = np.full(O.SLOTS, -1, np.int64)
        slots = rng.choice(O.SLOTS, rng.integers(1, O.SLOTS + 1), replace=False)
        pyr[slots] = rng.choice(len(cards), len(slots), replace=False)
        got = B.pyramid_points(pyr, *args)
        want = ref.pyramid_points({int(s): int(pyr[s]) for s in slots}, cards, r)
        assert tuple(got) == want, pyr
        bonuses += bool(got[1])
    if r.bonus_group == 2 and shipped:      # random pyramids rarely earn the bonus at the default group 3
        assert bonuses > 10
