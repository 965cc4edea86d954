"""The Diamant decision map: probed games in both engines, the map against the exact solo DP,
and the `decision-map` strategy's lookup."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim.diamant import fast, observation as O, policies as K, reference
from sim.diamant.reference import Probe
from sim.diamant.rules import DiamantRules
from strategies import diamant_map as M
from strategies.diamant_solo import action_values, build_policy, solo_optimal
from strategies.play import kernels_and_params
from strategies.registry import lineup

SEED = 31


def _engines(rules, specs, probe, n=400, first=50):
    bound = lineup("diamant", specs, len(specs))
    kernels, params = kernels_and_params(bound, rules)
    natives = [b.strategy.native for b in bound]
    f = fast.play_probed(rules, len(specs), SEED, first, n, kernels, params, probe, natives)
    r = reference.play_probed(rules, len(specs), SEED, first, n, kernels, params, probe)
    return f, r, (kernels, params, natives)


def _probe(n, seat, action, rounds=5, steps=12, seed=0):
    rng = np.random.default_rng(seed)
    return Probe(rng.integers(0, rounds, n), rng.integers(0, steps, n), seat, action)


@pytest.mark.parametrize("preset", ["diamant-2005", "incan-gold-2006", "diamant-iello-2016"])
@pytest.mark.parametrize("action", [O.CONTINUE, O.LEAVE])
def test_probed_games_are_the_same_in_both_engines(preset, action):
    rules = DiamantRules.preset(preset)
    specs = ["leave-at-gems:t=6", "leave-after-hazards:k=2", "expected-value", "random-leave:p=0.2"]
    f, r, _ = _engines(rules, specs, _probe(400, 2, action))
    assert 0.2 < f.reached.mean() < 0.9
    np.testing.assert_array_equal(f.reached, r.reached)
    np.testing.assert_array_equal(f.observations, r.observations)
    np.testing.assert_array_equal(f.batch.scores, r.batch.scores)
    np.testing.assert_array_equal(f.batch.shares, r.batch.shares)
    for k in f.batch.extras:
        np.testing.assert_array_equal(f.batch.extras[k], r.batch.extras[k])


def test_a_probe_that_forces_what_the_strategy_does_changes_nothing():
    rules = DiamantRules.preset()
    specs = ["always-continue"] * 4
    f, _, (kernels, params, natives) = _engines(rules, specs, _probe(400, 1, O.CONTINUE))
    plain = fast.play_batch(rules, 4, SEED, 50, 400, kernels, params, natives)
    np.testing.assert_array_equal(f.batch.scores, plain.scores)
    assert f.reached.any()
    # and forcing the other action does change games
    g, _, _ = _engines(rules, specs, _probe(400, 1, O.LEAVE))
    assert (g.batch.scores[g.reached, 1] != plain.scores[g.reached, 1]).any()


def test_the_probed_seat_sees_its_own_state_at_the_forced_decision():
    rules = DiamantRules.preset()   # the first card is revealed before the first decision
    n = 300
    f, _, _ = _engines(rules, ["always-continue"] * 3,
                       Probe(np.zeros(n, np.int64), np.zeros(n, np.int64), 1, O.LEAVE), n=n)
    assert f.reached.all()                                   # everyone is in at the start
    obs = f.observations
    assert (obs[:, O.SEAT] == 1).all() and (obs[:, O.CARDS_REVEALED] == 1).all()
    assert (obs[:, O.IN_CAVE] == 3).all() and (obs[:, O.CARRIED] == obs[:, O.SEAT_CARRIED + 1]).all()
    # seat 1 left at once: it banked its share of the first card and the leftovers
    assert (f.batch.scores[:, 1] >= 0).all()


def test_probe_points_do_not_depend_on_the_chunk():
    r1, s1 = M.probe_points(SEED, 0, 1000, 5, M.MAX_STEP)
    r2, s2 = M.probe_points(SEED, 400, 600, 5, M.MAX_STEP)
    np.testing.assert_array_equal(r1[400:], r2)
    np.testing.assert_array_equal(s1[400:], s2)
    assert set(np.unique(r1)) == set(range(5)) and s1.min() == 0 and s1.max() == M.MAX_STEP - 1


def test_the_map_does_not_depend_on_the_chunk_size():
    rules = DiamantRules.preset()
    a = M.decision_map(rules, players=3, games=3000, seed=SEED, progress=False)
    b = M.decision_map(rules, players=3, games=3000, seed=SEED, progress=False, chunk=700)
    pd.testing.assert_frame_equal(a, b)
    assert a.states.sum() > 400 and set(a.inside) <= {1, 2, 3}


def test_solo_rollouts_agree_with_the_exact_dp_cell_by_cell():
    rules = DiamantRules.preset("solo")
    obs, gain, win = M.probes(rules, [M.SOLO_BASE], SEED, 40_000)
    assert (win == 0).all()                                  # alone, the win is always whole
    leave, go_on = action_values(rules, obs)
    # the exact values say what the optimal policy does, state by state
    table = build_policy(rules)
    acts = np.array([solo_optimal(o.copy(), table, np.zeros(1, np.uint64)) for o in obs[:2000]])
    np.testing.assert_array_equal(acts == O.LEAVE, go_on[:2000] <= leave[:2000])
    # the rollouts' mean gain per cell against the exact mean gain of the same states
    _, kinds, gems = M.cells_of(obs)
    df = pd.DataFrame({"k": kinds, "g": gems, "r": gain - (go_on - leave)})
    cells = df.groupby(["k", "g"]).r.agg(["size", "mean", "sem"])
    cells = cells[cells["size"] >= 50]
    assert len(cells) >= 25
    z = cells["mean"] / cells["sem"]
    assert (z.abs() < 4.5).all(), z[z.abs() >= 4.5]
    assert abs(df.r.mean()) < 4 * df.r.sem()


def test_the_exact_dp_gain_is_not_the_rollout_of_another_policy():
    """The check above can fail: rollouts of a worse policy miss the exact gains."""
    rules = DiamantRules.preset("solo")
    obs, gain, _ = M.probes(rules, ["leave-after-hazards:k=1"], SEED, 20_000)
    leave, go_on = action_values(rules, obs)
    r = gain - (go_on - leave)
    assert abs(r.mean()) > 6 * r.std() / np.sqrt(len(r))


def test_the_strategy_goes_on_exactly_in_the_cells_where_the_score_gain_is_positive():
    cells = pd.DataFrame({"players": 4, "inside": [3, 3], "hazard_kinds_out": [1, 1],
                          "gems_low": [4, 6], "score_gain": [0.5, -0.5]})
    table = M.pack_map(cells)
    obs = np.zeros(O.SIZE, np.int64)
    obs[O.HAZARD_KINDS], obs[O.IN_CAVE], obs[O.HAZARD_SEEN + 2] = 5, 3, 1
    rng = np.zeros(1, np.uint64)
    decide = {}
    for carried in range(10):
        obs[O.CARRIED] = carried
        decide[carried] = K.decision_map(obs, table, rng)
    assert decide == {c: O.CONTINUE if c in (4, 5) else O.LEAVE for c in range(10)}
    obs[O.CARRIED], obs[O.IN_CAVE] = 4, 2                    # another cell: not met, leave
    assert K.decision_map(obs, table, rng) == O.LEAVE
