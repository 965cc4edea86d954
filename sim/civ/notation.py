"""A text notation for a CIV position: every seat's cards per Domain, the piles, the Art coin and
the turn in progress, so that a position can be written by hand and asked "what may the seat on
turn do, and what would each strategy choose?" (`meeplelab position civ FILE -s STRAT`).

Example (4 players, turn 46 of a game: seat 1 has played an Economy card, used Assassination
and Development, and sacrificed an Economy card to lay the Embargo on seat 3's Utopia; seat 3's
hand is not known):

    civ 4 players
    0: hand E1 U2; play R1 A1
    1: hand -; play M2 A2
    2: hand E2 A1; play K1 A1
    3: hand ?3; play R1 U1; embargo U1; democracy M1
    discard M13 R14 E8 K13 A6 U4; deck 25; coin 1
    turn 46: seat 1; first 0; played E; permanent M E; sacrifice E

A line holds statements separated by `;`; `#` starts a comment. Keywords are lower case.
Cards are counted per Domain (a card shows only its Domain, §1.2): a Domain letter and a count,
M Military, R Religion, E Economy, K Science (K for Knowledge), A Art, U Utopia, e.g. `M2 A1`
(each letter once, any order; written in that order); `-` is none.

  civ N players [teams]   the header (optional): the seat count, and `teams` for team play
  S: PART; PART ...        seat S (0, 1, ... in seat order; a seat's parts may be spread over
                           several `S:` lines, each part once):
      hand CARDS          its hand; `?N` adds N cards not known (`hand ?3`, `hand M1 ?2`), dealt
                          from the cards placed nowhere by the seed (the seat on turn needs a
                          known hand to be asked anything). Required.
      play CARDS          its play area (default: empty)
      embargo CARDS       the Economy cards lying on its Domains (Embargo: it may not play those
                          Domains until the end of its next turn)
      democracy CARDS     the Utopia cards under its Domains (Democracy: +1 card for Hegemony)
  discard CARDS           the face-up discard pile (default: empty)
  deck N                  the cards left in the deck (default: the 104 cards less every other)
  box N                   the cards removed unseen at set-up (3 per Age at 2-3 players by default):
                          only the rules' number is allowed; default that number
  coin S | coin -         who holds the Art coin (default: a strict majority of Art cards, else
                          nobody; with art_tie = keep a tied leader may be written)
  final round             the deck ran out on an earlier turn (implied by deck 0 except in the
                          middle of the turn that emptied it)
  turn T: seat S          turn T (T - 1 turns were played, clockwise from the first player) is
                          seat S's, which decides: its play decision, or with `played` its next
                          effect (the effect decision). Without a turn line there is no decision
                          (the end of a game, say).
  first F                 the first player (default 0)
  played D | played -     the card seat S played this turn (`-`: it could play none); what follows
                          is the turn in progress:
  permanent D ...         Domains whose permanent effect was used (or copied) this turn
  sacrifice D ...         Domains whose sacrifice was used this turn
  copies N                Inspiration copies made this turn (the Art coin)
  copied-hand N           the hand size a copied Holy Book or Divine Right gives this turn

`parse_position(text, rules)` reads and checks a position (`read_position` then
`check_position`: the second needs the rules) and names the line of what is wrong and what is
allowed: the 104 cards all somewhere (deck and box included), no more cards of a Domain than
the table (cards.py), and, since the deck is stacked Age I on top of II on top of III, only
cards of the Ages the deck count has reached out of it (no Utopia before Age III); the coin
only with a strict majority (art_tie, art_min_cards); the seat on turn is the one whose turn T
is; Embargo cards only from the turns since the seat's last one, Democracy cards from other
seats' turns (each turn places at most one); a seat that has not had a turn holds its starting
hand; no seat with a Hegemony it would have won with; a turn in progress the rules allow.
`format_position` writes the canonical text (format(parse(x)) == x for text it wrote).
`decision_at` builds the reference `Game` at the position's decision with its legal list, so a
strategy can be asked (`.observation()`); `from_game` is the position of a reference game at a
play or effect decision (what playthroughs print before every turn) or after it ended.
"""
from __future__ import annotations

import dataclasses
import itertools
import re

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_flow

from ..core.errors import UsageError
from ..core.reference import MAX_TURNS
from ..core.rng import KeyedRng, deck_stream
from . import observation as O
from .cards import (AGE_NAMES, AGE_SIZES, AGE_START, ART, COUNTS, DOMAIN_LETTERS, DOMAIN_OF,
                    DOMAIN_TITLES, DOMAIN_TOTALS, ECONOMY, N_AGES, N_CARDS, N_DOMAINS, RELIGION,
                    UTOPIA)
from .reference import Game
from .reference import Turn as EngineTurn
from .rules import MAX_PLAYERS, MIN_PLAYERS, CivRules

PARTS = ("hand", "play", "embargo", "democracy")
KEYS = ("civ", "discard", "deck", "box", "coin", "final", "turn", "first", "played", "permanent",
        "sacrifice", "copies", "copied-hand")
