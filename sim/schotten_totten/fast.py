"""Schotten Totten fast engine: numba-compiled, parallel over games, identical to `reference.py`.

Same contract as the Diamant fast engine: `play_batch(rules, players, seed, first_game, n_games,
kernels, params, natives=None) -> Batch`, bit-identical to `reference.play_batch` game by game
(same deal, same order of random draws, same legal-action lists, same claims and proofs).

Design:
  - the engine's state is private (hands as bit masks, piles as arrays with head and tail,
    sides, clocks, claimed stones); each seat has its own observation vector (observation.py),
    a mirror whose public entries the engine updates incrementally when the table changes, and
    which it completes (own hand, counters, the legal actions) only when that seat's strategy is
    actually called. So a strategy that writes into its vector changes neither the game nor what
    its opponent sees. A native kernel that reads nothing but N_LEGAL (the random policy) gets no
    vector at all.
  - a turn is a small state machine (claims, play, Scout draws and returns, draw) with one
    decision site: every decision with two or more legal actions goes through the same call.
    The machine is `run(work, streams, rules, resume)`, a loop: the stage the turn stands at
    lists its legal actions or moves on (`_between_turns`, `_claim_stage`, `_play_stage`,
    `_pile_stage`), the decision is taken (`_decide`) and applied (`_apply_play`,
    `_apply_claim`, `_apply_pile`). These functions are inlined into it; each gets the turn's
    scalars it reads and returns those it changes, so that they stay local variables of `run`
    (registers) for a whole call. It works on a state held entirely in the scratch rows `work`
    (the scalars in row W_STATE between calls; `new_game` deals a game into it): it plays
    until the game ends or until a decision it does not take itself (a strategy called from
    `_play_range` as a first-class function value, or the search's CALL_STOP / CALL_SHOW),
    and is resumed with the chosen index. Every other strategy, the search kernels included,
    it calls itself: natively (random, greedy) or through the address of its compiled body.
    `play_batch` plays through it, and the search strategies (search.py) use the same
    function as their forward model on states they rebuild from an observation, so their
    simulations follow exactly these rules.
  - the claim proof works on bit masks (formations.py); the strength of a complete side is
    cached until that side or its stone's environment changes.
  - as in the Diamant engine, a whole range of games is played in one function body, on borrowed
    (not reference-counted) views, with each seat's strategy in integer tables.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core import engine
from ..core.batch import Batch
from ..core.engine import record_endless, record_illegal
from ..core.errors import UsageError
from ..core.reference import MAX_TURNS
from ..core.nbutil import address_of, borrowed, call_decide, jit_address, view_at
from ..core.rng import PLAYER_STREAM_BASE, draw_at, split_below, stream_key
from . import observation as O
from . import policies as K
from .cards import CHIEF_2, DESERTER, FOG, MUD, N_CLAN, REDEPLOY, SCOUT, SHIELD
from .formations import CLAN_ALL, beats, best_key, lowest_bit, popcount, tally
from .reference import CLAN_STREAM, EXTRAS, FIRST_PLAYER_STREAM, TACTIC_STREAM
from .rules import MAX_STONES, SchottenTottenRules

# the packed rule vector: the declared rules in declaration order (`RuleSet.packed`), then
# R_TACTICS_OUT, a bit mask (bit i = card 54 + i) of the tactic cards out of the game; only
# `new_game` reads it, so 0, every card in play, is right for states rebuilt from an observation
_R = SchottenTottenRules
R_STONES, R_HAND, R_TACTICS = _R.slot("stones"), _R.slot("hand_size"), _R.slot("tactics")
R_ADJ, R_TOTAL, R_LIMIT = _R.slot("adjacent_to_win"), _R.slot("total_to_win"), _R.slot("tactic_limit")
R_CLAIM_TIMING, R_AUTO, R_REDEPLOY = _R.slot("claim_timing"), _R.slot("auto_claim"), _R.slot("redeploy")
R_NO_PLAY, R_BLOCKED_GAME = _R.slot("no_play"), _R.slot("blocked_game")
R_FIRST_PLAYER = _R.slot("first_player")
R_TACTICS_OUT = len(_R.packed_fields())
R_N = R_TACTICS_OUT + 1
AT_START, AFTER_PLAY = _R.code("claim_timing", "start-of-turn"), _R.code("claim_timing", "after-play")
MOVE, DISCARD_ONLY = _R.code("redeploy", "move-or-discard"), _R.code("redeploy", "discard")
NO_PLAY_BLOCKED, NO_PLAY_PASS = _R.code("no_play", "blocked"), _R.code("no_play", "pass")
BLOCKED_DRAW = _R.code("blocked_game", "draw")
BLOCKED_MORE_STONES = _R.code("blocked_game", "more-stones")
RANDOM_FIRST = _R.code("first_player", "random")


# stages of a turn
(ST_START, ST_CLAIM_START, ST_PLAY, ST_SCOUT_DRAW, ST_SCOUT_RETURN, ST_CLAIM_AFTER, ST_DRAW,
 ST_END) = range(8)

# rows of the per-thread scratch array (a game's whole state: see `new_game` and `run`)
(W_OBS0, W_OBS1, W_LEGAL, W_SIDE, W_SIDE_N, W_LAST, W_KEY, W_ENV, W_NEED, W_CLAN_PILE, W_TACTIC_PILE,
 W_PER_SEAT, W_SEAT_CALL, W_SEAT_FN, W_SEAT_PRM, W_SEAT_PRM_LEN, W_STATE, W_ROWS) = range(18)
W_WIDTH = max(O.SIZE, O.MAX_LEGAL, 64)
# columns of the W_PER_SEAT row (2 each); PS_DRAWN, PS_PLAYED: tactic cards drawn / played (masks)
PS_HAND_CLAN, PS_HAND_TACTIC, PS_TACTICS, PS_CHIEF, PS_HELD, PS_DRAWN, PS_PLAYED = 0, 2, 4, 6, 8, 10, 12
# columns of the W_STATE row: the turn machine's scalars between two calls of `run`
(S_STAGE, S_SEAT, S_TO_MOVE, S_TURNS, S_CLOCK, S_N_DISCARD, S_C_HEAD, S_C_TAIL, S_T_HEAD, S_T_TAIL,
 S_HIDDEN, S_OPEN, S_PREV_IDLE, S_ACTED, S_SCOUT_LEFT, S_RET_TOTAL, S_RET_DONE, S_CARDS_PLAYED,
 S_PROOF_CLAIMS, S_WINNER, S_END, S_N_LEGAL, S_DK, S_IDX, S_FIRST, S_SIZE) = range(26)
# what `run` returns, besides n > 0 (a decision it does not take itself)
RUN_END, RUN_ILLEGAL, RUN_ENDLESS = 0, -1, -2
END_ADJACENT, END_FIVE, END_BLOCKED = 0, 1, 2     # S_END, as reference.END_CODES

# how the engine calls a seat's strategy, besides the built-in codes of `policies`
CALL_JIT = 100   # through the address of its compiled body (`call_decide`)
CALL_FT = 101    # through the first-class function value (no compiled body: e.g. a cfunc)
CALL_STOP = 102  # not at all: `run` returns at its decisions (the search's own moves)
CALL_SHOW = 103  # not at all, like CALL_STOP, but with the deciding seat's vector filled

NO_KEY = -2      # strength cache: not computed


def pack_rules(rules: SchottenTottenRules) -> np.ndarray:
    """The rule vector: the declared rules (`RuleSet.packed`), then R_TACTICS_OUT."""
    in_play = rules.tactic_cards_in_play()
    out = sum(1 << (c - N_CLAN) for c in range(N_CLAN, N_CLAN + 10) if c not in in_play) \
        if rules.tactics else 0
    return np.append(rules.packed(), np.int64(out))


@njit(cache=True)
def pack_flags(r, stones, hand, tactics, adj, total, limit, at_start, auto, move, no_play_blocks,
               blocked_draw):
    """The rule vector of a game known by its rules' values and flags (as an observation shows
    them), into `r`; the rules no engine reads from the vector stay 0."""
    r[:] = 0
    r[R_STONES], r[R_HAND], r[R_TACTICS] = stones, hand, tactics
    r[R_ADJ], r[R_TOTAL], r[R_LIMIT], r[R_AUTO] = adj, total, limit, auto
    r[R_CLAIM_TIMING] = AT_START if at_start else AFTER_PLAY
    r[R_REDEPLOY] = MOVE if move else DISCARD_ONLY
    r[R_NO_PLAY] = NO_PLAY_BLOCKED if no_play_blocks else NO_PLAY_PASS
    r[R_BLOCKED_GAME] = BLOCKED_DRAW if blocked_draw else BLOCKED_MORE_STONES


# ---------------------------------------------------------------- the table's formations
@njit(cache=True, inline="always")
def _side_summary(side, side_n, k):
    """(clan cards, clan value sum, clan value mask, colour mask, chiefs, troops, shields)."""
    n_clan = vsum = vmask = cmask = nchief = ntroop = nshield = 0
    for i in range(side_n[k]):
        n_clan, vsum, vmask, cmask, nchief, ntroop, nshield = tally(
            side[4 * k + i], n_clan, vsum, vmask, cmask, nchief, ntroop, nshield)
    return n_clan, vsum, vmask, cmask, nchief, ntroop, nshield


@njit(cache=True, inline="always")
def _strength(side, side_n, key, k, need, fog):
    """Key of the complete formation on side k (cached in `key` until the side changes)."""
    if key[k] == NO_KEY:
        n_clan, vsum, vmask, cmask, nchief, ntroop, nshield = _side_summary(side, side_n, k)
        key[k] = best_key(n_clan, vsum, vmask, cmask, nchief, ntroop, nshield, need, fog, 0, 0)
    return key[k]


@njit(cache=True, inline="always")
def _can_claim(s, seat, side, side_n, last, key, env, need_of, hidden):
    """`Game.can_claim` of an unclaimed stone (`cards.wins_stone`)."""
    need = need_of[s]
    ko = 2 * s + seat
    if side_n[ko] < need:
        return False
    kt = ko ^ 1
    fog = env[s] & 1
    mine = _strength(side, side_n, key, ko, need, fog)
    if side_n[kt] >= need:
        theirs = _strength(side, side_n, key, kt, need, fog)
        return mine > theirs or (mine == theirs and last[ko] < last[kt])
    if fog == 0 and mine == 400 + need * (10 - need) + need * (need - 1) // 2:
        return True    # the top straight flush is unbeatable
    n_clan, vsum, vmask, cmask, nchief, ntroop, nshield = _side_summary(side, side_n, kt)
    return not beats(n_clan, vsum, vmask, cmask, nchief, ntroop, nshield, need, fog, hidden, mine)


# ---------------------------------------------------------------- changing the table
@njit(cache=True, inline="always")
def _pub(obs0, obs1, i, v):
    """A public entry of both seats' vectors."""
    obs0[i] = v
    obs1[i] = v


