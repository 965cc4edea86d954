"""The strategy registry: built-ins and plugins, one API.

A strategy is a function `decide(obs, params, rng) -> action` with the fixed signature
`sim.core.strategy_api.DECIDE_SIG`, registered with `@strategy(...)` together with its metadata
(game, name, documented parameters, whether it is stochastic, what it observes, its source).
Plugins register the same way, from a file (`--plugin FILE`) or from an installed package that
declares the entry-point group `meeplelab.strategies`. A plain Python function that numba
cannot compile still works, on the reference engine, with a warning that says why.
"""
from __future__ import annotations

import dataclasses
import importlib.metadata
import importlib.util
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from sim.core.errors import UsageError, suggest, unknown
from sim.core.strategy_api import DECIDE_SIG

ENTRY_POINT_GROUP = "meeplelab.strategies"


class StrategyWarning(UserWarning):
    """A plugin could not be loaded or compiled; the rest keeps working."""


@dataclasses.dataclass(frozen=True)
class Param:
    """A documented strategy parameter."""
    name: str
    default: float | int | bool
    doc: str
    min: float | None = None
    max: float | None = None

    @property
    def type(self):
        return type(self.default)

    def parse(self, raw, strategy: str):
        where = f"strategy {strategy!r} parameter {self.name!r}"
        try:
            if self.type is bool:
                if str(raw).lower() not in ("true", "false", "1", "0"):
                    raise ValueError
                value = str(raw).lower() in ("true", "1")
            elif self.type is int:
                value = float(raw)
                if not value.is_integer():
                    raise ValueError
                value = int(value)
            else:
                value = float(raw)
        except ValueError:
            raise UsageError(f"{where} = {raw!r}: expected {self.allowed()}") from None
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            raise UsageError(f"{where} = {raw!r} is out of range: expected {self.allowed()}")
        return value

    def allowed(self) -> str:
        kind = {bool: "true or false", int: "an integer", float: "a number"}[self.type]
        lo = "" if self.min is None else f" >= {self.min}"
        hi = "" if self.max is None else f" <= {self.max}"
        return kind + lo + (" and" if lo and hi else "") + hi


@dataclasses.dataclass
class Strategy:
    game: str
    name: str
    kernel: Callable
    doc: str
    params: tuple[Param, ...] = ()
    stochastic: bool = False
    observes: str = ""
    source: str = ""
    origin: str = "built-in"
    compiled: bool = True
    compile_error: str = ""
    prepare: Callable | None = None   # (values, rules, players) -> float64 array
    native: int = -1                  # engine code of a built-in kernel; -1: call `kernel`

    @property
    def summary(self) -> str:
        """First sentence of the documentation."""
        return self.doc.split(". ")[0].rstrip(".") + "." if self.doc else ""

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise unknown(f"parameter of strategy {self.name!r}", name, [p.name for p in self.params] or ["(none)"])


@dataclasses.dataclass(frozen=True)
class Bound:
    """A strategy with its parameter values, ready for one seat."""
    strategy: Strategy
    values: tuple[tuple[str, Any], ...]

    @property
    def label(self) -> str:
        if not self.values:
            return self.strategy.name
        return self.strategy.name + ":" + ",".join(f"{k}={_fmt(v)}" for k, v in self.values)

    def params_array(self, rules, players: int) -> np.ndarray:
        values = dict(self.values)
        if self.strategy.prepare is not None:
            return np.ascontiguousarray(self.strategy.prepare(values, rules, players), np.float64)
        return np.array([float(values[p.name]) for p in self.strategy.params] or [0.0], np.float64)

    def describe(self) -> dict:
        return {"name": self.strategy.name, "params": dict(self.values), "origin": self.strategy.origin,
                "compiled": self.strategy.compiled}


def _fmt(v) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float) and v.is_integer():
        return str(int(v)) if abs(v) < 1e15 else repr(v)
    return str(v)


_REGISTRY: dict[tuple[str, str], Strategy] = {}
_current_origin = ["built-in"]
_entry_points_loaded = [False]


