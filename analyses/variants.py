"""Which rule variants matter, and how? Every variant of a game's study against its base rules,
the study's field in every seat, paired game by game on the same seeds (`compare`); optionally,
under the base and each variant, the best value of one seat's strategy parameter (`sweep`).
Generic: every game that declares a `VariantsStudy` gets this section, "<game>-variants"."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.core import output
from sim.core.stats import Z95
from strategies.play import resolve_rules

from .common import game_label, markdown_table, save_figure
from .registry import Section
from .workbench import changes as C
from .workbench.comparison import table as compare_table
from .workbench.paired import play_arms
from .workbench.sweeps import sweep

SUFFIX = "variants"
CLEAR_Z = 3.0          # |difference| / SE above which a change is called clear


def title(game) -> str:
    return f"{game_label(game)}: rule variants"


def summary(game) -> str:
    s = game.studies[SUFFIX]
    text = (f"{len(s.variants)} rule variants against their base rules, the field "
            f"({', '.join(s.field)}) in every seat, paired game by game on the same seeds: how many "
            f"games each changes, and the change in {', '.join(s.measures)}")
    if s.sweep_key:
        text += f"; the best {s.sweep_key} under each"
    return text + "."


def base_of(game, study, preset, players: int) -> C.Setup:
    specs = [study.field[i % len(study.field)] for i in range(players)]
    return C.base_setup(game.name, resolve_rules(game.name, preset), specs, players,
                        label=f"default ({preset})")


def tables(game, quick: bool, seed: int):
    """(one row per variant and player count, one row per variant, measure and player count)."""
    study = game.studies[SUFFIX]
    n = study.quick_games if quick else study.games
    wide, tidy = [], []
    groups = dict.fromkeys((v.base, p) for v in study.variants for p in v.players)
    for preset, p in groups:
        base = base_of(game, study, preset, p)
        chosen = [v for v in study.variants if v.base == preset and p in v.players]
        arms = [C.variant(game.name, base, "; ".join(v.changes), v.label) for v in chosen]
        run = play_arms(game.name, [base, *arms], deals=n, seed=seed, progress=False,
                        desc=f"{game.name} variants")
        if run.info.interrupted:
            raise KeyboardInterrupt
        df = compare_table(run).assign(base_preset=preset, players=p)
        tidy.append(df)
        wide.append(_wide(base.label, preset, p, df, None, run))
        for v in arms:
            wide.append(_wide(v.label, preset, p, df[df.variant == v.label], v, run))
    return pd.DataFrame(wide), pd.concat(tidy, ignore_index=True)


def _wide(label, preset, players, df, variant, run) -> dict:
    """One row: the values of every game measure, and against the base their paired differences."""
    game_rows = df[df.slot.isna()]
    row = {"variant": label, "base": preset, "changes": "; ".join(variant.changes) if variant else "",
           "players": players, "games": run.games}
    if variant is None:      # the base: its own values
        first = game_rows.drop_duplicates("measure")
        for r in first.itertuples():
            if r.measure not in ("games_changed", "result_changed"):
                row[r.measure], row[f"{r.measure}_se"] = r.base, r.base_se
        return row
    for r in game_rows.itertuples():
        if r.measure in ("games_changed", "result_changed"):
            row[r.measure] = r.value
            row[f"{r.measure}_ci_low"], row[f"{r.measure}_ci_high"] = r.ci_low, r.ci_high
        else:
            row[r.measure], row[f"{r.measure}_se"] = r.value, r.value_se
            row[f"{r.measure}_vs_base"], row[f"{r.measure}_vs_base_se"] = r.difference, r.difference_se
    return row


def sweeps(game, quick: bool, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Under the base and each variant: the sweep of the study's key, and its best value."""
    study = game.studies[SUFFIX]
    n = study.quick_games if quick else study.games
    curves, best = [], []
    seen = set()
    for v in study.variants:
        for p in v.players:
            base = base_of(game, study, v.base, p)
            if (v.base, p) not in seen:
                seen.add((v.base, p))
                best_rows(curves, best, game, study, base, n, seed)
            best_rows(curves, best, game, study,
                      C.variant(game.name, base, "; ".join(v.changes), v.label), n, seed)
    return pd.concat(curves, ignore_index=True), pd.DataFrame(best)


