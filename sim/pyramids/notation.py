"""A compact text notation for a Pyramids position: each seat's necropolis and, optionally, the
round in progress (who decides what, and what the deciding seat has done so far this turn).

Example (4 players, round 3: seats 2 and 3 have played, seat 1 has taken pair 0 and must place
its pyramid card, seat 0 plays last):

    pyramids
    round 3; first 2; quarry - | 12 40 | - | -
    tiles Horus:2 Anubis:3 Khepri:1 Sekhmet:0
    to-move 1 pyramid; turn pair 0
    0: pyramid 29 32; obelisk -; tomb 16; hand 35; discard 62
    1: pyramid 0 77; obelisk -; tomb 2; hand 8 22 51
    2: pyramid 96 47 / 86; obelisk 31; tomb -; hand ?
    3: pyramid 26 14 9; obelisk 49; tomb 30 ?; hand ?

A line holds statements separated by `;`; `#` starts a comment. Cards are written by their deck
id (the `id` column of the deck file: with the shipped deck, 0 to 104), `?` is a card that is not
known (allowed in hands, tombs and discards), `-` an empty list. Keywords are lower case.

Seats: `S: PART; PART ...` (seats 0, 1, ... in seat order; a seat's parts may also be spread over
several `S:` lines, each part once):
  pyramid L0 / L1 / L2 / L3   the levels from the base up, each left to right. The base (level 0)
                      is a row of 1 to 4 cards from the left (its positions are relative: the
                      leftmost card is position 0); an upper level lists its 3, 2, 1 positions,
                      `.` for an empty one (trailing ones may be left out; levels above the last
                      card too). A card on level L, position p lies on positions p and p + 1 of
                      level L - 1, which must hold cards. `pyramid -`: no card yet.
  obelisk C ...       bottom to top.
  tomb C ...          in the order laid; `?` for a card of someone else's tomb.
  hand C ...          the cards in hand (`?`: not known; a round state needs every hand).
  discard C ...       the seat's discarded cards (optional: missing ones are not known).
  start C             the card the seat was dealt at setup, while it is still hidden (in its
                      hand, tomb or discards): the others never saw it. Without it every hidden
                      card of the seat counts as seen in the quarry.

Round state (optional: without a `round` statement the file is necropolises only):
  round R             the round in progress, 1 to 10 (its quarry is out)
  first S             the seat with the First Player token (default: seat R - 1, modulo players)
  set-aside TILE      2 players: the God tile out this round (`-` none); other counts: no line
  quarry P | P ...    one pair per player in pair order: two cards, or `-` once taken
  tiles TILE:S ...    the God tiles chosen so far this round and their seats (`-` none); TILE is
                      Horus, Anubis, Khepri, Sekhmet or Thoth
  to-move S DECISION  the deciding seat and its decision: tile, pair, pyramid, tomb, obelisk or
                      keep (the chain of observation.py)
  turn pair Q pyramid C tomb C obelisk C   what S did so far this turn (each only once made:
                      the pair index, the pyramid card (its spot follows from where it lies), the
                      tomb and obelisk cards, `-` for none)

The round state must be one the rules can reach: tiles chosen clockwise from the first player,
turns in tile order (the seats with lower tiles have played), one pyramid card a round, each seat
holding its starting card plus a pair a round minus its discards. `parse_position` checks all of
it and names the line; `format_position` writes the canonical text (format(parse(x)) == x for
text it wrote). `game_at` builds the reference `Game` of a round state at its decision, and
`decision_at` that game with the deciding seat, its decision and legal list, so a strategy can be
asked (`observation()`). `from_game` is the position of a reference game, at a decision or between
rounds (what playthroughs print).
"""
from __future__ import annotations

import dataclasses
import re

from ..core.errors import UsageError
from ..core.rng import KeyedRng, deck_stream
from . import observation as O
from . import reference
from .observation import LEVEL_OF, LEVEL_SIZE, LEVEL_START, POSITION_OF, SPOT_LEFT, SPOT_RIGHT
from .rules import MAX_PLAYERS, ROUNDS, TILE_NAMES, PyramidsRules

PARTS = ("pyramid", "obelisk", "tomb", "hand", "discard", "start")
ROUND_KEYS = ("round", "first", "set-aside", "quarry", "tiles", "to-move", "turn")
TURN_KEYS = ("pair", "pyramid", "tomb", "obelisk")
TILE_OF = {name.lower(): t for t, name in TILE_NAMES.items()}
SEAT_PREFIX = re.compile(r"\s*(\d+)\s*:(.*)$")


class _Bad(Exception):
    """A parse error; the parser adds the line."""


@dataclasses.dataclass
class Seat:
    """One seat's cards (engine card numbers; None = a card not known)."""
    pyramid: dict = dataclasses.field(default_factory=dict)    # slot -> card
    obelisk: list = dataclasses.field(default_factory=list)    # bottom to top
    tomb: list = dataclasses.field(default_factory=list)       # in the order laid
    hand: list | None = None                                   # None: not written
    discard: list | None = None                                # None: not written
    start: int | None = None                                   # the hidden starting card


