"""Shared pieces of the Pyramids analyses: whole-game arrays of a run, the tiles taken."""
from __future__ import annotations

import numpy as np

from sim.core.stats import paired_difference
from sim.pyramids.rules import ROUNDS, TILE_NAMES
from strategies.play import play

GAME = "pyramids"
PARTS = ("pyramid", "bonus", "obelisk", "tomb", "glyph")


def games_of(rules, lineup, games: int, seed: int) -> dict:
    """Every game of a run, in game order: scores and shares (games x seats) and the game's
    per-game columns (extras)."""
    batches = []
    play(GAME, rules, lineup, games=games, seed=seed, progress=False, partial=False,
         on_batch=batches.append)
    batches.sort(key=lambda b: b.first_game)
    return {"scores": np.concatenate([b.scores for b in batches]).astype(float),
            "shares": np.concatenate([b.shares for b in batches]),
            **{k: np.concatenate([b.extras[k] for b in batches]) for k in batches[0].extras}}


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
