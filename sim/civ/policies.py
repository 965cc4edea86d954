"""CIV decision kernel `one_ply`: the strategies `greedy`, `majority` and `domain-focus` are its three
sets of weights. It has the strategy signature `decide(obs, params, rng) -> index of a legal action`
(observation.py), reads only the observation and never draws from `rng` (deterministic: the first
best action in legal order wins, so STOP, first in the effect list, wins every tie).

Module layering, one way: cards, observation <- policies <- the strategies registry
(strategies/civ.py), which packs `params` (the weights below).

The evaluation
--------------
A position is valued for the deciding seat p from what counts (S_COUNT: thresholds, Hegemony,
majorities) and the Democracy cards (S_DEMOCRACY) of every seat:

  V = heg x H(own) + maj x (1 + late x lateness) x M - threat x H(rivals) + focus_w x count(p, X)

  - H: the Hegemony distance k = hegemony + Democracy cards under d - count(d), as the closeness
    1 / (1 + k^2), the best Domain of the seat (own: p; rivals: the best of every rival seat).
    k <= 0 for p is a win (every decision of a turn is the seat on turn's own, and Hegemony is
    checked at the end of its turn), valued WIN.
  - M: the majorities as scored at the end (§6.3), smoothed: per Domain someone has a card of,
    0.5 + 0.5 z / (1 + |z|), z = own count - the best rival's (a tie 0.5, a lead of one 0.75, of
    two 0.83). Team play: own is the better of the seat and its teammate, rivals the other team.
  - lateness = 1 - min(1, deck left / 60): majorities weigh more as the deck runs out.
  - X: the focus Domain (domain-focus only), its cards worth focus_w each.

Each decision values its legal actions by their immediate effect on V (one ply):
  a card into play (play, extra play, draft take), a card kept or taken into the hand (draft
  keep, take from the discard: as if it were played), a card discarded or given from the hand
  (the one least worth playing), a card out of the play area (discard, return: the one whose loss
  costs least), Attack (own Military already gone: own card of the Domain and each rival's,
  when it has one in play), Democracy (the target's Hegemony need + 1), Embargo (the target's
  Hegemony closeness lost for the blocked turn, threat x (H(k) - H(k + 1)) / 2), Inquisition (the
  seat with the most cards in hand).
  The effect decision (STOP = 0): Development / Monopoly and Experiment / Research are carried
  out as the later picks will be (the cheapest removals, then the best plays); Attack and
  Democracy at their best target; Embargo its card lost plus the best denial; Assassination /
  Purge, Oligarchy / Republic, Technological Leap, Inquisition and a copied Religion effect are
  worth the cards they lose plus `cycle` a card cycled (Assassination and Purge lose `cycle` a
  card when the deck cannot refill the hand). domain-focus adds focus_effect to the permanent
  effects of its Domain, so it uses them first.
"""
import numpy as np
from numba import njit

from ..core.strategy_api import DECIDE_SIG
from . import observation as O
from .cards import ECONOMY, MILITARY, N_DOMAINS, SCIENCE, UTOPIA
from .rules import MAX_PLAYERS

# ---------------------------------------------------------------- params (strategies/civ.py)
(P_HEG, P_MAJ, P_THREAT, P_LATE, P_CYCLE, P_FOCUS, P_FOCUS_W, P_FOCUS_EFFECT) = range(8)
N_PARAMS = 8
GREEDY_DEFAULTS = (3.0, 1.0, 3.0, 1.0, 0.01)
MAJORITY_DEFAULTS = (0.5, 2.0, 3.0, 0.0, 0.01)
FOCUS_WEIGHT = 1.0
FOCUS_EFFECT = 0.05
WIN = 1000.0
LATE_DECK = 60.0
NONE = -1.0e18
N = MAX_PLAYERS * N_DOMAINS


# ---------------------------------------------------------------- the position
@njit(cache=True)
def _load(obs, cnt, play, dem, hand):
    for s in range(obs[O.PLAYERS]):
        at = O.SEATS + O.SEAT_BLOCK * s
        for d in range(N_DOMAINS):
            cnt[s * N_DOMAINS + d] = obs[at + O.S_COUNT + d]
            play[s * N_DOMAINS + d] = obs[at + O.S_PLAY + d]
            dem[s * N_DOMAINS + d] = obs[at + O.S_DEMOCRACY + d]
    own = O.SEATS + O.SEAT_BLOCK * obs[O.SEAT]
    for d in range(N_DOMAINS):
        hand[d] = obs[O.OWN_HAND + d]
        if obs[own + O.S_EMBARGO + d] > 0:
            hand[N_DOMAINS + d] = 0            # playable now
        else:
            hand[N_DOMAINS + d] = obs[O.OWN_HAND + d]


@njit(cache=True, inline="always")
def _closeness(k):
    if k <= 0:
        return 1.0
    return 1.0 / (1.0 + k * k)


