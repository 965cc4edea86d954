"""Schotten Totten's flat Monte-Carlo and ISMCTS: the game-agnostic searches of `core.search`
over this game's determinization, forward model and inference.

`flat_mc_policy` and `ismcts_policy` are ordinary strategy kernels (`decide(obs, params, rng) ->
index of a legal action`, observation.py) that see only the deciding seat's vector; they unpack
their parameters and call `core.search.flat_mc` / `ismcts` with this game's token (`GAME`). The
search algorithms are documented there; this module supplies the game's side of the interface:

  state (`_setup`): fast.py's scratch rows (`_new_scratch`: rules unpacked from the vector, both
      seats on the rollout policy: `policies.GREEDY` with its default parameters, or
      `policies.RANDOM_POLICY`), the forward model's two streams, and the inference data.
  determinize (`_deal`): `determinize` builds a whole engine state from the vector plus a random
      deal of what the seat cannot see, the decision being taken pending; the forward model's
      streams are seeded from the same seed (`_seed_streams`).
  rollout / descend: the fast engine's own turn machine (`fast.run(work, streams, rules, index)`)
      applies the action and plays on by the rules, calling the rollout policy of both seats
      natively, or stopping at the next decision (`fast.CALL_STOP`; `fast.CALL_SHOW` fills the
      deciding seat's vector, which the greedy ranking below the root reads).
  result (`_outcome`): win 1, draw 0.5, loss 0 for the deciding seat; with flat-mc's `margin` =
      m > 0, (1 - m) x that + m x (0.5 + stone difference / (2 x stones)) at the playout's end.
  candidates: at a play decision the legal actions in the greedy's order (best score first),
      only the `prune` best if prune = K > 0; at other decisions (draws, Scout returns, manual
      claims) the greedy's choice first, then the others.
  wins_at_once (`_wins_at_once`): claims in this same turn end the game in the seat's favour.
      Claims need a proof over every hidden card, so such a win does not depend on the deal: one
      determinization tells. A later end (the opponent's forced pass, a blocked game) may depend
      on the hidden hand, so it does not count. (Without this check a sure win can lose to a move
      that wins almost always: ISMCTS plays its most visited root action, and with results near 1
      everywhere the visits are spread evenly.)
  rank (`_rank`): below the root, at a play decision, the `limit` best actions by the greedy score
      of the seat to move (on its vector), best first; at other decisions every action.
  next_seed (`_next_seed`): inference, below.

Determinization (`determinize`): the unseen cards (CARD_LOC == LOC_UNSEEN: the opponent's hand and
both piles) are shuffled uniformly; the opponent's hand gets as many clan and tactic cards as the
pile sizes leave (its size is public: HAND_SIZE), the rest forms the piles in shuffled order. It
uses no knowledge beyond the vector (a strategy has no memory): cards that the seat itself put
under a pile with the Scout are dealt like any unseen card. The turn in progress is rebuilt from
the decision kind: a Scout-draw decision assumes the hand was full when the Scout was played
(hand limit + 2 - hand size draws left, 1 to 3), and whether this turn already claimed or passed
(which only decides an idle turn in a blocked endgame) is taken as no.

Inference (`infer` of flat-mc and ismcts, base game only): a strategy has no memory, but the vector
shows the opponent's last move when it placed a clan card (its side holding the highest LAST_PLACED
clock of the table; nothing placed since). `_previous_view` rebuilds the opponent's play decision
before that move (the card taken back from its side, the stone unclaimed if the opponent holds it,
the seat's own hand unseen); for a determinization, the opponent's hand then was its dealt hand with
the card it played and without the card it drew since (one of the dealt hand's clan cards, drawn
uniformly from the stream, when its hand is full). The deal is consistent when the greedy (default
parameters, the rollout model of the opponent) would have made that move; with infer = T > 0 each
determinization draws up to T deals and keeps the first consistent one, else the one in which the
greedy's best score exceeds the observed move's score least (`_regret`). This samples the
opponent's hand from (approximately) the posterior given its last move instead of the prior.

Randomness: every draw (deals, rollouts, tie-breaks of the tree) comes from the strategy's own
stream `rng`, so a game is reproducible from its seed, in both engines and at any thread count.

Measurements (parameters, strength, what did not help): docs/search.md.
"""
import numpy as np
from numba import njit

from ..core import search as CS
from ..core.nbutil import address_of, view_at
from ..core.rng import split_below, split_next
from . import fast as F
from . import observation as O
from . import policies as K

