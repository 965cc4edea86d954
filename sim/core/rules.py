"""Rule sets as data: declared, validated, named parameters with presets and TOML I/O.

A game declares its rules as a frozen dataclass deriving from `RuleSet`, each field made with
`param(...)` (default, documentation, allowed range or choices, whether it is a ruling of the
rules specification). Presets are named sets of overrides. A rule set resolves as:
preset -> rule file -> `--set key=value` assignments, and is validated at every step.
"""
from __future__ import annotations

import dataclasses
import re
import tomllib
from typing import Any, ClassVar

import tomli_w

from .errors import UsageError, suggest, unknown


def param(default, doc: str, *, min=None, max=None, choices=None, min_len=None, max_len=None,
          item: type | None = None, unique: bool = False, ruling: bool = False):
    """Declare one rule parameter.

    A list parameter (a list or tuple default) is stored as a tuple of integers or of strings:
    `item` (int or str; default: the type of the default's items, int for an empty default).
    For a list, `min`/`max` bound each item, `choices` are the values each item may take,
    `min_len`/`max_len` bound its length and `unique` forbids repeated items.
    """
    if isinstance(default, (list, tuple)):
        default = tuple(default)
        if item is None:
            item = str if default and all(isinstance(v, str) for v in default) else int
        if item not in (int, str):
            raise TypeError(f"list rule parameters hold int or str items, not {item}")
    elif item is not None or unique:
        raise TypeError("item= and unique= are only for list parameters")
    meta = dict(doc=doc, min=min, max=max, choices=tuple(choices) if choices else None,
                min_len=min_len, max_len=max_len, item=item, unique=unique, ruling=ruling)
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True)
class ParamInfo:
    name: str
    type: type
    default: Any
    doc: str
    min: Any
    max: Any
    choices: tuple | None
    min_len: int | None
    max_len: int | None
    item: type | None              # list parameters: int or str
    unique: bool                   # list parameters: no item twice
    ruling: bool

    def allowed(self) -> str:
        choices = "one of " + ", ".join(repr(c) for c in self.choices) if self.choices else ""
        if self.type is not tuple:
            if choices:
                return choices
            kind = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}[self.type]
        else:
            kind = "a list of " + ("distinct " if self.unique else "") + \
                ("strings" if self.item is str else "integers")
            if choices:
                kind += ", each " + choices
        bounds = []
        if self.min is not None:
            bounds.append(f">= {self.min}")
        if self.max is not None:
            bounds.append(f"<= {self.max}")
        if self.type is tuple and bounds:
            kind += " each " + " and ".join(bounds)
        elif bounds:
            kind += " " + " and ".join(bounds)
        if self.min_len is not None or self.max_len is not None:
            kind += f", {self.min_len or 0} to {self.max_len or 'any'} items"
        return kind


