"""The built-in CIV strategies: greedy, majority and domain-focus (sim/civ/policies.py).

Hand-built positions (a reference `Game` set by hand, test_civ_rules.position, then
`g.observation`) check that each strategy takes the obviously right action; small batches of the
fast engine check that both engines play its games alike off the conformance presets and that
the greedy beats `random`.
"""
from __future__ import annotations

import numpy as np
import pytest

import strategies.civ  # noqa: F401  (registers the built-ins)
from sim.civ import fast, reference
from sim.civ import observation as O
from sim.civ import policies as K
from sim.civ.cards import ART, ECONOMY, MILITARY, RELIGION, SCIENCE, UTOPIA
from sim.civ.observation import STOP
from sim.civ.rules import CivRules
from sim.core.errors import UsageError
from sim.core.stats import wilson
from strategies.play import kernels_and_params, play
from strategies.registry import lineup, parse_spec
from test_civ_rules import card, perm, position, sac, target

GAME = "civ"
RULES = CivRules.preset()
RNG = np.zeros(1, np.uint64)


def choose(g, seat, decision, legal, spec="greedy"):
    b = parse_spec(GAME, spec)
    i = b.strategy.kernel(g.observation(seat, decision, legal), b.params_array(g.rules, g.players), RNG)
    assert 0 <= i < len(legal)
    return legal[i]


def play_legal(g, seat=0):
    return [card(d) for d in range(6) if g.playable(seat)[d]]


# ---------------------------------------------------------------- hand-built positions
@pytest.mark.parametrize("spec", ["greedy", "majority", "domain-focus:domain=military"])
def test_every_strategy_plays_the_card_that_wins_by_hegemony(spec):
    g = position(players=4, hands={0: [MILITARY, SCIENCE, ART]}, plays={0: [SCIENCE] * 6})
    assert choose(g, 0, O.D_PLAY, play_legal(g), spec) == card(SCIENCE)


@pytest.mark.parametrize("domain", [MILITARY, RELIGION, ECONOMY, SCIENCE, ART, UTOPIA])
def test_domain_focus_plays_its_domain_first(domain):
    g = position(players=3, hands={0: [MILITARY, RELIGION, ECONOMY, SCIENCE, ART, UTOPIA]},
                 plays={1: [domain] * 2})
    spec = f"domain-focus:domain={('military', 'religion', 'economy', 'science', 'art', 'utopia')[domain]}"
    assert choose(g, 0, O.D_PLAY, play_legal(g), spec) == card(domain)


def test_domain_focus_uses_its_domains_permanent_effect_first():
    # 4 players: Level 1 at 2 cards; Experiment and Development both on offer, neither changes much
    g = position(players=4, hands={0: [ART, ART]}, plays={0: [ECONOMY, ECONOMY, SCIENCE, SCIENCE]})
    legal = [STOP] + g.effects(0)
    assert perm(ECONOMY, 1) in legal and perm(SCIENCE, 1) in legal
    assert choose(g, 0, O.D_EFFECT, legal, "domain-focus:domain=economy") == perm(ECONOMY, 1)
    assert choose(g, 0, O.D_EFFECT, legal, "domain-focus:domain=science") == perm(SCIENCE, 1)


def test_majority_takes_a_tied_domain_rather_than_extend_a_lead():
    g = position(players=2, hands={0: [MILITARY, RELIGION]}, plays={0: [MILITARY] * 3, 1: [RELIGION]})
    assert choose(g, 0, O.D_PLAY, play_legal(g), "majority") == card(RELIGION)


def test_greedy_attacks_the_rival_one_card_from_hegemony():
    g = position(players=4, plays={0: [MILITARY, MILITARY, SCIENCE], 1: [SCIENCE] * 6})
    legal = [STOP] + g.effects(0)
    assert choose(g, 0, O.D_EFFECT, legal) == sac(MILITARY)
    g.play[0][MILITARY] -= 1                                # the Attack under way: its Domain
    legal = [card(d) for d in g.attack_domains(0, True)]
    assert choose(g, 0, O.D_ATTACK, legal) == card(SCIENCE)


def test_greedy_puts_democracy_on_the_rivals_nearest_hegemony():
    g = position(players=3, plays={0: [UTOPIA], 1: [ART] * 3, 2: [ART] * 6})
    legal = g.targets(0, False)
    assert choose(g, 0, O.D_DEMOCRACY, legal) == target(ART, 2)


