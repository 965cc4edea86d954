"""Strategies compiled into an engine: a user's plugin at the speed of a built-in.

A fast engine normally calls a plugin through the address of its compiled body (`call_decide`):
one real call per decision. Where a whole decision costs a few nanoseconds (Diamant), that call
and what it keeps LLVM from doing around it cost a third of the run. An engine that takes an
`Inlined` token compiles the token's kernels into itself instead, as direct calls that LLVM
inlines: one specialization of the engine per set of kernels.

The token's numba type is named by a digest of the kernels' sources (their files, or their
package's files), so the specialization is cached on disk like any compiled engine, loads in a
new process without compiling, and an edited plugin gets a new specialization: never the old
code. `NONE` (no kernels) is the token of every run without one: the engine's ordinary, shared
compilation.

    token = Inlined(kernels)                   # the distinct kernels to compile in
    token.slot(kernel)                         # which one a seat calls (-1: not in it)
    call_inlined(token, k, obs, prm, rng)      # compiled code: kernel k of the token
    inlined_draws(token, k)                    # compiled code: may kernel k draw from rng?
    token.may_read(k, fields)                  # may kernel k read these observation entries?
"""
from __future__ import annotations

import dis
import functools
import hashlib
import inspect
import marshal
import sys
from pathlib import Path

from numba import types
from numba.core.imputils import lower_constant
from numba.extending import NativeValue, models, overload, register_model, typeof_impl, unbox

_KERNELS: dict[str, tuple] = {}      # token key -> its kernels (numba dispatchers)


class Inlined:
    """The kernels an engine compiles into itself (pass it to the engine's `play_batch`)."""

    def __init__(self, kernels=()):
        self.kernels = tuple(dict.fromkeys(kernels))
        self.key = "none" if not self.kernels else hashlib.sha256(
            "\0".join(kernel_digest(k) for k in self.kernels).encode()).hexdigest()[:24]
        _KERNELS.setdefault(self.key, self.kernels)
        self.reads = tuple(observed_fields(k) for k in self.kernels)

    def slot(self, kernel) -> int:
        return self.kernels.index(kernel) if kernel in self.kernels else -1

    def may_read(self, k: int, fields) -> bool:
        """May kernel k read any of the observation's entries `fields`?"""
        return self.reads[k] is None or not self.reads[k].isdisjoint(fields)

    def __bool__(self):
        return bool(self.kernels)

    def __repr__(self):
        names = ", ".join(k.py_func.__qualname__ for k in self.kernels)
        return f"Inlined({self.key}: {names})"


NONE = Inlined()


def _marker(game: str, token: Inlined) -> Path:
    import numba
    return Path(numba.config.CACHE_DIR) / "inlined" / f"{game}-{token.key}"


def compiled_before(game: str, token: Inlined) -> bool:
    """Has game's engine been compiled with these kernels in the current cache?"""
    return _marker(game, token).is_file()


def mark_compiled(game: str, token: Inlined) -> None:
    try:
        path = _marker(game, token)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError:                  # a read-only cache: the next run compiles or loads again
        pass


# kernel_digest and observed_fields: once per kernel object (tens of ms a run otherwise; an
# edited plugin, loaded again, is a new object)
@functools.cache
def kernel_digest(kernel) -> str:
    """What names a kernel's compiled code: its module and name, and the sources it may use: its
    file and the modules imported from beside it, or every file of the package it is in.
    (Helpers it imports from elsewhere outside meeplelab are not tracked.)"""
    fn = kernel.py_func
    h = hashlib.sha256(f"{fn.__module__}.{fn.__qualname__}\0".encode())
    path = Path(inspect.getfile(fn))
    if not path.is_file():           # made by exec: its code is all there is
        h.update(marshal.dumps(fn.__code__))
        return h.hexdigest()
    for path in _source_files(path.resolve()):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _source_files(path: Path) -> list[Path]:
    """The kernel's package, or its file and the modules imported from beside it."""
    top = path.parent
    if not (top / "__init__.py").is_file():
        beside = {Path(m.__file__).resolve() for m in list(sys.modules.values())
                  if getattr(m, "__file__", None) and Path(m.__file__).parent.resolve() == top}
        return sorted(beside | {path})
    while (top.parent / "__init__.py").is_file():
        top = top.parent
    return sorted(top.rglob("*.py"))


