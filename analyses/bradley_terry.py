"""Bradley-Terry strengths from a round-robin of two-player games (the ladders of every game)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.sparse.csgraph import connected_components

from sim.core.stats import Z95, wilson
from strategies.play import play

from .common import save_figure


def bradley_terry(wins: np.ndarray, games: np.ndarray, anchor: int = 0):
    """Bradley-Terry strengths (log scale, strategy `anchor` = 0) and their standard errors from
    the Fisher information (so an SE is that of the difference from the anchor).
    wins[a, b]: games a won against b (draws count half); games[a, b] = games[b, a]: games
    between them. Each pairing gets half a win each way (a weak prior), so a strategy that won
    every game gets a finite strength instead of an infinite one; with thousands of games it
    changes nothing else. A strategy linked to the anchor by no chain of games played has no
    strength on the anchor's scale: NaN, with a NaN error."""
    k = wins.shape[0]
    if not 0 <= anchor < max(k, 1):
        raise ValueError(f"anchor must be a strategy index from 0 to {k - 1}, got {anchor}")
    if k < 2:
        return np.zeros(k), np.zeros(k)
    if anchor:
        order = [anchor] + [i for i in range(k) if i != anchor]
        s, se = bradley_terry(wins[np.ix_(order, order)], games[np.ix_(order, order)])
        back = np.argsort(order)
        return s[back], se[back]
    played = games > 0
    _, group = connected_components(played, directed=False)
    linked = np.flatnonzero(group == group[0])
    if linked.size < k:
        s, se = np.full(k, np.nan), np.full(k, np.nan)
        s[linked], se[linked] = bradley_terry(wins[np.ix_(linked, linked)], games[np.ix_(linked, linked)])
        return s, se
    wins = wins + 0.5 * played
    games = games + 1.0 * played

    def nll(theta):
        s = np.concatenate([[0.0], theta])
        d = s[:, None] - s[None, :]
        lose = wins / (1 + np.exp(d))          # wins[a, b] x P(a loses to b)
        grad = lose.sum(axis=0) - lose.sum(axis=1)
        return np.logaddexp(0, -d).ravel() @ wins.ravel(), grad[1:]

    # the exact gradient and a tight tolerance: the optimum, not where BFGS happened to stop, so
    # the report is the same to the last digit on any machine
    fit = minimize(nll, np.zeros(k - 1), jac=True, method="BFGS", options={"gtol": 1e-10})
    s = np.concatenate([[0.0], fit.x])
    p = 1 / (1 + np.exp(-(s[:, None] - s[None, :])))
    info = np.zeros((k, k))
    w = games * p * (1 - p)
    np.fill_diagonal(w, 0)
    info -= w
    np.fill_diagonal(info, w.sum(axis=1))
    cov = np.linalg.pinv(info[1:, 1:])
    se = np.concatenate([[0.0], np.sqrt(np.clip(np.diag(cov), 0, None))])
    return s, se


def round_robin(game: str, rules, labels: list[str], n_games, seed: int):
    """Every strategy against every other in both seats of a two-player game, on the same deals
    (n_games[a][b] games per seating). Returns (matrix, ratings): one row per ordered pair with
    the row strategy's win share and its Wilson interval; one row per strategy with its
    Bradley-Terry strength (the first strategy = 0), its Elo-scale value and its strength
    measured from the greedy (when one is in the ladder)."""
    k = len(labels)
    wins, games = np.zeros((k, k)), np.zeros((k, k))
    for a, sa in enumerate(labels):
        for b, sb in enumerate(labels):
            if a == b:
                continue
            n = n_games[a][b]
            # a moves first here; the mirror pairing (b first) is played on the same deals
            t = play(game, rules, [sa, sb], games=n, seed=seed, progress=False, partial=False).table()
            wins[a, b] += t.win_share.iloc[0] * n
            wins[b, a] += t.win_share.iloc[1] * n
            games[a, b] += n
            games[b, a] += n
    rows = []
    for a in range(k):
        for b in range(k):
            if a != b:
                low, high = wilson(wins[a, b], games[a, b])
                rows.append({"strategy": labels[a], "opponent": labels[b], "games": int(games[a, b]),
                             "win_share": wins[a, b] / games[a, b], "win_ci_low": float(low),
                             "win_ci_high": float(high)})
    matrix = pd.DataFrame(rows)
    rating, se = bradley_terry(wins, games)
    greedy = labels.index("greedy") if "greedy" in labels else 0
    vs_greedy, vs_greedy_se = bradley_terry(wins, games, anchor=greedy)
    ratings = pd.DataFrame({"strategy": labels, "bradley_terry": rating, "se": se,
                            "ci_low": rating - Z95 * se, "ci_high": rating + Z95 * se,
                            "elo": 400 / np.log(10) * rating, "elo_se": 400 / np.log(10) * se,
                            "vs_greedy": vs_greedy, "vs_greedy_se": vs_greedy_se})
    # 12 significant digits: the standard errors come from LAPACK, whose last bits differ from
    # machine to machine (CPU kernels); what is written must not
    floats = ratings.columns[1:]
    ratings[floats] = ratings[floats].map(lambda v: float(f"{v:.12g}"))
    return matrix, ratings


def plot_ladder(matrix, ratings, labels, path, title: str) -> None:
    """The win-share matrix and the strengths with their 95% intervals."""
    k = len(labels)
    grid = np.full((k, k), np.nan)
    for r in matrix.itertuples():
        grid[labels.index(r.strategy), labels.index(r.opponent)] = r.win_share
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8), gridspec_kw={"width_ratios": [1.2, 1]})
    im = axes[0].imshow(grid, vmin=0, vmax=1, cmap="RdBu")
    for i in range(k):
        for j in range(k):
            if i != j:
                axes[0].text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=9)
    axes[0].set_xticks(range(k), labels, rotation=20, fontsize=8)
    axes[0].set_yticks(range(k), labels, fontsize=8)
    axes[0].set_title("row's win share against column")
    fig.colorbar(im, ax=axes[0], fraction=0.046)
    axes[1].errorbar(ratings.bradley_terry, range(k), xerr=Z95 * ratings.se, fmt="o", capsize=3)
    axes[1].set_yticks(range(k), labels, fontsize=8)
    axes[1].set_xlabel("Bradley-Terry strength (log-odds, random = 0), 95% intervals")
    axes[1].grid(alpha=0.3)
    fig.suptitle(title)
    save_figure(fig, path)