IN_PROGRESS = ("permanent", "sacrifice", "copies", "copied-hand")   # need `played`
LETTERS = {letter: d for d, letter in enumerate(DOMAIN_LETTERS)}
LETTER_HELP = "M Military, R Religion, E Economy, K Science, A Art, U Utopia"
SEAT_LINE = re.compile(r"\s*(\d+)\s*:(.*)$")
TURN_HEAD = re.compile(r"turn\s+(\S+?)\s*(?::\s*seat\s+(\S+))?\s*$")
DRAFT_START = 3                 # the draft always keeps 3 cards in hand (§3.1)


def no_cards() -> list[int]:
    return [0] * N_DOMAINS


@dataclasses.dataclass
class Seat:
    hand: list = dataclasses.field(default_factory=no_cards)       # known cards per Domain
    unknown: int = 0                                                # cards in hand not known
    play: list = dataclasses.field(default_factory=no_cards)
    embargo: list = dataclasses.field(default_factory=no_cards)    # Economy cards on Domain d
    democracy: list = dataclasses.field(default_factory=no_cards)  # Utopia cards under Domain d

    def hand_size(self) -> int:
        return sum(self.hand) + self.unknown


@dataclasses.dataclass
class Turn:
    number: int                 # from 1: number - 1 turns were played before it
    seat: int
    first: int = 0
    started: bool = False       # the play step is done: the seat is at its effect decision
    played: int = -1            # Domain of the card played this turn, -1 none
    permanent: tuple = ()       # Domains whose permanent slot is used (own effect or copy)
    sacrifice: tuple = ()
    copies: int = 0
    copied_hand: int = 0


@dataclasses.dataclass
class Position:
    seats: list
    discard: list = dataclasses.field(default_factory=no_cards)
    deck: int | None = None     # None until checked: the rest of the 104
    box: int | None = None      # None until checked: the rules' number
    coin: int | None = None     # -1 nobody; None until checked: the Art majority
    final: bool = False
    turn: Turn | None = None
    teams: bool = False
    lines: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)

    @property
    def players(self) -> int:
        return len(self.seats)


class _Bad(Exception):
    """A parse error; the reader adds the line."""


# ================================================================ writing
def counts_text(counts, unknown: int = 0) -> str:
    """Counts per Domain as letters, e.g. 'M2 A1' ('?N' for N cards not known), or '-'."""
    words = [f"{DOMAIN_LETTERS[d]}{n}" for d, n in enumerate(counts) if n]
    if unknown:
        words.append(f"?{unknown}")
    return " ".join(words) or "-"


def letters_text(domains) -> str:
    return " ".join(DOMAIN_LETTERS[d] for d in sorted(domains)) or "-"


def seat_line(s: int, seat: Seat) -> str:
    parts = [f"hand {counts_text(seat.hand, seat.unknown)}", f"play {counts_text(seat.play)}"]
    if any(seat.embargo):
        parts.append(f"embargo {counts_text(seat.embargo)}")
    if any(seat.democracy):
        parts.append(f"democracy {counts_text(seat.democracy)}")
    return f"{s}: " + "; ".join(parts)


def turn_line(t: Turn) -> str:
    words = [f"turn {t.number}: seat {t.seat}", f"first {t.first}"]
    if t.started:
        words.append(f"played {DOMAIN_LETTERS[t.played] if t.played >= 0 else '-'}")
        if t.permanent:
            words.append(f"permanent {letters_text(t.permanent)}")
        if t.sacrifice:
            words.append(f"sacrifice {letters_text(t.sacrifice)}")
        if t.copies:
            words.append(f"copies {t.copies}")
        if t.copied_hand:
            words.append(f"copied-hand {t.copied_hand}")
    return "; ".join(words)


def format_position(p: Position, header: bool = True) -> str:
    """The canonical text of a checked position (`header`: the `civ N players` line)."""
    lines = [f"civ {p.players} players" + (" teams" if p.teams else "")] if header else []
    lines += [seat_line(s, seat) for s, seat in enumerate(p.seats)]
    piles = [f"discard {counts_text(p.discard)}", f"deck {p.deck}"]
    if p.box:
        piles.append(f"box {p.box}")
    piles.append(f"coin {p.coin if p.coin >= 0 else '-'}")
    if p.final:
        piles.append("final round")
    lines.append("; ".join(piles))
    if p.turn is not None:
        lines.append(turn_line(p.turn))
    return "\n".join(lines) + "\n"