def draws(kernel) -> bool:
    """May the kernel draw from its stream? False only if its code never names its third
    argument (then the engine need not seed that seat's stream)."""
    code = kernel.py_func.__code__
    if code.co_argcount < 3:
        return True
    name = code.co_varnames[2]
    for ins in dis.get_instructions(code):
        arg = ins.argval
        if arg == name or (isinstance(arg, tuple) and name in arg):
            return True
    return any(name in c.co_freevars for c in code.co_consts if inspect.iscode(c))


class InlinedType(types.Type):
    """One type per set of kernels, named by their digest: equal across processes."""

    def __init__(self, key: str):
        self.token_key = key
        super().__init__(name=f"Inlined({key})")


register_model(InlinedType)(models.OpaqueModel)


@typeof_impl.register(Inlined)
def _typeof(val, c):
    return InlinedType(val.key)


@lower_constant(InlinedType)
def _constant(context, builder, ty, pyval):
    return context.get_dummy_value()


@unbox(InlinedType)
def _unbox(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


def call_inlined(token, k, obs, prm, rng):
    """Kernel k of the token, called directly (compiled code only)."""


def inlined_draws(token, k):
    """Whether kernel k of the token may draw from its stream (compiled code only)."""


def _chain(args: str, values: list[str], default: str):
    """`def impl(args): if k == 0: return values[0] ... return default`, compiled by exec; with
    one value, `return values[0]` (k is 0 whenever it is called: nothing left for the engine to
    test, so LLVM sees the kernel's own result, e.g. that it is always a legal action)."""
    if len(values) == 1:
        return f"def impl({args}):\n    return {values[0]}"
    lines = [f"def impl({args}):"]
    lines += [f"    if k == {i}:\n        return {v}" for i, v in enumerate(values)]
    return "\n".join(lines + [f"    return {default}"])


@overload(call_inlined, inline="always")
def _call_inlined(token, k, obs, prm, rng):
    if not isinstance(token, InlinedType):
        return None
    kernels = _KERNELS[token.token_key]
    ns = {f"f{i}": f for i, f in enumerate(kernels)}
    exec(_chain("token, k, obs, prm, rng", [f"f{i}(obs, prm, rng)" for i in range(len(kernels))],
                "-1"), ns)
    return ns["impl"]


@overload(inlined_draws, inline="always")
def _inlined_draws(token, k):
    if not isinstance(token, InlinedType):
        return None
    ns: dict = {}
    exec(_chain("token, k", [str(draws(f)) for f in _KERNELS[token.token_key]], "True"), ns)
    return ns["impl"]


@functools.cache
def observed_fields(kernel) -> frozenset | None:
    """The entries of the observation (the kernel's first argument) the kernel reads, when it
    reads only constant entries of it directly; None when it may read any (the vector passed on,
    written, or indexed by a value computed at run time). From numba's IR of its source, so an
    engine need not write entries a compiled-in kernel never reads."""
    from numba.core import compiler, ir

    fir = compiler.run_frontend(kernel.py_func)
    stmts = [st for block in fir.blocks.values() for st in block.body]
    names = {st.target.name for st in stmts if isinstance(st, ir.Assign)
             and isinstance(st.value, ir.Arg) and st.value.index == 0}
    grew = True
    while grew:                      # copies of the vector's variable (`x = obs`)
        grew = False
        for st in stmts:
            if (isinstance(st, ir.Assign) and isinstance(st.value, ir.Var)
                    and st.value.name in names and st.target.name not in names):
                names.add(st.target.name)
                grew = True
    fields = set()
    for st in stmts:
        value = st.value if isinstance(st, ir.Assign) else None
        if isinstance(value, ir.Arg) or (isinstance(value, ir.Var) and value.name in names):
            continue
        if (isinstance(value, ir.Expr) and value.op in ("getitem", "static_getitem")
                and value.value.name in names):
            index = _constant_index(fir, value)
            if index is None:
                return None
            fields.add(index)
            continue
        used = value.list_vars() if isinstance(value, ir.Expr) else (
            [] if value is not None else st.list_vars())
        if names.intersection(v.name for v in used):
            return None
    return frozenset(fields)


def _constant_index(fir, expr) -> int | None:
    if expr.op == "static_getitem" and isinstance(expr.index, int):
        index = expr.index
    else:
        try:
            index = fir.infer_constant(expr.index if expr.op == "getitem" else expr.index_var)
        except Exception:            # not a constant: numba's ConstantInferenceError, or worse
            return None
    return index if isinstance(index, int) and index >= 0 else None
