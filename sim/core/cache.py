"""numba's on-disk cache, keyed by the sources it was compiled from.

numba checks only the file of a cached function: a compiled engine keeps the code of the
functions inlined into it from other files (a policy, the search, the core helpers), and after
such an edit it silently runs the old code. Here every cache lives in a directory named by a
hash of all the sources of `sim` and `strategies`, so an edit anywhere gives a fresh cache and
the old one is never used again. Directories unused for `KEEP_DAYS` are deleted.

The base directory is $MEEPLELAB_CACHE_DIR, else $NUMBA_CACHE_DIR, else
$XDG_CACHE_HOME/meeplelab/numba (~/.cache/meeplelab/numba). `configure` must run before the
first `@njit(cache=True)` is applied: `sim/__init__.py` calls it.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import time
from pathlib import Path

KEEP_DAYS = 14


def source_roots() -> list[Path]:
    """The package directories whose sources compiled code may depend on."""
    roots = [Path(__file__).resolve().parents[1]]          # sim/
    spec = importlib.util.find_spec("strategies")           # found, not imported
    if spec is not None and spec.submodule_search_locations:
        roots += [Path(p).resolve() for p in spec.submodule_search_locations]
    return roots


def source_key(roots: list[Path]) -> str:
    """A hash of every .py file below the roots (names and contents)."""
    h = hashlib.sha256()
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            h.update(path.relative_to(root.parent).as_posix().encode() + b"\0")
            h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def base_dir() -> Path:
    for var in ("MEEPLELAB_CACHE_DIR", "NUMBA_CACHE_DIR"):
        if os.environ.get(var):
            return Path(os.environ[var])
    xdg = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(xdg) / "meeplelab" / "numba"


def configure() -> Path:
    """Point numba's cache at the directory of the current sources; returns it."""
    import numba

    base = base_dir()
    here = base / source_key(source_roots())
    try:
        here.mkdir(parents=True, exist_ok=True)
        os.utime(here)               # in use: not pruned
        _prune(base, keep=here)
    except OSError:                  # read-only base: numba falls back to its own locators
        return here
    numba.config.CACHE_DIR = str(here)
    return here


def _prune(base: Path, keep: Path) -> None:
    limit = time.time() - KEEP_DAYS * 86400
    for d in base.iterdir():
        if d != keep and d.is_dir() and d.stat().st_mtime < limit:
            shutil.rmtree(d, ignore_errors=True)