@dataclasses.dataclass
class Round:
    number: int                   # 1-based
    first: int
    set_aside: int                # 2 players: the tile out this round; 0 none
    quarry: list                  # pair -> [card, card], [] once taken
    tiles: dict                   # tile -> seat, the tiles chosen so far
    to_move: int
    decision: int                 # observation.D_*
    pair: int = -1                # the turn so far (-1: not made, or none)
    pyramid: int = -1
    tomb: int = -1
    obelisk: int = -1


@dataclasses.dataclass
class Position:
    cards: tuple                  # the deck (deck.Card), whose ids the text uses
    seats: list                   # Seat per seat
    round: Round | None = None

    @property
    def players(self) -> int:
        return len(self.seats)


def slot(level: int, position: int) -> int:
    return LEVEL_START[level] + position


def slot_text(s: int) -> str:
    return "base position %d" % POSITION_OF[s] if LEVEL_OF[s] == 0 else \
        f"level {LEVEL_OF[s]} position {POSITION_OF[s]}"


# ================================================================ formatting
def card_ids(cards, numbers) -> str:
    """Card numbers as the notation writes them: deck ids, `?` for None, `-` for none."""
    return " ".join("?" if c is None else str(cards[c].id) for c in numbers) if numbers else "-"


def pyramid_text(cards, pyramid: dict) -> str:
    if not pyramid:
        return "-"
    levels = []
    for level in range(max(LEVEL_OF[s] for s in pyramid) + 1):
        row = [slot(level, p) for p in range(LEVEL_SIZE[level])]
        if level == 0:
            levels.append(card_ids(cards, [pyramid[s] for s in row if s in pyramid]))
        else:
            levels.append(" ".join(str(cards[pyramid[s]].id) if s in pyramid else "." for s in row))
    return " / ".join(levels)


def seat_line(cards, s: int, seat: Seat) -> str:
    parts = [f"pyramid {pyramid_text(cards, seat.pyramid)}", f"obelisk {card_ids(cards, seat.obelisk)}",
             f"tomb {card_ids(cards, seat.tomb)}"]
    if seat.hand is not None:
        parts.append(f"hand {card_ids(cards, seat.hand)}")
    if seat.discard is not None:
        parts.append(f"discard {card_ids(cards, seat.discard)}")
    if seat.start is not None:
        parts.append(f"start {cards[seat.start].id}")
    return f"{s}: " + "; ".join(parts)


def round_lines(cards, r: Round, players: int) -> list[str]:
    quarry = " | ".join(card_ids(cards, pair) for pair in r.quarry)
    first = f"round {r.number}; first {r.first}"
    if players == 2:
        first += f"; set-aside {TILE_NAMES[r.set_aside] if r.set_aside else '-'}"
    tiles = " ".join(f"{TILE_NAMES[t]}:{s}" for t, s in sorted(r.tiles.items())) or "-"
    move = f"to-move {r.to_move} {O.DECISION_NAMES[r.decision]}"
    turn = []
    if r.pair >= 0:
        turn.append(f"pair {r.pair}")
    for key in ("pyramid", "tomb", "obelisk"):
        if getattr(r, key) >= 0:
            turn.append(f"{key} {cards[getattr(r, key)].id}")
    if turn:
        move += "; turn " + " ".join(turn)
    return [f"{first}; quarry {quarry}", f"tiles {tiles}", move]


def format_position(p: Position) -> str:
    lines = ["pyramids"]
    if p.round is not None:
        lines += round_lines(p.cards, p.round, p.players)
    lines += [seat_line(p.cards, s, seat) for s, seat in enumerate(p.seats)]
    return "\n".join(lines) + "\n"


