"""The game-agnostic search (sim/core/search.py): the same games as before it existed, any game
through its interface, and compiled code that a new process loads instead of compiling.

RECORDED_GAMES and RECORDED_DECISIONS were recorded from Schotten Totten's flat-mc and ismcts as
they were before the search moved to the core (commit 1d2fa37): the core search must make exactly
the same decisions, with the same random draws in the same order (the stream states after each
decision are compared too, as a hash).
"""
import hashlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit

import strategies.schotten_totten  # noqa: F401  (registers the built-ins)
from sim.core import observation as H
from sim.core import search as CS
from sim.core.rng import new_state, split_below
from sim.schotten_totten import fast, reference
from sim.schotten_totten.rules import SchottenTottenRules
from strategies.registry import parse_spec

# `make test` (--dist loadgroup): the toy game's kernels compile in one xdist worker, not both
pytestmark = pytest.mark.xdist_group("search-core")

GAME = "schotten-totten"

# per game of 4 (seed 21, games 0-3, the searcher in seat 0, 1, 0, 1 against the greedy):
# (seat 0's share, turns, cards played, end, proof claims)
RECORDED_GAMES = {
    ('base', 'flat-mc:sims=20'):
        [(1.0, 39, 39, 0, 5), (0.0, 32, 32, 0, 2), (1.0, 43, 43, 0, 6), (0.0, 46, 46, 1, 6)],
    ('base', 'ismcts:iters=100'):
        [(0.0, 48, 48, 0, 3), (0.0, 40, 40, 0, 3), (0.0, 38, 38, 0, 4), (0.0, 50, 48, 1, 4)],
    ('tactics', 'flat-mc:sims=20'):
        [(0.0, 56, 53, 0, 5), (1.0, 45, 45, 0, 3), (0.0, 52, 52, 0, 3), (1.0, 37, 37, 0, 2)],
    ('tactics', 'ismcts:iters=100'):
        [(1.0, 45, 45, 0, 4), (0.0, 44, 44, 0, 1), (0.0, 56, 39, 2, 3), (0.0, 48, 48, 0, 6)],
}
# (chosen index at each of 80 positions of random games, sha256 prefix of the stream states after)
RECORDED_DECISIONS = {
    'flat-mc:sims=6':
        ([48, 9, 19, 32, 52, 26, 33, 33, 11, 11, 0, 3, 35, 9, 24, 33, 18, 0, 2, 9, 51, 0, 20, 0,
          26, 1, 18, 30, 32, 4, 10, 28, 17, 3, 0, 1, 0, 11, 1, 43, 26, 47, 14, 34, 13, 0, 5, 45,
          0, 38, 0, 25, 1, 3, 30, 9, 12, 5, 22, 2, 0, 0, 6, 1, 5, 0, 10, 1, 33, 0, 31, 4, 13, 0,
          0, 2, 7, 0, 0, 0],
         '1ad9322042a48a85'),
    'flat-mc:sims=6,infer=0':
        ([48, 41, 30, 38, 7, 26, 5, 33, 11, 11, 0, 30, 44, 45, 25, 48, 8, 7, 2, 9, 51, 0, 20, 0,
          26, 1, 18, 30, 32, 4, 10, 28, 17, 3, 0, 1, 0, 11, 1, 43, 26, 47, 14, 34, 13, 0, 5, 45,
          0, 38, 0, 25, 1, 3, 30, 9, 12, 5, 22, 2, 0, 0, 6, 1, 5, 0, 10, 1, 33, 0, 31, 4, 13, 0,
          0, 2, 7, 0, 0, 0],
         '31d86b29e61f7c29'),
    'flat-mc:sims=6,z=1,margin=0.2':
        ([48, 9, 47, 32, 6, 37, 33, 33, 11, 11, 0, 3, 32, 10, 51, 1, 20, 0, 16, 9, 52, 0, 20, 0,
          26, 1, 18, 30, 0, 12, 20, 28, 17, 3, 0, 1, 0, 11, 1, 43, 26, 47, 14, 34, 12, 23, 5, 46,
          0, 38, 0, 25, 0, 3, 38, 9, 12, 5, 22, 2, 1, 0, 6, 0, 14, 0, 10, 0, 33, 0, 31, 4, 12, 0,
          0, 2, 7, 0, 0, 0],
         '1ad9322042a48a85'),
    'flat-mc:sims=4,rollout=0,prune=0,infer=3':
        ([16, 40, 47, 1, 36, 17, 43, 2, 11, 11, 0, 53, 8, 3, 25, 46, 8, 36, 2, 9, 17, 1, 35, 1,
          74, 0, 18, 20, 2, 13, 20, 28, 17, 2, 1, 26, 1, 1, 1, 37, 3, 20, 9, 15, 8, 8, 4, 18, 1,
          41, 1, 24, 1, 3, 30, 9, 42, 12, 17, 11, 0, 0, 41, 0, 16, 0, 15, 1, 42, 3, 37, 12, 4, 0,
          2, 9, 7, 0, 0, 0],
         '846cd3cb4ada6d06'),
    'ismcts:iters=40':
        ([45, 50, 47, 38, 52, 7, 0, 2, 0, 11, 0, 45, 35, 3, 34, 12, 18, 14, 7, 1, 45, 1, 23, 0,
          14, 0, 18, 40, 35, 26, 6, 28, 0, 0, 0, 1, 0, 10, 1, 35, 0, 31, 12, 23, 3, 0, 4, 45, 1,
          21, 0, 24, 1, 18, 30, 9, 16, 6, 1, 2, 0, 0, 0, 1, 14, 1, 9, 0, 48, 22, 35, 3, 0, 0, 1,
          2, 0, 0, 0, 0],
         'af34a46d49c4b560'),
    'ismcts:iters=40,inner=0':
        ([45, 9, 32, 5, 6, 17, 7, 2, 0, 11, 0, 45, 32, 10, 51, 19, 34, 0, 27, 1, 47, 1, 24, 0,
          25, 1, 26, 3, 0, 39, 0, 0, 0, 7, 0, 3, 0, 9, 0, 32, 26, 47, 15, 23, 12, 0, 4, 45, 0,
          23, 0, 24, 0, 12, 37, 9, 12, 26, 28, 0, 0, 0, 5, 0, 12, 1, 8, 0, 32, 13, 24, 3, 0, 0,
          0, 0, 17, 9, 1, 0],
         '5a3f2b1746011508'),
    'ismcts:iters=40,replies=0,c=1':
        ([45, 10, 32, 47, 52, 7, 0, 2, 0, 11, 0, 3, 35, 3, 25, 36, 8, 7, 0, 1, 46, 0, 20, 0, 26,
          0, 3, 21, 0, 30, 6, 26, 0, 6, 1, 1, 0, 16, 1, 43, 0, 47, 14, 40, 12, 0, 4, 51, 1, 25,
          0, 24, 1, 3, 30, 2, 3, 5, 1, 5, 0, 0, 0, 1, 14, 1, 1, 0, 32, 13, 33, 3, 0, 0, 1, 0, 0,
          0, 0, 0],
         'af34a46d49c4b560'),
    'ismcts:iters=40,rollout=0,prune=0,infer=0,replies=2':
        ([0, 0, 1, 0, 2, 0, 0, 2, 12, 11, 0, 0, 1, 0, 2, 0, 0, 0, 0, 5, 0, 1, 1, 0, 0, 0, 0, 0,
          0, 1, 0, 20, 17, 0, 0, 1, 0, 1, 0, 0, 0, 1, 4, 0, 1, 8, 7, 0, 0, 1, 0, 0, 1, 0, 0, 0,
          1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 2, 0, 1, 2, 9, 3, 1, 0, 0],
         '73f27bf0fda552f0'),
}


