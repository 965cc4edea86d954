"""`meeplelab bench`: games per second of the engines, and the ratios that matter.

Measured, never asserted: tests do not time anything. Each figure is the best of `repeat`
runs (the least disturbed by other work on the machine).
"""
from __future__ import annotations

import subprocess
import sys
import time

from sim import games as game_registry
from sim.core.errors import UsageError
from sim.core.runner import available_threads, set_threads
from strategies.play import resolve_rules
from strategies.registry import lineup

SETUPS = {
    "diamant": dict(players=4, strategies=["leave-after-hazards:k=2", "leave-after-hazards:k=3",
                                           "leave-at-gems:t=10", "leave-at-gems:t=15"]),
    "schotten-totten": dict(players=2, strategies=["random"]),
}

START_SCRIPT = """
import time
t = time.perf_counter()
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


def run(game: str, games: int = 1_000_000, reference_games: int = 2_000, repeat: int = 3):
    """Yield the benchmark report line by line."""
    g = game_registry.get(game)
    if game not in SETUPS:
        raise UsageError(f"no benchmark defined for {game}; allowed: {', '.join(SETUPS)}")
    setup = SETUPS[game]
    players, specs = setup["players"], setup["strategies"]
    rules = resolve_rules(game)
    bound = lineup(game, specs, players)
    kernels = [b.strategy.kernel for b in bound]
    params = [b.params_array(rules, players) for b in bound]
    natives = [b.strategy.native for b in bound]
    chunk = 1 << 17

    def fast(n, natives=natives):
        for first in range(0, n, chunk):
            g.fast_play(rules, players, 1, first, min(chunk, n - first), kernels, params, natives)

    def as_plugins(n):
        fast(n, natives=None)

    def reference(n):
        g.reference_play(rules, players, 1, 0, n, kernels, params)

    yield f"{game} benchmark: {players} players, {', '.join(specs)}; rules {rules.DEFAULT_PRESET}"
    set_threads(1)
    fast(1000)   # load the compiled engine before timing
    one = _best_rate(fast, games, repeat)
    yield f"fast engine, 1 thread:                {one:>12,.0f} games/s   (best of {repeat} x {games:,} games)"
    plug = _best_rate(as_plugins, games, repeat)
    yield (f"same strategies as plugins, 1 thread: {plug:>12,.0f} games/s   "
           f"({plug / one:.0%} of built-in speed: every decision through a function pointer)")
    threads = available_threads()
    set_threads(threads)
    many = _best_rate(fast, games, repeat)
    yield f"fast engine, {threads} threads:              {many:>12,.0f} games/s   ({many / one:.2f}x one thread)"
    ref = _best_rate(reference, reference_games, 1)
    yield f"reference engine:                     {ref:>12,.0f} games/s   ({reference_games:,} games)"
    yield f"fast (1 thread) / reference:          {one / ref:>12,.0f}x"
    script = START_SCRIPT.format(game=game, strategies=specs)
    subprocess.run([sys.executable, "-c", script], check=True)   # make sure the cache is warm
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", script], check=True)
    yield (f"new process, start to first game:    {time.perf_counter() - start:>12.2f} s      "
           f"(warm compilation cache, interpreter start included)")
