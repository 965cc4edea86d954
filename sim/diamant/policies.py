"""Native Diamant decision kernels: the built-in strategies' logic, which the fast engine runs
inline instead of through a function pointer.

Each kernel has the public strategy signature `decide(obs, params, rng) -> 0 | 1` and is also
what the registry hands to the reference engine, so built-ins and plugins share one API.
`strategies/diamant.py` registers them with names, parameters and documentation; a plugin runs
through the same engine by function pointer instead (`sim.core.engine.NATIVE_NONE`).

The threshold strategies (leave once one observed number reaches params[0]) share one rule,
`leave_at_threshold`; the fast engine runs them as data, a field and an integer threshold per
seat (`threshold_field`, `integer_threshold`), with no dispatch on the strategy per decision.
"""
import numpy as np
from numba import njit

from ..core.rng import uniform_float
from ..core.strategy_api import DECIDE_SIG
from . import observation as O

ALWAYS_CONTINUE, LEAVE_AFTER_HAZARDS, LEAVE_AT_GEMS, LEAVE_AFTER_CARDS, RANDOM_LEAVE, \
    EXPECTED_VALUE = range(6)


NEVER = np.iinfo(np.int64).max   # an integer threshold no observation reaches


@njit(cache=True, inline="always")
def leave_at_threshold(obs, field, threshold):
    """The rule of the threshold strategies: leave once obs[field] reaches threshold."""
    return O.LEAVE if obs[field] >= threshold else O.CONTINUE


@njit(cache=True, inline="always")
def integer_threshold(threshold):
    """The int64 t with `x >= threshold` <=> `x >= t` for every integer |x| < 2**53 (so for
    every observation value): the engine then compares integers, with no conversion."""
    if threshold >= 2.0 ** 62 or threshold != threshold:   # +inf, NaN: never reached
        return NEVER
    if threshold <= -2.0 ** 62:
        return -NEVER
    return np.int64(np.ceil(threshold))


@njit(cache=True, inline="always")
def threshold_field(code):
    """The field the threshold strategy `code` watches, or -1 for other codes.
    always-continue is a threshold strategy whose threshold is never reached (any field)."""
    if code == LEAVE_AFTER_HAZARDS:
        return O.HAZARDS_REVEALED
    if code == LEAVE_AT_GEMS:
        return O.CARRIED
    if code == LEAVE_AFTER_CARDS:
        return O.CARDS_REVEALED
    if code == ALWAYS_CONTINUE:
        return O.SEAT
    return -1


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def always_continue(obs, params, rng):
    return O.CONTINUE


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def leave_after_hazards(obs, params, rng):
    return leave_at_threshold(obs, O.HAZARDS_REVEALED, params[0])


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def leave_at_gems(obs, params, rng):
    return leave_at_threshold(obs, O.CARRIED, params[0])


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def leave_after_cards(obs, params, rng):
    return leave_at_threshold(obs, O.CARDS_REVEALED, params[0])


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def random_leave(obs, params, rng):
    return O.LEAVE if uniform_float(rng) < params[0] else O.CONTINUE


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def expected_value(obs, params, rng):
    deck = obs[O.DECK_SIZE]
    if deck == 0:
        return O.CONTINUE
    n_in = obs[O.IN_CAVE]
    gain = 0
    for i in range(obs[O.TREASURE_CARDS]):
        if obs[O.TREASURE_IN_DECK + i]:
            gain += obs[O.TREASURE_VALUE + i] // n_in
    loss = params[0] * obs[O.DANGER_HAZARDS] * obs[O.CARRIED]
    return O.LEAVE if loss > gain else O.CONTINUE


MAP_HEADER = 3   # a decision map's table: kinds dimension, gem bins, gem bin width, then a
                 # 0/1 leave flag per (players inside, hazard kinds out, gem bin) cell


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def decision_map(obs, params, rng):
    """0 = go on, 1 = leave, looked up in the cell of the state (strategies/diamant_map.py
    builds the table)."""
    k_dim = np.int64(params[0])
    bins = np.int64(params[1])
    kinds = 0
    for k in range(obs[O.HAZARD_KINDS]):
        kinds += obs[O.HAZARD_SEEN + k] > 0
    gems = min(obs[O.CARRIED] // np.int64(params[2]), bins - 1)
    return np.int64(params[MAP_HEADER + (obs[O.IN_CAVE] * k_dim + kinds) * bins + gems])
