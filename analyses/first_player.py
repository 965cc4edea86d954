"""Does the first player have an edge? Self-play of each strategy of a game's study in each of its
set-ups and player counts: the first side's win share against its fair share (generic: every
game that declares a `FirstPlayerStudy` gets this section, "<game>-first-player")."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.core import output
from sim.core.measures import UNIT
from sim.core.stats import Z95, wilson
from strategies.play import resolve_rules

from .common import game_label, markdown_table, quick_games, save_figure
from .registry import Section
from .workbench.changes import base_setup, short_label
from .workbench.paired import play_arms

SUFFIX = "first-player"
SETUP_MARKERS = ("o", "s", "^", "D", "v")


def title(game) -> str:
    return f"{game_label(game)}: the first player's edge"


def summary(game) -> str:
    s = game.studies[SUFFIX]
    return (f"Self-play of {', '.join(spec for spec, _ in s.strategies)} in each set-up, seat 0 "
            f"first: the first side's win share against its fair share, with 95% Wilson intervals"
            + (f", and {', '.join(s.measures)}" if s.measures else "") + ".")


def side_name(rules, players: int) -> str:
    teams = rules.team_seats(players)
    if teams:
        team = next(t for t in teams if 0 in t)
        return "team A (seats " + "+".join(map(str, team)) + ")"
    return "seat 0"


def table(game, quick: bool, seed: int) -> pd.DataFrame:
    study = game.studies[SUFFIX]
    rows = []
    for spec, n in study.strategies:
        games = quick_games(n) if quick else n
        for setup, preset, players in study.setups:
            rules = resolve_rules(game.name, preset)
            for p in players:
                run = play_arms(game.name, [base_setup(game.name, rules, [spec], p)], deals=games,
                                seed=seed, paired=False, progress=False)
                if run.info.interrupted:
                    raise KeyboardInterrupt
                rows.append(_row(game, run, rules, setup, p, spec, study.measures))
    return pd.DataFrame(rows)


def _row(game, run, rules, setup, players, spec, measures) -> dict:
    totals, n = run.totals[0], run.games
    sides = len(rules.team_seats(players)) or players
    fair_units = UNIT // sides
    # the first side's summed share of the win, exact: its edge plus the fair share, per game
    wins = (totals.s[run.column("first_edge")] + n * fair_units) / UNIT
    low, high = wilson(wins, n)
    share = wins / n
    row = {"setup": setup, "players": players, "strategy": short_label(run.setups[0].lineup[0]),
           "games": n, "first_side": side_name(rules, players), "first_win_share": share,
           "win_ci_low": float(low), "win_ci_high": float(high), "fair_share": 1 / sides,
           "edge": share - 1 / sides}
    mean, se = totals.mean_se()
    for m in measures:
        j = run.column(m)
        row[m], row[f"{m}_se"] = mean[j], se[j]
    return row


def run(game, out_dir: Path, quick: bool = False, seed: int | None = None) -> Section:
    study = game.studies[SUFFIX]
    seed = study.seed if seed is None else seed
    name = f"{game.name}-{SUFFIX}"
    df = table(game, quick, seed)
    files = [f"{name}.csv", f"{name}.png"]
    output.write_csv(df, out_dir / files[0])
    plot(df, out_dir / files[1], f"{title(game)} (95% Wilson intervals)")
    key = pd.DataFrame({
        "set-up": df.setup, "players": df.players, "strategy": df.strategy,
        "games": df.games.map("{:,}".format), "first side": df.first_side,
        "its wins [95% CI]": [f"{w:.4f} [{lo:.4f}, {hi:.4f}]" for w, lo, hi in
                              zip(df.first_win_share, df.win_ci_low, df.win_ci_high)],
        "fair": df.fair_share.map("{:.4f}".format), "edge": df.edge.map("{:+.4f}".format),
        **{f"{m} ± 95%": [f"{v:.3f} ± {Z95 * s:.3f}" for v, s in zip(df[m], df[f"{m}_se"])]
           for m in study.measures}})
    docs = {m.name: m.doc for m in game.all_measures()}
    measures = "".join(f" `{m}`: {docs[m]};" for m in study.measures)
    games_note = ", ".join(f"`{s}` {quick_games(n) if quick else n:,}" for s, n in study.strategies)
    presets = ", ".join(dict.fromkeys(f"`{p}`" for _, p, _ in study.setups if p))
    md = f"""## {title(game)}

![first player]({name}.png)

Every seat plays the same strategy; seat 0 moves first (in team play the first side is seat 0's
team, whose fair share is 1/teams). The first side's win share (ties shared) with its 95% Wilson
interval, against the fair share; the edge is the difference.{measures.rstrip(';')}{'.' if measures else ''}
The set-ups and player counts of one strategy play the same seeds (games 0 .. n-1).
{study.note}

{markdown_table(key)}

- Command: `meeplelab analyse {name}` (also run by `meeplelab report`); one set-up at a time:
  `meeplelab run {game.name} -s STRATEGY --players N --preset PRESET -n GAMES --seed {seed}`
- Seed: {seed}; games: {games_note} per set-up and player count
- Rules: presets {presets or 'the default'}
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(name, title(game), md, files)


def plot(df: pd.DataFrame, path: Path, title_text: str) -> None:
    """The edge with its interval: x the player counts (or the set-ups, when every set-up has one
    player count); one panel per strategy when there are several set-ups and player counts."""
    setups = list(dict.fromkeys(df.setup))
    strategies = list(dict.fromkeys(df.strategy))
    one_count = df.groupby("setup").players.nunique().max() == 1
    by_strategy = len(setups) > 1 and not one_count
    panels = strategies if by_strategy else [None]
    fig, axes = plt.subplots(1, len(panels), figsize=(max(8, 5.2 * len(panels)), 4.4), sharey=True,
                             squeeze=False, layout="constrained")
    for ax, strategy in zip(axes[0], panels):
        sub = df if strategy is None else df[df.strategy == strategy]
        series = setups if by_strategy else strategies
        for i, s in enumerate(series):
            part = sub[(sub.setup if by_strategy else sub.strategy) == s]
            x = np.arange(len(setups))[[setups.index(v) for v in part.setup]] if one_count else part.players
            x = np.asarray(x, float) + (i - (len(series) - 1) / 2) * 0.12
            ax.errorbar(x, part.edge, yerr=[part.first_win_share - part.win_ci_low,
                                            part.win_ci_high - part.first_win_share],
                        fmt=SETUP_MARKERS[i % len(SETUP_MARKERS)] if by_strategy else "o",
                        capsize=3, label=_short(s))
        ax.axhline(0, color="black", lw=0.8, ls="--")
        if one_count:
            ax.set_xticks(range(len(setups)), setups)
        else:
            ax.set_xticks(sorted(df.players.unique()))
            ax.set_xlabel("players")
        if strategy is not None:
            ax.set_title(f"{_short(strategy)} self-play", fontsize=9)
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=7)
    axes[0][0].set_ylabel("first side's win share - fair share")
    fig.suptitle(title_text)
    save_figure(fig, path)


def _short(label: str, most: int = 40) -> str:
    return label if len(label) <= most else label[:most - 1] + "…"
