"""How long a run will take, from a short timing, and the limit a run is held to.

A run of at least ESTIMATE_GAMES games is first timed on a few of its own games (`sweep` then
says how long it will take). With a limit (`max_seconds`; the command line gives DAY unless
`--allow-long`), a run whose estimate exceeds it is refused before anything is played or
written, with the estimate and the largest -n that would fit. On a Dask backend there is no such
check: a few games on a cluster do not measure its throughput (the command line's hard maximum
of games still holds).
"""
from __future__ import annotations

import numpy as np

from sim.core import backends
from sim.core.errors import UsageError

from .paired import play_arms

ESTIMATE_GAMES = 200_000     # a run of at least this many games is timed first
DAY = 86_400.0               # the command line's limit, in seconds


def games_per_second(game, setups, games, seed, rotations, threads, engine) -> float:
    """Games per second from timing a few games at the first and last set-ups (the cost of a
    set-up may depend on its parameters, a search budget say): at most a tenth of `games` each,
    more until the timing takes a tenth of a second. The first play of a set-up is not timed: it
    compiles, or loads from the cache, what the set-up plays. Ctrl-C: KeyboardInterrupt."""
    rates = []
    for s in [setups[0]] + ([setups[-1]] if len(setups) > 1 else []):
        n, warm = 16, False
        while True:
            run = play_arms(game, [s], deals=n, seed=seed, rotations=rotations, threads=threads,
                            engine=engine, progress=False, paired=False)
            if run.info.interrupted:          # Ctrl-C: before the run, so nothing to keep
                raise KeyboardInterrupt
            if not warm:
                warm = True
                continue
            if run.info.elapsed >= 0.1 or n >= games // 10:
                break
            n = min(4 * n, max(games // 10, 16))
        rates.append(run.games / max(run.info.elapsed, 1e-9))
    return float(np.mean(rates))


def estimate_seconds(game, setups, games, seed, rotations, threads, engine) -> float:
    """The time of playing every set-up's `games` deals `rotations` times each."""
    rate = games_per_second(game, setups, games, seed, rotations, threads, engine)
    return len(setups) * games * rotations / rate


def check_limit(seconds: float, games: int, max_seconds: float | None, what: str) -> None:
    """UsageError when a run of `games` (what -n gave; `what` names it) estimated at `seconds`
    exceeds `max_seconds` (None: no limit; on a Dask backend: not checked)."""
    if max_seconds is None or seconds <= max_seconds or backends.current() is not None:
        return
    limit = "a day" if max_seconds == DAY else duration(max_seconds)
    fits = int(games * max_seconds / seconds)
    digits = max(len(str(fits)) - 2, 0)            # two significant digits, rounded down
    fits = max(fits // 10 ** digits * 10 ** digits, 1)
    raise UsageError(f"{what}: estimated {duration(seconds)} from a short timing, more than "
                     f"{limit}; allowed: a run that fits in {limit} (here about -n {fits:,}), or "
                     f"--allow-long to play it anyway")


def limit_time(game, setups, games, seed, rotations, threads, engine, max_seconds,
               what: str | None = None, deals: int | None = None) -> float | None:
    """Refuse (UsageError, `check_limit`) a run of every set-up's `deals` (default `games`, the
    -n given) deals `rotations` times each whose short timing exceeds `max_seconds`; the
    estimate, or None when not timed (no limit, fewer than ESTIMATE_GAMES games, or a Dask
    backend)."""
    deals = games if deals is None else deals
    if (max_seconds is None or len(setups) * deals * rotations < ESTIMATE_GAMES
            or backends.current() is not None):
        return None
    seconds = estimate_seconds(game, setups, deals, seed, rotations, threads, engine)
    check_limit(seconds, games, max_seconds, what or f"-n {games:,}")
    return seconds


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    if seconds < 2 * DAY:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / DAY:,.1f} days"