@njit(cache=True, inline="always")
def _claim(obs0, obs1, seat, stones, held, side_n, need_of, adj_run, total, open_m, proof_claims):
    """`seat` claims the stones of mask `stones`: publish them, add them to its holding, take
    them from the open stones `open_m`. Returns (the open stones, `proof_claims` plus the stones
    proved before the opponent completed its side, the end code the claim brings: END_ADJACENT,
    END_FIVE, or -1 for none)."""
    opp = 1 - seat
    rest = stones
    while rest != 0:
        s = lowest_bit(rest)
        rest &= rest - 1
        if side_n[2 * s + opp] < need_of[s]:
            proof_claims += 1
        _pub(obs0, obs1, O.CLAIMED + s, seat)
    held[seat] |= stones
    open_m &= ~stones
    h = held[seat]
    _pub(obs0, obs1, O.STONES_HELD + seat, popcount(h))
    run_m = h
    for i in range(adj_run):
        run_m &= h >> (i + 1)
    if run_m != 0:
        return open_m, proof_claims, END_ADJACENT
    if popcount(h) >= total:
        return open_m, proof_claims, END_FIVE
    return open_m, proof_claims, -1


@njit(cache=True, inline="always")
def _place(obs0, obs1, side, side_n, last, key, k, card, clock):
    i = side_n[k]
    side[4 * k + i] = card
    side_n[k] = i + 1
    last[k] = clock
    key[k] = NO_KEY
    _pub(obs0, obs1, O.SIDE + 4 * k + i, card)
    _pub(obs0, obs1, O.SIDE_N + k, i + 1)
    _pub(obs0, obs1, O.LAST_PLACED + k, clock)
    _pub(obs0, obs1, O.CARD_LOC + card, O.LOC_SIDE + k)


@njit(cache=True, inline="always")
def _take(obs0, obs1, side, side_n, key, k, card):
    """Remove `card` from side k (later cards move up, as `list.remove`)."""
    n = side_n[k]
    j = 0
    while side[4 * k + j] != card:
        j += 1
    for i in range(j, n - 1):
        side[4 * k + i] = side[4 * k + i + 1]
        _pub(obs0, obs1, O.SIDE + 4 * k + i, side[4 * k + i])
    side[4 * k + n - 1] = -1
    _pub(obs0, obs1, O.SIDE + 4 * k + n - 1, -1)
    side_n[k] = n - 1
    _pub(obs0, obs1, O.SIDE_N + k, n - 1)
    key[k] = NO_KEY


# ---------------------------------------------------------------- the scratch rows
@njit(cache=True, inline="always")
def _table(work):
    """Views of the table's rows: (side: 4 cards of each side k = 2 * stone + seat, -1 none;
    side_n: cards on each side; last: the clock when a card was last placed on each side; key:
    the strength cache; env: bit 0 Fog, bit 1 Mud, per stone; need_of: cards a side needs)."""
    return (borrowed(work[W_SIDE, :4 * 2 * MAX_STONES]), borrowed(work[W_SIDE_N, :2 * MAX_STONES]),
            borrowed(work[W_LAST, :2 * MAX_STONES]), borrowed(work[W_KEY, :2 * MAX_STONES]),
            borrowed(work[W_ENV, :MAX_STONES]), borrowed(work[W_NEED, :MAX_STONES]))


