"""Tournaments: every strategy in every seat equally often, on the same shuffled decks.

With S strategies and P seats, each deal is played S times, once per rotation: in rotation r,
seat j plays strategy (j + r) mod S. Every strategy sits in every seat exactly once per deal
(or, when S > P, sits out S - P rotations), and every rotation sees the same cards (the deck
streams depend only on the seed and the deal), so differences are paired on common random
numbers. Head-to-head: for each pair of strategies at the same table, the share of games in
which one outscored the other (ties count half) and the mean score difference.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from sim.core.batch import Batch
from sim.core.runner import RunInfo
from sim.core.stats import WIN_UNIT, mean_se, win_units, wilson

from .play import play
from .registry import Bound, parse_spec


@dataclasses.dataclass
class TournamentResult:
    strategies: list[Bound]
    deals: int
    seed: int
    # exact integer sums, so results do not depend on chunking
    games: np.ndarray        # seat-games per strategy
    score: np.ndarray
    score_sq: np.ndarray
    win_units: np.ndarray    # shares of the win in units of 1 / WIN_UNIT
    pair_n: np.ndarray       # [a, b] games with a and b at the same table (a != b)
    pair_half_wins: np.ndarray   # [a, b] 2 x (games a outscored b) + ties
    pair_diff: np.ndarray
    pair_diff_sq: np.ndarray
    infos: list[RunInfo]

    @property
    def wins(self) -> np.ndarray:
        return self.win_units / WIN_UNIT

    @property
    def pair_wins(self) -> np.ndarray:
        return self.pair_half_wins / 2

    @property
    def interrupted(self) -> bool:
        return any(i.interrupted for i in self.infos)

    def table(self) -> pd.DataFrame:
        """One row per strategy: strategy, games, mean_score, se_score, win_share, Wilson CI."""
        mean, se = mean_se(self.score, self.score_sq, self.games)
        low, high = wilson(self.wins, self.games)
        return pd.DataFrame({"strategy": [b.label for b in self.strategies],
                             "games": self.games.astype(np.int64),
                             "mean_score": mean, "se_score": se,
                             "win_share": self.wins / np.maximum(self.games, 1),
                             "win_ci_low": low, "win_ci_high": high})

    def head_to_head(self) -> pd.DataFrame:
        """Long form: strategy, opponent, games, win_rate (+ Wilson CI), mean_diff (+ SE)."""
        rows = []
        labels = [b.label for b in self.strategies]
        for a in range(len(labels)):
            for b in range(len(labels)):
                n = self.pair_n[a, b]
                if a == b or n == 0:
                    continue
                low, high = wilson(self.pair_wins[a, b], n)
                diff, se = mean_se(self.pair_diff[a, b], self.pair_diff_sq[a, b], n)
                rows.append({"strategy": labels[a], "opponent": labels[b], "games": int(n),
                             "win_rate": self.pair_wins[a, b] / n, "win_ci_low": float(low),
                             "win_ci_high": float(high), "mean_diff": float(diff),
                             "se_diff": float(se)})
        return pd.DataFrame(rows)

    def matrix(self) -> pd.DataFrame:
        """Head-to-head win rates as a matrix (row beats column)."""
        h = self.head_to_head()
        labels = [b.label for b in self.strategies]
        m = h.pivot(index="strategy", columns="opponent", values="win_rate") if len(h) else pd.DataFrame()
        return m.reindex(index=labels, columns=labels)


def tournament(game: str, rules, specs: list, players: int, *, deals: int, seed: int = 0,
               threads: int | None = None, progress: bool | None = None, engine: str = "auto",
               chunk: int | None = None, compile_plugins: str = "auto") -> TournamentResult:
    strategies = [parse_spec(game, s) if isinstance(s, str) else s for s in specs]
    S = len(strategies)
    res = TournamentResult(strategies, deals, seed, *(np.zeros(S, np.int64) for _ in range(4)),
                           *(np.zeros((S, S), np.int64) for _ in range(4)), infos=[])
    for rot in range(S):
        seat_strategy = [(j + rot) % S for j in range(players)]

        def collect(batch: Batch, idx=seat_strategy) -> None:
            scores = batch.scores.astype(np.int64)
            units = win_units(batch.shares)
            for j, a in enumerate(idx):
                res.games[a] += batch.games
                res.score[a] += scores[:, j].sum()
                res.score_sq[a] += (scores[:, j] ** 2).sum()
                res.win_units[a] += units[:, j].sum()
                for k, b in enumerate(idx):
                    if a == b:
                        continue
                    d = scores[:, j] - scores[:, k]
                    res.pair_n[a, b] += batch.games
                    res.pair_half_wins[a, b] += 2 * (d > 0).sum() + (d == 0).sum()
                    res.pair_diff[a, b] += d.sum()
                    res.pair_diff_sq[a, b] += (d * d).sum()

        out = play(game, rules, [strategies[i] for i in seat_strategy], games=deals, seed=seed,
                   threads=threads, progress=progress, engine=engine, on_batch=collect, chunk=chunk,
                   compile_plugins=compile_plugins)
        res.infos.append(out.info)
        if out.info.interrupted:
            break
    return res
