"""CIV invariants over rule sets, player counts, seeds and strategies hypothesis draws.

After every decision (reference engine, sim/civ/invariants.py): the 104 cards accounted for by
Domain and by id (deck, box, hands, play areas, discard, Embargo and Democracy cards, the draft's
packets and centre), no negative count, no Hegemony declared mid-turn nor missed at a turn's
end, the coin only with the Art majority; at the end the majority points recomputed from the
counts. The fast engine plays the same game to the same result.

Every ruling of CivRules (the [GUESS] and [SEED] points of shared/rules/civ.md), the set-up, the
first player and the removed cards are drawn; team play at 4 players.
"""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import strategies.civ  # noqa: F401  (registers the built-ins)
from sim.civ import fast, reference
from sim.civ.cards import DOMAINS
from sim.civ.invariants import check_invariants
from sim.civ.rules import CivRules
from sim.core.kernels import observation_hash
from strategies.registry import parse_spec

GAME = "civ"
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SPECS = ["random", "greedy", "majority"] + [f"domain-focus:domain={d}" for d in DOMAINS]

# one hypothesis strategy per ruling and per set-up parameter (teams is drawn with the players)
CHANGES = {
    "setup": st.sampled_from(["classic", "draft"]),
    "first_player": st.sampled_from(["seat0", "random"]),
    "removed_per_age": st.integers(0, 4),
    "removal_players": st.sets(st.integers(2, 4), max_size=3).map(lambda s: tuple(sorted(s))),
    "leap_takes_discard": st.booleans(), "level2_short": st.booleans(),
    "attack_needs_own": st.booleans(), "attack_military": st.booleans(), "attack_hits_teammate": st.booleans(),
    "embargo_blocks_effects": st.booleans(), "embargo_needs_card": st.booleans(),
    "embargo_card_counts": st.booleans(), "democracy_needs_card": st.booleans(),
    "democracy_card_counts": st.booleans(), "art_tie": st.sampled_from(["nobody", "keep"]),
    "art_min_cards": st.integers(1, 3), "copies_per_turn": st.integers(0, 2), "copy_uses_slot": st.booleans(),
    "hegemony_in_final_round": st.booleans(), "empty_domain_scores": st.booleans(),
    "tie_break": st.sampled_from(["domains", "shared"]),
}


def test_every_ruling_is_drawn():
    rulings = {p.name for p in CivRules.params() if p.ruling} - {"teams"}
    assert rulings <= set(CHANGES), rulings - set(CHANGES)


@st.composite
def setups(draw):
    """(rules, players, lineup specs), a probe in some seats."""
    players = draw(st.integers(2, 4))
    changes = {name: draw(strategy) for name, strategy in CHANGES.items()}
    rules = CivRules.preset().replace(teams=players == 4 and draw(st.booleans()), **changes)
    specs = [draw(st.sampled_from(SPECS + ["probe"])) for _ in range(players)]
    return rules, players, specs


def lineup(specs, rules, players, seed):
    kernels, params = [], []
    for s, spec in enumerate(specs):
        if spec == "probe":                       # sees every observation field, decides by its hash
            kernels.append(observation_hash)
            params.append(np.array([float(seed % 97 + s)]))
        else:
            bound = parse_spec(GAME, spec)
            kernels.append(bound.strategy.kernel)
            params.append(bound.params_array(rules, players))
    return kernels, params


@SETTINGS
@given(setup=setups(), seed=st.integers(0, 2**32), game=st.integers(0, 10**6))
def test_the_invariants_hold_and_both_engines_play_the_same_game(setup, seed, game):
    rules, players, specs = setup
    kernels, params = lineup(specs, rules, players, seed)
    assert check_invariants(rules, players, seed, game, 1, kernels, params) > 0
    a = reference.play_batch(rules, players, seed, game, 1, kernels, params)
    b = fast.play_batch(rules, players, seed, game, 1, kernels, params)
    np.testing.assert_array_equal(a.scores, b.scores)
    np.testing.assert_array_equal(a.shares, b.shares)
    for k in a.extras:
        np.testing.assert_array_equal(a.extras[k], b.extras[k], err_msg=k)