def test_greedy_embargoes_the_rivals_nearest_hegemony():
    g = position(players=3, plays={0: [ECONOMY], 1: [MILITARY] * 6, 2: [ART] * 3})
    legal = g.targets(0, True)
    assert choose(g, 0, O.D_EMBARGO, legal) == target(MILITARY, 1)


def test_greedy_discards_the_card_least_worth_playing():
    g = position(players=3, hands={0: [MILITARY, SCIENCE]}, plays={0: [SCIENCE] * 5, 1: [MILITARY] * 4})
    assert choose(g, 0, O.D_DISCARD_HAND, [card(MILITARY), card(SCIENCE)]) == card(MILITARY)


def test_greedy_stops_when_no_effect_gains():
    # Experiment would return a Science card and play it again; the Leap loses a Science card
    g = position(players=3, hands={0: [SCIENCE]}, plays={0: [SCIENCE, SCIENCE, SCIENCE]})
    legal = [STOP] + g.effects(0)
    assert perm(SCIENCE, 1) in legal and sac(SCIENCE) in legal
    assert choose(g, 0, O.D_EFFECT, legal) == STOP
    g.hand[0] = [0, 0, 0, 0, 1, 0]          # with an Art card, Experiment turns Science into Art
    assert choose(g, 0, O.D_EFFECT, [STOP] + g.effects(0)) == perm(SCIENCE, 1)


@pytest.mark.parametrize("bad", ["culture", "sciences", "7"])
def test_a_bad_focus_domain_names_the_allowed_ones(bad):
    with pytest.raises(UsageError, match="military, religion, economy, science, art, utopia"):
        parse_spec(GAME, f"domain-focus:domain={bad}")


def test_the_kernel_is_deterministic_and_leaves_its_stream_alone():
    g = position(players=4, hands={0: [MILITARY, SCIENCE, ART]}, plays={0: [ECONOMY, ECONOMY], 2: [ART]})
    for spec in ("greedy", "majority", "domain-focus:domain=art"):
        b = parse_spec(GAME, spec)
        obs = g.observation(0, O.D_EFFECT, [STOP] + g.effects(0))
        rng = np.array([12345], np.uint64)
        params = b.params_array(RULES, 4)
        first = K.one_ply(obs, params, rng)
        values = np.zeros(int(obs[O.N_LEGAL]))
        K.action_values(obs, params, values)
        assert K.one_ply(obs, params, rng) == first == int(np.argmax(values)) and rng[0] == 12345


# ---------------------------------------------------------------- both engines, off the presets
VARIANTS = [dict(setup="draft"), dict(first_player="random"), dict(embargo_blocks_effects=True),
            dict(art_tie="keep"), dict(leap_takes_discard=True), dict(attack_needs_own=False)]


LINEUPS = ((2, ("greedy", "majority")), (4, ("domain-focus:domain=utopia", "greedy", "majority", "random")))


@pytest.mark.parametrize("changes", VARIANTS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
@pytest.mark.parametrize("players,specs", LINEUPS, ids=("2p", "4p"))
def test_both_engines_play_the_same_games_under_rule_variants(changes, players, specs):
    r = RULES.replace(**changes)
    bound = lineup(GAME, list(specs), players)
    args = (r, players, 9, 0, 4, *kernels_and_params(bound, r))
    ref, out = reference.play_batch(*args), fast.play_batch(*args, [b.strategy.native for b in bound])
    got, want = dict(out.extras, scores=out.scores, shares=out.shares), dict(ref.extras, scores=ref.scores,
                                                                             shares=ref.shares)
    for column in want:
        np.testing.assert_array_equal(got[column], want[column], err_msg=column)


# ---------------------------------------------------------------- strength (fast engine)
def wins(specs, seat, games, seed=1):
    return play(GAME, RULES, specs, games=games, seed=seed, progress=False, engine="fast").totals.wins[seat]


def test_greedy_beats_random_two_players():
    """Seats swapped, 200 games each; measured 1.000 [0.9996, 1] over 10,000 games."""
    won = wins(["greedy", "random"], 0, 200) + wins(["random", "greedy"], 1, 200)
    low, _ = wilson(won, 400)
    assert low > 0.9, won


def test_greedy_wins_well_above_a_quarter_against_three_random():
    won = wins(["greedy", "random", "random", "random"], 0, 200)
    low, high = wilson(won, 200)
    assert low > 0.8, (won, low, high)
