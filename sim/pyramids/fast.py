"""Pyramids fast engine: numba-compiled, parallel over games, identical to `reference.py`.

Same contract as the other fast engines: `play_batch(rules, players, seed, first_game, n_games,
kernels, params, natives=None) -> Batch`, game by game identical to `reference.play_batch` (same
shuffle, same order of random draws, same legal lists, same observations).

Design:
  - a game's whole state is one int64 vector `g` (the G_* offsets below: scalars, the deck and
    where each card is, the quarry, the tiles, one block per seat), so a search can copy it,
    rebuild it from an observation and play it on with the same code.
  - the round is a small resumable machine, `run(g, obs, streams, r, resume)`: one function per
    stage (stock the quarry, a tile choice, then each turn's pair, pyramid card, tomb, obelisk
    and keep decisions, the round's end), inlined into `run` (called, they cost 28% of random
    games' speed: docs/engine-performance.md), and one decision site, `_decide`, which calls the
    seat's strategy (natively for `random`, else through the address of its compiled body,
    after filling the seat's observation) or returns to the caller (a first-class function the
    engine cannot call by address, or the search's own moves), to be resumed with the index.
  - the observation is written whole (`fill_observation`) only when a strategy reads it; the
    deck's card codes, constant for a game, once per game.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core import engine
from ..core.batch import Batch
from ..core.engine import record_endless, record_illegal
from ..core.nbutil import borrowed
from ..core.reference import MAX_TURNS
from ..core.rng import PLAYER_STREAM_BASE, deck_stream, draw_at, game_key, split_below, stream_of
from . import board as B
from .deck import PYRAMID
from . import observation as O
from .reference import EXTRAS
from .rules import ANUBIS, HORUS, KHEPRI, MAX_PLAYERS, ROUNDS, SEKHMET, PyramidsRules

# ---------------------------------------------------------------- the packed rule vector
# the declared scalar rules (`RuleSet.packed`), then the obelisk table: its length, its values
_R = PyramidsRules
R_FIRST_RANDOM = _R.slot("first_player")
R_SEKHMET_SMALL, R_TWO_PLAYER = _R.slot("sekhmet_small"), _R.slot("two_player_tiles")
R_UPPER, R_KEEP_NONE, R_KEEP_LIMIT = _R.slot("upper_level"), _R.slot("may_keep_none"), _R.slot("keep_limit")
R_LARGE, R_BONUS, R_BONUS_GROUP = _R.slot("large_stone"), _R.slot("bonus_points"), _R.slot("bonus_group")
R_TOMB_POINTS, R_TOMB_TIE, R_GLYPH = _R.slot("tomb_points"), _R.slot("tomb_tie"), _R.slot("glyph_points")
R_TIE_BREAK, R_TOMB_PUBLIC = _R.slot("tie_break"), _R.slot("tomb_counts_public")
R_DISCARDS_PUBLIC = _R.slot("discards_public")
R_OBELISK_N = len(_R.packed_fields())
R_OBELISK = R_OBELISK_N + 1
RANDOM_FIRST = _R.code("first_player", "random")
EITHER_SMALL = _R.code("sekhmet_small", "tomb-or-obelisk")
TWO_ROTATE, TWO_RANDOM = _R.code("two_player_tiles", "rotate"), _R.code("two_player_tiles", "random")
TWO_RETURN = _R.code("two_player_tiles", "return")
CONTIGUOUS, CELLS = _R.code("upper_level", "contiguous"), _R.code("large_stone", "cells")
TIE_PYRAMID = _R.code("tie_break", "pyramid")
TIE_CODES = tuple(_R.code("tomb_tie", k) for k in ("all", "none", "split"))
assert TIE_CODES == (0, 1, 2) and tuple(O.TOMB_TIE_CODES.values()) == (0, 1, 2)

# ---------------------------------------------------------------- the state vector g
(G_STAGE, G_PLAYERS, G_N_CARDS, G_ROUND, G_FIRST, G_INITIAL_FIRST, G_SET_ASIDE, G_DECK_HEAD,
 G_DECISIONS, G_K, G_TILE_NEXT, T_SEAT, T_TILE, T_PAIR, T_PCARD, T_PSPOT, T_TOMB, T_OBELISK,
 T_MAY_TOMB, T_MAY_OBELISK, T_EITHER, G_N_LEGAL, G_SEAT, G_DECISION, G_IDX, G_PENDING,
 G_SCALARS) = range(27)
G_DECK = 32                          # the shuffled deck, its first G_DECK_HEAD cards dealt
G_CODE = G_DECK + O.MAX_CARDS        # CARD_CODE of every card
G_LOC = G_CODE + O.MAX_CARDS         # where each card is: L_* kind * 8 + seat
G_SEEN = G_LOC + O.MAX_CARDS         # 1: the card was in the quarry (everyone saw it)
G_OFFERED = G_SEEN + O.MAX_CARDS     # tile t at + t - 1: in play this round
G_OWNER = G_OFFERED + 5              # tile t at + t - 1: the seat that took it, or -1
G_QUARRY = G_OWNER + 5               # pair q: + 2q, + 2q + 1, -1 once taken
G_LEGAL = G_QUARRY + 2 * MAX_PLAYERS
G_SPOTS = G_LEGAL + O.MAX_LEGAL
G_CALLS = G_SPOTS + 8                # the seats' call table (sim/core/engine.py: rows of 5)
G_CALL = G_CALLS + engine.CALL_ROW   # per seat: how its strategy is called (CALL_* or a native)
G_FN = G_CALLS + engine.FN_ROW       # per seat: the address of its compiled body
G_PRM = G_CALLS + engine.PRM_ROW     # per seat: the address and length of its parameters
G_PRM_LEN = G_CALLS + engine.PRM_LEN_ROW
G_SEATS = G_CALLS + engine.CALL_TABLE
P_HAND, P_HAND_N, P_PYRAMID, P_OBELISK, P_OBELISK_N = 0, 3, 4, 14, 24
P_TOMB, P_TOMB_N, P_DISCARDS, P_TILES, P_PYRAMID_POINTS, P_OBELISK_POINTS = 25, 35, 36, 37, 38, 39
P_STALE = 40         # 1: the points above are not yet those of the edifices (computed when seen)
SEAT_W = 41
G_SIZE = G_SEATS + SEAT_W * MAX_PLAYERS

L_DECK, L_QUARRY, L_HAND, L_PYRAMID, L_OBELISK, L_TOMB, L_DISCARD = range(7)

# streams: the deck, the 2-player tile, then one per seat (their ids as the reference's)
S_DECK, S_TILE, S_SEAT0 = 0, 1, 2
DECK_STREAM, FIRST_STREAM, TILE_STREAM = deck_stream(0), deck_stream(1), deck_stream(2)
N_STREAMS = S_SEAT0 + MAX_PLAYERS

# stages of the round
(ST_STOCK, ST_TILE, ST_TURN, ST_PAIR, ST_PYRAMID, ST_TOMB, ST_OBELISK, ST_KEEP, ST_ROUND_END,
 ST_END) = range(10)
# what `run` returns, besides n > 0 (a decision it does not take itself)
RUN_END, RUN_ILLEGAL, RUN_ENDLESS = 0, -1, -2

# how the engine calls a seat's strategy (sim/core/engine.py)
RANDOM_POLICY, CALL_JIT, CALL_FT, CALL_STOP = (engine.RANDOM_NATIVE, engine.CALL_JIT,
                                               engine.CALL_FT, engine.CALL_STOP)


def pack_rules(rules: PyramidsRules) -> np.ndarray:
    """The rule vector: the declared scalar rules, then the obelisk table."""
    table = np.array(rules.obelisk_points, np.int64)
    return np.concatenate([rules.packed(), np.array([table.size], np.int64), table])


def deck_codes(rules: PyramidsRules) -> np.ndarray:
    return np.array([O.card_code(c) for c in rules.cards()], np.int64)


# ---------------------------------------------------------------- small readers
@njit(cache=True, inline="always")
def seat_at(g, seat):
    return G_SEATS + SEAT_W * seat


@njit(cache=True, inline="always")
def tiles_in_play(players, tile):
    return tile <= 4 or players >= 4


@njit(cache=True, inline="always")
def powers(r, players, tile):
    """(may tomb, may obelisk, only one of the two) of a tile, besides the pyramid card: the
    compiled twin of `PyramidsRules.powers`."""
    if tile == HORUS:
        return False, False, False
    if tile == ANUBIS:
        return True, False, False
    if tile == KHEPRI:
        return False, True, False
    if tile == SEKHMET:
        return True, True, players >= 4 or r[R_SEKHMET_SMALL] == EITHER_SMALL
    return True, True, False          # THOTH


@njit(cache=True, inline="always")
def large_cells(r):
    return r[R_LARGE] == CELLS


@njit(cache=True)
def refresh_points(g, r, seat):
    """The seat's public pyramid and obelisk points, glyphs included (after it builds)."""
    at = seat_at(g, seat)
    codes = g[G_CODE:G_CODE + O.MAX_CARDS]
    a, b, c = B.pyramid_points(g[at + P_PYRAMID:at + P_PYRAMID + O.SLOTS], codes, large_cells(r),
                               r[R_BONUS], r[R_BONUS_GROUP], r[R_GLYPH])
    g[at + P_PYRAMID_POINTS] = a + b + c
    table = r[R_OBELISK:R_OBELISK + r[R_OBELISK_N]]
    d, e = B.obelisk_points(g[at + P_OBELISK:at + P_OBELISK + 10], g[at + P_OBELISK_N], codes, table,
                            r[R_GLYPH])
    g[at + P_OBELISK_POINTS] = d + e


