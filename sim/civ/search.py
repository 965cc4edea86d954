"""CIV's part of the core search (sim/core/search.py): determinization and the hooks.

The forward model is the fast engine's own machine (`fast.run`) on a state vector rebuilt from
the deciding seat's observation, so the searches play exactly the engine's rules. The rules
come with the strategy's parameters (the packed rule vector, appended by its `prepare`), since
the observation does not show every rule (the removals, the rulings).

Determinization (`determinize`), from what the seat sees:
  - copied: every play area, Embargo and Democracy card, the discard pile, the Art coin, the
    turn and the first player, the final round, the thresholds, the seat's own hand (and its
    draft packet, or the centre cards), what it knows of the other hands (S_KNOWN, its row of
    the engine's known-cards table; the other seats' rows start at 0, a true lower bound), and
    the turn in progress (T_*: the effect, its phase and its pick), so the pending decision is
    exactly the observed one, legal list included;
  - the unseen cards: the 104-card table less everything seen (play areas, Embargo and
    Democracy cards, the discard pile, the own hand and packet or the centre, the known cards
    in the other hands). They are the deck, the box (3 cards of each Age at 2-3 players) and
    the other seats' unknown hand (and draft packet) cards;
  - the deck keeps its Age structure. It was stacked Age I on top, II, III at the bottom, and
    the seat knows how many cards were drawn, so it knows the Age of every card left. An Age
    no card was drawn from yet is whole in the deck and the box: its cards are exactly the
    table's row, shuffled, `removed` of them to the box. The cards of an Age already drawn
    from (its rest in the deck, and its box) are drawn one at a time from the unseen cards,
    Domain d with weight (the Age's d cards not yet placed) x (unseen d cards not yet placed)
    / (the d cards not yet placed of the Ages drawn from): the chance that a d card of that
    Age is still unseen, if the seen d cards came evenly from those Ages (an approximation:
    the exact posterior of which Age each seen card came from is not worth its cost). Then the
    Age's cards are shuffled, the box first;
  - the rest of the unseen cards, shuffled, complete the other seats' hands (after their known
    cards) and, in the draft, their packets.
"""
import numpy as np
from numba import njit

from ..core import search as CS
from ..core.nbutil import address_of, jit_address
from ..core.rng import split_below, split_next
from . import fast as F
from . import observation as O
from . import policies as K
from .cards import COUNTS, DOMAIN_TOTALS, ECONOMY, N_AGES, N_DOMAINS, UTOPIA
from .rules import MAX_PLAYERS

# the strategies' parameter vectors: (search parameters, then the packed rule vector)
MC_SIMS, MC_PRUNE, MC_Z, MC_ROLLOUT, MC_MARGIN, MC_RULES = range(6)
ROLLOUT_RANDOM, ROLLOUT_GREEDY = 0, 1     # the rollout policy of every seat
TS_ITERS, TS_C, TS_ROLLOUT, TS_MARGIN, TS_RULES = range(5)

AGE_COUNTS = np.array(COUNTS, np.int64)
TABLE = np.array(DOMAIN_TOTALS, np.int64)
DRAFT_PACKET = 4                          # cards dealt to each seat for the draft (§3.1)


# ---------------------------------------------------------------- rebuilding a state
@njit(cache=True)
def _stage_of(decision):
    if decision == O.D_DRAFT_KEEP:
        return F.ST_DRAFT_KEEP
    if decision == O.D_DRAFT_TAKE:
        return F.ST_DRAFT_TAKE
    if decision == O.D_PLAY:
        return F.ST_PLAY
    if decision == O.D_EFFECT:
        return F.ST_EFFECT
    if (decision == O.D_ATTACK or decision == O.D_INQUISITION or decision == O.D_EMBARGO
            or decision == O.D_DEMOCRACY):
        return F.ST_CHOOSE
    return F.ST_PICK


@njit(cache=True)
def unseen_cards(obs, out):
    """The cards of each Domain the seat has not seen into out[6]: the table less the play areas,
    the Embargo and Democracy cards, the discard pile, its hand, its packet or the centre, and the
    cards it knows in the other hands."""
    me = obs[O.SEAT]
    for d in range(N_DOMAINS):
        out[d] = TABLE[d] - obs[O.DISCARD + d] - obs[O.OWN_HAND + d] - obs[O.DRAFT + d]
    for s in range(obs[O.PLAYERS]):
        ob = O.SEATS + O.SEAT_BLOCK * s
        for d in range(N_DOMAINS):
            out[d] -= obs[ob + O.S_PLAY + d]
            out[ECONOMY] -= obs[ob + O.S_EMBARGO + d]
            out[UTOPIA] -= obs[ob + O.S_DEMOCRACY + d]
            if s != me:
                out[d] -= obs[ob + O.S_KNOWN + d]


