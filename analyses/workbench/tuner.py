"""`tune`: the best parameters of a strategy against a lineup, by a seeded Optuna study (TPE) over
paired seeds, then confirmed on fresh seeds that took no part in the study.

    >>> from analyses.workbench import tune
    >>> h = tune("schotten-totten", resolve_rules("schotten-totten"), "greedy",
    ...          ["lam=0..2", "crit=0..4"], ["greedy"], trials=30, games=2000, seed=1)
    >>> h.attrs["best_params"], h.attrs["confirmation"]

Every trial plays the same deals (games 0 .. games - 1 of the seed; with seats rotated, once per
seating), so trials differ only by their parameters (common random numbers); the study's first
trial is the strategy's defaults. The confirmation plays the tuned and the default parameters,
paired, on games games .. games + confirm_games - 1, which no trial played: the tuned
parameters' advantage there is an honest estimate, where the best trial's own value is biased up
by the choice of the best of many.

History rows: trial, each parameter, value (the objective), se, ci_low, ci_high, best_so_far.
attrs: best_params, best_value, default_params, confirmation (compare's table of the tuned
against the default parameters), objective, seed, games.
"""
from __future__ import annotations

import dataclasses
import sys
import time

import numpy as np
import pandas as pd
from tqdm import tqdm

from sim import games as game_registry
from sim.core.errors import UsageError
from sim.core.stats import Z95
from strategies.registry import Bound, parse_spec

from . import changes as C
from .comparison import check_main, table
from .paired import play_arms
from .timing import limit_time


@dataclasses.dataclass(frozen=True)
class Range:
    """One tuned parameter: its name, bounds and scale."""
    name: str
    low: float
    high: float
    integer: bool
    log: bool = False


def parse_range(strategy: Bound, text: str) -> Range:
    """`NAME=LO..HI` (or `NAME=LO..HI:log`), within the parameter's own bounds."""
    where = f"--param {text!r}"
    name, eq, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not eq or ".." not in raw:
        raise UsageError(f"{where}: expected NAME=LO..HI (e.g. k=1..6), NAME a parameter of "
                         f"{strategy.strategy.name!r}: "
                         f"{', '.join(p.name for p in strategy.strategy.params) or '(none)'}")
    p = strategy.strategy.param(name)
    if p.type is bool or p.type is str:
        raise UsageError(f"{where}: {name!r} is not a number; tune numeric parameters")
    bounds, _, scale = raw.partition(":")
    if scale not in ("", "log"):
        raise UsageError(f"{where}: the scale after ':' may only be 'log'")
    lo_text, _, hi_text = bounds.partition("..")
    lo, hi = (p.parse(x.strip(), strategy.strategy.name) for x in (lo_text, hi_text))
    if not lo < hi:
        raise UsageError(f"{where}: an empty range ({lo_text} to {hi_text}): the low end must be "
                         f"below the high end")
    if scale == "log" and lo <= 0:
        raise UsageError(f"{where}: a log scale needs a positive low end")
    return Range(p.name, lo, hi, p.type is int, scale == "log")


def _suggest(trial, r: Range):
    if r.integer:
        return trial.suggest_int(r.name, int(r.low), int(r.high), log=r.log)
    return trial.suggest_float(r.name, r.low, r.high, log=r.log)


def with_values(bound: Bound, values: dict) -> Bound:
    merged = dict(bound.values)
    merged.update(values)
    return Bound(bound.strategy, tuple(merged.items()))


def lineup_setup(game: str, rules, strategy: Bound, against, players, label: str) -> C.Setup:
    """Slot 0 plays `strategy`, the others `against` (one spec for all, or one per seat)."""
    against = list(against)
    if players is None:
        players = (1 + len(against) if len(against) > 1 else
                   game_registry.get(game).default_players if against else 1)
    if players > 1 and not against:
        raise UsageError(f"--against: give the opponents' strategies ({players - 1} other seats)")
    if players > 1 and len(against) not in (1, players - 1):
        raise UsageError(f"--against: {len(against)} strategies for {players - 1} other seats: "
                         f"give one for all or exactly {players - 1}")
    others = [parse_spec(game, a) for a in against] if against else []
    others = others * (players - 1) if len(others) == 1 else others
    base = C.base_setup(game, rules, [strategy, *others] if others else [strategy], players)
    return C.Setup(label, base.rules, base.lineup)


