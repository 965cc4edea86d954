"""`meeplelab bench`: games per second of the engines, and the ratios that matter.

Measured, never asserted: tests do not time anything. Each figure is the best of `repeat`
runs (the least disturbed by other work on the machine).

A game's benchmark is a list of configurations (rules preset, strategies, games to time). The
first one is the headline: it is also timed through the plugin path (every decision through a
function pointer), on all threads, and for the start-up time of a new process.
"""
from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass

from sim import games as game_registry
from sim.core.errors import UsageError
from sim.core.runner import available_threads, set_threads
from strategies.play import resolve_rules
from strategies.registry import lineup


@dataclass(frozen=True)
class Setup:
    preset: str | None            # None: the game's default rules
    strategies: tuple
    games: int                    # fast-engine games per measurement (default)
    reference_games: int         # reference-engine games (default)


SETUPS = {
    "diamant": [Setup(None, ("leave-after-hazards:k=2", "leave-after-hazards:k=3",
                             "leave-at-gems:t=10", "leave-at-gems:t=15"), 1_000_000, 2_000)],
    "schotten-totten": [Setup("base", ("random", "random"), 1_000_000, 500),
                        Setup("tactics", ("random", "random"), 1_000_000, 500),
                        Setup("base", ("greedy", "greedy"), 20_000, 100),
                        Setup("tactics", ("greedy", "greedy"), 20_000, 100)],
}

START_SCRIPT = """
from strategies.play import play, resolve_rules
play({game!r}, resolve_rules({game!r}), {strategies!r}, games=1, seed=0, progress=False)
"""


def _best_rate(fn, games: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(games)
        best = min(best, time.perf_counter() - start)
    return games / best


def _engines(game: str, setup: Setup):
    """(fast(n, natives=...), reference(n), natives) for one configuration."""
    g = game_registry.get(game)
    players = len(setup.strategies)
    rules = resolve_rules(game, setup.preset)
    bound = lineup(game, list(setup.strategies), players)
    kernels = [b.strategy.kernel for b in bound]
    params = [b.params_array(rules, players) for b in bound]
    natives = [b.strategy.native for b in bound]
    chunk = 1 << 17

    def fast(n, natives=natives):
        for first in range(0, n, chunk):
            g.fast_play(rules, players, 1, first, min(chunk, n - first), kernels, params, natives)

    def reference(n):
        g.reference_play(rules, players, 1, 0, n, kernels, params)

    return fast, reference, rules


def _title(game: str, setup: Setup, rules) -> str:
    return (f"{game}: {len(setup.strategies)} players, {', '.join(setup.strategies)}; "
            f"rules {setup.preset or rules.DEFAULT_PRESET}")


def run(game: str, games: int | None = None, reference_games: int | None = None, repeat: int = 3):
    """Yield the benchmark report line by line. `games` / `reference_games` override every
    configuration's defaults."""
    game_registry.get(game)
    if game not in SETUPS:
        raise UsageError(f"no benchmark defined for {game}; allowed: {', '.join(SETUPS)}")
    for k, setup in enumerate(SETUPS[game]):
        n = games or setup.games
        n_ref = reference_games or setup.reference_games
        fast, reference, rules = _engines(game, setup)
        yield ("" if k == 0 else "\n") + _title(game, setup, rules)
        set_threads(1)
        fast(min(n, 1000))   # load the compiled engine before timing
        one = _best_rate(fast, n, repeat)
        yield f"fast engine, 1 thread:                {one:>12,.0f} games/s   (best of {repeat} x {n:,} games)"
        if k == 0:
            plug = _best_rate(lambda m: fast(m, natives=None), n, repeat)
            yield (f"same strategies as plugins, 1 thread: {plug:>12,.0f} games/s   "
                   f"({plug / one:.0%} of built-in speed: every decision through a function pointer)")
            threads = available_threads()
            set_threads(threads)
            many = _best_rate(fast, n, repeat)
            yield (f"fast engine, {threads} threads:              {many:>12,.0f} games/s   "
                   f"({many / one:.2f}x one thread)")
        ref = _best_rate(reference, n_ref, 1)
        yield f"reference engine:                     {ref:>12,.0f} games/s   ({n_ref:,} games)"
        yield f"fast (1 thread) / reference:          {one / ref:>12,.0f}x"
        if k == 0:
            script = START_SCRIPT.format(game=game, strategies=list(setup.strategies))
            subprocess.run([sys.executable, "-c", script], check=True)   # warm the cache
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", script], check=True)
            yield (f"new process, start to first game:    {time.perf_counter() - start:>12.2f} s      "
                   f"(warm compilation cache, interpreter start included)")
    set_threads(available_threads())