@njit(cache=True, inline="always")
def _insert_sorted(g, at, n, card):
    """Put `card` into the ascending list g[at:at + n]."""
    i = n
    while i > 0 and g[at + i - 1] > card:
        g[at + i] = g[at + i - 1]
        i -= 1
    g[at + i] = card


@njit(cache=True, inline="always")
def _remove(g, at, n, card):
    """Take `card` out of the list g[at:at + n] (order kept)."""
    j = 0
    for i in range(n):
        if g[at + i] != card:
            g[at + j] = g[at + i]
            j += 1
    g[at + n - 1] = -1


# ---------------------------------------------------------------- a new game (§2)
@njit(cache=True)
def new_game(g, streams, r, codes, players, seed, game):
    """Deal game `game` into g and seed its streams; the seats' call tables are kept."""
    g[:G_CALL] = 0
    g[G_SEATS:] = 0
    key = game_key(seed, game)
    streams[S_DECK] = stream_of(key, DECK_STREAM)
    streams[S_TILE] = stream_of(key, TILE_STREAM)
    for p in range(players):
        streams[S_SEAT0 + p] = stream_of(key, PLAYER_STREAM_BASE + p)
    n = codes.shape[0]
    g[G_PLAYERS], g[G_N_CARDS] = players, n
    for c in range(O.MAX_CARDS):
        g[G_DECK + c] = c
        g[G_CODE + c] = codes[c] if c < n else -1
    g[G_QUARRY:G_QUARRY + 2 * MAX_PLAYERS] = -1
    g[G_OWNER:G_OWNER + 5] = -1
    for p in range(MAX_PLAYERS):
        at = seat_at(g, p)
        g[at + P_HAND:at + P_HAND + 3] = -1
        g[at + P_PYRAMID:at + P_PYRAMID + O.SLOTS] = -1
        g[at + P_OBELISK:at + P_OBELISK + 10] = -1
        g[at + P_TOMB:at + P_TOMB + 10] = -1
    first = 0
    if r[R_FIRST_RANDOM] == RANDOM_FIRST:
        _, first = split_below(stream_of(key, FIRST_STREAM), players)
    g[G_FIRST] = g[G_INITIAL_FIRST] = first
    for k in range(players):                  # one secret card each, from the first player
        seat = (first + k) % players
        card = _draw(g, streams, n)
        at = seat_at(g, seat)
        g[at + P_HAND] = card
        g[at + P_HAND_N] = 1
        g[G_LOC + card] = L_HAND * 8 + seat
    if players == 2:                          # one of the four tiles set aside at random
        streams[S_TILE], t = split_below(streams[S_TILE], 4)
        g[G_SET_ASIDE] = t + 1
    g[G_STAGE] = ST_STOCK


