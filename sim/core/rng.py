"""Keyed SplitMix64 random streams, identical in compiled and plain-Python code.

Every random draw of a game comes from a stream keyed by (seed, game index, stream id),
so results never depend on threads, chunking or batch order, and streams are independent:
the deck of round r uses `deck_stream(r)`, player p uses `player_stream(p)`. Changing one
seat's strategy therefore never changes the cards dealt (common random numbers).

A stream's state is a one-element uint64 array, advanced in place. `KeyedRng` is the
plain-Python twin used by reference engines; a test pins both to the same outputs.
"""
import numpy as np
from numba import njit

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
GAME_SALT = 0xD1B54A32D192ED03
STREAM_SALT = 0x8CB92BA72F3D8DD7

PLAYER_STREAM_BASE = 1 << 20
PROBE_STREAM = 1 << 40     # where a paired-rollout analysis places its probe in a game


def deck_stream(round_index: int) -> int:
    """Stream id of the deck shuffle of a round (or of a game's single deal)."""
    return round_index


def player_stream(seat: int) -> int:
    """Stream id of a seat's own randomness (its strategy's draws)."""
    return PLAYER_STREAM_BASE + seat


# ---------------------------------------------------------------- compiled versions
_G = np.uint64(GOLDEN)
_M1 = np.uint64(MIX1)
_M2 = np.uint64(MIX2)
_GS = np.uint64(GAME_SALT)
_SS = np.uint64(STREAM_SALT)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@njit(cache=True, inline="always")
def mix64(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def stream_key(seed, game, stream):
    """Initial state of stream `stream` of game `game` under `seed` (all non-negative)."""
    return stream_of(game_key(seed, game), stream)


# The two halves of `stream_key`, for an engine that starts several streams of one game: the
# game's key once, then one mix per stream.
@njit(cache=True, inline="always")
def game_key(seed, game):
    k = mix64(np.uint64(seed) ^ _G)
    return mix64(k ^ (np.uint64(game) * _GS))


@njit(cache=True, inline="always")
def stream_of(key, stream):
    return mix64(key ^ (np.uint64(stream) * _SS))


@njit(cache=True, inline="always")
def next_u64(state):
    state[0] += _G
    return mix64(state[0])


# Scalar-state forms, for engines that keep a stream in a local variable: they return the
# new state with the value, so the hot loop touches no array (no reference counting).
@njit(cache=True, inline="always")
def split_next(s):
    s = s + _G
    return s, mix64(s)


@njit(cache=True, inline="always")
def split_below(s, n):
    """(new state, unbiased integer in [0, n)) for 1 <= n < 2**32 (Lemire's method, 32-bit)."""
    un = np.uint64(n)
    s, x = split_next(s)
    m = (x >> _S32) * un
    low = m & _LOW32
    if low < un:
        threshold = (_TWO32 - un) % un
        while low < threshold:
            s, x = split_next(s)
            m = (x >> _S32) * un
            low = m & _LOW32
    return s, np.int64(m >> _S32)


@njit(cache=True)
def uniform_below(state, n):
    """Unbiased integer in [0, n) for 1 <= n < 2**32, advancing the stream `state`."""
    s, r = split_below(state[0], n)
    state[0] = s
    return r


@njit(cache=True)
def uniform_float(state):
    """Float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> _S11) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle_in_place(state, values):
    """Forward Fisher-Yates: position i takes a uniform pick among positions i..n-1.

    Because it runs forward, `draw_at` (the same step, one position at a time) gives exactly
    the prefix of this permutation, so an engine may shuffle lazily, only as far as it deals."""
    s = state[0]
    for i in range(values.shape[0] - 1):
        s, _ = draw_at(s, values, i)
    state[0] = s


@njit(cache=True, inline="always")
def draw_at(s, values, i):
    """One forward Fisher-Yates step on scalar state s: fix position i.
    Returns (new state, the value placed at i)."""
    n = values.shape[0] - i
    if n > 1:
        s, r = split_below(s, n)
        j = i + r
        tmp = values[j]
        values[j] = values[i]
        values[i] = tmp
    return s, values[i]


def new_state(seed: int, game: int, stream: int) -> np.ndarray:
    """A fresh stream state array, for handing to a strategy."""
    return np.array([stream_key(seed, game, stream)], dtype=np.uint64)


# ---------------------------------------------------------------- plain-Python twin
def _mix64_py(z: int) -> int:
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


class KeyedRng:
    """Plain-Python SplitMix64 stream with the exact outputs of the compiled functions."""

    def __init__(self, seed: int, game: int, stream: int):
        k = _mix64_py((seed & MASK64) ^ GOLDEN)
        k = _mix64_py(k ^ ((game * GAME_SALT) & MASK64))
        self.state = _mix64_py(k ^ ((stream * STREAM_SALT) & MASK64))

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return _mix64_py(self.state)

    def below(self, n: int) -> int:
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def uniform(self) -> float:
        return (self.next_u64() >> 11) * (1.0 / 9007199254740992.0)

    def shuffle(self, values: list) -> None:
        """Forward Fisher-Yates, as `shuffle_in_place`."""
        for i in range(len(values) - 1):
            j = i + self.below(len(values) - i)
            values[i], values[j] = values[j], values[i]
