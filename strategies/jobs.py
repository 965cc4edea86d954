"""Work any process can play: a rule set and a lineup as data, and the base of chunk jobs.

A job is a callable `job(first_game, n) -> the chunk's result`, marked `portable`, that the
runner plays on the current backend (sim/core/backends.py). In this process it uses the
caller's own objects. Pickled, for a Dask worker, it carries data only: the resolved rule set
with the contents of its data files (a Pyramids deck), the strategies' specs and the plugin
files they come from, by content. A worker rebuilds what a job plays once per process (a plugin
file is loaded once per content hash) and keeps it for the job's next chunks.
"""
from __future__ import annotations

import collections
import dataclasses
import hashlib
import os
import pickle
import tempfile
import threading
from pathlib import Path

from sim.core.errors import UsageError

PLUGIN_ORIGIN = "plugin file "          # Strategy.origin of a plugin file's strategies
WORK_DIR = Path(tempfile.gettempdir()) / "meeplelab-worker"
KEEP_BUILT = 16                         # jobs whose built engines a process keeps

_lock = threading.Lock()
_plugins_loaded: set[str] = set()       # content hashes
_built: collections.OrderedDict = collections.OrderedDict()


@dataclasses.dataclass(frozen=True)
class Carried:
    """A file sent by its contents."""
    name: str
    sha256: str
    data: bytes
    source: str = ""             # the client's path

    @classmethod
    def read(cls, path, what: str) -> "Carried":
        try:
            data = Path(path).read_bytes()
        except OSError as e:
            raise UsageError(f"{what} {path}: cannot read it to send it to the workers ({e})") from None
        return cls(Path(path).name, hashlib.sha256(data).hexdigest(), data, str(path))

    def local_path(self) -> Path:
        """This machine's copy, written once: the same contents keep the same path, so numba's
        cache of a plugin's functions is found again by the next run."""
        path = WORK_DIR / self.sha256[:20] / self.name
        if not path.is_file():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            tmp.write_bytes(self.data)
            os.replace(tmp, path)
        return path


@dataclasses.dataclass(frozen=True)
class LineupData:
    """A rule set and one strategy per seat, as data a worker can rebuild (`bind`)."""
    game: str
    rules: object
    specs: tuple[str, ...]
    plugins: tuple[Carried, ...] = ()
    files: tuple[tuple[str, Carried], ...] = ()     # (rule parameter, the data file it names)

    @classmethod
    def of(cls, game: str, rules, lineup) -> "LineupData":
        from .registry import parse_spec
        specs, plugins = [], {}
        for b in lineup:
            if parse_spec(game, b.label).values != b.values:
                raise UsageError(f"strategy {b.label!r}: its parameters do not survive being "
                                 f"written as a spec, so it cannot be sent to the workers")
            if b.strategy.origin.startswith(PLUGIN_ORIGIN):
                c = Carried.read(b.strategy.origin[len(PLUGIN_ORIGIN):], "plugin file")
                plugins[c.sha256] = c
            specs.append(b.label)
        files = tuple((name, Carried.read(getattr(rules, name), f"rule {name}"))
                      for name in type(rules).DATA_FILES if getattr(rules, name))
        return cls(game, rules, tuple(specs), tuple(plugins.values()), files)

    def bind(self):
        """(rules, lineup of Bound) in this process: plugins loaded, data files copied here."""
        from .registry import lineup, load_plugin_file
        with _lock:
            for c in self.plugins:
                if c.sha256 not in _plugins_loaded:
                    load_plugin_file(c.local_path(), origin=PLUGIN_ORIGIN + c.source)
                    _plugins_loaded.add(c.sha256)
        rules = dataclasses.replace(self.rules, **{n: str(c.local_path()) for n, c in self.files})
        try:
            bound = lineup(self.game, list(self.specs), len(self.specs))
        except UsageError as e:
            raise UsageError(f"a worker cannot rebuild the lineup {', '.join(self.specs)}: {e}. "
                             f"Strategies travel as built-ins, installed plugins or --plugin "
                             f"files; one registered only in the client's session does not") from None
        return rules, bound


class Job:
    """Base of the portable chunk jobs. A subclass sets `_local` (what it plays, built from the
    caller's objects) and `_data` (a function returning the same as data, `build`'s input)."""
    portable = True
    _local = None
    _data = None

    def prepare(self) -> None:
        """Turn the job into data now (reading plugin and data files): a problem is a
        UsageError here, not a pickling error inside the backend."""
        if callable(self._data):
            data = self._data()
            self._data = (hashlib.sha256(pickle.dumps(data)).hexdigest(), data)

    def __getstate__(self):
        self.prepare()
        return {"_data": self._data}

    def __setstate__(self, state):
        self._data, self._local = state["_data"], None

    def built(self):
        """What the job plays: the caller's objects, or rebuilt from data (once per process)."""
        if self._local is None:
            key, data = self._data
            with _lock:
                found = _built.pop(key, None)
            if found is None:
                found = self.build(data)
            with _lock:
                _built[key] = found
                while len(_built) > KEEP_BUILT:
                    _built.popitem(last=False)
            self._local = found
        return self._local

    def build(self, data):
        raise NotImplementedError