# ================================================================ parsing
class _Parser:
    def __init__(self, rules: PyramidsRules):
        self.rules = rules
        self.cards = rules.cards()
        self.number_of = {c.id: c.index for c in self.cards}
        self.seats: dict[int, Seat] = {}
        self.seen: dict[int, tuple[str, int]] = {}      # card -> (where, line)
        self.line_of: dict = {}                          # (seat, part) or round key -> line
        self.values: dict = {}                           # round key -> parsed value
        self.line = 0

    # ---------------------------------------------------------------- tokens
    def card(self, token: str, where: str, unknown_ok: bool = False):
        if token == "?":
            if unknown_ok:
                return None
            raise _Bad(f"{where}: '?' (a card not known) is allowed only in hands, tombs and discards")
        if not token.isdigit():
            raise _Bad(f"{where}: {token!r} is not a card id (a deck id such as 17{', or ?' if unknown_ok else ''})")
        if int(token) not in self.number_of:
            ids = sorted(self.number_of)
            span = f"{ids[0]} to {ids[-1]}" if ids == list(range(ids[0], ids[-1] + 1)) else "see the deck file"
            raise _Bad(f"{where}: card id {token} is not in the deck (ids: {span})")
        c = self.number_of[int(token)]
        if c in self.seen:
            other, line = self.seen[c]
            raise _Bad(f"card {token} is twice in the position: in {where}, and in {other} (line {line})")
        self.seen[c] = (where, self.line)
        return c

    def card_list(self, tokens, where: str, unknown_ok: bool = False) -> list:
        if tokens == ["-"]:
            return []
        return [self.card(t, where, unknown_ok) for t in tokens]

    def seat_index(self, token: str, what: str) -> int:
        if not token.isdigit() or int(token) >= MAX_PLAYERS:
            raise _Bad(f"{what}: {token!r} is not a seat (allowed: 0 to {MAX_PLAYERS - 1})")
        return int(token)

    # ---------------------------------------------------------------- lines
    def parse(self, text: str) -> None:
        for self.line, raw in enumerate(text.splitlines(), 1):
            body = raw.split("#", 1)[0].strip()
            if not body:
                continue
            seat = None
            m = SEAT_PREFIX.match(body)
            if m:
                seat = self.seat_index(m.group(1), "seat prefix")
                body = m.group(2)
            for statement in body.split(";"):
                if statement.strip():
                    self.statement(seat, statement.split())

    def statement(self, seat, words) -> None:
        head, rest = words[0], words[1:]
        if seat is not None:
            if head not in PARTS:
                raise _Bad(f"seat {seat}: unknown part {head!r} (allowed: {', '.join(PARTS)})")
            self.seat_part(seat, head, rest)
        elif head == "pyramids":
            if rest:
                raise _Bad("the header line is the word 'pyramids' alone")
        elif head in ROUND_KEYS:
            if head in self.values:
                raise _Bad(f"{head!r} given twice (first on line {self.line_of[head]})")
            self.line_of[head] = self.line
            self.values[head] = self.round_statement(head, rest)
        else:
            raise _Bad(f"unknown statement {head!r} (allowed: a seat line 'S: pyramid ...; obelisk ...', "
                       f"or one of {', '.join(ROUND_KEYS)}, or the header 'pyramids')")

    def seat_part(self, s: int, part: str, rest) -> None:
        seat = self.seats.setdefault(s, Seat())
        if (s, part) in self.line_of:
            raise _Bad(f"seat {s}: {part} given twice (first on line {self.line_of[s, part]})")
        self.line_of[s, part] = self.line
        where = f"seat {s}'s {part}"
        if part == "pyramid":
            seat.pyramid = self.pyramid(s, " ".join(rest))
        elif part in ("obelisk", "tomb"):
            cards = self.card_list(rest, where, unknown_ok=part == "tomb")
            if len(cards) > ROUNDS:
                raise _Bad(f"{where}: {len(cards)} cards (at most {ROUNDS}: one a round)")
            setattr(seat, part, cards)
        elif part in ("hand", "discard"):
            cards = self.card_list(rest, where, unknown_ok=True)
            if part == "hand" and len(cards) > O.MAX_HAND:
                raise _Bad(f"{where}: {len(cards)} cards (at most {O.MAX_HAND}: the kept card and a pair)")
            setattr(seat, part, _canonical(cards))
        else:
            if len(rest) != 1:
                raise _Bad(f"{where}: expected one card id")
            number = self.number_of.get(int(rest[0])) if rest[0].isdigit() else None
            if number is None:
                raise _Bad(f"{where}: {rest[0]!r} is not a card id of the deck")
            seat.start = number

    def pyramid(self, s: int, body: str) -> dict:
        if body.strip() == "-":
            return {}
        levels = body.split("/")
        if len(levels) > len(LEVEL_SIZE):
            raise _Bad(f"seat {s}'s pyramid: {len(levels)} levels; the pyramid has 4 (4, 3, 2 and 1 "
                       f"cards), separated by '/'")
        pyramid = {}
        for level, row in enumerate(levels):
            tokens = row.split()
            if level == 0:
                tokens = _without_trailing_dots(tokens, s)
                if len(tokens) > LEVEL_SIZE[0]:
                    raise _Bad(f"seat {s}'s pyramid, base position {LEVEL_SIZE[0]}: a 5th card on the base "
                               f"(the base holds 4 cards, positions 0 to 3)")
            elif len(tokens) > LEVEL_SIZE[level]:
                raise _Bad(f"seat {s}'s pyramid, level {level}: {len(tokens)} entries, but level {level} has "
                           f"{LEVEL_SIZE[level]} positions (0 to {LEVEL_SIZE[level] - 1}); '.' is an empty one")
            for p, token in enumerate(tokens):
                if token != ".":
                    sl = slot(level, p)
                    pyramid[sl] = self.card(token, f"seat {s}'s pyramid at {slot_text(sl)}")
        self.check_pyramid(s, pyramid)
        return pyramid

    def check_pyramid(self, s: int, pyramid: dict) -> None:
        for sl in sorted(pyramid):
            level, p = LEVEL_OF[sl], POSITION_OF[sl]
            if level == 0:
                continue
            for q in (p, p + 1):
                if slot(level - 1, q) not in pyramid:
                    raise _Bad(f"seat {s}'s pyramid, {slot_text(sl)}: card {self.cards[pyramid[sl]].id} has "
                               f"no support: {slot_text(slot(level - 1, q))} is empty (a card on level "
                               f"{level}, position {p} lies on positions {p} and {p + 1} of the level below)")
        if self.rules.upper_level == "contiguous":
            for level in (1, 2):
                held = [p for p in range(LEVEL_SIZE[level]) if slot(level, p) in pyramid]
                if held and held != list(range(held[0], held[-1] + 1)):
                    gap = next(p for p in range(held[0], held[-1]) if p not in held)
                    raise _Bad(f"seat {s}'s pyramid, level {level} position {gap}: empty between cards, but with "
                               f"upper_level = contiguous a level grows next to its cards")

    # ---------------------------------------------------------------- the round
    def round_statement(self, key: str, rest):
        if key == "round":
            if len(rest) != 1 or not rest[0].isdigit() or not 1 <= int(rest[0]) <= ROUNDS:
                raise _Bad(f"round: expected the round in progress, 1 to {ROUNDS}")
            return int(rest[0])
        if key == "first":
            if len(rest) != 1:
                raise _Bad("first: expected the seat with the First Player token")
            return self.seat_index(rest[0], "first")
        if key == "set-aside":
            if rest == ["-"]:
                return 0
            if len(rest) != 1:
                raise _Bad("set-aside: expected one God tile or '-'")
            return self.tile(rest[0], "set-aside")
        if key == "quarry":
            pairs = []
            for q, text in enumerate(" ".join(rest).split("|")):
                pair = self.card_list(text.split(), f"quarry pair {q}")
                if len(pair) not in (0, 2):
                    raise _Bad(f"quarry pair {q}: {len(pair)} cards (a pair is 2 cards, or '-' once taken)")
                pairs.append(pair)
            return pairs
        if key == "tiles":
            tiles = {}
            for token in ([] if rest == ["-"] else rest):
                name, sep, seat = token.partition(":")
                if not sep:
                    raise _Bad(f"tiles: {token!r} is not TILE:SEAT (e.g. Horus:2)")
                t = self.tile(name, "tiles")
                if t in tiles:
                    raise _Bad(f"tiles: {TILE_NAMES[t]} is chosen twice")
                s = self.seat_index(seat, f"tiles {token}")
                if s in tiles.values():
                    raise _Bad(f"tiles: seat {s} has two tiles (one God tile each a round)")
                tiles[t] = s
            return tiles
        if key == "to-move":
            if len(rest) != 2 or rest[1] not in O.DECISION_NAMES:
                raise _Bad(f"to-move: expected a seat and a decision ({', '.join(O.DECISION_NAMES)})")
            return self.seat_index(rest[0], "to-move"), O.DECISION_NAMES.index(rest[1])
        turn = {}
        if len(rest) % 2:
            raise _Bad("turn: expected pairs of a key and a value, e.g. 'turn pair 2 pyramid 40'")
        for k, v in zip(rest[::2], rest[1::2]):
            if k not in TURN_KEYS:
                raise _Bad(f"turn: unknown key {k!r} (allowed: {', '.join(TURN_KEYS)})")
            if k in turn:
                raise _Bad(f"turn: {k} given twice")
            if k == "pair":
                if not v.isdigit():
                    raise _Bad(f"turn pair: {v!r} is not a pair index (0, 1, ...)")
                turn[k] = int(v)
            elif v == "-" and k != "pyramid":
                turn[k] = -1
            else:
                turn[k] = self.number_of.get(int(v), -2) if v.isdigit() else -2
                if turn[k] == -2:
                    raise _Bad(f"turn {k}: {v!r} is not a card id of the deck"
                               f"{'' if k == 'pyramid' else ' (or - for none)'}")
        return turn

    def tile(self, name: str, what: str) -> int:
        if name.lower() not in TILE_OF:
            raise _Bad(f"{what}: unknown God tile {name!r} (allowed: {', '.join(TILE_NAMES.values())})")
        return TILE_OF[name.lower()]


