"""Where do the points come from in Pyramids? Score shares by edifice."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.core import output
from sim.core.stats import Z95
from strategies.play import resolve_rules

from .common import markdown_table, save_figure
from .pyramids_common import GAME, PARTS, games_of
from .registry import Section

NAME = "pyramids-scoring-breakdown"
TITLE = "Pyramids: where the points come from"
SUMMARY = ("Mean points per seat from the pyramid's groups, the bonus, the obelisk, the tomb "
           "majorities and the glyphs, and their share of the score, per strategy and player count.")
DEFAULT_SEED = 2019
PLAYERS = (2, 3, 4, 5)
STRATEGIES = (("random", 50_000), ("greedy", 10_000))
QUICK_GAMES = 40


def breakdown(rules, spec: str, players: int, games: int, seed: int) -> list[dict]:
    """Self-play of `spec`: per part, the mean points of a seat (all seats pooled; the SE from the
    per-game means over the seats, as seats of one game are not independent)."""
    g = games_of(rules, [spec] * players, games, seed)
    total = g["scores"].sum(axis=1) / players
    rows = []
    for part in PARTS:
        per_game = np.stack([g[f"{part}_{s}"] for s in range(players)], axis=1).mean(axis=1)
        rows.append({"players": players, "strategy": spec, "games": games, "part": part,
                     "mean_points": per_game.mean(), "se": per_game.std(ddof=1) / np.sqrt(games),
                     "share_of_score": per_game.sum() / total.sum()})
    rows.append({"players": players, "strategy": spec, "games": games, "part": "total",
                 "mean_points": total.mean(), "se": total.std(ddof=1) / np.sqrt(games),
                 "share_of_score": 1.0})
    return rows


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    rules = resolve_rules(GAME, "published")
    rows = []
    for spec, n in STRATEGIES:
        for p in PLAYERS:
            rows += breakdown(rules, spec, p, QUICK_GAMES if quick else n, seed)
    df = pd.DataFrame(rows)
    files = [f"{NAME}.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    _plot(df, out_dir / files[1])
    wide = df[df.part != "total"].copy()
    wide["cell"] = [f"{m:.2f} ± {Z95 * s:.2f} ({100 * sh:.0f}%)" for m, s, sh in
                    zip(wide.mean_points, wide.se, wide.share_of_score)]
    key = wide.pivot_table(index=["strategy", "players"], columns="part", values="cell",
                           aggfunc="first").reindex(columns=list(PARTS)).reset_index()
    totals = df[df.part == "total"].set_index(["strategy", "players"])
    key["total"] = [f"{totals.loc[(s, p), 'mean_points']:.2f}" for s, p in zip(key.strategy, key.players)]
    md = f"""## {TITLE}

![scoring breakdown]({NAME}.png)

Self-play: every seat plays the strategy. Mean points of a seat from each source (± 1.96 SE over
games; the seats of a game are pooled) and, in brackets, that source's share of all points
scored: pyramid = the largest group of each colour plus the largest once more; bonus = 10 when
every colour has a group of 3; obelisk = stages of its most frequent colour; tomb = colour
majorities; glyph = 2 per glyph in its matching edifice (in all three). Deck: the shipped
reconstruction, whose glyph count (a third of the cards) is a guess: read the glyph column with
that in mind.

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {', '.join(f'`{s}` {QUICK_GAMES if quick else n:,}' for s, n in STRATEGIES)} per player count
- Rules: preset `published`
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _plot(df: pd.DataFrame, path: Path) -> None:
    strategies = list(dict.fromkeys(df.strategy))
    fig, axes = plt.subplots(1, len(strategies), figsize=(6 * len(strategies), 4), squeeze=False)
    for ax, s in zip(axes[0], strategies):
        sub = df[(df.strategy == s) & (df.part != "total")]
        bottom = np.zeros(len(PLAYERS))
        for part in PARTS:
            v = sub[sub.part == part].set_index("players").reindex(PLAYERS).mean_points.to_numpy()
            ax.bar([str(p) for p in PLAYERS], v, bottom=bottom, label=part)
            bottom += v
        ax.set_xlabel("players")
        ax.set_ylabel("mean points per seat")
        ax.set_title(s)
        ax.grid(alpha=0.3, axis="y")
    axes[0][-1].legend(fontsize=8, loc="upper right")
    fig.suptitle("Pyramids: mean points per seat by source (self-play)")
    save_figure(fig, path)