@njit(cache=True, inline="always")
def _uniform(s):
    s, x = split_next(s)
    return s, np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _shuffle(s, values, n):
    """Fisher-Yates on values[:n] from the scalar stream state s; the new state."""
    for i in range(n - 1):
        s, j = split_below(s, n - i)
        j += i
        values[i], values[j] = values[j], values[i]
    return s


@njit(cache=True)
def _weighted_domain(s, age, cap, left, touched):
    """A Domain for a card of Age `age` among the unseen ones (module docstring); (state, d)."""
    w = np.zeros(N_DOMAINS, np.float64)
    total = 0.0
    for d in range(N_DOMAINS):
        if cap[age, d] > 0 and left[d] > 0:
            ages = 0
            for a in range(N_AGES):
                if touched[a]:
                    ages += cap[a, d]
            w[d] = cap[age, d] * left[d] / ages
            total += w[d]
    if total == 0.0:              # no Age-consistent choice left: any unseen card
        for d in range(N_DOMAINS):
            w[d] = max(0, left[d])
            total += w[d]
    if total == 0.0:              # an inconsistent vector: determinize reports it
        return s, 0
    s, u = _uniform(s)
    u *= total
    d = 0
    while d < N_DOMAINS - 1 and (w[d] == 0.0 or u >= w[d]):
        u -= w[d]
        d += 1
    while w[d] == 0.0:            # rounding at the top end: the last Domain with a weight
        d -= 1
    return s, d


@njit(cache=True)
def _deal_deck(g, r, players, left, unseen, s):
    """The deck's cards left and the box, Age by Age (module docstring); takes them out of
    `unseen`. Returns the stream state."""
    removed = r[F.R_REMOVED] if r[F.R_REMOVAL_AT + players] else 0
    n_deck = g[F.G_DECK_N]
    drawn = n_deck - left
    cap = AGE_COUNTS.copy()
    touched = np.zeros(N_AGES, np.bool_)
    start = np.zeros(N_AGES, np.int64)
    at = 0
    for a in range(N_AGES):
        start[a] = at
        at += AGE_COUNTS[a].sum() - removed
        touched[a] = drawn > start[a]
    cards = np.empty(48, np.int64)
    for a in range(N_AGES):       # the untouched Ages: exactly their row of the table
        if touched[a]:
            continue
        n = 0
        for d in range(N_DOMAINS):
            for _ in range(AGE_COUNTS[a, d]):
                cards[n] = d
                n += 1
            unseen[d] = max(0, unseen[d] - AGE_COUNTS[a, d])
        s = _shuffle(s, cards, n)
        for i in range(removed, n):
            g[F.G_DECK + start[a] + i - removed] = cards[i]
    for a in range(N_AGES):       # the Ages drawn from: their rest in the deck, and the box
        if not touched[a]:
            continue
        size = AGE_COUNTS[a].sum() - removed
        first = max(start[a], drawn)
        n = max(0, start[a] + size - first) + removed
        for i in range(n):
            s, d = _weighted_domain(s, a, cap, unseen, touched)
            cap[a, d] -= 1
            unseen[d] -= 1
            cards[i] = d
        s = _shuffle(s, cards, n)
        for i in range(removed, n):
            g[F.G_DECK + first + i - removed] = cards[i]
    return s


