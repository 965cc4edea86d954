"""Pyramids invariants under random legal play, over rule sets and seeds hypothesis picks.

After every decision (reference engine, sim/pyramids/invariants.py): every card in exactly one
place, every pyramid card on a legal slot, one pyramid card per round; at the end, each pyramid
holds 10 cards and the scores recomputed by the compiled scoring kernels from the final
necropolis equal the engine's. The fast engine plays the same game to the same result.
"""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.core.kernels import observation_hash, random_choice
from sim.pyramids import fast, reference
from sim.pyramids.invariants import check_invariants
from sim.pyramids.rules import PyramidsRules

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

rule_sets = st.builds(
    lambda preset, **changes: PyramidsRules.preset(preset).replace(**changes),
    st.sampled_from(sorted(PyramidsRules.PRESETS)),
    sekhmet_small=st.sampled_from(["tomb-and-obelisk", "tomb-or-obelisk"]),
    two_player_tiles=st.sampled_from(["rotate", "random", "fixed", "return"]),
    upper_level=st.sampled_from(["supported", "contiguous"]),
    may_keep_none=st.booleans(), keep_limit=st.integers(0, 1),
    large_stone=st.sampled_from(["stone", "cells"]), tomb_tie=st.sampled_from(["all", "none", "split"]),
    tie_break=st.sampled_from(["shared", "pyramid"]), tomb_counts_public=st.booleans(),
    discards_public=st.booleans(), bonus_group=st.integers(1, 5))


@SETTINGS
@given(rules=rule_sets, players=st.integers(2, 5), seed=st.integers(0, 2**32), game=st.integers(0, 10**6),
       probe=st.booleans())
def test_random_play_keeps_the_invariants_and_both_engines_agree(rules, players, seed, game, probe):
    kernel = observation_hash if probe else random_choice
    kernels, params = [kernel] * players, [np.array([float(seed % 97)])] * players
    assert check_invariants(rules, players, seed, game, 1, kernels, params) > 0
    a = reference.play_batch(rules, players, seed, game, 1, kernels, params)
    b = fast.play_batch(rules, players, seed, game, 1, kernels, params)
    np.testing.assert_array_equal(a.scores, b.scores)
    np.testing.assert_array_equal(a.shares, b.shares)
    for k in a.extras:
        np.testing.assert_array_equal(a.extras[k], b.extras[k], err_msg=k)
