"""The result of playing a block of games, the same shape for every game and engine."""
from __future__ import annotations

import dataclasses

import numpy as np


@dataclasses.dataclass
class Batch:
    """Per-game results of games `first_game .. first_game + n - 1`.

    scores[g, seat]: final score; shares[g, seat]: share of the win (ties split, rows sum to
    1, or to 0 when a tie rule leaves no winner); extras[name][g]: per-game columns a game adds.
    """
    first_game: int
    scores: np.ndarray
    shares: np.ndarray
    extras: dict[str, np.ndarray]

    @property
    def games(self) -> int:
        return self.scores.shape[0]

    def winners(self) -> np.ndarray:
        """Seat with the whole win, or -1 when the win is shared or nobody wins."""
        best = self.shares.argmax(axis=1)
        whole = self.shares[np.arange(self.games), best] == 1.0
        return np.where(whole, best, -1)

    @staticmethod
    def concat(batches: list["Batch"]) -> "Batch":
        return Batch(batches[0].first_game,
                     np.concatenate([b.scores for b in batches]),
                     np.concatenate([b.shares for b in batches]),
                     {k: np.concatenate([b.extras[k] for b in batches]) for k in batches[0].extras})


class StrategyError(RuntimeError):
    """A strategy raised or returned an illegal action; carries what is needed to replay it."""

    def __init__(self, seat: int, game: int, decision: str, cause: str):
        self.seat, self.game, self.decision, self.cause = seat, game, decision, cause
        self.record = ""    # a playthrough's text up to the failing decision
        super().__init__(f"seat {seat}, game index {game}, {decision}: {cause}")
