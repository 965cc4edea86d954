"""The fast engine agrees with the reference engine game by game, on every rule variant."""
import numpy as np
import pytest
from numba import njit

from sim.core.kernels import observation_hash
from sim.core.strategy_api import DECIDE_SIG
from sim.diamant import fast, reference
from sim.diamant import observation as O
from sim.diamant.rules import DiamantRules
from strategies import registry


CASES = [
    # (preset, overrides, players, strategy specs or "hash")
    ("diamant-2005", {}, 4, ["leave-after-hazards:k=2", "leave-after-hazards:k=3",
                             "leave-at-gems:t=10", "leave-at-gems:t=15"]),
    ("diamant-2005", {}, 3, ["expected-value", "random-leave:p=0.15", "leave-after-cards:n=7"]),
    ("diamant-2005", {}, 8, "hash"),
    ("incan-gold-2006", {}, 5, "hash"),
    ("incan-gold-2006", {}, 4, ["random-leave:p=0.3", "expected-value:risk=2", "always-continue",
                                "leave-after-hazards:k=1"]),
    ("diamant-iello-2016", {}, 3, "hash"),
    ("diamant-2005", {"leftover_split": "per-card", "tie_break": "last-round"}, 5, "hash"),
    ("diamant-2005", {"deck_exhausted": "lose", "treasure_values": [3, 8, 1], "hazard_copies": 2,
                      "hazards_to_end": 3, "rounds": 3}, 4, "hash"),
    ("diamant-2005", {"treasure_values": [5, 9], "hazard_kinds": 1, "hazard_copies": 1,
                      "min_players": 1}, 2, "hash"),
    ("diamant-2005", {"first_card_free": False, "remove_hazard_after_disaster": False,
                      "chests_visible": False, "tie_break": "none"}, 6, "hash"),
    ("incan-gold-2006", {"unclaimed_artifacts": "reshuffled", "artifact_values": [1, 2, 3, 50]},
     3, "hash"),
    ("solo", {}, 1, ["solo-optimal"]),
]


def _lineup(rules, players, specs):
    if specs == "hash":
        kernels = [observation_hash] * players
        params = [np.array([float(p)]) for p in range(players)]
        return kernels, params, None
    bound = registry.lineup("diamant", specs, players)
    return ([b.strategy.kernel for b in bound], [b.params_array(rules, players) for b in bound],
            [b.strategy.native for b in bound])


@pytest.mark.parametrize("preset,overrides,players,specs", CASES)
def test_fast_engine_matches_reference_game_by_game(preset, overrides, players, specs):
    rules = DiamantRules.preset(preset).replace(**overrides)
    kernels, params, natives = _lineup(rules, players, specs)
    seed, first, n = 20261130, 1000, 300
    ref = reference.play_batch(rules, players, seed, first, n, kernels, params)
    for nat in (natives, None):   # built-ins both natively and through function pointers
        got = fast.play_batch(rules, players, seed, first, n, kernels, params, nat)
        np.testing.assert_array_equal(got.scores, ref.scores)
        np.testing.assert_array_equal(got.shares, ref.shares)
        for key in reference.EXTRAS:
            np.testing.assert_array_equal(got.extras[key], ref.extras[key])
    assert ref.scores.sum() > 0


def test_illegal_action_is_reported_with_what_replays_it():
    @njit(DECIDE_SIG)
    def bad(obs, params, rng):
        return 2 if obs[O.CARRIED] > 4 else 0   # carried gems > 4 -> illegal

    rules = DiamantRules.preset()
    with pytest.raises(Exception) as fast_err:
        fast.play_batch(rules, 3, 7, 0, 50, [bad] * 3, [np.zeros(1)] * 3)
    with pytest.raises(Exception) as ref_err:
        reference.play_batch(rules, 3, 7, 0, 50, [bad] * 3, [np.zeros(1)] * 3)
    assert str(fast_err.value) == str(ref_err.value)
    assert "illegal action 2" in str(fast_err.value) and "game index" in str(fast_err.value)
