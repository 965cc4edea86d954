"""The Schotten Totten strategy ladder: round-robin, win-share matrix, Bradley-Terry ratings."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.sparse.csgraph import connected_components

from sim.core import output
from sim.core.stats import Z95, wilson
from strategies.play import play, resolve_rules

from .common import markdown_table, save_figure
from .registry import Section
from .schotten_totten_first_player import available, quick_games

NAME = "schotten-totten-ladder"
TITLE = "Schotten Totten: the strategy ladder"
SUMMARY = ("Round-robin of every strategy against every other, seats swapped on the same deals: "
           "win-share matrix with intervals and a Bradley-Terry rating per strategy.")
DEFAULT_SEED = 2001
PRESET = "base"
# (strategy, games per seating against a fast opponent); a pair plays the smaller budget.
# The two searchers get the same budget: 200 playouts per play decision (25 for each of the
# greedy's 8 best actions; 200 tree iterations over the same 8 root actions).
LADDER = [("random", 20_000), ("greedy", 2_000), ("flat-mc:sims=25,prune=8", 30),
          ("ismcts:iters=200,prune=8", 30)]


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


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    ladder = available(LADDER)
    labels = [s for s, _ in ladder]
    k = len(ladder)
    rules = resolve_rules("schotten-totten", PRESET)
    wins, games = np.zeros((k, k)), np.zeros((k, k))
    for a, (sa, na) in enumerate(ladder):
        for b, (sb, nb) in enumerate(ladder):
            if a == b:
                continue
            n = quick_games(min(na, nb)) if quick else min(na, nb)
            # a moves first here; the mirror pairing (b first) is played on the same deals
            t = play("schotten-totten", rules, [sa, sb], games=n, seed=seed, progress=False,
                     partial=False).table()
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
    files = [f"{NAME}.csv", f"{NAME}-ratings.csv", f"{NAME}.png"]
    output.write_csv(matrix, out_dir / files[0])
    output.write_csv(ratings, out_dir / files[1])
    _plot(matrix, ratings, labels, out_dir / files[2])
    key = pd.DataFrame({"strategy": labels,
                        "Bradley-Terry strength ± SE": [f"{r:+.3f} ± {s:.3f}" for r, s in zip(rating, se)],
                        "Elo-scale ± SE": [f"{e:+.0f} ± {s:.0f}" for e, s in
                                           zip(ratings.elo, ratings.elo_se)],
                        "strength − greedy's ± SE": [f"{r:+.3f} ± {s:.3f}" for r, s in
                                                     zip(vs_greedy, vs_greedy_se)]})
    md = f"""## {TITLE}

![ladder]({NAME}.png)

Every strategy plays every other in both seats on the same deals (preset `{PRESET}`); a cell is
the row strategy's win share against the column (draws half) with its 95% Wilson interval in
`{files[0]}`. The Bradley-Terry model, fitted by maximum likelihood to all games (plus half a
win each way per pairing, so that a clean sweep gives a finite strength), gives each strategy a
strength on a log-odds scale (random = 0; Elo scale = 400/ln 10 times it), with standard errors
from the Fisher information. The SE against random is large because random never wins (its
strength is only bounded); the last column measures every strategy from the greedy instead,
whose SE is that of the difference. The two searchers get the same budget, 200 playouts per play
decision (flat-mc: 25 for each of the greedy's 8 best actions; ismcts: 200 iterations over the
same 8 root actions, with the greedy's 3 best actions at each of its own decisions below and the
greedy's best reply at the opponent's), and play few games here (each of their games takes about
half a second on a core, and the whole report should take minutes, not hours), hence their wide
intervals. A longer run at 800 playouts per play decision (flat-mc's default: 100 for each of the
greedy's 8 best actions; ismcts's default is 1000 iterations):
`meeplelab tournament schotten-totten -s flat-mc -s ismcts:iters=800 -n 200`.

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games per pairing and seating: the smaller budget of the two strategies
  ({', '.join(f'`{s}`: {quick_games(n) if quick else n:,}' for s, n in ladder)})
- Rules: preset `{PRESET}`
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _plot(matrix, ratings, labels, path: Path) -> None:
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
    fig.suptitle("Schotten Totten strategy ladder (base game)")
    save_figure(fig, path)
