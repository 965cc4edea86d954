"""CIV fast engine: numba-compiled, parallel over games, identical to `reference.py`.

Same contract as the other fast engines: `play_batch(rules, players, seed, first_game, n_games,
kernels, params, natives=None) -> Batch`, game by game identical to `reference.play_batch` (same
shuffle, same order of random draws, same legal lists, same observations).

Design (as sim/pyramids/fast.py):
  - a game's whole state is one int64 vector `g` (the G_* offsets below: scalars, the deck as the
    Domains of its cards, the discard pile, the turn in progress, one block of per-Domain counts
    per seat), so a search can copy it and play it on with the same code.
  - the game is a small resumable machine, `run(g, obs, streams, r, resume)`: one stage per kind
    of step (the draft's keeps and takes, the turn's start, the play, the effect choice, a pick of
    an effect's cards, an effect's single choice, the turn's end), and one decision site, which
    calls the seat's strategy (natively for `random`, else through the address of its compiled
    body, after filling the seat's observation) or returns to the caller, to be resumed with the
    index.
  - an effect in progress is (T_EFFECT, T_PHASE): `_advance` sets up its next step (a pick of
    T_LEFT cards, or a single choice) or ends it, as `reference.Game.use` runs it in sequence.
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
from . import observation as O
from .cards import (AGE_SIZES, AGE_START, ART, DOMAIN_OF, ECONOMY, MILITARY, N_AGES, N_CARDS, N_DOMAINS,
                    RELIGION, SCIENCE, UTOPIA)
from .observation import A_CARD, A_COPY, A_PERM, A_SAC, A_SEAT, A_TARGET, encode
from .reference import END_HEGEMONY, END_MAJORITY, EXTRAS
from .rules import MAX_PLAYERS, CivRules

# ---------------------------------------------------------------- the packed rule vector
_R = CivRules
R_DRAFT, R_FIRST_RANDOM = _R.slot("setup"), _R.slot("first_player")
R_REMOVED = _R.slot("removed_per_age")
R_L1_SMALL, R_L2_SMALL, R_L1_FOUR, R_L2_FOUR = (_R.slot(k) for k in (
    "level1_small", "level2_small", "level1_four", "level2_four"))
R_HEG_TWO, R_HEG_MORE = _R.slot("hegemony_two"), _R.slot("hegemony_more")
R_HAND0, R_HAND1, R_HAND2 = _R.slot("hand_size"), _R.slot("hand_level1"), _R.slot("hand_level2")
R_LEAP, R_LEAP_TAKES, R_SHORT = _R.slot("leap_cards"), _R.slot("leap_takes_discard"), _R.slot("level2_short")
R_ATT_OWN, R_ATT_MIL, R_ATT_MATE = (_R.slot(k) for k in (
    "attack_needs_own", "attack_military", "attack_hits_teammate"))
R_EMB_BLOCKS, R_EMB_CARD, R_EMB_COUNTS = (_R.slot(k) for k in (
    "embargo_blocks_effects", "embargo_needs_card", "embargo_card_counts"))
R_DEM_CARD, R_DEM_COUNTS = _R.slot("democracy_needs_card"), _R.slot("democracy_card_counts")
R_ART_KEEP, R_ART_MIN = _R.slot("art_tie"), _R.slot("art_min_cards")
R_COPIES, R_COPY_SLOT = _R.slot("copies_per_turn"), _R.slot("copy_uses_slot")
R_HEG_FINAL, R_EMPTY_SCORES = _R.slot("hegemony_in_final_round"), _R.slot("empty_domain_scores")
R_TIE_SHARED, R_TEAMS = _R.slot("tie_break"), _R.slot("teams")
R_REMOVAL_AT = len(_R.packed_fields())            # 5 entries: 1 if cards are removed at n players
R_TIE_N = R_REMOVAL_AT + 5                        # the tie-break Domains: their number, then them
R_TIE = R_TIE_N + 1
DRAFT = _R.code("setup", "draft")
RANDOM_FIRST = _R.code("first_player", "random")
ART_KEEP = _R.code("art_tie", "keep")
TIE_SHARED = _R.code("tie_break", "shared")

# ---------------------------------------------------------------- the state vector g
(G_STAGE, G_PLAYERS, G_FIRST, G_CURRENT, G_TURNS, G_FINAL, G_WINNER, G_HEG_DOMAIN, G_COIN,
 G_DECISIONS, G_TOP, G_DECK_N, G_L1, G_L2, G_HEG, G_K, G_STEP, G_N_LEGAL, G_SEAT, G_DECISION,
 G_IDX, G_PENDING, T_ACTIVE, T_PLAYED, T_PERM, T_SAC, T_COPIES, T_EFFECT, T_PHASE, T_LEFT, T_MIN,
 T_TARGET, T_COPY_HAND, T_PICK, T_DRAWN, G_SCALARS) = range(36)
G_DECK = 40                          # the Domain of each deck card, top first; G_TOP of them drawn
G_DISCARD = G_DECK + N_CARDS
G_CENTRE = G_DISCARD + N_DOMAINS
G_LEGAL = G_CENTRE + N_DOMAINS
G_CALLS = G_LEGAL + O.MAX_LEGAL      # the seats' call table (sim/core/engine.py: rows of 5)
G_CALL = G_CALLS + engine.CALL_ROW   # per seat: how its strategy is called (CALL_* or a native)
G_FN = G_CALLS + engine.FN_ROW       # per seat: the address of its compiled body
G_PRM = G_CALLS + engine.PRM_ROW     # per seat: the address and length of its parameters
G_PRM_LEN = G_CALLS + engine.PRM_LEN_ROW
G_SEATS = G_CALLS + engine.CALL_TABLE
P_HAND, P_PLAY, P_EMB, P_DEM, P_PACKET = 0, 6, 12, 18, 24
P_KNOW = 30                          # + 6 q + d: cards of Domain d this seat knows in q's hand
SEAT_W = P_KNOW + N_DOMAINS * MAX_PLAYERS
G_SIZE = G_SEATS + SEAT_W * MAX_PLAYERS

# streams: the deck, then one per seat (their ids as the reference's)
S_DECK, S_SEAT0 = 0, 1
DECK_STREAM, FIRST_STREAM = deck_stream(0), deck_stream(1)
N_STREAMS = S_SEAT0 + MAX_PLAYERS

(ST_DRAFT_KEEP, ST_DRAFT_TAKE, ST_TURN, ST_PLAY, ST_EFFECT, ST_PICK, ST_CHOOSE, ST_END_TURN,
 ST_END) = range(9)
RUN_END, RUN_ILLEGAL, RUN_ENDLESS = 0, -1, -2

# how the engine calls a seat's strategy (sim/core/engine.py)
RANDOM_POLICY, CALL_JIT, CALL_FT, CALL_STOP = (engine.RANDOM_NATIVE, engine.CALL_JIT,
                                               engine.CALL_FT, engine.CALL_STOP)

STOP = O.STOP
DOMAIN_ARRAY = np.array(DOMAIN_OF, np.int64)
AGE_TABLE = np.array([(AGE_START[a], AGE_SIZES[a]) for a in range(N_AGES)], np.int64)


def pack_rules(rules: CivRules) -> np.ndarray:
    """The rule vector: the declared scalar rules, the removal table by player count, the
    tie-break Domains."""
    removal = [int(n in rules.removal_players) for n in range(5)]
    tie = list(rules.tie_domains())
    return np.concatenate([rules.packed(), np.array(removal + [len(tie)] + tie, np.int64)])


# ---------------------------------------------------------------- small readers
@njit(cache=True, inline="always")
def seat_at(seat):
    return G_SEATS + SEAT_W * seat


@njit(cache=True, inline="always")
def count(g, r, s, d):
    at = seat_at(s)
    n = g[at + P_PLAY + d]
    if r[R_EMB_COUNTS]:
        n += g[at + P_EMB + d]
    if r[R_DEM_COUNTS]:
        n += g[at + P_DEM + d]
    return n


@njit(cache=True, inline="always")
def level(g, r, s, d):
    n = count(g, r, s, d)
    return 2 if n >= g[G_L2] else (1 if n >= g[G_L1] else 0)


@njit(cache=True, inline="always")
def hand_size_of(r, lv):
    return r[R_HAND0] if lv == 0 else (r[R_HAND1] if lv == 1 else r[R_HAND2])


@njit(cache=True, inline="always")
def total(g, at):
    return g[at] + g[at + 1] + g[at + 2] + g[at + 3] + g[at + 4] + g[at + 5]


@njit(cache=True, inline="always")
def playable(g, s, d):
    at = seat_at(s)
    return 0 if g[at + P_EMB + d] else g[at + P_HAND + d]


@njit(cache=True, inline="always")
def playable_total(g, s):
    n = 0
    for d in range(N_DOMAINS):
        n += playable(g, s, d)
    return n


@njit(cache=True, inline="always")
def hand_limit(g, r, s):
    limit = hand_size_of(r, level(g, r, s, RELIGION))
    if g[T_ACTIVE] and g[G_CURRENT] == s and g[T_COPY_HAND] > limit:
        limit = g[T_COPY_HAND]
    return limit


@njit(cache=True, inline="always")
def teammate(g, r, s):
    return (s + 2) % 4 if r[R_TEAMS] else -1


@njit(cache=True)
def update_coin(g, r):
    """§5.6: the strict Art majority holds the coin (reference.Game.update_coin)."""
    players = g[G_PLAYERS]
    best, leaders, leader = -1, 0, -1
    for s in range(players):
        a = count(g, r, s, ART)
        if a > best:
            best, leaders, leader = a, 1, s
        elif a == best:
            leaders += 1
    if leaders == 1 and best >= r[R_ART_MIN]:
        g[G_COIN] = leader
    else:
        c = g[G_COIN]
        if not (r[R_ART_KEEP] == ART_KEEP and c >= 0 and count(g, r, c, ART) == best
                and best >= r[R_ART_MIN]):
            g[G_COIN] = -1


# ---------------------------------------------------------------- a new game (§3)
@njit(cache=True)
def new_game(g, streams, r, players, seed, game):
    """Deal game `game` into g and seed its streams; the seats' call tables are kept."""
    g[:G_CALL] = 0
    g[G_SEATS:] = 0
    key = game_key(seed, game)
    s = stream_of(key, DECK_STREAM)
    for p in range(players):
        streams[S_SEAT0 + p] = stream_of(key, PLAYER_STREAM_BASE + p)
    g[G_PLAYERS] = players
    removed = r[R_REMOVED] if r[R_REMOVAL_AT + players] else 0
    ids = np.empty(48, np.int64)
    n = 0
    for a in range(N_AGES):                    # Age I on top, Age III at the bottom
        start, size = AGE_TABLE[a, 0], AGE_TABLE[a, 1]
        cards = ids[:size]
        for i in range(size):
            cards[i] = start + i
        for i in range(size - 1):
            s, _ = draw_at(s, cards, i)
        for i in range(removed, size):
            g[G_DECK + n] = DOMAIN_ARRAY[cards[i]]
            n += 1
    g[G_DECK_N] = n
    first = 0
    if r[R_FIRST_RANDOM] == RANDOM_FIRST:
        _, first = split_below(stream_of(key, FIRST_STREAM), players)
    g[G_FIRST] = g[G_CURRENT] = first
    if players >= 4:
        g[G_L1], g[G_L2] = r[R_L1_FOUR], r[R_L2_FOUR]
    else:
        g[G_L1], g[G_L2] = r[R_L1_SMALL], r[R_L2_SMALL]
    g[G_HEG] = r[R_HEG_TWO] if players == 2 else r[R_HEG_MORE]
    g[G_COIN] = g[G_WINNER] = g[G_HEG_DOMAIN] = -1
    g[T_PLAYED] = g[T_EFFECT] = g[T_TARGET] = -1
    if r[R_DRAFT] == DRAFT:
        for k in range(players):
            at = seat_at((first + k) % players)
            for _ in range(4):
                g[at + P_PACKET + _draw_domain(g)] += 1
        g[G_STAGE] = ST_DRAFT_KEEP
    else:
        for k in range(players):
            at = seat_at((first + k) % players)
            for _ in range(r[R_HAND0]):
                g[at + P_HAND + _draw_domain(g)] += 1
        g[G_STAGE] = ST_TURN