# parameters, in declaration order (strategies/schotten_totten.py)
MC_SIMS, MC_PRUNE, MC_ROLLOUT, MC_Z, MC_INFER, MC_MARGIN = range(6)
TS_ITERS, TS_C, TS_ROLLOUT, TS_PRUNE, TS_INFER, TS_INNER, TS_REPLIES = range(7)
ROLLOUT_RANDOM, ROLLOUT_GREEDY = 0, 1

N_CLAN = F.N_CLAN
ROLLOUT_SALT = np.uint64(0x5DEECE66D2545F49)
GP_COLUMN = 64           # the rollout greedy's parameters: float64 in row W_STATE from this column


@njit(cache=True)
def rules_of(obs, r):
    """The packed rules (`fast.pack_rules`) of the game the vector comes from."""
    F.pack_flags(r, obs[O.STONES], obs[O.HAND_LIMIT], obs[O.TACTICS], obs[O.ADJACENT_TO_WIN],
                 obs[O.TOTAL_TO_WIN], obs[O.TACTIC_LIMIT], obs[O.CLAIM_AT_START], obs[O.AUTO_CLAIM],
                 obs[O.REDEPLOY_MOVE], obs[O.NO_PLAY_BLOCKS], obs[O.BLOCKED_DRAW])


@njit(cache=True)
def determinize(obs, work, seed):
    """Write into `work` (fast.py's scratch rows) a whole game state consistent with the vector:
    the public table, the seat's own hand, and the unseen cards dealt from the scalar stream
    state `seed` (module docstring). The decision of the vector is left pending (its legal
    actions in row W_LEGAL): `fast.run(work, streams, rules, i)` applies its action i.
    Reads nothing of the vector but what the seat sees. Returns the advanced stream state."""
    me = obs[O.SEAT]
    opp = 1 - me
    n_stones = obs[O.STONES]
    obs0 = work[F.W_OBS0]
    obs1 = work[F.W_OBS1]
    for i in range(O.LEGAL):
        obs0[i] = obs[i]
    for c in range(O.N_CARDS):          # the own hand is not public
        if obs[O.CARD_LOC + c] == O.LOC_HAND + me:
            obs0[O.CARD_LOC + c] = O.LOC_UNSEEN
    for i in range(O.LEGAL):
        obs1[i] = obs0[i]
    side = work[F.W_SIDE]
    side_n = work[F.W_SIDE_N]
    last = work[F.W_LAST]
    key = work[F.W_KEY]
    env = work[F.W_ENV]
    need_of = work[F.W_NEED]
    clock = 0
    for s in range(F.MAX_STONES):
        env[s] = obs[O.FOG + s] | (obs[O.MUD + s] << 1)
        need_of[s] = obs[O.NEED + s] if s < n_stones else 3
        for p in range(2):
            k = 2 * s + p
            side_n[k] = obs[O.SIDE_N + k]
            last[k] = obs[O.LAST_PLACED + k]
            if last[k] > clock:
                clock = last[k]
            key[k] = F.NO_KEY
            for i in range(4):
                side[4 * k + i] = obs[O.SIDE + 4 * k + i]
    per_seat = work[F.W_PER_SEAT]
    per_seat[:] = 0
    open_m = 0
    for s in range(n_stones):
        cl = obs[O.CLAIMED + s]
        if cl < 0:
            open_m |= 1 << s
        else:
            per_seat[F.PS_HELD + cl] |= 1 << s
    for p in range(2):
        per_seat[F.PS_TACTICS + p] = obs[O.TACTICS_PLAYED + p]
        per_seat[F.PS_CHIEF + p] = obs[O.CHIEF_PLAYED + p]
    # own hand; the unseen cards, dealt
    hidden = 0
    uc = np.empty(N_CLAN, np.int64)
    ut = np.empty(10, np.int64)
    n_uc = n_ut = 0
    for c in range(O.N_CARDS):
        loc = obs[O.CARD_LOC + c]
        if loc == O.LOC_HAND + me:
            if c < N_CLAN:
                per_seat[F.PS_HAND_CLAN + me] |= 1 << c
                hidden |= 1 << c
            else:
                per_seat[F.PS_HAND_TACTIC + me] |= 1 << (c - N_CLAN)
        elif loc == O.LOC_UNSEEN:
            if c < N_CLAN:
                uc[n_uc] = c
                n_uc += 1
                hidden |= 1 << c
            else:
                ut[n_ut] = c
                n_ut += 1
    st = seed
    for i in range(n_uc - 1):
        st, j = split_below(st, n_uc - i)
        t = uc[i + j]
        uc[i + j] = uc[i]
        uc[i] = t
    for i in range(n_ut - 1):
        st, j = split_below(st, n_ut - i)
        t = ut[i + j]
        ut[i + j] = ut[i]
        ut[i] = t
    k_c = max(0, min(n_uc, n_uc - obs[O.CLAN_PILE]))
    k_t = max(0, min(n_ut, n_ut - obs[O.TACTIC_PILE]))
    m = 0
    for i in range(k_c):
        m |= 1 << uc[i]
    per_seat[F.PS_HAND_CLAN + opp] = m
    m = 0
    for i in range(k_t):
        m |= 1 << (ut[i] - N_CLAN)
    per_seat[F.PS_HAND_TACTIC + opp] = m
    cpile = work[F.W_CLAN_PILE]
    tpile = work[F.W_TACTIC_PILE]
    for i in range(k_c, n_uc):
        cpile[i - k_c] = uc[i]
    for i in range(k_t, n_ut):
        tpile[i - k_t] = ut[i]
    # the turn in progress
    state = work[F.W_STATE]
    state[:F.S_SIZE] = 0
    dk = obs[O.DECISION]
    hand_now = obs[O.HAND_SIZE + me]
    if dk == O.D_PLAY:
        stage = F.ST_PLAY
    elif dk == O.D_CLAIM:
        stage = F.ST_CLAIM_START if obs[O.CLAIM_AT_START] else F.ST_CLAIM_AFTER
    elif dk == O.D_DRAW:
        stage = F.ST_DRAW
    elif dk == O.D_SCOUT_DRAW:
        stage = F.ST_SCOUT_DRAW
        state[F.S_SCOUT_LEFT] = max(1, min(3, obs[O.HAND_LIMIT] + 2 - hand_now))
    else:
        stage = F.ST_SCOUT_RETURN
        state[F.S_RET_TOTAL] = 2
        state[F.S_RET_DONE] = 2 - obs[O.SCOUT_RETURNS]
    state[F.S_STAGE] = stage
    state[F.S_SEAT] = me
    state[F.S_TO_MOVE] = me
    state[F.S_TURNS] = obs[O.TURN]
    state[F.S_CLOCK] = clock
    state[F.S_N_DISCARD] = obs[O.N_DISCARD]
    state[F.S_C_HEAD], state[F.S_C_TAIL] = 0, n_uc - k_c
    state[F.S_T_HEAD], state[F.S_T_TAIL] = 0, n_ut - k_t
    state[F.S_HIDDEN] = hidden
    state[F.S_OPEN] = open_m
    state[F.S_PREV_IDLE] = obs[O.IDLE]
    state[F.S_WINNER] = -1
    state[F.S_END] = -1
    n = obs[O.N_LEGAL]
    state[F.S_N_LEGAL] = n
    state[F.S_DK] = dk
    legal = work[F.W_LEGAL]
    for i in range(n):
        legal[i] = obs[O.LEGAL + i]
    return st


