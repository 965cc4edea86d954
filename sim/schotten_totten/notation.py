"""A compact text form of a Schotten Totten position, and "who can claim here?".

Example (every line optional except the stone lines you need; `#` starts a comment):

    schotten-totten
    turn 0                      # seat to move
    hand0 R1 R2 Y9 Chief1       # '?' or no line: unknown
    hand1 ?
    discard Scout B3            # face-up cards beside the tactic pile, oldest first
    tactics-played 1 0          # tactic cards each seat has played (default: morale cards on its side)
    chiefs-played 0 0           # whether each seat has played a Chief (default: one on its side)
    tactic-pile Mud Traitor     # top first; '-' empty; no line: unknown (clan-pile likewise)
    0: R9 R8 R7 / G1 G2         # seat 0's side / seat 1's side, in placement order, '-' if empty
    1: - / G3 | fog
    2: O4 O5 O6 / B4 B5 B6 | first1    # both complete and equal: seat 1 completed first
    3: Y1 Y2 Y3 / P1 | claimed0

Stones are numbered from 0 as in the engine; stones without a line are empty (9 stones unless a
`stones N` line says otherwise). Cards: a colour letter (R O Y G B P) and a value (R7), or a tactic
card name (Chief1, Chief2, Troop, Shield, Fog, Mud, Scout, Redeploy, Deserter, Traitor). Tags after
`|`: fog, mud (the environment cards under the stone), claimed0/claimed1, first0/first1 (who
completed first, needed only when both formations are complete and equally strong).
"""
from __future__ import annotations

import dataclasses

from ..core.errors import UsageError
from . import cards as C


@dataclasses.dataclass
class Position:
    sides: list                    # [stone][seat] -> cards in placement order
    env: list                      # [stone] -> Fog/Mud cards
    claimed: list                  # [stone] -> -1 or seat
    first_complete: list           # [stone] -> seat that completed first (both complete) or -1
    hands: list = dataclasses.field(default_factory=lambda: [None, None])   # None = unknown
    discard: list = dataclasses.field(default_factory=list)
    clan_pile: list | None = None
    tactic_pile: list | None = None
    turn: int = 0
    tactics_played: list = dataclasses.field(default_factory=lambda: [0, 0])
    chief_played: list = dataclasses.field(default_factory=lambda: [False, False])

    @classmethod
    def empty(cls, stones: int = 9) -> "Position":
        return cls([[[], []] for _ in range(stones)], [[] for _ in range(stones)], [-1] * stones,
                   [-1] * stones)

    @property
    def stones(self) -> int:
        return len(self.sides)


def _cards(tokens) -> list[int]:
    if list(tokens) in ([], ["-"]):
        return []
    return [C.parse_card(t) for t in tokens]


def card_names(cards) -> str:
    """Cards as the notation writes them, space-separated ('-' for none)."""
    return " ".join(C.card_name(c) for c in cards) if cards else "-"


def format_position(p: Position) -> str:
    lines = ["schotten-totten", f"turn {p.turn}"]
    if p.stones != 9:
        lines.append(f"stones {p.stones}")
    for seat in (0, 1):
        h = p.hands[seat]
        lines.append(f"hand{seat} " + ("?" if h is None else card_names(sorted(h))))
    if p.discard:
        lines.append("discard " + card_names(p.discard))
    lines.append(f"tactics-played {p.tactics_played[0]} {p.tactics_played[1]}")
    lines.append(f"chiefs-played {int(p.chief_played[0])} {int(p.chief_played[1])}")
    if p.clan_pile is not None:
        lines.append("clan-pile " + card_names(p.clan_pile))
    if p.tactic_pile is not None:
        lines.append("tactic-pile " + card_names(p.tactic_pile))
    for s in range(p.stones):
        tags = [C.TACTIC_TOKENS[c].lower() for c in p.env[s]]
        if p.claimed[s] != -1:
            tags.append(f"claimed{p.claimed[s]}")
        if p.first_complete[s] != -1:
            tags.append(f"first{p.first_complete[s]}")
        line = f"{s}: {card_names(p.sides[s][0])} / {card_names(p.sides[s][1])}"
        lines.append(line + (" | " + " ".join(tags) if tags else ""))
    return "\n".join(lines) + "\n"


