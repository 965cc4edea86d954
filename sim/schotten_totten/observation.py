"""What a Schotten Totten strategy sees: one int64 vector, the same in both engines.

A strategy is `decide(obs, params, rng) -> index` (sim/core/strategy_api.py): it is called only
when the deciding seat has a real choice (two or more legal actions), and returns the INDEX of its
chosen action in the legal-action list of the vector (0 .. obs[N_LEGAL] - 1). Anything else is an
illegal action (the engines raise `StrategyError` with the seat, game index and decision).

The vector holds only what the deciding seat may see: its own hand, every card on the table,
the environment cards, claimed stones, the discard, pile sizes, hand sizes and tactic counts, plus
the rules that shape play and the list of legal actions. Never the opponent's hand or the order of
the piles. The deciding seat is always the player to move (every decision is taken during one's
own turn), so `SEAT` also says whose turn it is. Board entries are indexed by ABSOLUTE seat
(`k = 2 * stone + seat`); `SEAT` says which one is yours. Strategies must treat the vector as
read-only.

Layout (offsets are the constants below; stones >= STONES read as empty: CLAIMED and SIDE -1, else 0):
  header        SEAT, DECISION (D_*), N_LEGAL, LEGAL_AT (= LEGAL): the header of every game
                (sim/core/observation.py)
  scalars       TURN (turns completed, both players), FIRST (seat that moved
                first), IDLE (the previous turn changed nothing: if this one changes nothing either,
                the game ends blocked), SCOUT_RETURNS (cards still to return in a scout-return
                decision, else 0), CLAN_PILE / TACTIC_PILE (cards left), N_DISCARD
  rules         STONES, HAND_LIMIT, TACTICS, ADJACENT_TO_WIN, TOTAL_TO_WIN, TACTIC_LIMIT,
                CLAIM_AT_START, AUTO_CLAIM, REDEPLOY_MOVE (1: move-or-discard), NO_PLAY_BLOCKS,
                BLOCKED_DRAW (1: a blocked game is always a draw)
  [seat]        HAND_SIZE, TACTICS_PLAYED (tactic cards played from hand), CHIEF_PLAYED,
                STONES_HELD
  HAND          own hand, ascending card ids, -1 padded (MAX_HAND entries)
  [stone]       CLAIMED (-1 or seat), FOG, MUD (0/1), NEED (cards in a complete formation: 3, 4 with Mud)
  [2*stone+seat]  SIDE_N (cards on that side), LAST_PLACED (clock value of the last card placed
                there: at a stone where both sides are complete and equal, the side with the
                smaller value completed first and wins), SIDE + 4 * k + i (the cards in placement
                order, -1 padded)
  DISCARD       face-up discard in arrival order (played ruse cards, deserted and redeployed-away
                cards), -1 padded
  CARD_LOC      [card] where each of the 64 cards is, as far as this seat knows: LOC_UNSEEN (-1:
                a pile or the opponent's hand), LOC_HAND + seat (own hand), LOC_DISCARD, LOC_BOX
                (out of the game: tactic cards without tactics or not in `tactic_cards`),
                LOC_SIDE + 2 * stone + seat,
                LOC_ENV + stone (Fog / Mud under that stone)
  LEGAL         the N_LEGAL legal actions, encoded (below); entries past N_LEGAL are undefined

Cards are `cards.py` ids: clan cards 0..53 (`colour * 9 + value - 1`), tactic cards 54..63.

Action encoding (one int64; a field holds value + 1, so 0 means "none" and decodes to -1):
    bits 0-3 kind | 4-10 card + 1 | 11-14 stone + 1 | 15-21 target + 1 | 22-25 dest + 1 | 26-27 pile + 1
  PLAY card stone              clan or morale card onto your side, or Fog / Mud under the stone
  PASS                         play nothing this turn (legal only when no clan card can be played)
  SCOUT card                   play the Scout (scout-draw and scout-return decisions follow)
  REDEPLOY card stone target dest   move `target` from your side of `stone` to your side of stone
                               `dest`, or discard it (dest -1)
  DESERTER card stone target   discard `target` from the opponent's side of `stone`
  TRAITOR card stone target dest    move clan card `target` from the opponent's side of `stone` to
                               your side of `dest`
  DRAW pile                    draw the top card of a pile (PILE_CLAN, PILE_TACTIC)
  RETURN card                  Scout: put a card from your hand at the bottom of its pile
  CLAIM stone / END_CLAIMS     claim decisions (only with AUTO_CLAIM off)
Legal actions come in the reference engine's documented order (`Game.legal_plays`: for each card
in hand, ascending id, its uses, stones ascending, ruse targets by stone then placement order then
destination, discard first; then PASS; draws clan pile first; returns by ascending card; claims by
ascending stone, then END_CLAIMS). Decode with `action_kind`, `action_card`, ... (compiled, so
strategies can call them).
"""
from numba import njit

from ..core import observation as H
from .rules import MAX_STONES

# ---------------------------------------------------------------- sizes
MAX_HAND = 16          # hand_size <= 12, plus the Scout's two extra cards
MAX_SIDE = 4           # cards on one side of a stone (4 under Mud)
MAX_DISCARD = 8        # 4 ruse cards + a deserted and a redeployed-away card
MAX_LEGAL = 640        # > every possible legal list (Redeploy and Traitor targets dominate)
N_CARDS = 64

# ---------------------------------------------------------------- decision kinds
D_PLAY, D_CLAIM, D_DRAW, D_SCOUT_DRAW, D_SCOUT_RETURN = range(5)
DECISION_NAMES = ("play", "claim", "draw", "scout-draw", "scout-return")   # reference PHASE_*

