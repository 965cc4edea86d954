"""Statistics with their uncertainty: Wilson intervals, standard errors, paired differences."""
from __future__ import annotations

import dataclasses

from statistics import NormalDist

import numpy as np
from numba import njit

Z95 = NormalDist().inv_cdf(0.975)   # 1.95996...; stdlib, so no scipy import at start-up


def wilson(successes, n, z: float = Z95):
    """Wilson score interval for a proportion; `successes` may be fractional (split ties).

    Vectorised; returns (low, high). n == 0 gives (0, 1)."""
    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, successes / np.maximum(n, 1), 0.0)
        denom = 1 + z * z / n
        center = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # at p = 0 or 1 the bound is exactly 0 or 1 (rounding would leave it a hair inside)
    low = np.where((n > 0) & (p > 0), np.clip(center - half, 0, 1), 0.0)
    high = np.where((n > 0) & (p < 1), np.clip(center + half, 0, 1), 1.0)
    return low, high


def mean_se(total, total_sq, n):
    """Mean and standard error of the mean from running sums (n-1 in the variance)."""
    total, total_sq, n = (np.asarray(x, dtype=float) for x in (total, total_sq, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        var = np.maximum(total_sq - n * mean * mean, 0.0) / np.maximum(n - 1, 1)
        se = np.sqrt(var / n)
    return mean, np.where(n > 1, se, np.nan)


def paired_difference(a, b):
    """Mean of a - b over the same games (common random numbers) and its standard error."""
    d = np.asarray(a, float) - np.asarray(b, float)
    if d.size < 2:
        return float(d.mean()) if d.size else float("nan"), float("nan")
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(d.size))


WIN_UNIT = 840   # lcm(1..8): a split win of 1/k (k <= 8 players) is a whole number of units


def win_units(shares: np.ndarray) -> np.ndarray:
    """Shares of the win as exact integers (units of 1/840), so sums never depend on order."""
    return np.rint(np.asarray(shares) * WIN_UNIT).astype(np.int64)


@dataclasses.dataclass
class SeatTotals:
    """Exact running sums per seat (integers), so memory does not grow with the number of games
    and the result does not depend on how the games were chunked."""
    players: int
    games: int = 0
    score: np.ndarray = None
    score_sq: np.ndarray = None
    win_units: np.ndarray = None

    def __post_init__(self):
        for name in ("score", "score_sq", "win_units"):
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(self.players, np.int64))

    def add(self, scores: np.ndarray, shares: np.ndarray) -> None:
        self.games += scores.shape[0]
        _seat_sums(np.asarray(scores, np.int64), np.asarray(shares, np.float64), WIN_UNIT,
                   self.score, self.score_sq, self.win_units)

    def merge(self, other: "SeatTotals") -> None:
        """Add another block's totals (exact: integers)."""
        self.games += other.games
        self.score += other.score
        self.score_sq += other.score_sq
        self.win_units += other.win_units

    @property
    def wins(self) -> np.ndarray:
        return self.win_units / WIN_UNIT

    def summary(self):
        """(mean, se, win_share, ci_low, ci_high) arrays per seat."""
        mean, se = mean_se(self.score, self.score_sq, self.games)
        win = self.wins / max(self.games, 1)
        low, high = wilson(self.wins, self.games)
        return mean, se, win, low, high


@njit(cache=True)
def _seat_sums(scores, shares, unit, score, score_sq, wins):
    """Add each seat's scores, squared scores and win units (as `win_units`) in one pass, with
    no temporary arrays: a chunk-sized temporary costs fresh pages on every chunk."""
    for g in range(scores.shape[0]):
        for p in range(scores.shape[1]):
            x = scores[g, p]
            score[p] += x
            score_sq[p] += x * x
            wins[p] += np.int64(np.rint(shares[g, p] * unit))