def parse_position(text: str) -> Position:
    rows = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            rows.append(line)
    stones = 9
    for line in rows:
        if line.split()[0] == "stones":
            stones = int(line.split()[1])
    p = Position.empty(stones)
    given_tp = given_cp = False
    try:
        for line in rows:
            head, *rest = line.split()
            if head == "schotten-totten" or head == "stones":
                continue
            if head == "turn":
                p.turn = int(rest[0])
            elif head in ("hand0", "hand1"):
                p.hands[int(head[-1])] = None if rest == ["?"] else _cards(rest)
            elif head == "discard":
                p.discard = _cards(rest)
            elif head == "tactics-played":
                p.tactics_played, given_tp = [int(rest[0]), int(rest[1])], True
            elif head == "chiefs-played":
                p.chief_played, given_cp = [bool(int(rest[0])), bool(int(rest[1]))], True
            elif head == "clan-pile":
                p.clan_pile = _cards(rest)
            elif head == "tactic-pile":
                p.tactic_pile = _cards(rest)
            elif head.endswith(":") and head[:-1].isdigit():
                _parse_stone(p, int(head[:-1]), line.split(":", 1)[1])
            else:
                raise ValueError(f"unknown line {line!r}")
    except (ValueError, IndexError) as e:
        raise UsageError(f"schotten-totten position: {e}") from None
    if not given_tp:
        p.tactics_played = [sum(1 for s in p.sides for c in s[seat] if c in C.MORALE) for seat in (0, 1)]
    if not given_cp:
        p.chief_played = [any(c in C.CHIEFS for s in p.sides for c in s[seat]) for seat in (0, 1)]
    _check(p)
    return p


def _parse_stone(p: Position, s: int, body: str) -> None:
    if not 0 <= s < p.stones:
        raise ValueError(f"stone {s} out of range 0..{p.stones - 1}")
    board, _, tags = body.partition("|")
    if "/" not in board:
        raise ValueError(f"stone {s}: expected 'seat0 cards / seat1 cards'")
    left, right = board.split("/", 1)
    p.sides[s] = [_cards(left.split()), _cards(right.split())]
    for tag in tags.split():
        t = tag.lower()
        if t in ("fog", "mud"):
            p.env[s].append(C.FOG if t == "fog" else C.MUD)
        elif t in ("claimed0", "claimed1"):
            p.claimed[s] = int(t[-1])
        elif t in ("first0", "first1"):
            p.first_complete[s] = int(t[-1])
        else:
            raise ValueError(f"stone {s}: unknown tag {tag!r}")


def _check(p: Position) -> None:
    seen = {}
    groups = [("discard", p.discard), ("clan-pile", p.clan_pile or []), ("tactic-pile", p.tactic_pile or [])]
    groups += [(f"hand{i}", p.hands[i] or []) for i in (0, 1)]
    for s in range(p.stones):
        groups += [(f"stone {s}", p.sides[s][0] + p.sides[s][1] + p.env[s])]
        for seat in (0, 1):
            for c in p.sides[s][seat]:
                if c in C.ENVIRONMENT or c in C.RUSES:
                    raise UsageError(f"schotten-totten position: {C.card_name(c)} cannot lie on a side")
            if len(p.sides[s][seat]) > (4 if C.MUD in p.env[s] else 3):
                raise UsageError(f"schotten-totten position: stone {s}: too many cards for seat {seat}")
    for where, cards in groups:
        for c in cards:
            if c in seen:
                raise UsageError(f"schotten-totten position: {C.card_name(c)} is both in {seen[c]} "
                                 f"and in {where}")
            seen[c] = where


def who_can_claim(position) -> dict[int, int]:
    """{stone: seat} for every unclaimed stone that a player could claim now (on their turn, with
    the claim proof: every clan card not on the table, hands included, may still come).
    At most one seat can claim a stone. `position` is a `Position` or its text."""
    p = parse_position(position) if isinstance(position, str) else position
    visible = set(p.discard)
    for s in range(p.stones):
        visible.update(p.sides[s][0], p.sides[s][1])
    hidden = {c for c in range(C.N_CLAN) if c not in visible}
    out = {}
    for s in range(p.stones):
        if p.claimed[s] != -1:
            continue
        need, fog = (4 if C.MUD in p.env[s] else 3), C.FOG in p.env[s]
        sides = p.sides[s]
        both = all(len(sides[q]) >= need for q in (0, 1))
        if both and p.first_complete[s] == -1 and \
                C.best_key(sides[0], need, fog) == C.best_key(sides[1], need, fog):
            raise UsageError(f"stone {s}: equal complete formations; add first0 or first1")
        for seat in (0, 1):
            if C.wins_stone(sides[seat], sides[1 - seat], need, fog, hidden, p.first_complete[s] == seat):
                out[s] = seat
    return out
