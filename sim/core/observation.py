"""The header every observation vector starts with, in every game: one strategy contract.

    obs[SEAT]      the deciding seat
    obs[DECISION]  the kind of decision (the game's own codes; a game with one kind uses 0)
    obs[N_LEGAL]   the number of legal actions, n >= 1
    obs[LEGAL_AT]  where the legal list starts: obs[obs[LEGAL_AT] + i] is legal action i

A strategy `decide(obs, params, rng)` returns an INDEX into the legal list, 0 .. n - 1; the
engines call it only when n >= 2 (with one legal action there is nothing to decide and no
random draw is made). The legal list is the last block of the vector: every entry before
obs[LEGAL_AT] + obs[N_LEGAL] is defined in both engines, entries after it are not (a fast
engine leaves there what an earlier decision wrote). What an action code means is the game's
(its `observation` module encodes and names them); Diamant's legal list is always
[continue, leave] = [0, 1], so its index is its action code.
"""
from numba import njit

SEAT = 0
DECISION = 1
N_LEGAL = 2
LEGAL_AT = 3
HEADER = 4          # the first entry a game lays out itself


@njit(cache=True, inline="always")
def legal_action(obs, i):
    """The action code of legal action i."""
    return obs[obs[LEGAL_AT] + i]


@njit(cache=True, inline="always")
def defined_length(obs):
    """The entries of the vector that are defined: the header, the game's fields, the legal list."""
    return obs[LEGAL_AT] + obs[N_LEGAL]


def illegal_message(index, n_legal: int) -> str:
    """The error text of a strategy that returned something other than a legal index."""
    return f"returned illegal action {index} (allowed: the index of a legal action, 0 .. {n_legal - 1})"