@njit(cache=True, inline="always")
def _draw_domain(g):
    d = g[G_DECK + g[G_TOP]]
    g[G_TOP] += 1
    return d


@njit(cache=True, inline="always")
def deck_left(g):
    return g[G_DECK_N] - g[G_TOP]


# ---------------------------------------------------------------- the effects (§5)
@njit(cache=True, inline="always")
def blocked(g, r, p, d):
    return r[R_EMB_BLOCKS] != 0 and g[seat_at(p) + P_EMB + d] > 0


@njit(cache=True, inline="always")
def feasible(g, r, p, d, lv):
    at = seat_at(p)
    if d == MILITARY:
        return total(g, at + P_HAND) >= lv
    if d == ECONOMY:
        need = 1 if lv == 1 or r[R_SHORT] else 2
        return total(g, at + P_PLAY) >= lv and playable_total(g, p) >= need
    if d == SCIENCE:
        return total(g, at + P_PLAY) >= lv
    if d == UTOPIA:
        return total(g, G_DISCARD) >= lv
    return True


@njit(cache=True, inline="always")
def attack_domains(g, r, p, sacrificed, out, n):
    """Attack's Domains into g[out + n ...]; returns the new n (reference.attack_domains)."""
    at = seat_at(p)
    for d in range(N_DOMAINS):
        if d == MILITARY and not r[R_ATT_MIL]:
            continue
        have = g[at + P_PLAY + d] - (1 if d == MILITARY and not sacrificed else 0)
        if r[R_ATT_OWN] and have < 1:
            continue
        g[out + n] = encode(A_CARD, d, -1)
        n += 1
    return n


