"""`sweep`: every point of a grid of rule or strategy parameters on the same seeds; the best
point and its paired advantage over the runner-up.

    >>> from analyses.workbench import sweep
    >>> df = sweep("diamant", resolve_rules("diamant"), ["leave-at-gems:t=10"],
    ...            ["seat0.k=1..6"], games=100_000, seed=1)      # with seat0=leave-after-hazards

A grid is one `KEY=VALUES` per key (the cross product of all keys): values comma-separated, with
`a..b` for the integers a to b and `a..b:step` for a stepped range (`0.1..0.5:0.1`), or separated
by `|` when a value holds commas (`tactic_cards=Fog|Mud|Fog,Mud`, `seat0=greedy|flat-mc:sims=10,
prune=4`). Keys as `changes.py` reads them: rule parameters, `seatN=STRATEGY`, `seatN.PARAM`.

Rows (tidy): point (0..), label, one column per key, measure, slot, strategy, games, value, se,
ci_low, ci_high (95%: Wilson's for shares). `df.attrs["best"]`: the best point by the objective,
the runner-up, and the best one's advantage over it, paired game by game, with its interval.
"""
from __future__ import annotations

import itertools
import time
from decimal import Decimal, InvalidOperation

import numpy as np
import pandas as pd

from sim.core.errors import UsageError
from sim.core.measures import UNIT
from sim.core.stats import Z95, paired_difference, wilson

from . import changes as C
from .comparison import check_main
from .paired import play_arms
from .timing import ESTIMATE_GAMES, check_limit, duration, estimate_seconds

MAX_POINTS = 10_000
GOALS = ("max", "min", "zero")
KEPT_VALUES = 1 << 26        # per-game objective values kept for the best-vs-runner-up pairing


# ---------------------------------------------------------------- the grid
def parse_values(key: str, text: str) -> list[str]:
    """`1,2,5`, `1..8`, `0.1..0.5:0.1`, or `a|b|c` as value texts."""
    if "|" in text:
        values = [v.strip() for v in text.split("|")]
    else:
        values = []
        for item in text.split(","):
            values += _range(key, item.strip()) if ".." in item else [item.strip()]
    if not values or any(v == "" for v in values):
        raise UsageError(f"--grid {key}={text}: an empty value; give values such as 1,2,3 or 1..8")
    return values


def _range(key: str, item: str) -> list[str]:
    bounds, _, step = item.partition(":")
    lo, _, hi = bounds.partition("..")
    try:
        a, b = Decimal(lo), Decimal(hi)
        s = Decimal(step) if step else Decimal(1)
    except InvalidOperation:
        raise UsageError(f"--grid {key}={item}: a range is a..b or a..b:step with numbers "
                         f"(1..8, 0.1..0.5:0.1)") from None
    if not step and (a != a.to_integral() or b != b.to_integral()):
        raise UsageError(f"--grid {key}={item}: a range of non-integers needs a step, e.g. {lo}..{hi}:0.1")
    if s <= 0:
        raise UsageError(f"--grid {key}={item}: the step must be positive")
    if b < a:
        raise UsageError(f"--grid {key}={item}: an empty range (the end is below the start)")
    count = int((b - a) / s) + 1
    if count > MAX_POINTS:
        raise UsageError(f"--grid {key}={item}: {count:,} values; at most {MAX_POINTS:,} points in all")
    return [str(a + i * s) for i in range(count)]