def _match(preset, spec):
    r = SchottenTottenRules.preset(preset)
    out = []
    for k in range(4):
        specs = [spec, "greedy"] if k % 2 == 0 else ["greedy", spec]
        bound = [parse_spec(GAME, s) for s in specs]
        b = fast.play_batch(r, 2, 21, k, 1, [x.strategy.kernel for x in bound],
                            [x.params_array(r, 2) for x in bound], [x.strategy.native for x in bound])
        out.append((float(b.shares[0, 0]), int(b.extras["turns"][0]), int(b.extras["cards_played"][0]),
                    int(b.extras["end"][0]), int(b.extras["proof_claims"][0])))
    return out


def _positions():
    """Observation vectors at every 5th decision of random games (base, tactics, manual claims)."""
    out = []
    for preset, over in (("base", {}), ("tactics", {}), ("tactics", {"auto_claim": False})):
        r = SchottenTottenRules.preset(preset).replace(**over)
        for game in range(2):
            g = reference.Game(r, 9, game)
            rng = reference.KeyedRng(9, game, 3)

            def decide(seat, phase, legal, g=g, rng=rng):
                out.append(np.asarray(g.flat_observation(seat, phase, legal), np.int64))
                return legal[rng.below(len(legal))]
            while not g.over:
                g.play_turn(decide)
    return out[::5]


@pytest.mark.parametrize("preset,spec", sorted(RECORDED_GAMES))
def test_schotten_totten_search_plays_the_recorded_games(preset, spec):
    assert _match(preset, spec) == RECORDED_GAMES[preset, spec]


def test_schotten_totten_search_makes_the_recorded_decisions():
    positions = _positions()
    assert len(positions) == 80
    for spec, (want, want_hash) in RECORDED_DECISIONS.items():
        b = parse_spec(GAME, spec)
        prm = b.params_array(None, 2)
        got, h = [], hashlib.sha256()
        for i, obs in enumerate(positions):
            rng = new_state(5, i, 1)
            got.append(int(b.strategy.kernel(obs.copy(), prm, rng)))
            h.update(np.asarray(rng, np.uint64).tobytes())
        assert got == want, spec
        assert h.hexdigest()[:16] == want_hash, spec