@njit(cache=True, inline="always")
def targets(g, p, needs_card, out, n):
    """(Domain, seat) targets of Embargo or Democracy into g[out + n ...]; returns the new n."""
    for q in range(g[G_PLAYERS]):
        if q == p:
            continue
        at = seat_at(q)
        for d in range(N_DOMAINS):
            if not needs_card or g[at + P_PLAY + d]:
                g[out + n] = encode(A_TARGET, d, q)
                n += 1
    return n


@njit(cache=True, inline="always")
def inquisition_targets(g, p, out, n):
    for q in range(g[G_PLAYERS]):
        if q != p and total(g, seat_at(q) + P_HAND):
            g[out + n] = encode(A_SEAT, -1, q)
            n += 1
    return n


@njit(cache=True, inline="always")
def any_target(g, p, needs_card):
    for q in range(g[G_PLAYERS]):
        if q == p:
            continue
        if not needs_card or total(g, seat_at(q) + P_PLAY):
            return True
    return False


@njit(cache=True)
def effects(g, r, p, out):
    """STOP and the effects p may use now into g[out ...] (reference.Game.effects); their number."""
    update_coin(g, r)
    g[out] = STOP
    n = 1
    players = g[G_PLAYERS]
    at = seat_at(p)
    coin = g[G_COIN] == p and g[T_COPIES] < r[R_COPIES]
    perm, sac = g[T_PERM], g[T_SAC]
    for d in range(N_DOMAINS):
        if d == ART or blocked(g, r, p, d):
            continue
        own = level(g, r, p, d)
        used = (perm >> d) & 1
        if d != RELIGION and not used:
            for lv in range(1, own + 1):
                if feasible(g, r, p, d, lv):
                    g[out + n] = encode(A_PERM, d, lv)
                    n += 1
        if coin and not (r[R_COPY_SLOT] and used):
            best = 0
            for q in range(players):
                if q != p:
                    best = max(best, level(g, r, q, d))
            for lv in range(own + 1, best + 1):
                if feasible(g, r, p, d, lv) and (d != RELIGION or hand_size_of(r, lv) > g[T_COPY_HAND]):
                    g[out + n] = encode(A_COPY, d, lv)
                    n += 1
        if not (sac >> d) & 1 and g[at + P_PLAY + d]:
            ok = False
            if d == MILITARY:
                ok = attack_domains(g, r, p, False, out, n) > n
            elif d == RELIGION:
                ok = inquisition_targets(g, p, out, n) > n
            elif d == ECONOMY:
                ok = any_target(g, p, r[R_EMB_CARD])
            elif d == SCIENCE:
                ok = True
            else:
                ok = any_target(g, p, r[R_DEM_CARD])
            if ok:
                g[out + n] = encode(A_SAC, d, -1)
                n += 1
    return n