@njit(cache=True, inline="always")
def _rival(obs, q):
    return q != obs[O.SEAT] and q != obs[O.TEAMMATE]


@njit(cache=True)
def _value(obs, params, cnt, dem):
    """V of the position (module docstring)."""
    p, mate, H = obs[O.SEAT], obs[O.TEAMMATE], obs[O.HEGEMONY]
    heg = 0.0
    for d in range(N_DOMAINS):
        k = H + dem[p * N_DOMAINS + d] - cnt[p * N_DOMAINS + d]
        if k <= 0:
            return WIN
        heg = max(heg, _closeness(k))
    maj = 0.0
    threat = 0.0
    for d in range(N_DOMAINS):
        c = cnt[p * N_DOMAINS + d]
        if mate >= 0:
            c = max(c, cnt[mate * N_DOMAINS + d])
        o = 0
        for q in range(obs[O.PLAYERS]):
            if _rival(obs, q):
                x = cnt[q * N_DOMAINS + d]
                o = max(o, x)
                threat = max(threat, _closeness(H + dem[q * N_DOMAINS + d] - x))
        if c > 0 or o > 0:
            z = c - o
            maj += 0.5 + 0.5 * z / (1.0 + abs(z))
    late = 1.0 - min(1.0, obs[O.DECK_LEFT] / LATE_DECK)
    v = params[P_HEG] * heg + params[P_MAJ] * (1.0 + params[P_LATE] * late) * maj - params[P_THREAT] * threat
    focus = int(params[P_FOCUS])
    if focus >= 0:
        v += params[P_FOCUS_W] * cnt[p * N_DOMAINS + focus]
    return v


@njit(cache=True)
def _with_play(obs, params, cnt, dem, d, delta):
    """V with the seat's count of Domain d changed by delta."""
    at = obs[O.SEAT] * N_DOMAINS + d
    cnt[at] += delta
    v = _value(obs, params, cnt, dem)
    cnt[at] -= delta
    return v


@njit(cache=True)
def _best_add(obs, params, cnt, dem, pool):
    """(V, Domain) of the best card of `pool` (counts per Domain) into play; (NONE, -1) if none."""
    best, bd = NONE, -1
    for d in range(N_DOMAINS):
        if pool[d] > 0:
            v = _with_play(obs, params, cnt, dem, d, 1)
            if v > best:
                best, bd = v, d
    return best, bd


@njit(cache=True)
def _best_remove(obs, params, cnt, play, dem):
    """(V, Domain) of the own play-area card whose loss costs least; (NONE, -1) if none."""
    best, bd = NONE, -1
    p = obs[O.SEAT]
    for d in range(N_DOMAINS):
        if play[p * N_DOMAINS + d] > 0:
            v = _with_play(obs, params, cnt, dem, d, -1)
            if v > best:
                best, bd = v, d
    return best, bd


@njit(cache=True)
def _attack(obs, params, cnt, play, dem, x):
    """V after Attack on Domain x (the Military card already gone)."""
    p = obs[O.SEAT]
    c2 = cnt.copy()
    if play[p * N_DOMAINS + x] > 0:
        c2[p * N_DOMAINS + x] -= 1
    for q in range(obs[O.PLAYERS]):
        if q != p and play[q * N_DOMAINS + x] > 0:
            c2[q * N_DOMAINS + x] -= 1
    return _value(obs, params, c2, dem)


@njit(cache=True)
def _denial(obs, params, cnt, dem, q, d):
    """What an Embargo on (seat q, Domain d) is worth: q's lost closeness for one turn."""
    if not _rival(obs, q):
        return NONE
    k = obs[O.HEGEMONY] + dem[q * N_DOMAINS + d] - cnt[q * N_DOMAINS + d]
    return params[P_THREAT] * 0.5 * (_closeness(k) - _closeness(k + 1)) + 1e-3 * cnt[q * N_DOMAINS + d]


@njit(cache=True)
def _democracy(obs, params, cnt, dem, q, d):
    dem[q * N_DOMAINS + d] += 1
    v = _value(obs, params, cnt, dem)
    dem[q * N_DOMAINS + d] -= 1
    return v


@njit(cache=True)
def _swap(obs, params, cnt, play, dem, hand, level, to_hand):
    """V after Development / Monopoly (to_hand False) or Experiment / Research (True): `level`
    cheapest removals, then the best plays from the playable hand."""
    p = obs[O.SEAT]
    c2, p2, h2 = cnt.copy(), play.copy(), hand[N_DOMAINS:].copy()
    for _ in range(level):
        v, d = _best_remove(obs, params, c2, p2, dem)
        if d < 0:
            break
        c2[p * N_DOMAINS + d] -= 1
        p2[p * N_DOMAINS + d] -= 1
        if to_hand and obs[O.SEATS + O.SEAT_BLOCK * p + O.S_EMBARGO + d] == 0:
            h2[d] += 1
    for _ in range(level):
        v, d = _best_add(obs, params, c2, dem, h2)
        if d < 0:
            break
        c2[p * N_DOMAINS + d] += 1
        h2[d] -= 1
    return _value(obs, params, c2, dem)


