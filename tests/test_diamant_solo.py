"""solo-optimal Diamant: the DP value against brute force, the packed policy against the engine."""
import functools

import numpy as np
import pytest
from numba import njit

from sim.core.batch import StrategyError
from sim.core.errors import UsageError
from sim.core.strategy_api import DECIDE_SIG
from sim.diamant import observation as O
from sim.diamant import reference as R
from sim.diamant.rules import DiamantRules
from strategies.diamant_solo import build_policy, solo_optimal, solo_value

TINY = dict(treasure_values=(1, 3, 5, 8), hazard_kinds=2, hazard_copies=2, rounds=2, min_players=1)
TINY_SETS = {
    "tiny": TINY,
    "tiny-3-rounds": {**TINY, "rounds": 3},  # round starts with copies (1, 2): kind permutation
    "tiny-first-decision-lose": {**TINY, "first_card_free": False, "deck_exhausted": "lose"},
    "tiny-never-ends": {**TINY, "hazards_to_end": 3},  # every cave can run out of cards
    "tiny-never-ends-lose": {**TINY, "hazards_to_end": 3, "deck_exhausted": "lose"},
    "tiny-3-kinds-kept": dict(treasure_values=(2, 5, 9), hazard_kinds=3, hazard_copies=2, rounds=3,
                              remove_hazard_after_disaster=False, min_players=1),
    "tiny-3-to-end": dict(treasure_values=(4, 6), hazard_kinds=2, hazard_copies=3, hazards_to_end=3,
                          rounds=3, min_players=1),
    "no-hazards": dict(treasure_values=(1, 2, 3), hazard_kinds=0, rounds=2, min_players=1),
}


def tiny(name):
    return DiamantRules.preset("solo").replace(**TINY_SETS[name])


# ---------------------------------------------------------------- independent brute force
def brute_force(rules):
    """Best expected score, recursing over every explicit order of the cards (no state merging)."""
    h_end = rules.hazards_to_end

    @functools.lru_cache(maxsize=None)
    def game(r, copies):  # copies in the original kind order
        if r == rules.rounds:
            return 0.0
        deck = [("T", v) for v in rules.treasure_values]
        deck += [("H", k) for k in range(rules.hazard_kinds) for _ in range(copies[k])]
        return cave(r, copies, deck, (), True)

    def cave(r, copies, deck, path, first):
        carried = sum(v for kind, v in path if kind == "T")
        leave = carried + game(r + 1, copies)
        if not deck:
            cont = (carried if rules.deck_exhausted == "leave-together" else 0) + game(r + 1, copies)
        else:
            total = 0.0
            for j, card in enumerate(deck):
                if card[0] == "H" and path.count(card) + 1 >= h_end:
                    kept = list(copies)
                    if rules.remove_hazard_after_disaster:
                        kept[card[1]] -= 1
                    total += game(r + 1, tuple(kept))
                else:
                    total += cave(r, copies, deck[:j] + deck[j + 1:], path + (card,), False)
            cont = total / len(deck)
        return cont if first and rules.first_card_free else max(leave, cont)

    return game(0, (rules.hazard_copies,) * rules.hazard_kinds)


def evaluate(rules, decide, params):
    """Exact expected score of a kernel, fed the reference engine's own observations."""
    g = R.Game(rules, 1, 0, 0)
    cards = g.cards
    memo = {}

    def game(r, status):
        if r == rules.rounds:
            return 0.0
        key = (r, status, frozenset())
        if key not in memo:
            memo[key] = cave(r, status, frozenset(), True)
        return memo[key]

    def cave(r, status, revealed, first):
        key = (r, status, revealed, first)
        if key in memo:
            return memo[key]
        path = [c for c in cards if c.index in revealed]
        deck = [c for c in cards if status[c.index] == R.IN_DECK and c.index not in revealed]
        carried = sum(c.value for c in path if c.kind == R.TREASURE)
        if not (first and rules.first_card_free):
            g.round, g.path, g.deck, g.carried = r, path, deck, [carried]
            g.in_cave, g.cave_cards, g.leftover_on = [True], len(path), {}
            if decide(g.observation(0), params, np.zeros(1, np.uint64)) == O.LEAVE:
                memo[key] = carried + game(r + 1, status)
                return memo[key]
        if not deck:
            value = (carried if rules.deck_exhausted == "leave-together" else 0) + game(r + 1, status)
        else:
            total = 0.0
            for card in deck:
                seen = sum(1 for c in path if c.kind == R.HAZARD and c.hazard == card.hazard)
                if card.kind == R.HAZARD and seen + 1 >= rules.hazards_to_end:
                    after = list(status)
                    if rules.remove_hazard_after_disaster:
                        after[card.index] = R.OUT_OF_GAME
                    total += game(r + 1, tuple(after))
                else:
                    total += cave(r, status, revealed | {card.index}, False)
            value = total / len(deck)
        memo[key] = value
        return value

    return game(0, tuple(g.status))


