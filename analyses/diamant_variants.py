"""How do the published editions and designer variants change Diamant?"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.core import output
from sim.core.stats import mean_se
from sim.diamant.rules import DiamantRules
from strategies.play import play
from strategies.registry import parse_spec

from .common import best_with_runner_up, ci, focal_run, markdown_table, save_figure
from .diamant_leave_threshold import FIELD
from .registry import Section

NAME = "diamant-variants"
TITLE = "Diamant: editions and rule variants"
SUMMARY = ("Presets (2005, Incan Gold 2006, IELLO 2016) and designer variants compared on game "
           "length in cards, score spread and the best leave-after-hazards threshold (4 players).")
DEFAULT_SEED = 2006
PLAYERS = 4
GAMES = 100_000
QUICK_GAMES = 2_000
HAZARD_K = [1, 2, 3, 4, 5]
VARIANTS = [
    ("diamant-2005", "diamant-2005", {}),
    ("incan-gold-2006", "incan-gold-2006", {}),
    ("diamant-iello-2016", "diamant-iello-2016", {}),
    ("4 rounds", "diamant-2005", {"rounds": 4}),
    ("4 hazard copies", "diamant-2005", {"hazard_copies": 4}),
    ("2 hazard copies", "diamant-2005", {"hazard_copies": 2}),
    ("per-card leftovers", "diamant-2005", {"leftover_split": "per-card"}),
    ("hazards stay after a disaster", "diamant-2005", {"remove_hazard_after_disaster": False}),
    ("decide before the first card", "diamant-2005", {"first_card_free": False}),
]


def _field_stats(rules, games, seed):
    """Game length, disasters and within-game score spread with the field in every seat."""
    lineup = [parse_spec("diamant", FIELD[i % len(FIELD)]) for i in range(PLAYERS)]
    sums = np.zeros((3, 2))   # rows: cards, disasters, spread; cols: sum, sum of squares

    def keep(batch):
        spread = batch.scores.std(axis=1)
        for i, x in enumerate((batch.extras["cards_revealed"], batch.extras["disasters"], spread)):
            x = x.astype(float)
            sums[i] += (x.sum(), (x * x).sum())

    result = play("diamant", rules, lineup, games=games, seed=seed, progress=False, partial=False,
                  on_batch=keep)
    mean, se = mean_se(sums[:, 0], sums[:, 1], result.info.games)
    return {"cards_per_game": mean[0], "se_cards": se[0], "disasters_per_game": mean[1],
            "se_disasters": se[1], "score_spread": mean[2], "se_spread": se[2],
            "mean_score": float(result.totals.score.sum() / (PLAYERS * result.info.games))}


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    games = QUICK_GAMES if quick else GAMES
    summary, curves = [], []
    for label, preset, overrides in VARIANTS:
        rules = DiamantRules.preset(preset).replace(**overrides)
        stats = _field_stats(rules, games, seed)
        per_game, rows = {}, []
        for k in HAZARD_K:
            row, pg = focal_run("diamant", rules, f"leave-after-hazards:k={k}", FIELD, PLAYERS,
                                games, seed)
            row.update(variant=label, k=k)
            rows.append(row)
            per_game[row["strategy"]] = pg
        df = pd.DataFrame(rows)
        curves.append(df)
        b = best_with_runner_up(df, per_game, "win_share")
        changes = ", ".join(f"{k}={v}" for k, v in overrides.items()) or "-"
        summary.append({"variant": label, "preset": preset, "changes": changes, **stats,
                        "best_k": int(df.loc[df.strategy == b["best"], "k"].iloc[0]),
                        "best_win_share": b["win_share"], "advantage_over_runner_up": b["advantage"],
                        "se_advantage": b["se_advantage"]})
    summary = pd.DataFrame(summary)
    curves = pd.concat(curves, ignore_index=True)[
        ["variant", "k", "strategy", "games", "mean_score", "se_score", "win_share", "win_ci_low",
         "win_ci_high"]]
    files = [f"{NAME}.csv", f"{NAME}-thresholds.csv", f"{NAME}.png"]
    output.write_csv(summary, out_dir / files[0])
    output.write_csv(curves, out_dir / files[1])
    _plot(summary, curves, out_dir / files[2])

    key = pd.DataFrame({
        "variant": summary.variant,
        "cards/game ± SE": [f"{m:.2f} ± {s:.2f}" for m, s in zip(summary.cards_per_game, summary.se_cards)],
        "score spread ± SE": [f"{m:.2f} ± {s:.2f}" for m, s in zip(summary.score_spread, summary.se_spread)],
        "best k": summary.best_k,
        "its win share": summary.best_win_share.map("{:.4f}".format),
        "lead over runner-up ± SE": [f"{a:+.4f} ± {s:.4f}" for a, s in
                                     zip(summary.advantage_over_runner_up, summary.se_advantage)],
    })
    md = f"""## {TITLE}

![variants]({NAME}.png)

Each variant is played by {PLAYERS} players: first with the field
({', '.join(f'`{f}`' for f in FIELD)}, cycled over the seats) in every seat, to measure game
length (cards revealed per game), disasters and score spread (standard deviation of the final
scores within a game); then with seat 0 playing `leave-after-hazards:k` for k = 1..5 against
that field, to find the best threshold by win share (paired on the same decks; the lead is
over the runner-up threshold). Intervals are ± 1 standard error in the table, 95% in the figure.

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {games:,} per variant and per threshold
- Rules: each variant is the named preset with the listed changes (see `{files[0]}`, column
  `changes`; `meeplelab rules diamant --preset NAME --set KEY=VALUE` prints the full rule set)
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _plot(summary: pd.DataFrame, curves: pd.DataFrame, path: Path) -> None:
    fig, axes = plt.subplots(1, 3, figsize=(16, 5.5))
    y = np.arange(len(summary))
    axes[0].barh(y, summary.cards_per_game, xerr=ci(summary.se_cards), color="tab:blue", alpha=0.8)
    axes[0].set_xlabel("cards revealed per game")
    axes[1].barh(y, summary.score_spread, xerr=ci(summary.se_spread), color="tab:orange", alpha=0.8)
    axes[1].set_xlabel("score spread within a game (SD, gems)")
    for ax in axes[:2]:
        ax.set_yticks(y, summary.variant)
        ax.invert_yaxis()
        ax.grid(alpha=0.3, axis="x")
    axes[1].set_yticklabels([])
    for variant, sub in curves.groupby("variant", sort=False):
        axes[2].errorbar(sub.k, sub.win_share, yerr=[sub.win_share - sub.win_ci_low,
                                                     sub.win_ci_high - sub.win_share],
                         marker="o", ms=3, capsize=2, label=variant)
    axes[2].set_xlabel("k: seat 0 leaves after k hazard cards")
    axes[2].set_xticks(HAZARD_K)
    axes[2].set_ylabel("win share of seat 0")
    axes[2].grid(alpha=0.3)
    axes[2].legend(fontsize=7)
    fig.suptitle(f"Diamant variants, {PLAYERS} players (95% intervals)")
    save_figure(fig, path)
