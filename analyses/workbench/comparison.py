"""`compare`: a base set-up against variants of its rules or of a seat's strategy, on the same
seeds, with the interval of every paired difference.

    >>> from analyses.workbench import compare
    >>> from strategies.play import resolve_rules
    >>> df = compare("diamant", resolve_rules("diamant"), ["leave-after-hazards:k=2"],
    ...              ["hazard_copies=2", "incan-gold-2006"], games=100_000, seed=1)
    >>> df[df.measure == "cards_revealed"]       # one row per variant and measure

Rows (tidy): variant, changes, measure, slot (the lineup's seat for `win_share` and `mean_score`;
empty for a game's measure), strategy (the variant's, in that slot), games, base, base_se, value,
value_se, difference (variant - base, game by game), difference_se, ci_low, ci_high (95%),
unpaired_se (the difference's SE had the arms been played on independent seeds). Two rows per
variant count games, not a measure: `games_changed` (any recorded outcome differs from the base
game on the same seed) and `result_changed` (the shares of the win differ), with Wilson
intervals. `df.attrs` holds the run: games, deals, rotations, seed, interrupted, and with
`until_ci` the main difference and whether its precision was reached.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from sim import games as game_registry
from sim.core.errors import UsageError
from sim.core.stats import Z95, wilson

from . import changes as C
from .paired import ArmsRun, play_arms
from .timing import limit_time

COUNT_ROWS = ("games_changed", "result_changed")


def default_main(base: C.Setup, variants: list[C.Setup]) -> str:
    """The difference `until_ci` watches: the win share of the first seat whose strategy a
    variant changes; else the first side's edge; alone at the table, the score."""
    if base.players == 1:
        return "mean_score:0"
    for v in variants:
        seats = C.changed_seats(base, v)
        if seats:
            return f"win_share:{seats[0]}"
    return "first_edge"


def check_main(game: str, main: str, players: int) -> str:
    allowed = ([f"win_share:{s}" for s in range(players)] + [f"mean_score:{s}" for s in range(players)]
               + [m.name for m in game_registry.get(game).all_measures()])
    if main not in allowed:
        raise UsageError(f"main difference {main!r}: allowed {', '.join(allowed)}")
    return main


def half_width(run: ArmsRun, arm: int, key: str) -> float:
    _, se = run.diffs[arm].mean_se()
    return float(Z95 * se[run.column(key)])


def setups(game: str, rules, strategies, variants, players: int | None = None):
    """The base and the variants (texts or Setups) as Setups, validated before anything runs."""
    base = C.base_setup(game, rules, strategies, players)
    out = [v if isinstance(v, C.Setup) else C.variant(game, base, v) for v in variants]
    if not out:
        raise UsageError("give at least one variant to compare with the base (--variant ...)")
    return base, out


def compare(game: str, rules, strategies, variants, *, players: int | None = None,
            games: int = 10_000, seed: int = 0, first_game: int = 0, rotate: bool | None = None,
            until_ci: float | None = None, main: str | None = None, chunk: int | None = None,
            threads: int | None = None, progress: bool | None = None, engine: str = "auto",
            max_seconds: float | None = None) -> pd.DataFrame:
    """The base (rules, strategies: one spec for every seat or one per seat) against each
    variant (a text as `--variant` takes it, or a Setup), on the same seeds: deals first_game ..
    first_game + games - 1; with seats rotated (the default when a variant changes a strategy), each
    deal is played once per seating. `until_ci`: stop once the 95% half-width of the main
    difference (`main`, default `default_main`) is below it for every variant. max_seconds:
    refuse (UsageError) a comparison whose short timing exceeds it (timing.py; with `until_ci`,
    `games` is the most it plays)."""
    base, arms = setups(game, rules, strategies, variants, players)
    if rotate is None:
        rotate = any(C.strategies_differ(base, v) for v in arms)
    main = check_main(game, main or default_main(base, arms), base.players)
    if until_ci is not None and not until_ci > 0:
        raise UsageError(f"--until-ci {until_ci}: the half-width must be a positive number")
    rotations = base.players if rotate else 1
    limit_time(game, [base, *arms], games, seed, rotations, threads, engine, max_seconds,
               f"-n {games:,}" + (" (the most --until-ci plays)" if until_ci is not None else ""))
    stop = None
    if until_ci is not None:
        def stop(run):
            return all(half_width(run, a, main) < until_ci for a in range(1, len(run.setups)))
    run = play_arms(game, [base, *arms], deals=games, seed=seed, first_game=first_game,
                    rotations=rotations, chunk=chunk, threads=threads,
                    progress=progress, engine=engine, stop=stop,
                    desc=f"compare {game}")
    df = table(run)
    df.attrs.update(game=game, games=run.games, deals=run.info.games, deals_requested=games,
                    rotations=run.rotations, seed=seed, interrupted=run.info.interrupted,
                    elapsed_seconds=run.info.elapsed, threads=run.info.threads,
                    engine=",".join(run.engines), main=main, until_ci=until_ci,
                    precision_reached=(until_ci is not None and run.games > 1 and all(
                        half_width(run, a, main) < until_ci for a in range(1, len(run.setups)))))
    return df