@njit(cache=True, inline="always")
def _draw(g, streams, n):
    """The next card of the deck: one forward Fisher-Yates step, as the reference's shuffle."""
    i = g[G_DECK_HEAD]
    s, card = draw_at(streams[S_DECK], g[G_DECK:G_DECK + n], i)
    streams[S_DECK] = s
    g[G_DECK_HEAD] = i + 1
    return card


# ---------------------------------------------------------------- the stages (§4)
@njit(cache=True, inline="always")
def _stock(g, streams):
    """§4.1: one face-up pair per player; the tiles of the round."""
    players, n = g[G_PLAYERS], g[G_N_CARDS]
    for i in range(2 * players):
        card = _draw(g, streams, n)
        g[G_QUARRY + i] = card
        g[G_LOC + card] = L_QUARRY * 8
        g[G_SEEN + card] = 1
    for t in range(1, 6):
        g[G_OFFERED + t - 1] = tiles_in_play(players, t) and t != g[G_SET_ASIDE]
        g[G_OWNER + t - 1] = -1
    g[G_K] = 0
    g[G_STAGE] = ST_TILE


@njit(cache=True, inline="always")
def _next_turn(g, r):
    """§4.3: the owner of the next tile in ascending order takes its turn; none left: the end
    of the round."""
    players = g[G_PLAYERS]
    for t in range(g[G_TILE_NEXT] + 1, 6):
        seat = g[G_OWNER + t - 1]
        if seat < 0:
            continue
        g[G_TILE_NEXT] = t
        may_tomb, may_obelisk, either = powers(r, players, t)
        g[T_SEAT], g[T_TILE] = seat, t
        g[T_PAIR] = g[T_PCARD] = g[T_PSPOT] = g[T_TOMB] = g[T_OBELISK] = -1
        g[T_MAY_TOMB], g[T_MAY_OBELISK], g[T_EITHER] = may_tomb, may_obelisk, either
        g[G_STAGE] = ST_PAIR
        return
    g[G_STAGE] = ST_ROUND_END