@njit(cache=True)
def _new_scratch(obs, rollout):
    """Scratch state rows and packed rules for a search; both seats play `rollout` (greedy with
    its default parameters, kept in the scratch itself: numba frees an array after its last use
    in a function, so a separate array's address could dangle)."""
    work = np.zeros((F.W_ROWS, F.W_WIDTH), np.int64)
    r = np.zeros(F.R_N, np.int64)
    rules_of(obs, r)
    address = address_of(work) + 8 * (F.W_STATE * F.W_WIDTH + GP_COLUMN)
    gp = view_at(address, K.G_N, np.float64)
    for i in range(K.G_N):
        gp[i] = K.GREEDY_DEFAULTS[i]
    for p in range(2):
        work[F.W_SEAT_PRM, p] = address
        work[F.W_SEAT_PRM_LEN, p] = K.G_N
    _set_policy(work, rollout)
    return work, r


@njit(cache=True, inline="always")
def _set_policy(work, rollout):
    code = K.GREEDY if rollout == ROLLOUT_GREEDY else K.RANDOM_POLICY
    work[F.W_SEAT_CALL, 0] = code
    work[F.W_SEAT_CALL, 1] = code


@njit(cache=True, inline="always")
def _stop_at_decisions(work, code=F.CALL_STOP):
    """`run` returns at every decision: CALL_STOP, or CALL_SHOW (the deciding seat's vector filled)."""
    work[F.W_SEAT_CALL, 0] = code
    work[F.W_SEAT_CALL, 1] = code