def _canonical(cards: list) -> list:
    """A hand or discard pile: known cards ascending, then the unknown ones."""
    return sorted(c for c in cards if c is not None) + [None] * sum(c is None for c in cards)


def _without_trailing_dots(tokens, s: int) -> list:
    while tokens and tokens[-1] == ".":
        tokens = tokens[:-1]
    if "." in tokens:
        gap = tokens.index(".")
        raise _Bad(f"seat {s}'s pyramid, base position {gap}: empty, but a card lies right of it: the base is "
                   f"a row without gaps, written from its leftmost card")
    return tokens


def parse_position(text: str, rules: PyramidsRules | None = None) -> Position:
    """The position a text describes, checked against the rules (their deck names the cards);
    UsageError naming the line and what is allowed."""
    rules = rules if rules is not None else PyramidsRules.preset()
    parser = _Parser(rules)
    try:
        parser.parse(text)
    except _Bad as e:
        raise UsageError(f"pyramids position, line {parser.line}: {e}") from None
    return _Checker(parser).position()


# ================================================================ consistency
class _Checker:
    """The checks that span lines: seats present, edifice sizes, the round state reachable."""

    def __init__(self, parser: _Parser):
        self.p, self.rules, self.cards = parser, parser.rules, parser.cards

    def fail(self, key, message: str):
        line = self.p.line_of.get(key)
        where = f"line {line}" if line else "position"
        raise UsageError(f"pyramids position, {where}: {message}")

    def position(self) -> Position:
        seats = self.p.seats
        if not seats:
            raise UsageError("pyramids position: no seat (write a line such as '0: pyramid 12 40; obelisk -; "
                             "tomb -' per seat)")
        n = max(seats) + 1
        missing = [s for s in range(n) if s not in seats]
        if missing:
            raise UsageError(f"pyramids position: seat {missing[0]} is missing (seats are numbered 0 to "
                             f"{n - 1}, one line each at least)")
        ordered = [seats[s] for s in range(n)]
        for s, seat in enumerate(ordered):
            self.check_seat(s, seat)
        r = self.round(ordered) if self.p.values else None
        return Position(self.cards, ordered, r)

    def check_seat(self, s: int, seat: Seat) -> None:
        for part in ("obelisk", "tomb"):
            if len(getattr(seat, part)) > len(seat.pyramid):
                self.fail((s, part), f"seat {s}: {len(getattr(seat, part))} {part} cards but "
                          f"{len(seat.pyramid)} pyramid cards (a pyramid card every round, at most one "
                          f"card per edifice a round)")
        if seat.start is not None:
            hidden = (seat.hand or []) + seat.tomb + (seat.discard or [])
            if seat.start not in hidden:
                self.fail((s, "start"), f"seat {s}: start {self.cards[seat.start].id} is not in its hand, "
                          f"tomb or discards (write start only for a starting card still hidden)")

    # ---------------------------------------------------------------- the round state
    def round(self, seats: list) -> Round:
        v, rules, n = self.p.values, self.rules, len(seats)
        for key in ("round", "quarry", "to-move"):
            if key not in v:
                self.fail(next(iter(v)), f"a round state needs a '{key}' statement (round, quarry, tiles, "
                          f"to-move; see sim/pyramids/notation.py)")
        if n < 2:
            self.fail("round", f"a round state needs 2 to {MAX_PLAYERS} seats; this position has {n}")
        try:
            rules.check_players(n)
        except UsageError as e:
            self.fail("round", str(e))
        number = v["round"]
        first = v.get("first", (number - 1) % n)
        if first >= n:
            self.fail("first", f"first {first}: no such seat (seats 0 to {n - 1})")
        set_aside = self.set_aside(n, v.get("set-aside"))
        offered = [t for t in rules.tiles(n) if t != set_aside]
        quarry = v["quarry"]
        if len(quarry) != n:
            self.fail("quarry", f"quarry: {len(quarry)} pairs, but {n} players have {n} (one pair each)")
        tiles = v.get("tiles", {})
        for t, s in tiles.items():
            if t not in offered:
                self.fail("tiles", f"tiles: {TILE_NAMES[t]} is not in play (this round: "
                          f"{', '.join(TILE_NAMES[x] for x in offered)})")
            if s >= n:
                self.fail("tiles", f"tiles: seat {s} does not exist (seats 0 to {n - 1})")
        seat, decision = v["to-move"]
        if seat >= n:
            self.fail("to-move", f"to-move {seat}: no such seat (seats 0 to {n - 1})")
        turn = v.get("turn", {})
        r = Round(number, first, set_aside, quarry, tiles, seat, decision, turn.get("pair", -1),
                  turn.get("pyramid", -1), turn.get("tomb", -1), turn.get("obelisk", -1))
        played = self.order(r, n)
        self.check_turn(r, seats, turn)
        for s, st in enumerate(seats):
            self.counts(r, s, st, s in played)
        return r

    def set_aside(self, n: int, value) -> int:
        if n != 2:
            if value:
                self.fail("set-aside", "set-aside: only 2-player games set a tile aside")
            return 0
        if value is None:
            self.fail("round", "2 players: write 'set-aside TILE' (the God tile out this round; '-' for "
                      "none, as with two_player_tiles = return after round 1)")
        if value and value not in self.rules.tiles(2):
            self.fail("set-aside", f"set-aside: {TILE_NAMES[value]} is not used at 2 players (Horus, "
                      f"Anubis, Khepri, Sekhmet)")
        return value

    def order(self, r: Round, n: int) -> set:
        """The seats that have played their turn this round (checking the order of play)."""
        taken = sum(1 for pair in r.quarry if not pair)
        if r.decision == O.D_TILE:
            if len(r.tiles) >= n:
                self.fail("to-move", f"to-move {r.to_move} tile: every seat has a God tile already")
            choosers = [(r.first + k) % n for k in range(len(r.tiles))]
            if sorted(r.tiles.values()) != sorted(choosers) or r.to_move != (r.first + len(r.tiles)) % n:
                self.fail("to-move", f"to-move {r.to_move} tile: tiles are chosen clockwise from the first "
                          f"player (seat {r.first}); with {len(r.tiles)} chosen "
                          f"(by {_seats(r.tiles.values())}) seat {(r.first + len(r.tiles)) % n} chooses next, "
                          f"and the tiles so far are seats {_seats(choosers)}'s")
            if taken:
                self.fail("quarry", "quarry: a pair is taken, but the tiles are still being chosen")
            return set()
        if len(r.tiles) != n:
            self.fail("to-move", f"to-move {r.to_move} {O.DECISION_NAMES[r.decision]}: the pairs are taken "
                      f"once every seat has a God tile ({len(r.tiles)} of {n} in 'tiles')")
        own = next(t for t, s in r.tiles.items() if s == r.to_move)
        played = {s for t, s in r.tiles.items() if t < own}
        want = len(played) + (r.decision != O.D_PAIR)
        if taken != want:
            self.fail("quarry", f"quarry: {taken} pairs taken, but {want} should be: turns go in tile order, "
                      f"so seat {r.to_move} ({TILE_NAMES[own]}) plays after {_seats(played) or 'nobody'}"
                      f"{' and has taken its pair' if r.decision != O.D_PAIR else ''}")
        return played

    def check_turn(self, r: Round, seats: list, given: dict) -> None:
        seat, d, n = r.to_move, r.decision, len(seats)
        name = f"to-move {seat} {O.DECISION_NAMES[d]}"
        for key, after in (("pair", O.D_PAIR), ("pyramid", O.D_PYRAMID)):
            if (key in given) != (d > after):
                self.fail("turn" if key in given else "to-move",
                          f"{name}: 'turn {key} ...' is " + ("needed: the decision comes after it" if d > after
                                                               else "not yet made at this decision"))
        if d <= O.D_PAIR:
            if given:
                self.fail("turn", f"{name}: nothing of the turn is made yet ('turn' lists {', '.join(given)})")
            return
        tile = next(t for t, s in r.tiles.items() if s == seat)
        may_tomb, may_obelisk, either = self.rules.powers(tile, n)
        if not 0 <= r.pair < n or r.quarry[r.pair]:
            self.fail("turn", f"turn pair {r.pair}: not a taken pair of the quarry (its entry must be '-')")
        st = seats[seat]
        if d > O.D_PYRAMID:
            self.turn_pyramid(r, st)
        for key, allowed, after in (("tomb", may_tomb, (O.D_OBELISK, O.D_KEEP)), ("obelisk", may_obelisk, (O.D_KEEP,))):
            card = given.get(key, -1)
            if card >= 0 and (not allowed or d not in after):
                why = f"{TILE_NAMES[tile]} allows no {key} card" if not allowed else \
                    f"not laid yet at a {O.DECISION_NAMES[d]} decision ('turn' lists what is done; the {key} " \
                    f"card comes out of the {key} decision)"
                self.fail("turn", f"turn {key} {self.cards[card].id}: {why}")
            if card >= 0 and (not getattr(st, key) or getattr(st, key)[-1] != card):
                self.fail("turn", f"turn {key} {self.cards[card].id}: not the last card of seat {seat}'s {key}")
        hand = st.hand or []
        if d == O.D_TOMB and not may_tomb or d == O.D_OBELISK and not may_obelisk:
            self.fail("to-move", f"{name}: {TILE_NAMES[tile]} allows no {O.DECISION_NAMES[d]} card")
        if d == O.D_OBELISK and either and r.tomb >= 0:
            self.fail("to-move", f"{name}: {TILE_NAMES[tile]} allows a tomb or an obelisk card here, and seat "
                      f"{seat} has laid a tomb card")
        if d == O.D_KEEP and self.rules.keep_limit == 0:
            self.fail("to-move", f"{name}: keep_limit = 0, nothing is kept")
        if d >= O.D_PYRAMID and not hand:
            self.fail((seat, "hand"), f"{name}: seat {seat}'s hand is empty; the decision needs a card")

    def turn_pyramid(self, r: Round, st: Seat) -> None:
        card = r.pyramid
        where = [sl for sl, c in st.pyramid.items() if c == card]
        if not where:
            self.fail("turn", f"turn pyramid {self.cards[card].id}: not in seat {r.to_move}'s pyramid")
        sl = where[0]
        level, p = LEVEL_OF[sl], POSITION_OF[sl]
        base = sum(1 for s in st.pyramid if LEVEL_OF[s] == 0)
        if level == 0 and 0 < p < base - 1:
            self.fail("turn", f"turn pyramid {self.cards[card].id}: it lies inside the base ({slot_text(sl)}), "
                      f"where no card is built (the base grows at its ends)")
        above = [slot(level + 1, q) for q in (p - 1, p) if level < 3 and 0 <= q < LEVEL_SIZE[level + 1]]
        if any(a in st.pyramid for a in above):
            self.fail("turn", f"turn pyramid {self.cards[card].id}: a card lies on it, so it was not built last")

    def counts(self, r: Round, s: int, st: Seat, played: bool) -> None:
        if st.hand is None:
            self.fail((s, "pyramid"), f"seat {s}: a round state needs every hand (write '{s}: hand ?' for one "
                      f"card not known, 'hand -' for none)")
        moving = s == r.to_move and r.decision > O.D_TILE
        built = int(played) + (moving and r.decision > O.D_PYRAMID)
        want = r.number - 1 + built
        if len(st.pyramid) != want:
            self.fail((s, "pyramid"), f"seat {s}: {len(st.pyramid)} pyramid cards, but {want} in round "
                      f"{r.number} (one a round{', this one built' if built else ''})")
        received = 1 + 2 * (r.number - 1) + 2 * (played or (moving and r.decision > O.D_PAIR))
        held = len(st.pyramid) + len(st.obelisk) + len(st.tomb) + len(st.hand)
        discards = received - held
        if discards < 0 or st.discard is not None and len(st.discard) > discards:
            self.fail((s, "hand"), f"seat {s}: {held + len(st.discard or [])} cards placed, held or discarded, "
                      f"but it has received {received} (its starting card and a pair each turn)")
        limit = self.rules.keep_limit if r.number > 1 or played else 1     # before its first turn: the starting card
        if not moving and len(st.hand) > limit:
            self.fail((s, "hand"), f"seat {s}: {len(st.hand)} cards in hand between turns (at most {limit}: "
                      f"keep_limit = {self.rules.keep_limit}, and the starting card before the first turn)")
        if s == r.to_move:
            for part in ("hand", "tomb", "discard"):
                if None in (getattr(st, part) or []):
                    self.fail((s, part), f"seat {s} decides, so its own {part} is known: write its cards, not '?'")


