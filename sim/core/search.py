"""Game-agnostic search: flat Monte-Carlo and single-observer ISMCTS over determinizations.

Both searches decide from the deciding seat's observation vector alone. A game takes part by
declaring the few functions the searches call (`declare`); its strategy kernels then call
`flat_mc` / `ismcts` with the token `declare` returned:

    GAME = search.declare("my-game", candidates=..., setup=..., determinize=..., ...)

    @njit(cache=True)
    def flat_mc_policy(obs, params, rng):
        return search.flat_mc(GAME, obs, rng, int(params[0]), int(params[1]), params[2], config)

The game's functions (all compiled with numba; `state` is whatever the game's `setup` returns,
usually a tuple of its scratch arrays and settings):

  candidates(obs, prune) -> int64 array      the indices of the legal actions the search
        considers at the root, the game's preferred action first (the fallback of both searches,
        and flat-mc's reference under `z`); `prune` > 0 may keep only that many.
  setup(obs, config) -> state                the search's working state for one decision (scratch
        for determinizations, the forward model's streams and rules, inference data); `config`
        is the game's own part of the strategy's parameters, passed through untouched.
  determinize(obs, state, seed)              deal into `state` a whole game consistent with the
        vector (what the seat cannot see drawn from the 64-bit `seed`), the vector's decision
        pending, and seed the forward model's own random streams from `seed`.
  rollout(state, i) -> status                take legal action i of the pending decision and
        play on with the game's rollout policy (both seats) until the game ends.
  descend(state, i, show) -> status          take legal action i and play on until the next
        decision, which is left pending; with `show`, what `rank` reads is filled in.
  result(obs, state, status) -> float        the playout's value for the deciding seat, in [0, 1]
        (1 win, 0.5 draw, 0 loss, or the game's own scale), once `rollout` / `descend` ended.
  to_move(state) -> int                      the seat of the pending decision.
  action_at(state, i) -> int                 the code of its legal action i (below 2**40).
  max_legal: int                             an upper bound on the number of legal actions.
Optional (defaults in brackets):
  next_seed(obs, state, st) -> (seed, st)    the seed of the next determinization, drawn from the
        searcher's stream state `st` (a game may infer the opponent's hidden cards here)
        [the next draw of the stream: `rng.split_next`].
  wins_at_once(obs, state, i) -> bool        legal action i wins the game whatever the hidden
        cards; both searches play the first such candidate without searching [never].
  rank(state, seat, n, limit, ok, order)     ismcts below the root (inner > 0): set ok[i] for
        the legal actions of the pending decision to search (at most `limit`) and order[i], the
        order in which they are expanded (0 first) [all of them, in legal order].
  seat(obs), n_legal(obs), legal_action(obs, i)   read the vector [the common header,
        `core.observation`].
`status`: n > 0 when a decision with n legal actions is pending, else <= 0 (the game is over).

How it compiles: each interface function is a stub here with a numba `overload` (inlined) that,
for the type of a game's token (`GameType`, one per game, named after it), calls the function that
game declared. `flat_mc` and `ismcts` are therefore compiled once per game, specialised to its
functions, and run at the speed of code written for it. They are deliberately not cached
themselves: a game's kernel that calls them is (in the game's module), so editing the game's
search module recompiles the search with its current functions. The token's type is plain data
(the game's name): it pickles into numba's cache index and is equal across processes, so a new
process loads the game's cached kernels without compiling anything.

Measurements of these searches (parameters, strength, what did not help): docs/search.md.
"""
import inspect

import numpy as np
from numba import njit, types
from numba.core.imputils import lower_constant
from numba.extending import NativeValue, models, overload, register_model, typeof_impl, unbox

from . import observation as H
from .rng import split_below, split_next

SEAT_SHIFT = 40          # ismcts tree keys: action code | seat << SEAT_SHIFT


