"""When should a Diamant player leave the cave? Threshold rules against a stated field."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from sim.core import output
from sim.diamant.game import FIELD as DIAMANT_FIELD
from sim.diamant.rules import DiamantRules
from strategies.diamant_solo import solo_value

from .common import best_with_runner_up, ci, focal_run, markdown_table, save_figure
from .registry import Section

NAME = "diamant-leave-threshold"
TITLE = "Diamant: when to leave the cave"
SUMMARY = ("Expected final score and win share of leave-after-hazards:k (k = 1..5) and "
           "leave-at-gems:t against a mixed field, for 3 to 8 players and solo; best threshold "
           "per player count; solo-optimal ceiling.")
DEFAULT_SEED = 2005
FIELD = list(DIAMANT_FIELD)
HAZARD_K = [1, 2, 3, 4, 5]
GEM_T = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 25, 30, 40]
PLAYER_COUNTS = [1, 3, 4, 5, 6, 7, 8]
GAMES = 200_000
QUICK_GAMES = 2_000


def candidates() -> list[tuple[str, int, str]]:
    return ([("hazards", k, f"leave-after-hazards:k={k}") for k in HAZARD_K]
            + [("gems", t, f"leave-at-gems:t={t}") for t in GEM_T])


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    games = QUICK_GAMES if quick else GAMES
    rows, best_rows = [], []
    solo_rules = DiamantRules.preset("solo")
    for players in PLAYER_COUNTS:
        rules = solo_rules if players == 1 else DiamantRules.preset()
        per_game, table = {}, []
        for family, threshold, spec in candidates():
            row, pg = focal_run("diamant", rules, spec, FIELD, players, games, seed)
            row.update(family=family, threshold=threshold)
            table.append(row)
            per_game[row["strategy"]] = pg
        df = pd.DataFrame(table)
        rows.append(df)
        for family in ("hazards", "gems"):
            sub = df[df.family == family]
            for key in (["mean_score"] if players == 1 else ["win_share", "mean_score"]):
                b = best_with_runner_up(sub, per_game, key)
                b["value"] = b.pop(key)
                best_rows.append({"players": players, "family": family, "criterion": key, **b})
    results = pd.concat(rows, ignore_index=True)
    cols = ["players", "family", "threshold", "strategy", "games", "mean_score", "se_score",
            "win_share", "win_ci_low", "win_ci_high"]
    results = results[cols]
    best = pd.DataFrame(best_rows)
    ceiling = solo_value(solo_rules)

    files = []
    output.write_csv(results, out_dir / f"{NAME}.csv")
    output.write_csv(best, out_dir / f"{NAME}-best.csv")
    files += [f"{NAME}.csv", f"{NAME}-best.csv"]
    _plot_multiplayer(results, out_dir / f"{NAME}.png")
    _plot_solo(results[results.players == 1], ceiling, out_dir / f"{NAME}-solo.png")
    files += [f"{NAME}.png", f"{NAME}-solo.png"]

    key = best[(best.criterion == "win_share") | (best.players == 1)].copy()
    key["advantage ± SE"] = [f"{a:+.4f} ± {s:.4f}" for a, s in zip(key.advantage, key.se_advantage)]
    key = key[["players", "family", "criterion", "best", "value", "runner_up", "advantage ± SE"]]
    md = f"""## {TITLE}

![threshold curves]({NAME}.png)

![solo]({NAME}-solo.png)

Seat 0 plays each threshold rule against a field of opponents cycling through
{', '.join(f'`{f}`' for f in FIELD)}; all candidates of a player count see the same decks game
by game, so their differences are paired. Error bars are 95% intervals (1.96 standard errors
for scores, Wilson for win shares). In multiplayer games the win share is what a player
maximises; the solo panel shows the expected score, with the exact optimal solo policy
(dynamic programming, {ceiling:.3f} gems) as the ceiling.

Best threshold per player count (win share; solo: expected score), with the paired advantage
over the runner-up:

{markdown_table(key, floatfmt=".4f")}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {games:,} per candidate and player count; rules: `diamant-2005`
  (solo: `solo`, i.e. the same rules with `min_players = 1`)
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _plot_multiplayer(df: pd.DataFrame, path: Path) -> None:
    multi = df[df.players > 1]
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5))
    for col, family, xlabel in ((0, "hazards", "k: leave after k hazard cards in the cave"),
                                (1, "gems", "t: leave when carrying at least t gems")):
        for players, sub in multi[multi.family == family].groupby("players"):
            axes[0, col].errorbar(sub.threshold, sub.mean_score, yerr=ci(sub.se_score),
                                  marker="o", ms=3, capsize=2, label=f"{players} players")
            axes[1, col].errorbar(sub.threshold, sub.win_share,
                                  yerr=[sub.win_share - sub.win_ci_low, sub.win_ci_high - sub.win_share],
                                  marker="o", ms=3, capsize=2, label=f"{players} players")
        axes[0, col].set_ylabel("expected final score (gems)")
        axes[1, col].set_ylabel("win share (ties split)")
        axes[1, col].set_xlabel(xlabel)
        axes[0, col].set_title("leave-after-hazards" if family == "hazards" else "leave-at-gems")
        if family == "hazards":
            for ax in axes[:, col]:
                ax.set_xticks(HAZARD_K)
    for ax in axes.flat:
        ax.grid(alpha=0.3)
    axes[0, 0].legend(fontsize=8)
    fig.suptitle("Diamant: a threshold player against a mixed field (95% intervals)")
    save_figure(fig, path)


def _plot_solo(df: pd.DataFrame, ceiling: float, path: Path) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), sharey=True)
    for ax, family, xlabel in ((axes[0], "hazards", "k: leave after k hazard cards"),
                               (axes[1], "gems", "t: leave when carrying at least t gems")):
        sub = df[df.family == family]
        ax.errorbar(sub.threshold, sub.mean_score, yerr=ci(sub.se_score), marker="o", ms=3,
                    capsize=2, label="threshold rule")
        ax.axhline(ceiling, color="black", ls="--", label=f"solo-optimal (exact): {ceiling:.2f}")
        if family == "hazards":
            ax.set_xticks(HAZARD_K)
        ax.set_xlabel(xlabel)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("expected final score (gems)")
    axes[0].legend(fontsize=8)
    fig.suptitle("Diamant solo: threshold rules against the exact optimal policy (95% intervals)")
    save_figure(fig, path)