@njit(cache=True, inline="always")
def _hand_size(per_seat, p):
    return popcount(per_seat[PS_HAND_CLAN + p]) + popcount(per_seat[PS_HAND_TACTIC + p])


# ---------------------------------------------------------------- a new game
@njit(cache=True, inline="always")
def _fresh_vector(obs0, r):
    """Seat 0's vector at the start of a game of rules `r`, before the deal: the rules, every
    card unseen (the tactic cards boxed without tactics), nothing on the table."""
    n_stones, tactics = r[R_STONES], r[R_TACTICS]
    obs0[:O.LEGAL] = 0
    obs0[O.LEGAL_AT] = O.LEGAL
    obs0[O.STONES], obs0[O.HAND_LIMIT], obs0[O.TACTICS] = n_stones, r[R_HAND], tactics
    obs0[O.ADJACENT_TO_WIN], obs0[O.TOTAL_TO_WIN], obs0[O.TACTIC_LIMIT] = r[R_ADJ], r[R_TOTAL], r[R_LIMIT]
    obs0[O.CLAIM_AT_START] = 1 if r[R_CLAIM_TIMING] == AT_START else 0
    obs0[O.AUTO_CLAIM], obs0[O.REDEPLOY_MOVE] = r[R_AUTO], 1 if r[R_REDEPLOY] == MOVE else 0
    obs0[O.NO_PLAY_BLOCKS] = 1 if r[R_NO_PLAY] == NO_PLAY_BLOCKED else 0
    obs0[O.BLOCKED_DRAW] = 1 if r[R_BLOCKED_GAME] == BLOCKED_DRAW else 0
    obs0[O.HAND:O.HAND + O.MAX_HAND] = -1
    obs0[O.CLAIMED:O.CLAIMED + MAX_STONES] = -1
    obs0[O.SIDE:O.SIDE + 8 * MAX_STONES] = -1
    obs0[O.DISCARD:O.DISCARD + O.MAX_DISCARD] = -1
    obs0[O.CARD_LOC:O.CARD_LOC + O.N_CARDS] = O.LOC_UNSEEN
    if not tactics:
        obs0[O.CARD_LOC + N_CLAN:O.CARD_LOC + O.N_CARDS] = O.LOC_BOX
    for s in range(n_stones):
        obs0[O.NEED + s] = 3


@njit(cache=True, inline="always")
def _deal_clans(deck, per_seat, hand_size, seed, game):
    """The clan deck shuffled with its stream into `deck`; seat 0's hand is its first hand_size
    cards, seat 1's the next."""
    for i in range(N_CLAN):
        deck[i] = i
    st = stream_key(seed, game, CLAN_STREAM)
    for i in range(N_CLAN - 1):
        st, _ = draw_at(st, deck, i)
    for p in range(2):
        m = 0
        for i in range(p * hand_size, (p + 1) * hand_size):
            m |= 1 << deck[i]
        per_seat[PS_HAND_CLAN + p] = m


@njit(cache=True, inline="always")
def _shuffle_tactics(tdeck, obs0, out, seed, game):
    """All ten tactic cards shuffled with their stream into `tdeck`, then the cards of mask `out`
    (bit card - 54) taken out of the game (boxed in `obs0`), the order kept. Returns the pile's
    size."""
    for i in range(10):
        tdeck[i] = N_CLAN + i
    st = stream_key(seed, game, TACTIC_STREAM)
    for i in range(9):
        st, _ = draw_at(st, tdeck, i)
    t_tail = 0
    for i in range(10):
        c = tdeck[i]
        if (out >> (c - N_CLAN)) & 1:
            obs0[O.CARD_LOC + c] = O.LOC_BOX
        else:
            tdeck[t_tail] = c
            t_tail += 1
    return t_tail


@njit(cache=True, nogil=True)
def new_game(work, streams, r, seed, game):
    """Deal game `game` under `seed` into the scratch `work` (W_ROWS x width: the engine's whole
    state, the turn machine's scalars in row W_STATE), reset both seats' vectors and seed both
    seats' streams. `run` then plays it."""
    obs0 = borrowed(work[W_OBS0, :O.SIZE])
    obs1 = borrowed(work[W_OBS1, :O.SIZE])
    side, side_n, last, key, env, need_of = _table(work)
    per_seat = borrowed(work[W_PER_SEAT, :16])
    state = borrowed(work[W_STATE, :S_SIZE])
    hand_size = r[R_HAND]
    _fresh_vector(obs0, r)
    side[:] = -1
    side_n[:] = 0
    last[:] = 0
    key[:] = NO_KEY
    env[:] = 0
    need_of[:] = 3
    per_seat[:] = 0
    _deal_clans(borrowed(work[W_CLAN_PILE, :N_CLAN]), per_seat, hand_size, seed, game)
    t_tail = 0
    if r[R_TACTICS]:
        t_tail = _shuffle_tactics(borrowed(work[W_TACTIC_PILE, :10]), obs0, r[R_TACTICS_OUT], seed, game)
    to_move = 0
    if r[R_FIRST_PLAYER] == RANDOM_FIRST:
        st = stream_key(seed, game, FIRST_PLAYER_STREAM)
        st, to_move = split_below(st, 2)
    obs0[O.FIRST] = to_move
    obs1[:O.LEGAL] = obs0[:O.LEGAL]
    for p in range(2):
        streams[p] = stream_key(seed, game, PLAYER_STREAM_BASE + p)
    state[:] = 0
    state[S_STAGE] = ST_START
    state[S_TO_MOVE] = state[S_FIRST] = to_move
    state[S_C_HEAD], state[S_C_TAIL] = 2 * hand_size, N_CLAN
    state[S_T_HEAD], state[S_T_TAIL] = 0, t_tail
    state[S_HIDDEN] = CLAN_ALL     # clan cards in a pile or a hand (what the proof may not rule out)
    state[S_OPEN] = (1 << r[R_STONES]) - 1
    state[S_WINNER] = -1
    state[S_END] = -1


# ---------------------------------------------------------------- the turn machine: legal actions
@njit(cache=True, inline="always")
def _at_stones(legal, n, kind, c, stones):
    """Append action `kind` of card c (-1: none) at each stone of the mask `stones` to the n
    actions in `legal`; returns the new count."""
    while stones != 0:
        legal[n] = O.encode(kind, c, lowest_bit(stones), -1, -1, -1)
        stones &= stones - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _to_stones(legal, n, kind, c, s, t, dests):
    """Append action `kind` of card c moving card t from stone s to each stone of `dests`."""
    while dests != 0:
        legal[n] = O.encode(kind, c, s, t, lowest_bit(dests), -1)
        dests &= dests - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _of_cards(legal, n, kind, clan, tactic):
    """Append action `kind` of each card of a hand (bit masks of its clan and tactic cards)."""
    while clan != 0:
        legal[n] = O.encode(kind, lowest_bit(clan), -1, -1, -1, -1)
        clan &= clan - 1
        n += 1
    while tactic != 0:
        legal[n] = O.encode(kind, N_CLAN + lowest_bit(tactic), -1, -1, -1, -1)
        tactic &= tactic - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _provable(seat, open_m, side, side_n, last, key, env, need_of, hidden):
    """The open stones `seat` can claim now (mask)."""
    prov = 0
    rest = open_m
    while rest != 0:
        s = lowest_bit(rest)
        rest &= rest - 1
        if _can_claim(s, seat, side, side_n, last, key, env, need_of, hidden):
            prov |= 1 << s
    return prov