@njit(cache=True, inline="always")
def _end_round(g, streams, r):
    """§4.5: the 2-player tile rotation, the token to the left; after 10 rounds, the end."""
    players = g[G_PLAYERS]
    if players == 2:
        rule = r[R_TWO_PLAYER]
        if rule == TWO_ROTATE:
            for t in range(1, 5):
                if g[G_OFFERED + t - 1] and g[G_OWNER + t - 1] < 0:
                    g[G_SET_ASIDE] = t
                    break
        elif rule == TWO_RANDOM:
            streams[S_TILE], t = split_below(streams[S_TILE], 4)
            g[G_SET_ASIDE] = t + 1
        elif rule == TWO_RETURN:
            g[G_SET_ASIDE] = 0
    g[G_OWNER:G_OWNER + 5] = -1
    g[G_FIRST] = (g[G_FIRST] + 1) % players
    g[G_ROUND] += 1
    g[G_STAGE] = ST_END if g[G_ROUND] >= ROUNDS else ST_STOCK


@njit(cache=True, inline="always")
def _legal(g, r, stage):
    """The legal list of the stage's decision into G_LEGAL (the reference's order); its length,
    or 0 when the stage asks nothing (then it has moved the machine on)."""
    legal = G_LEGAL
    n = 0
    if stage == ST_TILE:
        for t in range(1, 6):
            if g[G_OFFERED + t - 1] and g[G_OWNER + t - 1] < 0:
                g[legal + n] = O.encode(O.A_TILE, -1, t)
                n += 1
        return n
    seat = g[T_SEAT]
    at = seat_at(g, seat)
    hand_n = g[at + P_HAND_N]
    if stage == ST_PAIR:
        for q in range(g[G_PLAYERS]):
            if g[G_QUARRY + 2 * q] >= 0:
                g[legal + n] = O.encode(O.A_PAIR, -1, q)
                n += 1
        return n
    if stage == ST_PYRAMID:
        m = B.pyramid_spots(g[at + P_PYRAMID:at + P_PYRAMID + O.SLOTS], r[R_UPPER] == CONTIGUOUS,
                            g[G_SPOTS:G_SPOTS + 8])
        for i in range(hand_n):
            for j in range(m):
                g[legal + n] = O.encode(O.A_PYRAMID, g[at + P_HAND + i], g[G_SPOTS + j])
                n += 1
        return n
    if stage == ST_TOMB or stage == ST_OBELISK:
        may = g[T_MAY_TOMB] if stage == ST_TOMB else g[T_MAY_OBELISK]
        if not may or hand_n == 0:
            g[G_STAGE] = stage + 1
            return 0
        kind = O.A_TOMB if stage == ST_TOMB else O.A_OBELISK
        g[legal] = O.SKIP
        for i in range(hand_n):
            g[legal + 1 + i] = O.encode(kind, g[at + P_HAND + i], -1)
        return hand_n + 1
    # ST_KEEP: building is over
    g[T_MAY_TOMB] = g[T_MAY_OBELISK] = 0
    if hand_n == 0 or r[R_KEEP_LIMIT] == 0:
        _discard_all(g, seat, -1)
        return 0
    for i in range(hand_n):
        g[legal + i] = O.encode(O.A_KEEP, g[at + P_HAND + i], -1)
    n = hand_n
    if r[R_KEEP_NONE]:
        g[legal + n] = O.KEEP_NONE
        n += 1
    return n


@njit(cache=True, inline="always")
def _discard_all(g, seat, keep):
    """§4.4: the hand but `keep` (or all, keep = -1) to the seat's discards; the turn ends."""
    at = seat_at(g, seat)
    for i in range(g[at + P_HAND_N]):
        c = g[at + P_HAND + i]
        if c != keep:
            g[G_LOC + c] = L_DISCARD * 8 + seat
            g[at + P_DISCARDS] += 1
        g[at + P_HAND + i] = -1
    if keep >= 0:
        g[at + P_HAND] = keep
        g[at + P_HAND_N] = 1
    else:
        g[at + P_HAND_N] = 0
    g[T_MAY_TOMB] = g[T_MAY_OBELISK] = 0
    g[T_SEAT] = -1
    g[G_STAGE] = ST_TURN


@njit(cache=True, inline="always")
def _from_hand(g, at, card):
    _remove(g, at + P_HAND, g[at + P_HAND_N], card)
    g[at + P_HAND_N] -= 1


@njit(cache=True, inline="always")
def _lay(g, at, seat, card, list_at, n_at, kind):
    """The card from the hand onto the seat's tomb or obelisk (list at + list_at, its length at
    at + n_at)."""
    _from_hand(g, at, card)
    g[at + list_at + g[at + n_at]] = card
    g[at + n_at] += 1
    g[G_LOC + card] = kind * 8 + seat


