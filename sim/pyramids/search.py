"""Pyramids' part of the core search (sim/core/search.py): determinization and the hooks.

The forward model is the fast engine's own machine (`fast.run`) on a state vector rebuilt from
the deciding seat's observation, so the searches play exactly the engine's rules. The rules
come with the strategy's parameters (the packed rule vector, appended by its `prepare`), since
the observation does not show every rule (the obelisk table).

Determinization (`determinize`), from what the seat sees:
  - known: every pyramid and obelisk, the quarry, the tiles, the seat's own hand, tomb and
    discards, the cards seen in the quarry and taken by another seat (LOC_TAKEN: in that seat's
    hand, tomb or discards), every discard when discards are public, the hand sizes, the tomb
    sizes when public;
  - another seat's hidden cards: it has received 1 + 2 x (pairs taken) cards, so its hidden
    cards (hand, tomb, discards) number that less its pyramid and obelisk; among them are the
    cards known to be with it, the rest are unseen. Its hand and tomb slots are filled uniformly
    from that bag (known cards, and stand-ins for the unseen ones drawn from the unseen cards);
    the rest of the bag is its discards. With tomb sizes hidden, the tomb's size is drawn
    uniformly between 0 and what its hidden cards allow (a guess: the observation does not say
    how many tomb turns it had);
  - the unseen cards left are the deck, in a uniform order (and the discards nobody sees).
The tile history of the round (which seat took which tile) is public and copied; the 2-player
set-aside tile too. Seats' tile strings (an output column only) start empty.
"""
import numpy as np
from numba import njit

from ..core import search as CS
from ..core.nbutil import address_of, jit_address
from ..core.rng import split_below, split_next
from . import board as B
from . import fast as F
from . import observation as O
from . import policies as K
from .rules import MAX_PLAYERS, PyramidsRules

# the strategies' parameter vectors: (search parameters, then the packed rule vector)
MC_SIMS, MC_PRUNE, MC_Z, MC_ROLLOUT, MC_MARGIN, MC_RULES = range(6)
ROLLOUT_RANDOM, ROLLOUT_GREEDY = 0, 1     # the rollout policy of every seat
TS_ITERS, TS_C, TS_ROLLOUT, TS_MARGIN, TS_RULES = range(5)


# ---------------------------------------------------------------- rebuilding a state
@njit(cache=True)
def _stage_of(decision):
    return F.ST_TILE if decision == O.D_TILE else decision + F.ST_PAIR - O.D_PAIR


@njit(cache=True)
def _pairs_taken(obs, s):
    """Pairs seat s has taken: one per finished round, and this round's if its turn is past."""
    n = obs[O.ROUND]
    if obs[O.DECISION] == O.D_TILE:
        return n
    me = obs[O.SEAT]
    if s == me:
        return n + 1 if obs[O.TURN_PAIR] >= 0 else n
    mine = obs[O.TURN_TILE]
    for t in range(1, mine):
        if obs[O.TILE_OWNER + t - 1] == s:
            return n + 1
    return n