@njit(cache=True)
def _start_effect(g, r, action):
    """An effect chosen: its slots and its immediate part (the sacrifice, the Leap's draw)."""
    p = g[G_CURRENT]
    at = seat_at(p)
    kind, d, lv = O.action_kind(action), O.action_domain(action), O.action_arg(action)
    g[T_EFFECT] = action
    g[T_PHASE] = 0
    if kind == A_SAC:
        g[T_SAC] |= 1 << d
        if d != ECONOMY and d != UTOPIA:
            g[at + P_PLAY + d] -= 1
            g[G_DISCARD + d] += 1
        if d == SCIENCE:
            n = min(r[R_LEAP], deck_left(g))
            for _ in range(n):
                g[at + P_HAND + _draw_domain(g)] += 1
            g[T_DRAWN] = n
    else:
        if kind == A_PERM or r[R_COPY_SLOT]:
            g[T_PERM] |= 1 << d
        if kind == A_COPY:
            g[T_COPIES] += 1
        if d == RELIGION:
            g[T_COPY_HAND] = hand_size_of(r, lv)
    _advance(g, r)


@njit(cache=True, inline="always")
def _pick(g, decision, k):
    """Set up a pick of k cards; False (nothing to do) when k is 0."""
    if k <= 0:
        return False
    g[T_PICK], g[T_LEFT], g[T_MIN] = decision, k, 0
    g[G_STAGE] = ST_PICK
    return True


@njit(cache=True, inline="always")
def _choose(g, decision):
    g[T_PICK] = decision
    g[G_STAGE] = ST_CHOOSE


@njit(cache=True)
def _advance(g, r):
    """The next step of the effect in progress, or its end (back to the effect choice)."""
    p = g[G_CURRENT]
    action = g[T_EFFECT]
    kind, d, lv = O.action_kind(action), O.action_domain(action), O.action_arg(action)
    while True:
        ph = g[T_PHASE]
        g[T_PHASE] = ph + 1
        if kind == A_SAC:
            if d == SCIENCE:
                if ph == 0 and _pick(g, O.D_DISCARD_HAND, g[T_DRAWN]):
                    return
                if ph == 1 and r[R_LEAP_TAKES] and total(g, G_DISCARD) and _pick(g, O.D_TAKE_DISCARD, 1):
                    return
                if ph < 2:
                    continue
            elif ph == 0:
                _choose(g, (O.D_ATTACK, O.D_INQUISITION, O.D_EMBARGO, 0, 0, O.D_DEMOCRACY)[d])
                return
            elif d == RELIGION and ph == 1:
                if _pick(g, O.D_GIVE, g[T_DRAWN]):
                    return
                continue
            g[T_TARGET] = -1
        elif d == MILITARY or d == UTOPIA:
            if ph == 0:
                _pick(g, O.D_DISCARD_HAND if d == MILITARY else O.D_TAKE_DISCARD, lv)
                return
        elif d == ECONOMY or d == SCIENCE:
            if ph == 0:
                _pick(g, O.D_DISCARD_PLAY if d == ECONOMY else O.D_RETURN, lv)
                return
            if ph == 1:
                if _pick(g, O.D_EXTRA_PLAY, min(lv, playable_total(g, p))):
                    return
                continue
        g[T_EFFECT] = -1
        g[T_MIN] = 0
        g[G_STAGE] = ST_EFFECT
        return


@njit(cache=True, inline="always")
def _pool_at(g, decision, p):
    """Where the cards of a pick come from: the offset of their 6 counts."""
    at = seat_at(p)
    if decision == O.D_DISCARD_HAND or decision == O.D_GIVE or decision == O.D_EXTRA_PLAY:
        return at + P_HAND
    if decision == O.D_TAKE_DISCARD:
        return G_DISCARD
    return at + P_PLAY


@njit(cache=True, inline="always")
def _dest_at(g, decision, p):
    at = seat_at(p)
    if decision == O.D_DISCARD_HAND or decision == O.D_DISCARD_PLAY:
        return G_DISCARD
    if decision == O.D_EXTRA_PLAY:
        return at + P_PLAY
    if decision == O.D_GIVE:
        return seat_at(g[T_TARGET]) + P_HAND
    return at + P_HAND