@njit(cache=True, inline="always")
def _apply(g, r, stage, action):
    """Carry out the stage's chosen action and move the machine on."""
    card, arg = O.action_card(action), O.action_arg(action)
    if stage == ST_TILE:
        players = g[G_PLAYERS]
        seat = _chooser(g)
        g[G_OWNER + arg - 1] = seat
        at = seat_at(g, seat)
        g[at + P_TILES] = 10 * g[at + P_TILES] + arg
        g[G_K] += 1
        if g[G_K] == players:
            g[G_TILE_NEXT] = 0
            g[G_STAGE] = ST_TURN
        return
    seat = g[T_SEAT]
    at = seat_at(g, seat)
    if stage == ST_PAIR:
        g[T_PAIR] = arg
        for i in range(2):
            c = g[G_QUARRY + 2 * arg + i]
            _insert_sorted(g, at + P_HAND, g[at + P_HAND_N], c)
            g[at + P_HAND_N] += 1
            g[G_LOC + c] = L_HAND * 8 + seat
            g[G_QUARRY + 2 * arg + i] = -1
        g[G_STAGE] = ST_PYRAMID
    elif stage == ST_PYRAMID:
        g[T_PCARD], g[T_PSPOT] = card, arg
        _from_hand(g, at, card)
        B.place(g[at + P_PYRAMID:at + P_PYRAMID + O.SLOTS], card, arg)
        g[G_LOC + card] = L_PYRAMID * 8 + seat
        g[at + P_STALE] = 1
        g[G_STAGE] = ST_TOMB
    elif stage == ST_TOMB:
        g[T_MAY_TOMB] = 0
        if card >= 0:
            g[T_TOMB] = card
            _lay(g, at, seat, card, P_TOMB, P_TOMB_N, L_TOMB)
            if g[T_EITHER]:
                g[T_MAY_OBELISK] = 0
        g[G_STAGE] = ST_OBELISK
    elif stage == ST_OBELISK:
        g[T_MAY_OBELISK] = 0
        if card >= 0:
            g[T_OBELISK] = card
            _lay(g, at, seat, card, P_OBELISK, P_OBELISK_N, L_OBELISK)
            g[at + P_STALE] = 1
        g[G_STAGE] = ST_KEEP
    else:   # ST_KEEP
        g[T_MAY_TOMB] = g[T_MAY_OBELISK] = 0
        _discard_all(g, seat, card)


@njit(cache=True, inline="always")
def _chooser(g):
    """The seat choosing the next tile: (first + k) mod players, without a division."""
    seat = g[G_FIRST] + g[G_K]
    return seat - g[G_PLAYERS] if seat >= g[G_PLAYERS] else seat


@njit(cache=True, inline="always")
def _decision_of(stage):
    return stage - 2 if stage >= ST_PAIR else O.D_TILE


@njit(cache=True)
def run(g, obs, streams, r, resume):
    """Play on until the game ends or a decision the machine does not take itself.

    Returns RUN_END, RUN_ILLEGAL (a strategy's index out of range: G_SEAT, G_IDX), RUN_ENDLESS,
    or n > 0: seat G_SEAT has decision G_DECISION among the n actions of G_LEGAL pending; call
    again with the chosen index as `resume` (-1 to start). `obs` is the (seats, SIZE) block of
    observation vectors."""
    # borrowed: else every inlined helper that takes them counts references (-20% of random
    # games' speed, through engine.decide)
    g, obs, streams, r = borrowed(g), borrowed(obs), borrowed(streams), borrowed(r)
    if resume >= 0:
        if not _take(g, r, resume):
            return RUN_ILLEGAL
    while True:
        stage = g[G_STAGE]
        if stage == ST_END:
            return RUN_END
        if stage == ST_STOCK:
            _stock(g, streams)
            continue
        if stage == ST_TURN:
            _next_turn(g, r)
            continue
        if stage == ST_ROUND_END:
            _end_round(g, streams, r)
            continue
        n = _legal(g, r, stage)
        if n == 0:
            continue
        g[G_DECISIONS] += 1
        if g[G_DECISIONS] > MAX_TURNS:
            return RUN_ENDLESS
        seat = _chooser(g) if stage == ST_TILE else g[T_SEAT]
        g[G_SEAT], g[G_DECISION], g[G_N_LEGAL] = seat, _decision_of(stage), n
        if n == 1:
            _apply(g, r, stage, g[G_LEGAL])
            continue
        idx, pending = engine.decide(g, G_CALLS, seat, n, obs, streams, S_SEAT0, r,
                                     fill_observation)
        if pending:
            g[G_PENDING] = 1
            return n
        if not _take(g, r, idx):
            return RUN_ILLEGAL


@njit(cache=True, inline="always")
def _take(g, r, idx):
    """Apply legal action `idx` of the pending decision; False if it is out of range."""
    g[G_PENDING] = 0
    g[G_IDX] = idx
    if idx < 0 or idx >= g[G_N_LEGAL]:
        return False
    _apply(g, r, g[G_STAGE], g[G_LEGAL + idx])
    return True


