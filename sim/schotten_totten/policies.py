"""Native Schotten Totten decision kernels: built-in strategies the fast engine calls directly
(no function pointer, and without filling the observation when the kernel does not read it).

Each kernel has the public strategy signature `decide(obs, params, rng) -> index of a legal
action` (observation.py) and is also what the registry hands to the reference engine, so
built-ins and plugins share one API. A plugin runs through the engine by function pointer
(`sim.core.engine.NATIVE_NONE`).

Kernels:
  RANDOM_POLICY  `random_policy`: uniform over the legal actions (the core's `random`).
  GREEDY         `greedy_policy`: one-move heuristic (below).
The greedy kernel is also the search kernels' optional rollout policy; the fast engine's turn
machine (`fast.run`) calls it natively. The search kernels (`search.py`: flat-mc, ismcts) are
called like any strategy, through the address of their compiled body, from inside the turn
machine, which they also use as their forward model.

Module layering, one way: `formations` (the formation code and the claim proof) <- `policies`
(random, greedy) <- `fast` (the turn machine and the batch of games) <- `search` (its side of
`sim.core.search`) <- the strategies registry. numba's cache is keyed by every source
(sim/core/cache.py), so an edit in any of them is compiled afresh.

Greedy heuristic
----------------
Every stone gets a value V in [0, 1], an estimate of the chance that the deciding seat wins it,
from what the seat sees: its own hand H (clan cards), the unseen clan cards U (the opponent's hand
and the pile: what the opponent may still get), the cards on both sides and the stone's Fog / Mud.
  - both sides complete: 1 or 0 (the stronger formation; equal: who completed first);
  - own side complete, the opponent's not: 1 if the claim proof holds (no completion with any
    hidden card beats it), else 0.95 if no completion with unseen cards beats it (only cards of
    our own hand could), else a logistic of the formation against the opponent's expected one;
  - own side incomplete: the expected formation is max(the best completion from the own hand
    alone, the best completion from H + U minus `pen` per missing card); against a complete
    opposing formation it is 0 when no completion can beat it; otherwise
    V = 1 / (1 + exp(-(mine - theirs) / temp)), the opponent's expected formation being its best
    completion from U minus `pen` per missing card.
Formation strength is the engine's key (category * 100 + value total; Fog: the total only, with
`pen` / 20 and `temp` / 10). A play is scored by the change it makes: w_s * (V_after - V_before)
at each stone it touches (a card placed, moved, deserted or taken by the Traitor, a Fog or Mud
laid), where the weight w_s = 1 + `crit` * (1 for each seat that would win the game by claiming
that stone); a placement that makes the stone claimable at once (claims after playing) and wins
the game scores 10 more. A card's opportunity cost is subtracted: `lam` times its best gain at
another stone (keep a card where it is most useful). Tactic cards cost `tactic_cost` (each one
played lets the opponent play one); the Scout scores `scout_value`; a pass scores 0. The first
best-scoring action wins (legal-action order: deterministic, the stream is not used).
Draws (tactics): from the tactic pile while the hand holds fewer than `tactic_hand` tactic cards,
else from the clan pile. Scout returns: a Chief that can no longer be played, else the clan card
with the smallest best gain, else the first card. Manual claims: claim every stone (in order).
The value before a move uses the pool H + U without hand-only completions, the value after it
counts them: a card that completes, or keeps in reach, a formation from the hand scores high.
Defaults: pen 100, temp 400, lam 0.5, crit 1, tactic_cost 0.1, scout_value 0, tactic_hand 1 (the
sweeps they come from: docs/search.md).
"""
import numpy as np
from numba import njit

from ..core.kernels import random_choice
from ..core.nbutil import no_int_literals
from . import formations as F
from .cards import CHIEF_2, FOG, MUD, N_CLAN, SHIELD
from . import observation as O

RANDOM_POLICY = 0     # reads nothing but N_LEGAL: the fast engine does not fill its vector
GREEDY = 1
N_NATIVE = 2

