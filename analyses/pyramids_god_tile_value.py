"""What is each God tile worth in Pyramids? The headline analysis of the game.

For each player count, round and tile: one seat is made to take the tile in that round (when it
is still there at its turn to choose) and everything else is played by the strategy; the same
deals are played with the strategy's own choice. The paired difference of the seat's final score
and of its win share is the value of taking the tile instead of what the strategy takes.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.core import output
from sim.core.stats import Z95
from strategies.play import resolve_rules

from .common import markdown_table, save_figure
from .pyramids_common import GAME, games_of, paired, tile_at, tile_name
from .registry import Section

NAME = "pyramids-god-tile-value"
TITLE = "Pyramids: what each God tile is worth"
SUMMARY = ("The value of taking each God tile in each round instead of the greedy's own choice, "
           "by player count: paired final-score and win-share differences with 95% intervals.")
DEFAULT_SEED = 2017
STRATEGY = "greedy"
PLAYERS = (2, 3, 4, 5)
GAMES = 3_000            # per player count, round and tile (and for each baseline)
QUICK_GAMES = 30


def base_rules(deck: str = ""):
    """The published rules with a random first player, so the forced seat's place in the tile
    order varies from game to game (with seat 0 always first, round r's order would be fixed)."""
    rules = resolve_rules(GAME, "rulebook-first-player")
    return rules.replace(deck=deck) if deck else rules


def tile_values(rules, players: int, games: int, seed: int, rounds=range(1, 11),
                strategy: str = STRATEGY) -> pd.DataFrame:
    """One row per (round, tile): games where the tile was there to take, how often the strategy
    took it itself, and the paired score and win-share differences (forced - own choice)."""
    base = games_of(rules, [strategy] * players, games, seed)
    rows = []
    for r in rounds:
        for tile in rules.tiles(players):
            forced = games_of(rules, [f"force-tile:tile={tile},round={r}"] + [strategy] * (players - 1),
                              games, seed)
            took = tile_at(forced["tiles_0"], r) == tile        # the tile was there to take
            own = tile_at(base["tiles_0"], r) == tile
            d, se = paired(forced["scores"][took, 0], base["scores"][took, 0])
            w, wse = paired(forced["shares"][took, 0], base["shares"][took, 0])
            rows.append({"players": players, "round": r, "tile": tile, "god": tile_name(tile),
                         "games": int(games), "available": int(took.sum()),
                         "own_choice_share": float(own[took].mean()) if took.any() else float("nan"),
                         "score_diff": d, "score_se": se, "win_diff": w, "win_se": wse})
    return pd.DataFrame(rows)


def averages(df: pd.DataFrame) -> pd.DataFrame:
    """Each tile's value averaged over the rounds (the rounds are independent runs: the SE of
    the mean is the root of the summed variances over the number of rounds)."""
    out = []
    for (players, tile, god), sub in df.groupby(["players", "tile", "god"], sort=True):
        sub = sub.dropna(subset=["score_se"])
        k = len(sub)
        out.append({"players": players, "tile": tile, "god": god, "rounds": k,
                    "score_diff": sub.score_diff.mean(),
                    "score_se": float(np.sqrt((sub.score_se ** 2).sum()) / k) if k else np.nan,
                    "win_diff": sub.win_diff.mean(),
                    "win_se": float(np.sqrt((sub.win_se ** 2).sum()) / k) if k else np.nan})
    return pd.DataFrame(out)


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    games = QUICK_GAMES if quick else GAMES
    rules = base_rules()
    df = pd.concat([tile_values(rules, p, games, seed) for p in PLAYERS], ignore_index=True)
    avg = averages(df)
    files = [f"{NAME}.csv", f"{NAME}-average.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    output.write_csv(avg, out_dir / files[1])
    _plot(df, out_dir / files[2])
    key = avg.pivot(index="god", columns="players", values="score_diff")
    se = avg.pivot(index="god", columns="players", values="score_se")
    table = pd.DataFrame({"God tile": key.index})
    for p in key.columns:
        table[f"{p} players"] = [f"{v:+.2f} ± {Z95 * s:.2f}" if np.isfinite(v) else "-"
                                 for v, s in zip(key[p], se[p])]
    md = f"""## {TITLE}

![God tile value]({NAME}.png)

In each round r and for each God tile X, seat 0 is made to take X in round r (when X is still
on offer at its turn to choose: the `available` games) and plays `{STRATEGY}` otherwise; every
other seat, and seat 0 in every other decision, plays `{STRATEGY}`. The same deals are played
with seat 0 taking its own choice, so the difference of its final score (and win share) is paired
game by game: the value of taking X in round r instead of what the greedy takes. It is 0 in the
games where the greedy takes X anyway (`own_choice_share`). The first player is drawn at random
(`first_player=random`), so seat 0's place in the tile order varies. 95% intervals are
1.96 standard errors of the paired difference.

What it measures, and what not: the value of a tile **to this greedy player among greedy
players** (a one-ply builder), on the shipped **reconstructed deck**; not its value to a perfect
player, who would plan around the tile. Negative values mean the greedy's own choice was better.
The heat map is the score difference; the win-share differences are in `{files[0]}`.

Average value of each tile over the 10 rounds (final-score points, ± 95% interval):

{markdown_table(table)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {games:,} per player count, round and tile (baselines the same)
- Rules: preset `rulebook-first-player` (published, random first player); deck: the shipped
  reconstruction
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _plot(df: pd.DataFrame, path: Path) -> None:
    fig, axes = plt.subplots(1, len(PLAYERS), figsize=(4.2 * len(PLAYERS), 3.8), squeeze=False)
    lim = max(1.0, float(np.nanmax(np.abs(df.score_diff))))
    for ax, p in zip(axes[0], PLAYERS):
        sub = df[df.players == p]
        grid = sub.pivot(index="god", columns="round", values="score_diff")
        order = sub.drop_duplicates("tile").sort_values("tile").god
        grid = grid.reindex(order)
        im = ax.imshow(grid.values, cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                v = grid.values[i, j]
                if np.isfinite(v):
                    ax.text(j, i, f"{v:+.1f}", ha="center", va="center", fontsize=6)
        ax.set_xticks(range(grid.shape[1]), grid.columns)
        ax.set_yticks(range(grid.shape[0]), grid.index)
        ax.set_xlabel("round")
        ax.set_title(f"{p} players")
    fig.colorbar(im, ax=axes[0].tolist(), fraction=0.02, label="score: forced - own choice")
    fig.suptitle("Pyramids: value of taking each God tile in each round (greedy, reconstructed deck)")
    save_figure(fig, path)
