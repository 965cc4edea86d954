"""The Dask backend: chunks of games played on the workers of a `distributed` scheduler.

The scheduling, the retries and the worker bookkeeping are Dask's. Here: a window of chunk
tasks kept in flight, their results handed on in chunk order (so per-game files and totals
are exactly the local ones), the progress bar, and the run's ending: Ctrl-C or a lost
scheduler keep the chunks already handed on; a worker killed mid-run has its chunks played
again elsewhere by Dask, and a chunk is handed on once, when its first result arrives.

A worker runs only code identical to the client's: every task carries the client's code key
(the package version and a hash of the sources of sim, strategies, analyses and meeplelab),
and a worker whose key differs refuses it (mixed code would give mixed numbers).
"""
from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import importlib.util
import os
import sys
import threading
import time
from pathlib import Path

from .errors import UsageError

PACKAGES = ("sim", "strategies", "analyses", "meeplelab")
MIN_CHUNK = 1 << 16          # the local runner's chunk: until-ci stops at the same games
MAX_CHUNK_PER_THREAD = 1 << 20   # games of a task per engine thread of its worker at most:
                                 # its per-game arrays, 130 (Diamant) to 350 (CIV) bytes a game
CHUNKS_PER_THREAD = 4        # tasks per Dask worker thread at least, for balance at the end
CONNECT_TIMEOUT = 10         # seconds
WORKERS_TIMEOUT = 60         # seconds to wait for a first worker


class CodeMismatch(RuntimeError):
    """A worker's meeplelab differs from the client's."""


# ------------------------------------------------------------------ on every process
@functools.lru_cache(maxsize=1)
def code_key() -> str:
    """This installation's meeplelab version and a hash of its sources (.py files of PACKAGES)."""
    from .output import package_version
    h = hashlib.sha256(package_version().encode() + b"\0")
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        for root in (spec.submodule_search_locations or []) if spec else []:
            root = Path(root).resolve()
            for path in sorted(root.rglob("*.py")):
                h.update(path.relative_to(root.parent).as_posix().encode() + b"\0")
                h.update(path.read_bytes() + b"\0")
    return f"{package_version()}+{h.hexdigest()[:16]}"


ENGINE_THREADS_ENV = "MEEPLELAB_ENGINE_THREADS"


def engine_threads_here() -> int:
    """The threads this process's engine plays on: $MEEPLELAB_ENGINE_THREADS (workers sharing a
    machine), else all of numba's (NUMBA_NUM_THREADS: the cores). Set per task with
    numba.set_num_threads, never through NUMBA_NUM_THREADS itself: numba refuses a change of
    that variable once its threads run."""
    import numba
    most = numba.config.NUMBA_NUM_THREADS
    raw = os.environ.get(ENGINE_THREADS_ENV)
    if not raw:
        return most
    try:
        wanted = int(raw)
    except ValueError:
        wanted = 0
    if wanted < 1:
        raise UsageError(f"${ENGINE_THREADS_ENV}={raw!r}: allowed a whole number of engine "
                         f"threads, 1 or more (at most {most} are used here)")
    return min(wanted, most)


def identity() -> dict:
    """What a worker tells the client before a run."""
    return {"code": code_key(), "python": sys.executable, "numba_threads": engine_threads_here()}


_engine_lock = threading.Lock()   # one engine call at a time per process: numba's thread pool


def run_task(job, first: int, n: int, client_code: str):
    """One chunk on a worker: refused if the worker's code differs from the client's; the
    engine plays on `engine_threads_here()` threads."""
    if code_key() != client_code:
        raise CodeMismatch(f"this worker runs meeplelab {code_key()}, the client "
                           f"{client_code}: install the same version and sources on every "
                           f"machine")
    import numba
    with _engine_lock:
        numba.set_num_threads(engine_threads_here())
        start = time.perf_counter()
        result = job(first, n)
    return result, time.perf_counter() - start