# ---------------------------------------------------------------- what a seat sees (§6)
@njit(cache=True)
def fill_observation(g, r, seat, obs):
    """The seat's vector, as reference.Game.observation writes it (CARD_CODE excepted: written
    once per game by `write_codes`)."""
    players = g[G_PLAYERS]
    obs[O.SEAT], obs[O.DECISION], obs[O.N_LEGAL], obs[O.LEGAL_AT] = \
        seat, g[G_DECISION], g[G_N_LEGAL], O.LEGAL
    obs[O.PLAYERS], obs[O.ROUND], obs[O.FIRST_PLAYER] = players, g[G_ROUND], g[G_FIRST]
    obs[O.SET_ASIDE], obs[O.N_CARDS] = g[G_SET_ASIDE], g[G_N_CARDS]
    obs[O.DECK_LEFT] = g[G_N_CARDS] - g[G_DECK_HEAD]
    own_tile = 0
    for t in range(1, 6):
        if g[G_OWNER + t - 1] == seat:
            own_tile = t
    obs[O.TURN_TILE] = own_tile
    mine = g[T_SEAT] == seat and g[G_STAGE] >= ST_PAIR and g[G_STAGE] <= ST_KEEP
    obs[O.TURN_PAIR] = g[T_PAIR] if mine else -1
    obs[O.TURN_PYRAMID_CARD] = g[T_PCARD] if mine else -1
    obs[O.TURN_PYRAMID_SPOT] = g[T_PSPOT] if mine else -1
    obs[O.TURN_TOMB] = g[T_TOMB] if mine else -1
    obs[O.TURN_OBELISK] = g[T_OBELISK] if mine else -1
    obs[O.MAY_TOMB] = g[T_MAY_TOMB] if mine else 0
    obs[O.MAY_OBELISK] = g[T_MAY_OBELISK] if mine else 0
    obs[O.R_MAY_KEEP_NONE], obs[O.R_KEEP_LIMIT] = r[R_KEEP_NONE], r[R_KEEP_LIMIT]
    obs[O.R_LARGE_CELLS] = large_cells(r)
    obs[O.R_UPPER_CONTIGUOUS] = r[R_UPPER] == CONTIGUOUS
    obs[O.R_TOMB_TIE], obs[O.R_TIE_BREAK_PYRAMID] = r[R_TOMB_TIE], r[R_TIE_BREAK] == TIE_PYRAMID
    obs[O.R_TOMB_COUNTS_PUBLIC], obs[O.R_BONUS_POINTS] = r[R_TOMB_PUBLIC], r[R_BONUS]
    obs[O.R_BONUS_GROUP], obs[O.R_TOMB_POINTS], obs[O.R_GLYPH_POINTS] = \
        r[R_BONUS_GROUP], r[R_TOMB_POINTS], r[R_GLYPH]
    obs[O.R_SEKHMET_EITHER] = powers(r, players, SEKHMET)[2]
    at = seat_at(g, seat)
    B.tomb_colours(g[at + P_TOMB:at + P_TOMB + 10], g[at + P_TOMB_N], g[G_CODE:G_CODE + O.MAX_CARDS],
                   large_cells(r), obs[O.OWN_TOMB_COLOURS:O.OWN_TOMB_COLOURS + B.N_COLOURS])
    for i in range(O.MAX_HAND):
        obs[O.HAND + i] = g[at + P_HAND + i]
    for t in range(5):
        obs[O.TILE_OFFERED + t] = g[G_OFFERED + t]
        obs[O.TILE_OWNER + t] = g[G_OWNER + t]
    for i in range(2 * MAX_PLAYERS):
        obs[O.QUARRY + i] = g[G_QUARRY + i]
    for s in range(MAX_PLAYERS):
        _observe_seat(g, r, obs, O.SEATS + O.SEAT_BLOCK * s, s, seat)
    _observe_locations(g, r, obs, seat)
    for i in range(g[G_N_LEGAL]):
        obs[O.LEGAL + i] = g[G_LEGAL + i]


@njit(cache=True)
def _observe_seat(g, r, obs, at, s, viewer):
    for i in range(O.S_PYRAMID, O.SEAT_BLOCK):
        obs[at + i] = -1
    if s >= g[G_PLAYERS]:
        for i in range(O.S_PYRAMID):
            obs[at + i] = 0
        return
    p = seat_at(g, s)
    if g[p + P_STALE]:
        refresh_points(g, r, s)
        g[p + P_STALE] = 0
    obs[at + O.S_HAND_SIZE] = g[p + P_HAND_N]
    obs[at + O.S_PYRAMID_N] = ROUNDS - _free_slots(g, p)
    obs[at + O.S_OBELISK_N] = g[p + P_OBELISK_N]
    obs[at + O.S_TOMB_N] = g[p + P_TOMB_N] if (s == viewer or r[R_TOMB_PUBLIC]) else -1
    obs[at + O.S_PYRAMID_POINTS] = g[p + P_PYRAMID_POINTS]
    obs[at + O.S_OBELISK_POINTS] = g[p + P_OBELISK_POINTS]
    for i in range(6, O.S_PYRAMID):
        obs[at + i] = 0
    for i in range(O.SLOTS):
        obs[at + O.S_PYRAMID + i] = g[p + P_PYRAMID + i]
    for i in range(10):
        obs[at + O.S_OBELISK + i] = g[p + P_OBELISK + i]
    if s == viewer:
        for i in range(10):
            obs[at + O.S_TOMB + i] = g[p + P_TOMB + i]


