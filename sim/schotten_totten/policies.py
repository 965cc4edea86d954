"""Native Schotten Totten decision kernels: built-in strategies the fast engine calls directly
(no function pointer, and without filling the observation when the kernel does not read it).

Each kernel has the public strategy signature `decide(obs, params, rng) -> index of a legal
action` (observation.py) and is also what the registry hands to the reference engine, so
built-ins and plugins share one API. A plugin runs through the engine by function pointer
(`NATIVE_NONE`).
"""
from numba import njit

from ..core.rng import uniform_below
from ..core.strategy_api import DECIDE_SIG
from . import observation as O

NATIVE_NONE = -1
RANDOM_POLICY = 0     # reads nothing but N_LEGAL: the fast engine does not fill its vector


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def random_policy(obs, params, rng):
    """Uniform over the legal actions, from the seat's own stream."""
    return uniform_below(rng, obs[O.N_LEGAL])


@njit(cache=True)
def decide_native(code, obs, params, rng):
    """Run the built-in kernel `code`."""
    if code == RANDOM_POLICY:
        return random_policy(obs, params, rng)
    return 0