def _seats(seats) -> str:
    return ", ".join(str(s) for s in sorted(seats))


# ================================================================ games from positions
@dataclasses.dataclass
class Decision:
    """A reference game stopped at a decision: what a strategy is asked."""
    game: reference.Game
    seat: int
    decision: int
    legal: list

    def observation(self):
        return self.game.observation(self.seat, self.decision, self.legal)


def _as_position(position, rules) -> Position:
    return parse_position(position, rules) if isinstance(position, str) else position


def game_at(position, rules: PyramidsRules, seed: int = 0) -> reference.Game:
    """The reference game of a round state at its decision. Cards not known ('?', discards not
    written) and the draw pile are the cards placed nowhere, shuffled by `seed`."""
    p = _as_position(position, rules)
    r = p.round
    if r is None:
        raise UsageError("pyramids position: no round state (round, quarry, tiles, to-move): a strategy "
                         "is asked at a decision of a round")
    n = p.players
    g = reference.Game(rules, n, seed, 0)
    placed = {c for st in p.seats for c in _cards_of(st) if c is not None} | {c for q in r.quarry for c in q}
    pool = [c for c in range(len(g.cards)) if c not in placed]
    KeyedRng(seed, 0, deck_stream(0)).shuffle(pool)
    played = {s for t, s in r.tiles.items() if r.decision > O.D_TILE and t < _tile_of(r, r.to_move)}
    for s, st in enumerate(p.seats):
        nec = g.necropolis[s]
        nec.pyramid = dict(st.pyramid)
        nec.obelisk = list(st.obelisk)
        nec.tomb = [c if c is not None else pool.pop() for c in st.tomb]
        g.hands[s] = [c if c is not None else pool.pop() for c in st.hand]
        discard = [c if c is not None else pool.pop() for c in st.discard or []]
        moving = s == r.to_move and r.decision > O.D_PAIR
        received = 1 + 2 * (r.number - 1) + 2 * (s in played or moving)
        while len(discard) + len(nec.cards()) + len(g.hands[s]) < received:
            discard.append(pool.pop())
        g.discards[s] = discard
    starts = {st.start for st in p.seats if st.start is not None}
    g.quarry = [list(q) for q in r.quarry]
    g.deck = pool
    g.from_quarry = {c for c in range(len(g.cards)) if c not in pool and c not in starts}
    g.round, g.first = r.number - 1, r.first
    g.initial_first = (r.first - (r.number - 1)) % n
    g.set_aside = r.set_aside
    g.offered = [t for t in rules.tiles(n) if t != r.set_aside]
    g.owner = dict(r.tiles)
    g.tiles_taken = [[t for t, s2 in r.tiles.items() if s2 == s] for s in range(n)]
    if r.decision > O.D_TILE:
        tile = _tile_of(r, r.to_move)
        turn = g.turn = reference.Turn(r.to_move, tile, *rules.powers(tile, n))
        turn.pair = r.pair
        if r.decision > O.D_PYRAMID:
            turn.pyramid_card, turn.pyramid_spot = r.pyramid, _spot(p.seats[r.to_move].pyramid, r.pyramid)
        turn.tomb, turn.obelisk = r.tomb, r.obelisk
        if r.decision > O.D_TOMB:
            turn.may_tomb = False
        if r.decision > O.D_OBELISK:
            turn.may_obelisk = False
    return g