@njit(cache=True, inline="always")
def _free_slots(g, p):
    n = 0
    for i in range(O.SLOTS):
        if g[p + P_PYRAMID + i] < 0:
            n += 1
    return n


@njit(cache=True)
def _observe_locations(g, r, obs, viewer):
    """CARD_LOC: where each card is, as far as `viewer` knows (reference.card_locations)."""
    public_discards = r[R_DISCARDS_PUBLIC]
    for c in range(O.MAX_CARDS):
        loc = O.LOC_UNSEEN
        if c < g[G_N_CARDS]:
            code = g[G_LOC + c]
            kind, s = code >> 3, code & 7
            if kind == L_QUARRY:
                loc = O.LOC_QUARRY
            elif kind == L_PYRAMID:
                loc = O.LOC_PYRAMID + s
            elif kind == L_OBELISK:
                loc = O.LOC_OBELISK + s
            elif kind != L_DECK:
                if s == viewer:
                    if kind == L_HAND:
                        loc = O.LOC_HAND
                    elif kind == L_TOMB:
                        loc = O.LOC_TOMB + s
                    else:
                        loc = O.LOC_DISCARD
                elif kind == L_DISCARD and public_discards:
                    loc = O.LOC_DISCARD
                elif g[G_SEEN + c]:
                    loc = O.LOC_TAKEN + s
        obs[O.CARD_LOC + c] = loc


@njit(cache=True)
def write_codes(g, obs):
    """CARD_CODE of every seat's vector: the deck's codes, constant for a game."""
    for s in range(obs.shape[0]):
        for c in range(O.MAX_CARDS):
            obs[s, O.CARD_CODE + c] = g[G_CODE + c]


# ---------------------------------------------------------------- the end (§7)
N_PARTS = 5      # pyramid (groups), bonus, obelisk (stages), tomb (majorities), glyph


@njit(cache=True)
def score_parts(g, r, parts, counts):
    """parts[seat, k], k as reference.Game.score_parts: pyramid, bonus, obelisk, tomb, glyph;
    counts[seat, colour] is scratch (the tomb's stones)."""
    players = g[G_PLAYERS]
    codes = g[G_CODE:G_CODE + O.MAX_CARDS]
    cells = large_cells(r)
    for s in range(players):
        at = seat_at(g, s)
        groups, bonus, pg = B.pyramid_points(g[at + P_PYRAMID:at + P_PYRAMID + O.SLOTS], codes, cells,
                                             r[R_BONUS], r[R_BONUS_GROUP], r[R_GLYPH])
        table = r[R_OBELISK:R_OBELISK + r[R_OBELISK_N]]
        stages, og = B.obelisk_points(g[at + P_OBELISK:at + P_OBELISK + 10], g[at + P_OBELISK_N], codes,
                                      table, r[R_GLYPH])
        tomb = g[at + P_TOMB:at + P_TOMB + 10]
        B.tomb_colours(tomb, g[at + P_TOMB_N], codes, cells, counts[s])
        parts[s, 0], parts[s, 1], parts[s, 2] = groups, bonus, stages
        parts[s, 4] = pg + og + r[R_GLYPH] * B.tomb_glyphs(tomb, g[at + P_TOMB_N], codes)
    B.tomb_majorities(counts, players, r[R_TOMB_POINTS], r[R_TOMB_TIE], parts[:players, 3])


@njit(cache=True)
def final_result(g, r, scores, shares, parts, counts):
    """Scores and win shares into scores[players], shares[players] (§7.5), the parts into
    parts[players, N_PARTS]; counts[players, N_COLOURS] is scratch. Nothing is allocated: the
    caller keeps the arrays from game to game."""
    players = g[G_PLAYERS]
    score_parts(g, r, parts, counts)
    best = -1
    for s in range(players):
        scores[s] = parts[s, 0] + parts[s, 1] + parts[s, 2] + parts[s, 3] + parts[s, 4]
        best = max(best, scores[s])
    by_pyramid = r[R_TIE_BREAK] == TIE_PYRAMID
    top = -1
    if by_pyramid:
        for s in range(players):
            if scores[s] == best:
                top = max(top, _pyramid_score(g, r, parts, s))
    n = 0
    for s in range(players):
        won = scores[s] == best and (not by_pyramid or _pyramid_score(g, r, parts, s) == top)
        shares[s] = 1.0 if won else 0.0
        n += won
    for s in range(players):
        shares[s] /= n