@njit(cache=True, inline="always")
def _with_room(seat, open_m, side_n, need_of):
    """The open stones where `seat`'s side still takes a card (mask)."""
    room = 0
    rest = open_m
    while rest != 0:
        s = lowest_bit(rest)
        rest &= rest - 1
        if side_n[2 * s + seat] < need_of[s]:
            room |= 1 << s
    return room


@njit(cache=True, inline="always")
def _without_env(open_m, env, bit):
    """The open stones without environment `bit` (1 Fog, 2 Mud) under them (mask)."""
    free = 0
    rest = open_m
    while rest != 0:
        s = lowest_bit(rest)
        rest &= rest - 1
        if (env[s] & bit) == 0:
            free |= 1 << s
    return free


@njit(cache=True, inline="always")
def _ruse_actions(legal, n, c, seat, open_m, room, side, side_n, move):
    """Append the actions of ruse card c (Redeploy: a card of one's own side to another stone
    with room, or discarded; Deserter: an opposing card discarded; Traitor: an opposing clan
    card to one's own side)."""
    owner = seat if c == REDEPLOY else 1 - seat
    rest = open_m
    while rest != 0:
        s = lowest_bit(rest)
        rest &= rest - 1
        k = 2 * s + owner
        others = room & ~(1 << s)
        for i in range(side_n[k]):
            t = side[4 * k + i]
            if c == REDEPLOY:
                legal[n] = O.encode(O.REDEPLOY, c, s, t, -1, -1)
                n += 1
                if move:
                    n = _to_stones(legal, n, O.REDEPLOY, c, s, t, others)
            elif c == DESERTER:
                legal[n] = O.encode(O.DESERTER, c, s, t, -1, -1)
                n += 1
            elif t < N_CLAN:
                n = _to_stones(legal, n, O.TRAITOR, c, s, t, others)
    return n


@njit(cache=True, inline="always")
def _tactic_actions(legal, n, seat, per_seat, open_m, room, side, side_n, env, move):
    """Append the plays of `seat`'s tactic cards: troops (the Chiefs while neither is on the
    table, Shield) at stones with room, Fog and Mud under open stones without them, the Scout,
    the ruses (`_ruse_actions`)."""
    ht = per_seat[PS_HAND_TACTIC + seat]
    while ht != 0:
        c = N_CLAN + lowest_bit(ht)
        ht &= ht - 1
        if c <= SHIELD:
            if c > CHIEF_2 or per_seat[PS_CHIEF + seat] == 0:
                n = _at_stones(legal, n, O.PLAY, c, room)
        elif c == FOG or c == MUD:
            n = _at_stones(legal, n, O.PLAY, c, _without_env(open_m, env, 1 if c == FOG else 2))
        elif c == SCOUT:
            legal[n] = O.encode(O.SCOUT, c, -1, -1, -1, -1)
            n += 1
        else:
            n = _ruse_actions(legal, n, c, seat, open_m, room, side, side_n, move)
    return n


@njit(cache=True, inline="always")
def _play_actions(legal, seat, per_seat, open_m, side, side_n, env, need_of, tactics, limit, move):
    """The legal actions of a play decision into `legal`: every clan card at every stone with
    room, then the tactic cards (while `seat` has played fewer than `limit` more than its
    opponent), then PASS when no clan card can be played. Returns (n, a clan card can be played)."""
    room = _with_room(seat, open_m, side_n, need_of)
    n = 0
    hc = per_seat[PS_HAND_CLAN + seat]
    while hc != 0:
        n = _at_stones(legal, n, O.PLAY, lowest_bit(hc), room)
        hc &= hc - 1
    if tactics and per_seat[PS_TACTICS + seat] - per_seat[PS_TACTICS + 1 - seat] < limit:
        n = _tactic_actions(legal, n, seat, per_seat, open_m, room, side, side_n, env, move)
    any_clan = per_seat[PS_HAND_CLAN + seat] != 0 and room != 0
    if not any_clan:
        legal[n] = O.PASS
        n += 1
    return n, any_clan


@njit(cache=True, inline="always")
def _draw_actions(legal, c_head, c_tail, t_head, t_tail):
    """A draw from each pile that is not empty; returns their number."""
    n = 0
    if c_head < c_tail:
        legal[n] = O.encode(O.DRAW, -1, -1, -1, -1, O.PILE_CLAN)
        n += 1
    if t_head < t_tail:
        legal[n] = O.encode(O.DRAW, -1, -1, -1, -1, O.PILE_TACTIC)
        n += 1
    return n


# ---------------------------------------------------------------- the turn machine: deciding
@njit(cache=True, inline="always")
def _hide_hand(obs, clan, tactic):
    """Mark a hand (bit masks of its clan and tactic cards) unseen again in its owner's vector,
    which shows it only while the owner decides."""
    while clan != 0:
        obs[O.CARD_LOC + lowest_bit(clan)] = O.LOC_UNSEEN
        clan &= clan - 1
    while tactic != 0:
        obs[O.CARD_LOC + N_CLAN + lowest_bit(tactic)] = O.LOC_UNSEEN
        tactic &= tactic - 1


@njit(cache=True, inline="always")
def _show(obs, per_seat, legal, n, seat, dk, turns, idle, ret_done, clan_pile, tactic_pile, n_discard):
    """Complete the deciding seat's vector: the decision and its counters, the seat's own hand
    (listed, and located in CARD_LOC), the n legal actions."""
    obs[O.SEAT], obs[O.DECISION], obs[O.TURN], obs[O.IDLE] = seat, dk, turns, idle
    obs[O.SCOUT_RETURNS] = 2 - ret_done if dk == O.D_SCOUT_RETURN else 0
    obs[O.CLAN_PILE], obs[O.TACTIC_PILE] = clan_pile, tactic_pile
    obs[O.N_DISCARD], obs[O.N_LEGAL] = n_discard, n
    for p in range(2):
        obs[O.HAND_SIZE + p] = _hand_size(per_seat, p)
        obs[O.TACTICS_PLAYED + p] = per_seat[PS_TACTICS + p]
        obs[O.CHIEF_PLAYED + p] = per_seat[PS_CHIEF + p]
    j = 0
    hc = per_seat[PS_HAND_CLAN + seat]
    while hc != 0:
        c = lowest_bit(hc)
        hc &= hc - 1
        obs[O.HAND + j] = c
        obs[O.CARD_LOC + c] = O.LOC_HAND + seat
        j += 1
    ht = per_seat[PS_HAND_TACTIC + seat]
    while ht != 0:
        c = N_CLAN + lowest_bit(ht)
        ht &= ht - 1
        obs[O.HAND + j] = c
        obs[O.CARD_LOC + c] = O.LOC_HAND + seat
        j += 1
    for i in range(j, O.MAX_HAND):
        obs[O.HAND + i] = -1
    for i in range(n):
        obs[O.LEGAL + i] = legal[i]