# greedy parameters, in declaration order (strategies/schotten_totten.py)
G_PEN, G_TEMP, G_LAM, G_CRIT, G_TACTIC_COST, G_SCOUT, G_TACTIC_HAND, G_N = range(8)
GREEDY_DEFAULTS = (100.0, 400.0, 0.5, 1.0, 0.1, 0.0, 1.0)


# the core's `random` (sim/core/kernels.py); the engine runs it natively as RANDOM_POLICY
random_policy = random_choice


# ---------------------------------------------------------------- greedy
@njit(cache=True, inline="always")
def _summary(obs, k, skip, add):
    """A side of the table as (cards, clan cards, clan value sum, value mask, colour mask, chiefs,
    troops, shields), without card `skip` and with card `add` (-1: none)."""
    n = n_clan = vsum = vmask = cmask = nchief = ntroop = nshield = 0
    nk = obs[O.SIDE_N + k]
    for i in range(nk + 1):
        c = obs[O.SIDE + 4 * k + i] if i < nk else add
        if c < 0 or c == skip:
            continue
        n += 1
        n_clan, vsum, vmask, cmask, nchief, ntroop, nshield = F.tally(
            c, n_clan, vsum, vmask, cmask, nchief, ntroop, nshield)
    return n, n_clan, vsum, vmask, cmask, nchief, ntroop, nshield


@njit(cache=True, inline="always")
def _logistic(x):
    return 1.0 / (1.0 + np.exp(-x))


@njit(cache=True, inline="always")
def _scaled(fog, pen, temp):
    """`pen` and `temp` in the units of the stone's keys (Fog: value totals only)."""
    if fog:
        return pen / 20.0, temp / 10.0
    return pen, temp


@no_int_literals
@njit(cache=True)
def _mine_incomplete(mn, mc, mv, mm, mcol, mch, mtr, msh, need, fog, unseen, hand, use_hand, pen):
    """(best completion from unseen and hand cards, expected strength) of an incomplete side."""
    missing = need - mn
    kopt = F.best_key(mc, mv, mm, mcol, mch, mtr, msh, need, fog, unseen | hand, 0)
    em = kopt - pen * missing
    if kopt >= 0 and use_hand and F.popcount(hand) >= missing:
        kh = F.best_key(mc, mv, mm, mcol, mch, mtr, msh, need, fog, hand, 0)
        if kh > em:
            em = kh
    return kopt, em


@no_int_literals
@njit(cache=True)
def _theirs(on, oc, ov, om, ocol, och, otr, osh, need, fog, unseen, pen):
    """The opponent's side: (exact key if complete else -1, expected strength if incomplete)."""
    if on >= need:
        return F.best_key(oc, ov, om, ocol, och, otr, osh, need, fog, 0, 0), 0.0
    return -1, F.best_key(oc, ov, om, ocol, och, otr, osh, need, fog, unseen, 0) - pen * (need - on)


@njit(cache=True, inline="always")
def _against(kopt, em, ko, eo, temp):
    """V of an incomplete own side (best completion kopt, expected em) against the opponent's
    complete formation ko, or (ko = -1) its expected strength eo."""
    if kopt < 0:
        return 0.0
    if ko >= 0:
        if kopt <= ko:
            return 0.0
        return _logistic((em - ko) / temp)
    if eo < 0:
        eo = 0.0
    return _logistic((em - eo) / temp)


