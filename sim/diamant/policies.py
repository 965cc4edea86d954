"""Native Diamant decision kernels: the built-in strategies' logic, which the fast engine calls
directly (so LLVM inlines them) instead of through a function pointer.

Each kernel has the public strategy signature `decide(obs, params, rng) -> 0 | 1` and is also
what the registry hands to the reference engine, so built-ins and plugins share one API.
`strategies/diamant.py` registers them with names, parameters and documentation; a plugin runs
through the same engine by function pointer instead (`NATIVE_NONE`).
"""
from numba import njit

from ..core.rng import uniform_float
from ..core.strategy_api import DECIDE_SIG
from . import observation as O

NATIVE_NONE = -1
ALWAYS_CONTINUE, LEAVE_AFTER_HAZARDS, LEAVE_AT_GEMS, LEAVE_AFTER_CARDS, RANDOM_LEAVE, \
    EXPECTED_VALUE = range(6)


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def always_continue(obs, params, rng):
    return O.CONTINUE


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def leave_after_hazards(obs, params, rng):
    return O.LEAVE if obs[O.HAZARDS_REVEALED] >= params[0] else O.CONTINUE


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def leave_at_gems(obs, params, rng):
    return O.LEAVE if obs[O.CARRIED] >= params[0] else O.CONTINUE


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def leave_after_cards(obs, params, rng):
    return O.LEAVE if obs[O.CARDS_REVEALED] >= params[0] else O.CONTINUE


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


@njit(cache=True)
def decide_native(code, obs, params, rng):
    """Run the built-in kernel `code` (the fast engine's direct path)."""
    if code == LEAVE_AFTER_HAZARDS:
        return leave_after_hazards(obs, params, rng)
    if code == LEAVE_AT_GEMS:
        return leave_at_gems(obs, params, rng)
    if code == LEAVE_AFTER_CARDS:
        return leave_after_cards(obs, params, rng)
    if code == RANDOM_LEAVE:
        return random_leave(obs, params, rng)
    if code == EXPECTED_VALUE:
        return expected_value(obs, params, rng)
    return O.CONTINUE