# ---------------------------------------------------------------- the turn's end (§4.3, §4.4, §6)
@njit(cache=True)
def _end_turn(g, r):
    p = g[G_CURRENT]
    at = seat_at(p)
    limit = hand_limit(g, r, p)
    while total(g, at + P_HAND) < limit and deck_left(g):
        g[at + P_HAND + _draw_domain(g)] += 1
    for d in range(N_DOMAINS):
        g[G_DISCARD + ECONOMY] += g[at + P_EMB + d]
        g[at + P_EMB + d] = 0
    over = False
    if not g[G_FINAL] or r[R_HEG_FINAL]:
        for d in range(N_DOMAINS):
            if count(g, r, p, d) >= g[G_HEG] + g[at + P_DEM + d]:
                g[G_WINNER], g[G_HEG_DOMAIN] = p, d
                over = True
                break
    g[T_ACTIVE] = 0
    g[G_TURNS] += 1
    players = g[G_PLAYERS]
    if not g[G_FINAL] and deck_left(g) == 0:
        g[G_FINAL] = 1
    if g[G_FINAL] and p == (g[G_FIRST] + players - 1) % players:
        over = True
    g[G_CURRENT] = (p + 1) % players
    g[G_STAGE] = ST_END if over else ST_TURN


@njit(cache=True)
def _start_turn(g):
    g[T_ACTIVE] = 1
    g[T_PLAYED] = g[T_EFFECT] = g[T_TARGET] = -1
    g[T_PERM] = g[T_SAC] = g[T_COPIES] = g[T_PHASE] = g[T_LEFT] = g[T_MIN] = 0
    g[T_COPY_HAND] = g[T_DRAWN] = 0
    g[G_STAGE] = ST_PLAY


# ---------------------------------------------------------------- legal lists and actions
@njit(cache=True, inline="always")
def _deciding_seat(g, stage):
    players = g[G_PLAYERS]
    if stage == ST_DRAFT_KEEP:
        return (g[G_FIRST] + g[G_K]) % players
    if stage == ST_DRAFT_TAKE:
        return (g[G_FIRST] + 2 * players - 1 - g[G_K]) % players
    return g[G_CURRENT]


@njit(cache=True, inline="always")
def _cards(g, at, out):
    """A_CARD(d) for every Domain with a card in the counts at g[at ...]."""
    n = 0
    for d in range(N_DOMAINS):
        if g[at + d]:
            g[out + n] = encode(A_CARD, d, -1)
            n += 1
    return n


@njit(cache=True)
def _legal(g, r, stage, seat):
    """The legal list of the stage's decision into G_LEGAL (the reference's order); its length, or
    0 when the stage asks nothing (then it has moved the machine on)."""
    out = G_LEGAL
    at = seat_at(seat)
    if stage == ST_DRAFT_KEEP:
        return _cards(g, at + P_PACKET, out)
    if stage == ST_DRAFT_TAKE:
        return _cards(g, G_CENTRE, out)
    if stage == ST_PLAY:
        n = 0
        for d in range(N_DOMAINS):
            if playable(g, seat, d):
                g[out + n] = encode(A_CARD, d, -1)
                n += 1
        if n == 0:
            g[G_STAGE] = ST_EFFECT
        return n
    if stage == ST_EFFECT:
        return effects(g, r, seat, out)
    decision = g[T_PICK]
    if stage == ST_PICK:
        pool = _pool_at(g, decision, seat)
        left, lo = g[T_LEFT], g[T_MIN]
        extra = decision == O.D_EXTRA_PLAY
        n = 0
        above = 0
        for d in range(N_DOMAINS - 1, lo - 1, -1):     # count from the top, then list ascending
            c = 0 if extra and g[at + P_EMB + d] else g[pool + d]
            above += c
            if c and above >= left:
                n += 1
        m = 0
        above = 0
        for d in range(N_DOMAINS - 1, lo - 1, -1):
            c = 0 if extra and g[at + P_EMB + d] else g[pool + d]
            above += c
            if c and above >= left:
                m += 1
                g[out + n - m] = encode(A_CARD, d, -1)
        return n
    # ST_CHOOSE
    if decision == O.D_ATTACK:
        return attack_domains(g, r, seat, True, out, 0)
    if decision == O.D_INQUISITION:
        return inquisition_targets(g, seat, out, 0)
    return targets(g, seat, r[R_EMB_CARD] if decision == O.D_EMBARGO else r[R_DEM_CARD], out, 0)