def best_rows(curves, best, game, study, setup, n, seed) -> None:
    grid = [f"{study.sweep_key}={','.join(map(str, study.sweep_values))}"]
    df = sweep(game.name, setup.rules, list(study.sweep_lineup), grid, players=setup.players,
               games=n, seed=seed, rotate=False, estimate=False, progress=False)
    if df.attrs["interrupted"]:
        raise KeyboardInterrupt
    b = df.attrs["best"]
    objective = b["objective"]
    measure, _, slot = objective.partition(":")
    sub = df[(df.measure == measure) & (df.slot == int(slot))] if slot else df[df.measure == measure]
    curves.append(sub.assign(variant=setup.label, players=setup.players)[
        ["variant", "players", study.sweep_key, "strategy", "games", "value", "se", "ci_low", "ci_high"]])
    best.append({"variant": setup.label, "players": setup.players, "objective": objective,
                 "best": b["label"].split("=", 1)[1], "best_value": b["value"], "best_se": b["se"],
                 "runner_up": b.get("runner_up", "=").split("=", 1)[1],
                 "advantage": b.get("advantage", np.nan), "advantage_se": b.get("advantage_se", np.nan)})


def _diff(d, se) -> str:
    if pd.isna(d):
        return ""
    mark = " **" if se > 0 and abs(d) > CLEAR_Z * se else ""
    return f"{d:+.3f} ± {Z95 * se:.3f}{mark}"


