"""CIV: the fast engine plays the reference engine's games under every non-default ruling too (the
conformance suite covers the presets), with the core `random` natively and the observation probe."""
from __future__ import annotations

import numpy as np
import pytest

from sim.civ import fast, reference
from sim.civ.rules import CivRules
from sim.core.kernels import observation_hash, random_choice

RULINGS = dict(embargo_blocks_effects=True, embargo_card_counts=True, democracy_card_counts=True,
               art_tie="keep", leap_takes_discard=True, level2_short=True, attack_needs_own=False,
               copy_uses_slot=False, copies_per_turn=2, empty_domain_scores=True, first_player="random",
               tie_break="shared", democracy_needs_card=True, embargo_needs_card=False,
               hegemony_in_final_round=False, attack_military=False, removal_players=(2,),
               tie_break_order=("military", "art"))
SHORT = dict(hegemony_more=5, hegemony_two=5, level1_small=1, level2_small=2, level1_four=1,
             level2_four=2, hand_level1=4, hand_level2=6, leap_cards=3, removed_per_age=1)
VARIANTS = {"rulings": RULINGS, "thresholds": SHORT,
            "teams": dict(teams=True, attack_hits_teammate=False, setup="draft")}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("probe", [False, True])
def test_fast_equals_reference_under_every_ruling(variant, probe):
    rules = CivRules.preset().replace(**VARIANTS[variant])
    for players in ((4,) if rules.teams else (2, 3, 4)):
        if probe:
            kernels, params = [observation_hash] * players, [np.array([7.0 * p + 1]) for p in range(players)]
            natives = None
        else:
            kernels, params, natives = [random_choice] * players, [np.zeros(1)] * players, [0] * players
        ref = reference.play_batch(rules, players, 11, 0, 40, kernels, params)
        got = fast.play_batch(rules, players, 11, 0, 40, kernels, params, natives)
        np.testing.assert_array_equal(ref.scores, got.scores)
        np.testing.assert_array_equal(ref.shares, got.shares)
        for k in ref.extras:
            np.testing.assert_array_equal(ref.extras[k], got.extras[k], err_msg=k)