@njit(DECIDE_SIG, cache=True)
def leave_at(obs, params, rng):
    """Threshold baseline: leave once carried >= params[0]."""
    return 1 if obs[O.CARRIED] >= params[0] else 0


# ---------------------------------------------------------------- (a) exact values
@pytest.mark.parametrize("name", TINY_SETS)
def test_value_matches_brute_force(name):
    rules = tiny(name)
    assert solo_value(rules) == pytest.approx(brute_force(rules), abs=1e-9)


@pytest.mark.parametrize("name", TINY_SETS)
def test_policy_table_achieves_the_value(name):
    rules = tiny(name)
    assert evaluate(rules, solo_optimal, build_policy(rules)) == pytest.approx(solo_value(rules), abs=1e-9)


# ---------------------------------------------------------------- (c) beats thresholds
@pytest.mark.parametrize("name", TINY_SETS)
def test_beats_thresholds_exactly(name):
    rules = tiny(name)
    best = solo_value(rules)
    for t in range(0, sum(rules.treasure_values) + 2):
        assert evaluate(rules, leave_at, np.array([float(t)])) <= best + 1e-9


def test_base_game_beats_thresholds_on_the_same_decks():
    rules = DiamantRules.preset("solo")
    n = 1500
    opt = R.play_batch(rules, 1, 11, 0, n, [solo_optimal], [build_policy(rules)]).scores[:, 0]
    for t in (15, 25, 30, 35):
        thr = R.play_batch(rules, 1, 11, 0, n, [leave_at], [np.array([float(t)])]).scores[:, 0]
        diff = opt - thr
        assert diff.mean() > 3 * diff.std() / np.sqrt(n), t  # same cards: paired differences


# ---------------------------------------------------------------- (b) simulation
def test_base_game_simulation_matches_value():
    rules = DiamantRules.preset("solo")
    value = solo_value(rules)
    assert 80 < value < 110
    n = 4000
    scores = R.play_batch(rules, 1, 2024, 0, n, [solo_optimal], [build_policy(rules)]).scores[:, 0]
    se = scores.std(ddof=1) / np.sqrt(n)
    assert abs(scores.mean() - value) < 4 * se


def test_table_shape_and_cache():
    rules = DiamantRules.preset("solo")
    table = build_policy(rules)
    assert table.dtype == np.float64 and table.ndim == 1 and table.flags.c_contiguous
    table[:] = 0.0  # a caller's copy: the cached table is untouched
    assert np.array_equal(build_policy(rules).view(np.int64)[:1], [0x4D4C44534F4C4F31])


def test_wrong_table_is_reported():
    rules = DiamantRules.preset("solo")
    other = tiny("tiny")
    with pytest.raises(StrategyError, match="not a build_policy table"):
        R.play_batch(rules, 1, 0, 0, 1, [solo_optimal], [build_policy(other)])


# ---------------------------------------------------------------- (d) usage errors
@pytest.mark.parametrize("preset", ["incan-gold-2006", "diamant-iello-2016"])
def test_artifacts_are_refused(preset):
    with pytest.raises(UsageError, match="artifacts"):
        build_policy(DiamantRules.preset(preset))
    with pytest.raises(UsageError, match="artifacts"):
        solo_value(DiamantRules.preset(preset))


def test_too_many_states_is_refused():
    rules = DiamantRules.preset("solo").replace(treasure_values=tuple(range(1, 26)))
    with pytest.raises(UsageError, match=r"too large: 1073741824 states .*2\*\*24"):
        build_policy(rules)