@njit(cache=True)
def _record_block(scores, shares, seat_of_slot, values, unit, base, paired, out, s, s2, d, d2):
    """One pass over a block of games: each slot's share of the win and score (the slot's seat
    `seat_of_slot`), then the rows of `values` (one per measure), as whole units written to
    out[game, quantity]; their sums and sums of squares, and with `paired` those of out - base.
    int64 throughout: the caller keeps the values in range."""
    n, players = scores.shape
    k = out.shape[1]
    for g in range(n):
        for j in range(k):
            if j < players:
                x = np.int64(np.rint(shares[g, seat_of_slot[j]] * unit))
            elif j < 2 * players:
                x = scores[g, seat_of_slot[j - players]] * unit
            else:
                x = np.int64(np.rint(values[j - 2 * players, g] * unit))
            out[g, j] = x
            s[j] += x
            s2[j] += x * x
            if paired:
                y = x - base[g, j]
                d[j] += y
                d2[j] += y * y


class ExactSums:
    """Running sums of per-game values in whole units (sim/core/measures.py), per quantity, as
    Python integers: exact and unbounded, so a total never depends on the order or the chunking
    of the games, nor overflows."""

    def __init__(self, columns: int, unit: int = WIN_UNIT):
        self.unit, self.n = unit, 0
        self.s = [0] * columns
        self.s2 = [0] * columns

    def add(self, rows: np.ndarray, base: np.ndarray | None = None,
            diff: "ExactSums | None" = None) -> None:
        """Add a block of games: rows[game, quantity] in units (int64); with `base` (the same
        games of another arm) also add rows - base to `diff`."""
        n = rows.shape[0]
        if n == 0:
            return
        self._merge(n, *_python_sums(rows))
        if base is not None:
            diff._merge(n, *_python_sums(rows - base))

    def record(self, scores, shares, seat_of_slot, values, base=None, diff=None, out=None) -> np.ndarray:
        """Record a block of games (see `_record_block`) and add it; returns its units, games x
        quantities, in `out` if given (a buffer used again and again costs no fresh pages).
        Values too large for int64 squares go through `add` instead."""
        n, players = scores.shape
        k = len(self.s)
        out = np.empty((n, k), np.int64) if out is None else out[:n]
        limit = 1 << 20          # squares of values under 2**20 units, summed over under 2**20
        if (n < limit and np.abs(scores).max(initial=0) * self.unit < limit
                and np.abs(values).max(initial=0) * self.unit < limit):
            sums = [np.zeros(k, np.int64) for _ in range(4)]
            _record_block(scores, shares, np.asarray(seat_of_slot, np.int64), values, self.unit,
                          base if base is not None else out[:1], base is not None, out, *sums)
            s, s2, d, d2 = (a.tolist() for a in sums)
            self._merge(n, s, s2)
            if base is not None:
                diff._merge(n, d, d2)
            return out
        out[:, :players] = np.rint(shares[:, seat_of_slot] * self.unit)
        out[:, players:2 * players] = scores[:, seat_of_slot] * self.unit
        out[:, 2 * players:] = np.rint(values.T * self.unit)
        self.add(out, base, diff)
        return out

    def _merge(self, n: int, s, s2) -> None:
        self.n += n
        self.s = [a + int(b) for a, b in zip(self.s, s)]
        self.s2 = [a + int(b) for a, b in zip(self.s2, s2)]

    def merge(self, other: "ExactSums") -> None:
        self._merge(other.n, other.s, other.s2)

    def totals(self) -> tuple[np.ndarray, np.ndarray]:
        """The sums and sums of squares in the values' own scale (floats)."""
        u = self.unit
        return (np.array([s / u for s in self.s], float), np.array([s / (u * u) for s in self.s2], float))

    def mean_se(self) -> tuple[np.ndarray, np.ndarray]:
        total, total_sq = self.totals()
        return mean_se(total, total_sq, self.n)


def _python_sums(rows: np.ndarray) -> tuple[list[int], list[int]]:
    """Per column, the sum and the sum of squares with Python integers (exact at any size)."""
    cols = rows.T.tolist()
    return [sum(c) for c in cols], [sum(x * x for x in c) for c in cols]
