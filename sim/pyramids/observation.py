"""What a Pyramids strategy sees: one int64 vector, its layout, and the action encoding.

A strategy is `decide(obs, params, rng) -> index` (sim/core/strategy_api.py): it returns the INDEX
of its choice in the legal list; it is called only with two or more legal actions. The vector
starts with the common header (sim/core/observation.py: SEAT, DECISION, N_LEGAL, LEGAL_AT) and
holds only what the deciding seat may see; the legal list is the last block.

Why a chain of decisions
------------------------
A whole turn is: a God tile, then (when the turn comes, after the others chose their tiles) a
pair from the quarry, then which of the 3 cards in hand goes to the pyramid and where (up to 3
cards x ~5 spots), which to the tomb or obelisk if the tile allows (none or one of the others),
and which to keep. Counted jointly for Thoth with 5 pairs: 5 tiles x 5 pairs x (3 cards x 5
spots) x (tomb: none or 2) x (obelisk: none or the rest) x keep ~ 5 x 5 x 15 x 7 ~ 2,600 joint
actions, and the tile must be chosen before the pairs are known to be available anyway. So a
turn is a chain of small decisions, each with its own DECISION code, and the cards already
placed this turn are published (TURN_* below), so a memoryless strategy can rebuild the turn:

  D_TILE     choose a God tile (clockwise from the first player)      legal: A_TILE(t)
  D_PAIR     choose a quarry pair (in tile order)                      legal: A_PAIR(q)
  D_PYRAMID  the mandatory pyramid card and its spot                   legal: A_PYRAMID(card, spot)
  D_TOMB     a tomb card or none (Anubis, Sekhmet, Thoth)              legal: A_SKIP, A_TOMB(card)
  D_OBELISK  an obelisk card or none (Khepri, Sekhmet, Thoth)          legal: A_SKIP, A_OBELISK(card)
  D_KEEP     which card to keep for later (the rest is discarded)      legal: A_KEEP(card) [, A_KEEP_NONE]

Each card is placed as soon as it is chosen (the rules allow any order of building within a
turn, and building is from one hand, so fixing the order pyramid -> tomb -> obelisk -> keep
loses no joint choice). D_TOMB and D_OBELISK are asked only when the tile allows them and the hand
holds a card; with Sekhmet's "tomb or obelisk" side, D_OBELISK is not asked after a tomb card.
D_KEEP is asked only when cards remain (keep_limit 1); with one card and may_keep_none false it is
forced (the strategy is not called for a single legal action).

Legal-list order (both engines produce exactly this order):
  D_TILE     available tiles, ascending number
  D_PAIR     quarry pairs not yet taken, ascending pair index
  D_PYRAMID  hand cards by ascending card number; for each, spots ascending: SPOT_LEFT, SPOT_RIGHT,
             then the upper slots 4..9 (level by level, left to right)
  D_TOMB     A_SKIP, then A_TOMB(card) by ascending card number
  D_OBELISK  A_SKIP, then A_OBELISK(card) by ascending card number
  D_KEEP     A_KEEP(card) by ascending card number, then A_KEEP_NONE when may_keep_none is true

Pyramid slots and spots
-----------------------
Slot index = LEVEL_START[level] + position: level 0 (base) 0..3, level 1 4..6, level 2 7..8,
level 3 9. The base grows as a contiguous row, so its coordinates are relative: the leftmost base
card is always slot 0. Spot SPOT_LEFT puts a base card at the left end (every card of the pyramid
moves one position right; the first base card is also SPOT_LEFT), SPOT_RIGHT at the right end; an
upper card's spot is its slot index (4..9), which needs the two cards below it (slots of
positions p and p + 1 one level down) and, with upper_level = contiguous, a neighbour on its
level once that level is started.

Layout (offsets are the constants below; card numbers are positions in the deck file, -1 = none)
  scalars    PLAYERS, ROUND (0-based), FIRST_PLAYER (the token's seat), SET_ASIDE (2 players: the
             tile set aside this round, else 0), N_CARDS (in the deck), DECK_LEFT (draw pile)
  turn       TURN_TILE (the deciding seat's tile this round, 0 before it chooses), TURN_PAIR,
             TURN_PYRAMID_CARD, TURN_PYRAMID_SPOT, TURN_TOMB, TURN_OBELISK (what this turn did so
             far, -1 = not / not yet), MAY_TOMB, MAY_OBELISK (the turn may still add one: 0/1)
  rules      R_* (the parameters that shape play and scoring)
  OWN_TOMB_COLOURS [colour]  stones of each colour in the seat's own tomb (large_stone rule)
  HAND       own hand, ascending card numbers, -1 padded (MAX_HAND)
  TILE_OFFERED [tile - 1]  1 if the tile is in play this round;  TILE_OWNER [tile - 1]  seat or -1
  QUARRY     pair q = cards QUARRY + 2q, QUARRY + 2q + 1, -1 once taken (or beyond the players)
  [seat]     block SEATS + SEAT_BLOCK * seat (absolute seats; past PLAYERS all -1 / 0):
               +S_HAND_SIZE, +S_PYRAMID_N, +S_OBELISK_N, +S_TOMB_N (-1 for another seat when tomb
               counts are hidden), +S_PYRAMID_POINTS (groups, largest again, bonus, pyramid glyphs),
               +S_OBELISK_POINTS (stages and glyphs), +S_PYRAMID + slot (10), +S_OBELISK + i (in
               order, 10), +S_TOMB + i (own seat only, in order, 10)
  CARD_CODE  [card]  what is printed on every card of the deck (card_code below), -1 past N_CARDS
  CARD_LOC   [card]  where each card is, as far as this seat knows (LOC_* below)
  LEGAL      the N_LEGAL legal actions (LEGAL_AT = LEGAL); entries past them are undefined
"""
from numba.extending import register_jitable

