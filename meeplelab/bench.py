"""`meeplelab bench`: games per second of the engines, and the ratios that matter.

Measured, never asserted: tests do not time anything. Each fast-engine rate is the best of
`repeat` runs (the least disturbed by other work on the machine); the reference engine's rate
and the start-up time are one run each.

A game's benchmark is the list of configurations its declaration gives (`bench` in
sim/<game>/game.py: rules preset, strategies, games to time). The first one is the headline:
it is also timed with its built-ins called through their function pointers, on all threads,
and for the start-up time of a new process. A game that declares a `plugin_bench` is also timed
as a user's plugin runs: a plugin file whose strategy is exactly a built-in's code is written
to a temporary folder, loaded with `load_plugin_file` and timed in whole runs
(`strategies.play.play`, as `meeplelab run` does) against the built-in, compiled into the engine
and through its pointer, interleaved, best of `repeat` (at least 3).

Search strategies are also timed per decision (the declaration's `search_bench`): the searcher
plays whole games against an opponent, seats alternating, and every call of its kernel is timed
(the kernel is the same compiled function in both engines; the games go through the reference
engine, which calls it from Python, so each call can be timed alone).
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from sim import games as game_registry
from sim.core.errors import UsageError
from sim.core.game import BenchSetup, PluginBench, SearchBench
from sim.core.runner import available_threads, set_threads
from strategies.play import kernels_and_params, play, resolve_rules
from strategies.registry import lineup, load_plugin_file


START_SCRIPT = """
from strategies.play import play, resolve_rules
play({game!r}, resolve_rules({game!r}), {strategies!r}, games=1, seed=0, progress=False)
"""


def plugin_rates(game: str, setup: PluginBench, games: int, repeat: int) -> dict[str, float]:
    """Games/s on one thread in whole runs, interleaved, best of `repeat`, of the built-in and
    of the plugin file as a user writes it (loaded like `--plugin FILE`), compiled into the
    engine (`--compile-plugins always`, the default for long runs) and called through its
    pointer (`never`): {"built-in": .., "compiled in": .., "pointer": ..}."""
    rules = resolve_rules(game)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench_plugin.py"
        path.write_text(setup.source)
        load_plugin_file(path)
        runs = {"built-in": (setup.builtin, "never"), "compiled in": (setup.plugin, "always"),
                "pointer": (setup.plugin, "never")}
        best = {}
        for k, (spec, mode) in runs.items():   # compile / load everything before timing
            play(game, rules, [spec] * setup.players, games=1000, seed=1, threads=1,
                 progress=False, compile_plugins=mode)
            best[k] = float("inf")
        for _ in range(repeat):
            for k, (spec, mode) in runs.items():
                start = time.perf_counter()
                play(game, rules, [spec] * setup.players, games=games, seed=1, threads=1,
                     progress=False, compile_plugins=mode)
                best[k] = min(best[k], time.perf_counter() - start)
    return {k: games / t for k, t in best.items()}


def workbench_times(game: str, setup: BenchSetup, wb, repeat: int) -> dict[str, float]:
    """Seconds (best of `repeat`, interleaved, all threads) of compare against the two runs it
    stands for, and of sweep against one run per point."""
    from analyses.workbench import compare, sweep
    from analyses.workbench.changes import base_setup, variant
    from analyses.workbench.sweeps import parse_grid
    rules = resolve_rules(game, setup.preset)
    specs = list(setup.strategies)
    base = base_setup(game, rules, specs)
    other = variant(game, base, wb.variant)
    _, _, points = parse_grid(game, base, list(wb.grid))
    jobs = {
        "compare": lambda: compare(game, rules, specs, [wb.variant], games=wb.games, seed=1,
                                   rotate=False, progress=False),
        "two runs": lambda: [play(game, s.rules, list(s.lineup), games=wb.games, seed=1,
                                  progress=False) for s in (base, other)],
        "sweep": lambda: sweep(game, rules, specs, list(wb.grid), games=wb.sweep_games, seed=1,
                               rotate=False, progress=False),
        "runs": lambda: [play(game, s.rules, list(s.lineup), games=wb.sweep_games, seed=1,
                              progress=False) for s in points],
    }
    play(game, rules, specs, games=1000, seed=1, progress=False)       # load the engine
    best = dict.fromkeys(jobs, float("inf"))
    for _ in range(repeat):
        for k, job in jobs.items():
            start = time.perf_counter()
            job()
            best[k] = min(best[k], time.perf_counter() - start)
    return best


def workbench_lines(game: str, setup: BenchSetup, wb, repeat: int):
    t = workbench_times(game, setup, wb, repeat)
    yield (f"\nworkbench, {', '.join(setup.strategies)}, {available_threads()} threads, best of "
           f"{repeat}, interleaved")
    yield (f"compare, base and {wb.variant}, {wb.games:,} games each: {t['compare']:>8.2f} s   "
           f"two runs {t['two runs']:.2f} s ({t['compare'] / t['two runs'] - 1:+.1%})")
    yield (f"sweep {' '.join(wb.grid)}, {wb.sweep_games:,} games a point: {t['sweep']:>8.2f} s   "
           f"one run per point {t['runs']:.2f} s ({t['sweep'] / t['runs'] - 1:+.1%})")


def _best_rate(fn, games: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(games)
        best = min(best, time.perf_counter() - start)
    return games / best


def _engines(game: str, setup: BenchSetup):
    """(fast(n, natives=...), reference(n), natives) for one configuration."""
    g = game_registry.get(game)
    players = len(setup.strategies)
    rules = resolve_rules(game, setup.preset)
    bound = lineup(game, list(setup.strategies), players)
    kernels, params = kernels_and_params(bound, rules)
    natives = [b.strategy.native for b in bound]
    chunk = 1 << 17

    def fast(n, natives=natives):
        for first in range(0, n, chunk):
            g.fast_play(rules, players, 1, first, min(chunk, n - first), kernels, params, natives)

    def reference(n):
        g.reference_play(rules, players, 1, 0, n, kernels, params)

    return fast, reference, rules


def _title(game: str, setup: BenchSetup, rules) -> str:
    return (f"{game}: {len(setup.strategies)} players, {', '.join(setup.strategies)}; "
            f"rules {setup.preset or rules.DEFAULT_PRESET}")


def decision_times(game: str, setup: SearchBench, games: int) -> np.ndarray:
    """Seconds taken by each decision of `setup.searcher` in `games` games against
    `setup.opponent` (seed 0, games 0, 1, ...; the searcher moves first in even games)."""
    g = game_registry.get(game)
    rules = resolve_rules(game, setup.preset)
    times: list[float] = []
    for k in range(games):
        seat = k % 2
        specs = [setup.opponent, setup.opponent]
        specs[seat] = setup.searcher
        kernels, params = kernels_and_params(lineup(game, specs, 2), rules)
        kernel = kernels[seat]

        def timed(obs, prm, rng, kernel=kernel):
            if not times:       # the first call may load compiled code: once untimed, on copies
                kernel(obs.copy(), prm, rng.copy())
            start = time.perf_counter()
            i = kernel(obs, prm, rng)
            times.append(time.perf_counter() - start)
            return i

        kernels[seat] = timed
        g.reference_play(rules, 2, 0, k, 1, kernels, params)
    return np.array(times)


def _decision_line(game: str, setup: SearchBench, games: int) -> str:
    t = decision_times(game, setup, games) * 1000.0
    rules = setup.preset or game_registry.get(game).rules.DEFAULT_PRESET
    head = f"{setup.searcher} against {setup.opponent}, rules {rules}: "
    if t.size == 0:
        return head + f"no decision in {games} games"
    return (head + f"{t.size} decisions in {games} games, ms per decision: mean {t.mean():,.0f}, "
            f"median {np.median(t):,.0f}, 95th percentile {np.percentile(t, 95):,.0f}, "
            f"max {t.max():,.0f}")


def run(game: str, games: int | None = None, reference_games: int | None = None, repeat: int = 3,
        search_games: int | None = None):
    """Yield the benchmark report line by line. `games` / `reference_games` / `search_games`
    override every configuration's defaults (search_games = 0: no search timing)."""
    g = game_registry.get(game)
    if not g.bench:
        with_bench = [x.name for x in game_registry.all_games() if x.bench]
        raise UsageError(f"no benchmark declared for {game}; games with one: {', '.join(with_bench)}")
    for k, setup in enumerate(g.bench):
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
            yield (f"built-ins through their pointers:     {plug:>12,.0f} games/s   "
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
    if g.plugin_bench is not None:
        p = g.plugin_bench
        n = games or g.bench[0].games
        rates = plugin_rates(game, p, n, max(repeat, 3))
        builtin = rates["built-in"]
        yield (f"\na plugin file identical to a built-in, {p.players} x {p.builtin}, 1 thread, whole "
               f"runs (best of {max(repeat, 3)} x {n:,} games, interleaved)")
        yield f"built-in:                             {builtin:>12,.0f} games/s"
        for k, label in (("compiled in", "plugin compiled into the engine:"),
                         ("pointer", "plugin through its pointer:")):
            yield (f"{label:<38}{rates[k]:>12,.0f} games/s   "
                   f"({rates[k] / builtin:.0%} of built-in speed)")
    set_threads(available_threads())
    if g.workbench_bench is not None:
        yield from workbench_lines(game, g.bench[0], g.workbench_bench, repeat)
    searches = g.search_bench
    if searches and search_games != 0:
        yield "\nsearch strategies, time per decision (1 thread, every call of the kernel timed)"
        for setup in searches:
            yield _decision_line(game, setup, search_games or setup.games)


def dask_lines(game: str, workers: int, repeat: int, games: int | None = None):
    """The headline's games on a local Dask cluster of `workers` processes of one thread,
    against the local backend on `workers` threads (best of `repeat`, interleaved), the numbers
    compared; and Dask's cost per task, from one-game tasks."""
    from sim.core import backends
    from sim.core.dask_backend import DaskBackend, local_cluster
    g = game_registry.get(game)
    setup = g.bench[0]
    n = games or g.dask_bench_games
    rules = resolve_rules(game, setup.preset)
    specs = list(setup.strategies)
    yield f"{game}: {', '.join(specs)}; {n:,} games, best of {repeat}, interleaved"
    with local_cluster(workers, cores=workers) as cluster:
        backend = DaskBackend.connect(cluster.scheduler_address)
        try:
            play(game, rules, specs, games=1000, seed=1, threads=workers, progress=False)
            with backends.using(backend):       # every worker loads its engine before timing
                play(game, rules, specs, games=4 * workers * (1 << 16), seed=1, progress=False)
            best = {"local": float("inf"), "dask": float("inf")}
            tables, info = {}, None
            for _ in range(repeat):
                for where, b in (("local", None), ("dask", backend)):
                    with backends.using(b):
                        start = time.perf_counter()
                        result = play(game, rules, specs, games=n, seed=1, threads=workers,
                                      progress=False)
                        best[where] = min(best[where], time.perf_counter() - start)
                    tables[where] = result.table()
                    info = result.info if where == "dask" else info
            tasks = 400
            with backends.using(backend):
                start = time.perf_counter()
                play(game, rules, specs, games=tasks, seed=1, chunk=1, progress=False)
                per_task = (time.perf_counter() - start) * workers / tasks
            start = time.perf_counter()       # the scheduler's rate: no-op tasks, all at once
            backend.client.gather(backend.client.map(abs, range(-5000, 0), pure=False))
            task_rate = 5000 / (time.perf_counter() - start)
        finally:
            backend.close()
    same = "identical" if tables["local"].equals(tables["dask"]) else "DIFFERENT"
    chunks = -(-n // info.chunk)
    yield (f"local backend, {workers} threads:           {n / best['local']:>12,.0f} games/s   "
           f"({best['local']:.2f} s)")
    yield (f"dask, {workers} workers x 1 thread:           {n / best['dask']:>12,.0f} games/s   "
           f"({best['dask']:.2f} s; {best['local'] / best['dask']:.2f}x local; {chunks} chunks of "
           f"{info.chunk:,}; numbers {same})")
    yield (f"dask cost per task:                   {per_task * 1e3:>12.1f} ms      "
           f"(one-game chunks, {workers} workers: scheduling, transfer, pickling, one game)")
    yield (f"scheduler task rate:                  {task_rate:>12,.0f} tasks/s "
           f"(5,000 no-op tasks submitted at once)")
