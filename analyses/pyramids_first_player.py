"""Does the first player have an edge in Pyramids?"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim.core import output
from sim.core.stats import Z95, wilson
from strategies.play import resolve_rules

from .common import markdown_table, plot_first_player_edge
from .pyramids_common import GAME, games_of
from .registry import Section

NAME = "pyramids-first-player"
TITLE = "Pyramids: the first player's edge"
SUMMARY = ("Self-play of random and greedy at 2 to 5 players, seat 0 holding the First Player "
           "token in round 1: its win share against the fair 1/n, with 95% Wilson intervals.")
DEFAULT_SEED = 2018
PLAYERS = (2, 3, 4, 5)
STRATEGIES = (("random", 100_000), ("greedy", 20_000))
QUICK_GAMES = 40


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    rules = resolve_rules(GAME, "published")
    rows = []
    for spec, n in STRATEGIES:
        games = QUICK_GAMES if quick else n
        for p in PLAYERS:
            g = games_of(rules, [spec] * p, games, seed)
            share = g["shares"][:, 0]
            low, high = wilson(share.sum(), games)
            others = np.delete(g["scores"], 0, axis=1).mean(axis=1)
            d = g["scores"][:, 0] - others
            rows.append({"players": p, "strategy": spec, "games": games,
                         "first_win_share": share.mean(), "win_ci_low": float(low),
                         "win_ci_high": float(high), "fair_share": 1 / p,
                         "edge": share.mean() - 1 / p,
                         "score_vs_others": d.mean(), "score_vs_others_se": d.std(ddof=1) / np.sqrt(games)})
    df = pd.DataFrame(rows)
    files = [f"{NAME}.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    plot_first_player_edge(df, PLAYERS, "Pyramids: first player's edge in self-play (95% Wilson "
                           "intervals)", out_dir / files[1])
    key = pd.DataFrame({
        "players": df.players, "strategy": df.strategy, "games": df.games.map("{:,}".format),
        "seat 0 wins [95% CI]": [f"{w:.4f} [{lo:.4f}, {hi:.4f}]" for w, lo, hi in
                                 zip(df.first_win_share, df.win_ci_low, df.win_ci_high)],
        "fair": df.fair_share.map("{:.4f}".format),
        "score - others' mean ± 95%": [f"{d:+.2f} ± {Z95 * s:.2f}" for d, s in
                                       zip(df.score_vs_others, df.score_vs_others_se)]})
    md = f"""## {TITLE}

![first player]({NAME}.png)

Every seat plays the same strategy; seat 0 holds the First Player token in round 1 (it chooses
its God tile first), and the token passes left each round, so over 10 rounds seat 0 chooses
first {', '.join(f'{-(-10 // p)} times at {p} players' for p in PLAYERS)}. Its win share (ties
shared) with the 95% Wilson interval, against the fair share 1/n, and its final score less the
mean of the others' (± 1.96 SE). Deck: the shipped reconstruction.

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {', '.join(f'`{s}` {QUICK_GAMES if quick else n:,}' for s, n in STRATEGIES)} per player count
- Rules: preset `published` (seat 0 first)
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)