# ------------------------------------------------------------------ a cluster on this machine
def local_cluster(workers: int, port: int = 0, dashboard: str | None = None, cores: int | None = None):
    """A `distributed.LocalCluster` of `workers` worker processes of one thread each, sharing
    this machine's cores between their engines ($MEEPLELAB_ENGINE_THREADS = cores // workers,
    at least 1): the one-machine try of a real cluster (`meeplelab cluster local`, the tests)."""
    from distributed import LocalCluster
    if workers < 1:
        raise UsageError(f"--workers {workers}: at least 1")
    cores = cores or os.cpu_count() or 1
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                        scheduler_port=port, dashboard_address=dashboard or ":0",
                        scheduler_kwargs={"dashboard": dashboard is not None},
                        env={ENGINE_THREADS_ENV: str(max(1, cores // workers))})


# ------------------------------------------------------------------ on the client
class DaskBackend:
    def __init__(self, client, address: str):
        self.client, self.address = client, address
        self.identities: dict = {}       # worker address -> identity(), at connection

    @classmethod
    def connect(cls, address: str, wait: float = WORKERS_TIMEOUT) -> "DaskBackend":
        try:
            from distributed import Client
        except ImportError:
            raise UsageError("the Dask backend needs the `distributed` package: "
                             "pip install 'distributed>=2024.1'") from None
        try:
            client = Client(address, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise UsageError(f"--scheduler {address}: cannot reach a Dask scheduler there "
                             f"({type(e).__name__}: {e}); start one with `dask scheduler` "
                             f"(or `meeplelab cluster local`)") from None
        backend = cls(client, address)
        try:
            backend.check_workers(wait)
        except BaseException:
            client.close()
            raise
        return backend

    def close(self) -> None:
        self.client.close()

    def check_workers(self, wait: float = WORKERS_TIMEOUT) -> dict:
        """Every worker's identity; UsageError if there is none within `wait` seconds or any
        runs other code than this client."""
        try:
            self.client.wait_for_workers(1, timeout=wait)
        except (TimeoutError, OSError):
            raise UsageError(f"the Dask scheduler at {self.address} has no worker (waited "
                             f"{wait:.0f} s): start some with `dask worker {self.address}`") from None
        found = self.client.run(identity)
        mine = code_key()
        wrong = {addr: i["code"] for addr, i in found.items() if i["code"] != mine}
        if wrong:
            listed = "; ".join(f"{a} runs {c}" for a, c in sorted(wrong.items()))
            raise UsageError(f"refused: {len(wrong)} of {len(found)} Dask workers run other "
                             f"meeplelab code than this client ({mine}): {listed}. Install the "
                             f"same version and sources on every machine (mixed code would give "
                             f"mixed numbers)")
        self.identities = found
        return found

    def threads(self) -> int:
        """Worker threads of the cluster (at least 1)."""
        return max(1, sum(w.get("nthreads", 1)
                          for w in self.client.scheduler_info()["workers"].values()))

    def record(self) -> dict:
        workers = self.client.scheduler_info()["workers"]
        return {"backend": "dask", "scheduler": self.address, "workers": len(workers),
                "worker_threads": sum(w.get("nthreads", 1) for w in workers.values()),
                "engine_threads": sum(i["numba_threads"] for i in self.identities.values())}

    def most_engine_threads(self) -> int:
        """The most engine threads of one worker (a worker of one Dask thread may run its
        engine on all of its machine's cores)."""
        return max([1] + [i["numba_threads"] for i in self.identities.values()])

    def chunk_for(self, n_games: int) -> int:
        """A power of two, at least MIN_CHUNK, giving every Dask worker thread about
        CHUNKS_PER_THREAD chunks (each task runs on all its worker's engine threads), at most
        MAX_CHUNK_PER_THREAD per engine thread: tasks long enough that Dask's per-task cost is
        small, enough of them that no worker waits long for the last, and memory bounded."""
        want = max(1, n_games // (CHUNKS_PER_THREAD * self.threads()))
        limit = MAX_CHUNK_PER_THREAD * self.most_engine_threads()
        chunk = MIN_CHUNK
        while chunk * 2 <= min(want, limit):
            chunk *= 2
        return chunk

    def run_chunks(self, job, n_games: int, on_batch, *, first_game: int, chunk: int | None,
                   progress, desc: str, unit: str, stop, info_type):
        """The runner's loop (sim/core/runner.py) with the chunks played on the cluster: at most
        a window of tasks in flight, results handed to on_batch in chunk order."""
        from distributed import as_completed
        from tqdm import tqdm
        from .runner import sigint_deferred
        if chunk is None:
            chunk = MIN_CHUNK if stop is not None else self.chunk_for(n_games)
        sizes = [min(chunk, n_games - s) for s in range(0, n_games, chunk)]
        window = 2 * self.threads() + 2
        show = progress if progress is not None else (sys.stderr.isatty() and n_games > chunk)
        bar = tqdm(total=n_games, desc=f"{desc} [dask]", unit=unit, unit_scale=True,
                   disable=not show, file=sys.stderr, smoothing=0.1, dynamic_ncols=True)
        code = code_key()
        if hasattr(job, "prepare"):
            job.prepare()              # turned into data here: a problem is a clear UsageError
        pending, ready = {}, {}
        queue = as_completed(loop=self.client.loop)
        done = submitted = committed = 0
        start, interrupted, lost = time.perf_counter(), False, ""

        def submit():
            nonlocal submitted
            first = first_game + submitted * chunk
            future = self.client.submit(run_task, job, first, sizes[submitted], code, pure=False)
            pending[future] = submitted
            queue.add(future)
            submitted += 1

        try:
            while submitted < len(sizes) and len(pending) < window:
                submit()
            for future in queue:
                index = pending.pop(future, None)
                if index is None:
                    continue
                try:
                    result, _ = future.result()
                except CodeMismatch as e:
                    raise UsageError(f"refused by a Dask worker: {e}") from None
                ready[index] = result
                bar.update(sizes[index])
                finished = False
                while committed in ready:
                    with sigint_deferred():      # a chunk is handed on whole or not at all
                        on_batch(ready.pop(committed))
                        done += sizes[committed]
                        committed += 1
                    if committed == len(sizes) or (stop is not None and stop()):
                        finished = True
                        break
                if finished:
                    break
                while submitted < len(sizes) and len(pending) < window:
                    submit()
        except KeyboardInterrupt:
            interrupted = True
        except Exception as e:
            if not self._lost(e):
                raise              # a task's own error (a strategy's names its game) or ours
            first_line = str(e).splitlines()[0] if str(e) else ""
            interrupted, lost = True, (f"lost the Dask scheduler at {self.address} "
                                       f"({type(e).__name__}: {first_line})")
        finally:
            bar.close()
            if pending and not lost:
                try:
                    self.client.cancel(list(pending), force=True)
                except Exception:      # the scheduler may be gone: nothing left to cancel
                    pass
        if lost:     # then as Ctrl-C: the chunks handed on are kept and written
            print(f"{lost}: kept the {done:,} games that finished (of {n_games:,})",
                  file=sys.stderr)
        return info_type(done, n_games, time.perf_counter() - start, self._threads_or(0),
                         interrupted, backend="dask", workers=self._workers(), chunk=chunk,
                         lost=lost)

    def _lost(self, e: Exception) -> bool:
        """Whether `e` says the scheduler went away (a future cancelled with it, a closed
        connection), not that a task or this client failed."""
        if isinstance(e, concurrent.futures.CancelledError) or _comm_error(e):
            return True
        return isinstance(e, (OSError, TimeoutError)) and self.client.status != "running"

    def _threads_or(self, default: int) -> int:
        try:
            return self.threads()
        except Exception:
            return default

    def _workers(self) -> int:
        try:
            return len(self.client.scheduler_info()["workers"])
        except Exception:
            return 0


def _comm_error(e: Exception) -> bool:
    try:
        from distributed.comm.core import CommClosedError
    except ImportError:
        return False
    return isinstance(e, CommClosedError)
