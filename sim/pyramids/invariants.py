"""Pyramids' invariants, checked after every decision (the conformance suite's game hook).

Every card of the deck is in exactly one place (deck, quarry, a hand, an edifice, a discard pile)
and the cards in play are exactly those dealt; every pyramid card lies on a legal slot (the base a
row from slot 0, an upper card on its two supports) and a pyramid holds one card per finished
round, and the card of this round once its owner built; a hand holds at most the kept card and a pair; at the end,
every pyramid has 10 cards and the scores recomputed by the compiled scoring kernels (board.py,
an independent implementation) equal the reference engine's.
"""
from __future__ import annotations

import numpy as np

from ..core.reference import checked_games
from . import board as B
from . import observation as O
from .observation import LEVEL_OF, LEVEL_START, POSITION_OF
from .reference import Game, play_game
from .rules import ROUNDS


def check_state(g: Game) -> None:
    where = g.where_is_every_card()                  # raises on a card in two places
    assert len(where) == len(g.cards), "a card is nowhere"
    for s, nec in enumerate(g.necropolis):
        pyr = nec.pyramid
        base = sorted(sl for sl in pyr if LEVEL_OF[sl] == 0)
        assert base == list(range(len(base))), f"seat {s}: the base is not a row from slot 0"
        for sl in pyr:
            level, p = LEVEL_OF[sl], POSITION_OF[sl]
            if level:
                below = LEVEL_START[level - 1]
                assert below + p in pyr and below + p + 1 in pyr, f"seat {s}: slot {sl} unsupported"
        assert g.round <= len(pyr) <= g.round + 1, f"seat {s}: {len(pyr)} cards in round {g.round}"
        assert len(g.hands[s]) <= O.MAX_HAND
        assert len(nec.tomb) <= g.round + 1 and len(nec.obelisk) <= g.round + 1


def check_end(g: Game) -> None:
    r, codes = g.rules, np.array(g.codes, np.int64)
    cells = r.large_stone == "cells"
    table = np.array(r.obelisk_points, np.int64)
    parts = g.score_parts()
    counts = np.zeros((g.players, B.N_COLOURS), np.int64)
    for s, nec in enumerate(g.necropolis):
        assert len(nec.pyramid) == ROUNDS, f"seat {s}: {len(nec.pyramid)} pyramid cards at the end"
        pyr = np.full(O.SLOTS, -1, np.int64)
        for sl, c in nec.pyramid.items():
            pyr[sl] = c
        groups, bonus, pg = B.pyramid_points(pyr, codes, cells, r.bonus_points, r.bonus_group,
                                             r.glyph_points)
        obelisk = np.array(nec.obelisk + [-1], np.int64)
        stages, og = B.obelisk_points(obelisk, len(nec.obelisk), codes, table, r.glyph_points)
        tomb = np.array(nec.tomb + [-1], np.int64)
        B.tomb_colours(tomb, len(nec.tomb), codes, cells, counts[s])
        tg = r.glyph_points * B.tomb_glyphs(tomb, len(nec.tomb), codes)
        assert (groups, bonus, stages, pg + og + tg) == (
            parts["pyramid"][s], parts["bonus"][s], parts["obelisk"][s], parts["glyph"][s]), s
    majority = np.zeros(g.players, np.int64)
    B.tomb_majorities(counts, g.players, r.tomb_points, O.TOMB_TIE_CODES[r.tomb_tie], majority)
    assert list(majority) == parts["tomb"]
    assert abs(sum(g.win_shares()) - 1.0) < 1e-9


def check_invariants(rules, players, seed, first_game, n_games, kernels, params) -> int:
    """Play the games, checking the invariants after every decision; returns the decisions."""
    return checked_games(play_game, check_state, check_end, rules, players, seed, first_game, n_games,
                         kernels, params)