@njit(cache=True)
def determinize(obs, g, streams, r, seed):
    """Write into `g` a whole state consistent with the vector (module docstring), its decision
    pending; seed the forward model's streams from the scalar state `seed`. Returns the unseen
    cards left over once every hidden place is filled (0 unless the vector is inconsistent)."""
    me, players, decision = obs[O.SEAT], obs[O.PLAYERS], obs[O.DECISION]
    g[:F.G_CALL] = 0
    g[F.G_SEATS:] = 0
    g[F.G_PLAYERS], g[F.G_FIRST], g[F.G_TURNS] = players, obs[O.FIRST], obs[O.TURN]
    g[F.G_FINAL], g[F.G_COIN] = obs[O.FINAL], obs[O.COIN]
    g[F.G_L1], g[F.G_L2], g[F.G_HEG] = obs[O.LEVEL1], obs[O.LEVEL2], obs[O.HEGEMONY]
    g[F.G_WINNER] = g[F.G_HEG_DOMAIN] = -1
    removed = r[F.R_REMOVED] if r[F.R_REMOVAL_AT + players] else 0
    left = obs[O.DECK_LEFT]
    g[F.G_DECK_N] = AGE_COUNTS.sum() - N_AGES * removed
    g[F.G_TOP] = g[F.G_DECK_N] - left
    stage = _stage_of(decision)
    for d in range(N_DOMAINS):
        g[F.G_DISCARD + d] = obs[O.DISCARD + d]
        if stage == F.ST_DRAFT_TAKE:
            g[F.G_CENTRE + d] = obs[O.DRAFT + d]
        elif stage == F.ST_DRAFT_KEEP:
            g[F.seat_at(me) + F.P_PACKET + d] = obs[O.DRAFT + d]
    for s in range(players):
        at, ob = F.seat_at(s), O.SEATS + O.SEAT_BLOCK * s
        for d in range(N_DOMAINS):
            g[at + F.P_PLAY + d] = obs[ob + O.S_PLAY + d]
            g[at + F.P_EMB + d] = obs[ob + O.S_EMBARGO + d]
            g[at + F.P_DEM + d] = obs[ob + O.S_DEMOCRACY + d]
            g[at + F.P_HAND + d] = obs[O.OWN_HAND + d] if s == me else obs[ob + O.S_KNOWN + d]
            if s != me:
                g[F.seat_at(me) + F.P_KNOW + N_DOMAINS * s + d] = obs[ob + O.S_KNOWN + d]
    unseen = np.zeros(N_DOMAINS, np.int64)
    unseen_cards(obs, unseen)
    st = _deal_deck(g, r, players, left, unseen, np.uint64(seed))
    st = _deal_hands(obs, g, stage, unseen, st)
    extra = unseen.sum()
    _pending(obs, g, stage)
    st, a = split_next(st)
    streams[F.S_DECK] = a
    for p in range(MAX_PLAYERS):
        st, a = split_next(st)
        streams[F.S_SEAT0 + p] = a
    return extra


@njit(cache=True)
def _deal_hands(obs, g, stage, unseen, st):
    """The other seats' unknown hand cards (after their known ones) and draft packets, uniformly
    from the unseen cards left; takes them out of `unseen`. Returns the stream state."""
    me, players = obs[O.SEAT], obs[O.PLAYERS]
    n = unseen.sum()
    bag = np.empty(max(n, 1), np.int64)
    k = 0
    for d in range(N_DOMAINS):
        for _ in range(unseen[d]):
            bag[k] = d
            k += 1
    st = _shuffle(st, bag, n)
    k = 0
    for s in range(players):
        if s == me:
            continue
        at, ob = F.seat_at(s), O.SEATS + O.SEAT_BLOCK * s
        hand_n = obs[ob + O.S_HAND_N]
        hidden = hand_n
        for d in range(N_DOMAINS):
            hidden -= obs[ob + O.S_KNOWN + d]
        packet = DRAFT_PACKET - hand_n if stage == F.ST_DRAFT_KEEP else 0
        for i in range(hidden + packet):
            if k >= n:
                break
            d = bag[k]
            k += 1
            unseen[d] -= 1
            g[at + (F.P_HAND if i < hidden else F.P_PACKET) + d] += 1
    return st


@njit(cache=True)
def _pending(obs, g, stage):
    """The vector's decision, pending in g: its stage, the turn so far and its legal list."""
    me, players, decision = obs[O.SEAT], obs[O.PLAYERS], obs[O.DECISION]
    g[F.G_STAGE] = stage
    g[F.G_SEAT], g[F.G_DECISION], g[F.G_N_LEGAL] = me, decision, obs[O.N_LEGAL]
    for i in range(obs[O.N_LEGAL]):
        g[F.G_LEGAL + i] = obs[O.LEGAL + i]
    g[F.G_PENDING] = 1
    g[F.G_CURRENT] = obs[O.FIRST]
    g[F.T_PLAYED] = g[F.T_EFFECT] = g[F.T_TARGET] = -1
    if stage == F.ST_DRAFT_KEEP:
        g[F.G_STEP] = obs[O.OWN_HAND:O.OWN_HAND + N_DOMAINS].sum()
        g[F.G_K] = (me - obs[O.FIRST]) % players
        return
    if stage == F.ST_DRAFT_TAKE:
        g[F.G_STEP] = 3
        g[F.G_K] = (obs[O.FIRST] - 1 - me) % players
        return
    g[F.G_CURRENT] = me
    g[F.T_ACTIVE] = 1
    g[F.T_PLAYED], g[F.T_PERM], g[F.T_SAC] = obs[O.T_PLAYED], obs[O.T_PERM], obs[O.T_SAC]
    g[F.T_COPIES], g[F.T_EFFECT], g[F.T_TARGET] = obs[O.T_COPIES], obs[O.T_EFFECT], obs[O.T_TARGET]
    g[F.T_COPY_HAND], g[F.T_LEFT], g[F.T_MIN] = obs[O.T_COPY_HAND], obs[O.T_LEFT], obs[O.T_MIN]
    if stage == F.ST_PICK or stage == F.ST_CHOOSE:
        g[F.T_PICK] = decision
        # the effect's next phase (fast._advance): the second step of a two-step effect is 2
        later = (decision == O.D_GIVE or decision == O.D_EXTRA_PLAY
                 or (decision == O.D_TAKE_DISCARD and O.action_kind(obs[O.T_EFFECT]) == O.A_SAC))
        g[F.T_PHASE] = 2 if later else 1


