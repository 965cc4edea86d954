"""Outcome measures: the per-game numbers a game declares, so that `compare`, `sweep`, `tune` and
the generic analyses work on any registered game.

A `Measure` turns a block of games (a `Batch`) into one number per game. Every game has the
first side's edge (`first_edge`: the first side's share of the win less its fair share, the
first side being the seat that moved first or, in team play, its team) and the first seat's score
lead (`first_score_lead`); a game declares its own in `Game.measures` (sim/core/game.py), its
length first.

Per-game values are counted in whole units of 1 / UNIT, so that sums are exact integers and a
result never depends on how the games were chunked or where they were played: UNIT = 840 =
lcm(1..8) makes every share of a split win, every mean over up to 8 seats and every count exact.
A measure of other values (a standard deviation) is rounded to the unit per game, far below any
standard error.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np
from numba import njit

from .batch import Batch
from .stats import WIN_UNIT

UNIT = WIN_UNIT


@dataclasses.dataclass(frozen=True)
class Measure:
    """One number per game: `of(batch, rules)` -> float array of batch.games values.

    share: every value lies in [0, 1] (an indicator, a share of the win): one arm's interval is
    then Wilson's; otherwise mean +- 1.96 SE."""
    name: str
    doc: str
    of: Callable[[Batch, object], np.ndarray]
    share: bool = False


# ---------------------------------------------------------------- the first side
def first_seats(batch: Batch, column: str | None) -> np.ndarray:
    """The seat that moved first in each game: a per-game column of the game, or seat 0."""
    if column is None:
        return np.zeros(batch.games, np.int64)
    return np.asarray(batch.extras[column], np.int64)


def side_of(rules, players: int, seat: np.ndarray) -> tuple[list[list[int]], np.ndarray]:
    """The sides of a game (its teams, or one seat each) and the side of each game's `seat`."""
    teams = rules.team_seats(players)
    sides = [list(t) for t in teams] if teams else [[s] for s in range(players)]
    side_index = np.zeros(players, np.int64)
    for i, t in enumerate(sides):
        side_index[t] = i
    return sides, side_index[seat]


def first_side_share(batch: Batch, rules, column: str | None) -> tuple[np.ndarray, float]:
    """Per game, the first side's share of the win; and its fair share (1 / sides)."""
    players = batch.scores.shape[1]
    teams = rules.team_seats(players)
    if not teams and column is None:       # seat 0, alone
        return batch.shares[:, 0], 1.0 / players
    sides, first = side_of(rules, players, first_seats(batch, column))
    side_shares = np.stack([batch.shares[:, t].sum(axis=1) for t in sides], axis=1)
    return side_shares[np.arange(batch.games), first], 1.0 / len(sides)


def first_edge(column: str | None) -> Measure:
    def of(batch, rules):
        share, fair = first_side_share(batch, rules, column)
        return share - fair
    return Measure("first_edge", "the first side's share of the win less its fair share 1/sides "
                   "(the first side: the seat that moved first, or its team)", of)


@njit(cache=True)
def _score_lead(scores, first):
    """Per game: the score of seat first[g] less the mean of the others' (numpy's row
    reductions over a few seats are slow; the measures run on every game of a comparison)."""
    n, players = scores.shape
    out = np.empty(n)
    for g in range(n):
        total = 0.0
        for s in range(players):
            total += scores[g, s]
        own = scores[g, first[g]]
        out[g] = own - (total - own) / (players - 1)
    return out


@njit(cache=True)
def _score_spread(scores):
    """Per game: the standard deviation of the seats' scores."""
    n, players = scores.shape
    out = np.empty(n)
    for g in range(n):
        total = 0.0
        for s in range(players):
            total += scores[g, s]
        mean = total / players
        var = 0.0
        for s in range(players):
            var += (scores[g, s] - mean) ** 2
        out[g] = np.sqrt(var / players)
    return out


def first_score_lead(column: str | None) -> Measure:
    def of(batch, rules):
        if batch.scores.shape[1] < 2:
            return np.zeros(batch.games)
        return _score_lead(batch.scores, first_seats(batch, column))
    return Measure("first_score_lead", "the first seat's score less the mean of the others'", of)


def common(first_seat_column: str | None) -> tuple[Measure, ...]:
    """The measures every game has."""
    return first_edge(first_seat_column), first_score_lead(first_seat_column)


# ---------------------------------------------------------------- building blocks for games
def column(name: str, doc: str, extra: str | None = None) -> Measure:
    """A per-game column of the game, as it is."""
    key = extra or name
    return Measure(name, doc, lambda batch, rules: np.asarray(batch.extras[key], np.float64))


def is_code(name: str, doc: str, extra: str, code: int) -> Measure:
    """1 when the game's column `extra` holds `code`, else 0 (the share of games that end so)."""
    return Measure(name, doc, lambda batch, rules: (np.asarray(batch.extras[extra]) == code)
                   .astype(np.float64), share=True)


def seat_mean(name: str, doc: str, prefix: str) -> Measure:
    """The mean over the seats of a game of the per-seat columns `prefix_0`, `prefix_1`, ..."""
    def of(batch, rules):
        players = batch.scores.shape[1]
        return np.mean([np.asarray(batch.extras[f"{prefix}_{s}"], np.float64)
                        for s in range(players)], axis=0)
    return Measure(name, doc, of)


def score_spread() -> Measure:
    return Measure("score_spread", "the standard deviation of the final scores within a game",
                   lambda batch, rules: _score_spread(batch.scores))