@njit(cache=True, inline="always")
def _seed_streams(streams, seed):
    st, a = split_next(seed ^ ROLLOUT_SALT)
    st, b = split_next(st)
    streams[0] = a
    streams[1] = b


@njit(cache=True, inline="always")
def _result(work, status, seat):
    """The game's result for `seat` (1 win, 0.5 draw, 0 loss) once `run` returned `status`."""
    if status != F.RUN_END:
        return 0.5
    w = work[F.W_STATE, F.S_WINNER]
    if w < 0:
        return 0.5
    return 1.0 if w == seat else 0.0


@njit(cache=True, inline="always")
def _stone_share(work, seat, n_stones):
    """0.5 + (stones held by `seat` - by the opponent) / (2 * stones), at the end of a playout."""
    d = (F.popcount(work[F.W_PER_SEAT, F.PS_HELD + seat])
         - F.popcount(work[F.W_PER_SEAT, F.PS_HELD + 1 - seat]))
    return 0.5 + d / (2.0 * n_stones)


@njit(cache=True)
def _greedy_order(obs, n, gp, scores):
    """The n legal actions of a play decision, best greedy score first (ties: legal order)."""
    K.greedy_scores(obs, gp, scores)
    return np.argsort(-scores[:n], kind="mergesort")


@njit(cache=True)
def candidates(obs, prune):
    """Indices of the legal actions to search, the greedy's choice first: at a play decision in
    the greedy's order (best first), only the `prune` best if prune > 0; at other decisions the
    greedy's choice, then the others in legal order."""
    n = obs[O.N_LEGAL]
    gp = np.empty(K.G_N, np.float64)
    for i in range(K.G_N):
        gp[i] = K.GREEDY_DEFAULTS[i]
    if obs[O.DECISION] != O.D_PLAY:
        first = K.greedy_policy(obs, gp, np.zeros(1, np.uint64))
        out = np.empty(n, np.int64)
        out[0] = first
        j = 1
        for i in range(n):
            if i != first:
                out[j] = i
                j += 1
        return out
    order = _greedy_order(obs, n, gp, np.empty(n, np.float64))
    if prune <= 0 or n <= prune:
        return order
    return order[:prune].copy()


@njit(cache=True)
def _last_opponent_play(obs):
    """(card, stone) of the opponent's last move if it placed a clan card that is still on its
    side and nothing was placed since (the opponent's side holding the highest LAST_PLACED clock
    of the table), in a game without tactic cards; else (-1, -1)."""
    if obs[O.TACTICS] != 0:
        return -1, -1
    me = obs[O.SEAT]
    opp = 1 - me
    best_o = 0
    best_s = -1
    best_m = 0
    for s in range(obs[O.STONES]):
        lo = obs[O.LAST_PLACED + 2 * s + opp]
        lm = obs[O.LAST_PLACED + 2 * s + me]
        if lm > best_m:
            best_m = lm
        if obs[O.SIDE_N + 2 * s + opp] > 0 and lo > best_o:
            best_o = lo
            best_s = s
    if best_s < 0 or best_o <= best_m:
        return -1, -1
    k = 2 * best_s + opp
    c = obs[O.SIDE + 4 * k + obs[O.SIDE_N + k] - 1]
    if c < 0 or c >= N_CLAN:
        return -1, -1
    return c, best_s


@njit(cache=True)
def _previous_view(obs, c, s):
    """The opponent's play decision before it placed card c at stone s, as far as the vector
    tells: the table without c (stone s unclaimed), seen by the opponent. Its hand and legal
    actions are filled per determinization (`_regret`)."""
    me = obs[O.SEAT]
    opp = 1 - me
    pv = obs.copy()
    pv[O.SEAT] = opp
    pv[O.DECISION] = O.D_PLAY
    k = 2 * s + opp
    n = pv[O.SIDE_N + k] - 1
    pv[O.SIDE_N + k] = n
    pv[O.SIDE + 4 * k + n] = -1
    if n == 0:
        pv[O.LAST_PLACED + k] = 0
    if pv[O.CLAIMED + s] == opp:
        pv[O.CLAIMED + s] = -1
        pv[O.STONES_HELD + opp] -= 1
    for i in range(O.MAX_HAND):
        pv[O.HAND + i] = -1
    for card in range(O.N_CARDS):
        if pv[O.CARD_LOC + card] == O.LOC_HAND + me:
            pv[O.CARD_LOC + card] = O.LOC_UNSEEN
    pv[O.CARD_LOC + c] = O.LOC_HAND + opp
    return pv


