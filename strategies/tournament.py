"""Tournaments: every strategy in every seat equally often, on the same shuffled decks.

With S strategies and P seats, each deal is played S times, once per rotation: in rotation r,
seat j plays strategy (j + r) mod S. Every strategy sits in every seat exactly once per deal
(or, when S > P, sits out S - P rotations), and every rotation sees the same cards (the deck
streams depend only on the seed and the deal), so differences are paired on common random
numbers. Head-to-head: for each pair of strategies at the same table, the share of games in
which one did better than the other by what decides the game, its share of the win (the
per-game shares the engine returns: 1 for a win, 1/k for a win shared by k, 0 for a loss): a
beats b in a game when a's share is higher, equal shares count half. Not the score: a CIV
Hegemony wins whatever the points, and two seats that both lost are even. In two-player games
a strategy's head-to-head is its win share. Also the mean score difference (a score, not a
result).

Team play (the rules' `team_seats`, e.g. CIV's seats 0+2 against 1+3): a seat's result is its
team's share of the win, and a strategy counts once per game, with the mean over its seats of
their results and scores (a strategy that fills a team is that team); so a strategy's win share
is the share of its games its team won (fair: 1 / teams) and its interval counts games, not
seats. Head-to-head likewise, on the teams' shares: one count per game, the mean over the
pairs of their seats (teammates are even).
"""
from __future__ import annotations

import dataclasses
import math

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
    pair_half_wins: np.ndarray   # [a, b] 2 x (games a's win share > b's) + equal shares
    pair_diff: np.ndarray
    pair_diff_sq: np.ndarray
    infos: list[RunInfo]
    teams: tuple = ()        # the rules' team_seats; () without team play
    # team play: the per-game means over a strategy's seats are summed times `scale` (pairs:
    # scale^2), lcm(1..players), so that they stay whole numbers
    scale: int = 1

    @property
    def wins(self) -> np.ndarray:
        return self.win_units / (WIN_UNIT * self.scale)

    @property
    def pair_wins(self) -> np.ndarray:
        return self.pair_half_wins / (2 * self.scale ** 2)

    @property
    def interrupted(self) -> bool:
        return any(i.interrupted for i in self.infos)

    def table(self) -> pd.DataFrame:
        """One row per strategy: strategy, games, mean_score, se_score, win_share, Wilson CI."""
        mean, se = mean_se(self.score / self.scale, self.score_sq / self.scale ** 2, self.games)
        low, high = wilson(self.wins, self.games)
        return pd.DataFrame({"strategy": [b.label for b in self.strategies],
                             "games": self.games.astype(np.int64),
                             "mean_score": mean, "se_score": se,
                             "win_share": self.wins / np.maximum(self.games, 1),
                             "win_ci_low": low, "win_ci_high": high})

    def head_to_head(self) -> pd.DataFrame:
        """Long form: strategy, opponent, games, win_rate (the share of shared games in which
        the strategy's win share beat the opponent's, equal shares half; + Wilson CI), mean_diff
        (the score difference, + SE)."""
        rows = []
        labels = [b.label for b in self.strategies]
        for a in range(len(labels)):
            for b in range(len(labels)):
                n = self.pair_n[a, b]
                if a == b or n == 0:
                    continue
                low, high = wilson(self.pair_wins[a, b], n)
                k = self.scale ** 2
                diff, se = mean_se(self.pair_diff[a, b] / k, self.pair_diff_sq[a, b] / k ** 2, n)
                rows.append({"strategy": labels[a], "opponent": labels[b], "games": int(n),
                             "win_rate": self.pair_wins[a, b] / n, "win_ci_low": float(low),
                             "win_ci_high": float(high), "mean_diff": float(diff),
                             "se_diff": float(se)})
        return pd.DataFrame(rows)

    def matrix(self) -> pd.DataFrame:
        """Head-to-head win rates as a matrix (row beats column: a higher share of the win)."""
        h = self.head_to_head()
        labels = [b.label for b in self.strategies]
        m = h.pivot(index="strategy", columns="opponent", values="win_rate") if len(h) else pd.DataFrame()
        return m.reindex(index=labels, columns=labels)


def tournament(game: str, rules, specs: list, players: int, *, deals: int, seed: int = 0,
               threads: int | None = None, progress: bool | None = None, engine: str = "auto",
               chunk: int | None = None, compile_plugins: str = "auto") -> TournamentResult:
    strategies = [parse_spec(game, s) if isinstance(s, str) else s for s in specs]
    S = len(strategies)
    teams = rules.team_seats(players)
    res = TournamentResult(strategies, deals, seed, *(np.zeros(S, np.int64) for _ in range(4)),
                           *(np.zeros((S, S), np.int64) for _ in range(4)), infos=[], teams=teams,
                           scale=math.lcm(*range(1, players + 1)) if teams else 1)
    for rot in range(S):
        seat_strategy = [(j + rot) % S for j in range(players)]
        out = play(game, rules, [strategies[i] for i in seat_strategy], games=deals, seed=seed,
                   threads=threads, progress=progress, engine=engine,
                   on_batch=lambda batch, idx=seat_strategy: _collect(res, batch, idx), chunk=chunk,
                   compile_plugins=compile_plugins, batch_extras=False)
        res.infos.append(out.info)
        if out.info.interrupted:
            break
    return res


def _collect(res: TournamentResult, batch: Batch, idx: list[int]) -> None:
    """Add one batch of games in which seat j played strategy idx[j]."""
    scores = batch.scores.astype(np.int64)
    units = win_units(batch.shares)
    if res.teams:
        for team in res.teams:          # every seat's result is its team's
            units[:, list(team)] = units[:, list(team)].sum(axis=1, keepdims=True)
        groups = [[j for j, x in enumerate(idx) if x == a] for a in dict.fromkeys(idx)]
    else:
        groups = [[j] for j in range(len(idx))]     # every seat counts
    L = res.scale
    for J in groups:
        a, w = idx[J[0]], L // len(J)
        s = scores[:, J].sum(axis=1) * w
        res.games[a] += batch.games
        res.score[a] += s.sum()
        res.score_sq[a] += (s * s).sum()
        res.win_units[a] += units[:, J].sum() * w
    for Ja in groups:
        for Jb in groups:
            a, b = idx[Ja[0]], idx[Jb[0]]
            if a == b:
                continue
            w = L * L // (len(Ja) * len(Jb))
            d = sum(scores[:, j] - scores[:, k] for j in Ja for k in Jb) * w
            # what decides the game: the share of the win (the team's, in team play)
            half = sum(2 * (units[:, j] > units[:, k]) + (units[:, j] == units[:, k])
                       for j in Ja for k in Jb) * w
            res.pair_n[a, b] += batch.games
            res.pair_half_wins[a, b] += half.sum()
            res.pair_diff[a, b] += d.sum()
            res.pair_diff_sq[a, b] += (d * d).sum()