@njit(cache=True, inline="always")
def _pyramid_score(g, r, parts, s):
    """The seat's pyramid points, its glyphs included (the tie-break, §7.5)."""
    return parts[s, 0] + parts[s, 1] + _pyramid_glyph_points(g, r, s)


@njit(cache=True, inline="always")
def _pyramid_glyph_points(g, r, s):
    at = seat_at(g, s)
    n = 0
    for i in range(O.SLOTS):
        c = g[at + P_PYRAMID + i]
        if c >= 0 and B.glyph_of(g[G_CODE + c]) == PYRAMID:
            n += 1
    return n * r[R_GLYPH]


# ---------------------------------------------------------------- batches
@njit(cache=True, nogil=True)
def _play_range(start, stop, first_game, seed, r, codes, players, calls, fns, prms, g, obs, streams,
                parts, counts, scores, shares, extras, errors):
    """Play games first_game + start .. first_game + stop - 1 into rows start .. stop - 1.
    `g`, `obs`, `streams`, `parts` and `counts` are scratch owned by the caller."""
    fn_addr, prm_addr, prm_len = engine.seat_tables(fns, prms, players)
    for row in range(start, stop):
        new_game(g, streams, r, codes, players, seed, first_game + row)
        engine.set_calls(g, G_CALLS, calls, fn_addr, prm_addr, prm_len, players)
        write_codes(g, obs)
        status = run(g, obs, streams, r, -1)
        while status > 0:    # a first-class function value the machine cannot call by address
            status = run(g, obs, streams, r,
                         engine.answer(fns, g, G_CALLS, g[G_SEAT], obs, streams, S_SEAT0))
        if status == RUN_ENDLESS:
            record_endless(errors, row)
            continue
        if status == RUN_ILLEGAL:
            record_illegal(errors, row, g[G_SEAT], g[G_IDX], g[G_N_LEGAL], g[G_ROUND], g[G_DECISION])
            continue
        final_result(g, r, scores[row], shares[row], parts, counts)
        for s in range(MAX_PLAYERS):
            at = seat_at(g, s)
            for k in range(N_PARTS):
                extras[row, k * MAX_PLAYERS + s] = parts[s, k] if s < players else -1
            extras[row, N_PARTS * MAX_PLAYERS + s] = g[at + P_TILES] if s < players else -1
        total = 0
        for s in range(players):
            total += g[seat_at(g, s) + P_DISCARDS]
        extras[row, 6 * MAX_PLAYERS] = g[G_INITIAL_FIRST]
        extras[row, 6 * MAX_PLAYERS + 1] = total


@njit(parallel=True, cache=True, nogil=True)
def play_block(seed, first_game, r, codes, players, calls, fns, prms, scores, shares, extras, errors,
               block):
    """Play games first_game .. first_game + len(scores) - 1 into the output rows, in blocks of
    `block` games (any block size gives the same results)."""
    n = scores.shape[0]
    n_blocks = (n + block - 1) // block
    for b in prange(n_blocks):
        g = np.zeros(G_SIZE, np.int64)
        obs = np.zeros((MAX_PLAYERS, O.SIZE), np.int64)
        streams = np.zeros(N_STREAMS, np.uint64)
        parts = np.zeros((MAX_PLAYERS, N_PARTS), np.int64)
        counts = np.zeros((MAX_PLAYERS, B.N_COLOURS), np.int64)
        _play_range(b * block, min(n, (b + 1) * block), first_game, seed, r, codes, players, calls,
                    fns, prms, g, obs, streams, parts, counts, scores, shares, extras, errors)


def play_batch(rules: PyramidsRules, players: int, seed: int, first_game: int, n_games: int,
               kernels, params, natives=None, block: int | None = None) -> Batch:
    """Same contract as `reference.play_batch`. kernels must be compiled with DECIDE_SIG;
    natives[seat] is RANDOM_POLICY for the core's `random` (run natively), or -1."""
    rules.check_players(players)
    calls, fns, prms = engine.lineup(kernels, params, natives, players, engine.SEAT_SLOTS)
    scores, shares, extras, errors = engine.outputs(n_games, players, len(EXTRAS), extras_by_column=True)
    if n_games > 0:
        play_block(np.uint64(seed), np.int64(first_game), pack_rules(rules), deck_codes(rules),
                   np.int64(players), calls, fns, prms, scores, shares, extras, errors,
                   np.int64(block or engine.blocks(n_games)))
    return engine.finish(first_game, scores, shares, extras, errors, EXTRAS, _where)


def _where(round_index: int, decision: int) -> str:
    return f"round {round_index} (0-based), {O.DECISION_NAMES[decision]} decision"