@njit(cache=True, inline="always")
def _seat_vector(work, seat):
    """The vector of `seat` (row W_OBS0 + seat of the scratch)."""
    return view_at(address_of(work) + 8 * work.shape[1] * (W_OBS0 + seat), O.SIZE, np.int64)


@njit(cache=True, inline="always")
def _decide(work, streams, per_seat, legal, n, seat, dk, turns, idle, ret_done, clan_pile,
            tactic_pile, n_discard):
    """`seat`'s choice among the n > 1 legal actions, by its strategy's code (row W_SEAT_CALL):
    (index, False), or (0, True) when the decision is taken outside (CALL_STOP: the vector not
    filled; CALL_FT, CALL_SHOW: filled, the hand shown until the resume)."""
    call = work[W_SEAT_CALL, seat]
    if call == K.RANDOM_POLICY:     # reads only N_LEGAL: no observation to fill
        st, idx = split_below(streams[seat], n)
        streams[seat] = st
        return idx, False
    if call == CALL_STOP:
        return 0, True
    obs = _seat_vector(work, seat)
    _show(obs, per_seat, legal, n, seat, dk, turns, idle, ret_done, clan_pile, tactic_pile, n_discard)
    if call == CALL_JIT or call == K.GREEDY:
        prm = view_at(work[W_SEAT_PRM, seat], work[W_SEAT_PRM_LEN, seat], np.float64)
        rng = view_at(address_of(streams) + 8 * seat, 1, np.uint64)
        if call == CALL_JIT:
            idx = call_decide(work[W_SEAT_FN, seat], obs, prm, rng)
        else:
            idx = K.greedy_policy(obs, prm, rng)
    else:       # decided outside: the vector stays filled until the resume
        return 0, True
    # the hand is shown only to its owner, only now (from the engine's own state: the
    # strategy may have written into its vector)
    _hide_hand(obs, per_seat[PS_HAND_CLAN + seat], per_seat[PS_HAND_TACTIC + seat])
    return idx, False


@njit(cache=True, inline="always")
def _unshow(work, per_seat, seat):
    """Back from a decision taken outside: `seat`'s hand unseen again in its vector, if
    `_decide` showed it (to every call but the random policy and CALL_STOP)."""
    call = work[W_SEAT_CALL, seat]
    if call != K.RANDOM_POLICY and call != CALL_STOP:
        _hide_hand(_seat_vector(work, seat), per_seat[PS_HAND_CLAN + seat],
                   per_seat[PS_HAND_TACTIC + seat])


# ---------------------------------------------------------------- the turn machine: applying
@njit(cache=True, inline="always")
def _from_hand(per_seat, seat, c, hidden):
    """Card c leaves `seat`'s hand for the table (the seat's tactic counters updated); returns
    the mask of hidden clan cards without it."""
    if c < N_CLAN:
        per_seat[PS_HAND_CLAN + seat] &= ~(1 << c)
        return hidden & ~(1 << c)
    b = 1 << (c - N_CLAN)
    per_seat[PS_HAND_TACTIC + seat] &= ~b
    per_seat[PS_TACTICS + seat] += 1
    per_seat[PS_PLAYED + seat] |= b
    if c <= CHIEF_2:
        per_seat[PS_CHIEF + seat] = 1
    return hidden


@njit(cache=True, inline="always")
def _lay_environment(obs0, obs1, key, env, need_of, s, c):
    """Fog or Mud (card c) under stone s: its sides' strengths are computed anew."""
    if c == FOG:
        env[s] |= 1
        _pub(obs0, obs1, O.FOG + s, 1)
    else:
        env[s] |= 2
        need_of[s] = 4
        _pub(obs0, obs1, O.MUD + s, 1)
        _pub(obs0, obs1, O.NEED + s, 4)
    key[2 * s] = NO_KEY
    key[2 * s + 1] = NO_KEY
    _pub(obs0, obs1, O.CARD_LOC + c, O.LOC_ENV + s)


@njit(cache=True, inline="always")
def _discard(obs0, obs1, c, n_discard):
    """Card c onto the discard (face up beside the tactic pile); returns the discard's size."""
    _pub(obs0, obs1, O.DISCARD + n_discard, c)
    _pub(obs0, obs1, O.CARD_LOC + c, O.LOC_DISCARD)
    return n_discard + 1


@njit(cache=True, inline="always")
def _apply_ruse(obs0, obs1, a, seat, side, side_n, last, key, clock, n_discard):
    """The card the ruse action `a` of `seat` targets leaves its side, for the discard or for
    its destination on `seat`'s side. Returns (clock, discard size)."""
    kind = a & 15
    s, t, d = O.action_stone(a), O.action_target(a), O.action_dest(a)
    owner = seat if kind == O.REDEPLOY else 1 - seat
    _take(obs0, obs1, side, side_n, key, 2 * s + owner, t)
    if kind == O.DESERTER or d < 0:
        return clock, _discard(obs0, obs1, t, n_discard)
    clock += 1
    _place(obs0, obs1, side, side_n, last, key, 2 * d + seat, t, clock)
    return clock, n_discard


@njit(cache=True, inline="always")
def _apply_play(obs0, obs1, a, seat, per_seat, table, rules, scout_left, acted, hidden, clock,
                n_discard, cards_played):
    """ST_PLAY's action `a` of `seat`: a pass, or a card from the hand to a side, under a stone,
    or (the Scout and the ruses) onto the discard, with the ruse's effect. Returns (the next
    stage, scout_left, acted, hidden clan cards, clock, discard size, cards played)."""
    after = _next_stage(ST_PLAY, rules)
    if (a & 15) == O.PASS:
        return after, scout_left, acted | ACTED_PASS, hidden, clock, n_discard, cards_played
    side, side_n, last, key, env, need_of = table
    c = O.action_card(a)
    hidden = _from_hand(per_seat, seat, c, hidden)
    if (a & 15) == O.PLAY:
        s = O.action_stone(a)
        if c == FOG or c == MUD:
            _lay_environment(obs0, obs1, key, env, need_of, s, c)
        else:
            clock += 1
            _place(obs0, obs1, side, side_n, last, key, 2 * s + seat, c, clock)
        return after, scout_left, acted, hidden, clock, n_discard, cards_played + 1
    n_discard = _discard(obs0, obs1, c, n_discard)
    if (a & 15) == O.SCOUT:
        return ST_SCOUT_DRAW, 3, acted, hidden, clock, n_discard, cards_played + 1
    clock, n_discard = _apply_ruse(obs0, obs1, a, seat, side, side_n, last, key, clock, n_discard)
    return after, scout_left, acted, hidden, clock, n_discard, cards_played + 1


