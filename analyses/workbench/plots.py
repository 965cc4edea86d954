"""The figures of compare, sweep and tune: every number with its 95% interval."""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
from matplotlib.ticker import MaxNLocator
import numpy as np
import pandas as pd

from ..common import save_figure
from .comparison import COUNT_ROWS
from .sweeps import objective_rows


def _panels(n: int, width: float = 4.2, height: float = 3.0, cols: int = 4):
    cols = min(cols, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False,
                             layout="constrained")
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def compare_figure(df: pd.DataFrame, path, title: str) -> None:
    """One panel per measure: each variant's difference from the base with its 95% interval
    (one point per seat for the seats' win shares and scores)."""
    rows = df[~df.measure.isin(COUNT_ROWS)]
    measures = list(dict.fromkeys(rows.measure))
    variants = list(dict.fromkeys(df.variant))
    fig, axes = _panels(len(measures), height=0.35 * len(variants) + 1.6)
    y = np.arange(len(variants))
    for ax, measure in zip(axes, measures):
        sub = rows[rows.measure == measure]
        slots = [s for s in dict.fromkeys(sub.slot) if not pd.isna(s)] or [None]
        for i, slot in enumerate(slots):
            part = sub if slot is None else sub[sub.slot == slot]
            part = part.set_index("variant").reindex(variants)
            off = y + (i - (len(slots) - 1) / 2) * (0.7 / len(slots))
            ax.errorbar(part.difference, off, xerr=[part.difference - part.ci_low,
                                                    part.ci_high - part.difference],
                        fmt="o", ms=3, capsize=2, label=None if slot is None else f"seat {slot}")
        ax.axvline(0, color="black", lw=0.8, ls="--")
        ax.set_title(measure, fontsize=9)
        ax.set_yticks(y, variants if ax is axes[0] or ax.get_subplotspec().is_first_col() else
                      [""] * len(variants), fontsize=7)
        ax.invert_yaxis()
        ax.grid(alpha=0.3, axis="x")
        ax.tick_params(axis="x", labelsize=7)
        if len(slots) > 1:
            ax.legend(fontsize=6)
    fig.suptitle(f"{title}: variant - base, paired on the same games (95% intervals)")
    save_figure(fig, path)


def _numeric(values) -> np.ndarray | None:
    try:
        return np.array([float(v) for v in values])
    except ValueError:
        return None


def sweep_figure(df: pd.DataFrame, path, title: str) -> None:
    """One key: every measure against the value, with 95% bands. Two keys: a heat map of the
    objective, the best point marked. More: the points ranked by the objective."""
    keys, objective, best = df.attrs["keys"], df.attrs["objective"], df.attrs.get("best", {})
    if len(keys) == 1:
        _sweep_lines(df, keys[0], path, title)
    elif len(keys) == 2:
        _sweep_heat(df, keys, objective, best, path, title)
    else:
        _sweep_ranked(df, objective, path, title)


def _sweep_lines(df, key, path, title):
    measures = list(dict.fromkeys(df.measure))
    fig, axes = _panels(len(measures))
    points = df.drop_duplicates("point").sort_values("point")
    x = _numeric(points[key])
    ticks = x if x is not None else np.arange(len(points))
    for ax, measure in zip(axes, measures):
        sub = df[df.measure == measure]
        slots = [s for s in dict.fromkeys(sub.slot) if not pd.isna(s)] or [None]
        for slot in slots:
            part = (sub if slot is None else sub[sub.slot == slot]).sort_values("point")
            line, = ax.plot(ticks, part.value, marker="o", ms=3,
                            label=None if slot is None else f"seat {slot}")
            ax.fill_between(ticks, part.ci_low, part.ci_high, alpha=0.2, color=line.get_color())
        ax.set_title(measure, fontsize=9)
        ax.set_xlabel(key, fontsize=8)
        if x is None:
            ax.set_xticks(ticks, points[key], rotation=30, fontsize=6)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
        if len(slots) > 1:
            ax.legend(fontsize=6)
    fig.suptitle(f"{title} (95% bands)")
    save_figure(fig, path)


def _sweep_heat(df, keys, objective, best, path, title):
    sub = objective_rows(df, objective)
    rows, cols = list(dict.fromkeys(sub[keys[0]])), list(dict.fromkeys(sub[keys[1]]))
    grid = np.full((len(rows), len(cols)), np.nan)
    for r in sub.itertuples():
        grid[rows.index(getattr(r, keys[0])), cols.index(getattr(r, keys[1]))] = r.value
    fig, ax = plt.subplots(figsize=(max(5, 0.7 * len(cols) + 3), max(3.5, 0.45 * len(rows) + 2)),
                           layout="constrained")
    im = ax.imshow(grid, cmap="viridis", aspect="auto")
    fig.colorbar(im, ax=ax, label=objective)
    if len(rows) * len(cols) <= 200:
        for i in range(len(rows)):
            for j in range(len(cols)):
                ax.text(j, i, f"{grid[i, j]:.3g}", ha="center", va="center", fontsize=7, color="white")
    if best:
        b = sub[sub.point == best["point"]].iloc[0]
        ax.add_patch(plt.Rectangle((cols.index(b[keys[1]]) - 0.5, rows.index(b[keys[0]]) - 0.5), 1, 1,
                                   fill=False, edgecolor="red", lw=2.5))
    ax.set_xticks(range(len(cols)), cols, fontsize=7, rotation=30)
    ax.set_yticks(range(len(rows)), rows, fontsize=7)
    ax.set_xlabel(keys[1])
    ax.set_ylabel(keys[0])
    ax.set_title(f"{title}: {objective} (best in red; intervals in the CSV)", fontsize=9)
    save_figure(fig, path)


def _sweep_ranked(df, objective, path, title, most: int = 40):
    sub = objective_rows(df, objective)
    goal = df.attrs.get("goal", "max")
    key = {"max": -sub.value, "min": sub.value, "zero": sub.value.abs()}[goal]
    top = sub.loc[key.sort_values(kind="stable").index[:most]]
    fig, ax = plt.subplots(figsize=(9, 0.28 * len(top) + 1.5), layout="constrained")
    y = np.arange(len(top))
    ax.errorbar(top.value, y, xerr=[top.value - top.ci_low, top.ci_high - top.value], fmt="o",
                ms=3, capsize=2)
    ax.set_yticks(y, top.label, fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel(f"{objective} (95%)")
    ax.grid(alpha=0.3, axis="x")
    ax.set_title(f"{title}: the {len(top)} best points by {objective} ({goal})", fontsize=9)
    save_figure(fig, path)


def tune_figure(history: pd.DataFrame, path, title: str) -> None:
    """The objective of every trial with its 95% interval and the best so far; the held-out
    confirmation in the title."""
    fig, ax = plt.subplots(figsize=(9, 4.2), layout="constrained")
    ax.errorbar(history.trial, history.value, yerr=[history.value - history.ci_low,
                                                    history.ci_high - history.value],
                fmt="o", ms=3, capsize=2, alpha=0.7, label="trial (95%)")
    ax.step(history.trial, history.best_so_far, where="post", color="black", label="best so far")
    ax.set_xlabel("trial")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel(history.attrs.get("objective", "objective"))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    from .tuner import confirmed
    c = confirmed(history)
    note = "" if c is None else (f"\nheld out, paired: tuned - default {c['diff']:+.4f} "
                                 f"[{c['ci_low']:+.4f}, {c['ci_high']:+.4f}] over {c['games']:,} games")
    ax.set_title(f"{title}{note}", fontsize=9)
    save_figure(fig, path)
