"""Where the chunks of a run are played: in this process (local) or on a Dask cluster.

A work unit is one chunk of games (first game, count) of a *job*: a picklable callable
`job(first_game, n) -> result` marked `portable = True` (strategies/jobs.py builds them from
data: the resolved rules, the strategies' specs, plugin and data files by content), so that
any process with meeplelab installed can play it. The runner (sim/core/runner.py) plays a
portable job on the current backend and anything else here. Results are handed on in chunk
order whatever order they finish in, and every game is keyed by (seed, game index), so the
numbers are the same on any backend, for any number of workers and any chunk size.
"""
from __future__ import annotations

import contextlib
import os

SCHEDULER_ENV = "MEEPLELAB_SCHEDULER"
BACKENDS = ("local", "dask")      # and "auto": dask when a scheduler is named

_current = [None]        # None: local; else a backend with run_chunks(...) and record()


def current():
    """The backend portable jobs run on (None: this process)."""
    return _current[0]


def set_backend(backend) -> None:
    _current[0] = backend


@contextlib.contextmanager
def using(backend):
    """Run the block's portable jobs on `backend` (None: locally)."""
    previous = _current[0]
    _current[0] = backend
    try:
        yield backend
    finally:
        _current[0] = previous


def record(info=None) -> dict:
    """The backend, for a provenance sidecar: {"backend": "local"} or the cluster's address,
    workers and threads (and the chunk size of `info`, a RunInfo, when given)."""
    backend = _current[0]
    fields = {"backend": "local"} if backend is None else backend.record()
    if info is not None and getattr(info, "chunk", None):
        fields["chunk"] = info.chunk
    return fields


def connect(backend: str = "auto", scheduler: str | None = None):
    """The backend named on the command line: None for local, else a connected Dask backend.
    auto: Dask when a scheduler address is given (`scheduler`, else $MEEPLELAB_SCHEDULER),
    local otherwise. UsageError names what is wrong."""
    from .errors import UsageError
    if backend not in ("auto",) + BACKENDS:
        raise UsageError(f"--backend {backend!r}: allowed {', '.join(BACKENDS)}")
    if backend == "local":
        if scheduler:
            raise UsageError(f"--scheduler {scheduler} with --backend local: the local backend "
                             f"plays here; use --backend dask (or leave --backend out)")
        return None
    scheduler = scheduler or os.environ.get(SCHEDULER_ENV) or None
    if not scheduler:
        if backend == "auto":
            return None
        raise UsageError(f"--backend dask needs --scheduler ADDRESS (or ${SCHEDULER_ENV}), e.g. "
                         f"tcp://10.0.0.5:8786; for a try on this machine start one with "
                         f"`meeplelab cluster local --workers 2`")
    from .dask_backend import DaskBackend
    return DaskBackend.connect(scheduler)