@no_int_literals
@njit(cache=True)
def stone_value(mn, mc, mv, mm, mcol, mch, mtr, msh, on, oc, ov, om, ocol, och, otr, osh,
                need, fog, unseen, hand, hidden, me_first, use_hand, pen, temp):
    """The greedy's V: estimated chance that the side (m*) wins the stone against (o*) (see the
    module docstring). `unseen`, `hand`, `hidden`: clan-card masks; `use_hand`: count completions
    from the own hand alone."""
    pen, temp = _scaled(fog, pen, temp)
    if mn >= need:
        km = F.best_key(mc, mv, mm, mcol, mch, mtr, msh, need, fog, 0, 0)
        if on >= need:
            ko = F.best_key(oc, ov, om, ocol, och, otr, osh, need, fog, 0, 0)
            return 1.0 if km > ko or (km == ko and me_first) else 0.0
        if not F.beats(oc, ov, om, ocol, och, otr, osh, need, fog, hidden, km):
            return 1.0
        if not F.beats(oc, ov, om, ocol, och, otr, osh, need, fog, unseen, km):
            return 0.95
        eo = F.best_key(oc, ov, om, ocol, och, otr, osh, need, fog, unseen, 0) - pen * (need - on)
        return _logistic((km - eo) / temp)
    kopt, em = _mine_incomplete(mn, mc, mv, mm, mcol, mch, mtr, msh, need, fog, unseen, hand, use_hand, pen)
    ko, eo = _theirs(on, oc, ov, om, ocol, och, otr, osh, need, fog, unseen, pen)
    return _against(kopt, em, ko, eo, temp)


@njit(cache=True, inline="always")
def _wins_with(held, s, adj, total):
    """Would claiming stone s (besides the stones `held`) win the game?"""
    h = held | (1 << s)
    run = h
    for i in range(adj - 1):
        run &= h >> (i + 1)
    return run != 0 or F.popcount(h) >= total


@no_int_literals
@njit(cache=True)
def _value_at(obs, s, me, skip_m, add_m, skip_o, fog, need, unseen, hand, hidden, use_hand, pen, temp,
              changed):
    """V of stone s with card skip_m / skip_o taken from our / the opponent's side and card add_m
    added to ours; `changed`: our side changed now (so we would complete last)."""
    km = 2 * s + me
    ko = km ^ 1
    mn, mc, mv, mm, mcol, mch, mtr, msh = _summary(obs, km, skip_m, add_m)
    on, oc, ov, om, ocol, och, otr, osh = _summary(obs, ko, skip_o, -1)
    me_first = (not changed) and obs[O.LAST_PLACED + km] < obs[O.LAST_PLACED + ko]
    return stone_value(mn, mc, mv, mm, mcol, mch, mtr, msh, on, oc, ov, om, ocol, och, otr, osh,
                       need, fog, unseen, hand, hidden, me_first, use_hand, pen, temp)