@njit(cache=True)
def determinize(obs, g, streams, r, seed):
    """Write into `g` a whole state consistent with the vector (module docstring), its decision
    pending; seed the forward model's streams from the scalar state `seed`."""
    me, players, n_cards = obs[O.SEAT], obs[O.PLAYERS], obs[O.N_CARDS]
    g[:F.G_CALL] = 0
    g[F.G_SEATS:] = 0
    g[F.G_PLAYERS], g[F.G_N_CARDS], g[F.G_ROUND] = players, n_cards, obs[O.ROUND]
    g[F.G_FIRST], g[F.G_SET_ASIDE] = obs[O.FIRST_PLAYER], obs[O.SET_ASIDE]
    for c in range(O.MAX_CARDS):
        g[F.G_CODE + c] = obs[O.CARD_CODE + c]
    for t in range(5):
        g[F.G_OFFERED + t] = obs[O.TILE_OFFERED + t]
        g[F.G_OWNER + t] = obs[O.TILE_OWNER + t]
    for i in range(2 * MAX_PLAYERS):
        c = obs[O.QUARRY + i]
        g[F.G_QUARRY + i] = c
        if c >= 0:
            g[F.G_LOC + c] = F.L_QUARRY * 8
            g[F.G_SEEN + c] = 1
    unseen = np.empty(n_cards, np.int64)
    n_unseen = 0
    taken = np.empty((MAX_PLAYERS, n_cards), np.int64)
    n_taken = np.zeros(MAX_PLAYERS, np.int64)
    for c in range(n_cards):
        loc = obs[O.CARD_LOC + c]
        if loc == O.LOC_UNSEEN:
            unseen[n_unseen] = c
            n_unseen += 1
        elif loc >= O.LOC_TAKEN:
            s = loc - O.LOC_TAKEN
            taken[s, n_taken[s]] = c
            n_taken[s] += 1
            g[F.G_SEEN + c] = 1
        elif loc == O.LOC_DISCARD:
            _to_discard(g, c, me)
        elif loc == O.LOC_HAND:
            g[F.G_LOC + c] = F.L_HAND * 8 + me
        elif loc >= O.LOC_TOMB:
            g[F.G_LOC + c] = F.L_TOMB * 8 + me
        elif loc >= O.LOC_OBELISK:
            g[F.G_LOC + c] = F.L_OBELISK * 8 + loc - O.LOC_OBELISK
            g[F.G_SEEN + c] = 1
        elif loc >= O.LOC_PYRAMID:
            g[F.G_LOC + c] = F.L_PYRAMID * 8 + loc - O.LOC_PYRAMID
            g[F.G_SEEN + c] = 1
    s_st = _shuffle(seed, unseen, n_unseen)
    for s in range(MAX_PLAYERS):
        at, ob = F.seat_at(g, s), O.SEATS + O.SEAT_BLOCK * s
        for i in range(3):
            g[at + F.P_HAND + i] = -1
        for i in range(10):
            g[at + F.P_PYRAMID + i] = obs[ob + O.S_PYRAMID + i]
            g[at + F.P_OBELISK + i] = obs[ob + O.S_OBELISK + i]
            g[at + F.P_TOMB + i] = -1
        if s >= players:
            continue
        g[at + F.P_OBELISK_N] = obs[ob + O.S_OBELISK_N]
        g[at + F.P_STALE] = 1
        if s == me:
            for i in range(obs[ob + O.S_TOMB_N]):
                g[at + F.P_TOMB + i] = obs[ob + O.S_TOMB + i]
            g[at + F.P_TOMB_N] = obs[ob + O.S_TOMB_N]
            h = 0
            for i in range(O.MAX_HAND):
                if obs[O.HAND + i] >= 0:
                    g[at + F.P_HAND + h] = obs[O.HAND + i]
                    h += 1
            g[at + F.P_HAND_N] = h
            continue
        s_st, n_unseen = _deal_hidden(obs, g, s, s_st, unseen, n_unseen, obs[O.DECK_LEFT], taken[s],
                                      n_taken[s], r[F.R_DISCARDS_PUBLIC] != 0)
    # the deck: the first DECK_LEFT unseen cards, after the dealt ones
    left = obs[O.DECK_LEFT]
    head = n_cards - left
    g[F.G_DECK_HEAD] = head
    for i in range(left):
        c = unseen[n_unseen - left + i]
        g[F.G_DECK + head + i] = c
        g[F.G_LOC + c] = F.L_DECK
    for i in range(n_unseen - left):          # unseen cards nobody holds: out (discarded)
        _to_discard(g, unseen[i], me)
    _pending(obs, g, r)
    s_st, a = split_next(s_st)
    streams[F.S_DECK] = a
    s_st, a = split_next(s_st)
    streams[F.S_TILE] = a
    for p in range(MAX_PLAYERS):
        s_st, a = split_next(s_st)
        streams[F.S_SEAT0 + p] = a


@njit(cache=True, inline="always")
def _to_discard(g, c, seat):
    g[F.G_LOC + c] = F.L_DISCARD * 8 + seat


@njit(cache=True)
def _shuffle(s, values, n):
    """Fisher-Yates on values[:n] from the scalar stream state s; the new state."""
    for i in range(n - 1):
        s, j = split_below(s, n - i)
        j += i
        values[i], values[j] = values[j], values[i]
    return s