# ---------------------------------------------------------------- the game token and its type
class Game:
    """A game's search token: pass it to `flat_mc` / `ismcts` (from compiled code: a global)."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return f"search.Game({self.name!r})"


class GameType(types.Type):
    """The numba type of a game's token: one type per game, equal across processes."""

    def __init__(self, game: str):
        self.game = game
        super().__init__(name=f"SearchGame({game})")


register_model(GameType)(models.OpaqueModel)


@typeof_impl.register(Game)
def _typeof_game(val, c):
    return GameType(val.name)


@lower_constant(GameType)
def _constant_game(context, builder, ty, pyval):
    return context.get_dummy_value()


@unbox(GameType)
def _unbox_game(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


_GAMES: dict = {}        # game name -> {interface function name: the game's function or value}


def _implementation(game, name):
    """What game type `game` declared for interface function `name` (None: not a game type)."""
    if not isinstance(game, GameType):
        return None
    return _GAMES[game.game][name]


def _interface(stub):
    """Make `stub` an interface function: an overload that calls the declared function."""
    args = list(inspect.signature(stub).parameters)
    src = (f"def typer({', '.join(args)}):\n"
           f"    fn = _implementation({args[0]}, {stub.__name__!r})\n"
           f"    if fn is None:\n"
           f"        return None\n"
           f"    def impl({', '.join(args)}):\n"
           f"        return fn({', '.join(args[1:])})\n"
           f"    return impl\n")
    ns = {"_implementation": _implementation}
    exec(src, ns)
    overload(stub, inline="always")(ns["typer"])
    return stub


# ---------------------------------------------------------------- the interface (module docstring)
@_interface
def candidates(game, obs, prune):
    """The legal actions searched at the root, the game's preferred one first."""


@_interface
def setup(game, obs, config):
    """The search's working state for one decision."""


@_interface
def determinize(game, obs, state, seed):
    """Deal a game consistent with the vector into `state`, its decision pending."""


@_interface
def rollout(game, state, i):
    """Take action i, play to the end with the rollout policy; the status."""


@_interface
def descend(game, state, i, show):
    """Take action i, play to the next decision; the status."""


@_interface
def result(game, obs, state, status):
    """The playout's value for the deciding seat."""


@_interface
def to_move(game, state):
    """The seat of the pending decision."""


@_interface
def action_at(game, state, i):
    """The code of legal action i of the pending decision."""


@_interface
def next_seed(game, obs, state, st):
    """(seed of the next determinization, advanced stream state)."""


@_interface
def wins_at_once(game, obs, state, i):
    """Does legal action i win the game whatever the hidden cards?"""


@_interface
def rank(game, state, seat, n, limit, ok, order):
    """Below the root: the actions to search (ok) and their expansion order."""


@_interface
def seat(game, obs):
    """The deciding seat of the vector."""


@_interface
def n_legal(game, obs):
    """The number of legal actions of the vector."""


@_interface
def legal_action(game, obs, i):
    """The code of the vector's legal action i."""


def max_legal(game):
    """An upper bound on the number of legal actions (a compile-time constant)."""


@overload(max_legal)
def _max_legal(game):
    k = _implementation(game, "max_legal")
    if k is None:
        return None
    return lambda game: k


# ---------------------------------------------------------------- defaults of the optional functions
@njit(cache=True, inline="always")
def _next_draw(obs, state, st):
    st, seed = split_next(st)
    return seed, st


@njit(cache=True, inline="always")
def _never(obs, state, i):
    return False


@njit(cache=True, inline="always")
def _all_in_order(state, seat, n, limit, ok, order):
    for i in range(n):
        ok[i] = True
        order[i] = i


@njit(cache=True, inline="always")
def _header_seat(obs):
    return obs[H.SEAT]


@njit(cache=True, inline="always")
def _header_n_legal(obs):
    return obs[H.N_LEGAL]


@njit(cache=True, inline="always")
def _header_legal_action(obs, i):
    return H.legal_action(obs, i)


REQUIRED = ("candidates", "setup", "determinize", "rollout", "descend", "result", "to_move",
            "action_at", "max_legal")
DEFAULTS = {"next_seed": _next_draw, "wins_at_once": _never, "rank": _all_in_order,
            "seat": _header_seat, "n_legal": _header_n_legal, "legal_action": _header_legal_action}


def declare(name: str, **functions) -> Game:
    """Declare game `name`'s search interface (module docstring); returns its token."""
    missing = [k for k in REQUIRED if k not in functions]
    unknown = [k for k in functions if k not in REQUIRED and k not in DEFAULTS]
    if missing or unknown:
        raise TypeError(f"search.declare({name!r}): missing {missing}, unknown {unknown}")
    _GAMES[name] = {**DEFAULTS, **functions}
    return Game(name)


# ---------------------------------------------------------------- the searches
@njit
def decisive(game, obs, state, cand):
    """The first candidate that wins at once (`wins_at_once`), else -1."""
    for j in range(cand.shape[0]):
        if wins_at_once(game, obs, state, cand[j]):
            return cand[j]
    return -1


@njit
def flat_mc(game, obs, rng, sims, prune, z, config):
    """Flat Monte-Carlo: the index of the legal action to play.

    Every candidate (`candidates(obs, prune)`) is played out `sims` times (`rollout`), playout i
    of every candidate on the same determinization (common random numbers: the candidates are
    compared on the same hidden cards; the seeds come from the stream `rng`, advanced, through
    `next_seed`). The best mean `result` wins (ties: the earlier candidate); with z > 0 a
    candidate replaces the preferred one (the first) only if its paired mean difference exceeds
    z standard errors. A decisive candidate is played without search; with one candidate the
    stream is not used."""
    sims = max(1, sims)
    cand = candidates(game, obs, prune)
    m = cand.shape[0]
    if m == 1:
        return cand[0]
    state = setup(game, obs, config)
    win = decisive(game, obs, state, cand)
    if win >= 0:
        return win
    res = np.zeros((sims, m), np.float64)
    s = rng[0]
    for i in range(sims):
        seed, s = next_seed(game, obs, state, s)
        for j in range(m):
            determinize(game, obs, state, seed)
            res[i, j] = result(game, obs, state, rollout(game, state, cand[j]))
    rng[0] = s
    return _best_mean(cand, res, z, sims)


@njit(cache=True)
def _best_mean(cand, res, z, sims):
    """The best mean, among the first candidate and those that beat it by more than z standard
    errors of the paired difference."""
    best = 0
    best_mean = res[:, 0].mean()
    for j in range(1, cand.shape[0]):
        d = res[:, j] - res[:, 0]
        mean = res[:, j].mean()
        if mean <= best_mean:
            continue
        if z > 0.0 and d.mean() <= z * np.sqrt(d.var() / sims):
            continue
        best = j
        best_mean = mean
    return cand[best]


@njit
def ismcts(game, obs, rng, iters, c_exp, prune, inner, replies, config):
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012): the index of
    the legal action to play.

    Each of `iters` iterations deals a determinization (`next_seed`, `determinize`), descends
    the tree from the root by UCB1 over the children whose action is legal in that
    determinization (value = mean result for the seat that chose the action + c_exp *
    sqrt(ln(availability) / visits); availability counts the iterations in which the child was
    legal), expands one untried legal action, plays out (`rollout`) and backs the result up the
    path. Nodes are keyed by (seat to move, action code), so the opponent's moves are nodes of
    the same tree. The root offers the candidates (`candidates(obs, prune)`); below it, with
    inner > 0, `rank` offers the `inner` best actions of the deciding seat and the `replies` best
    of the others (replies <= 0: inner), the best untried one expanded first; with inner = 0
    every action is offered and the untried one expanded is drawn uniformly from the stream.
    The most visited root action is played (ties: the first in legal order; none visited: the
    first candidate). A decisive candidate is played without search."""
    iters = max(1, iters)
    me = seat(game, obs)
    n_root = n_legal(game, obs)
    cand = candidates(game, obs, prune)
    if cand.shape[0] == 1:
        return cand[0]
    root_ok = np.zeros(n_root, np.bool_)
    root_rank = np.zeros(n_root, np.int64)
    for j in range(cand.shape[0]):
        root_ok[cand[j]] = True
        root_rank[cand[j]] = j
    n_max = iters + 2
    first_child = np.full(n_max, -1, np.int64)
    sibling = np.full(n_max, -1, np.int64)
    akey = np.zeros(n_max, np.int64)
    nseat = np.zeros(n_max, np.int64)
    visits = np.zeros(n_max, np.float64)
    wins = np.zeros(n_max, np.float64)
    avail = np.zeros(n_max, np.float64)
    path = np.zeros(n_max, np.int64)
    width = max_legal(game)
    untried = np.empty(width, np.int64)
    child_of = np.empty(width, np.int64)
    ok = np.zeros(width, np.bool_)
    order = np.zeros(width, np.int64)
    if replies <= 0:
        replies = inner
    show = inner > 0
    n_nodes = 1
    state = setup(game, obs, config)
    win = decisive(game, obs, state, cand)
    if win >= 0:
        return win
    s = rng[0]
    for it in range(iters):
        seed, s = next_seed(game, obs, state, s)
        determinize(game, obs, state, seed)
        node = 0
        depth = 0
        status = n_root
        while True:
            mover = to_move(game, state)
            n = status
            if node == 0:
                for i in range(n):
                    ok[i] = root_ok[i]
                    order[i] = root_rank[i]
            elif inner > 0:
                rank(game, state, mover, n, inner if mover == me else replies, ok, order)
            else:
                for i in range(n):
                    ok[i] = True
            n_untried = 0
            for i in range(n):
                child_of[i] = -1
                if not ok[i]:
                    continue
                k = action_at(game, state, i) | (mover << SEAT_SHIFT)
                ch = first_child[node]
                while ch >= 0 and akey[ch] != k:
                    ch = sibling[ch]
                if ch < 0:
                    untried[n_untried] = i
                    n_untried += 1
                else:
                    avail[ch] += 1.0
                    child_of[i] = ch
            if n_untried > 0:
                if inner > 0:       # the best-ranked untried action first
                    u = 0
                    for q in range(1, n_untried):
                        if order[untried[q]] < order[untried[u]]:
                            u = q
                else:
                    s, u = split_below(s, n_untried)
                i = untried[u]
                nn = n_nodes
                n_nodes += 1
                akey[nn] = action_at(game, state, i) | (mover << SEAT_SHIFT)
                nseat[nn] = mover
                avail[nn] = 1.0
                sibling[nn] = first_child[node]
                first_child[node] = nn
                depth += 1
                path[depth] = nn
                status = rollout(game, state, i)
                break
            best_i = -1
            best_v = -1e300
            for i in range(n):
                ch = child_of[i]
                if ch < 0:
                    continue
                v = wins[ch] / visits[ch] + c_exp * np.sqrt(np.log(avail[ch]) / visits[ch])
                if v > best_v:
                    best_v = v
                    best_i = i
            ch = child_of[best_i]
            depth += 1
            path[depth] = ch
            node = ch
            status = descend(game, state, best_i, show)
            if status <= 0:
                break
        res = result(game, obs, state, status)
        for d in range(1, depth + 1):
            nd = path[d]
            visits[nd] += 1.0
            wins[nd] += res if nseat[nd] == me else 1.0 - res
    rng[0] = s
    best = cand[0]
    best_n = -1.0
    for i in range(n_root):
        k = legal_action(game, obs, i) | (me << SEAT_SHIFT)
        ch = first_child[0]
        while ch >= 0 and akey[ch] != k:
            ch = sibling[ch]
        if ch >= 0 and visits[ch] > best_n:
            best_n = visits[ch]
            best = i
    return best
