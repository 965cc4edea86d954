"""Strategy kernels that serve every game, written once against the common header.

`random_choice` is the registered `random` strategy of every game. `observation_hash` is the
conformance suite's probe: it chooses from a hash of every defined entry of the vector, so any
entry on which two engines disagree changes the game that follows, and it also draws from its
own stream, so the streams are checked too.
"""
import numpy as np
from numba import njit

from .observation import N_LEGAL, defined_length
from .rng import uniform_below
from .strategy_api import DECIDE_SIG


@njit(DECIDE_SIG, cache=True, error_model="numpy")
def random_choice(obs, params, rng):
    """Uniform over the legal actions, from the seat's own stream."""
    return uniform_below(rng, obs[N_LEGAL])


@njit(cache=True)
def hash_observation(obs):
    """FNV-1a over every defined entry of the vector (header, game fields, legal list)."""
    h = np.int64(1469598103934665603)
    for i in range(defined_length(obs)):
        h = (h ^ obs[i]) * 1099511628211
    return h


@njit(DECIDE_SIG, cache=True)
def observation_hash(obs, params, rng):
    """An index chosen by a hash of the whole observation (salted by params[0]) and, one time in
    four, by the seat's own stream."""
    n = obs[N_LEGAL]
    h = hash_observation(obs) ^ np.int64(params[0])
    coin = uniform_below(rng, n)
    if ((h >> 13) & 3) == 0:
        return coin
    return ((h >> 17) & 0xFFFFFF) % n
