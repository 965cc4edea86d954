"""How do CIV games end? Hegemony or majorities, the Hegemony Domain and the game length, by
player count and set-up, in random and greedy self-play."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.civ.cards import DOMAINS
from sim.core import output
from sim.core.stats import Z95, paired_difference, wilson

from .civ_common import (HEGEMONY, QUICK_GAMES, SELF_PLAY, SELF_PLAY_SEED, SETUPS, configurations,
                         preset_rules, self_play)
from .common import markdown_table, save_figure
from .registry import Section

NAME = "civ-endings"
TITLE = "CIV: how the games end"
SUMMARY = ("Random and greedy self-play at 2 to 4 players, classic and draft set-ups and team "
           "play: the share of games won by Hegemony (and in which Domain) or on majorities, and "
           "the game length in turns, with intervals; each set-up paired with classic on the "
           "same seeds.")
DEFAULT_SEED = SELF_PLAY_SEED
BASE_SETUP = "classic"


def _row(spec, setup, p, g, base):
    games = len(g["end"])
    heg = g["end"] == HEGEMONY
    low, high = wilson(heg.sum(), games)
    turns = g["turns"].astype(float)
    row = {"strategy": spec, "setup": setup, "players": p, "games": games,
           "hegemony_share": heg.mean(), "hegemony_ci_low": float(low),
           "hegemony_ci_high": float(high), "majority_share": 1 - heg.mean(),
           "mean_turns": turns.mean(), "se_turns": turns.std(ddof=1) / np.sqrt(games),
           "turns_p10": np.percentile(turns, 10), "turns_median": np.median(turns),
           "turns_p90": np.percentile(turns, 90),
           "hegemony_turns": turns[heg].mean() if heg.any() else np.nan,
           "majority_turns": turns[~heg].mean() if (~heg).any() else np.nan,
           "mean_deck_left": g["deck_left"].mean()}
    if base is not None:   # paired with the classic set-up on the same seeds
        d, se = paired_difference(heg, base["end"] == HEGEMONY)
        row.update(hegemony_vs_classic=d, se_hegemony_vs_classic=se)
        d, se = paired_difference(turns, base["turns"])
        row.update(turns_vs_classic=d, se_turns_vs_classic=se)
    return row


def _domain_rows(spec, setup, p, g):
    games = len(g["end"])
    heg = g["end"] == HEGEMONY
    rows = []
    for d, domain in enumerate(DOMAINS):
        won = (heg & (g["hegemony_domain"] == d)).sum()
        low, high = wilson(won, games)
        rows.append({"strategy": spec, "setup": setup, "players": p, "domain": domain,
                     "games": games, "hegemony_games": int(won), "share_of_games": won / games,
                     "ci_low": float(low), "ci_high": float(high),
                     "share_of_hegemonies": won / heg.sum() if heg.any() else np.nan})
    return rows


def tables(quick: bool, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows, domains = [], []
    for spec, n in SELF_PLAY:
        games = QUICK_GAMES if quick else n
        for setup, preset, p in configurations():
            g = self_play(preset_rules(preset), spec, p, games, seed)
            base = None if setup == BASE_SETUP else self_play(
                preset_rules(SETUPS[BASE_SETUP][0]), spec, p, games, seed)
            rows.append(_row(spec, setup, p, g, base))
            domains += _domain_rows(spec, setup, p, g)
    return pd.DataFrame(rows), pd.DataFrame(domains)


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    df, domains = tables(quick, seed)
    files = [f"{NAME}.csv", f"{NAME}-domains.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    output.write_csv(domains, out_dir / files[1])
    _plot(df, domains, out_dir / files[2])
    top = (domains.sort_values("share_of_games", ascending=False, kind="stable")
           .groupby(["strategy", "setup", "players"], sort=False).head(1)
           .set_index(["strategy", "setup", "players"]))

    def vs_classic(d, se):
        return "" if np.isnan(d) else f"{d:+.3f} ± {Z95 * se:.3f}"

    key = pd.DataFrame({
        "strategy": df.strategy, "set-up": df.setup, "players": df.players,
        "games": df.games.map("{:,}".format),
        "won by Hegemony [95% CI]": [f"{h:.3f} [{lo:.3f}, {hi:.3f}]" for h, lo, hi in
                                     zip(df.hegemony_share, df.hegemony_ci_low, df.hegemony_ci_high)],
        "vs classic ± 95%": [vs_classic(d, se) for d, se in
                             zip(df.hegemony_vs_classic, df.se_hegemony_vs_classic)],
        "top Hegemony Domain (share of games)": [
            _top(top.loc[(s, u, p)]) for s, u, p in zip(df.strategy, df.setup, df.players)],
        "turns ± 95%": [f"{m:.1f} ± {Z95 * s:.1f}" for m, s in zip(df.mean_turns, df.se_turns)],
        "turns 10-50-90%": [f"{a:.0f}-{b:.0f}-{c:.0f}" for a, b, c in
                            zip(df.turns_p10, df.turns_median, df.turns_p90)],
        "turns vs classic ± 95%": [vs_classic(d, se) for d, se in
                                   zip(df.turns_vs_classic, df.se_turns_vs_classic)]})
    md = f"""## {TITLE}