def run(game, out_dir: Path, quick: bool = False, seed: int | None = None) -> Section:
    study = game.studies[SUFFIX]
    seed = study.seed if seed is None else seed
    name = f"{game.name}-{SUFFIX}"
    n = study.quick_games if quick else study.games
    wide, tidy = tables(game, quick, seed)
    files = [f"{name}.csv", f"{name}-differences.csv"]
    output.write_csv(wide, out_dir / files[0])
    output.write_csv(tidy, out_dir / files[1])
    best = curves = None
    if study.sweep_key:
        curves, best = sweeps(game, quick, seed)
        files += [f"{name}-sweep.csv", f"{name}-best.csv"]
        output.write_csv(curves, out_dir / files[-2])
        output.write_csv(best, out_dir / files[-1])
    files.append(f"{name}.png")
    plot(wide, study, curves, out_dir / files[-1], f"{title(game)}: paired with the base on the "
         f"same seeds (95% intervals)")
    flipped = wide[wide.changes != ""]
    defaults = wide[wide.changes == ""]
    measures = list(study.measures)
    key = pd.DataFrame({
        "variant": flipped.variant, "players": flipped.players,
        "games changed [95% CI]": [f"{c:.3f} [{lo:.3f}, {hi:.3f}]" for c, lo, hi in zip(
            flipped.games_changed, flipped.games_changed_ci_low, flipped.games_changed_ci_high)],
        "result changed [95% CI]": [f"{c:.3f} [{lo:.3f}, {hi:.3f}]" for c, lo, hi in zip(
            flipped.result_changed, flipped.result_changed_ci_low, flipped.result_changed_ci_high)],
        **{f"{m} Δ ± 95%": [_diff(d, s) for d, s in zip(flipped[f"{m}_vs_base"],
                                                         flipped[f"{m}_vs_base_se"])]
           for m in measures}})
    base_key = pd.DataFrame({"rules": defaults.variant, "players": defaults.players,
                             **{f"{m} ± 95%": [f"{v:.3f} ± {Z95 * s:.3f}" for v, s in
                                               zip(defaults[m], defaults[f"{m}_se"])]
                                for m in measures}})
    best_md = ""
    if best is not None:
        shown = pd.DataFrame({
            "rules": best.variant, "players": best.players, f"best {study.sweep_key}": best.best,
            f"its {best.objective.iloc[0]} ± 95%": [f"{v:.4f} ± {Z95 * s:.4f}" for v, s in
                                                     zip(best.best_value, best.best_se)],
            "runner-up": best.runner_up,
            "lead over the runner-up ± 95%": [f"{a:+.4f} ± {Z95 * s:.4f}" for a, s in
                                              zip(best.advantage, best.advantage_se)]})
        best_md = (f"\nUnder each rule set, seat 0 of the lineup "
                   f"{', '.join(f'`{s}`' for s in study.sweep_lineup)} plays every value of "
                   f"`{study.sweep_key}` ({', '.join(map(str, study.sweep_values))}) on the same "
                   f"seeds; the best by {best.objective.iloc[0]}, and its lead over the runner-up, "
                   f"paired game by game:\n\n{markdown_table(shown)}\n")
    docs = {m.name: m.doc for m in game.all_measures()}
    tests = len(measures) * len(flipped)
    md = f"""## {title(game)}

![variants]({name}.png)

The field ({', '.join(f'`{f}`' for f in study.field)}, cycled over the seats) plays every seat.
Each variant changes its base rules as listed in `{files[0]}` (column `changes`, as `meeplelab
compare --variant` takes them) and plays the same seeds as the base at the same player count, so
every difference is paired game by game (± 1.96 SE of the paired difference). Per variant: the
share of games it alters at all (any recorded outcome differs from the base game on the same
seed; a rule whose situation never comes up changes nothing), the share whose result it changes
(the win shares differ), and the change in each measure: {'; '.join(f'`{m}` {docs[m]}' for m in measures)}.
Every declared measure, and every seat's win share and score, is in `{files[1]}`. `**`: the
difference exceeds {CLEAR_Z:g} standard errors; with {tests} differences in the table about
{0.05 * tests:.0f} would pass 1.96 SE by chance alone, hardly any {CLEAR_Z:g} SE. {study.note}

The base rules:

{markdown_table(base_key)}

{_summary(flipped, measures)}

{markdown_table(key)}
{best_md}
- Command: `meeplelab analyse {name}` (also run by `meeplelab report`); one variant:
  `meeplelab compare {game.name} {' '.join('-s ' + f for f in study.field)} --variant "CHANGES" -n {n} --seed {seed}`
- Seed: {seed}; games: {n:,} per variant and player count, the base the same
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(name, title(game), md, files)


def _summary(flipped: pd.DataFrame, measures) -> str:
    """Which variants changed nothing, and which changed a measure clearly (data-driven)."""
    def names(mask):
        return ", ".join(dict.fromkeys(flipped.variant[mask])) or "none"

    quiet = flipped.groupby("variant", sort=False).games_changed.transform("max") == 0
    lines = [f"- Changed no game at any player count: {names(quiet)}."]
    for m in measures:
        d, se = flipped[f"{m}_vs_base"], flipped[f"{m}_vs_base_se"]
        lines.append(f"- Moved `{m}` by more than {CLEAR_Z:g} SE: {names((se > 0) & (d.abs() > CLEAR_Z * se))}.")
    return "\n".join(lines)


def plot(wide: pd.DataFrame, study, curves, path: Path, title_text: str) -> None:
    flipped = wide[wide.changes != ""]
    labels = list(dict.fromkeys(flipped.variant))
    players = sorted(flipped.players.unique())
    measures = list(study.measures)
    panels = 1 + len(measures) + (curves is not None)
    cols = min(4, panels)
    rows = -(-panels // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, (0.3 * len(labels) + 1.8) * rows),
                             squeeze=False, layout="constrained")
    axes = list(axes.flat)
    for ax in axes[panels:]:
        ax.set_visible(False)
    y = np.arange(len(labels))
    height = 0.8 / len(players)
    for i, p in enumerate(players):
        sub = flipped[flipped.players == p].set_index("variant").reindex(labels)
        off = y + (i - (len(players) - 1) / 2) * height
        dot = axes[0].errorbar(sub.games_changed, off, xerr=[sub.games_changed - sub.games_changed_ci_low,
                                                             sub.games_changed_ci_high - sub.games_changed],
                               fmt="o", ms=4, capsize=2, label=f"{p} players")
        axes[0].errorbar(sub.result_changed, off, xerr=[sub.result_changed - sub.result_changed_ci_low,
                                                        sub.result_changed_ci_high - sub.result_changed],
                         fmt="x", ms=5, capsize=2, color=dot[0].get_color(), alpha=0.7)
        for ax, m in zip(axes[1:], measures):
            ax.errorbar(sub[f"{m}_vs_base"], off, xerr=Z95 * sub[f"{m}_vs_base_se"], fmt="o", ms=4,
                        capsize=2, label=f"{p} players")
    axes[0].set_xlabel("games altered (o), result changed (x)", fontsize=8)
    for ax, m in zip(axes[1:], measures):
        ax.axvline(0, color="black", lw=0.8, ls="--")
        ax.set_xlabel(f"{m}: variant - base", fontsize=8)
    for ax in axes[:1 + len(measures)]:
        ax.set_yticks(y, labels if ax.get_subplotspec().is_first_col() else [""] * len(labels), fontsize=7)
        ax.invert_yaxis()
        ax.grid(alpha=0.3, axis="x")
        ax.tick_params(axis="x", labelsize=7)
    if len(players) > 1:
        axes[0].legend(fontsize=7)
    if curves is not None:
        ax = axes[1 + len(measures)]
        for variant, sub in curves.groupby("variant", sort=False):
            ax.errorbar(sub[study.sweep_key].astype(float), sub.value,
                        yerr=[sub.value - sub.ci_low, sub.ci_high - sub.value], marker="o", ms=3,
                        capsize=2, label=variant)
        ax.set_xlabel(f"{study.sweep_key} (lineup {', '.join(study.sweep_lineup)})", fontsize=7)
        ax.set_ylabel("win share of seat 0", fontsize=8)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    fig.suptitle(title_text)
    save_figure(fig, path)