@njit(cache=True)
def _regret(obs, pv, c, s, opp_hand, drawn, gp, scores):
    """How much the greedy (default parameters) would have preferred its best play over the
    observed one (card c at stone s) with the clan cards `opp_hand` (bit mask) in hand before it
    played c (c itself included, the card `drawn` since then excluded): 0 if c at s was its choice."""
    opp = pv[O.SEAT]
    n_stones = pv[O.STONES]
    for card in range(N_CLAN):
        if card != c and pv[O.CARD_LOC + card] == O.LOC_HAND + opp:
            pv[O.CARD_LOC + card] = O.LOC_UNSEEN
    hand = (opp_hand & ~(1 << drawn)) if drawn >= 0 else opp_hand
    n = 0
    chosen = -1
    for card in range(N_CLAN):
        if card != c and not (hand >> card) & 1:
            continue
        pv[O.CARD_LOC + card] = O.LOC_HAND + opp
        for t in range(n_stones):
            if pv[O.CLAIMED + t] < 0 and pv[O.SIDE_N + 2 * t + opp] < pv[O.NEED + t]:
                if card == c and t == s:
                    chosen = n
                pv[O.LEGAL + n] = O.encode(O.PLAY, card, t, -1, -1, -1)
                n += 1
    pv[O.N_LEGAL] = n
    if chosen < 0 or n < 2:
        return 0.0
    K.greedy_scores(pv, gp, scores)
    best = scores[0]
    for i in range(1, n):
        if scores[i] > best:
            best = scores[i]
    return best - scores[chosen]


@njit(cache=True, inline="always")
def _next_deal(obs, work, pv, c, s, tries, st, gp, scores):
    """The seed of the next determinization: inferred from the opponent's last play (card c
    at stone s) when there is one (c >= 0), else the next draw of the stream. Returns (seed,
    advanced stream state)."""
    if c < 0:
        st, seed = split_next(st)
        return seed, st
    return _inferred_seed(obs, work, pv, c, s, tries, st, gp, scores)


@njit(cache=True)
def _inferred_seed(obs, work, pv, c, s, tries, st, gp, scores):
    """Among `tries` determinizations (seeds drawn from the stream state st), the first in which
    the greedy would have played the opponent's last visible play (card c at stone s), else the
    one in which it regrets that play least. Returns (seed, advanced stream state)."""
    opp = 1 - obs[O.SEAT]
    full = obs[O.HAND_SIZE + opp] >= obs[O.HAND_LIMIT]
    best_seed = np.uint64(0)
    best_r = 1e300
    for t in range(tries):
        st, seed = split_next(st)
        determinize(obs, work, seed)
        h = work[F.W_PER_SEAT, F.PS_HAND_CLAN + opp]
        drawn = -1
        if full:
            cnt = F.popcount(h)
            if cnt > 0:
                st, j = split_below(st, cnt)
                m = h
                for _ in range(j):
                    m &= m - 1
                drawn = F.lowest_bit(m)
        rg = _regret(obs, pv, c, s, h, drawn, gp, scores)
        if rg < best_r:
            best_r = rg
            best_seed = seed
        if rg <= 1e-12:
            break
    return best_seed, st


@njit(cache=True)
def _inference_setup(obs, infer):
    """(card, stone, previous view, greedy parameters, score scratch) for `_inferred_seed`;
    card = -1 when there is nothing to infer from (infer = 0, tactics, no visible last play)."""
    lc, ls = _last_opponent_play(obs) if infer > 0 else (-1, -1)
    pv = _previous_view(obs, lc, ls) if lc >= 0 else obs.copy()
    gp = np.empty(K.G_N, np.float64)
    for i in range(K.G_N):
        gp[i] = K.GREEDY_DEFAULTS[i]
    return lc, ls, pv, gp, np.empty(O.MAX_LEGAL, np.float64)


@njit(cache=True)
def _inner_candidates(obs_s, n, inner, gp, scores, ok, rank):
    """Below the root (ismcts's `inner` > 0): at a play decision, allow only the `inner` best
    actions by the greedy score of the seat to move (its vector `obs_s`), ranked best first; at
    other decisions every action, in legal order."""
    if obs_s[O.DECISION] != O.D_PLAY:
        for i in range(n):
            ok[i] = True
            rank[i] = i
        return
    order = _greedy_order(obs_s, n, gp, scores)
    for j in range(n):
        rank[order[j]] = j
        ok[order[j]] = j < inner