@njit(cache=True, inline="always")
def _apply_claim(obs0, obs1, a, stage, seat, table, held, rules, open_m, proof_claims, acted):
    """A claim decision's action `a`: END_CLAIMS (the claims are over), or a stone claimed.
    Returns (the stage, the open stones, the proof count, acted, the end code of a claim that
    wins the game or -1)."""
    if (a & 15) == O.END_CLAIMS:
        return _next_stage(stage, rules), open_m, proof_claims, acted, -1
    open_m, proof_claims, e = _claim(obs0, obs1, seat, 1 << O.action_stone(a), held, table[1],
                                     table[5], rules[RS_ADJ_RUN], rules[RS_TOTAL], open_m, proof_claims)
    return stage, open_m, proof_claims, acted | ACTED_CLAIM, e


@njit(cache=True, inline="always")
def _apply_draw(a, seat, per_seat, cpile, tpile, c_head, t_head):
    """`seat` draws the top card of the pile of action `a`; returns the piles' new heads."""
    if O.action_pile(a) == O.PILE_CLAN:
        per_seat[PS_HAND_CLAN + seat] |= 1 << cpile[c_head]
        return c_head + 1, t_head
    b = 1 << (tpile[t_head] - N_CLAN)
    per_seat[PS_HAND_TACTIC + seat] |= b
    per_seat[PS_DRAWN + seat] |= b
    return c_head, t_head + 1


@njit(cache=True, inline="always")
def _apply_return(c, seat, per_seat, cpile, tpile, c_tail, t_tail):
    """`seat` puts card c from its hand under its pile (the Scout); returns the piles' new tails."""
    if c < N_CLAN:
        per_seat[PS_HAND_CLAN + seat] &= ~(1 << c)
        cpile[c_tail] = c
        return c_tail + 1, t_tail
    per_seat[PS_HAND_TACTIC + seat] &= ~(1 << (c - N_CLAN))
    tpile[t_tail] = c
    return c_tail, t_tail + 1


@njit(cache=True, inline="always")
def _apply_pile(a, stage, seat, per_seat, cpile, tpile, acted, scout_left, ret_done, c_head,
                c_tail, t_head, t_tail):
    """A draw (ST_DRAW, ST_SCOUT_DRAW) or a Scout's return (ST_SCOUT_RETURN): action `a`.
    Returns (the stage, acted, scout_left, ret_done, c_head, c_tail, t_head, t_tail)."""
    if stage == ST_SCOUT_RETURN:
        c_tail, t_tail = _apply_return(O.action_card(a), seat, per_seat, cpile, tpile, c_tail, t_tail)
        return stage, acted, scout_left, ret_done + 1, c_head, c_tail, t_head, t_tail
    c_head, t_head = _apply_draw(a, seat, per_seat, cpile, tpile, c_head, t_head)
    if stage == ST_DRAW:
        return ST_END, acted | ACTED_DRAW, scout_left, ret_done, c_head, c_tail, t_head, t_tail
    return stage, acted, scout_left - 1, ret_done, c_head, c_tail, t_head, t_tail


# ---------------------------------------------------------------- the turn machine: stages
# `run` keeps the turn's scalars in local variables, which LLVM keeps in registers: each stage
# function gets those it reads and returns those it changes (not one record of them all, nor
# the W_STATE row: both measured slower, docs/engine-performance.md).
(RS_TACTICS, RS_ADJ_RUN, RS_TOTAL, RS_LIMIT, RS_AT_START, RS_AUTO, RS_MOVE, RS_HAND,
 RS_NO_PLAY_BLOCKS, RS_BLOCKED_DRAW) = range(10)
ACTED_CLAIM, ACTED_DRAW, ACTED_PASS = 1, 2, 4    # what the seat did in its turn (S_ACTED)
GO_ON = -3      # (status) no end, no decision: the turn goes on


@njit(cache=True, inline="always")
def _rule_scalars(r):
    """The rules the turn machine reads, a tuple indexed by the RS_* names."""
    return (r[R_TACTICS], r[R_ADJ] - 1, r[R_TOTAL], r[R_LIMIT], r[R_CLAIM_TIMING] == AT_START,
            r[R_AUTO] != 0, r[R_REDEPLOY] == MOVE, r[R_HAND], r[R_NO_PLAY] == NO_PLAY_BLOCKED,
            r[R_BLOCKED_GAME] == BLOCKED_DRAW)


@njit(cache=True, inline="always")
def _rows(work):
    """Views of the scratch rows the turn machine changes: (each seat's vector: public entries
    are written to both, as the table changes; the legal actions; the clan and tactic piles;
    the per-seat row; the stones each seat holds, bit stone; the W_STATE row)."""
    per_seat = borrowed(work[W_PER_SEAT, :16])
    return (borrowed(work[W_OBS0, :O.SIZE]), borrowed(work[W_OBS1, :O.SIZE]),
            borrowed(work[W_LEGAL, :O.MAX_LEGAL]), borrowed(work[W_CLAN_PILE, :64]),
            borrowed(work[W_TACTIC_PILE, :16]), per_seat, borrowed(per_seat[PS_HELD:PS_HELD + 2]),
            borrowed(work[W_STATE, :S_SIZE]))


@njit(cache=True, inline="always")
def _load(state):
    """The turn machine's scalars from the W_STATE row, in `run`'s order (as `_store`)."""
    return (state[S_STAGE], state[S_SEAT], state[S_TO_MOVE], state[S_TURNS], state[S_CLOCK],
            state[S_N_DISCARD], state[S_C_HEAD], state[S_C_TAIL], state[S_T_HEAD], state[S_T_TAIL],
            state[S_HIDDEN], state[S_OPEN], state[S_PREV_IDLE], state[S_ACTED], state[S_SCOUT_LEFT],
            state[S_RET_TOTAL], state[S_RET_DONE], state[S_CARDS_PLAYED], state[S_PROOF_CLAIMS],
            state[S_END], state[S_N_LEGAL], state[S_DK])


@njit(cache=True, inline="always")
def _store(state, t):
    """The turn machine's scalars `t` (as `_load` returns them) into the W_STATE row."""
    (state[S_STAGE], state[S_SEAT], state[S_TO_MOVE], state[S_TURNS], state[S_CLOCK],
     state[S_N_DISCARD], state[S_C_HEAD], state[S_C_TAIL], state[S_T_HEAD], state[S_T_TAIL],
     state[S_HIDDEN], state[S_OPEN], state[S_PREV_IDLE], state[S_ACTED], state[S_SCOUT_LEFT],
     state[S_RET_TOTAL], state[S_RET_DONE], state[S_CARDS_PLAYED], state[S_PROOF_CLAIMS],
     state[S_END], state[S_N_LEGAL], state[S_DK]) = t


@njit(cache=True, inline="always")
def _next_stage(stage, rules):
    """The stage after `stage`, once it is over."""
    if stage == ST_CLAIM_START:
        return ST_PLAY
    if stage == ST_SCOUT_DRAW:
        return ST_SCOUT_RETURN
    if stage == ST_PLAY or stage == ST_SCOUT_RETURN:
        return ST_DRAW if rules[RS_AT_START] else ST_CLAIM_AFTER
    if stage == ST_CLAIM_AFTER:
        return ST_DRAW
    return ST_END