def register(game: str, name: str, fn: Callable, *, doc: str = "", params=(),
             stochastic: bool = False, observes: str = "", source: str = "",
             prepare: Callable | None = None, native: int = -1) -> Strategy:
    """Register a decision function (compiled with DECIDE_SIG here unless it already is).

    `native` is the engine's code for a kernel it can call directly (built-ins only)."""
    compiled, error, kernel = True, "", fn
    if not isinstance(fn, CPUDispatcher) or not fn.signatures:
        try:
            if isinstance(fn, CPUDispatcher):   # declared without a signature: compiled lazily
                fn.compile(DECIDE_SIG)
                kernel = _frozen(fn)
            else:
                kernel = njit(DECIDE_SIG, cache=_cacheable(fn))(fn)
        except Exception as e:  # numba cannot compile it: keep it for the reference engine
            compiled, error = False, f"{type(e).__name__}: {_first_line(e)}"
            kernel = fn
    elif DECIDE_SIG.args not in [tuple(sig) for sig in fn.signatures]:
        raise UsageError(f"strategy {name!r}: compiled with {fn.signatures}, but strategies take "
                         f"{DECIDE_SIG} (see sim/core/strategy_api.py)")
    elif fn.get_function_type() is None:
        kernel = _frozen(fn)
    doc = doc or getattr(fn, "__doc__", None) or ""
    s = Strategy(game, name, kernel, " ".join(doc.split()), tuple(params), stochastic, observes,
                 source, _current_origin[0], compiled, error, prepare, native)
    key = (game, name)
    if s.origin != "built-in":
        _ensure_builtins(game)      # so that a plugin named as a built-in replaces it, not the reverse
    if key in _REGISTRY and _REGISTRY[key].origin != s.origin:
        warnings.warn(f"strategy {name!r} for {game} from {s.origin} replaces the one from "
                      f"{_REGISTRY[key].origin}", StrategyWarning, stacklevel=3)
    _REGISTRY[key] = s
    return s


def _frozen(fn: CPUDispatcher) -> CPUDispatcher:
    """A compiled dispatcher that may still compile other signatures, as one that holds only
    DECIDE_SIG and compiles nothing more. Numba types the latter as a value of the one strategy
    function type, so the engine compiled for that type serves every strategy; the former is
    typed as itself, a type that differs in every process, and each process would compile the
    engine again (half a minute) and add it to the on-disk cache."""
    if len(fn.overloads) == 1:
        fn.disable_compile()
        return fn
    options = {k: v for k, v in fn.targetoptions.items() if k != "nopython"}
    return njit(DECIDE_SIG, **options)(fn.py_func)


def strategy(game: str, name: str, *, params=(), stochastic: bool = False, observes: str = "",
             source: str = "", prepare: Callable | None = None):
    """Decorator form of `register`, for plugins: the docstring is the strategy's documentation."""
    def wrap(fn):
        register(game, name, fn, params=params, stochastic=stochastic, observes=observes,
                 source=source, prepare=prepare)
        return fn
    return wrap


def _first_line(e: Exception) -> str:
    """The reason numba gives, skipping its generic "Failed in nopython mode pipeline" header."""
    lines = [ln.strip() for ln in str(e).strip().splitlines() if ln.strip()]
    reasons = [ln for ln in lines if not ln.startswith("Failed in ")]
    return (reasons or lines or [""])[0]


def _cacheable(fn) -> bool:
    try:
        return bool(Path(fn.__code__.co_filename).is_file())
    except AttributeError:
        return False


# ---------------------------------------------------------------- plugins
def load_plugin_file(path: str | Path, origin: str | None = None) -> list[str]:
    """Import a plugin file; returns the strategies it registered. Raises UsageError on failure,
    naming the file and the error (a file named by the user must load: the CLI stops on it;
    only installed entry points, `load_entry_points`, warn and let the rest work).
    origin: the strategies' origin (default `plugin file PATH`; a Dask worker gives the client's
    path of the copy it loads, so that messages, this one's included, name the user's file)."""
    path = Path(path)
    where = origin or f"plugin file {path}"
    if not path.is_file():
        raise UsageError(f"{where}: no such file")
    before = set(_REGISTRY)
    mod_name = f"meeplelab_plugin_{path.stem}"
    spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(spec)
    _current_origin[0] = where
    try:
        sys.modules[mod_name] = module
        spec.loader.exec_module(module)
    except Exception as e:
        sys.modules.pop(mod_name, None)
        raise UsageError(f"{where} failed to import: {type(e).__name__}: {e}") from None
    finally:
        _current_origin[0] = "built-in"
    return sorted(name for game, name in set(_REGISTRY) - before)