class RuleSet:
    """Base of every game's frozen rule-set dataclass."""

    GAME: ClassVar[str] = ""
    DEFAULT_PRESET: ClassVar[str] = ""
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    PRESET_DOCS: ClassVar[dict[str, str]] = {}
    NOTES: ClassVar[str] = ""        # printed after the parameters by to_toml, as comments
    # parameters naming a data file the engine reads ("" for the shipped one): a Dask worker
    # gets the file's contents with the rules, not its path (strategies/jobs.py)
    DATA_FILES: ClassVar[tuple[str, ...]] = ()

    # -------------------------------------------------------------- declarations
    @classmethod
    def params(cls) -> list[ParamInfo]:
        out = []
        for f in dataclasses.fields(cls):
            m = f.metadata
            typ = type(f.default)
            out.append(ParamInfo(f.name, typ, f.default, m["doc"], m["min"], m["max"], m["choices"],
                                 m["min_len"], m["max_len"], m["item"], m["unique"], m["ruling"]))
        return out

    @classmethod
    def param_info(cls, name: str) -> ParamInfo:
        for p in cls.params():
            if p.name == name:
                return p
        raise unknown(f"{cls.GAME} rule parameter", name, [p.name for p in cls.params()])

    # -------------------------------------------------------------- packing for compiled engines
    @classmethod
    def packed_fields(cls) -> tuple[str, ...]:
        """The scalar parameters (integers, booleans, choices) in declaration order: the order
        of the compiled engines' rule vector (`packed`). Lists are tables an engine packs itself;
        a float parameter is refused here, so it cannot be dropped unnoticed."""
        out = []
        for p in cls.params():
            if p.type is float:
                raise TypeError(f"{cls.GAME} rule {p.name!r}: float rules are not packed; "
                                "declare it in an engine's own table")
            if p.type is not tuple and (p.type is not str or p.choices):
                out.append(p.name)
        return tuple(out)

    @classmethod
    def slot(cls, name: str) -> int:
        """Where rule `name` lies in the packed vector."""
        fields = cls.packed_fields()
        if name not in fields:
            raise KeyError(f"{cls.GAME} rule {name!r} is not packed (packed: {', '.join(fields)})")
        return fields.index(name)

    @classmethod
    def code(cls, name: str, choice: str) -> int:
        """The packed value of choice `choice` of rule `name`: its index among the choices."""
        choices = cls.param_info(name).choices or ()
        if choice not in choices:
            raise KeyError(f"{cls.GAME} rule {name!r} has no choice {choice!r}")
        return choices.index(choice)

    def packed(self):
        """The scalar rules as one int64 vector, in `packed_fields` order (choices by `code`)."""
        import numpy as np

        values = []
        for name in self.packed_fields():
            v = getattr(self, name)
            values.append(self.code(name, v) if isinstance(v, str) else int(v))
        return np.array(values, np.int64)

    # -------------------------------------------------------------- validation
    def __post_init__(self):
        for p in self.params():
            value = getattr(self, p.name)
            coerced = _coerce(p, value, self.GAME)
            if coerced is not value:
                object.__setattr__(self, p.name, coerced)
        self.check()

    def check(self) -> None:
        """Cross-parameter checks; games override and raise UsageError."""

    def check_players(self, players: int) -> None:
        """Raise UsageError if the rule set does not allow this many players (games override)."""

    def team_seats(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The teams of a game of `players` seats, each a tuple of seats that win together (team
        A first), or () when every seat plays for itself (games with team play override)."""
        return ()

    # -------------------------------------------------------------- construction
    @classmethod
    def preset(cls, name: str | None = None):
        name = name or cls.DEFAULT_PRESET
        if name not in cls.PRESETS:
            raise unknown(f"{cls.GAME} preset", name, cls.PRESETS)
        return cls.from_mapping(cls.PRESETS[name], source=f"preset {name!r}")

    @classmethod
    def from_mapping(cls, values: dict, source: str = "rules", base=None):
        names = [p.name for p in cls.params()]
        for key in values:
            if key not in names:
                raise UsageError(f"{source}: unknown {cls.GAME} rule parameter {key!r}"
                                 f"{suggest(key, names)}; see `meeplelab rules {cls.GAME}`")
        merged = dataclasses.asdict(base) if base is not None else {}
        merged.update(values)
        try:
            return cls(**merged)
        except UsageError as e:
            raise UsageError(f"{source}: {e}") from None

    @classmethod
    def load_toml(cls, path, base=None):
        """Load a rule file; a `preset = "name"` key picks the base preset."""
        try:
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
        except FileNotFoundError:
            raise UsageError(f"rule file {path}: no such file") from None
        except tomllib.TOMLDecodeError as e:
            raise UsageError(f"rule file {path}: invalid TOML: {e}") from None
        if "preset" in data:
            try:
                base = cls.preset(data.pop("preset"))
            except UsageError as e:
                raise UsageError(f"rule file {path}{_line_of(path, 'preset')}: {e}") from None
        names = [p.name for p in cls.params()]
        for key in data:   # name the line of an unknown key, as for a TOML syntax error
            if key not in names:
                raise UsageError(f"rule file {path}{_line_of(path, key)}: unknown {cls.GAME} rule "
                                 f"parameter {key!r}{suggest(key, names)}; see `meeplelab rules {cls.GAME}`")
        return cls.from_mapping(data, source=f"rule file {path}", base=base or cls.preset())

    def with_assignments(self, assignments: list[str]):
        """Apply `key=value` strings (TOML values; bare words are strings; for a list parameter
        `1,2,3` or `Fog,Mud` is a list, a single value a list of one, and an empty value none)."""
        values = {}
        for text in assignments:
            if "=" not in text:
                raise UsageError(f"--set {text!r}: expected key=value")
            key, raw = (s.strip() for s in text.split("=", 1))
            info = self.param_info(key)
            values[key] = _parse_value(info, raw)
        return self.from_mapping(values, source="--set", base=self)

    def replace(self, **changes):
        return self.from_mapping(changes, source="replace", base=self)

    # -------------------------------------------------------------- output
    def to_dict(self) -> dict[str, Any]:
        return {p.name: (list(v) if isinstance(v := getattr(self, p.name), tuple) else v)
                for p in self.params()}

    def to_toml(self, comments: bool = True) -> str:
        lines = [f"# {self.GAME} rule set (every parameter, resolved)"] if comments else []
        for p in self.params():
            if comments:
                tag = " [ruling]" if p.ruling else ""
                lines.append(f"# {p.doc}{tag} Allowed: {p.allowed()}. Default: {_show(p.default)}.")
            lines.append(f"{p.name} = {_show(getattr(self, p.name))}")
        if comments and self.NOTES:
            lines += [""] + [f"# {line}".rstrip() for line in self.NOTES.strip("\n").splitlines()]
        return "\n".join(lines) + "\n"

    def differences(self, other=None) -> dict[str, Any]:
        """Parameters that differ from `other` (default: the default preset)."""
        other = other or self.preset()
        a, b = self.to_dict(), other.to_dict()
        return {k: v for k, v in a.items() if b[k] != v}


def _line_of(path, key: str) -> str:
    """', line N' where `key` is assigned (or opens a table) in a TOML file, or ''."""
    pattern = re.compile(rf"""^\s*(\[\s*)?["']?{re.escape(key)}["']?\s*[=.\]]""")
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for number, text in enumerate(fh, 1):
                if pattern.match(text):
                    return f", line {number}"
    except OSError:
        pass
    return ""


def _show(value) -> str:
    """One TOML value on one line (lists inline)."""
    if isinstance(value, tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return tomli_w.dumps({"v": value})[4:].strip()


def _parse_value(info: ParamInfo, raw: str):
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        if info.type is tuple:   # a bare comma-separated list: 1,2,3 or Fog,Mud
            items = [x.strip() for x in raw.strip("[]() ").split(",") if x.strip()]
            if info.item is str:
                return tuple(x.strip("\"'") for x in items)
            try:
                return tuple(int(x) for x in items)
            except ValueError:
                raise UsageError(f"--set {info.name}={raw}: expected {info.allowed()}") from None
        value = raw
    if info.type is tuple and not isinstance(value, list):
        value = (value,)   # one item: a list of one
    return value


def _coerce(p: ParamInfo, value, game: str):
    where = f"{game} rule {p.name!r}"

    def bad(why=""):
        return UsageError(f"{where} = {value!r}{why}: expected {p.allowed()}")

    if p.type is bool:
        if not isinstance(value, bool):
            raise bad()
        return value
    if p.type is int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise bad()
    elif p.type is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad()
        value = float(value)
    elif p.type is str:
        if not isinstance(value, str):
            raise bad()
    elif p.type is tuple:
        if p.item is str:
            ok = isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)
        else:
            ok = isinstance(value, (list, tuple)) and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value)
        if not ok:
            raise bad()
        value = tuple(value)
        if p.min_len is not None and len(value) < p.min_len or p.max_len is not None and len(value) > p.max_len:
            raise bad(f" ({len(value)} items)")
        for item in value:
            if p.choices and item not in p.choices:
                hint = suggest(item, p.choices).strip()[1:-1]   # "did you mean ...?" or ""
                raise bad(f" (item {item!r} is not allowed{'; ' + hint if hint else ''})")
            if p.min is not None and item < p.min or p.max is not None and item > p.max:
                raise bad(f" (item {item} out of range)")
        if p.unique:
            repeated = sorted({v for v in value if value.count(v) > 1}, key=value.index)
            if repeated:
                raise bad(f" (item {repeated[0]!r} given {value.count(repeated[0])} times)")
        return value
    if p.choices and value not in p.choices:
        raise bad(suggest(value, p.choices))
    if p.min is not None and value < p.min or p.max is not None and value > p.max:
        raise bad(" (out of range)")
    return value