# ---------------------------------------------------------------- the search interface
_PRUNE_PARAMS = np.zeros(K.N_PARAMS, np.float64)   # the greedy's default weights, no focus
_PRUNE_PARAMS[:len(K.GREEDY_DEFAULTS)] = K.GREEDY_DEFAULTS
_PRUNE_PARAMS[K.P_FOCUS] = -1.0


@njit(cache=True)
def candidates(obs, prune):
    """Every legal action in legal order (prune <= 0); else the greedy's `prune` best by its
    valuation (default weights), its own choice first."""
    n = obs[O.N_LEGAL]
    if prune <= 0 or prune >= n:
        return np.arange(n)
    values = np.empty(n, np.float64)
    K.action_values(obs, _PRUNE_PARAMS, values)
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
            _PRUNE_PARAMS.copy())


@njit(cache=True, inline="always")
def _deal(obs, state, seed):
    determinize(obs, state[0], state[2], state[3], seed)


@njit(cache=True, inline="always")
def _rollout(state, i):
    g, block, streams, r = state[0], state[1], state[2], state[3]
    if state[4] == ROLLOUT_GREEDY:
        prm = state[6]
        for p in range(MAX_PLAYERS):
            g[F.G_CALL + p], g[F.G_FN + p] = F.CALL_JIT, jit_address(K.one_ply)
            g[F.G_PRM + p], g[F.G_PRM_LEN + p] = address_of(prm), prm.shape[0]
    else:
        for p in range(MAX_PLAYERS):
            g[F.G_CALL + p] = F.RANDOM_POLICY
    return F.run(g, block, streams, r, i)


@njit(cache=True, inline="always")
def _descend(state, i, show):
    g, block, streams, r = state[0], state[1], state[2], state[3]
    for p in range(MAX_PLAYERS):
        g[F.G_CALL + p] = F.CALL_STOP
    return F.run(g, block, streams, r, i)


@njit(cache=True)
def _outcome(obs, state, status):
    """Win share of the deciding seat; with margin m, (1 - m) x share + m x the majority-points
    margin over the best other seat, squashed into [0, 1]."""
    g, r, margin = state[0], state[3], state[5]
    if status != F.RUN_END:
        return 0.5
    players, me = g[F.G_PLAYERS], obs[O.SEAT]
    scores = np.zeros(players, np.int64)
    shares = np.zeros(players, np.float64)
    F.final_result(g, r, scores, shares)
    v = shares[me]
    if margin > 0.0:
        best = -1
        for s in range(players):
            if s != me:
                best = max(best, scores[s])
        d = float(scores[me] - best)
        v = (1.0 - margin) * v + margin * (0.5 + 0.5 * d / (1.0 + abs(d)))
    return v


@njit(cache=True)
def wins_at_once(obs, state, i):
    """Legal action i wins by Hegemony whatever the hidden cards: a card played into the seat's
    own play area that completes a Domain (the rest of the turn can always stop), or stopping
    with a Domain complete. Hegemony is checked at the end of the seat's own turn (§4.4)."""
    r = state[3]
    if obs[O.FINAL] and not r[F.R_HEG_FINAL]:
        return False
    decision, a = obs[O.DECISION], obs[O.LEGAL + i]
    ob = O.SEATS + O.SEAT_BLOCK * obs[O.SEAT]
    if decision == O.D_EFFECT and a == O.STOP:
        for d in range(N_DOMAINS):
            if obs[ob + O.S_COUNT + d] >= obs[O.HEGEMONY] + obs[ob + O.S_DEMOCRACY + d]:
                return True
        return False
    if decision == O.D_PLAY or decision == O.D_EXTRA_PLAY:
        d = O.action_domain(a)
        return obs[ob + O.S_COUNT + d] + 1 >= obs[O.HEGEMONY] + obs[ob + O.S_DEMOCRACY + d]
    return False


@njit(cache=True, inline="always")
def _to_move(state):
    return state[0][F.G_SEAT]


@njit(cache=True, inline="always")
def _action_at(state, i):
    return state[0][F.G_LEGAL + i]


GAME = CS.declare("civ", candidates=candidates, setup=_setup, determinize=_deal,
                  rollout=_rollout, descend=_descend, result=_outcome, to_move=_to_move,
                  action_at=_action_at, max_legal=O.MAX_LEGAL, wins_at_once=wins_at_once)


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
