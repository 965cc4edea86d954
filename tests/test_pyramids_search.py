"""Pyramids' search hooks: a determinization shows the seat exactly what it saw, and is a legal
game the fast engine's machine plays to the end; the search strategies choose legal actions."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.kernels import random_choice
from sim.core.reference import Decider
from sim.pyramids import fast as F
from sim.pyramids import observation as O
from sim.pyramids import reference as R
from sim.pyramids import search as S
from sim.pyramids.rules import PyramidsRules

PRESETS = ["published", "hidden-tombs", "strict"]


def observations(rules, players, seed, games):
    """The deciding seat's vector at every decision of random games (reference engine)."""
    seen = []
    for game in range(games):
        decide = Decider([random_choice] * players, [np.zeros(1)] * players, seed, game, players)

        def keep(seat, obs, where):
            seen.append(obs.copy())
            return decide(seat, obs, where)
        R.play_game(rules, players, seed, game, keep)
    return seen


@pytest.mark.parametrize("preset", PRESETS + ["public-discards"])
@pytest.mark.parametrize("players", [2, 4, 5])
def test_a_determinization_shows_the_seat_what_it_saw(preset, players):
    rules = (PyramidsRules.preset("published").replace(discards_public=True) if preset == "public-discards"
             else PyramidsRules.preset(preset))
    r = F.pack_rules(rules)
    g = np.zeros(F.G_SIZE, np.int64)
    streams = np.zeros(F.N_STREAMS, np.uint64)
    again = np.zeros(O.SIZE, np.int64)
    for k, obs in enumerate(observations(rules, players, 5, 3)):
        S.determinize(obs, g, streams, r, np.uint64(1000 + k))
        F.fill_observation(g, r, obs[O.SEAT], again)
        n = O.LEGAL + obs[O.N_LEGAL]
        cols = np.flatnonzero(again[:n] != obs[:n])
        cols = cols[(cols < O.CARD_CODE) | (cols >= O.CARD_LOC)]    # codes: written per game
        assert cols.size == 0, (k, cols, again[cols], obs[cols])


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_determinization_plays_to_the_end(players):
    rules = PyramidsRules.preset("hidden-tombs")
    r = F.pack_rules(rules)
    g = np.zeros(F.G_SIZE, np.int64)
    block = np.zeros((5, O.SIZE), np.int64)
    streams = np.zeros(F.N_STREAMS, np.uint64)
    for k, obs in enumerate(observations(rules, players, 9, 2)[::7]):
        S.determinize(obs, g, streams, r, np.uint64(k))
        g[F.G_CALL:F.G_CALL + 5] = F.RANDOM_POLICY
        assert F.run(g, block, streams, r, 0) == F.RUN_END
        where = g[F.G_LOC:F.G_LOC + obs[O.N_CARDS]]
        placed = [(where == kind * 8 + s).sum() for s in range(players) for kind in (F.L_PYRAMID,)]
        assert placed == [10] * players


@pytest.mark.parametrize("spec", ["flat-mc:sims=3", "ismcts:iters=40"])
def test_the_searchers_play_whole_games(spec):
    from strategies.play import play
    t = play("pyramids", PyramidsRules.preset(), [spec, "random", "random"], games=4, seed=3,
             progress=False).table()
    assert t.games.tolist() == [4, 4, 4]


@pytest.mark.parametrize("spec", ["flat-mc:sims=2,rollout=1", "flat-mc:sims=3,prune=2,z=1",
                                  "ismcts:iters=20,rollout=1"])
def test_greedy_rollouts_and_pruning_play_the_same_games_in_both_engines(spec):
    from strategies.play import play
    rules = PyramidsRules.preset()
    scores = []
    for engine in ("fast", "reference"):
        batches = []
        play("pyramids", rules, [spec, "greedy"], games=3, seed=4, progress=False, engine=engine,
             on_batch=batches.append)
        scores.append(np.concatenate([b.scores for b in sorted(batches, key=lambda b: b.first_game)]))
    assert scores[0].shape == (3, 2)
    np.testing.assert_array_equal(scores[0], scores[1])


def test_pruned_candidates_are_the_greedys_best_its_choice_first():
    from sim.pyramids import policies as K
    from strategies.registry import parse_spec
    rules = PyramidsRules.preset()
    params = parse_spec("pyramids", "greedy").params_array(rules, 4)
    checked = 0
    for obs in observations(rules, 4, 9, 3):
        n = int(obs[O.N_LEGAL])
        if n < 4:
            continue
        values, gains = np.empty(n), np.empty(n)
        K.action_values(obs, params, values, gains)
        cand = S.candidates(obs, 3)
        assert len(cand) == 3 and len(set(cand.tolist())) == 3
        assert cand[0] == K.greedy(obs, params, np.zeros(1, np.uint64))
        assert values[cand].tolist() == sorted(values, reverse=True)[:3]
        assert S.candidates(obs, 0).tolist() == list(range(n))
        checked += 1
    assert checked > 20
