"""What every fast engine shares around its compiled loop: the seats' strategies as tables,
the output arrays, the error protocol, and the Batch it returns.

A fast engine's `play_batch(rules, players, seed, first_game, n_games, kernels, params,
natives=None) -> Batch` packs its rules, calls `lineup` and `outputs`, runs its compiled block
of games, then `finish`. Inside the compiled code a game that cannot go on writes one error
row (`record_illegal`, `record_endless`); `finish` raises for the first such game, as the
reference engine would have.

Error row: [flag, seat, action, n_legal, where0, where1]; flag ILLEGAL (a strategy returned an
index outside its legal list) or ENDLESS (MAX_TURNS reached); where0/where1 are the game's own
words for the decision, turned into text by the `where` function it gives `finish`.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from numba import njit

from .batch import Batch, StrategyError
from .nbutil import address_of, call_decide, jit_address, view_at
from .observation import illegal_message
from .reference import endless_game
from .rng import split_below

ERR_FLAG, ERR_SEAT, ERR_ACTION, ERR_N_LEGAL, ERR_WHERE0, ERR_WHERE1, ERR_FIELDS = range(7)
ILLEGAL, ENDLESS = 1, 2
NATIVE_NONE = -1     # the seat's strategy is called through its kernel, not run natively
SEAT_SLOTS = 5       # the seat slots of `seat_tables` and `call_ft` (a game's `lineup` width)
INLINED = 1000       # native code INLINED + k: kernel k of the engine's `Inlined` token


def lineup(kernels, params, natives, players: int, width: int, inlined=None):
    """(codes, fns, prms) for `width` seat slots: each seat's native code (NATIVE_NONE: call
    its kernel; INLINED + k: kernel k of the `inlined` token), kernel and float64 parameters;
    slots past `players` repeat seat 0's and are never used."""
    natives = list(natives) if natives is not None else [NATIVE_NONE] * players
    if inlined:
        natives = [INLINED + inlined.slot(k) if n == NATIVE_NONE and inlined.slot(k) >= 0 else n
                   for n, k in zip(natives, kernels)]
    seat = [p if p < players else 0 for p in range(width)]
    codes = np.array([natives[p] if p < players else NATIVE_NONE for p in range(width)], np.int64)
    fns = tuple(kernels[s] for s in seat)
    prms = tuple(np.ascontiguousarray(params[s], np.float64) for s in seat)
    return codes, fns, prms


@njit(cache=True, inline="always")
def seat_tables(fns, prms, players):
    """(fn_addr, prm_addr, prm_len) per seat slot of a SEAT_SLOTS-wide lineup: the address of each
    seat's compiled body (0: none, call it by `call_ft`) and of its parameters, and their length."""
    fn_addr = np.zeros(SEAT_SLOTS, np.int64)
    # the seats' functions may be of different numba types: the tuple is indexed by constants
    fn_addr[0] = jit_address(fns[0])
    fn_addr[1] = jit_address(fns[1])
    fn_addr[2] = jit_address(fns[2])
    fn_addr[3] = jit_address(fns[3])
    fn_addr[4] = jit_address(fns[4])
    prm_addr = np.zeros(SEAT_SLOTS, np.int64)
    prm_len = np.zeros(SEAT_SLOTS, np.int64)
    for p in range(players):
        prm_addr[p] = address_of(prms[p])
        prm_len[p] = prms[p].shape[0]
    return fn_addr, prm_addr, prm_len


@njit(cache=True, inline="always")
def call_ft(fns, seat, obs, prm, rng):
    """Seat `seat`'s strategy of a SEAT_SLOTS-wide lineup, through its first-class function value."""
    if seat == 0:
        return fns[0](obs, prm, rng)
    if seat == 1:
        return fns[1](obs, prm, rng)
    if seat == 2:
        return fns[2](obs, prm, rng)
    if seat == 3:
        return fns[3](obs, prm, rng)
    return fns[4](obs, prm, rng)


# ---------------------------------------------------------------- resumable turn machines
# An engine whose game is a resumable machine, `run(g, obs, streams, r, resume)` returning n > 0
# at a decision it does not take itself (Pyramids, CIV), keeps its seats' call table in its
# state vector g, at an offset `at` of its choosing: four rows of SEAT_SLOTS, the row offsets
# below. The seats' streams are streams[stream_at + seat].
CALL_ROW, FN_ROW, PRM_ROW, PRM_LEN_ROW = (k * SEAT_SLOTS for k in range(4))
CALL_TABLE = 4 * SEAT_SLOTS
RANDOM_NATIVE = 0    # the core's `random`, run natively: uniform from the seat's stream
CALL_JIT = 100       # through the address of its compiled body (`call_decide`)
CALL_FT = 101        # through its first-class function value, by the caller of `run`
CALL_STOP = 102      # not at all: `run` returns at its decisions (a search's own moves)