# ---------------------------------------------------------------- the search interface (core.search)
@njit(cache=True)
def _setup(obs, config):
    """(work, rules, streams, rollout, margin, inference data...): the state of one search.
    config = (rollout, infer, margin)."""
    rollout, infer, margin = config
    work, r = _new_scratch(obs, rollout)
    lc, ls, pv, gp, scores = _inference_setup(obs, infer)
    return (work, r, np.zeros(2, np.uint64), rollout, margin, infer, lc, ls, pv, gp, scores)


@njit(cache=True, inline="always")
def _deal(obs, state, seed):
    work, streams = state[0], state[2]
    determinize(obs, work, seed)
    _seed_streams(streams, seed)


@njit(cache=True, inline="always")
def _rollout(state, i):
    work, r, streams, rollout = state[0], state[1], state[2], state[3]
    _set_policy(work, rollout)
    return F.run(work, streams, r, i)


@njit(cache=True, inline="always")
def _descend(state, i, show):
    work, r, streams = state[0], state[1], state[2]
    _stop_at_decisions(work, F.CALL_SHOW if show else F.CALL_STOP)
    return F.run(work, streams, r, i)


@njit(cache=True, inline="always")
def _outcome(obs, state, status):
    work, margin = state[0], state[4]
    me = obs[O.SEAT]
    v = _result(work, status, me)
    if margin > 0.0:
        v = (1.0 - margin) * v + margin * _stone_share(work, me, obs[O.STONES])
    return v


@njit(cache=True, inline="always")
def _to_move(state):
    return state[0][F.W_STATE, F.S_SEAT]


@njit(cache=True, inline="always")
def _action_at(state, i):
    return state[0][F.W_LEGAL, i]


@njit(cache=True, inline="always")
def _next_seed(obs, state, st):
    work, infer, lc, ls, pv, gp, scores = (state[0], state[5], state[6], state[7], state[8],
                                           state[9], state[10])
    return _next_deal(obs, work, pv, lc, ls, infer, st, gp, scores)


@njit(cache=True)
def _wins_at_once(obs, state, i):
    """Does action i win the game by claims in this same turn (module docstring)?"""
    work, r, streams = state[0], state[1], state[2]
    wstate = work[F.W_STATE]
    determinize(obs, work, np.uint64(0))
    _stop_at_decisions(work)
    return (F.run(work, streams, r, i) == F.RUN_END and wstate[F.S_WINNER] == obs[O.SEAT]
            and wstate[F.S_END] != F.END_BLOCKED and wstate[F.S_TURNS] == obs[O.TURN] + 1)


@njit(cache=True, inline="always")
def _rank(state, seat, n, limit, ok, order):
    work, gp, scores = state[0], state[9], state[10]
    _inner_candidates(work[F.W_OBS0 + seat], n, limit, gp, scores, ok, order)


GAME = CS.declare("schotten-totten", candidates=candidates, setup=_setup, determinize=_deal,
                  rollout=_rollout, descend=_descend, result=_outcome, to_move=_to_move,
                  action_at=_action_at, max_legal=O.MAX_LEGAL, next_seed=_next_seed,
                  wins_at_once=_wins_at_once, rank=_rank)


# ---------------------------------------------------------------- the strategy kernels
@njit(cache=True)
def flat_mc_policy(obs, params, rng):
    """flat-mc, params (sims, prune, rollout, z, infer, margin): `core.search.flat_mc`."""
    return CS.flat_mc(GAME, obs, rng, int(params[MC_SIMS]), int(params[MC_PRUNE]), params[MC_Z],
                      (int(params[MC_ROLLOUT]), int(params[MC_INFER]), params[MC_MARGIN]))


@njit(cache=True)
def ismcts_policy(obs, params, rng):
    """ismcts, params (iters, c, rollout, prune, infer, inner, replies): `core.search.ismcts`."""
    return CS.ismcts(GAME, obs, rng, int(params[TS_ITERS]), params[TS_C], int(params[TS_PRUNE]),
                     int(params[TS_INNER]), int(params[TS_REPLIES]),
                     (int(params[TS_ROLLOUT]), int(params[TS_INFER]), 0.0))