@njit(cache=True)
def _apply(g, r, stage, seat, action):
    """Carry out the stage's chosen action and move the machine on."""
    d = O.action_domain(action)
    at = seat_at(seat)
    players = g[G_PLAYERS]
    if stage == ST_DRAFT_KEEP:
        g[at + P_PACKET + d] -= 1
        g[at + P_HAND + d] += 1
        g[G_K] += 1
        if g[G_K] == players:
            g[G_K] = 0
            if g[G_STEP] < 2:              # passed left: seat s receives from seat s - 1
                last = seat_at(players - 1) + P_PACKET
                keep = np.empty(N_DOMAINS, np.int64)
                for x in range(N_DOMAINS):
                    keep[x] = g[last + x]
                for s in range(players - 1, 0, -1):
                    for x in range(N_DOMAINS):
                        g[seat_at(s) + P_PACKET + x] = g[seat_at(s - 1) + P_PACKET + x]
                for x in range(N_DOMAINS):
                    g[seat_at(0) + P_PACKET + x] = keep[x]
            else:
                for s in range(players):
                    for x in range(N_DOMAINS):
                        g[G_CENTRE + x] += g[seat_at(s) + P_PACKET + x]
                        g[seat_at(s) + P_PACKET + x] = 0
                g[G_STAGE] = ST_DRAFT_TAKE
            g[G_STEP] += 1
        return
    if stage == ST_DRAFT_TAKE:
        g[G_CENTRE + d] -= 1
        g[at + P_PLAY + d] += 1
        g[G_K] += 1
        if g[G_K] == players:
            g[G_STAGE] = ST_TURN
        return
    if stage == ST_PLAY:
        g[at + P_HAND + d] -= 1
        g[at + P_PLAY + d] += 1
        _seen_leaving(g, seat, d)
        g[T_PLAYED] = d
        g[G_STAGE] = ST_EFFECT
        return
    if stage == ST_EFFECT:
        if action == STOP:
            g[G_STAGE] = ST_END_TURN
        else:
            _start_effect(g, r, action)
        return
    decision = g[T_PICK]
    if stage == ST_PICK:
        g[_pool_at(g, decision, seat) + d] -= 1
        g[_dest_at(g, decision, seat) + d] += 1
        if decision == O.D_DISCARD_HAND or decision == O.D_EXTRA_PLAY:
            _seen_leaving(g, seat, d)
        elif decision == O.D_RETURN or decision == O.D_TAKE_DISCARD:
            _seen_entering(g, seat, d)
        elif decision == O.D_GIVE:
            _seen_given(g, seat, g[T_TARGET], d)
        g[T_MIN] = d
        g[T_LEFT] -= 1
        if g[T_LEFT] == 0:
            g[T_MIN] = 0
            _advance(g, r)
        return
    # ST_CHOOSE
    if decision == O.D_ATTACK:
        mate = teammate(g, r, seat)
        for q in range(players):
            if q != seat and q == mate and not r[R_ATT_MATE]:
                continue
            qa = seat_at(q) + P_PLAY + d
            if g[qa]:
                g[qa] -= 1
                g[G_DISCARD + d] += 1
    elif decision == O.D_INQUISITION:
        q = O.action_arg(action)
        g[T_TARGET] = q
        _seen_taken(g, seat, q)
        qa = seat_at(q) + P_HAND
        k = 0
        for x in range(N_DOMAINS):
            k += g[qa + x]
            g[at + P_HAND + x] += g[qa + x]
            g[qa + x] = 0
        g[T_DRAWN] = k
    else:
        q = O.action_arg(action)
        g[at + P_PLAY + (ECONOMY if decision == O.D_EMBARGO else UTOPIA)] -= 1
        g[seat_at(q) + (P_EMB if decision == O.D_EMBARGO else P_DEM) + d] += 1
    _advance(g, r)


# ---------------------------------------------------------------- what the seats know of hands
# observation.py (S_KNOWN) states the bookkeeping; reference.Game.seen_* are the same rules.
@njit(cache=True, inline="always")
def _known_at(o, q):
    return seat_at(o) + P_KNOW + N_DOMAINS * q


@njit(cache=True, inline="always")
def _seen_leaving(g, s, d):
    """A card of Domain d left seat s's hand face up."""
    for o in range(g[G_PLAYERS]):
        k = _known_at(o, s) + d
        if o != s and g[k] > 0:
            g[k] -= 1


@njit(cache=True, inline="always")
def _seen_entering(g, s, d):
    """A card of Domain d went face up into seat s's hand."""
    for o in range(g[G_PLAYERS]):
        if o != s:
            g[_known_at(o, s) + d] += 1


@njit(cache=True)
def _seen_taken(g, p, q):
    """Inquisition: p takes q's hand (before the cards move)."""
    for o in range(g[G_PLAYERS]):
        for d in range(N_DOMAINS):
            if o == p:
                g[_known_at(p, q) + d] = 0
            elif o == q:
                g[_known_at(q, p) + d] += g[seat_at(q) + P_HAND + d]
            else:
                g[_known_at(o, p) + d] += g[_known_at(o, q) + d]
                g[_known_at(o, q) + d] = 0


@njit(cache=True)
def _seen_given(g, p, q, d):
    """Inquisition: p gives a card of Domain d back to q, face down."""
    for o in range(g[G_PLAYERS]):
        if o == p:
            g[_known_at(p, q) + d] += 1
        elif o == q:
            k = _known_at(q, p) + d
            if g[k] > 0:
                g[k] -= 1
        else:
            for x in range(N_DOMAINS):
                k = _known_at(o, p) + x
                if g[k] > 0:
                    g[k] -= 1


@njit(cache=True, inline="always")
def _decision_of(g, stage):
    if stage == ST_DRAFT_KEEP:
        return O.D_DRAFT_KEEP
    if stage == ST_DRAFT_TAKE:
        return O.D_DRAFT_TAKE
    if stage == ST_PLAY:
        return O.D_PLAY
    if stage == ST_EFFECT:
        return O.D_EFFECT
    return g[T_PICK]


