"""Pyramids reference engine: the executable rulebook, in plain Python, written to be read.

Section numbers (§) are those of shared/rules/pyramids.md. One `Game` is one game; `play_game`
plays it asking `decide(seat, obs, where) -> index` (a `sim.core.reference.Decider`) for every
decision, in the chain documented in observation.py.

Seats and direction: seat s + 1 is the left neighbour of seat s, so "clockwise" is ascending
seat order (mod players). Randomness comes only from keyed streams of (seed, game): the deck
shuffle from `deck_stream(0)`, a random first player from `deck_stream(1)`, the 2-player
set-aside tile from `deck_stream(2)`; each seat's strategy from its own stream (the Decider).

The pyramid grid (§5.1): a card at level l, position p covers the cells x in {2p + l, 2p + l + 1},
y in {2l, 2l + 1} of one stepped grid, so it sits on the right column of (l - 1, p) and the left
column of (l - 1, p + 1). Stones are adjacent when their cells share an edge, across cards too.
Card-local cell c (deck.CELLS: 0 bl, 1 br, 2 tl, 3 tr) is at (c % 2, c // 2) on its card.
"""
from __future__ import annotations

import numpy as np

from ..core.reference import GameResult, endless_game, MAX_TURNS
from ..core.reference import play_batch as core_play_batch
from ..core.rng import KeyedRng, deck_stream
from . import observation as O
from .deck import OBELISK, PYRAMID, TOMB
from .observation import LEVEL_OF, LEVEL_SIZE, LEVEL_START, POSITION_OF, SPOT_LEFT, SPOT_RIGHT
from .rules import COLOURS, MAX_PLAYERS, ROUNDS, TILE_NAMES, PyramidsRules

N_COLOURS = len(COLOURS)
SEAT_EXTRAS = ("pyramid", "bonus", "obelisk", "tomb", "glyph", "tiles")
EXTRAS = tuple(f"{name}_{s}" for name in SEAT_EXTRAS for s in range(MAX_PLAYERS)) + (
    "first_player", "discards")


def slot(level: int, position: int) -> int:
    return LEVEL_START[level] + position


# ================================================================ a player's necropolis (§5)
class Necropolis:
    """Pyramid (slot -> card), obelisk (bottom to top) and tomb (in order laid) of one player."""

    def __init__(self):
        self.pyramid: dict[int, int] = {}
        self.obelisk: list[int] = []
        self.tomb: list[int] = []

    def level_count(self, level: int) -> int:
        return sum(1 for s in self.pyramid if LEVEL_OF[s] == level)

    def pyramid_spots(self, rules: PyramidsRules) -> list[int]:
        """Legal spots for the next pyramid card, ascending (§5.1). Always at least one."""
        spots = []
        base = self.level_count(0)
        if base == 0:
            spots.append(SPOT_LEFT)                   # the first card of the pyramid
        elif base < LEVEL_SIZE[0]:
            spots += [SPOT_LEFT, SPOT_RIGHT]          # the base grows as a row, at either end
        for level in (1, 2, 3):
            started = self.level_count(level) > 0
            for p in range(LEVEL_SIZE[level]):
                s = slot(level, p)
                if s in self.pyramid:
                    continue
                supported = slot(level - 1, p) in self.pyramid and slot(level - 1, p + 1) in self.pyramid
                if not supported:
                    continue
                if rules.upper_level == "contiguous" and started:
                    neighbours = [slot(level, q) for q in (p - 1, p + 1) if 0 <= q < LEVEL_SIZE[level]]
                    if not any(n in self.pyramid for n in neighbours):
                        continue
                spots.append(s)
        return spots

    def place_pyramid(self, card: int, spot: int) -> None:
        if spot == SPOT_LEFT:
            # the new card is the leftmost of the base: every card moves one position right
            self.pyramid = {slot(LEVEL_OF[s], POSITION_OF[s] + 1): c for s, c in self.pyramid.items()}
            self.pyramid[slot(0, 0)] = card
        elif spot == SPOT_RIGHT:
            self.pyramid[slot(0, self.level_count(0))] = card
        else:
            self.pyramid[spot] = card

    def cards(self) -> list[int]:
        return list(self.pyramid.values()) + self.obelisk + self.tomb


# ================================================================ scoring (§7, §8)
def stone_size(stone, rules: PyramidsRules) -> int:
    """A large stone is 1 stone, or 2 with large_stone = cells."""
    return len(stone.cells) if rules.large_stone == "cells" else 1


