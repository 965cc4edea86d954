"""What a variant or a grid point changes: rule parameters, a seat's strategy or one of its
parameters; parsed, validated and applied to a base set-up before anything is played.

Keys, the same for `compare --variant`, `sweep --grid` and the Python API:
    KEY=VALUE           a rule parameter (as `--set` takes it)
    seatN=STRATEGY      seat N plays another strategy (`leave-at-gems:t=10`)
    seatN.PARAM=VALUE   one parameter of seat N's strategy
    preset=NAME         the rules of another preset (then the other changes apply on top)
    rules=FILE.toml     a rule file (on top of the preset, if one is named)
A variant is one or more of these, separated by `;` (or by commas where the next item starts
with a known key: `rounds=4,hazard_copies=4`); a bare preset name or `.toml` path is the same as
`preset=` / `rules=`.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from sim import games as game_registry
from sim.core.errors import UsageError, suggest
from strategies.registry import Bound, parse_spec

SEAT_KEY = re.compile(r"^seat(\d+)(?:\.(\w+))?$")


@dataclasses.dataclass(frozen=True)
class Setup:
    """What one arm of a comparison plays: a rule set and one strategy per seat."""
    label: str
    rules: object
    lineup: tuple[Bound, ...]
    changes: tuple[str, ...] = ()          # as given, `key=value`

    @property
    def players(self) -> int:
        return len(self.lineup)


def base_setup(game: str, rules, specs, players: int | None = None, label: str = "base") -> Setup:
    """The base of a comparison: rules and strategies given as specs (one for every seat, or
    one per seat) or as Bound."""
    from strategies.registry import lineup as make_lineup
    g = game_registry.get(game)
    specs = list(specs)
    if not specs:
        raise UsageError(f"give at least one strategy with -s NAME (see `meeplelab strategies {game}`)")
    if players is None:
        players = len(specs) if len(specs) > 1 else g.default_players
    if not g.min_players <= players <= g.max_players:
        raise UsageError(f"{game}: {players} players; the engine plays {g.min_players} to {g.max_players}")
    if isinstance(specs[0], Bound):
        bound = specs * players if len(specs) == 1 else specs
        if len(bound) != players:
            raise UsageError(f"{len(specs)} strategies for {players} players")
    else:
        bound = make_lineup(game, specs, players)
    rules.check_players(players)
    return Setup(label, rules, tuple(bound))


def keys_text(game: str, players: int) -> str:
    """The keys a variant or a grid may change, for messages."""
    names = [p.name for p in game_registry.get(game).rules.params()]
    return (f"rule parameters ({', '.join(names)}), seatN=STRATEGY or seatN.PARAM for a seat N "
            f"from 0 to {players - 1}, preset=NAME, rules=FILE.toml")


def _is_key(game: str, text: str) -> bool:
    key = text.split("=", 1)[0].strip()
    names = {p.name for p in game_registry.get(game).rules.params()}
    return "=" in text and (key in names or key in ("preset", "rules") or bool(SEAT_KEY.match(key)))


def split_items(game: str, text: str) -> list[str]:
    """A variant's items: split on `;`, and on commas where the next piece starts with a key
    (so `tactic_cards=Fog,Mud` and `seat0=flat-mc:sims=10,prune=4` stay whole)."""
    items = []
    for part in text.split(";"):
        pieces = part.split(",")
        current = None
        for piece in pieces:
            if current is not None and not _is_key(game, piece):
                current += "," + piece
                continue
            if current is not None:
                items.append(current.strip())
            current = piece
        if current is not None and current.strip():
            items.append(current.strip())
    return [i for i in items if i]


def apply(game: str, base: Setup, items: list[str], label: str, where: str) -> Setup:
    """The base with the changes `items` (each `key=value`, a preset name or a rule file);
    `where` names the option in messages, e.g. "--variant 'rounds=4'"."""
    rules_cls = game_registry.get(game).rules
    preset = rules_file = None
    assignments, seats = [], {}
    for item in items:
        if "=" not in item:
            if item in rules_cls.PRESETS:
                preset = item
            elif item.endswith(".toml") or Path(item).is_file():
                rules_file = item
            else:
                raise UsageError(f"{where}: {item!r} is neither key=value, a {game} preset "
                                 f"({', '.join(rules_cls.PRESETS)}) nor a rule file; allowed keys: "
                                 f"{keys_text(game, base.players)}")
            continue
        key, value = (s.strip() for s in item.split("=", 1))
        m = SEAT_KEY.match(key)
        if key == "preset":
            preset = value
        elif key == "rules":
            rules_file = value
        elif m:
            seat = int(m.group(1))
            if seat >= base.players:
                raise UsageError(f"{where}: {key!r}: seat {seat} does not exist; seats 0 to "
                                 f"{base.players - 1}")
            seats.setdefault(seat, []).append((m.group(2), value))
        elif key in {p.name for p in rules_cls.params()}:
            assignments.append(f"{key}={value}")
        else:
            names = [p.name for p in rules_cls.params()] + ["preset", "rules", "seat0"]
            raise UsageError(f"{where}: unknown key {key!r}{suggest(key, names)}; allowed: "
                             f"{keys_text(game, base.players)}")
    try:
        rules = base.rules
        if preset is not None or rules_file is not None:
            rules = rules_cls.preset(preset) if preset is not None else base.rules
            if rules_file is not None:
                rules = rules_cls.load_toml(rules_file, base=rules)
        if assignments:
            rules = rules.with_assignments(assignments)
        rules.check_players(base.players)
        lineup = list(base.lineup)
        for seat, changes in seats.items():
            lineup[seat] = _seat_strategy(game, lineup[seat], changes)
    except UsageError as e:
        raise UsageError(f"{where}: {e}") from None
    return Setup(label, rules, tuple(lineup), tuple(items))


def _seat_strategy(game: str, bound: Bound, changes) -> Bound:
    """A seat's strategy after `seatN=SPEC` and `seatN.PARAM=VALUE` changes, in order."""
    for param, value in changes:
        if param is None:
            bound = parse_spec(game, value)
        else:
            p = bound.strategy.param(param)
            values = dict(bound.values)
            values[p.name] = p.parse(value, bound.strategy.name)
            bound = Bound(bound.strategy, tuple(values.items()))
    return bound


def variant(game: str, base: Setup, text: str, label: str | None = None) -> Setup:
    """One `--variant` text applied to the base."""
    items = split_items(game, text)
    if not items:
        raise UsageError(f"--variant {text!r}: empty; give key=value changes, a preset or a rule file")
    return apply(game, base, items, label or text, f"--variant {text!r}")


def short_label(bound: Bound) -> str:
    """A strategy as its name and the parameters that differ from their defaults (as -s takes
    it): `greedy`, `leave-at-gems:t=12`."""
    defaults = {p.name: p.default for p in bound.strategy.params}
    changed = tuple((k, v) for k, v in bound.values if defaults.get(k) != v)
    return Bound(bound.strategy, changed).label


def strategies_differ(a: Setup, b: Setup) -> bool:
    return [x.label for x in a.lineup] != [x.label for x in b.lineup]


def changed_seats(base: Setup, other: Setup) -> list[int]:
    return [i for i, (x, y) in enumerate(zip(base.lineup, other.lineup)) if x.label != y.label]
