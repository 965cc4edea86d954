"""Does the first player have an edge in CIV, by player count and set-up?"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from sim.core import output
from sim.core.stats import wilson

from .civ_common import (HEGEMONY, QUICK_GAMES, SELF_PLAY, SELF_PLAY_SEED, configurations,
                         first_side, preset_rules, self_play)
from .common import markdown_table, save_figure
from .registry import Section

NAME = "civ-first-player"
TITLE = "CIV: the first player's edge"
SUMMARY = ("Self-play of random and greedy at 2 to 4 players, classic and draft set-ups and team "
           "play, seat 0 first: its (or its team's) win share against the fair share, with 95% "
           "Wilson intervals, and how the games end.")
DEFAULT_SEED = SELF_PLAY_SEED
SETUP_MARKERS = {"classic": "o", "draft": "s", "teams": "^"}


def table(quick: bool, seed: int) -> pd.DataFrame:
    rows = []
    for spec, n in SELF_PLAY:
        games = QUICK_GAMES if quick else n
        for setup, preset, p in configurations():
            rules = preset_rules(preset)
            g = self_play(rules, spec, p, games, seed)
            share, fair, side = first_side(rules, p, g["shares"])
            low, high = wilson(share.sum(), games)
            rows.append({"players": p, "setup": setup, "strategy": spec, "games": games,
                         "side": side, "first_win_share": share.mean(), "win_ci_low": float(low),
                         "win_ci_high": float(high), "fair_share": fair,
                         "edge": share.mean() - fair, "hegemony_share": (g["end"] == HEGEMONY).mean(),
                         "mean_turns": g["turns"].mean()})
    return pd.DataFrame(rows)


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    df = table(quick, seed)
    files = [f"{NAME}.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    _plot(df, out_dir / files[1])
    key = pd.DataFrame({
        "players": df.players, "set-up": df.setup, "strategy": df.strategy,
        "games": df.games.map("{:,}".format), "first side": df.side,
        "its wins [95% CI]": [f"{w:.4f} [{lo:.4f}, {hi:.4f}]" for w, lo, hi in
                              zip(df.first_win_share, df.win_ci_low, df.win_ci_high)],
        "fair": df.fair_share.map("{:.4f}".format),
        "edge": df.edge.map("{:+.4f}".format),
        "ended by Hegemony": df.hegemony_share.map("{:.3f}".format),
        "turns": df.mean_turns.map("{:.1f}".format)})
    md = f"""## {TITLE}

![first player]({NAME}.png)

Every seat plays the same strategy; seat 0 plays first (rule `first_player = seat0`). Set-ups:
classic (3 cards dealt), draft (keep 1 and pass, the leftovers taken into play from the last
player back to the first) and team play at 4 (seats 0 and 2 against 1 and 3, preset
`civ-teams`), where the first side is seat 0's team and the fair share is 1/2. The first side's
win share (ties shared) with the 95% Wilson interval, against the fair share; the edge is the
difference; the share of games ended by Hegemony and the mean number of turns played. The
set-ups and player counts of one strategy play the same seeds (games 0 .. n-1).

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {', '.join(f'`{s}` {QUICK_GAMES if quick else n:,}' for s, n in SELF_PLAY)} per player count and set-up
- Rules: presets `civ-classic`, `civ-draft`, `civ-teams` (seat 0 first)
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _plot(df: pd.DataFrame, path: Path) -> None:
    strategies = list(dict.fromkeys(df.strategy))
    fig, axes = plt.subplots(1, len(strategies), figsize=(5.2 * len(strategies), 4.2), sharey=True)
    setups = list(dict.fromkeys(df.setup))
    for ax, spec in zip(axes, strategies):
        for i, setup in enumerate(setups):
            sub = df[(df.strategy == spec) & (df.setup == setup)]
            x = sub.players + (i - (len(setups) - 1) / 2) * 0.15
            ax.errorbar(x, sub.edge, yerr=[sub.first_win_share - sub.win_ci_low,
                                           sub.win_ci_high - sub.first_win_share],
                        fmt=SETUP_MARKERS.get(setup, "o"), capsize=3, label=setup)
        ax.axhline(0, color="black", lw=0.8, ls="--")
        ax.set_xticks(sorted(df.players.unique()))
        ax.set_xlabel("players")
        ax.set_title(f"{spec} self-play")
        ax.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("first side's win share - fair share")
    axes[0].legend(title="set-up (teams: seat 0's team)")
    fig.suptitle("CIV: the first player's edge (95% Wilson intervals)")
    save_figure(fig, path)