from ..core.observation import DECISION, LEGAL_AT, N_LEGAL, SEAT  # noqa: F401  (the common header)
from .deck import MAX_CARDS, NO_GLYPH
from .rules import MAX_PLAYERS

MAX_HAND = 3            # the kept card and a pair
MAX_LEGAL = 32          # D_PYRAMID: 3 cards x at most 8 spots
SLOTS = 10
LEVEL_START = (0, 4, 7, 9)
LEVEL_SIZE = (4, 3, 2, 1)
LEVEL_OF = (0, 0, 0, 0, 1, 1, 1, 2, 2, 3)
POSITION_OF = (0, 1, 2, 3, 0, 1, 2, 0, 1, 0)
SPOT_LEFT, SPOT_RIGHT = 0, 1     # base spots; an upper spot is its slot index 4..9

# ---------------------------------------------------------------- decisions and actions
D_TILE, D_PAIR, D_PYRAMID, D_TOMB, D_OBELISK, D_KEEP = range(6)
DECISION_NAMES = ("tile", "pair", "pyramid", "tomb", "obelisk", "keep")
A_TILE, A_PAIR, A_PYRAMID, A_TOMB, A_OBELISK, A_SKIP, A_KEEP, A_KEEP_NONE = range(8)
ACTION_NAMES = ("tile", "pair", "pyramid", "tomb", "obelisk", "skip", "keep", "keep-none")

# ---------------------------------------------------------------- where a card is (CARD_LOC)
LOC_UNSEEN = -1         # the draw pile, or another seat's hand/tomb/discard never seen in the quarry
LOC_HAND = 0            # the deciding seat's hand
LOC_QUARRY = 1
LOC_DISCARD = 2         # discarded, and this seat knows it (its own, or all with discards_public)
LOC_PYRAMID = 8         # + seat
LOC_OBELISK = 16        # + seat
LOC_TOMB = 24           # + seat: own tomb only
LOC_TAKEN = 32          # + seat: seen in the quarry, taken by that seat, now hidden (hand, tomb, discard)