def parse_grid(game: str, base: C.Setup, grid) -> tuple[list[str], list[list[str]], list[C.Setup]]:
    """Keys, their values and every point's Setup (validated: a bad key or value stops here)."""
    if not grid:
        raise UsageError("an empty grid: give at least one --grid KEY=VALUES (e.g. --grid seat0.k=1..6)")
    keys, values = [], []
    for text in grid:
        if "=" not in text:
            raise UsageError(f"--grid {text!r}: expected KEY=VALUES; keys: {C.keys_text(game, base.players)}")
        key, raw = (s.strip() for s in text.split("=", 1))
        if key in keys:
            raise UsageError(f"--grid {key}: given twice; give all its values in one --grid")
        if key in ("preset", "rules"):
            raise UsageError(f"--grid {key}: a grid sweeps parameters; compare presets or rule "
                             f"files with `meeplelab compare --variant`")
        keys.append(key)
        values.append(parse_values(key, raw))
    points = int(np.prod([len(v) for v in values], dtype=object))
    if points > MAX_POINTS:
        raise UsageError(f"--grid: {points:,} points ({' x '.join(str(len(v)) for v in values)}); "
                         f"at most {MAX_POINTS:,}")
    setups = []
    for combo in itertools.product(*values):
        items = [f"{k}={v}" for k, v in zip(keys, combo)]
        label = ", ".join(items)
        setups.append(C.apply(game, base, items, label, f"--grid {label!r}"))
    return keys, values, setups


# ---------------------------------------------------------------- the objective
def default_objective(keys: list[str], players: int) -> str:
    """The swept seat's win share (its score alone at the table), else the first side's edge."""
    for key in keys:
        m = C.SEAT_KEY.match(key.split("=")[0])
        if m:
            return f"{'mean_score' if players == 1 else 'win_share'}:{m.group(1)}"
    return "mean_score:0" if players == 1 else "first_edge"


def default_goal(objective: str) -> str:
    return "zero" if objective == "first_edge" else "max"


def _order(values: np.ndarray, goal: str) -> np.ndarray:
    """Point indices from the best; ties keep the grid's order."""
    key = {"max": -values, "min": values, "zero": np.abs(values)}[goal]
    return np.argsort(key, kind="stable")


# ---------------------------------------------------------------- the sweep
def sweep(game: str, rules, strategies, grid, *, players: int | None = None, games: int = 10_000,
          seed: int = 0, objective: str | None = None, goal: str | None = None,
          rotate: bool | None = None, chunk: int | None = None, threads: int | None = None,
          progress: bool | None = None, engine: str = "auto", estimate: bool = True,
          echo=None, max_seconds: float | None = None) -> pd.DataFrame:
    """Play every point of `grid` (texts `KEY=VALUES`) on the same seeds: `games` deals each
    (once per seating when seats are rotated, the default when a seat's strategy is swept).
    echo: where the time estimate and progress messages go (None: nowhere). max_seconds: refuse
    (UsageError) a sweep whose estimate exceeds it (timing.py). On Ctrl-C the finished points
    are returned (attrs["interrupted"])."""
    base = C.base_setup(game, rules, strategies, players)
    keys, values, setups = parse_grid(game, base, grid)
    objective = check_main(game, objective or default_objective(keys, base.players), base.players)
    goal = goal or default_goal(objective)
    if goal not in GOALS:
        raise UsageError(f"goal {goal!r}: allowed {', '.join(GOALS)}")
    if rotate is None:
        rotate = any(C.strategies_differ(base, s) for s in setups)
    rotations = base.players if rotate else 1
    say = echo or (lambda m: None)
    total = len(setups) * games * rotations
    if (estimate or max_seconds is not None) and total >= ESTIMATE_GAMES:
        seconds = estimate_seconds(game, setups, games, seed, rotations, threads, engine)
        check_limit(seconds, games, max_seconds,
                    f"-n {games:,} ({len(setups)} points x {games * rotations:,} games)")
        say(f"sweep: {len(setups)} points x {games * rotations:,} games; estimated "
            f"{duration(seconds)} (from a short timing)")
    keep_all = len(setups) * games * rotations <= KEPT_VALUES
    kept, rows, runs = {}, [], []
    start, interrupted = time.perf_counter(), False
    for i, s in enumerate(setups):
        run = play_arms(game, [s], deals=games, seed=seed, rotations=rotations, chunk=chunk,
                        threads=threads, progress=progress, engine=engine, paired=False,
                        keep=objective if keep_all else None,
                        desc=f"sweep {game}: point {i + 1}/{len(setups)}")
        if run.info.interrupted:
            interrupted = True
            break
        runs.append(run)
        if keep_all:   # in (seating, game) order, the same for every point: paired
            kept[i] = run.kept[0]
        rows += _point_rows(i, s, keys, run)
    df = pd.DataFrame(rows)
    if len(df):
        df["slot"] = df["slot"].astype("Int64")
    df.attrs.update(game=game, keys=keys, objective=objective, goal=goal, seed=seed,
                    deals=games, rotations=rotations, points=len(setups), points_done=len(runs),
                    interrupted=interrupted, elapsed_seconds=time.perf_counter() - start,
                    threads=runs[0].info.threads if runs else None)
    if len(runs) >= 1:
        df.attrs["best"] = _best(game, df, setups, kept, objective, goal, games, seed, rotations,
                                 chunk, threads, engine)
    return df


