"""Diamant: go on or leave, state by state (the decision map), and a strategy that plays it."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.core import output
from sim.core.stats import Z95, paired_difference
from sim.diamant.game import FIELD
from sim.diamant.rules import DiamantRules
from strategies import diamant_map as M
from strategies.diamant_solo import action_values

from .common import focal_run, markdown_table, save_figure
from .registry import Section

NAME = "diamant-decision-map"
TITLE = "Diamant: go on or leave, state by state"
SUMMARY = ("Expected gain in final score and win share of going on one more card (then playing "
           "the best threshold rule) over leaving now, per state (players inside, hazard kinds out, "
           "gems carried) at 4 players, by paired rollouts; solo against the exact DP; the "
           "`decision-map` strategy against the best threshold rule.")
DEFAULT_SEED = M.DEFAULT_SEED
PLAYERS = 4
GAMES = 2_000_000          # probed games (4 players)
SOLO_GAMES = 100_000
DUEL_GAMES = 400_000       # decision-map against the best threshold rule, paired
BEST_THRESHOLD = M.BASE   # diamant-leave-threshold: best at 4 players by win share
MIN_STATES = 200           # a cell with fewer is not put into words


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    games, solo_games, duel_games = ((20_000, 5_000, 4_000) if quick
                                     else (GAMES, SOLO_GAMES, DUEL_GAMES))
    rules = DiamantRules.preset()
    cells = M.cached_map(rules, PLAYERS, games, seed)
    solo = solo_cells(seed, solo_games)
    duel = map_against_threshold(rules, games, seed, duel_games)

    files = [f"{NAME}.csv", f"{NAME}-solo.csv", f"{NAME}-strategy.csv", f"{NAME}.png"]
    output.write_csv(cells, out_dir / files[0])
    output.write_csv(solo, out_dir / files[1])
    output.write_csv(duel, out_dir / files[2])
    _plot(cells, out_dir / files[3])
    d = duel.iloc[0]
    worst = solo[solo.states >= MIN_STATES]
    agree = int((worst.z.abs() <= 3.5).sum())
    low, high = (d.win_share_difference + k * Z95 * d.se_difference for k in (-1, 1))
    md = f"""## {TITLE}

![decision map]({NAME}.png)

For each state seat 0 meets in real {PLAYERS}-player games, the map shows the expected gain in
final score (left) and in win share (right) of going on for one more card and then playing on
as before, over leaving now (blue: go on; red: leave; a dot: the 95% interval includes 0).
Each game is played twice on the same seeds, seat 0 forced to leave at one decision drawn at
random (round and decision step) and forced to go on there. Seat 0 plays the best threshold rule of the leave-threshold analysis
(`{M.BASE}`) before and after the probed decision, against that analysis's field
({', '.join(f'`{f}`' for f in FIELD)}, cycled), so the states are those such a player meets.
A cell pools the round, the gems on the path (their mean is in the CSV) and the scores so far.

Rule of thumb ({PLAYERS} players, by expected score; cells with at least {MIN_STATES} states):

{rule_of_thumb(cells, "score_gain")}

By win share the map says leave earlier: {rule_of_thumb(cells, "win_gain", brief=True)}
The win share pools states whose standings differ (a lead or a deficit changes what a card is
worth in wins), so it is a measurement of the field, not a policy; the `decision-map` strategy
follows the score map, a one-step improvement of `{M.BASE}`.

Solo, the same rollouts with the exact optimal policy agree with the dynamic programme cell by
cell: {agree} of {len(worst)} cells with at least {MIN_STATES} states are within 3.5 standard
errors of the exact mean gain over the same states (`{NAME}-solo.csv`, column z).