@njit(cache=True)
def run(g, obs, streams, r, resume):
    """Play on until the game ends or a decision the machine does not take itself.

    Returns RUN_END, RUN_ILLEGAL (a strategy's index out of range: G_SEAT, G_IDX), RUN_ENDLESS,
    or n > 0: seat G_SEAT has decision G_DECISION among the n actions of G_LEGAL pending; call
    again with the chosen index as `resume` (-1 to start). `obs` is the (seats, SIZE) block of
    observation vectors."""
    # borrowed: else every inlined helper that takes them counts references
    g, obs, streams, r = borrowed(g), borrowed(obs), borrowed(streams), borrowed(r)
    if resume >= 0:
        if not _take(g, r, resume):
            return RUN_ILLEGAL
    while True:
        stage = g[G_STAGE]
        if stage == ST_END:
            return RUN_END
        if stage == ST_TURN:
            _start_turn(g)
            continue
        if stage == ST_END_TURN:
            _end_turn(g, r)
            continue
        seat = _deciding_seat(g, stage)
        n = _legal(g, r, stage, seat)
        if n == 0:
            continue
        g[G_DECISIONS] += 1
        if g[G_DECISIONS] > MAX_TURNS:
            return RUN_ENDLESS
        call = g[G_CALL + seat]
        # the coin as the reference re-evaluates it before every decision; with art_tie = nobody it
        # is a function of the counts, needed only by an observation (listing the effects does it)
        if stage != ST_EFFECT and (r[R_ART_KEEP] == ART_KEEP or (n > 1 and call != RANDOM_POLICY)):
            update_coin(g, r)
        g[G_SEAT], g[G_DECISION], g[G_N_LEGAL] = seat, _decision_of(g, stage), n
        if n == 1:
            _apply(g, r, stage, seat, g[G_LEGAL])
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
    _apply(g, r, g[G_STAGE], g[G_SEAT], g[G_LEGAL + idx])
    return True


# ---------------------------------------------------------------- what a seat sees
@njit(cache=True)
def fill_observation(g, r, seat, obs):
    """The seat's vector, as reference.Game.observation writes it."""
    players = g[G_PLAYERS]
    obs[O.SEAT], obs[O.DECISION], obs[O.N_LEGAL], obs[O.LEGAL_AT] = \
        seat, g[G_DECISION], g[G_N_LEGAL], O.LEGAL
    obs[O.PLAYERS], obs[O.FIRST], obs[O.TURN] = players, g[G_FIRST], g[G_TURNS]
    obs[O.DECK_LEFT], obs[O.FINAL], obs[O.COIN] = deck_left(g), g[G_FINAL], g[G_COIN]
    obs[O.LEVEL1], obs[O.LEVEL2], obs[O.HEGEMONY] = g[G_L1], g[G_L2], g[G_HEG]
    obs[O.HAND_LIMIT], obs[O.TEAMS], obs[O.TEAMMATE] = hand_limit(g, r, seat), r[R_TEAMS], teammate(g, r, seat)
    mine = g[T_ACTIVE] != 0 and g[G_CURRENT] == seat
    obs[O.T_PLAYED] = g[T_PLAYED] if mine else -1
    obs[O.T_PERM] = g[T_PERM] if mine else 0
    obs[O.T_SAC] = g[T_SAC] if mine else 0
    obs[O.T_COPIES] = g[T_COPIES] if mine else 0
    obs[O.T_EFFECT] = g[T_EFFECT] if mine else -1
    picking = mine and g[G_STAGE] == ST_PICK
    obs[O.T_LEFT] = g[T_LEFT] if picking else 0
    obs[O.T_MIN] = g[T_MIN] if picking else 0
    obs[O.T_TARGET] = g[T_TARGET] if mine else -1
    obs[O.T_COPY_HAND] = g[T_COPY_HAND] if mine else 0
    at = seat_at(seat)
    stage = g[G_STAGE]
    for d in range(N_DOMAINS):
        obs[O.OWN_HAND + d] = g[at + P_HAND + d]
        obs[O.DISCARD + d] = g[G_DISCARD + d]
        if stage == ST_DRAFT_KEEP:
            obs[O.DRAFT + d] = g[at + P_PACKET + d]
        elif stage == ST_DRAFT_TAKE:
            obs[O.DRAFT + d] = g[G_CENTRE + d]
        else:
            obs[O.DRAFT + d] = 0
    obs[O.DRAFT + N_DOMAINS] = obs[O.DRAFT + N_DOMAINS + 1] = 0
    for s in range(MAX_PLAYERS):
        o = O.SEATS + O.SEAT_BLOCK * s
        if s >= players:
            for i in range(O.SEAT_BLOCK):
                obs[o + i] = 0
            continue
        p = seat_at(s)
        obs[o + O.S_HAND_N] = total(g, p + P_HAND)
        for d in range(N_DOMAINS):
            obs[o + O.S_PLAY + d] = g[p + P_PLAY + d]
            obs[o + O.S_EMBARGO + d] = g[p + P_EMB + d]
            obs[o + O.S_DEMOCRACY + d] = g[p + P_DEM + d]
            obs[o + O.S_COUNT + d] = count(g, r, s, d)
            obs[o + O.S_KNOWN + d] = g[p + P_HAND + d] if s == seat else g[_known_at(seat, s) + d]
        obs[o + O.SEAT_BLOCK - 1] = 0
    for i in range(g[G_N_LEGAL]):
        obs[O.LEGAL + i] = g[G_LEGAL + i]


# ---------------------------------------------------------------- the end (§6)
@njit(cache=True)
def majority_points(g, r, points):
    """§6.3 into points[players] (reference.Game.majority_points)."""
    players = g[G_PLAYERS]
    for s in range(players):
        points[s] = 0
    for d in range(N_DOMAINS):
        top = 0
        for s in range(players):
            top = max(top, count(g, r, s, d))
        if top == 0 and not r[R_EMPTY_SCORES]:
            continue
        if r[R_TEAMS]:
            for team in range(2):
                if count(g, r, team, d) == top or count(g, r, team + 2, d) == top:
                    points[team] += 1
                    points[team + 2] += 1
        else:
            for s in range(players):
                if count(g, r, s, d) == top:
                    points[s] += 1


