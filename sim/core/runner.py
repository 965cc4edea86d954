"""The batch runner: chunks, threads, progress, and Ctrl-C that keeps what finished.

Game-agnostic: it drives an engine's `play_batch(first_game, n_games) -> Batch` over chunks of
games. Every game is keyed by (seed, game index), so the chunk size and the thread count never
change a result. Per-chunk results are handed to `on_batch` (for aggregates or per-game rows)
and then dropped, so memory does not grow with the number of games.
"""
from __future__ import annotations

import contextlib
import dataclasses
import signal
import sys
import threading
import time
from typing import Callable

import numba
from tqdm import tqdm

from . import backends
from .batch import Batch
from .errors import UsageError

DEFAULT_CHUNK = 1 << 16


@dataclasses.dataclass
class RunInfo:
    games: int              # games actually played
    requested: int
    elapsed: float
    threads: int
    interrupted: bool
    backend: str = "local"
    workers: int = 1
    chunk: int = 0          # games per chunk
    lost: str = ""          # why a run ended early other than Ctrl-C (a lost scheduler)


def available_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS


def set_threads(threads: int | None) -> int:
    """Use `threads` compiled threads (default: all); returns the number in use."""
    limit = available_threads()
    if threads is None:
        threads = limit
    if not 1 <= threads <= limit:
        raise UsageError(f"--threads {threads}: allowed 1 to {limit} on this machine")
    numba.set_num_threads(threads)
    return threads


@contextlib.contextmanager
def sigint_deferred():
    """Hold Ctrl-C until the block ends, then raise KeyboardInterrupt.

    Without this, Ctrl-C while `on_batch` writes per-game rows or adds totals leaves a chunk
    half-counted (per-game file, table and sidecar disagree)."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def run_chunks(play_batch: Callable[[int, int], Batch], n_games: int, on_batch: Callable[[Batch], None],
               *, first_game: int = 0, chunk: int | None = None, threads: int | None = None,
               progress: bool | None = None, desc: str = "games", unit: str = "game",
               stop: Callable[[], bool] | None = None) -> RunInfo:
    """Play games first_game .. first_game + n_games - 1, chunk by chunk.

    progress: True shows a bar, False hides it, None shows it on a terminal for long runs.
    stop: asked after each chunk; True ends the run there (enough games for a precision).
    KeyboardInterrupt stops after the current chunk's results are kept; the RunInfo says so.
    A portable job (`play_batch.portable`, strategies/jobs.py) runs on the current backend
    (sim/core/backends.py): there, chunk=None lets the backend size the chunks."""
    if n_games < 1:
        raise UsageError(f"number of games must be at least 1 (got {n_games})")
    backend = backends.current()
    if backend is not None and getattr(play_batch, "portable", False):
        return backend.run_chunks(play_batch, n_games, on_batch, first_game=first_game,
                                  chunk=chunk, progress=progress, desc=desc, unit=unit,
                                  stop=stop, info_type=RunInfo)
    chunk = chunk or DEFAULT_CHUNK
    threads = set_threads(threads)
    show = progress if progress is not None else (sys.stderr.isatty() and n_games > chunk)
    bar = tqdm(total=n_games, desc=desc, unit=unit, unit_scale=True, disable=not show,
               file=sys.stderr, smoothing=0.1, dynamic_ncols=True)
    done, start, interrupted = 0, time.perf_counter(), False
    try:
        while done < n_games:
            size = min(chunk, n_games - done)
            try:
                batch = play_batch(first_game + done, size)
            except KeyboardInterrupt:
                interrupted = True
                break
            with sigint_deferred():   # a chunk's results are kept whole or not at all
                on_batch(batch)
                done += size
            bar.update(size)
            if stop is not None and done < n_games and stop():
                break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    return RunInfo(done, n_games, time.perf_counter() - start, threads, interrupted, chunk=chunk)
