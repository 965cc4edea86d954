"""Does the first player have an edge in Schotten Totten?"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.core import output
from strategies.play import play, resolve_rules
from strategies.registry import get as get_strategy

from .common import markdown_table, save_figure
from .registry import Section

NAME = "schotten-totten-first-player"
TITLE = "Schotten Totten: the first player's edge"
SUMMARY = ("Win share of the first player (seat 0) in self-play of random, greedy and flat-mc, "
           "base and tactics, both claim timings, with 95% Wilson intervals.")
DEFAULT_SEED = 1999
PRESETS = ["base", "tactics", "base-claim-at-start", "tactics-claim-at-start"]
# (strategy, games in the full report): searchers are slow, so they get fewer games
STRATEGIES = [("random", 200_000), ("greedy", 5_000), ("flat-mc:sims=10,prune=4", 100)]
QUICK_GAMES = 40


def quick_games(games: int) -> int:
    """Games in --quick mode: a smoke test, a few games even for the slow searchers."""
    return max(2, min(QUICK_GAMES, games // 50))


def available(specs):
    """The strategies of this analysis that are registered (searchers may be missing)."""
    out = []
    for spec, games in specs:
        try:
            get_strategy("schotten-totten", spec.split(":")[0])
        except Exception:
            continue
        out.append((spec, games))
    return out


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    rows = []
    strategies = available(STRATEGIES)
    for preset in PRESETS:
        rules = resolve_rules("schotten-totten", preset)
        for spec, games in strategies:
            n = quick_games(games) if quick else games
            t = play("schotten-totten", rules, [spec, spec], games=n, seed=seed,
                     progress=False, partial=False).table()
            first = t.iloc[0]
            rows.append({"preset": preset, "strategy": first.strategy, "games": int(first.games),
                         "first_player_win_share": first.win_share,
                         "win_ci_low": first.win_ci_low, "win_ci_high": first.win_ci_high,
                         "edge": first.win_share - 0.5})
    df = pd.DataFrame(rows)
    files = [f"{NAME}.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    _plot(df, out_dir / files[1])
    key = pd.DataFrame({
        "preset": df.preset, "strategy": df.strategy, "games": df.games.map("{:,}".format),
        "first player wins [95% CI]": [f"{w:.4f} [{lo:.4f}, {hi:.4f}]" for w, lo, hi in
                                       zip(df.first_player_win_share, df.win_ci_low, df.win_ci_high)],
    })
    games_note = ", ".join(f"`{s}`: {quick_games(g) if quick else g:,}" for s, g in strategies)
    md = f"""## {TITLE}

![first player]({NAME}.png)

Both seats play the same strategy; seat 0 moves first (rule `first_player = "seat0"`). The
win share of seat 0 (draws count half) with its 95% Wilson interval: 0.5 means no edge.
Flat Monte-Carlo search plays with a small budget (10 playouts for each of the greedy's 4
best actions) and few games: each game costs about a quarter of a second (base) to half a
second (tactics) on one core, so its intervals are wide, about +-0.1; a
tighter figure takes a longer run, e.g.
`meeplelab run schotten-totten -s flat-mc:sims=10,prune=4 -n 2000 --preset tactics`.

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games per preset: {games_note}
- Rules: the presets {', '.join(f'`{p}`' for p in PRESETS)} (`meeplelab rules schotten-totten --preset NAME`)
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _plot(df: pd.DataFrame, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(10, 4.5))
    strategies = list(dict.fromkeys(df.strategy))
    width = 0.8 / max(len(strategies), 1)
    x = np.arange(len(PRESETS))
    for i, s in enumerate(strategies):
        sub = df[df.strategy == s].set_index("preset").reindex(PRESETS)
        ax.errorbar(x + (i - (len(strategies) - 1) / 2) * width, sub.first_player_win_share,
                    yerr=[sub.first_player_win_share - sub.win_ci_low,
                          sub.win_ci_high - sub.first_player_win_share],
                    fmt="o", capsize=3, label=s)
    ax.axhline(0.5, color="black", lw=0.8, ls="--")
    ax.set_xticks(x, PRESETS)
    ax.set_ylabel("first player's win share")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8)
    ax.set_title("Schotten Totten: first-player win share in self-play (95% Wilson intervals)")
    save_figure(fig, path)