def _point_rows(i: int, s: C.Setup, keys: list[str], run) -> list[dict]:
    mean, se = run.totals[0].mean_se()
    n = run.games
    key_values = dict(zip(keys, [item.split("=", 1)[1] for item in s.changes]))
    rows = []
    for j, q in enumerate(run.quantities):
        if q.share:
            low, high = (float(x) for x in wilson(mean[j] * n, n))
        else:
            low, high = mean[j] - Z95 * se[j], mean[j] + Z95 * se[j]
        rows.append({"point": i, "label": s.label, **key_values, "measure": q.measure,
                     "slot": q.slot, "strategy": C.short_label(s.lineup[q.slot]) if q.slot is not None else "",
                     "games": n, "value": mean[j], "se": se[j], "ci_low": low, "ci_high": high})
    return rows


def objective_rows(df: pd.DataFrame, objective: str) -> pd.DataFrame:
    """The rows of the objective, one per point."""
    measure, _, slot = objective.partition(":")
    sub = df[df.measure == measure]
    if slot:
        sub = sub[sub.slot == int(slot)]
    return sub.sort_values("point")


def _best(game, df, setups, kept, objective, goal, games, seed, rotations, chunk, threads, engine):
    sub = objective_rows(df, objective)
    order = _order(sub.value.to_numpy(), goal)
    best = sub.iloc[order[0]]
    out = {"point": int(best.point), "label": best.label, "value": float(best.value),
           "se": float(best.se), "objective": objective, "goal": goal}
    if len(order) < 2:
        return out
    second = sub.iloc[order[1]]
    a, b = int(best.point), int(second.point)
    if a in kept and b in kept:
        diff, se = paired_difference(kept[a] / UNIT, kept[b] / UNIT)
    else:   # too many games to keep every point's: play the two again, paired
        run = play_arms(game, [setups[a], setups[b]], deals=games, seed=seed, rotations=rotations,
                        chunk=chunk, threads=threads, engine=engine, progress=False)
        d, d_se = run.diffs[1].mean_se()
        j = run.column(objective)
        diff, se = -float(d[j]), float(d_se[j])
    out.update(runner_up=second.label, runner_up_point=b, runner_up_value=float(second.value),
               advantage=diff, advantage_se=se, advantage_ci_low=diff - Z95 * se,
               advantage_ci_high=diff + Z95 * se)
    return out


def format_best(best: dict) -> str:
    text = (f"best: {best['label']} ({best['objective']} {best['value']:.4f} ± {best['se']:.4f} SE, "
            f"goal {best['goal']})")
    if "runner_up" in best:
        text += (f"; against the runner-up {best['runner_up']} ({best['runner_up_value']:.4f}): "
                 f"{best['advantage']:+.4f} [{best['advantage_ci_low']:+.4f}, "
                 f"{best['advantage_ci_high']:+.4f}] (95%, paired on the same games)")
    return text
