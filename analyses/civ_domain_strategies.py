"""Which Domain is best to push in CIV? domain-focus for each Domain against a field of greedy."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.civ.cards import DOMAINS
from sim.core import output
from sim.core.stats import wilson
from strategies.play import resolve_rules

from .common import games_of, markdown_table, save_figure
from .registry import Section

GAME = "civ"
NAME = "civ-domain-strategies"
TITLE = "CIV: which Domain to push"
SUMMARY = ("domain-focus:domain=X for each Domain (and greedy itself) in one seat against greedy "
           "in the others, at 2, 3 and 4 players, seats rotated on the same deals: win share with "
           "95% Wilson intervals, and how the games end.")
DEFAULT_SEED = 2018
PLAYERS = (2, 3, 4)
FIELD = "greedy"
GAMES = 1_500          # per player count, focal strategy and focal seat
QUICK_GAMES = 12


def _focals():
    return [f"domain-focus:domain={d}" for d in DOMAINS] + [FIELD]


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    rules = resolve_rules(GAME, "civ-classic")
    games = QUICK_GAMES if quick else GAMES
    rows = []
    for p in PLAYERS:
        for focal in _focals():
            won, heg, heg_focal, heg_own, turns = 0.0, 0, 0, 0, 0.0
            for seat in range(p):          # the focal seat rotated; every rotation the same deals
                lineup = [FIELD] * p
                lineup[seat] = focal
                g = games_of(GAME, rules, lineup, games, seed)
                won += g["shares"][:, seat].sum()
                ended = g["end"] == 1
                heg += ended.sum()
                mine = ended & (g["shares"][:, seat] > 0)
                heg_focal += mine.sum()
                if focal != FIELD:
                    heg_own += (mine & (g["hegemony_domain"] == DOMAINS.index(focal.split("=")[1]))).sum()
                turns += g["turns"].sum()
            n = games * p
            low, high = wilson(won, n)
            rows.append({"players": p, "strategy": focal, "games": n, "win_share": won / n,
                         "win_ci_low": float(low), "win_ci_high": float(high), "fair_share": 1 / p,
                         "hegemony_share": heg / n, "focal_hegemony_wins": heg_focal / n,
                         "focal_hegemony_in_domain": heg_own / n if focal != FIELD else np.nan,
                         "mean_turns": turns / n})
    df = pd.DataFrame(rows)
    files = [f"{NAME}.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    _plot(df, out_dir / files[1])
    key = pd.DataFrame({
        "players": df.players, "focal": df.strategy.str.replace("domain-focus:domain=", "focus "),
        "games": df.games.map("{:,}".format),
        "focal wins [95% CI]": [f"{w:.3f} [{lo:.3f}, {hi:.3f}]" for w, lo, hi in
                                zip(df.win_share, df.win_ci_low, df.win_ci_high)],
        "fair": df.fair_share.map("{:.3f}".format),
        "ended by Hegemony": df.hegemony_share.map("{:.3f}".format),
        "focal won by Hegemony": df.focal_hegemony_wins.map("{:.3f}".format),
        "in its Domain": df.focal_hegemony_in_domain.map(lambda v: "" if np.isnan(v) else f"{v:.3f}"),
        "turns": df.mean_turns.map("{:.1f}".format)})
    md = f"""## {TITLE}

![domain strategies]({NAME}.png)

One seat plays `domain-focus:domain=X` (the greedy's evaluation, plus 1 a card of Domain X in
play and its permanent effects first), every other seat `{FIELD}`; the focal seat is rotated
over all seats, and every rotation and every focal strategy plays the same deals (same seed), so
the rows of one player count are paired. `{FIELD}` itself as the focal strategy is the control
(its share is 1/n up to noise). Win share (ties shared) with the 95% Wilson interval; the share
of games ended by Hegemony (anyone's), won by the focal seat by Hegemony, and by Hegemony in its
own Domain; mean turns played.

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {games:,} per player count, focal strategy and focal seat
- Rules: preset `civ-classic` (seat 0 first)
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _plot(df: pd.DataFrame, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(9, 4.5))
    labels = [s.replace("domain-focus:domain=", "") for s in _focals()]
    width = 0.8 / len(PLAYERS)
    for i, p in enumerate(PLAYERS):
        sub = df[df.players == p]
        x = np.arange(len(labels)) + (i - (len(PLAYERS) - 1) / 2) * width
        ax.errorbar(x, sub.win_share - sub.fair_share,
                    yerr=[sub.win_share - sub.win_ci_low, sub.win_ci_high - sub.win_share],
                    fmt="o", capsize=3, label=f"{p} players")
    ax.axhline(0, color="black", lw=0.8, ls="--")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels)
    ax.set_ylabel("focal win share - 1/n")
    ax.grid(alpha=0.3, axis="y")
    ax.legend()
    ax.set_title(f"CIV: domain-focus against {FIELD} (95% Wilson intervals)")
    save_figure(fig, path)