![endings]({NAME}.png)

Every seat plays the same strategy (seat 0 first). A game ends by Hegemony (7 cards of one
Domain at the end of one's turn, 8 at 2 players; in team play it wins for the team) or, when
the deck has run out and the round is complete, on Domain majorities. Per player count and
set-up (classic, draft; team play at 4, preset `civ-teams`): the share of games won by Hegemony
with its 95% Wilson interval (the rest end on majorities), the Domain of the Hegemony most often
won (its share of all games; every Domain in `{files[1]}`), and the game length
in turns (all seats' turns; mean ± 1.96 SE and the 10th, 50th and 90th percentiles). Each
set-up plays the same seeds as classic at the same player count, so the differences from
classic are paired game by game (± 1.96 SE of the paired difference). These are the games of
`civ-first-player`.

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {', '.join(f'`{s}` {QUICK_GAMES if quick else n:,}' for s, n in SELF_PLAY)} per player count and set-up
- Rules: presets `civ-classic`, `civ-draft`, `civ-teams` (seat 0 first)
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _top(row) -> str:
    return "-" if row.hegemony_games == 0 else f"{row.domain} {row.share_of_games:.4f}"


def _plot(df: pd.DataFrame, domains: pd.DataFrame, path: Path) -> None:
    strategies = list(dict.fromkeys(df.strategy))
    labels = [f"{u} {p}p" for u, p in zip(df.setup, df.players)][:len(df) // len(strategies)]
    x = np.arange(len(labels))
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
    width = 0.8 / len(strategies)
    for i, spec in enumerate(strategies):
        sub = df[df.strategy == spec]
        off = x + (i - (len(strategies) - 1) / 2) * width
        axes[0].errorbar(off, sub.hegemony_share, yerr=[sub.hegemony_share - sub.hegemony_ci_low,
                                                        sub.hegemony_ci_high - sub.hegemony_share],
                         fmt="o", capsize=3, label=spec)
        mean = axes[2].errorbar(off, sub.mean_turns, yerr=Z95 * sub.se_turns, fmt="o", capsize=3,
                                label=spec)
        axes[2].vlines(off, sub.turns_p10, sub.turns_p90, alpha=0.25, lw=6, color=mean[0].get_color())
    axes[0].set_ylabel("share of games won by Hegemony")
    axes[2].set_ylabel("turns (mean ± 95%; bar: 10th-90th percentile)")
    greedy = domains[domains.strategy == strategies[-1]]
    bottom = np.zeros(len(labels))
    for domain in DOMAINS:
        share = greedy[greedy.domain == domain].share_of_games.to_numpy()
        axes[1].bar(x, share, bottom=bottom, label=domain)
        bottom += share
    axes[1].set_ylabel(f"share of games ({strategies[-1]} self-play)")
    axes[1].set_title("won by Hegemony, by Domain")
    for ax in axes:
        ax.set_xticks(x, labels, rotation=30, fontsize=8)
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=8)
    axes[0].set_title("won by Hegemony (95% Wilson)")
    axes[2].set_title("game length")
    fig.suptitle("CIV: how the games end, by set-up and player count")
    save_figure(fig, path)
