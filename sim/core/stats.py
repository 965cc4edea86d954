"""Statistics with their uncertainty: Wilson intervals, standard errors, paired differences."""
from __future__ import annotations

import dataclasses

from statistics import NormalDist

import numpy as np

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
        s = scores.astype(np.int64)
        self.games += scores.shape[0]
        self.score += s.sum(axis=0)
        self.score_sq += (s * s).sum(axis=0)
        self.win_units += win_units(shares).sum(axis=0)

    @property
    def wins(self) -> np.ndarray:
        return self.win_units / WIN_UNIT

    def summary(self):
        """(mean, se, win_share, ci_low, ci_high) arrays per seat."""
        mean, se = mean_se(self.score, self.score_sq, self.games)
        win = self.wins / max(self.games, 1)
        low, high = wilson(self.wins, self.games)
        return mean, se, win, low, high
