"""Output that loses nothing: paths checked before a run, atomic writes, provenance sidecars."""
from __future__ import annotations

import contextlib
import datetime
import importlib.metadata
import json
import os
import platform
import sys
import tempfile
from pathlib import Path

from .errors import UsageError


def check_writable(path: str | os.PathLike) -> Path:
    """Fail now, not after an hour, if `path` cannot be written."""
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"output {path}: is a directory; give a file name such as {path / 'out.csv'}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"output {path}: folder {parent} does not exist")
    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".meeplelab-check-"):
            pass
    except OSError as e:
        raise UsageError(f"output {path}: cannot write in {parent}: {e.strerror}") from None
    return path


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, mode: str = "w"):
    """Yield a temporary file next to `path`; it replaces `path` only if the block succeeds."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".",
                               prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o666 & ~_umask())   # mkstemp makes 0600; give the usual permissions
        with os.fdopen(fd, mode, newline="" if "b" not in mode else None) as fh:
            yield fh
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_text(path, text: str) -> None:
    with atomic_path(path) as fh:
        fh.write(text)


def write_csv(df, path) -> None:
    with atomic_path(path) as fh:
        df.to_csv(fh, index=False, lineterminator="\n")


def write_json(path, data: dict) -> None:
    write_text(path, json.dumps(data, indent=2, sort_keys=False, default=_jsonable) + "\n")


def _jsonable(value):
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (set, tuple)):
        return list(value)
    return str(value)


def sidecar_path(path) -> Path:
    return Path(path).with_suffix(".json")


def package_version() -> str:
    try:
        return importlib.metadata.version("meeplelab")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def provenance(**fields) -> dict:
    """Everything needed to reproduce a result, plus the software that produced it and where
    it ran (the backend: local, or a Dask scheduler's address and workers)."""
    import numba
    import numpy
    from . import backends
    return {
        "meeplelab_version": package_version(),
        **backends.record(),
        **fields,
        "command": " ".join([Path(sys.argv[0]).name] + sys.argv[1:]),
        "software": {"python": platform.python_version(), "numpy": numpy.__version__,
                     "numba": numba.__version__, "platform": platform.platform()},
        "created_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