@njit(cache=True, inline="always")
def _decision_kind(stage):
    """The decision (O.D_*) a stage's legal actions are for."""
    if stage == ST_PLAY:
        return O.D_PLAY
    if stage == ST_DRAW:
        return O.D_DRAW
    if stage == ST_SCOUT_DRAW:
        return O.D_SCOUT_DRAW
    if stage == ST_SCOUT_RETURN:
        return O.D_SCOUT_RETURN
    return O.D_CLAIM


@njit(cache=True, inline="always")
def _between_turns(stage, seat, to_move, turns, prev_idle, acted, rules):
    """ST_END: the turn counted; a second idle turn in a row (a pass and nothing else) blocks the
    game, else the other seat is to move. ST_START: the seat to move begins its turn, unless
    MAX_TURNS turns were played. Returns (GO_ON, RUN_END (blocked) or RUN_ENDLESS, the stage,
    seat, to_move, turns, prev_idle, acted)."""
    if stage == ST_START:
        if turns >= MAX_TURNS:
            return RUN_ENDLESS, stage, seat, to_move, turns, prev_idle, acted
        first = ST_CLAIM_START if rules[RS_AT_START] else ST_PLAY
        return GO_ON, first, to_move, to_move, turns, prev_idle, 0
    idle = 1 if acted == ACTED_PASS else 0
    if idle and prev_idle:
        return RUN_END, stage, seat, to_move, turns + 1, prev_idle, acted
    return GO_ON, ST_START, seat, 1 - seat, turns + 1, idle, acted


@njit(cache=True, inline="always")
def _claim_stage(obs0, obs1, legal, table, held, rules, seat, open_m, hidden, proof_claims, acted):
    """ST_CLAIM_START, ST_CLAIM_AFTER: the stones `seat` can prove now, claimed at once (rule
    auto_claim) or listed, with END_CLAIMS, for a decision a claim at a time. Returns (the
    number of legal actions (0: none), the open stones, the proof count, acted, the end code of
    a claim that wins the game or -1)."""
    side, side_n, last, key, env, need_of = table
    prov = _provable(seat, open_m, side, side_n, last, key, env, need_of, hidden)
    if prov == 0:
        return 0, open_m, proof_claims, acted, -1
    if rules[RS_AUTO]:
        open_m, proof_claims, e = _claim(obs0, obs1, seat, prov, held, side_n, need_of,
                                         rules[RS_ADJ_RUN], rules[RS_TOTAL], open_m, proof_claims)
        return 0, open_m, proof_claims, acted | ACTED_CLAIM, e
    n = _at_stones(legal, 0, O.CLAIM, -1, prov)
    legal[n] = O.END_CLAIMS
    return n + 1, open_m, proof_claims, acted, -1


@njit(cache=True, inline="always")
def _play_stage(legal, table, per_seat, rules, seat, open_m):
    """ST_PLAY: the plays of `seat`'s hand (`_play_actions`). Returns (their number, END_BLOCKED
    when no clan card can be played and rule no_play blocks the game, else -1)."""
    side, side_n, last, key, env, need_of = table
    n, any_clan = _play_actions(legal, seat, per_seat, open_m, side, side_n, env, need_of,
                                rules[RS_TACTICS], rules[RS_LIMIT], rules[RS_MOVE])
    return n, END_BLOCKED if n == 1 and not any_clan and rules[RS_NO_PLAY_BLOCKS] else -1


@njit(cache=True, inline="always")
def _pile_stage(legal, per_seat, rules, stage, seat, scout_left, ret_total, ret_done, c_head,
                c_tail, t_head, t_tail):
    """ST_SCOUT_DRAW: up to 3 draws, then the Scout's returns, 2 cards (the hand, if smaller);
    ST_SCOUT_RETURN: a card of the hand under its pile, until they are done; ST_DRAW: a draw, up
    to the hand size. A draw is from a pile that is not empty. Returns (the number of legal
    actions (0: none), ret_total, ret_done)."""
    if stage == ST_SCOUT_RETURN:
        if ret_done == ret_total:
            return 0, ret_total, ret_done
        clan, tactic = per_seat[PS_HAND_CLAN + seat], per_seat[PS_HAND_TACTIC + seat]
        return _of_cards(legal, 0, O.RETURN, clan, tactic), ret_total, ret_done
    empty = c_head == c_tail and t_head == t_tail
    if stage == ST_SCOUT_DRAW and (scout_left == 0 or empty):
        return 0, min(2, _hand_size(per_seat, seat)), 0
    if stage == ST_DRAW and (_hand_size(per_seat, seat) >= rules[RS_HAND] or empty):
        return 0, ret_total, ret_done
    return _draw_actions(legal, c_head, c_tail, t_head, t_tail), ret_total, ret_done


@njit(cache=True, inline="always")
def _blocked_winner(held, rules):
    """The winner of a blocked game: more stones wins (rule blocked_game), else a draw (-1)."""
    s0, s1 = popcount(held[0]), popcount(held[1])
    if not rules[RS_BLOCKED_DRAW] and s0 != s1:
        return 0 if s0 > s1 else 1
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def run(work, streams, r, resume):
    """Play the game held in `work` (see `new_game`) from where it stands until it ends or a
    decision must be taken outside: returns RUN_END (the game is over: S_WINNER, S_END),
    RUN_ILLEGAL (a strategy returned S_IDX, not an index of the S_N_LEGAL legal actions),
    RUN_ENDLESS (MAX_TURNS turns), or n > 0: the seat to move (S_SEAT) has a decision (S_DK)
    among the n legal actions of row W_LEGAL that its strategy (seat code W_SEAT_CALL) does not
    take here. Call again with `resume` = the index of the chosen action (else -1).

    The stage the turn stands at (ST_*) lists its legal actions or moves on; a decision is taken
    (`_decide`) and applied (`_apply_*`). `play_batch` and the search both play through it."""
    obs0, obs1, legal, cpile, tpile, per_seat, held, state = _rows(work)
    table, rules = _table(work), _rule_scalars(r)
    (stage, seat, to_move, turns, clock, n_discard, c_head, c_tail, t_head, t_tail, hidden, open_m,
     prev_idle, acted, scout_left, ret_total, ret_done, cards_played, proof_claims, end, n,
     dk) = _load(state)
    status, pending = RUN_END, resume >= 0
    while True:
        if pending:     # the decision we returned for, taken outside
            pending, idx = False, resume
            _unshow(work, per_seat, seat)
        else:
            n = dk = 0
            if stage == ST_START or stage == ST_END:
                status, stage, seat, to_move, turns, prev_idle, acted = _between_turns(
                    stage, seat, to_move, turns, prev_idle, acted, rules)
                if status == GO_ON:
                    continue
                end = END_BLOCKED if status == RUN_END else end
                break
            if stage == ST_CLAIM_START or stage == ST_CLAIM_AFTER:
                n, open_m, proof_claims, acted, end = _claim_stage(
                    obs0, obs1, legal, table, held, rules, seat, open_m, hidden, proof_claims, acted)
            elif stage == ST_PLAY:
                n, end = _play_stage(legal, table, per_seat, rules, seat, open_m)
            else:
                n, ret_total, ret_done = _pile_stage(legal, per_seat, rules, stage, seat, scout_left,
                                                     ret_total, ret_done, c_head, c_tail, t_head, t_tail)
            if end >= 0:    # a claim won, or no card can be played: blocked
                status, turns = RUN_END, turns + 1
                break
            if n == 0:
                stage = _next_stage(stage, rules)
                continue
            dk, idx = _decision_kind(stage), 0
            if n > 1:
                idx, outside = _decide(work, streams, per_seat, legal, n, seat, dk, turns, prev_idle,
                                       ret_done, c_tail - c_head, t_tail - t_head, n_discard)
                if outside:
                    status = n
                    break
        if idx < 0 or idx >= n:
            state[S_IDX], status = idx, RUN_ILLEGAL
            break
        a = legal[idx]
        if stage == ST_PLAY:
            stage, scout_left, acted, hidden, clock, n_discard, cards_played = _apply_play(
                obs0, obs1, a, seat, per_seat, table, rules, scout_left, acted, hidden, clock,
                n_discard, cards_played)
        elif stage == ST_CLAIM_START or stage == ST_CLAIM_AFTER:
            stage, open_m, proof_claims, acted, end = _apply_claim(
                obs0, obs1, a, stage, seat, table, held, rules, open_m, proof_claims, acted)
            if end >= 0:
                status, turns = RUN_END, turns + 1
                break
        else:
            stage, acted, scout_left, ret_done, c_head, c_tail, t_head, t_tail = _apply_pile(
                a, stage, seat, per_seat, cpile, tpile, acted, scout_left, ret_done, c_head, c_tail,
                t_head, t_tail)
    if status == RUN_END:
        state[S_WINNER] = _blocked_winner(held, rules) if end == END_BLOCKED else seat
    _store(state, (stage, seat, to_move, turns, clock, n_discard, c_head, c_tail, t_head, t_tail,
                   hidden, open_m, prev_idle, acted, scout_left, ret_total, ret_done, cards_played,
                   proof_claims, end, n, dk))
    return status