@njit(cache=True, inline="always")
def set_calls(g, at, natives, fn_addr, prm_addr, prm_len, players):
    """The call table of a machine engine: the core's `random` natively, any other strategy by
    the address of its compiled body, or else by its function value (`answer`)."""
    for p in range(players):
        code = natives[p]
        if code != RANDOM_NATIVE:
            code = CALL_JIT if fn_addr[p] != 0 else CALL_FT
        g[at + CALL_ROW + p], g[at + FN_ROW + p] = code, fn_addr[p]
        g[at + PRM_ROW + p], g[at + PRM_LEN_ROW + p] = prm_addr[p], prm_len[p]


@njit(cache=True, inline="always")
def decide(g, at, seat, n, obs, streams, stream_at, r, fill):
    """Seat's choice among the n legal actions of a machine engine's pending decision:
    (index, False), or (0, True) when the caller of `run` decides (CALL_FT: seat's vector
    filled; CALL_STOP). `fill(g, r, seat, vector)` writes the seat's observation, only for a
    strategy that reads it (not the native `random`). Pass borrowed arrays (`nbutil.borrowed`):
    owned ones are reference-counted at every decision (Pyramids lost 28% so)."""
    call = g[at + CALL_ROW + seat]
    if call == RANDOM_NATIVE:
        streams[stream_at + seat], idx = split_below(streams[stream_at + seat], n)
        return idx, False
    if call == CALL_STOP:
        return 0, True
    o = obs[seat]
    fill(g, r, seat, o)
    if call == CALL_FT:
        return 0, True
    prm = view_at(g[at + PRM_ROW + seat], g[at + PRM_LEN_ROW + seat], np.float64)
    rng = streams[stream_at + seat:stream_at + seat + 1]
    return call_decide(g[at + FN_ROW + seat], o, prm, rng), False


@njit(cache=True, inline="always")
def answer(fns, g, at, seat, obs, streams, stream_at):
    """The index seat's first-class function value chooses (CALL_FT), its vector filled."""
    prm = view_at(g[at + PRM_ROW + seat], g[at + PRM_LEN_ROW + seat], np.float64)
    rng = streams[stream_at + seat:stream_at + seat + 1]
    return call_ft(fns, seat, obs[seat], prm, rng)


def outputs(n_games: int, players: int, n_extras: int, extras_by_column: bool = False):
    """(scores, shares, extras, errors), zeroed, for n_games games.

    With `extras_by_column`, extras is column-major and `finish` hands each column to the Batch
    as it is (copying them cost Pyramids 4% of its speed). An engine that takes a `borrowed`
    view of extras needs it row-major, the default."""
    extras = (np.zeros((n_extras, n_games), np.int64).T if extras_by_column
              else np.zeros((n_games, n_extras), np.int64))
    return (np.zeros((n_games, players), np.int64), np.zeros((n_games, players), np.float64),
            extras, np.zeros((n_games, ERR_FIELDS), np.int64))


@njit(cache=True, inline="always")
def record_illegal(errors, row, seat, action, n_legal, where0, where1):
    errors[row, ERR_FLAG] = ILLEGAL
    errors[row, ERR_SEAT] = seat
    errors[row, ERR_ACTION] = action
    errors[row, ERR_N_LEGAL] = n_legal
    errors[row, ERR_WHERE0] = where0
    errors[row, ERR_WHERE1] = where1


@njit(cache=True, inline="always")
def record_endless(errors, row):
    errors[row, ERR_FLAG] = ENDLESS


def finish(first_game: int, scores, shares, extras, errors, names: Sequence[str],
           where: Callable[[int, int], str]) -> Batch:
    """The Batch of the block, or the error of its first failed game (StrategyError, or the
    endless-game error)."""
    bad = np.flatnonzero(errors[:, ERR_FLAG])
    if bad.size:
        i = int(bad[0])
        e = [int(x) for x in errors[i]]
        if e[ERR_FLAG] == ENDLESS:
            raise endless_game(first_game + i)
        raise StrategyError(e[ERR_SEAT], first_game + i, where(e[ERR_WHERE0], e[ERR_WHERE1]),
                            illegal_message(e[ERR_ACTION], e[ERR_N_LEGAL]))
    # a view of each column when extras is column-major (outputs' extras_by_column), else a copy
    columns = {k: np.ascontiguousarray(extras[:, j]) for j, k in enumerate(names)}
    return Batch(first_game, scores, shares, columns)


def blocks(n_games: int, tasks: int = 64) -> int:
    """Games per parallel task: about `tasks` tasks (any size gives the same results)."""
    return max(1, -(-n_games // tasks))