def pyramid_cells(pyramid: dict[int, int], cards) -> dict[tuple[int, int], tuple[int, int]]:
    """Grid cell (x, y) -> (card, stone index) for every stone of the pyramid."""
    cells = {}
    for s, c in pyramid.items():
        level, p = LEVEL_OF[s], POSITION_OF[s]
        for k, stone in enumerate(cards[c].stones):
            for cell in stone.cells:
                cells[(2 * p + level + cell % 2, 2 * level + cell // 2)] = (c, k)
    return cells


def largest_groups(pyramid: dict[int, int], cards, rules: PyramidsRules) -> list[int]:
    """Per colour, the size of its largest orthogonally connected group (0 if absent)."""
    cells = pyramid_cells(pyramid, cards)
    neighbours: dict[tuple[int, int], set] = {}
    for (x, y), stone in cells.items():
        neighbours.setdefault(stone, set())
        for other in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if other in cells and cells[other] != stone:
                neighbours[stone].add(cells[other])

    def colour(stone):
        return cards[stone[0]].stones[stone[1]].colour

    best = [0] * N_COLOURS
    seen = set()
    for start in neighbours:
        if start in seen:
            continue
        seen.add(start)
        group, todo = [], [start]
        while todo:
            stone = todo.pop()
            group.append(stone)
            for n in neighbours[stone]:
                if n not in seen and colour(n) == colour(start):
                    seen.add(n)
                    todo.append(n)
        size = sum(stone_size(cards[c].stones[k], rules) for c, k in group)
        best[colour(start)] = max(best[colour(start)], size)
    return best


def glyphs(card_list, glyph: int, cards) -> int:
    return sum(1 for c in card_list if cards[c].glyph == glyph)


def pyramid_points(pyramid, cards, rules) -> tuple[int, int, int]:
    """(groups: each colour's largest group plus the largest once more, bonus, glyph points) §7.1."""
    best = largest_groups(pyramid, cards, rules)
    groups = sum(best) + max(best)
    bonus = rules.bonus_points if all(b >= rules.bonus_group for b in best) else 0
    return groups, bonus, rules.glyph_points * glyphs(pyramid.values(), PYRAMID, cards)


def obelisk_points(obelisk: list[int], cards, rules) -> tuple[int, int]:
    """(stage points of the colour on most stages, glyph points) §7.2."""
    stages = max((sum(1 for c in obelisk if colour in cards[c].colours()) for colour in range(N_COLOURS)),
                 default=0)
    return rules.obelisk_value(stages), rules.glyph_points * glyphs(obelisk, OBELISK, cards)


def tomb_colours(tomb: list[int], cards, rules) -> list[int]:
    """Stones of each colour in a tomb (a large stone 1, or 2 with large_stone = cells)."""
    counts = [0] * N_COLOURS
    for c in tomb:
        for stone in cards[c].stones:
            counts[stone.colour] += stone_size(stone, rules)
    return counts


def tomb_points(tombs: list[list[int]], cards, rules) -> tuple[list[int], list[int]]:
    """(majority points per seat, glyph points per seat) §7.3: the most stones of a colour score
    tomb_points; a tie scores per tomb_tie; nobody scores a colour nobody has."""
    counts = [tomb_colours(t, cards, rules) for t in tombs]
    majority = [0] * len(tombs)
    for colour in range(N_COLOURS):
        most = max(c[colour] for c in counts)
        if most == 0:
            continue
        tied = [s for s in range(len(tombs)) if counts[s][colour] == most]
        if len(tied) == 1 or rules.tomb_tie == "all":
            points = rules.tomb_points
        elif rules.tomb_tie == "split":
            points = rules.tomb_points // len(tied)
        else:
            points = 0
        for s in tied:
            majority[s] += points
    return majority, [rules.glyph_points * glyphs(t, TOMB, cards) for t in tombs]


# ================================================================ the game
class Turn:
    """What the seat on turn has done so far (published in the observation)."""

    def __init__(self, seat: int, tile: int, may_tomb: bool, may_obelisk: bool, either: bool):
        self.seat, self.tile = seat, tile
        self.may_tomb, self.may_obelisk, self.either = may_tomb, may_obelisk, either
        self.pair = self.pyramid_card = self.pyramid_spot = self.tomb = self.obelisk = -1


class Game:
    """State of one game of Pyramids."""

    def __init__(self, rules: PyramidsRules, players: int, seed: int = 0, game: int = 0):
        rules.check_players(players)
        self.rules, self.players, self.seed, self.game = rules, players, seed, game
        self.cards = rules.cards()
        self.codes = [O.card_code(c) for c in self.cards]
        self.necropolis = [Necropolis() for _ in range(players)]
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.discards: list[list[int]] = [[] for _ in range(players)]
        self.quarry: list[list[int]] = []            # pair q: its two cards, [] once taken
        self.deck: list[int] = []                    # the draw pile, top first
        self.from_quarry: set[int] = set()           # cards everyone has seen in the quarry
        self.round = 0
        self.first = 0
        self.offered: list[int] = []                 # tiles in play this round
        self.owner: dict[int, int] = {}              # tile -> seat, this round
        self.set_aside = 0                           # 2 players: the tile out this round
        self.tiles_taken: list[list[int]] = [[] for _ in range(players)]
        self.turn: Turn | None = None
        self.decisions = 0
        self.tile_rng = KeyedRng(seed, game, deck_stream(2))
        self.on_decision = None                      # observer: (game, seat, decision, action)
        self._points = [((0, 0), (0, 0))] * players   # public_points cache

    # ---------------------------------------------------------------- §2 setup
    def setup(self) -> None:
        order = list(range(len(self.cards)))
        KeyedRng(self.seed, self.game, deck_stream(0)).shuffle(order)
        self.deck = order
        if self.rules.first_player == "random":
            self.first = KeyedRng(self.seed, self.game, deck_stream(1)).below(self.players)
        self.initial_first = self.first
        for k in range(self.players):                  # one secret card each, from the first player
            self.hands[(self.first + k) % self.players].append(self.deck.pop(0))
        if self.players == 2:                          # one of the four tiles set aside at random
            self.set_aside = self.rules.tiles(2)[self.tile_rng.below(4)]

    # ---------------------------------------------------------------- §4 one round
    def play_round(self, decide) -> None:
        self.stock_quarry()
        self.choose_tiles(decide)
        for tile in sorted(self.owner):                # §4.3: in ascending tile number
            self.take_turn(self.owner[tile], tile, decide)
        self.end_round()

    def stock_quarry(self) -> None:
        """§4.1: one face-up pair per player."""
        self.quarry = [[self.deck.pop(0), self.deck.pop(0)] for _ in range(self.players)]
        self.from_quarry.update(c for pair in self.quarry for c in pair)
        self.offered = [t for t in self.rules.tiles(self.players) if t != self.set_aside]
        self.owner = {}

    def choose_tiles(self, decide) -> None:
        """§4.2: clockwise from the first player, each takes one available tile."""
        for k in range(self.players):
            seat = (self.first + k) % self.players
            legal = [O.tile_action(t) for t in self.offered if t not in self.owner]
            action = self.ask(decide, seat, O.D_TILE, legal)
            tile = O.action_arg(action)
            self.owner[tile] = seat
            self.tiles_taken[seat].append(tile)

    def take_turn(self, seat: int, tile: int, decide) -> None:
        """§4.3-4.4: take a pair, build as the tile allows (one card per edifice), keep one."""
        may_tomb, may_obelisk, either = self.rules.powers(tile, self.players)
        self.turn = turn = Turn(seat, tile, may_tomb, may_obelisk, either)
        hand = self.hands[seat]
        nec = self.necropolis[seat]

        legal = [O.pair_action(q) for q in range(self.players) if self.quarry[q]]
        turn.pair = O.action_arg(self.ask(decide, seat, O.D_PAIR, legal))
        hand += self.quarry[turn.pair]
        self.quarry[turn.pair] = []

        # the pyramid card is mandatory, and a legal spot always exists
        spots = nec.pyramid_spots(self.rules)
        legal = [O.pyramid_action(c, s) for c in sorted(hand) for s in spots]
        action = self.ask(decide, seat, O.D_PYRAMID, legal)
        turn.pyramid_card, turn.pyramid_spot = O.action_card(action), O.action_arg(action)
        hand.remove(turn.pyramid_card)
        nec.place_pyramid(turn.pyramid_card, turn.pyramid_spot)

        if turn.may_tomb and hand:
            legal = [O.SKIP] + [O.encode(O.A_TOMB, c) for c in sorted(hand)]
            card = O.action_card(self.ask(decide, seat, O.D_TOMB, legal))
            turn.may_tomb = False
            if card >= 0:
                turn.tomb = card
                hand.remove(card)
                nec.tomb.append(card)
                if turn.either:                      # Sekhmet at 4-5: tomb OR obelisk
                    turn.may_obelisk = False
        if turn.may_obelisk and hand:
            legal = [O.SKIP] + [O.encode(O.A_OBELISK, c) for c in sorted(hand)]
            card = O.action_card(self.ask(decide, seat, O.D_OBELISK, legal))
            turn.may_obelisk = False
            if card >= 0:
                turn.obelisk = card
                hand.remove(card)
                nec.obelisk.append(card)
        turn.may_tomb = turn.may_obelisk = False

        # §4.4: keep at most keep_limit (1) card, discard the rest
        keep = -1
        if hand and self.rules.keep_limit > 0:
            legal = [O.encode(O.A_KEEP, c) for c in sorted(hand)]
            if self.rules.may_keep_none:
                legal.append(O.KEEP_NONE)
            keep = O.action_card(self.ask(decide, seat, O.D_KEEP, legal))
        self.discards[seat] += [c for c in hand if c != keep]
        hand[:] = [keep] if keep >= 0 else []
        self.turn = None

    def end_round(self) -> None:
        """§4.5: tiles back to the centre, the token to the left, the 2-player tile rotation."""
        if self.players == 2:
            rule = self.rules.two_player_tiles
            if rule == "rotate":
                self.set_aside = next(t for t in self.offered if t not in self.owner)
            elif rule == "random":
                self.set_aside = self.rules.tiles(2)[self.tile_rng.below(4)]
            elif rule == "return":
                self.set_aside = 0
        self.owner = {}
        self.first = (self.first + 1) % self.players
        self.round += 1

    def ask(self, decide, seat: int, decision: int, legal: list[int]) -> int:
        """One decision: the seat's strategy picks an index of the legal list."""
        self.decisions += 1
        if self.decisions > MAX_TURNS:
            raise endless_game(self.game)
        where = f"round {self.round} (0-based), {O.DECISION_NAMES[decision]} decision"
        index = decide(seat, self.observation(seat, decision, legal), where)
        action = legal[index]
        if self.on_decision is not None:
            self.on_decision(self, seat, decision, action)
        return action

    # ---------------------------------------------------------------- §7 the end
    def score_parts(self) -> dict[str, list[int]]:
        """Per seat: pyramid (groups), bonus, obelisk (stages), tomb (majorities), glyph (all)."""
        r, cards = self.rules, self.cards
        parts = {k: [0] * self.players for k in ("pyramid", "bonus", "obelisk", "tomb", "glyph")}
        majority, tomb_glyphs = tomb_points([n.tomb for n in self.necropolis], cards, r)
        for s, nec in enumerate(self.necropolis):
            groups, bonus, pyr_glyphs = pyramid_points(nec.pyramid, cards, r)
            stages, obe_glyphs = obelisk_points(nec.obelisk, cards, r)
            parts["pyramid"][s], parts["bonus"][s] = groups, bonus
            parts["obelisk"][s], parts["tomb"][s] = stages, majority[s]
            parts["glyph"][s] = pyr_glyphs + obe_glyphs + tomb_glyphs[s]
        return parts

    def scores(self) -> list[int]:
        parts = self.score_parts()
        return [sum(parts[k][s] for k in parts) for s in range(self.players)]

    def win_shares(self) -> list[float]:
        """§7.5: the highest total wins; a tie is shared, or broken by the higher pyramid."""
        scores = self.scores()
        tied = [s for s in range(self.players) if scores[s] == max(scores)]
        if len(tied) > 1 and self.rules.tie_break == "pyramid":
            pyramid = [sum(pyramid_points(self.necropolis[s].pyramid, self.cards, self.rules)) for s in tied]
            tied = [s for s, p in zip(tied, pyramid) if p == max(pyramid)]
        return [1.0 / len(tied) if s in tied else 0.0 for s in range(self.players)]

    def result(self) -> GameResult:
        parts = self.score_parts()
        extras = []
        for name in SEAT_EXTRAS:
            for s in range(MAX_PLAYERS):
                if s >= self.players:
                    extras.append(-1)
                elif name == "tiles":    # the tile numbers of rounds 1..10 as decimal digits
                    extras.append(int("".join(map(str, self.tiles_taken[s])) or 0))
                else:
                    extras.append(parts[name][s])
        extras += [self.initial_first, sum(len(d) for d in self.discards)]
        return GameResult(self.scores(), self.win_shares(), extras)

    # ---------------------------------------------------------------- what a seat sees (§6)
    def observation(self, seat: int, decision: int, legal: list[int]) -> np.ndarray:
        r, obs = self.rules, np.zeros(O.SIZE, dtype=np.int64)
        obs[O.SEAT], obs[O.DECISION], obs[O.N_LEGAL], obs[O.LEGAL_AT] = seat, decision, len(legal), O.LEGAL
        obs[O.PLAYERS], obs[O.ROUND], obs[O.FIRST_PLAYER] = self.players, self.round, self.first
        obs[O.SET_ASIDE], obs[O.N_CARDS], obs[O.DECK_LEFT] = self.set_aside, len(self.cards), len(self.deck)
        turn = self.turn if self.turn is not None and self.turn.seat == seat else None
        obs[O.TURN_TILE] = next((t for t, s in self.owner.items() if s == seat), 0)
        obs[O.TURN_PAIR] = turn.pair if turn else -1
        obs[O.TURN_PYRAMID_CARD] = turn.pyramid_card if turn else -1
        obs[O.TURN_PYRAMID_SPOT] = turn.pyramid_spot if turn else -1
        obs[O.TURN_TOMB] = turn.tomb if turn else -1
        obs[O.TURN_OBELISK] = turn.obelisk if turn else -1
        obs[O.MAY_TOMB] = bool(turn and turn.may_tomb)
        obs[O.MAY_OBELISK] = bool(turn and turn.may_obelisk)
        obs[O.R_MAY_KEEP_NONE], obs[O.R_KEEP_LIMIT] = r.may_keep_none, r.keep_limit
        obs[O.R_LARGE_CELLS] = r.large_stone == "cells"
        obs[O.R_UPPER_CONTIGUOUS] = r.upper_level == "contiguous"
        obs[O.R_TOMB_TIE], obs[O.R_TIE_BREAK_PYRAMID] = O.TOMB_TIE_CODES[r.tomb_tie], r.tie_break == "pyramid"
        obs[O.R_TOMB_COUNTS_PUBLIC], obs[O.R_BONUS_POINTS] = r.tomb_counts_public, r.bonus_points
        obs[O.R_BONUS_GROUP], obs[O.R_TOMB_POINTS], obs[O.R_GLYPH_POINTS] = \
            r.bonus_group, r.tomb_points, r.glyph_points
        obs[O.R_SEKHMET_EITHER] = r.powers(4, self.players)[2]
        obs[O.OWN_TOMB_COLOURS:O.OWN_TOMB_COLOURS + N_COLOURS] = tomb_colours(
            self.necropolis[seat].tomb, self.cards, r)
        obs[O.HAND:O.HAND + O.MAX_HAND] = -1
        for i, c in enumerate(sorted(self.hands[seat])):
            obs[O.HAND + i] = c
        for t in range(1, 6):
            obs[O.TILE_OFFERED + t - 1] = t in self.offered
            obs[O.TILE_OWNER + t - 1] = self.owner.get(t, -1)
        obs[O.QUARRY:O.SEATS] = -1
        for q, pair in enumerate(self.quarry):
            for i, c in enumerate(pair):
                obs[O.QUARRY + 2 * q + i] = c
        for s in range(MAX_PLAYERS):
            self.observe_seat(obs, O.SEATS + O.SEAT_BLOCK * s, s, seat)
        obs[O.CARD_CODE:O.CARD_LOC] = -1
        obs[O.CARD_CODE:O.CARD_CODE + len(self.codes)] = self.codes
        obs[O.CARD_LOC:O.LEGAL] = O.LOC_UNSEEN
        for card, loc in self.card_locations(seat).items():
            obs[O.CARD_LOC + card] = loc
        obs[O.LEGAL:O.LEGAL + len(legal)] = legal
        return obs

    def observe_seat(self, obs, at: int, s: int, viewer: int) -> None:
        obs[at + O.S_PYRAMID:at + O.SEAT_BLOCK] = -1
        if s >= self.players:
            obs[at:at + O.S_PYRAMID] = 0
            return
        nec, r = self.necropolis[s], self.rules
        obs[at + O.S_HAND_SIZE] = len(self.hands[s])
        obs[at + O.S_PYRAMID_N], obs[at + O.S_OBELISK_N] = len(nec.pyramid), len(nec.obelisk)
        obs[at + O.S_TOMB_N] = len(nec.tomb) if (s == viewer or r.tomb_counts_public) else -1
        obs[at + O.S_PYRAMID_POINTS], obs[at + O.S_OBELISK_POINTS] = self.public_points(s)
        for sl, c in nec.pyramid.items():
            obs[at + O.S_PYRAMID + sl] = c
        for i, c in enumerate(nec.obelisk):
            obs[at + O.S_OBELISK + i] = c
        if s == viewer:
            for i, c in enumerate(nec.tomb):
                obs[at + O.S_TOMB + i] = c

    def public_points(self, s: int) -> tuple[int, int]:
        """(pyramid, obelisk) points of seat s so far, glyphs included; cached, as edifices only grow."""
        nec = self.necropolis[s]
        key = (len(nec.pyramid), len(nec.obelisk))
        if self._points[s][0] != key:
            self._points[s] = (key, (sum(pyramid_points(nec.pyramid, self.cards, self.rules)),
                                     sum(obelisk_points(nec.obelisk, self.cards, self.rules))))
        return self._points[s][1]

    def card_locations(self, viewer: int) -> dict[int, int]:
        """Card -> LOC_* code for the cards `viewer` knows the place of (the others are unseen)."""
        loc = {}
        for q in self.quarry:
            for c in q:
                loc[c] = O.LOC_QUARRY
        for s in range(self.players):
            nec = self.necropolis[s]
            for c in nec.pyramid.values():
                loc[c] = O.LOC_PYRAMID + s
            for c in nec.obelisk:
                loc[c] = O.LOC_OBELISK + s
            if s == viewer:
                for c in self.hands[s]:
                    loc[c] = O.LOC_HAND
                for c in nec.tomb:
                    loc[c] = O.LOC_TOMB + s
                for c in self.discards[s]:
                    loc[c] = O.LOC_DISCARD
                continue
            for c in self.discards[s]:
                if self.rules.discards_public:
                    loc[c] = O.LOC_DISCARD
                elif c in self.from_quarry:
                    loc[c] = O.LOC_TAKEN + s
            for c in self.hands[s] + nec.tomb:
                if c in self.from_quarry:
                    loc[c] = O.LOC_TAKEN + s
        return loc

    # ---------------------------------------------------------------- checks and text
    def where_is_every_card(self) -> dict[int, str]:
        """Card -> its one place (deck, quarry, hand s, pyramid s, ...); raises if a card is in two."""
        places = [("deck", self.deck)] + [(f"quarry {q}", p) for q, p in enumerate(self.quarry)]
        for s in range(self.players):
            nec = self.necropolis[s]
            places += [(f"hand {s}", self.hands[s]), (f"pyramid {s}", list(nec.pyramid.values())),
                       (f"obelisk {s}", nec.obelisk), (f"tomb {s}", nec.tomb),
                       (f"discard {s}", self.discards[s])]
        where = {}
        for name, cards in places:
            for c in cards:
                if c in where:
                    raise AssertionError(f"card {c} is in {where[c]} and in {name}")
                where[c] = name
        return where

    def tile_name(self, tile: int) -> str:
        return TILE_NAMES[tile]


# ================================================================ entry points
def play_game(rules: PyramidsRules, players: int, seed: int, game: int, decide, on_decision=None) -> Game:
    """Play one whole game; `decide(seat, obs, where) -> index` (a core Decider), and
    `on_decision(game_state, seat, decision, action)` after every decision (forced ones too)."""
    g = Game(rules, players, seed, game)
    g.on_decision = on_decision
    g.setup()
    for _ in range(ROUNDS):
        g.play_round(decide)
    return g


def play_batch(rules: PyramidsRules, players: int, seed: int, first_game: int, n_games: int,
               kernels, params):
    """Games first_game .. first_game + n_games - 1 with strategies `kernels[seat](obs, params, rng)`."""
    rules.check_players(players)

    def one(game: int, decide) -> GameResult:
        return play_game(rules, players, seed, game, decide).result()
    return core_play_batch(one, EXTRAS, players, seed, first_game, n_games, kernels, params)