@njit(cache=True)
def greedy_scores(obs, params, scores):
    """The greedy's score of each legal action of a play decision, into `scores`; also returns,
    for a Scout-return decision, the same scores of its RETURN actions (the card's best gain)."""
    me = obs[O.SEAT]
    opp = 1 - me
    n_stones = obs[O.STONES]
    pen, temp, lam, crit = params[G_PEN], params[G_TEMP], params[G_LAM], params[G_CRIT]
    tactic_cost, scout_value = params[G_TACTIC_COST], params[G_SCOUT]
    adj, total = obs[O.ADJACENT_TO_WIN], obs[O.TOTAL_TO_WIN]
    after_play = obs[O.CLAIM_AT_START] == 0
    unseen = 0
    hand = 0
    for c in range(N_CLAN):
        loc = obs[O.CARD_LOC + c]
        if loc == O.LOC_UNSEEN:
            unseen |= 1 << c
        elif loc == O.LOC_HAND + me:
            hand |= 1 << c
    hidden = unseen | hand
    held_me = 0
    held_opp = 0
    for s in range(n_stones):
        if obs[O.CLAIMED + s] == me:
            held_me |= 1 << s
        elif obs[O.CLAIMED + s] == opp:
            held_opp |= 1 << s
    # per stone: weight and value now (pool: unseen and the whole hand, no hand-only completions);
    # blank stones (both sides empty, no Fog or Mud) all have the same values: computed once
    weight = np.zeros(9, np.float64)
    before = np.zeros(9, np.float64)
    blank = np.zeros(9, np.bool_)
    opp_ko = np.full(9, -1, np.int64)
    opp_eo = np.zeros(9, np.float64)
    blank_before = -1.0
    for s in range(n_stones):
        if obs[O.CLAIMED + s] >= 0:
            continue
        w = 1.0
        if _wins_with(held_me, s, adj, total):
            w += crit
        if _wins_with(held_opp, s, adj, total):
            w += crit
        weight[s] = w
        blank[s] = (obs[O.SIDE_N + 2 * s] == 0 and obs[O.SIDE_N + 2 * s + 1] == 0
                    and obs[O.FOG + s] == 0 and obs[O.MUD + s] == 0)
        on, oc, ov, om, ocol, och, otr, osh = _summary(obs, 2 * s + opp, -1, -1)
        p2, t2 = _scaled(obs[O.FOG + s], pen, temp)
        opp_ko[s], opp_eo[s] = _theirs(on, oc, ov, om, ocol, och, otr, osh, obs[O.NEED + s],
                                       obs[O.FOG + s], unseen, p2)
        if blank[s] and blank_before >= 0.0:
            before[s] = blank_before
            continue
        before[s] = _value_at(obs, s, me, -1, -1, -1, obs[O.FOG + s], obs[O.NEED + s], unseen, hand,
                              hidden, False, pen, temp, False)
        if blank[s]:
            blank_before = before[s]
    n = obs[O.N_LEGAL]
    # gain of placing card c at stone s (clan and morale cards), and each card's two best gains
    # (opportunity cost: the best gain at another stone)
    gain = np.zeros(n, np.float64)
    best1 = np.zeros(64, np.float64)
    best2 = np.zeros(64, np.float64)
    best1_at = np.full(64, -1, np.int64)
    mine_done = np.zeros(64, np.bool_)
    mine_kopt = np.zeros(64, np.int64)
    mine_em = np.zeros(64, np.float64)
    for i in range(n):
        a = obs[O.LEGAL + i]
        kind = O.action_kind(a)
        c = O.action_card(a)
        s = O.action_stone(a)
        if kind == O.PLAY and (c < N_CLAN or c <= SHIELD):
            h2 = hand & ~(1 << c) if c < N_CLAN else hand
            k = 2 * s + me
            fog = obs[O.FOG + s]
            need = obs[O.NEED + s]
            if obs[O.SIDE_N + k] + 1 < need:
                # the side stays incomplete: own part (cached per card where the own side is
                # empty, without Fog or Mud) against the stone's cached opponent part
                if obs[O.SIDE_N + k] == 0 and fog == 0 and need == 3 and mine_done[c]:
                    kopt, em = mine_kopt[c], mine_em[c]
                else:
                    mn, mc, mv, mm, mcol, mch, mtr, msh = _summary(obs, k, -1, c)
                    p2, t2 = _scaled(fog, pen, temp)
                    kopt, em = _mine_incomplete(mn, mc, mv, mm, mcol, mch, mtr, msh, need, fog, unseen,
                                                h2, True, p2)
                    if obs[O.SIDE_N + k] == 0 and fog == 0 and need == 3:
                        mine_done[c] = True
                        mine_kopt[c], mine_em[c] = kopt, em
                v = _against(kopt, em, opp_ko[s], opp_eo[s], temp / 10.0 if fog else temp)
            else:
                v = _value_at(obs, s, me, -1, c, -1, fog, need, unseen, h2,
                              hidden & ~(1 << c) if c < N_CLAN else hidden, True, pen, temp, True)
            g = weight[s] * (v - before[s])
            if v >= 1.0 and after_play and _wins_with(held_me, s, adj, total):
                g += 10.0
            gain[i] = g
            if g > best1[c]:
                best2[c] = best1[c]
                best1[c] = g
                best1_at[c] = s
            elif g > best2[c]:
                best2[c] = g
    for i in range(n):
        a = obs[O.LEGAL + i]
        kind = O.action_kind(a)
        c = O.action_card(a)
        s = O.action_stone(a)
        sc = 0.0
        if kind == O.PLAY:
            if c < N_CLAN or c <= SHIELD:
                other = best2[c] if best1_at[c] == s else best1[c]
                sc = gain[i] - lam * other
            else:   # Fog or Mud under stone s
                fog = obs[O.FOG + s] | (1 if c == FOG else 0)
                need = 4 if c == MUD else obs[O.NEED + s]
                v = _value_at(obs, s, me, -1, -1, -1, fog, need, unseen, hand, hidden, False, pen, temp,
                              False)
                sc = weight[s] * (v - before[s])
            if c >= N_CLAN:
                sc -= tactic_cost
        elif kind == O.SCOUT:
            sc = scout_value - tactic_cost
        elif kind == O.DESERTER:
            t = O.action_target(a)
            v = _value_at(obs, s, me, -1, -1, t, obs[O.FOG + s], obs[O.NEED + s], unseen, hand, hidden,
                          False, pen, temp, False)
            sc = weight[s] * (v - before[s]) - tactic_cost
        elif kind == O.TRAITOR or kind == O.REDEPLOY:
            t = O.action_target(a)
            d = O.action_dest(a)
            if kind == O.TRAITOR:
                v = _value_at(obs, s, me, -1, -1, t, obs[O.FOG + s], obs[O.NEED + s], unseen, hand,
                              hidden, False, pen, temp, False)
            else:
                v = _value_at(obs, s, me, t, -1, -1, obs[O.FOG + s], obs[O.NEED + s], unseen, hand,
                              hidden, False, pen, temp, True)
            sc = weight[s] * (v - before[s]) - tactic_cost
            if d >= 0:
                v = _value_at(obs, d, me, -1, t, -1, obs[O.FOG + d], obs[O.NEED + d], unseen, hand,
                              hidden, True, pen, temp, True)
                sc += weight[d] * (v - before[d])
        elif kind == O.RETURN:
            best = -1e9
            if c < N_CLAN:
                for t in range(n_stones):
                    if obs[O.CLAIMED + t] < 0 and obs[O.SIDE_N + 2 * t + me] < obs[O.NEED + t]:
                        v = _value_at(obs, t, me, -1, c, -1, obs[O.FOG + t], obs[O.NEED + t], unseen,
                                      hand & ~(1 << c), hidden, True, pen, temp, True)
                        g = weight[t] * (v - before[t])
                        if g > best:
                            best = g
            elif c <= CHIEF_2 and obs[O.CHIEF_PLAYED + me]:
                best = -2e9      # a Chief that can no longer be played goes back first
            else:
                best = 1e9       # other tactic cards are kept
            sc = best
        scores[i] = sc


# no signature: compiled when first used (registering it compiles it with DECIDE_SIG), not when
# this module is imported, since every command imports it to find the games (sim/games.py)
@njit(cache=True)
def greedy_policy(obs, params, rng):
    """Greedy one-move heuristic (module docstring); deterministic."""
    n = obs[O.N_LEGAL]
    dk = obs[O.DECISION]
    if dk == O.D_CLAIM:
        return 0            # claims come first, END_CLAIMS last
    if dk == O.D_DRAW or dk == O.D_SCOUT_DRAW:
        tac = 0
        for i in range(O.MAX_HAND):
            if obs[O.HAND + i] >= N_CLAN:
                tac += 1
        want_tactic = tac < params[G_TACTIC_HAND]
        for i in range(n):
            pile = O.action_pile(obs[O.LEGAL + i])
            if (pile == O.PILE_TACTIC) == want_tactic:
                return i
        return 0
    scores = np.empty(n, np.float64)
    greedy_scores(obs, params, scores)
    best = 0
    if dk == O.D_SCOUT_RETURN:
        for i in range(1, n):
            if scores[i] < scores[best]:
                best = i
        return best
    for i in range(1, n):
        if scores[i] > scores[best]:
            best = i
    return best