@njit(cache=True)
def _deal_hidden(obs, g, s, st, unseen, n_unseen, deck_left, known, n_known, public_discards):
    """Seat s's hand and tomb (module docstring); unseen stand-ins are taken from the end of
    the shuffled `unseen` list, always leaving the deck's `deck_left` (a guessed tomb size may
    ask for more than there are). Returns (stream state, unseen cards left)."""
    at, ob = F.seat_at(g, s), O.SEATS + O.SEAT_BLOCK * s
    received = 1 + 2 * _pairs_taken(obs, s)
    hidden = received - (O.SLOTS - _free(obs, ob)) - obs[ob + O.S_OBELISK_N]   # hand, tomb, discards
    hand_n = obs[ob + O.S_HAND_SIZE]
    tomb_n = obs[ob + O.S_TOMB_N]
    if tomb_n < 0:            # tomb sizes hidden: a guess
        st, tomb_n = split_below(st, max(1, hidden - hand_n + 1))
    if public_discards:       # its discards are visible elsewhere: the bag is hand and tomb
        tomb_n = max(tomb_n, n_known - hand_n)
        hidden = hand_n + tomb_n
    n_stand = max(0, hidden - n_known)
    n_stand = min(n_stand, n_unseen - deck_left)
    bag = np.empty(n_known + n_stand, np.int64)
    for i in range(n_known):
        bag[i] = known[i]
    for i in range(n_stand):
        bag[n_known + i] = unseen[n_unseen - 1 - i]
    n_unseen -= n_stand
    st = _shuffle(st, bag, bag.shape[0])
    k = 0
    hand = np.empty(3, np.int64)
    for i in range(min(hand_n, bag.shape[0])):
        hand[i] = bag[k]
        k += 1
    hand_n = min(hand_n, bag.shape[0])
    hand[:hand_n].sort()
    for i in range(hand_n):
        g[at + F.P_HAND + i] = hand[i]
        g[F.G_LOC + hand[i]] = F.L_HAND * 8 + s
    g[at + F.P_HAND_N] = hand_n
    tomb_n = min(tomb_n, bag.shape[0] - k)
    for i in range(tomb_n):
        c = bag[k]
        k += 1
        g[at + F.P_TOMB + i] = c
        g[F.G_LOC + c] = F.L_TOMB * 8 + s
    g[at + F.P_TOMB_N] = tomb_n
    while k < bag.shape[0]:
        _to_discard(g, bag[k], s)
        g[at + F.P_DISCARDS] += 1
        k += 1
    return st, n_unseen


@njit(cache=True, inline="always")
def _free(obs, ob):
    n = 0
    for i in range(O.SLOTS):
        if obs[ob + O.S_PYRAMID + i] < 0:
            n += 1
    return n


@njit(cache=True)
def _pending(obs, g, r):
    """The vector's decision, pending in g: its stage, the turn so far and its legal list."""
    me, decision = obs[O.SEAT], obs[O.DECISION]
    stage = _stage_of(decision)
    g[F.G_STAGE] = stage
    g[F.G_SEAT], g[F.G_DECISION], g[F.G_N_LEGAL] = me, decision, obs[O.N_LEGAL]
    for i in range(obs[O.N_LEGAL]):
        g[F.G_LEGAL + i] = obs[O.LEGAL + i]
    g[F.G_PENDING] = 1
    g[F.T_SEAT] = -1
    if stage == F.ST_TILE:
        k = 0
        for t in range(5):
            if obs[O.TILE_OWNER + t] >= 0:
                k += 1
        g[F.G_K] = k
        return
    g[F.G_K] = obs[O.PLAYERS]
    tile = obs[O.TURN_TILE]
    g[F.G_TILE_NEXT] = tile
    may_tomb, may_obelisk, either = F.powers(r, obs[O.PLAYERS], tile)
    g[F.T_SEAT], g[F.T_TILE], g[F.T_PAIR] = me, tile, obs[O.TURN_PAIR]
    g[F.T_PCARD], g[F.T_PSPOT] = obs[O.TURN_PYRAMID_CARD], obs[O.TURN_PYRAMID_SPOT]
    g[F.T_TOMB], g[F.T_OBELISK] = obs[O.TURN_TOMB], obs[O.TURN_OBELISK]
    g[F.T_EITHER] = either
    if stage <= F.ST_PYRAMID:
        g[F.T_MAY_TOMB], g[F.T_MAY_OBELISK] = may_tomb, may_obelisk
    else:
        g[F.T_MAY_TOMB], g[F.T_MAY_OBELISK] = obs[O.MAY_TOMB], obs[O.MAY_OBELISK]


# ---------------------------------------------------------------- the search interface
_PRUNE_PARAMS = np.zeros(K.N_PARAMS, np.float64)   # the greedy's defaults, published obelisk table
_PRUNE_PARAMS[:K.N_WEIGHTS] = K.GREEDY_DEFAULTS
_PRUNE_PARAMS[K.P_TABLE_N] = len(PyramidsRules().obelisk_points)
_PRUNE_PARAMS[K.P_TABLE:K.P_TABLE + len(PyramidsRules().obelisk_points)] = PyramidsRules().obelisk_points


@njit(cache=True)
def candidates(obs, prune):
    """Every legal action in legal order (prune <= 0); else the greedy's `prune` best by its
    valuation (with its default weights and the published obelisk table), its own choice first."""
    n = obs[O.N_LEGAL]
    if prune <= 0 or prune >= n:
        return np.arange(n)
    values, gains = np.empty(n, np.float64), np.empty(n, np.float64)
    # a copy: the global is a read-only array to numba, a second type for every valuation kernel
    K.action_values(obs, _PRUNE_PARAMS.copy(), values, gains)
    return np.argsort(-values, kind="mergesort")[:prune]