@njit(cache=True, nogil=True, error_model="numpy")
def _play_range(start, stop, first_game, seed, r, codes, fns, prms, work, streams,
                scores, shares, extras, errors):
    """Play games first_game + start .. first_game + stop - 1 into rows start .. stop - 1.

    `work` (W_ROWS x width) and `streams` (2) are scratch owned by the caller."""
    r = borrowed(r)
    scores = borrowed(scores)
    shares = borrowed(shares)
    extras = borrowed(extras)
    errors = borrowed(errors)
    work = borrowed(work)
    streams = borrowed(streams)
    obs_base = address_of(work) + 8 * work.shape[1] * W_OBS0
    obs_stride = 8 * work.shape[1]
    seat_call = borrowed(work[W_SEAT_CALL, :2])
    seat_fn = borrowed(work[W_SEAT_FN, :2])
    seat_prm = borrowed(work[W_SEAT_PRM, :2])
    seat_prm_len = borrowed(work[W_SEAT_PRM_LEN, :2])
    state = borrowed(work[W_STATE, :S_SIZE])
    rng_base = address_of(streams)

    # each seat's strategy as rows of integer tables; the two seats' functions may be of
    # different numba types, so the tuple is only ever indexed by constants
    seat_fn[0] = jit_address(fns[0])
    seat_fn[1] = jit_address(fns[1])
    for p in range(2):
        prm = prms[p]
        seat_prm[p] = address_of(prm)
        seat_prm_len[p] = prm.shape[0]
        code = codes[p]
        if code < 0 or code >= K.N_NATIVE:
            code = CALL_JIT if seat_fn[p] != 0 else CALL_FT
        seat_call[p] = code

    for row in range(start, stop):
        new_game(work, streams, r, seed, first_game + row)
        # not the literal -1: numba would compile `run` a second time for the constant
        status = run(work, streams, r, np.int64(-1))
        while status > 0:   # a strategy the turn machine does not call itself
            seat = state[S_SEAT]
            obs = view_at(obs_base + obs_stride * seat, O.SIZE, np.int64)
            prm = view_at(seat_prm[seat], seat_prm_len[seat], np.float64)
            rng = view_at(rng_base + 8 * seat, 1, np.uint64)
            # CALL_FT: the only seats the turn machine leaves to this loop
            idx = fns[0](obs, prm, rng) if seat == 0 else fns[1](obs, prm, rng)
            status = run(work, streams, r, idx)
        if status == RUN_ENDLESS:
            record_endless(errors, row)
            continue
        if status == RUN_ILLEGAL:
            record_illegal(errors, row, state[S_SEAT], state[S_IDX], state[S_N_LEGAL],
                           state[S_TURNS], state[S_DK])
            continue
        winner = state[S_WINNER]
        if winner >= 0:
            scores[row, winner] = 1
            shares[row, winner] = 1.0
        else:
            shares[row, 0] = 0.5
            shares[row, 1] = 0.5
        extras[row, 0] = state[S_CARDS_PLAYED]
        extras[row, 1] = state[S_END]
        extras[row, 2] = state[S_TURNS]
        extras[row, 3] = state[S_PROOF_CLAIMS]
        for p in range(2):
            extras[row, 4 + p] = work[W_PER_SEAT, PS_DRAWN + p]
            extras[row, 6 + p] = work[W_PER_SEAT, PS_PLAYED + p]
        extras[row, 8] = state[S_FIRST]   # not the vector's copy: a strategy may write there


@njit(parallel=True, cache=True, nogil=True)
def play_block(seed, first_game, r, codes, fns, prms, scores, shares, extras, errors, block):
    """Play games first_game .. first_game + len(scores) - 1 into the output rows, in blocks of
    `block` games (any block size gives the same results)."""
    n = scores.shape[0]
    n_blocks = (n + block - 1) // block
    for b in prange(n_blocks):
        work = np.zeros((W_ROWS, W_WIDTH), np.int64)
        streams = np.zeros(2, np.uint64)
        _play_range(b * block, min(n, (b + 1) * block), first_game, seed, r, codes, fns, prms,
                    work, streams, scores, shares, extras, errors)


def play_batch(rules: SchottenTottenRules, players: int, seed: int, first_game: int, n_games: int,
               kernels, params, natives=None, block: int | None = None) -> Batch:
    """Same contract as `reference.play_batch`. kernels must be compiled with DECIDE_SIG;
    natives[seat] is the `policies` code of a built-in kernel the engine may run directly
    (the same function as kernels[seat]), or -1. `block`: games per parallel task (default:
    about 64 tasks)."""
    if players != 2:
        raise UsageError(f"schotten-totten is a 2-player game, not {players} players")
    codes, fns, prm = engine.lineup(kernels, params, natives, 2, 2)
    scores, shares, extras, errors = engine.outputs(n_games, 2, len(EXTRAS))
    if n_games > 0:
        play_block(np.uint64(seed), np.int64(first_game), pack_rules(rules), codes, fns, prm,
                   scores, shares, extras, errors, np.int64(block or engine.blocks(n_games)))
    return engine.finish(first_game, scores, shares, extras, errors, EXTRAS, _where)


def _where(turn: int, kind: int) -> str:
    return f"turn {turn}, phase {O.DECISION_NAMES[kind]}"

