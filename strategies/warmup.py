"""Fill numba's on-disk cache, one process per game, before work that would compile it serially.

From a cold cache (a fresh clone, any edit of `sim/` or `strategies/`), compiling takes minutes:
the report would compile game after game on one core, and two pytest-xdist workers would each
compile the same engines and search kernels. Here each game is compiled once, in its own
process (registering a game's built-ins compiles only that game's kernels), the largest first,
as many at a time as asked; later processes load everything from the cache. With a warm cache
this only loads (a second or two per game). Used by `meeplelab report` and by the test suite
(tests/conftest.py).

`python -m strategies.warmup [GAME...]` warms the given games (default all) in this process.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import sys
import time
from pathlib import Path


def warm(game: str) -> tuple[str, float]:
    """Compile (or load) `game`'s built-in kernels (its searches included), its fast engine and
    its invariants loop. Returns (game, seconds)."""
    from sim import games
    from strategies.play import kernels_and_params
    from strategies.registry import all_strategies, lineup

    start = time.perf_counter()
    g = games.get(game)
    all_strategies(game)         # registering compiles the kernels, or loads them
    rules = g.rules.preset()
    players = g.default_players
    bound = lineup(game, ["random"] * players, players)
    kernels, params = kernels_and_params(bound, rules)
    g.fast_play(rules, players, 1, 0, 1, kernels, params, [b.strategy.native for b in bound])
    g.check_invariants(rules, players, 1, 0, 1, kernels, params)
    return game, time.perf_counter() - start


@contextlib.contextmanager
def warming(processes: int, names: list[str]):
    """Compile (or load) the named games in new processes, `processes` at a time, the largest
    first. Yields an iterator of (game, seconds) in the order the games are ready, so that work
    on the first can start while the others still compile. On an error in that work the games
    not started are cancelled (those compiling finish in the background)."""
    order = sorted(names, key=_source_size, reverse=True)
    pool = concurrent.futures.ProcessPoolExecutor(
        processes, mp_context=multiprocessing.get_context("spawn"))
    try:
        futures = [pool.submit(warm, name) for name in order]
        yield (f.result() for f in concurrent.futures.as_completed(futures))
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def warm_all(processes: int, names: list[str] | None = None, echo=print) -> float:
    """Every game (or those named), in new processes, `processes` at a time; returns the
    seconds it took."""
    from sim import games
    start = time.perf_counter()
    with warming(processes, names or games.names()) as ready:
        for game, seconds in ready:
            echo(f"numba cache: {game} ready in {seconds:.0f} s")
    return time.perf_counter() - start


def _source_size(name: str) -> int:
    """The size of the sources beside the game's fast engine: roughly its compile time."""
    from sim import games
    here = Path(sys.modules[games.get(name).fast_play.__module__].__file__).parent
    return sum(p.stat().st_size for p in here.glob("*.py"))


if __name__ == "__main__":
    from sim import games
    for name in sys.argv[1:] or games.names():
        print(*warm(name))