def load_entry_points() -> None:
    """Import every installed `meeplelab.strategies` entry point once; report failures by name."""
    if _entry_points_loaded[0]:
        return
    _entry_points_loaded[0] = True
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        _current_origin[0] = f"entry point {ep.name} ({ep.value})"
        try:
            ep.load()
        except Exception as e:
            warnings.warn(f"strategy plugin {ep.name!r} ({ep.value}) failed to load: "
                          f"{type(e).__name__}: {e}; other strategies keep working",
                          StrategyWarning, stacklevel=2)
        finally:
            _current_origin[0] = "built-in"


# ---------------------------------------------------------------- lookup
_builtins_loaded: set[str] = set()       # games whose built-in strategies are registered


def _ensure_builtins(game: str | None = None) -> None:
    """Import the strategy modules of `game` (every game's if None; its declaration names them),
    then give it the core's `random`. One game at a time: importing a module compiles (or loads
    from the cache) its kernels, and `meeplelab run diamant` has no use for the search kernels
    of the other games."""
    from sim import games
    from sim.core.kernels import random_choice
    if game is not None and game not in games.names():
        return                      # a plugin's own game, or a name the caller reports
    origin = _current_origin[0]
    _current_origin[0] = "built-in"
    try:
        for g in games.all_games() if game is None else [games.get(game)]:
            if g.name in _builtins_loaded:
                continue
            for module in g.strategy_modules:
                importlib.import_module(module)
            _builtins_loaded.add(g.name)
            if (g.name, "random") not in _REGISTRY:
                register(g.name, "random", random_choice, native=g.random_native, stochastic=True,
                         doc="Uniform over the legal actions of each decision (the game's legal "
                             "list), from the seat's own stream.",
                         observes="the number of legal actions only", source="baseline (sim/core)")
    finally:
        _current_origin[0] = origin


def all_strategies(game: str | None = None) -> list[Strategy]:
    _ensure_builtins(game)
    load_entry_points()
    return sorted((s for s in _REGISTRY.values() if game in (None, s.game)), key=lambda s: (s.game, s.name))


def get(game: str, name: str) -> Strategy:
    names = [s.name for s in all_strategies(game)]
    if name not in names:
        raise unknown(f"{game} strategy", name, names)
    return _REGISTRY[(game, name)]


def parse_spec(game: str, spec: str) -> Bound:
    """'name' or 'name:key=value,key=value' -> Bound (every parameter filled in)."""
    name, _, args = spec.strip().partition(":")
    s = get(game, name)
    values = {p.name: p.default for p in s.params}
    for item in filter(None, (a.strip() for a in args.split(","))):
        if "=" not in item:
            if len(s.params) == 1:
                item = f"{s.params[0].name}={item}"
            else:
                raise UsageError(f"strategy {spec!r}: expected key=value, got {item!r}; parameters of "
                                 f"{name!r}: {', '.join(p.name for p in s.params) or '(none)'}")
        key, raw = (x.strip() for x in item.split("=", 1))
        if key not in values:
            raise UsageError(f"strategy {spec!r}: unknown parameter {key!r}{suggest(key, values)}; "
                             f"parameters of {name!r}: {', '.join(values) or '(none)'}")
        values[key] = s.param(key).parse(raw, name)
    return Bound(s, tuple(values.items()))


def lineup(game: str, specs: list[str], players: int) -> list[Bound]:
    """One spec for every seat, or one per seat."""
    if not specs:
        raise UsageError("no strategy given: use -s NAME once for all seats or once per seat")
    if len(specs) not in (1, players):
        raise UsageError(f"{len(specs)} strategies for {players} players: give one -s for all "
                         f"seats or exactly {players}")
    bound = [parse_spec(game, s) for s in specs]
    return bound * players if len(bound) == 1 else bound