@njit(cache=True)
def _setup(obs, config):
    """(g, observation block, streams, rules, rollout code, margin, greedy parameters): config =
    (rollout, margin, the packed rules as floats)."""
    r = np.empty(config.shape[0] - 2, np.int64)
    for i in range(r.shape[0]):
        r[i] = np.int64(config[2 + i])
    g = np.zeros(F.G_SIZE, np.int64)
    block = np.zeros((MAX_PLAYERS, O.SIZE), np.int64)
    return (g, block, np.zeros(F.N_STREAMS, np.uint64), r, np.int64(config[0]), config[1],
            _greedy_params(r))


@njit(cache=True)
def _greedy_params(r):
    """The greedy's default parameter vector (strategies/pyramids.py `_params`) for rules r."""
    p = np.zeros(K.N_PARAMS, np.float64)
    for i in range(K.N_WEIGHTS):
        p[i] = K.GREEDY_DEFAULTS[i]
    n = r[F.R_OBELISK_N]
    p[K.P_TABLE_N] = n
    for i in range(n):
        p[K.P_TABLE + i] = r[F.R_OBELISK + i]
    return p


@njit(cache=True, inline="always")
def _deal(obs, state, seed):
    g, block, streams, r = state[0], state[1], state[2], state[3]
    determinize(obs, g, streams, r, seed)
    F.write_codes(g, block)


@njit(cache=True, inline="always")
def _calls(g, code):
    for p in range(MAX_PLAYERS):
        g[F.G_CALL + p] = code


@njit(cache=True, inline="always")
def _rollout(state, i):
    g, block, streams, r = state[0], state[1], state[2], state[3]
    if state[4] == ROLLOUT_GREEDY:
        prm = state[6]
        for p in range(MAX_PLAYERS):
            g[F.G_CALL + p], g[F.G_FN + p] = F.CALL_JIT, jit_address(K.greedy)
            g[F.G_PRM + p], g[F.G_PRM_LEN + p] = address_of(prm), prm.shape[0]
    else:
        _calls(g, F.RANDOM_POLICY)
    return F.run(g, block, streams, r, i)


@njit(cache=True, inline="always")
def _descend(state, i, show):
    g, block, streams, r = state[0], state[1], state[2], state[3]
    _calls(g, F.CALL_STOP)
    return F.run(g, block, streams, r, i)


@njit(cache=True)
def _outcome(obs, state, status):
    """Win share of the deciding seat; with margin m, (1 - m) x share + m x the score margin
    over the best other seat, squashed into [0, 1]."""
    g, r, margin = state[0], state[3], state[5]
    if status != F.RUN_END:
        return 0.5
    players, me = g[F.G_PLAYERS], obs[O.SEAT]
    scores = np.zeros(players, np.int64)
    shares = np.zeros(players, np.float64)
    F.final_result(g, r, scores, shares, np.zeros((players, F.N_PARTS), np.int64),
                   np.zeros((players, B.N_COLOURS), np.int64))
    v = shares[me]
    if margin > 0.0:
        best = -1
        for s in range(players):
            if s != me:
                best = max(best, scores[s])
        d = (scores[me] - best) / 20.0
        v = (1.0 - margin) * v + margin * (0.5 + 0.5 * d / (1.0 + abs(d)))
    return v


@njit(cache=True, inline="always")
def _to_move(state):
    return state[0][F.G_SEAT]


@njit(cache=True, inline="always")
def _action_at(state, i):
    return state[0][F.G_LEGAL + i]


GAME = CS.declare("pyramids", candidates=candidates, setup=_setup, determinize=_deal,
                  rollout=_rollout, descend=_descend, result=_outcome, to_move=_to_move,
                  action_at=_action_at, max_legal=O.MAX_LEGAL)


# ---------------------------------------------------------------- the strategy kernels
@njit(cache=True)
def flat_mc_policy(obs, params, rng):
    """flat-mc, params (sims, prune, z, rollout, margin, packed rules...)."""
    return CS.flat_mc(GAME, obs, rng, int(params[MC_SIMS]), int(params[MC_PRUNE]), params[MC_Z],
                      params[MC_ROLLOUT:])


@njit(cache=True)
def ismcts_policy(obs, params, rng):
    """ismcts, params (iters, c, rollout, margin, packed rules...)."""
    return CS.ismcts(GAME, obs, rng, int(params[TS_ITERS]), params[TS_C], 0, 0, 0,
                     params[TS_ROLLOUT:])


@njit(cache=True)
def force_tile_flat_mc_policy(obs, params, rng):
    """force-tile-mc: tile params[0] in round params[1] when it is on offer; flat-mc with
    params[2:] for every other decision (the tile-choice analysis's forced flat-mc seat).
    Before that round it draws exactly what flat-mc draws, so forced games share their past."""
    if obs[O.DECISION] == O.D_TILE and obs[O.ROUND] + 1 == params[1]:
        for i in range(obs[O.N_LEGAL]):
            if O.action_arg(obs[O.LEGAL + i]) == params[0]:
                return i
    return flat_mc_policy(obs, params[2:], rng)
