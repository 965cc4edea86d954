"""Shared pieces of the Pyramids analyses: whole-game arrays of a run, the tiles taken."""
from __future__ import annotations

import numpy as np

from sim.core.stats import paired_difference
from sim.pyramids.rules import ROUNDS, TILE_NAMES
from . import common

GAME = "pyramids"
PARTS = ("pyramid", "bonus", "obelisk", "tomb", "glyph")


def games_of(rules, lineup, games: int, seed: int) -> dict:
    """Every game of a Pyramids run (analyses.common.games_of)."""
    return common.games_of(GAME, rules, lineup, games, seed)


def tile_at(tiles: np.ndarray, round_number: int) -> np.ndarray:
    """The tile taken in round `round_number` (1..10) from a seat's `tiles_s` column (the tiles
    of rounds 1..10 as the digits of one number)."""
    return (np.asarray(tiles) // 10 ** (ROUNDS - round_number)) % 10


def tile_name(tile: int) -> str:
    return TILE_NAMES[tile]


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Mean difference a - b and its standard error, game by game (NaN with under 2 games)."""
    if len(a) < 2:
        return float("nan"), float("nan")
    return paired_difference(a, b)