def decision_at(position, rules: PyramidsRules, seed: int = 0) -> Decision:
    """The game of a round state with its deciding seat, decision and legal list (in the engine's
    order, observation.py); `.observation()` is what the seat's strategy sees."""
    p = _as_position(position, rules)
    g = game_at(p, rules, seed)
    seat, d = p.round.to_move, p.round.decision
    hand = sorted(g.hands[seat])
    if d == O.D_TILE:
        legal = [O.tile_action(t) for t in g.offered if t not in g.owner]
    elif d == O.D_PAIR:
        legal = [O.pair_action(q) for q in range(g.players) if g.quarry[q]]
    elif d == O.D_PYRAMID:
        spots = g.necropolis[seat].pyramid_spots(rules)
        legal = [O.pyramid_action(c, s) for c in hand for s in spots]
    elif d in (O.D_TOMB, O.D_OBELISK):
        legal = [O.SKIP] + [O.encode(O.A_TOMB if d == O.D_TOMB else O.A_OBELISK, c) for c in hand]
    else:
        legal = [O.encode(O.A_KEEP, c) for c in hand] + ([O.KEEP_NONE] if rules.may_keep_none else [])
    return Decision(g, seat, d, legal)


def scoring_game(position, rules: PyramidsRules) -> reference.Game:
    """A reference game holding the position's necropolises (known cards only; at least 2 seats,
    an empty one added to a lone seat), for its scoring (`score_parts`)."""
    p = _as_position(position, rules)
    g = reference.Game(rules, max(2, p.players), 0, 0)
    for s, st in enumerate(p.seats):
        nec = g.necropolis[s]
        nec.pyramid, nec.obelisk = dict(st.pyramid), list(st.obelisk)
        nec.tomb = [c for c in st.tomb if c is not None]
    return g