@njit(cache=True)
def _effect_value(obs, params, cnt, play, dem, hand, base, action):
    """The gain in V of starting effect `action` (A_PERM, A_COPY, A_SAC)."""
    kind, d, level = O.action_kind(action), O.action_domain(action), O.action_arg(action)
    p = obs[O.SEAT]
    cycle = params[P_CYCLE]
    bonus = 0.0
    if kind != O.A_SAC:
        if d == int(params[P_FOCUS]):
            bonus = params[P_FOCUS_EFFECT]
        if d == MILITARY:
            if obs[O.DECK_LEFT] >= level:
                return bonus + cycle * level
            return bonus - cycle * level
        if d == ECONOMY:
            return bonus + _swap(obs, params, cnt, play, dem, hand, level, False) - base
        if d == SCIENCE:
            return bonus + _swap(obs, params, cnt, play, dem, hand, level, True) - base
        if d == UTOPIA and obs[O.DECK_LEFT] > 0:
            # cards from the discard replace the draw: taken every turn (even by a Utopia focus),
            # the deck would never run out, a game without end; worth it once the deck is empty
            return -cycle * level - 1.0
        return bonus + cycle * level               # Utopia: cards from the discard; Religion: hand size
    at = p * N_DOMAINS + d
    cnt[at] -= 1                                   # the sacrificed card
    play[at] -= 1
    lost = _value(obs, params, cnt, dem)
    v = NONE
    if d == MILITARY:
        for x in range(N_DOMAINS):
            if play[p * N_DOMAINS + x] > 0:
                v = max(v, _attack(obs, params, cnt, play, dem, x))
    elif d == ECONOMY:
        best = NONE
        for q in range(obs[O.PLAYERS]):
            for x in range(N_DOMAINS):
                if cnt[q * N_DOMAINS + x] > 0:
                    best = max(best, _denial(obs, params, cnt, dem, q, x))
        if best > NONE:
            v = lost + best
    elif d == UTOPIA:
        for q in range(obs[O.PLAYERS]):
            if _rival(obs, q):
                for x in range(N_DOMAINS):
                    v = max(v, _democracy(obs, params, cnt, dem, q, x))
    elif d == SCIENCE:
        v = lost + (cycle * 3 if obs[O.DECK_LEFT] > 0 else 0.0)
    else:                                          # Religion: Inquisition
        v = lost + cycle
    cnt[at] += 1
    play[at] += 1
    if v == NONE:
        return NONE
    return v - base


@njit(cache=True)
def action_values(obs, params, values):
    """Each legal action's value into values[i] (the kernel plays the first largest; also for
    tests and inspection)."""
    cnt = np.zeros(N, np.int64)
    play = np.zeros(N, np.int64)
    dem = np.zeros(N, np.int64)
    hand = np.zeros(2 * N_DOMAINS, np.int64)
    _load(obs, cnt, play, dem, hand)
    decision = obs[O.DECISION]
    base = _value(obs, params, cnt, dem)
    for i in range(obs[O.N_LEGAL]):
        a = obs[O.LEGAL + i]
        kind, d, arg = O.action_kind(a), O.action_domain(a), O.action_arg(a)
        if decision == O.D_EFFECT:
            v = 0.0 if kind == O.A_STOP else _effect_value(obs, params, cnt, play, dem, hand, base, a)
        elif decision == O.D_DISCARD_HAND or decision == O.D_GIVE:
            v = -_with_play(obs, params, cnt, dem, d, 1)        # the card least worth playing
        elif decision == O.D_DISCARD_PLAY or decision == O.D_RETURN:
            v = _with_play(obs, params, cnt, dem, d, -1)
        elif decision == O.D_ATTACK:
            v = _attack(obs, params, cnt, play, dem, d)
        elif decision == O.D_INQUISITION:
            v = float(obs[O.SEATS + O.SEAT_BLOCK * arg + O.S_HAND_N])
        elif decision == O.D_EMBARGO:
            v = _denial(obs, params, cnt, dem, arg, d)
        elif decision == O.D_DEMOCRACY:
            v = _democracy(obs, params, cnt, dem, arg, d) if _rival(obs, arg) else NONE
        else:            # play, extra play, draft keep / take, take from the discard: into play
            v = _with_play(obs, params, cnt, dem, d, 1)
        values[i] = v


@njit(DECIDE_SIG, cache=True)
def one_ply(obs, params, rng):
    """The one-ply evaluation (module docstring); greedy, majority and domain-focus are its three
    weight sets."""
    values = np.empty(obs[O.N_LEGAL], np.float64)
    action_values(obs, params, values)
    best, idx = NONE, 0
    for i in range(obs[O.N_LEGAL]):
        if values[i] > best:
            best, idx = values[i], i
    return idx