# ================================================================ reading (no rules needed)
class _Reader:
    def __init__(self):
        self.seats: dict[int, Seat] = {}
        self.values: dict = {}          # statement -> its value
        self.lines: dict = {}           # statement, or (seat, part) -> its line
        self.line = 0

    def read(self, text: str) -> None:
        for self.line, raw in enumerate(text.splitlines(), 1):
            body = raw.split("#", 1)[0].strip()
            if not body:
                continue
            seat = None
            m = SEAT_LINE.match(body)
            if m:
                seat = self.seat_number(m.group(1), "a seat line 'S: ...'")
                body = m.group(2)
            for statement in body.split(";"):
                if statement.strip():
                    self.statement(seat, statement.strip())

    # ---------------------------------------------------------------- tokens
    def seat_number(self, token: str, what: str) -> int:
        if not token.isdigit() or int(token) >= MAX_PLAYERS:
            raise _Bad(f"{what}: {token!r} is not a seat (allowed: 0 to {MAX_PLAYERS - 1})")
        return int(token)

    def number(self, token: str, what: str, low: int = 0, high: int = N_CARDS) -> int:
        if not token.isdigit() or not low <= int(token) <= high:
            raise _Bad(f"{what}: {token!r} is not a number from {low} to {high}")
        return int(token)

    def counts(self, tokens, what: str, unknown_ok: bool = False) -> tuple[list[int], int]:
        """Domain counts such as ['M2', 'A1'] ('-' none; '?N' cards not known where allowed)."""
        counts, unknown = no_cards(), 0
        if tokens == ["-"]:
            return counts, 0
        if not tokens:
            raise _Bad(f"{what}: no cards given (write '-' for none)")
        for token in tokens:
            if token.startswith("?"):
                if not unknown_ok:
                    raise _Bad(f"{what}: {token!r}: cards not known ('?N') are allowed only in a hand")
                if unknown:
                    raise _Bad(f"{what}: '?' given twice (write the cards not known once, as ?N)")
                unknown = self.number(token[1:], f"{what}: {token!r}: '?' and a count of cards not known "
                                                 f"(e.g. ?3)", 1)
                continue
            m = re.fullmatch(r"([A-Za-z])(\d+)", token)
            if not m or m.group(1).upper() not in LETTERS:
                raise _Bad(f"{what}: {token!r} is not a Domain letter and a count (letters: {LETTER_HELP}; "
                           f"e.g. K2){'; ?N for N cards not known' if unknown_ok else ''}")
            d, n = LETTERS[m.group(1).upper()], int(m.group(2))
            if counts[d]:
                raise _Bad(f"{what}: {DOMAIN_TITLES[d]} ({DOMAIN_LETTERS[d]}) given twice")
            if not 1 <= n <= DOMAIN_TOTALS[d]:
                raise _Bad(f"{what}: {token}: {n} {DOMAIN_TITLES[d]} cards (allowed: 1 to "
                           f"{DOMAIN_TOTALS[d]}, the game's {DOMAIN_TITLES[d]} cards; leave a Domain out for none)")
            counts[d] = n
        return counts, unknown

    def letters(self, tokens, what: str, allowed: str) -> tuple:
        if tokens == ["-"]:
            return ()
        out = []
        for token in tokens:
            if token.upper() not in LETTERS or token.upper() not in allowed:
                raise _Bad(f"{what}: {token!r} is not allowed (Domain letters {' '.join(allowed)}: "
                           f"{LETTER_HELP}; Art has no permanent effect and no sacrifice)")
            d = LETTERS[token.upper()]
            if d in out:
                raise _Bad(f"{what}: {DOMAIN_TITLES[d]} given twice")
            out.append(d)
        return tuple(sorted(out))

    # ---------------------------------------------------------------- statements
    def statement(self, seat, statement: str) -> None:
        words = statement.split()
        head, rest = words[0], words[1:]
        if seat is not None:
            if head not in PARTS:
                raise _Bad(f"seat {seat}: unknown part {head!r} (allowed: {', '.join(PARTS)})")
            key = (seat, head)
        elif head in KEYS:
            key = head
        else:
            raise _Bad(f"unknown statement {head!r} (allowed: a seat line 'S: hand ...; play ...', "
                       f"or {', '.join(KEYS)})")
        if key in self.lines:
            name = f"seat {seat}: {head}" if seat is not None else repr(head)
            raise _Bad(f"{name} given twice (first on line {self.lines[key]})")
        self.lines[key] = self.line
        if seat is not None:
            self.seat_part(seat, head, rest)
        else:
            self.values[head] = self.value(head, rest, statement)

    def seat_part(self, s: int, part: str, rest) -> None:
        seat = self.seats.setdefault(s, Seat())
        counts, unknown = self.counts(rest, f"seat {s}'s {part}", unknown_ok=part == "hand")
        setattr(seat, part, counts)
        seat.unknown += unknown

    def value(self, head: str, rest, statement: str):
        if head == "civ":
            if rest and not (len(rest) in (2, 3) and rest[1] in ("players", "player")
                             and rest[2:] in ([], ["teams"])):
                raise _Bad("the header is 'civ', 'civ N players' or 'civ 4 players teams'")
            return (self.number(rest[0], "civ N players", MIN_PLAYERS, MAX_PLAYERS) if rest else None,
                    rest[2:] == ["teams"])
        if head == "discard":
            return self.counts(rest, "discard")[0]
        if head in ("deck", "box"):
            if len(rest) != 1:
                raise _Bad(f"{head}: expected one number (e.g. '{head} 40')")
            return self.number(rest[0], head)
        if head == "coin":
            if rest == ["-"]:
                return -1
            if len(rest) != 1:
                raise _Bad("coin: expected the seat holding the Art coin, or '-' for nobody")
            return self.seat_number(rest[0], "coin")
        if head == "final":
            if rest != ["round"]:
                raise _Bad("expected 'final round'")
            return True
        if head == "turn":
            m = TURN_HEAD.fullmatch(statement)
            if not m or m.group(2) is None:
                raise _Bad("expected 'turn T: seat S' (T from 1, the seat on turn)")
            return (self.number(m.group(1), "turn T", 1, MAX_TURNS),
                    self.seat_number(m.group(2), f"turn {m.group(1)}: seat"))
        if head == "first":
            if len(rest) != 1:
                raise _Bad("first: expected the first player's seat")
            return self.seat_number(rest[0], "first")
        if head == "played":
            if rest == ["-"]:
                return -1
            if len(rest) != 1 or rest[0].upper() not in LETTERS:
                raise _Bad(f"played: expected the Domain letter of the card played this turn ({LETTER_HELP}), "
                           f"or '-' when the seat could play none")
            return LETTERS[rest[0].upper()]
        if head in ("permanent", "sacrifice"):
            return self.letters(rest, head, "MREKU")
        if len(rest) != 1:
            raise _Bad(f"{head}: expected one number")
        return self.number(rest[0], head, 0, 15)          # copies, copied-hand

    # ---------------------------------------------------------------- the whole
    def position(self) -> Position:
        v = self.values
        if not self.seats:
            raise _Bad("no seat: write one line per seat, such as '0: hand M1 A2; play R1'")
        players = max(self.seats) + 1
        for s in range(players):
            if s not in self.seats:
                raise _Bad(f"seat {s} is missing (seats are 0 to {players - 1})")
            if (s, "hand") not in self.lines:
                raise _Bad(f"seat {s} has no hand: write 'hand -' for none, or 'hand ?3' for 3 cards not known")
        if players < MIN_PLAYERS:
            raise _Bad(f"{players} seat: CIV is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
        header_players, teams = v.get("civ", (None, False))
        if header_players is not None and header_players != players:
            self.line = self.lines["civ"]
            raise _Bad(f"the header says {header_players} players, but there are {players} seat lines (0 to "
                       f"{players - 1})")
        for key in ("first", "played"):
            if key in v and "turn" not in v:
                self.line = self.lines[key]
                raise _Bad(f"'{key}' belongs to a turn: add 'turn T: seat S'")
        for key in IN_PROGRESS:
            if key in v and "played" not in v:
                self.line = self.lines[key]
                raise _Bad(f"'{key}' tells the turn in progress, after the play: add 'played D' (or "
                           f"'played -' when the seat could play nothing)")
        turn = None
        if "turn" in v:
            number, seat = v["turn"]
            turn = Turn(number, seat, v.get("first", 0), "played" in v, v.get("played", -1),
                        v.get("permanent", ()), v.get("sacrifice", ()), v.get("copies", 0), v.get("copied-hand", 0))
        return Position([self.seats[s] for s in range(players)], v.get("discard", no_cards()), v.get("deck"),
                        v.get("box"), v.get("coin"), v.get("final", False), turn, teams, dict(self.lines))


def read_position(text: str) -> Position:
    """The position as written (its syntax checked), before the rules' checks."""
    reader = _Reader()
    try:
        reader.read(text)
        return reader.position()
    except _Bad as e:
        where = f", line {reader.line}" if reader.line else ""
        raise UsageError(f"civ position{where}: {e}") from None


# ================================================================ checking (with the rules)
def _fail(p: Position, key, message: str):
    """The error of a checked statement, naming its line when the position was read from text."""
    line = p.lines.get(key)
    return UsageError(f"civ position{f', line {line}' if line else ''}: {message}")


def counting(p: Position, rules: CivRules, s: int, d: int) -> int:
    """Cards of Domain d that count for seat s (reference.Game.count)."""
    seat = p.seats[s]
    return (seat.play[d] + (seat.embargo[d] if rules.embargo_card_counts else 0)
            + (seat.democracy[d] if rules.democracy_card_counts else 0))


def coin_holder(art: list[int], previous: int, rules: CivRules) -> int:
    """§5.6 as reference.Game.update_coin: a strict majority of at least art_min_cards holds the
    coin; on a tie nobody, or (art_tie = keep) the previous holder if it is a tied leader."""
    best = max(art)
    leaders = [s for s, n in enumerate(art) if n == best]
    if best < rules.art_min_cards:
        return -1
    if len(leaders) == 1:
        return leaders[0]
    return previous if rules.art_tie == "keep" and previous in leaders else -1


def known_cards(p: Position) -> list[int]:
    """The known cards out of the deck and the box, per Domain (embargoes are Economy cards,
    democracies Utopia cards)."""
    total = list(p.discard)
    for seat in p.seats:
        for d in range(N_DOMAINS):
            total[d] += seat.hand[d] + seat.play[d]
        total[ECONOMY] += sum(seat.embargo)
        total[UTOPIA] += sum(seat.democracy)
    return total


def drawn_by_age(rules: CivRules, players: int, drawn: int) -> list[int]:
    """How many cards of each Age have left the deck when `drawn` have (Age I on top, §3)."""
    out = []
    for a in range(N_AGES):
        k = min(drawn, AGE_SIZES[a] - rules.removed(players))
        out.append(k)
        drawn -= k
    return out


def age_names(ages) -> str:
    names = [f"Age {AGE_NAMES[a]}" for a in ages]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def check_position(p: Position, rules: CivRules) -> None:
    """The rules' checks of a read position (module docstring); fills in deck, box, coin and final."""
    if p.teams and not rules.teams:
        raise _fail(p, "civ", "the header says teams, but the rules are not team play (--preset civ-teams, or "
                              "--set teams=true)")
    p.teams = rules.teams
    if rules.teams and p.players != 4:
        raise _fail(p, "civ", f"team play (teams = true) needs 4 seats; the position has {p.players}")
    _check_cards(p, rules)
    _check_coin(p, rules)
    if p.final and p.deck > 0:
        raise _fail(p, "final", f"final round: the final round begins when the deck runs out, and deck is {p.deck}")
    if p.deck == 0 and not (p.turn is not None and p.turn.started):
        p.final = True                     # the deck ran out on an earlier turn
    if p.turn is not None:
        _check_turn(p, rules)


def _check_cards(p: Position, rules: CivRules) -> None:
    P = p.players
    box = N_AGES * rules.removed(P)
    if p.box is None:
        p.box = box
    elif p.box != box:
        raise _fail(p, "box", f"box {p.box}: at {P} players the rules put {rules.removed(P)} cards of each Age in "
                              f"the box (removed_per_age = {rules.removed_per_age}, removal_players = "
                              f"{', '.join(map(str, rules.removal_players)) or 'none'}): box {box}")
    known = known_cards(p)
    unknown = sum(seat.unknown for seat in p.seats)
    placed = sum(known) + unknown
    rest = N_CARDS - box - placed
    deck = rest if p.deck is None else p.deck
    if deck < 0 or placed + deck + box != N_CARDS:
        deck = max(deck, 0)               # not written, and the rest is already over 104
        parts = [("hands", sum(s.hand_size() for s in p.seats)), ("play areas", sum(sum(s.play) for s in p.seats)),
                 ("Embargo", sum(sum(s.embargo) for s in p.seats)),
                 ("Democracy", sum(sum(s.democracy) for s in p.seats)), ("discard", sum(p.discard)),
                 ("deck", deck), ("box", box)]
        hint = f" (with these hands and piles the deck holds {rest})" if rest >= 0 else ""
        raise _fail(p, "deck" if p.deck is not None else None,
                    f"the position holds {placed + deck + box} cards ({', '.join(f'{k} {n}' for k, n in parts)}); "
                    f"the game has {N_CARDS}{hint}")
    p.deck = deck
    drawn = N_CARDS - box - deck
    start = rules.hand_size if rules.setup == "classic" else 4
    if drawn < P * start:
        written = f"deck {deck}: " if "deck" in p.lines else f"(deck {deck} once these cards are placed) "
        raise _fail(p, "deck", f"{written}{drawn} cards have left the deck, but the {rules.setup} deal alone takes "
                               f"{P * start} ({start} for each of {P} seats)")
    n = drawn_by_age(rules, P, drawn)
    conflict = age_conflict(known, n)
    if conflict is not None:
        ages, over = conflict
        shown = ", ".join(f"{known[d]} {DOMAIN_TITLES[d]}" for d in over)
        if len(ages) == N_AGES:
            held = ", ".join(f"{DOMAIN_TOTALS[d]} {DOMAIN_TITLES[d]}" for d in over)
            raise _fail(p, None, f"the position shows {shown} cards, but the game has {held} (cards.py)")
        held = ", ".join(f"{sum(COUNTS[a][d] for a in ages)} {DOMAIN_TITLES[d]}" for d in over)
        others = [a for a in range(N_AGES) if a not in ages]
        out = "; ".join(f"Age {AGE_NAMES[a]} {n[a]}" for a in range(N_AGES))
        raise _fail(p, "deck", f"the position shows {shown} cards out of the deck, but {age_names(ages)} "
                               f"{'holds' if len(ages) == 1 else 'hold'} "
                               f"{held}, and only {sum(n[a] for a in others)} cards of {age_names(others)} have "
                               f"left the deck (it is stacked Age I on top, then II, then III: deck {deck} and box "
                               f"{box} leave {drawn} cards drawn, by Age: {out})")


def age_conflict(known: list[int], n: list[int]):
    """Whether the known cards out of the deck can be of the Ages drawn (n[a] cards of Age a, the
    cards not known filling the rest): None, or a set of Ages and the Domains with more known cards
    than those Ages hold, beyond what the other Ages drawn can take. This is the cut condition of
    the transportation problem (Domains to Ages, at most COUNTS[a][d] cards of Age a and Domain d):
    for every set T of Ages, the cards no Age of T can hold fit in the other Ages' n."""
    for size in range(N_AGES, 0, -1):                 # all Ages first: the Domain totals
        for ages in itertools.combinations(range(N_AGES), size):
            caps = [sum(COUNTS[a][d] for a in ages) for d in range(N_DOMAINS)]
            over = [d for d in range(N_DOMAINS) if known[d] > caps[d]]
            room = sum(n[a] for a in range(N_AGES) if a not in ages)
            if sum(known[d] - caps[d] for d in over) > room:
                return ages, over
    return None


def _check_coin(p: Position, rules: CivRules) -> None:
    art = [counting(p, rules, s, ART) for s in range(p.players)]
    best = max(art)
    leaders = [s for s in range(p.players) if art[s] == best]
    if p.coin is None:
        p.coin = coin_holder(art, -1, rules)
        return
    if p.coin >= p.players:
        raise _fail(p, "coin", f"coin {p.coin}: no such seat (seats 0 to {p.players - 1})")
    if coin_holder(art, p.coin, rules) == p.coin:
        return
    counts = ", ".join(f"seat {s} {n}" for s, n in enumerate(art))
    if best < rules.art_min_cards:
        why = f"nobody has the {rules.art_min_cards} Art card(s) needed to hold it (art_min_cards)"
    elif len(leaders) == 1:
        why = f"seat {leaders[0]} has the most Art cards, so it holds it (a strict majority)"
    elif rules.art_tie == "keep":
        why = (f"seats {', '.join(map(str, leaders))} are tied for the most, and on a tie (art_tie = keep) only "
               f"one of them may keep it: coin {' or coin '.join(map(str, leaders))} or coin -")
    else:
        why = (f"seats {', '.join(map(str, leaders))} are tied for the most, and on a tie nobody holds it "
               f"(art_tie = nobody): coin -")
    holder = f"coin {p.coin}" if p.coin >= 0 else "coin -"
    raise _fail(p, "coin", f"{holder}: the Art cards that count are {counts}; {why}")


def turns_of(p: Position, s: int) -> list[int]:
    """The turns (0-based) seat s has played before the position's turn."""
    t = p.turn
    return list(range((s - t.first) % p.players, t.number - 1, p.players))


def _check_turn(p: Position, rules: CivRules) -> None:
    t, P = p.turn, p.players
    for key, s in (("turn", t.seat), ("first", t.first)):
        if s >= P:
            raise _fail(p, key, f"{key}: seat {s} does not exist (seats 0 to {P - 1})")
    on_turn = (t.first + t.number - 1) % P
    if t.seat != on_turn:
        raise _fail(p, "turn", f"turn {t.number}: seat {t.seat}: the seats take turns clockwise from the first player "
                               f"(seat {t.first}), so turn {t.number} is seat {on_turn}'s")
    if t.started:
        _check_in_progress(p, rules)
    _check_first_turns(p, rules)
    _check_placed(p, "embargo", "Embargo", ECONOMY, _embargo_turns)
    _check_placed(p, "democracy", "Democracy", UTOPIA, _democracy_turns)
    _check_hegemony(p, rules)


def _check_in_progress(p: Position, rules: CivRules) -> None:
    t, seat = p.turn, p.seats[p.turn.seat]
    if t.played >= 0 and seat.embargo[t.played]:
        raise _fail(p, "played", f"played {DOMAIN_LETTERS[t.played]}: an Embargo lies on seat {t.seat}'s "
                                 f"{DOMAIN_TITLES[t.played]}, so it could not play that Domain this turn")
    if t.copies > rules.copies_per_turn:
        raise _fail(p, "copies", f"copies {t.copies}: the rules allow {rules.copies_per_turn} a turn (copies_per_turn)")
    if rules.copy_uses_slot and t.copies > len(t.permanent):
        raise _fail(p, "copies", f"copies {t.copies}: a copy uses the permanent slot of its Domain "
                                 f"(copy_uses_slot), and only {len(t.permanent)} permanent slot(s) are written used")
    if t.copied_hand:
        sizes = (rules.hand_level1, rules.hand_level2)
        if t.copied_hand not in sizes:
            raise _fail(p, "copied-hand", f"copied-hand {t.copied_hand}: a copied Holy Book gives {sizes[0]}, a "
                                          f"copied Divine Right {sizes[1]} (hand_level1, hand_level2)")
        if not t.copies:
            raise _fail(p, "copied-hand", "copied-hand: a copied hand size needs a copy: write 'copies N'")
        if rules.copy_uses_slot and RELIGION not in t.permanent:
            raise _fail(p, "copied-hand", "copied-hand: copying Religion uses its permanent slot (copy_uses_slot): "
                                          "write 'permanent R'")
    if RELIGION in t.permanent and not (t.copied_hand and rules.copy_uses_slot):
        raise _fail(p, "permanent", "permanent R: Religion's permanent effects are passive (the hand size); its "
                                    "slot is used only by copying one (copied-hand N, with copy_uses_slot)")
    for d, table, name in ((ECONOMY, "embargo", "Embargo"), (UTOPIA, "democracy", "Democracy")):
        if d in t.sacrifice and not any(sum(getattr(other, table)) for q, other in enumerate(p.seats) if q != t.seat):
            raise _fail(p, "sacrifice", f"sacrifice {DOMAIN_LETTERS[d]}: seat {t.seat}'s {name} card of this turn "
                                        f"lies on another seat, and no other seat has one ({table} ...)")


def _check_first_turns(p: Position, rules: CivRules) -> None:
    """A seat that has not had a turn holds its starting hand (Inquisition gives back as many as it
    takes), and no more in play than the set-up put there (others only take cards away)."""
    t = p.turn
    start, start_play = (rules.hand_size, 0) if rules.setup == "classic" else (DRAFT_START, 1)
    for s, seat in enumerate(p.seats):
        if turns_of(p, s) or (s == t.seat and t.started):
            continue
        why = f"seat {s} has not had a turn yet (turn {t.number}, first player seat {t.first})"
        if seat.hand_size() != start:
            raise _fail(p, (s, "hand"), f"{why}, so it holds its {start} starting cards ({rules.setup} set-up"
                                        f"{', hand_size' if rules.setup == 'classic' else ''}); its hand has "
                                        f"{seat.hand_size()}")
        if sum(seat.play) > start_play:
            what = "nothing" if start_play == 0 else "at most the card it took in the draft"
            raise _fail(p, (s, "play"), f"{why}, so its play area holds {what}; it shows {sum(seat.play)} cards")


def _embargo_turns(p: Position, s: int) -> set:
    """The turns that may have placed the Embargo cards on seat s: they lie there until the end of
    its next turn, so those since its last turn, by other seats (the current one if it sacrificed
    Economy)."""
    t = p.turn
    mine = turns_of(p, s)
    since = set(range(mine[-1] + 1 if mine else 0, t.number - 1))
    if t.started and ECONOMY in t.sacrifice and t.seat != s:
        since.add(t.number - 1)
    return since


def _democracy_turns(p: Position, s: int) -> set:
    """The turns that may have placed the Democracy cards under seat s: any other seat's, for good."""
    t = p.turn
    others = set(range(t.number - 1)) - set(turns_of(p, s))
    if t.started and UTOPIA in t.sacrifice and t.seat != s:
        others.add(t.number - 1)
    return others


def _check_placed(p: Position, part: str, name: str, d: int, turns_for) -> None:
    """Each turn places at most one Embargo and one Democracy card (one sacrifice per Domain, on
    another seat): Hall's condition over the seats, each with the turns that may have placed its."""
    cards = [sum(getattr(seat, part)) for seat in p.seats]
    windows = [turns_for(p, s) for s in range(p.players)]
    for size in range(1, p.players + 1):
        for group in itertools.combinations([s for s in range(p.players) if cards[s]], size):
            need = sum(cards[s] for s in group)
            turns = set().union(*(windows[s] for s in group))
            if need > len(turns):
                whose = f"seat {group[0]}" if size == 1 else "seats " + ", ".join(map(str, group))
                when = ("since its last turn (they leave at the end of its next)" if part == "embargo"
                        else "by the other seats")
                raise _fail(p, (group[0], part), f"{whose}: {need} {name} card(s), but each turn places at most one, "
                                                 f"on another seat, and only {len(turns)} turn(s) were played {when} "
                                                 f"(turn {p.turn.number}, first player seat {p.turn.first})")


def _check_hegemony(p: Position, rules: CivRules) -> None:
    """No seat holds a Hegemony it would have won with at the end of its last turn: since then
    others only took its cards away or raised its need (Embargo cards on it were gone by then)."""
    t = p.turn
    if p.final and not rules.hegemony_in_final_round:
        return
    base = rules.hegemony(p.players)
    for s, seat in enumerate(p.seats):
        if not turns_of(p, s) or (s == t.seat and t.started):
            continue
        for d in range(N_DOMAINS):
            have = seat.play[d] + (seat.democracy[d] if rules.democracy_card_counts else 0)
            need = base + seat.democracy[d]
            if have >= need:
                raise _fail(p, (s, "play"), f"seat {s} has {have} {DOMAIN_TITLES[d]} cards, and Hegemony takes {need} "
                                            f"({base} at {p.players} players, +1 a Democracy card under the Domain): "
                                            f"it would have won at the end of its last turn")


def parse_position(text: str, rules: CivRules) -> Position:
    """Read and check a position (errors name the line and what is allowed)."""
    p = read_position(text)
    check_position(p, rules)
    return p


# ================================================================ the game at a position
@dataclasses.dataclass
class Decision:
    game: Game
    seat: int
    decision: int                 # observation.D_PLAY or D_EFFECT
    legal: list

    def observation(self):
        return self.game.observation(self.seat, self.decision, self.legal)


def _as_position(position, rules: CivRules) -> Position:
    return parse_position(position, rules) if isinstance(position, str) else position


def card_ids(a: int, d: int) -> list[int]:
    """The ids of Age a's cards of Domain d (cards.py numbers them by Age, then Domain)."""
    first = AGE_START[a] + sum(COUNTS[a][:d])
    return list(range(first, first + COUNTS[a][d]))


def age_assignment(known: list[int], unknown: int, n: list[int]):
    """Ages for the cards out of the deck: x[a][d] known cards of Age a and Domain d, w[a] cards not
    known of Age a, with sum x[a] + w[a] = n[a] (a max flow: Domains and 'not known' to Ages)."""
    S, W, T = 0, 1 + N_DOMAINS, 2 + N_DOMAINS + N_AGES
    age = [2 + N_DOMAINS + a for a in range(N_AGES)]
    cap = np.zeros((T + 1, T + 1), np.int32)
    cap[S, W] = unknown
    for d in range(N_DOMAINS):
        cap[S, 1 + d] = known[d]
        for a in range(N_AGES):
            cap[1 + d, age[a]] = COUNTS[a][d]
    for a in range(N_AGES):
        cap[W, age[a]] = n[a]
        cap[age[a], T] = n[a]
    flow = maximum_flow(csr_matrix(cap), S, T).flow.toarray()
    assert sum(flow[age[a], T] for a in range(N_AGES)) == sum(n), "checked by age_conflict"
    x = [[int(flow[1 + d, age[a]]) for d in range(N_DOMAINS)] for a in range(N_AGES)]
    return x, [int(flow[W, age[a]]) for a in range(N_AGES)]


def game_at(position, rules: CivRules, seed: int = 0) -> Game:
    """The reference game of a position: its counts, and card ids for the deck (Age I on top),
    the box and the hands' cards not known, drawn by the seed among the cards placed nowhere so
    that every card out of the deck is of an Age drawn. At its decision when it has a turn line."""
    p = _as_position(position, rules)
    P = p.players
    g = Game(rules, P, seed, 0)
    known = known_cards(p)
    n = drawn_by_age(rules, P, N_CARDS - p.box - p.deck)
    x, w = age_assignment(known, sum(seat.unknown for seat in p.seats), n)
    rng = KeyedRng(seed, 0, deck_stream(0))
    hidden = []
    for a in range(N_AGES):
        rest = [c for d in range(N_DOMAINS) for c in card_ids(a, d)[x[a][d]:]]
        rng.shuffle(rest)
        removed = rules.removed(P)
        hidden += rest[:w[a]]
        g.box += rest[w[a]:w[a] + removed]
        g.deck += rest[w[a] + removed:]
    rng.shuffle(hidden)
    for s, seat in enumerate(p.seats):
        g.hand[s], g.play[s] = list(seat.hand), list(seat.play)
        g.embargo[s], g.democracy[s] = list(seat.embargo), list(seat.democracy)
        for c in hidden[:seat.unknown]:
            g.hand[s][DOMAIN_OF[c]] += 1
        hidden = hidden[seat.unknown:]
    g.discard = list(p.discard)
    g.coin, g.final = p.coin, p.final
    t = p.turn
    if t is not None:
        g.first, g.current, g.turns = t.first, t.seat, t.number - 1
        g.t = EngineTurn(t.seat)
        if t.started:
            g.t.played = t.played
        g.t.perm = sum(1 << d for d in t.permanent)
        g.t.sac = sum(1 << d for d in t.sacrifice)
        g.t.copies, g.t.copy_hand = t.copies, t.copied_hand
    assert g.domain_census() == list(DOMAIN_TOTALS) and g.deck_left() == p.deck
    return g


def decision_at(position, rules: CivRules, seed: int = 0) -> Decision:
    """The game of a position at its decision, with the deciding seat, the decision (the play, or
    the next effect) and the legal list in the engine's order; `.observation()` is what the seat's
    strategy sees."""
    p = _as_position(position, rules)
    t = p.turn
    if t is None:
        raise UsageError("civ position: no decision: add the turn line 'turn T: seat S' (and 'played D' for "
                         "the effect decision)")
    if p.seats[t.seat].unknown:
        raise UsageError(f"civ position: seat {t.seat} is on turn, so its hand must be known (no '?')")
    g = game_at(p, rules, seed)
    playable = g.playable(t.seat)
    if not t.started and any(playable):
        return Decision(g, t.seat, O.D_PLAY, [O.encode(O.A_CARD, d) for d in range(N_DOMAINS) if playable[d]])
    return Decision(g, t.seat, O.D_EFFECT, [O.STOP] + g.effects(t.seat))


def from_game(g: Game, seat: int | None = None, decision: int | None = None) -> Position:
    """The position of a reference game: at the play or effect decision of `seat` (no effect in
    progress), or with no decision (the end of the game)."""
    if any(map(any, g.packets)) or any(g.centre):
        raise ValueError("a position cannot show the draft in progress")
    seats = [Seat(list(g.hand[s]), 0, list(g.play[s]), list(g.embargo[s]), list(g.democracy[s]))
             for s in range(g.players)]
    turn = None
    if decision is not None:
        t = g.t
        if decision not in (O.D_PLAY, O.D_EFFECT) or t is None or t.seat != seat or t.effect != -1:
            raise ValueError("a position is at the play or the effect decision of the seat on turn")
        started = decision == O.D_EFFECT
        turn = Turn(g.turns + 1, seat, g.first, started, t.played if started else -1,
                    tuple(d for d in range(N_DOMAINS) if t.perm >> d & 1),
                    tuple(d for d in range(N_DOMAINS) if t.sac >> d & 1), t.copies, t.copy_hand)
    art = [g.count(s, ART) for s in range(g.players)]
    return Position(seats, list(g.discard), g.deck_left(), len(g.box), coin_holder(art, g.coin, g.rules),
                    g.final, turn, g.rules.teams)
