"""Does the first player have an edge in CIV?"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from sim.core import output
from sim.core.stats import wilson
from strategies.play import resolve_rules

from .common import games_of, markdown_table, plot_first_player_edge
from .registry import Section

GAME = "civ"
NAME = "civ-first-player"
TITLE = "CIV: the first player's edge"
SUMMARY = ("Self-play of random and greedy at 2 to 4 players, seat 0 first: its win share against "
           "the fair 1/n, with 95% Wilson intervals, and how the games end.")
DEFAULT_SEED = 2018
PLAYERS = (2, 3, 4)
STRATEGIES = (("random", 20_000), ("greedy", 10_000))
QUICK_GAMES = 40


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    rules = resolve_rules(GAME, "civ-classic")
    rows = []
    for spec, n in STRATEGIES:
        games = QUICK_GAMES if quick else n
        for p in PLAYERS:
            g = games_of(GAME, rules, [spec] * p, games, seed)
            share = g["shares"][:, 0]
            low, high = wilson(share.sum(), games)
            rows.append({"players": p, "strategy": spec, "games": games,
                         "first_win_share": share.mean(), "win_ci_low": float(low),
                         "win_ci_high": float(high), "fair_share": 1 / p,
                         "edge": share.mean() - 1 / p, "hegemony_share": (g["end"] == 1).mean(),
                         "mean_turns": g["turns"].mean()})
    df = pd.DataFrame(rows)
    files = [f"{NAME}.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    plot_first_player_edge(df, PLAYERS, "CIV: first player's edge in self-play (95% Wilson "
                           "intervals)", out_dir / files[1])
    key = pd.DataFrame({
        "players": df.players, "strategy": df.strategy, "games": df.games.map("{:,}".format),
        "seat 0 wins [95% CI]": [f"{w:.4f} [{lo:.4f}, {hi:.4f}]" for w, lo, hi in
                                 zip(df.first_win_share, df.win_ci_low, df.win_ci_high)],
        "fair": df.fair_share.map("{:.4f}".format),
        "ended by Hegemony": df.hegemony_share.map("{:.3f}".format),
        "turns": df.mean_turns.map("{:.1f}".format)})
    md = f"""## {TITLE}

![first player]({NAME}.png)

Every seat plays the same strategy; seat 0 plays first (rule `first_player = seat0`), classic
set-up. Its win share (ties shared) with the 95% Wilson interval, against the fair share 1/n;
the share of games ended by Hegemony and the mean number of turns played.

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {', '.join(f'`{s}` {QUICK_GAMES if quick else n:,}' for s, n in STRATEGIES)} per player count
- Rules: preset `civ-classic` (seat 0 first)
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)