# ---------------------------------------------------------------- scalars
PLAYERS = 4
ROUND = 5
FIRST_PLAYER = 6
SET_ASIDE = 7
N_CARDS = 8
DECK_LEFT = 9
TURN_TILE = 10
TURN_PAIR = 11
TURN_PYRAMID_CARD = 12
TURN_PYRAMID_SPOT = 13
TURN_TOMB = 14
TURN_OBELISK = 15
MAY_TOMB = 16
MAY_OBELISK = 17
R_MAY_KEEP_NONE = 18
R_KEEP_LIMIT = 19
R_LARGE_CELLS = 20        # 1: a large stone counts 2
R_UPPER_CONTIGUOUS = 21
R_TOMB_TIE = 22           # 0 all, 1 none, 2 split
R_TIE_BREAK_PYRAMID = 23
R_TOMB_COUNTS_PUBLIC = 24
R_BONUS_POINTS = 25
R_BONUS_GROUP = 26
R_TOMB_POINTS = 27
R_GLYPH_POINTS = 28
R_SEKHMET_EITHER = 29     # 1: Sekhmet allows tomb or obelisk at this player count
OWN_TOMB_COLOURS = 32     # 5 entries
HAND = 40                 # MAX_HAND entries
TILE_OFFERED = 44         # 5 entries, tile t at TILE_OFFERED + t - 1
TILE_OWNER = 49           # 5 entries
QUARRY = 56               # 2 * MAX_PLAYERS entries
SEATS = QUARRY + 2 * MAX_PLAYERS
S_HAND_SIZE, S_PYRAMID_N, S_OBELISK_N, S_TOMB_N, S_PYRAMID_POINTS, S_OBELISK_POINTS = range(6)
S_PYRAMID = 8
S_OBELISK = S_PYRAMID + SLOTS
S_TOMB = S_OBELISK + 10
SEAT_BLOCK = S_TOMB + 10
CARD_CODE = SEATS + SEAT_BLOCK * MAX_PLAYERS
CARD_LOC = CARD_CODE + MAX_CARDS
LEGAL = CARD_LOC + MAX_CARDS
SIZE = LEGAL + MAX_LEGAL

TOMB_TIE_CODES = {"all": 0, "none": 1, "split": 2}


# ---------------------------------------------------------------- action encoding
# One int64: bits 0-3 kind | bits 4-11 card + 1 | bits 12-17 arg + 1 (tile number, pair index or
# spot); a field holding 0 means "none" and decodes to -1. Plain Python for the reference engine,
# compiled where compiled code calls them (register_jitable).
@register_jitable
def encode(kind, card=-1, arg=-1):
    return kind | ((card + 1) << 4) | ((arg + 1) << 12)


@register_jitable
def action_kind(action):
    return action & 15


@register_jitable
def action_card(action):
    return ((action >> 4) & 255) - 1


@register_jitable
def action_arg(action):
    return ((action >> 12) & 63) - 1


def tile_action(tile):
    return encode(A_TILE, -1, tile)


def pair_action(pair):
    return encode(A_PAIR, -1, pair)


def pyramid_action(card, spot):
    return encode(A_PYRAMID, card, spot)


SKIP = encode(A_SKIP)
KEEP_NONE = encode(A_KEEP_NONE)


def action_text(action) -> str:
    kind, card, arg = action_kind(action), action_card(action), action_arg(action)
    name = ACTION_NAMES[kind]
    if kind in (A_TILE, A_PAIR):
        return f"{name} {arg}"
    if kind == A_PYRAMID:
        return f"{name} card {card} at {spot_text(arg)}"
    if kind in (A_TOMB, A_OBELISK, A_KEEP):
        return f"{name} card {card}"
    return name


def spot_text(spot) -> str:
    if spot == SPOT_LEFT:
        return "base left"
    if spot == SPOT_RIGHT:
        return "base right"
    return f"level {LEVEL_OF[spot]} position {POSITION_OF[spot]}"


# ---------------------------------------------------------------- what is printed on a card
# CARD_CODE entries: bits 3c..3c+2 the colour of cell c (0 bl, 1 br, 2 tl, 3 tr; colours as
# deck.COLOURS), bits 12-15 which cells are one large stone (JOIN_LEFT bl+tl, JOIN_RIGHT br+tr,
# JOIN_BOTTOM bl+br, JOIN_TOP tl+tr), bits 16-17 the glyph (deck.NO_GLYPH, PYRAMID, OBELISK, TOMB).
JOIN_LEFT, JOIN_RIGHT, JOIN_BOTTOM, JOIN_TOP = 1, 2, 4, 8
JOIN_OF_CELLS = {(0, 2): JOIN_LEFT, (1, 3): JOIN_RIGHT, (0, 1): JOIN_BOTTOM, (2, 3): JOIN_TOP}


def card_code(card) -> int:
    """The CARD_CODE of a deck.Card."""
    code, joins = 0, 0
    for stone in card.stones:
        for c in stone.cells:
            code |= stone.colour << (3 * c)
        if len(stone.cells) == 2:
            joins |= JOIN_OF_CELLS[stone.cells]
    return code | (joins << 12) | (card.glyph << 16)


def code_cell_colour(code, cell):
    return (code >> (3 * cell)) & 7


def code_joins(code):
    return (code >> 12) & 15


def code_glyph(code):
    return (code >> 16) & 3


def code_has_glyph(code):
    return code_glyph(code) != NO_GLYPH