def _cards_of(st: Seat) -> list:
    return list(st.pyramid.values()) + st.obelisk + st.tomb + (st.hand or []) + (st.discard or [])


def _tile_of(r: Round, seat: int) -> int:
    return next(t for t, s in r.tiles.items() if s == seat)


def _spot(pyramid: dict, card: int) -> int:
    """Where a card built last was placed: the left or right end of the base, or its slot."""
    sl = next(s for s, c in pyramid.items() if c == card)
    if LEVEL_OF[sl] > 0:
        return sl
    return SPOT_LEFT if POSITION_OF[sl] == 0 else SPOT_RIGHT


def from_game(g: reference.Game, seat: int | None = None, decision: int | None = None) -> Position:
    """The position of a reference game: every seat's cards (a starting card still hidden as
    `start`), and with `seat` and `decision`, the round state at that decision."""
    seats = []
    for s in range(g.players):
        nec = g.necropolis[s]
        hidden = g.hands[s] + nec.tomb + g.discards[s]
        start = next((c for c in hidden if c not in g.from_quarry), None)
        seats.append(Seat(dict(nec.pyramid), list(nec.obelisk), list(nec.tomb), sorted(g.hands[s]),
                          sorted(g.discards[s]), start))
    r = None
    if decision is not None:
        turn = g.turn if g.turn is not None and g.turn.seat == seat else None
        r = Round(g.round + 1, g.first, g.set_aside if g.players == 2 else 0,
                  [list(q) for q in g.quarry], dict(g.owner), seat, decision)
        if turn is not None:
            r.pair, r.pyramid, r.tomb, r.obelisk = turn.pair, turn.pyramid_card, turn.tomb, turn.obelisk
    return Position(g.cards, seats, r)


# ================================================================ words
# how an action is written: the notation's terms here, the playthrough's prose in playthrough.py
WORDS = {O.A_TILE: "tile {tile}", O.A_PAIR: "pair {arg} ({pair})", O.A_PYRAMID: "pyramid {card} at {spot}",
         O.A_TOMB: "tomb {card}", O.A_OBELISK: "obelisk {card}", O.A_KEEP: "keep {card}", O.A_SKIP: "no card",
         O.A_KEEP_NONE: "keep none"}


def action_words(g: reference.Game, action: int, words: dict = WORDS, card_name=None) -> str:
    """An action of game `g` in `words` (kind -> template of {tile}, {arg}, {pair}, {card},
    {spot}); cards by deck id unless `card_name(card number)` says otherwise."""
    kind, card, arg = O.action_kind(action), O.action_card(action), O.action_arg(action)
    name = card_name or (lambda c: str(g.cards[c].id))
    return words[kind].format(
        tile=TILE_NAMES.get(arg, ""), arg=arg, card=name(card) if card >= 0 else "",
        pair=card_ids(g.cards, g.quarry[arg]) if kind == O.A_PAIR else "",
        spot=O.spot_text(arg) if kind == O.A_PYRAMID else "")
