"""What every reference engine shares: the decision call, the batch loop, the turn limit.

A reference engine is the executable rulebook: a game's own code deals and plays one game,
asking `Decider` for every decision, and returns a `GameResult`. `play_batch` plays
independent seeded games through it into a `Batch`, the same shape as the fast engine's.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

import numpy as np

from .batch import Batch, StrategyError
from .observation import N_LEGAL, illegal_message
from .rng import new_state, player_stream

# A game that has not ended after this many turns is an engine bug, not a long game: both
# engines of every game stop there with the same error.
MAX_TURNS = 10_000


def endless_game(game: int) -> RuntimeError:
    return RuntimeError(f"game {game} did not end after {MAX_TURNS} turns")


@dataclasses.dataclass
class GameResult:
    scores: Sequence[int]          # final score per seat
    shares: Sequence[float]        # share of the win per seat (ties split)
    extras: Sequence[int] = ()     # the game's per-game columns, in its EXTRAS order


class Decider:
    """The decision call of one game: observation -> the seat's strategy -> a checked index.

    Each seat draws from its own keyed stream (seed, game, player_stream(seat)). With one legal
    action the strategy is not called (and draws nothing). A strategy that raises or returns
    anything but an index of the legal list stops the game with a `StrategyError` naming the
    seat, the game index and `where` (the game's words for the decision)."""

    def __init__(self, kernels, params, seed: int, game: int, players: int):
        self.kernels, self.params, self.game = kernels, params, game
        self.rngs = [new_state(seed, game, player_stream(p)) for p in range(players)]

    def __call__(self, seat: int, obs: np.ndarray, where: str) -> int:
        n = int(obs[N_LEGAL])
        if n == 1:
            return 0
        try:
            i = self.kernels[seat](obs, self.params[seat], self.rngs[seat])
        except Exception as e:  # a plugin's bug, reported with what replays it
            raise StrategyError(seat, self.game, where, f"raised {type(e).__name__}: {e}") from e
        if not isinstance(i, (int, np.integer)) or not 0 <= i < n:
            raise StrategyError(seat, self.game, where, illegal_message(i, n))
        return int(i)


def play_batch(play_game: Callable[[int, Decider], GameResult], extras: Sequence[str], players: int,
               seed: int, first_game: int, n_games: int, kernels, params) -> Batch:
    """Games first_game .. first_game + n_games - 1; `play_game(game, decide)` plays one."""
    scores = np.zeros((n_games, players), np.int64)
    shares = np.zeros((n_games, players), np.float64)
    columns = np.zeros((n_games, len(extras)), np.int64)
    for i in range(n_games):
        game = first_game + i
        r = play_game(game, Decider(kernels, params, seed, game, players))
        scores[i], shares[i] = r.scores, r.shares
        if len(extras):
            columns[i] = r.extras
    return Batch(first_game, scores, shares, {k: columns[:, j].copy() for j, k in enumerate(extras)})


def checked_games(play_game: Callable, check_state: Callable, check_end: Callable, rules, players: int,
                  seed: int, first_game: int, n_games: int, kernels, params) -> int:
    """A game's invariants hook (sim/core/game.py `check_invariants`): play the games by
    `play_game(rules, players, seed, game, decide, on_decision=...)`, calling `check_state(g)` after
    every decision and `check_end(g)` on each finished game; returns the decisions."""
    count = 0

    def on_decision(g, seat, decision, action):
        nonlocal count
        count += 1
        check_state(g)

    for game in range(first_game, first_game + n_games):
        decide = Decider(kernels, params, seed, game, players)
        check_end(play_game(rules, players, seed, game, decide, on_decision=on_decision))
    return count