# ---------------------------------------------------------------- any game, through the interface
# A toy game: a pile of stones, the players (seats 0, 1) take 1 to 3 in turn, who takes the last
# wins. Its vector: the common header, the pile, the legal list (legal action i takes i + 1).
PILE = H.HEADER
LEGAL = H.HEADER + 1


def nim_obs(pile, seat=0):
    n = min(3, pile)
    return np.array([seat, 0, n, LEGAL, pile] + [1, 2, 3][:n], np.int64)


@njit(cache=True)
def nim_candidates(obs, prune):
    return np.arange(obs[H.N_LEGAL])


@njit(cache=True)
def nim_setup(obs, config):
    return np.zeros(3, np.int64), np.zeros(1, np.uint64)     # (pile, to move, winner), stream


@njit(cache=True)
def nim_determinize(obs, state, seed):
    s, stream = state
    s[0], s[1], s[2] = obs[PILE], obs[H.SEAT], -1
    stream[0] = seed


@njit(cache=True)
def _take(s, i):
    s[0] -= i + 1
    if s[0] == 0:
        s[2] = s[1]
        return 0
    s[1] = 1 - s[1]
    return min(3, s[0])


@njit(cache=True)
def nim_rollout(state, i):
    s, stream = state
    n = _take(s, i)
    while n > 0:
        stream[0], j = split_below(stream[0], n)
        n = _take(s, j)
    return 0


@njit(cache=True)
def nim_descend(state, i, show):
    return _take(state[0], i)


@njit(cache=True)
def nim_result(obs, state, status):
    return 1.0 if state[0][2] == obs[H.SEAT] else 0.0


@njit(cache=True)
def nim_to_move(state):
    return state[0][1]


@njit(cache=True)
def nim_action_at(state, i):
    return i + 1


NIM = CS.declare("test-nim", candidates=nim_candidates, setup=nim_setup,
                 determinize=nim_determinize, rollout=nim_rollout, descend=nim_descend, result=nim_result, to_move=nim_to_move,
                 action_at=nim_action_at, max_legal=3)


@njit(cache=True)
def nim_flat_mc(obs, params, rng):
    return CS.flat_mc(NIM, obs, rng, int(params[0]), 0, 0.0, 0)


@njit(cache=True)
def nim_ismcts(obs, params, rng):
    return CS.ismcts(NIM, obs, rng, int(params[0]), 0.7, 0, 0, 0, 0)


def test_a_toy_game_searched_through_the_interface():
    prm = np.array([400.0])
    for kernel in (nim_flat_mc, nim_ismcts):
        for pile in (1, 2, 3):          # take them all
            rng = new_state(1, pile, 0)
            assert kernel(nim_obs(pile, pile % 2), prm, rng) == pile - 1
        a, b = new_state(2, 0, 0), new_state(2, 0, 0)
        assert kernel(nim_obs(9), prm, a) == kernel(nim_obs(9), prm, b)    # reproducible
        assert a[0] == b[0] and a[0] != new_state(2, 0, 0)[0]               # the stream advanced
    # 5 stones: take 1 (the opponent is left a multiple of 4), found by the tree search
    for pile, best in ((5, 0), (6, 1), (7, 2)):
        assert nim_ismcts(nim_obs(pile), np.array([3000.0]), new_state(3, pile, 0)) == best


def test_declare_checks_the_interface():
    with pytest.raises(TypeError, match="missing"):
        CS.declare("test-incomplete", candidates=nim_candidates)
    with pytest.raises(TypeError, match="unknown"):
        CS.declare("test-unknown", candidates=nim_candidates, setup=nim_setup,
                   determinize=nim_determinize, rollout=nim_rollout, descend=nim_descend,
                   result=nim_result, to_move=nim_to_move, action_at=nim_action_at, max_legal=3,
                   rolout=nim_rollout)


# ---------------------------------------------------------------- compiled once, loaded everywhere
def test_a_new_process_loads_the_search_kernels_and_the_engine_from_the_cache():
    """The kernels' cache index holds the game token's type (a name): equal in every process,
    so a new process finds them compiled (dispatchers captured in closures would not be: their
    cache key would hold a per-process id)."""
    from strategies.play import play, resolve_rules
    script = textwrap.dedent("""
        from sim.schotten_totten import fast, search
        from strategies.play import play, resolve_rules
        play("schotten-totten", resolve_rules("schotten-totten", "base"),
             ["flat-mc:sims=2", "ismcts:iters=8"], games=1, seed=3, progress=False)
        for f in (search.flat_mc_policy, search.ismcts_policy, fast.play_block):
            print(f.__name__, sum(f.stats.cache_hits.values()), sum(f.stats.cache_misses.values()))
        """)
    # compiled (or loaded) here first: the cache is written before the new process starts
    play(GAME, resolve_rules(GAME, "base"), ["flat-mc:sims=2", "ismcts:iters=8"], games=1, seed=3,
         progress=False)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    for line in out.stdout.split("\n")[-4:-1]:
        name, hits, misses = line.split()
        assert int(hits) >= 1 and int(misses) == 0, out.stdout
