"""Shared pieces of the Pyramids analyses: whole-game arrays of a run, the tiles taken."""
from __future__ import annotations

import numpy as np
import pandas as pd

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


def mean_over_rounds(df: pd.DataFrame, keys: list[str], pairs) -> pd.DataFrame:
    """Per group of `keys`, each (value, its SE) column pair of `pairs` averaged over the group's
    rounds, with `rounds` their number. The rounds are independent runs: the SE of the mean is the
    root of the summed variances over the number of rounds. Rows without an SE (of the first
    pair) are left out; a group left with none gets NaN."""
    out = []
    for group, sub in df.groupby(keys, sort=True):
        sub = sub.dropna(subset=[pairs[0][1]])
        k = len(sub)
        row = dict(zip(keys, group), rounds=k)
        for value, se in pairs:
            row[value] = sub[value].mean()
            row[se] = float(np.sqrt((sub[se] ** 2).sum()) / k) if k else np.nan
        out.append(row)
    return pd.DataFrame(out)