def table(run: ArmsRun) -> pd.DataFrame:
    """The tidy table of a paired run: every arm after the first against the first."""
    base = run.setups[0]
    b_mean, b_se = run.totals[0].mean_se()
    rows = []
    for a in range(1, len(run.setups)):
        v = run.setups[a]
        mean, se = run.totals[a].mean_se()
        d, d_se = run.diffs[a].mean_se()
        n = run.totals[a].n
        common = {"variant": v.label, "changes": "; ".join(v.changes), "games": n}
        for name, count in zip(COUNT_ROWS, (run.changed[a], run.result_changed[a])):
            low, high = wilson(count, n)
            rows.append({**common, "measure": name, "slot": None, "strategy": "", "base": 0.0,
                         "base_se": 0.0, "value": count / max(n, 1), "value_se": np.nan,
                         "difference": count / max(n, 1), "difference_se": np.nan, "ci_low": float(low),
                         "ci_high": float(high), "unpaired_se": np.nan})
        for j, q in enumerate(run.quantities):
            rows.append({**common, "measure": q.measure, "slot": q.slot,
                         "strategy": C.short_label(v.lineup[q.slot]) if q.slot is not None else "",
                         "base": b_mean[j], "base_se": b_se[j], "value": mean[j], "value_se": se[j],
                         "difference": d[j], "difference_se": d_se[j], "ci_low": d[j] - Z95 * d_se[j],
                         "ci_high": d[j] + Z95 * d_se[j],
                         "unpaired_se": float(np.hypot(b_se[j], se[j]))})
    df = pd.DataFrame(rows)
    df["slot"] = df["slot"].astype("Int64")
    df.attrs["base_strategies"] = [C.short_label(b) for b in base.lineup]
    return df


def format_table(df: pd.DataFrame) -> str:
    """The console view: per variant the games changed, then each measure's base, variant and
    difference with its 95% interval."""
    out = []
    for variant, sub in df.groupby("variant", sort=False):
        changed = sub[sub.measure == "games_changed"].iloc[0]
        result = sub[sub.measure == "result_changed"].iloc[0]
        changes = sub.changes.iloc[0]
        out.append(f"variant {variant!r}" + (f" ({changes})" if changes and changes != variant else "")
                   + f": {changed.games:,} games; outcome changed in {changed.value:.4f} "
                     f"[{changed.ci_low:.4f}, {changed.ci_high:.4f}], result changed in "
                     f"{result.value:.4f} [{result.ci_low:.4f}, {result.ci_high:.4f}]")
        rest = sub[~sub.measure.isin(COUNT_ROWS)]
        shown = pd.DataFrame({
            "measure": [m if pd.isna(s) else f"{m} seat {s}" for m, s in zip(rest.measure, rest.slot)],
            "strategy": rest.strategy,
            "base ± SE": [f"{m:.4f} ± {s:.4f}" for m, s in zip(rest.base, rest.base_se)],
            "variant ± SE": [f"{m:.4f} ± {s:.4f}" for m, s in zip(rest.value, rest.value_se)],
            "difference [95% CI]": [f"{d:+.4f} [{lo:+.4f}, {hi:+.4f}]" for d, lo, hi in
                                    zip(rest.difference, rest.ci_low, rest.ci_high)]})
        out.append(shown.to_string(index=False))
        out.append("")
    return "\n".join(out).rstrip() + "\n"