@njit(cache=True)
def final_result(g, r, scores, shares):
    """Scores (majority points) and win shares into scores[players], shares[players]."""
    players = g[G_PLAYERS]
    majority_points(g, r, scores)
    won = np.zeros(players, np.bool_)
    w = g[G_WINNER]
    if w >= 0:
        won[w] = True
        if r[R_TEAMS]:
            won[(w + 2) % 4] = True
    else:
        teams = r[R_TEAMS] != 0
        sides = 2 if teams else players
        best = -1
        for k in range(sides):
            best = max(best, scores[k])
        tied = np.zeros(sides, np.bool_)
        n = 0
        for k in range(sides):
            tied[k] = scores[k] == best
            n += tied[k]
        if r[R_TIE_SHARED] != TIE_SHARED:
            for i in range(r[R_TIE_N]):
                if n == 1:
                    break
                d = r[R_TIE + i]
                most = -1
                for k in range(sides):
                    if tied[k]:
                        most = max(most, _side_count(g, r, k, d, teams))
                n = 0
                for k in range(sides):
                    tied[k] = tied[k] and _side_count(g, r, k, d, teams) == most
                    n += tied[k]
        for s in range(players):
            won[s] = tied[s % 2] if teams else tied[s]
    n_won = won.sum()
    for s in range(players):
        shares[s] = 1.0 / n_won if won[s] else 0.0


@njit(cache=True, inline="always")
def _side_count(g, r, k, d, teams):
    if teams:
        return count(g, r, k, d) + count(g, r, k + 2, d)
    return count(g, r, k, d)


# ---------------------------------------------------------------- batches
@njit(cache=True, nogil=True)
def _play_range(start, stop, first_game, seed, r, players, calls, fns, prms, g, obs, streams,
                scores, shares, extras, errors):
    """Play games first_game + start .. first_game + stop - 1 into rows start .. stop - 1.
    `g`, `obs` and `streams` are scratch owned by the caller."""
    fn_addr, prm_addr, prm_len = engine.seat_tables(fns, prms, players)
    for row in range(start, stop):
        new_game(g, streams, r, players, seed, first_game + row)
        engine.set_calls(g, G_CALLS, calls, fn_addr, prm_addr, prm_len, players)
        status = run(g, obs, streams, r, -1)
        while status > 0:    # a first-class function value the machine cannot call by address
            status = run(g, obs, streams, r,
                         engine.answer(fns, g, G_CALLS, g[G_SEAT], obs, streams, S_SEAT0))
        if status == RUN_ENDLESS:
            record_endless(errors, row)
            continue
        if status == RUN_ILLEGAL:
            record_illegal(errors, row, g[G_SEAT], g[G_IDX], g[G_N_LEGAL], g[G_TURNS], g[G_DECISION])
            continue
        final_result(g, r, scores[row], shares[row])
        extras[row, 0] = END_HEGEMONY if g[G_WINNER] >= 0 else END_MAJORITY
        extras[row, 1] = g[G_HEG_DOMAIN]
        extras[row, 2] = g[G_TURNS]
        extras[row, 3] = deck_left(g)
        extras[row, 4] = g[G_FIRST]
        for s in range(MAX_PLAYERS):
            for d in range(N_DOMAINS):
                extras[row, 5 + N_DOMAINS * s + d] = count(g, r, s, d) if s < players else -1


@njit(parallel=True, cache=True, nogil=True)
def play_block(seed, first_game, r, players, calls, fns, prms, scores, shares, extras, errors, block):
    """Play games first_game .. first_game + len(scores) - 1 into the output rows, in blocks of
    `block` games (any block size gives the same results)."""
    n = scores.shape[0]
    n_blocks = (n + block - 1) // block
    for b in prange(n_blocks):
        g = np.zeros(G_SIZE, np.int64)
        obs = np.zeros((MAX_PLAYERS, O.SIZE), np.int64)
        streams = np.zeros(N_STREAMS, np.uint64)
        _play_range(b * block, min(n, (b + 1) * block), first_game, seed, r, players, calls, fns,
                    prms, g, obs, streams, scores, shares, extras, errors)


def play_batch(rules: CivRules, players: int, seed: int, first_game: int, n_games: int,
               kernels, params, natives=None, block: int | None = None) -> Batch:
    """Same contract as `reference.play_batch`. kernels must be compiled with DECIDE_SIG;
    natives[seat] is RANDOM_POLICY for the core's `random` (run natively), or -1."""
    rules.check_players(players)
    calls, fns, prms = engine.lineup(kernels, params, natives, players, engine.SEAT_SLOTS)
    scores, shares, extras, errors = engine.outputs(n_games, players, len(EXTRAS), extras_by_column=True)
    if n_games > 0:
        play_block(np.uint64(seed), np.int64(first_game), pack_rules(rules), np.int64(players), calls,
                   fns, prms, scores, shares, extras, errors, np.int64(block or engine.blocks(n_games)))
    return engine.finish(first_game, scores, shares, extras, errors, EXTRAS, _where)


def _where(turns: int, decision: int) -> str:
    return f"turn {turns}, {O.DECISION_NAMES[decision]} decision"