The `decision-map` strategy (go on where the map's score gain is positive) against the best
threshold rule of the leave-threshold analysis (`{BEST_THRESHOLD}`), in seat 0 against the same
field, {d.games:,} paired games: win share {d.map_win_share:.4f} against
{d.threshold_win_share:.4f}, difference {d.win_share_difference:+.4f}
[{low:+.4f}, {high:+.4f}] (95%); mean score
{d.map_mean_score:.2f} against {d.threshold_mean_score:.2f}, difference
{d.score_difference:+.2f} ± {Z95 * d.se_score_difference:.2f}.

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {games:,} probed games (4 players), {solo_games:,} solo;
  rules: `diamant-2005` (solo: `solo`)
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def solo_cells(seed: int, games: int) -> pd.DataFrame:
    """Solo map cells, with the exact mean gain of the same states and its z-score."""
    rules = DiamantRules.preset("solo")
    obs, d_score, _ = M.probes(rules, [M.SOLO_BASE], seed, games)
    leave, go_on = action_values(rules, obs)
    _, kinds, gems = M.cells_of(obs)
    df = pd.DataFrame({"hazard_kinds_out": kinds, "gems_low": gems * M.GEM_BIN,
                       "rollout": d_score, "exact": go_on - leave})
    df["residual"] = df.rollout - df.exact
    g = df.groupby(["hazard_kinds_out", "gems_low"]).agg(
        states=("rollout", "size"), score_gain=("rollout", "mean"),
        score_gain_se=("rollout", "sem"), exact_gain=("exact", "mean"),
        residual=("residual", "mean"), residual_se=("residual", "sem")).reset_index()
    g["z"] = g.residual / g.residual_se
    return g


def map_against_threshold(rules, games: int, seed: int, duel_games: int) -> pd.DataFrame:
    """decision-map (built from `games` probes per field policy) and BEST_THRESHOLD in seat 0
    against the field, on the same seeds: win shares and their paired difference."""
    spec = f"decision-map:games={games},seed={seed}"
    a_row, a = focal_run("diamant", rules, spec, list(FIELD), PLAYERS, duel_games, seed + 1)
    b_row, b = focal_run("diamant", rules, BEST_THRESHOLD, list(FIELD), PLAYERS, duel_games, seed + 1)
    diff, se = paired_difference(a["win_share"], b["win_share"])
    s_diff, s_se = paired_difference(a["mean_score"], b["mean_score"])
    return pd.DataFrame([{
        "players": PLAYERS, "map": spec, "threshold": BEST_THRESHOLD, "games": duel_games,
        "map_win_share": a_row["win_share"], "threshold_win_share": b_row["win_share"],
        "win_share_difference": diff, "se_difference": se,
        "map_mean_score": a_row["mean_score"], "threshold_mean_score": b_row["mean_score"],
        "score_difference": s_diff, "se_score_difference": s_se}])


def rule_of_thumb(cells: pd.DataFrame, gain: str, brief: bool = False) -> str:
    """Per players inside and hazard kinds out: at which gems going on is better (`gain`'s 95%
    interval above 0), leaving is, and the intervals do not tell. brief: one line, where
    leaving is better."""
    lines = []
    met = cells[cells.states >= MIN_STATES]
    for (inside, kinds), sub in met.groupby(["inside", "hazard_kinds_out"]):
        sub = sub.sort_values("gems_low")
        go = sub[sub[f"{gain}_low"] > 0]
        leave = sub[sub[f"{gain}_high"] < 0]
        unsure = sub[(sub[f"{gain}_low"] <= 0) & (sub[f"{gain}_high"] >= 0)]
        where = f"{inside} inside, {kinds} hazard kind{'s' if kinds != 1 else ''} out"
        if brief:
            if len(leave):
                lines.append(f"{where}: leave at {_gems(leave)}")
            continue
        words = [f"{verb} at {_gems(rows)}" for verb, rows in
                 (("go on", go), ("leave", leave), ("uncertain", unsure)) if len(rows)]
        lines.append(f"- {where}: " + "; ".join(words))
    return ("; ".join(lines) + ".") if brief else "\n".join(lines)


def _gems(rows: pd.DataFrame) -> str:
    """Gem bins as ranges: '0-3, 8-9 gems'."""
    bins = sorted(rows.gems_low)
    spans, start = [], bins[0]
    for a, b in zip(bins, bins[1:] + [None]):
        if b != a + M.GEM_BIN:
            high = rows[rows.gems_low == a].gems_high.iloc[0]
            spans.append(f"{start}+" if high < 0 else f"{start}-{high}")
            if b is not None:
                start = b
    return ", ".join(spans) + " gems"


def _plot(cells: pd.DataFrame, path: Path) -> None:
    panels = sorted(cells.inside.unique())
    kinds = int(cells.hazard_kinds_out.max()) + 1
    bins = int(cells.gems_low.max()) // M.GEM_BIN + 1
    fig, axes = plt.subplots(len(panels), 2, figsize=(14, 2.2 * len(panels) + 0.8), squeeze=False)
    for col, (gain, label) in enumerate((("score_gain", "score gain (gems)"),
                                         ("win_gain", "win-share gain"))):
        limit = float(np.nanmax(np.abs(cells[gain]))) or 1.0
        for ax, inside in zip(axes[:, col], panels):
            sub = cells[cells.inside == inside]
            grid = np.full((kinds, bins), np.nan)
            grid[sub.hazard_kinds_out, sub.gems_low // M.GEM_BIN] = sub[gain]
            im = ax.imshow(grid, cmap="RdBu", vmin=-limit, vmax=limit, aspect="auto",
                           origin="lower")
            unsure = sub[(sub[f"{gain}_low"] <= 0) & (sub[f"{gain}_high"] >= 0)]
            ax.scatter(unsure.gems_low // M.GEM_BIN, unsure.hazard_kinds_out, s=6, color="black")
            ax.set_yticks(range(kinds))
            ax.set_ylabel("hazard kinds out")
            ax.set_xticks(range(bins))
            ax.set_xticklabels([f"{b * M.GEM_BIN}" for b in range(bins)], fontsize=7)
            ax.set_title(f"{inside} player{'s' if inside > 1 else ''} inside: {label}", fontsize=9)
            fig.colorbar(im, ax=ax)
        axes[-1, col].set_xlabel("gems carried (bins of 2, from)")
    fig.suptitle(f"Diamant, {PLAYERS} players: going on one card minus leaving now "
                 f"(dots: 95% interval includes 0)")
    save_figure(fig, path)