def tune(game: str, rules, strategy: str, params, against=(), *, players: int | None = None,
         trials: int = 30, games: int = 2_000, confirm_games: int | None = None, seed: int = 0,
         objective: str | None = None, rotate: bool | None = None, threads: int | None = None,
         engine: str = "auto", progress: bool | None = None,
         max_seconds: float | None = None) -> pd.DataFrame:
    """Tune `strategy`'s parameters (`params`: texts `NAME=LO..HI`) against `against`; `games`
    deals per trial; `confirm_games` (default 4 x games) fresh deals for the confirmation.
    max_seconds: refuse (UsageError) a study whose short timing (of the default parameters)
    exceeds it, trials and confirmation together (timing.py)."""
    import optuna

    default = parse_spec(game, strategy) if isinstance(strategy, str) else strategy
    ranges = [parse_range(default, t) for t in params]
    if not ranges:
        raise UsageError("give at least one --param NAME=LO..HI to tune")
    names = [r.name for r in ranges]
    if len(set(names)) < len(names):
        raise UsageError(f"--param: a parameter given twice ({', '.join(names)})")
    if trials < 1 or games < 1:
        raise UsageError("--trials and --games must be at least 1")
    base = lineup_setup(game, rules, default, against, players, "default")
    objective = check_main(game, objective or ("mean_score:0" if base.players == 1 else "win_share:0"),
                           base.players)
    rotations = base.players if (rotate if rotate is not None else base.players > 1) else 1
    confirm_games = confirm_games or 4 * games
    limit_time(game, [base], games, seed, rotations, threads, engine, max_seconds,
               f"-n {games:,} ({trials} trials, then {confirm_games:,} deals twice to confirm)",
               deals=trials * games + 2 * confirm_games)
    defaults = dict(default.values)
    first = {r.name: (int(defaults[r.name]) if r.integer else float(defaults[r.name]))
             for r in ranges}
    inside = all(r.low <= first[r.name] <= r.high for r in ranges)

    def setup_of(values: dict, label: str) -> C.Setup:
        return C.Setup(label, base.rules, (with_values(default, values),) + base.lineup[1:])

    rows = []

    def evaluate(trial) -> float:
        values = {r.name: _suggest(trial, r) for r in ranges}
        run = play_arms(game, [setup_of(values, f"trial {trial.number}")], deals=games, seed=seed,
                        rotations=rotations, threads=threads, engine=engine, progress=False,
                        paired=False)
        if run.info.interrupted:
            raise KeyboardInterrupt
        mean, se = run.totals[0].mean_se()
        j = run.column(objective)
        rows.append({"trial": trial.number, **values, "value": mean[j], "se": se[j]})
        return float(mean[j])

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize",
                                sampler=optuna.samplers.TPESampler(seed=seed % 2**32))
    if inside:
        study.enqueue_trial(first)       # the defaults are a candidate
    start = time.perf_counter()
    interrupted = False
    show = progress if progress is not None else sys.stderr.isatty()
    with tqdm(total=trials, desc=f"tune {game} {default.strategy.name}", unit="trial",
              disable=not show, file=sys.stderr) as bar:
        try:
            for _ in range(trials):
                study.optimize(evaluate, n_trials=1, catch=())
                bar.update(1)
        except KeyboardInterrupt:
            interrupted = True
    if not rows:
        raise KeyboardInterrupt
    history = pd.DataFrame(rows)
    history["ci_low"] = history.value - Z95 * history.se
    history["ci_high"] = history.value + Z95 * history.se
    history["best_so_far"] = history.value.cummax()
    best_row = history.loc[history.value.idxmax()]     # the first of equal values
    best = {r.name: (int(best_row[r.name]) if r.integer else float(best_row[r.name])) for r in ranges}

    confirmation = None
    if not interrupted:
        run = play_arms(game, [setup_of({}, "default"), setup_of(best, "tuned")],
                        deals=confirm_games, seed=seed, first_game=games, rotations=rotations,
                        threads=threads, engine=engine, progress=progress,
                        desc=f"confirm {game} {default.strategy.name}")
        interrupted = run.info.interrupted
        confirmation = table(run)
    history.attrs.update(game=game, strategy=default.strategy.name, best_params=best,
                         best_value=float(best_row.value), best_trial=int(best_row.trial),
                         default_params=first, tuned=with_values(default, best).label,
                         confirmation=confirmation, objective=objective, seed=seed, games=games,
                         rotations=rotations, confirm_games=confirm_games,
                         lineup=[C.short_label(b) for b in base.lineup], interrupted=interrupted,
                         elapsed_seconds=time.perf_counter() - start, trials=len(rows))
    return history


def confirmed(history: pd.DataFrame) -> dict | None:
    """The confirmation's objective row: tuned - default, paired, on the held-out games."""
    c = history.attrs.get("confirmation")
    if c is None:
        return None
    measure, _, slot = history.attrs["objective"].partition(":")
    row = c[(c.measure == measure) & ((c.slot == int(slot)) if slot else c.slot.isna())].iloc[0]
    return {"default": float(row.base), "default_se": float(row.base_se), "tuned": float(row.value),
            "tuned_se": float(row.value_se), "diff": float(row.difference),
            "diff_se": float(row.difference_se),
            "ci_low": float(row.ci_low), "ci_high": float(row.ci_high),
            "games": int(row.games), "better": bool(row.ci_low > 0)}


def format_result(history: pd.DataFrame) -> str:
    a = history.attrs
    lines = [f"best of {a['trials']} trials: {a['tuned']} (trial {a['best_trial']}; "
             f"{a['objective']} {a['best_value']:.4f} on the study's games, biased up by the choice)"]
    c = confirmed(history)
    if c is not None:
        lines.append(f"confirmation on {c['games']:,} fresh games, paired: default {c['default']:.4f} "
                     f"± {c['default_se']:.4f} SE, tuned {c['tuned']:.4f} ± {c['tuned_se']:.4f} SE, "
                     f"tuned - default {c['diff']:+.4f} [{c['ci_low']:+.4f}, {c['ci_high']:+.4f}] "
                     f"(95%): " + ("the tuned parameters are better" if c["better"] else
                                   "not shown better than the defaults"))
    return "\n".join(lines)