# ---------------------------------------------------------------- action kinds and piles
PLAY, PASS, SCOUT, REDEPLOY, DESERTER, TRAITOR, DRAW, RETURN, CLAIM, END_CLAIMS = range(10)
PILE_CLAN, PILE_TACTIC = 0, 1

# ---------------------------------------------------------------- card locations (CARD_LOC)
LOC_UNSEEN = -1
LOC_HAND = 2          # + seat (only your own hand is ever shown)
LOC_DISCARD = 4
LOC_BOX = 5
LOC_SIDE = 8          # + 2 * stone + seat
LOC_ENV = LOC_SIDE + 2 * MAX_STONES   # + stone

# ---------------------------------------------------------------- layout
# the common header (sim/core/observation.py)
SEAT = H.SEAT
DECISION = H.DECISION
N_LEGAL = H.N_LEGAL
LEGAL_AT = H.LEGAL_AT     # holds LEGAL
TURN = 4
FIRST = 5
IDLE = 6
SCOUT_RETURNS = 7
CLAN_PILE = 8
TACTIC_PILE = 9
# rules (constant during a game)
STONES = 10
HAND_LIMIT = 11
TACTICS = 12
ADJACENT_TO_WIN = 13
TOTAL_TO_WIN = 14
TACTIC_LIMIT = 15
CLAIM_AT_START = 16
AUTO_CLAIM = 17
REDEPLOY_MOVE = 18
NO_PLAY_BLOCKS = 19
BLOCKED_DRAW = 20
N_DISCARD = 21
# per seat
HAND_SIZE = 24
TACTICS_PLAYED = 26
CHIEF_PLAYED = 28
STONES_HELD = 30
# own hand
HAND = 32
# per stone
CLAIMED = HAND + MAX_HAND
FOG = CLAIMED + MAX_STONES
MUD = FOG + MAX_STONES
NEED = MUD + MAX_STONES
# per side (k = 2 * stone + seat)
SIDE_N = NEED + MAX_STONES
LAST_PLACED = SIDE_N + 2 * MAX_STONES
SIDE = LAST_PLACED + 2 * MAX_STONES
DISCARD = SIDE + 2 * MAX_STONES * MAX_SIDE
CARD_LOC = DISCARD + MAX_DISCARD
LEGAL = CARD_LOC + N_CARDS
SIZE = LEGAL + MAX_LEGAL

# name of each scalar / block start, for printing a vector
NAMES = {v: k for k, v in dict(globals()).items()
         if k in ("SEAT", "DECISION", "LEGAL_AT", "TURN", "FIRST", "IDLE", "SCOUT_RETURNS", "CLAN_PILE", "TACTIC_PILE",
                  "N_DISCARD", "N_LEGAL", "STONES", "HAND_LIMIT", "TACTICS", "ADJACENT_TO_WIN",
                  "TOTAL_TO_WIN", "TACTIC_LIMIT", "CLAIM_AT_START", "AUTO_CLAIM", "REDEPLOY_MOVE",
                  "NO_PLAY_BLOCKS", "BLOCKED_DRAW", "HAND_SIZE", "TACTICS_PLAYED", "CHIEF_PLAYED",
                  "STONES_HELD", "HAND", "CLAIMED", "FOG", "MUD", "NEED", "SIDE_N", "LAST_PLACED", "SIDE",
                  "DISCARD", "CARD_LOC", "LEGAL")}

# ---------------------------------------------------------------- action encoding
A_CARD_SHIFT = 4
A_STONE_SHIFT = 11
A_TARGET_SHIFT = 15
A_DEST_SHIFT = 22
A_PILE_SHIFT = 26


@njit(cache=True, inline="always")
def encode(kind, card, stone, target, dest, pile):
    """One action as an int64 (fields -1 when unused)."""
    return (kind | ((card + 1) << A_CARD_SHIFT) | ((stone + 1) << A_STONE_SHIFT)
            | ((target + 1) << A_TARGET_SHIFT) | ((dest + 1) << A_DEST_SHIFT)
            | ((pile + 1) << A_PILE_SHIFT))


@njit(cache=True, inline="always")
def action_kind(a):
    return a & 15


@njit(cache=True, inline="always")
def action_card(a):
    return ((a >> A_CARD_SHIFT) & 127) - 1


@njit(cache=True, inline="always")
def action_stone(a):
    return ((a >> A_STONE_SHIFT) & 15) - 1


@njit(cache=True, inline="always")
def action_target(a):
    return ((a >> A_TARGET_SHIFT) & 127) - 1


@njit(cache=True, inline="always")
def action_dest(a):
    return ((a >> A_DEST_SHIFT) & 15) - 1


@njit(cache=True, inline="always")
def action_pile(a):
    return ((a >> A_PILE_SHIFT) & 3) - 1


def encode_py(kind: int, card: int = -1, stone: int = -1, target: int = -1, dest: int = -1,
              pile: int = -1) -> int:
    """Plain-Python `encode` (the reference engine's)."""
    return (kind | ((card + 1) << A_CARD_SHIFT) | ((stone + 1) << A_STONE_SHIFT)
            | ((target + 1) << A_TARGET_SHIFT) | ((dest + 1) << A_DEST_SHIFT)
            | ((pile + 1) << A_PILE_SHIFT))


def decode_py(a: int) -> tuple[int, int, int, int, int, int]:
    """(kind, card, stone, target, dest, pile) of an encoded action."""
    a = int(a)
    return (a & 15, ((a >> A_CARD_SHIFT) & 127) - 1, ((a >> A_STONE_SHIFT) & 15) - 1,
            ((a >> A_TARGET_SHIFT) & 127) - 1, ((a >> A_DEST_SHIFT) & 15) - 1,
            ((a >> A_PILE_SHIFT) & 3) - 1)
