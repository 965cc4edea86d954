"""Diamant rules, checked on hand-built situations against the reference engine.

The contract is shared/rules/diamant.md (translated from shared/seeds/diamant-fr.txt). Every
test names the rule or ruling it pins. Situations are built by rigging the deck of a round:
`Rigged` plays the listed cards first (picked from the cards that are really in the game), then
the rest of that round's natural deck, so the card bookkeeping stays exact.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.errors import UsageError
from sim.diamant import observation as O
from sim.diamant.reference import (ARTIFACT, HAZARD, IN_DECK, NOT_YET_IN, OUT_OF_GAME, TREASURE,
                                   Game, card_pool, play_batch, play_game)
from sim.diamant.rules import BASE_TREASURES, DiamantRules

BASE = DiamantRules.preset()


def rules(preset: str | None = None, **changes) -> DiamantRules:
    r = DiamantRules.preset(preset)
    return r.replace(**changes) if changes else r


def pick(game: Game, spec: list[str]) -> list:
    """Cards of `spec` ("T11" treasure of value 11, "H2" hazard of kind 2, "A" artifact), taken
    from the current deck, followed by the rest of that deck in its natural order."""
    pool = list(game.deck)
    chosen = []
    for token in spec:
        if token == "A":
            ok = lambda c: c.kind == ARTIFACT  # noqa: E731
        elif token[0] == "T":
            ok = lambda c, v=int(token[1:]): c.kind == TREASURE and c.value == v  # noqa: E731
        elif token[0] == "H":
            ok = lambda c, k=int(token[1:]): c.kind == HAZARD and c.hazard == k  # noqa: E731
        else:
            raise ValueError(token)
        card = next((c for c in pool if ok(c)), None)
        assert card is not None, f"no {token} left in the deck to rig"
        pool.remove(card)
        chosen.append(card)
    return chosen + pool


class Rigged(Game):
    """A game whose round decks start with hand-chosen cards (one list per round; later rounds natural)."""

    def __init__(self, rules_: DiamantRules, players: int, decks=(), seed: int = 7, game: int = 0):
        super().__init__(rules_, players, seed, game)
        self.decks = list(decks)

    def start_round(self) -> None:
        super().start_round()
        if self.decks:
            self.deck = pick(self, self.decks.pop(0))


def script(plan: dict) -> callable:
    """decide() from a plan {decision index: seats leaving} or {(round, decision index): seats}."""
    def decide(state: Game, seat: int) -> bool:
        seats = plan.get((state.round, state.decisions), plan.get(state.decisions, ()))
        return seat in seats
    return decide


def never_leave(state, seat):
    return False


def always_leave(state, seat):
    return True


def started(r: DiamantRules, players: int, spec: list[str], seed: int = 7) -> Game:
    g = Game(r, players, seed, 0)
    g.start_round()
    g.deck = pick(g, spec)
    return g


# ====================================================================== components
def test_base_components():
    """30 cave cards: 15 treasures (the listed published set), 5 hazard kinds x 3 copies.

    The spec says "total 129", but the 15 values it lists (and the seed's, read with "57" as 5, 7)
    add up to 124: the list is the contract, the stated total is an arithmetic slip of the spec."""
    assert BASE_TREASURES == (1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17)
    assert BASE.treasure_values == BASE_TREASURES
    assert sum(BASE.treasure_values) == 124 and len(BASE.treasure_values) == 15
    cards = card_pool(BASE)
    assert len(cards) == 30 == BASE.deck_size
    assert sorted(c.value for c in cards if c.kind == TREASURE) == sorted(BASE_TREASURES)
    hazards = [c.hazard for c in cards if c.kind == HAZARD]
    assert sorted(hazards) == sorted(list(range(5)) * 3)
    assert not any(c.kind == ARTIFACT for c in cards)
    assert [c.index for c in cards] == list(range(30))


def test_default_rules_follow_the_spec():
    r = BASE
    assert (r.rounds, r.hazard_kinds, r.hazard_copies, r.hazards_to_end) == (5, 5, 3, 2)
    assert (r.min_players, r.max_players) == (3, 8)
    assert r.remove_hazard_after_disaster and r.first_card_free and r.chests_visible
    assert (r.leftover_split, r.deck_exhausted, r.artifacts, r.tie_break) == (
        "pooled", "leave-together", "none", "shared")
    assert r == DiamantRules()


def test_round_deck_holds_every_card_still_in_the_game():
    g = Game(BASE, 4, 3, 0)
    g.start_round()
    assert sorted(c.index for c in g.deck) == list(range(30))
    assert g.in_cave == [True] * 4 and g.carried == [0] * 4 and g.path == []


def test_removed_card_changes_nothing_else_in_the_deck_order():
    """The deck of round r is a fixed permutation of the pool restricted to the cards in the game."""
    a, b = Game(BASE, 3, 11, 5), Game(BASE, 3, 11, 5)
    b.status[17] = OUT_OF_GAME
    a.start_round(), b.start_round()
    assert [c.index for c in b.deck] == [c.index for c in a.deck if c.index != 17]


# ====================================================================== treasure
@pytest.mark.parametrize("value, players, share, rest", [
    (11, 5, 2, 1),   # seed: 11 gems, 5 players -> 2 each, 1 ruby left on the card
    (17, 3, 5, 2),   # seed: 17 gems, 3 players -> 5 each, 2 left on the card
    (1, 3, 0, 1),
    (15, 5, 3, 0),
    (14, 8, 1, 6),
])
def test_treasure_split_among_players_in_cave(value, players, share, rest):
    g = started(BASE, players, [f"T{value}"])
    card = g.deck[0]
    assert g.reveal() is True
    assert g.carried == [share] * players
    assert g.leftover_on == {card.index: rest} and g.leftover() == rest
    assert g.chest == [0] * players, "gems found are carried, not yet safe"


def test_treasure_split_only_among_players_still_inside():
    g = started(BASE, 4, ["T5", "T7"])
    g.reveal()                       # 5 // 4 = 1 each, 1 left
    g.leave([0, 1])                  # they take 1 + 1 // 2 = 0 of the leftover, 1 stays
    assert g.chest == [1, 1, 0, 0] and g.leftover() == 1
    g.reveal()                       # 7 // 2 = 3 each, 1 left
    assert g.carried == [0, 0, 4, 4] and g.leftover() == 2


# ====================================================================== leaving
def test_leaver_banks_carried_gems_and_leaves_the_cave():
    g = started(BASE, 3, ["T9", "T4"])
    g.reveal()                                   # 3 each, 0 left
    g.leave([1])
    assert g.chest == [0, 3, 0] and g.carried == [3, 0, 3]
    assert g.in_cave == [True, False, True]
    g.reveal()                                   # 4 // 2 = 2 each: seat 1 gets nothing
    assert g.carried == [5, 0, 5] and g.chest == [0, 3, 0]


def test_lone_leaver_collects_every_leftover():
    g = started(BASE, 3, ["T4", "T7", "T13"])
    for _ in range(3):
        g.reveal()                               # leftovers 1, 1, 1
    assert g.leftover() == 3
    g.leave([2])
    assert g.chest == [0, 0, 7 + 3] and g.leftover() == 0


# the three leftovers of 1 gem (on T4, T7, T13 with 3 players) split between two leavers:
#   pooled: 3 // 2 = 1 each, 1 stays;  per-card: 1 // 2 = 0 on every card, all 3 stay.
@pytest.mark.parametrize("split, first_two, left_behind, last", [
    ("pooled", 7 + 1, 1, 7 + 1 + 1),
    ("per-card", 7 + 0, 3, 7 + 1 + 3),
])
def test_simultaneous_leavers_split_leftovers(split, first_two, left_behind, last):
    r = rules(leftover_split=split)
    g = Rigged(r, 3, [["T4", "T7", "T13", "T1"]])
    seen = {}

    def decide(state, seat):
        seen[state.decisions] = state.leftover()
        return seat in {2: (0, 1), 3: (2,)}.get(state.decisions, ())
    # decisions: 0 after T4, 1 after T7, 2 after T13 (seats 0 and 1 leave); T1 goes whole to seat 2
    # (carried 7 + 1), then at decision 3 seat 2 leaves alone with what was left behind
    g.play_round(decide)
    assert seen[2] == 3
    assert g.chest[:2] == [first_two, first_two]
    assert seen[3] == left_behind               # the remainder stayed on the cards
    assert g.chest[2] == last
    assert g.round == 1


def test_pooled_split_is_over_the_whole_cave_not_per_card():
    """Seed: 'La division est faite pour l'ensemble des pierres ... et non pour chaque carte'."""
    pooled = started(rules(), 3, ["T4", "T7", "T13"])
    per_card = started(rules(leftover_split="per-card"), 3, ["T4", "T7", "T13"])
    for g in (pooled, per_card):
        for _ in range(3):
            g.reveal()
        g.leave([0, 1])
    assert pooled.chest[:2] == [8, 8] and pooled.leftover() == 1
    assert per_card.chest[:2] == [7, 7] and per_card.leftover() == 3
    assert pooled.chest != per_card.chest


def test_all_leaving_together_ends_the_round():
    g = Rigged(BASE, 3, [["T9", "T5", "T2"]])
    g.play_round(script({1: (0, 1, 2)}))
    assert [repr(c) for c in g.path] == ["T9", "T5"]
    assert g.chest == [4, 4, 4]                 # 3+1 carried each, leftover 2 // 3 = 0
    assert not any(g.in_cave) and g.round == 1


def test_decisions_are_simultaneous():
    """Every seat decides on the same state: an earlier seat's choice is not visible to later seats."""
    g = Rigged(BASE, 3, [["T9", "T5", "H0", "H0"]])
    views = []

    def decide(state, seat):
        obs = state.observation(seat)
        views.append((state.decisions, seat, obs[O.IN_CAVE], tuple(obs[O.SEAT_IN_CAVE:O.SEAT_IN_CAVE + 3])))
        return seat == 0
    g.play_round(decide)
    first = [v for v in views if v[0] == 0]
    assert first == [(0, 0, 3, (1, 1, 1)), (0, 1, 3, (1, 1, 1)), (0, 2, 3, (1, 1, 1))]


# ====================================================================== hazards
def test_first_hazard_of_a_kind_has_no_effect():
    g = started(BASE, 3, ["T9", "H0", "H1", "H2", "H3", "H4"])
    g.reveal()
    for _ in range(5):
        assert g.reveal() is True
    assert g.carried == [3, 3, 3] and g.in_cave == [True] * 3 and g.disasters == 0


@pytest.mark.parametrize("spec", [
    ["T9", "H0", "T5", "H0"],          # repeat after another card
    ["T9", "H0", "T5", "H1", "H0"],    # not consecutive, another kind in between
    ["T9", "T5", "H0", "H0"],          # consecutive
])
def test_second_hazard_of_a_kind_ends_the_round(spec):
    """Players inside lose the gems carried this round; players who left keep theirs."""
    g = Rigged(BASE, 3, [spec])
    g.play_round(script({0: (0,)}))     # after T9 (3 each), seat 0 leaves
    assert [repr(c) for c in g.path] == spec
    assert g.disasters == 1
    assert g.chest == [3, 0, 0] and g.carried == [0, 0, 0]
    assert not any(g.in_cave) and g.round == 1


def test_disaster_keeps_gems_banked_in_earlier_rounds():
    g = Rigged(BASE, 3, [["T9", "T7"], ["T15", "H2", "H2"]])
    g.play_round(script({(0, 1): (0, 1, 2)}))   # 3 + 2 each, leftover 1 stays -> 5 each
    assert g.chest == [5, 5, 5]
    g.play_round(never_leave)
    assert g.chest == [5, 5, 5] and g.disasters == 1


def test_disaster_removes_one_card_of_that_kind():
    g = Rigged(BASE, 3, [["T9", "H3", "H3"]])
    g.play_round(never_leave)
    trigger = g.path[-1]
    out = [c for c in g.cards if g.status[c.index] == OUT_OF_GAME]
    assert out == [trigger] and trigger.hazard == 3
    g.start_round()                               # the next round: natural deck
    assert len(g.deck) == 29
    assert sum(1 for c in g.deck if c.kind == HAZARD and c.hazard == 3) == 2
    assert sum(1 for c in g.deck if c.kind == HAZARD) == 14


def test_kind_can_trigger_again_with_fewer_copies():
    g = Rigged(BASE, 3, [["H3", "H3"], ["H3", "H3"]])
    g.play_round(never_leave)
    g.play_round(never_leave)
    assert g.disasters == 2
    assert sum(1 for c in g.cards if c.kind == HAZARD and c.hazard == 3 and g.status[c.index] == IN_DECK) == 1
    g.start_round()
    assert len(g.deck) == 28


def test_variant_hazard_not_removed_after_disaster():
    g = Rigged(rules(remove_hazard_after_disaster=False), 3, [["T9", "H3", "H3"]])
    g.play_round(never_leave)
    assert g.disasters == 1 and OUT_OF_GAME not in g.status
    g.start_round()
    assert len(g.deck) == 30


def test_variant_three_hazards_to_end():
    g = Rigged(rules(hazards_to_end=3), 3, [["T9", "H0", "H0", "T5", "H0"]])
    g.play_round(never_leave)
    assert [repr(c) for c in g.path] == ["T9", "H0", "H0", "T5", "H0"]
    assert g.disasters == 1 and g.carried == [0, 0, 0] and g.chest == [0, 0, 0]


def test_three_hazards_to_end_two_of_a_kind_are_harmless():
    g = started(rules(hazards_to_end=3), 3, ["H0", "H0", "H1", "H1", "T9"])
    for _ in range(5):
        assert g.reveal() is True
    assert g.carried == [3, 3, 3] and g.disasters == 0


# ====================================================================== first card
def test_first_card_is_revealed_without_a_decision():
    g = Rigged(BASE, 3, [["T9", "T7"]])
    calls = []

    def decide(state, seat):
        calls.append((state.decisions, len(state.path)))
        return True
    g.play_round(decide)
    assert calls[0] == (0, 1), "the first decision comes after the first card"
    assert [repr(c) for c in g.path] == ["T9"] and g.chest == [3, 3, 3]


def test_variant_decision_before_the_first_card():
    g = Rigged(rules(first_card_free=False), 3, [["T9", "T7"]])
    calls = []

    def decide(state, seat):
        calls.append((state.decisions, len(state.path), int(state.observation(seat)[O.CARDS_REVEALED])))
        return True
    g.play_round(decide)
    assert calls[0] == (0, 0, 0)
    assert g.path == [] and g.chest == [0, 0, 0] and g.cards_revealed == 0


def test_variant_decision_before_first_card_then_play_on():
    g = Rigged(rules(first_card_free=False), 3, [["T9", "T7"]])
    g.play_round(script({0: (2,), 1: (0, 1)}))
    # seat 2 leaves before any card; T9 shared by two: 4 each, 1 left -> split by the two leavers
    assert g.chest == [4, 4, 0] and g.leftover() == 1


# ====================================================================== deck exhaustion
SMALL = dict(treasure_values=(5, 7, 1), hazard_kinds=0)


@pytest.mark.parametrize("mode, chests", [
    ("leave-together", [3 + 1, 3 + 1, 3 + 1]),   # carried 1+2+0, leftovers 2+1+1 = 4 -> 1 each, 1 stays
    ("lose", [0, 0, 0]),
])
def test_deck_exhaustion(mode, chests):
    g = Rigged(rules(deck_exhausted=mode, **SMALL), 3, [["T5", "T7", "T1"]])
    g.play_round(never_leave)
    assert [repr(c) for c in g.path] == ["T5", "T7", "T1"] and g.deck == []
    assert g.chest == chests and g.carried == [0, 0, 0] and not any(g.in_cave)
    if mode == "leave-together":
        assert g.last_round_banked == chests and g.leftover() == 1
    assert g.disasters == 0


@pytest.mark.parametrize("mode, chest_2", [("leave-together", 5), ("lose", 0)])
def test_deck_exhaustion_only_hits_players_still_inside(mode, chest_2):
    g = Rigged(rules(deck_exhausted=mode, **SMALL), 3, [["T5", "T7", "T1"]])
    g.play_round(script({0: (0,), 1: (1,)}))
    # T5: 1 each, 2 left -> seat 0 leaves alone with 1 + 2; T7: 3 each for seats 1, 2, 1 left ->
    # seat 1 leaves alone with 4 + 1; T1: seat 2, alone, gets 1 (carried 5); the deck is empty.
    assert g.chest == [3, 5, chest_2]


def test_deck_exhaustion_comes_after_the_decision():
    """The spec leaves the timing open; the reference's reading (pinned here, the fast engine must
    match it): after the last card the players still get their decision; those who leave then
    leave as one group, and only the players who chose to continue "leave together" (or lose)
    when they find the deck empty."""
    g = Rigged(rules(**SMALL), 3, [["T5", "T7", "T1"]])
    asked = []

    def decide(state, seat):
        asked.append((state.decisions, len(state.deck)))
        return seat == 0 and not state.deck
    g.play_round(decide)
    assert asked[-3:] == [(2, 0)] * 3, "a decision is asked with the deck empty"
    # carried 3 each, leftovers 2 + 1 + 1 = 4: seat 0 leaves alone and takes all 4,
    # then seats 1 and 2 leave together with nothing left to split
    assert g.chest == [7, 3, 3] and g.leftover() == 0


def test_deck_exhaustion_lone_player_left_takes_the_artifacts():
    """Reference reading: the players still inside leave together as one group, so a single
    player still inside counts as leaving alone and takes the artifacts on the path."""
    r = rules("solo", treasure_values=(5,), hazard_kinds=0, artifacts="all-at-start", artifact_count=1)
    g = Rigged(r, 2, [["T5", "A"]])
    g.play_round(script({0: (0,)}))       # T5: 2 each, 1 left -> seat 0 leaves alone with 3
    assert g.chest == [3, 2] and g.artifact_points == [0, 5]


def test_deck_exhaustion_with_no_cards_at_all():
    g = Game(rules(treasure_values=(), hazard_kinds=0), 3, 1, 0)
    g.play_round(never_leave)
    assert g.chest == [0, 0, 0] and g.round == 1 and g.path == []


# ====================================================================== round end
def test_leftovers_go_back_to_the_bank():
    g = Rigged(BASE, 3, [["T4", "T7", "H1", "H1"], ["T9"]])
    g.play_round(never_leave)                  # leftovers 1 + 1 lie on the path at the disaster
    assert g.leftover() == 2
    g.start_round()
    assert g.leftover() == 0 and g.leftover_on == {}
    assert g.observation(0)[O.LEFTOVER] == 0
    assert g.carried == [0, 0, 0] and g.in_cave == [True] * 3


def test_leftover_remainder_after_everyone_leaves_is_not_carried_over():
    g = Rigged(BASE, 3, [["T4", "T7"], ["T9", "T2"]])
    g.play_round(script({(0, 1): (0, 1, 2)}))  # leftovers 1+1 = 2 // 3 = 0 each
    assert g.chest == [3, 3, 3]
    g.play_round(script({(1, 1): (0,)}))       # round 2: T9 3 each, T2 0 each (2 left) -> seat 0 takes 2
    assert g.chest[0] == 3 + 3 + 2


def test_round_cards_are_shuffled_back():
    g = Rigged(BASE, 4, [["T17", "T15", "T14"]])
    g.play_round(script({2: (0, 1, 2, 3)}))
    g.start_round()
    assert len(g.deck) == 30 and g.path == []


def test_play_game_plays_the_rounds():
    r = rules(rounds=3)
    leave = lambda obs, params, rng: O.LEAVE  # noqa: E731
    g = play_game(r, 4, 5, 0, [leave] * 4, [np.zeros(0)] * 4)
    assert g.round == 3 and g.cards_revealed == 3
    b = play_batch(r, 4, 5, 0, 6, [leave] * 4, [np.zeros(0)] * 4)
    assert b.scores.shape == (6, 4) and np.allclose(b.shares.sum(axis=1), 1.0)


# ====================================================================== artifacts
def test_incan_gold_adds_one_artifact_per_round():
    r = rules("incan-gold-2006")
    g = Game(r, 3, 2, 0)
    arts = [c for c in g.cards if c.kind == ARTIFACT]
    assert len(arts) == 5 and all(g.status[c.index] == NOT_YET_IN for c in arts)
    g.start_round()
    assert len(g.deck) == 31 and sum(c.kind == ARTIFACT for c in g.deck) == 1


def test_incan_gold_undrawn_artifact_stays_in_the_deck():
    g = Rigged(rules("incan-gold-2006"), 3, [["T1"]])
    g.play_round(always_leave)                     # the artifact of round 1 was never drawn
    g.start_round()
    assert sum(c.kind == ARTIFACT for c in g.deck) == 2 and len(g.deck) == 32


def test_artifact_taken_by_a_lone_leaver():
    g = Rigged(rules("incan-gold-2006"), 3, [["A", "T9", "H0", "H0"]])
    g.play_round(script({0: (0,)}))
    art = next(c for c in g.cards if c.kind == ARTIFACT and g.status[c.index] == OUT_OF_GAME)
    assert art not in g.path
    assert g.artifact_points == [5, 0, 0] and g.artifacts_owned == [1, 0, 0] and g.artifacts_taken == 1
    assert g.scores() == [5, 0, 0]


def test_artifact_not_taken_by_players_leaving_together():
    g = Rigged(rules("incan-gold-2006"), 3, [["A", "T9", "T5"]])
    obs = {}

    def decide(state, seat):
        obs[(state.decisions, seat)] = state.observation(seat)
        return seat in {0: (0, 1), 1: (2,)}.get(state.decisions, ())
    g.play_round(decide)
    assert obs[(0, 2)][O.ARTIFACTS_ON_PATH] == 1 and obs[(0, 2)][O.ARTIFACT_VALUE_ON_PATH] == 5
    assert g.artifact_points == [0, 0, 5], "two leaving together take nothing; a later lone leaver does"
    assert g.chest == [0, 0, 9]


def test_artifact_nobody_takes_leaves_the_game_at_round_end():
    g = Rigged(rules("incan-gold-2006"), 3, [["A", "T9"]])
    g.play_round(script({0: (0, 1, 2)}))
    art = next(c for c in g.path if c.kind == ARTIFACT)
    assert g.status[art.index] == OUT_OF_GAME and g.artifact_points == [0, 0, 0]
    g.start_round()
    assert sum(c.kind == ARTIFACT for c in g.deck) == 1 and art not in g.deck


def test_artifact_lost_in_a_disaster_leaves_the_game():
    g = Rigged(rules("incan-gold-2006"), 3, [["A", "H0", "H0"]])
    g.play_round(never_leave)
    art = next(c for c in g.path if c.kind == ARTIFACT)
    assert g.status[art.index] == OUT_OF_GAME


def test_variant_unclaimed_artifact_reshuffled():
    g = Rigged(rules("incan-gold-2006", unclaimed_artifacts="reshuffled"), 3, [["A", "T9"]])
    g.play_round(script({0: (0, 1, 2)}))
    g.start_round()
    assert sum(c.kind == ARTIFACT for c in g.deck) == 2


def test_artifact_values_first_three_five_then_ten():
    """Values follow the order taken in the whole game, whoever takes them."""
    takers = [0, 1, 0, 1, 0]
    g = Rigged(rules("incan-gold-2006"), 3, [["A", f"H{r}", f"H{r}"] for r in range(5)])
    for rnd, seat in enumerate(takers):
        g.play_round(script({(rnd, 0): (seat,)}))
    assert g.artifacts_taken == 5
    assert g.artifact_points == [5 + 5 + 10, 5 + 10, 0]
    assert g.artifacts_owned == [3, 2, 0]
    assert g.scores() == [20, 15, 0]


def test_lone_leaver_takes_several_artifacts_valued_in_order():
    g = Rigged(rules("diamant-iello-2016"), 3, [["A", "A", "A", "A", "T9"]])
    g.play_round(script({3: (1,)}))
    assert g.artifact_points == [0, 5 + 5 + 5 + 10, 0] and g.artifacts_taken == 4


def test_iello_2016_all_artifacts_from_the_start():
    r = rules("diamant-iello-2016")
    assert r.deck_size == 35 and r.tie_break == "shared" and r.artifact_values == (5, 5, 5, 10, 10)
    g = Game(r, 4, 9, 0)
    assert NOT_YET_IN not in g.status
    g.start_round()
    assert len(g.deck) == 35 and sum(c.kind == ARTIFACT for c in g.deck) == 5


def test_incan_gold_preset():
    r = rules("incan-gold-2006")
    assert (r.artifacts, r.artifact_count, r.unclaimed_artifacts, r.tie_break) == (
        "per-round", 5, "removed", "artifacts")
    assert r.artifact_value(0) == r.artifact_value(2) == 5 and r.artifact_value(3) == 10
    assert r.artifact_value(7) == 10                      # the last value repeats


def test_no_artifacts_in_the_2005_game():
    g = Game(BASE, 3, 1, 0)
    assert not any(c.kind == ARTIFACT for c in g.cards)


# ====================================================================== end of game, ties
def _finished(r, chests, last=None, owned=None):
    g = Game(r, len(chests), 1, 0)
    g.chest = list(chests)
    g.last_round_banked = list(last or [0] * len(chests))
    g.artifacts_owned = list(owned or [0] * len(chests))
    return g


@pytest.mark.parametrize("tie_break, chests, last, owned, shares", [
    ("shared", [10, 8, 5], None, None, [1, 0, 0]),
    ("shared", [10, 10, 5], None, None, [0.5, 0.5, 0]),
    ("shared", [7, 7, 7], None, None, [1 / 3] * 3),
    ("none", [10, 10, 5], None, None, [0, 0, 0]),
    ("none", [10, 8, 5], None, None, [1, 0, 0]),
    ("last-round", [10, 10, 5], [3, 6, 9], None, [0, 1, 0]),     # seat 2's 9 is not in the tie
    ("last-round", [10, 10, 5], [6, 6, 9], None, [0.5, 0.5, 0]),
    ("last-round", [10, 8, 5], [0, 8, 5], None, [1, 0, 0]),      # no tie: the rule is not used
    ("artifacts", [10, 10, 5], None, [2, 1, 4], [1, 0, 0]),
    ("artifacts", [10, 10, 10], None, [1, 2, 2], [0, 0.5, 0.5]),
])
def test_tie_break(tie_break, chests, last, owned, shares):
    g = _finished(rules(tie_break=tie_break), chests, last, owned)
    assert g.win_shares() == pytest.approx(shares)


def test_score_is_chest_plus_artifacts_and_ties_on_total():
    g = _finished(rules("incan-gold-2006"), [10, 5, 0], owned=[0, 1, 0])
    g.artifact_points = [0, 5, 0]
    assert g.scores() == [10, 10, 0]
    assert g.win_shares() == [0.0, 1.0, 0.0]      # incan gold: most artifacts wins the tie


def test_last_round_tie_break_played_out():
    """Scores tie 3-3; seat 1 carried its 3 out in the last round, seat 0 in the first."""
    decks = [["T9", "H0", "H0"], ["T9", "H1", "H1"]]
    plan = {(0, 0): (0,), (1, 0): (1,)}
    results = {}
    for tie in ("shared", "last-round", "none"):
        g = Rigged(rules(rounds=2, tie_break=tie), 3, decks)
        for _ in range(2):
            g.play_round(script(plan))
        assert g.scores() == [3, 3, 0] and g.last_round_banked == [0, 3, 0]
        results[tie] = g.win_shares()
    assert results == {"shared": [0.5, 0.5, 0.0], "last-round": [0.0, 1.0, 0.0], "none": [0.0, 0.0, 0.0]}


# ====================================================================== information
def test_hidden_chests():
    g = Rigged(rules(chests_visible=False), 4, [["T9", "T5", "H0", "H0"]])
    g.play_round(script({0: (0,), 1: (1,)}))
    # T9: 2 each, 1 left -> seat 0 leaves alone with 2 + 1; T5: 1 each, 2 left -> seat 1 with 3 + 2
    assert g.chest == [3, 5, 0, 0]
    g.start_round()
    for seat in range(4):
        obs = g.observation(seat)
        shown = list(obs[O.SEAT_CHEST:O.SEAT_CHEST + 4])
        assert shown == [g.chest[p] if p == seat else -1 for p in range(4)]
        assert obs[O.CHEST] == g.chest[seat]


def test_visible_chests():
    g = Rigged(BASE, 4, [["T9", "T5", "H0", "H0"]])
    g.play_round(script({0: (0,), 1: (1,)}))
    obs = g.observation(3)
    assert list(obs[O.SEAT_CHEST:O.SEAT_CHEST + 4]) == [3, 5, 0, 0]


def test_carried_gems_are_public_even_with_hidden_chests():
    g = started(rules(chests_visible=False), 3, ["T9"])
    g.reveal()
    g.leave([0])
    obs = g.observation(1)
    assert list(obs[O.SEAT_CARRIED:O.SEAT_CARRIED + 3]) == [0, 3, 3]
    assert list(obs[O.SEAT_IN_CAVE:O.SEAT_IN_CAVE + 3]) == [0, 1, 1]


# ====================================================================== players
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_player_count_allowed(players):
    BASE.check_players(players)


@pytest.mark.parametrize("players", [0, 1, 2, 9])
def test_player_count_refused(players):
    with pytest.raises(UsageError, match="min_players"):
        BASE.check_players(players)


@pytest.mark.parametrize("players", [1, 2, 3, 8])
def test_solo_preset_allows_one_to_eight(players):
    rules("solo").check_players(players)


@pytest.mark.parametrize("players", [0, 9])
def test_solo_preset_still_bounded(players):
    with pytest.raises(UsageError):
        rules("solo").check_players(players)


def test_one_player_game_plays():
    g = Rigged(rules("solo"), 1, [["T9", "T5"]])
    g.play_round(script({0: (0,)}))
    assert g.chest == [9] and g.win_shares() == [1.0]


# ====================================================================== observation
def test_observation_fields_match_the_state():
    g = Game(BASE, 4, 13, 0)
    g.start_round()
    g.deck = pick(g, ["T11", "H0", "T5", "H2"])
    t11, _, t5, _ = g.deck[:4]
    for _ in range(4):
        g.reveal()
    g.leave([3])
    obs = g.observation(1)
    assert (obs[O.SEAT], obs[O.PLAYERS], obs[O.ROUND], obs[O.ROUNDS]) == (1, 4, 0, 5)
    assert obs[O.CARDS_REVEALED] == 4 and obs[O.HAZARDS_REVEALED] == 2
    # T11: 2 each, 3 left; T5: 1 each, 1 left; seat 3 leaves with 3 + 4 leftovers
    assert g.chest == [0, 0, 0, 7]
    assert obs[O.CARRIED] == 3 and obs[O.CHEST] == 0 and obs[O.IN_CAVE] == 3 and obs[O.LEFTOVER] == 0
    assert obs[O.DECK_SIZE] == 26 == len(g.deck)
    assert obs[O.DECK_TREASURE_SUM] == 124 - 16 and obs[O.DECK_TREASURES] == 13
    assert obs[O.DECK_HAZARDS] == 13
    assert (obs[O.HAZARDS_TO_END], obs[O.HAZARD_KINDS], obs[O.TREASURE_CARDS]) == (2, 5, 15)
    assert list(obs[O.HAZARD_SEEN:O.HAZARD_SEEN + 5]) == [1, 0, 1, 0, 0]
    assert list(obs[O.HAZARD_IN_DECK:O.HAZARD_IN_DECK + 5]) == [2, 3, 2, 3, 3]
    assert obs[O.DANGER_HAZARDS] == 4                      # the 2 + 2 left of kinds 0 and 2
    assert list(obs[O.SEAT_IN_CAVE:O.SEAT_IN_CAVE + 4]) == [1, 1, 1, 0]
    assert list(obs[O.SEAT_CARRIED:O.SEAT_CARRIED + 4]) == [3, 3, 3, 0]
    assert list(obs[O.SEAT_CHEST:O.SEAT_CHEST + 4]) == [0, 0, 0, 7]
    assert list(obs[O.TREASURE_VALUE:O.TREASURE_VALUE + 15]) == list(BASE_TREASURES)
    in_deck = list(obs[O.TREASURE_IN_DECK:O.TREASURE_IN_DECK + 15])
    assert in_deck == [0 if i in (t11.index, t5.index) else 1 for i in range(15)]
    assert obs[O.ARTIFACTS_ON_PATH] == obs[O.DECK_ARTIFACTS] == obs[O.ARTIFACTS_TAKEN] == 0
    assert obs.shape == (O.SIZE,) and obs.dtype == np.int64


def test_observation_danger_with_three_hazards_to_end():
    g = started(rules(hazards_to_end=3), 3, ["H1", "H1", "H4"])
    g.reveal()
    assert g.observation(0)[O.DANGER_HAZARDS] == 0
    g.reveal()
    assert g.observation(0)[O.DANGER_HAZARDS] == 1
    g.reveal()
    assert g.observation(0)[O.DANGER_HAZARDS] == 1
    assert g.observation(0)[O.HAZARD_IN_DECK + 1] == 1


def test_observation_artifact_fields():
    g = Rigged(rules("diamant-iello-2016"), 3, [["A", "A", "T9", "A", "T5"]])
    seen = {}

    def decide(state, seat):
        seen[(state.decisions, seat)] = state.observation(seat)
        return seat in {1: (0,)}.get(state.decisions, ())
    g.play_round(decide)  # decision 1: after A, A -> seat 0 leaves alone with both (5 + 5)
    before = seen[(1, 2)]
    assert before[O.ARTIFACTS_ON_PATH] == 2 and before[O.ARTIFACT_VALUE_ON_PATH] == 10
    assert before[O.DECK_ARTIFACTS] == 3 and before[O.ARTIFACTS_TAKEN] == 0
    after = seen[(3, 1)]                     # after T9 and the third A
    assert after[O.ARTIFACTS_TAKEN] == 2 and after[O.ARTIFACTS_ON_PATH] == 1
    assert after[O.ARTIFACT_VALUE_ON_PATH] == 5 and after[O.DECK_ARTIFACTS] == 2
    assert g.observation(0)[O.OWN_ARTIFACT_POINTS] == 10


def test_observation_decisions_counter():
    g = Rigged(BASE, 3, [["T1", "T2", "T3", "T4"]])
    counts = []

    def decide(state, seat):
        counts.append(int(state.observation(seat)[O.DECISIONS]))
        return state.decisions == 2
    g.play_round(decide)
    assert counts == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_observation_in_decide_matches_state():
    """Every field of every observation a strategy receives, recomputed from the state."""
    checked = 0

    def decide(state, seat):
        nonlocal checked
        obs = state.observation(seat)
        deck, path = state.deck, state.path
        assert obs[O.DECK_SIZE] == len(deck)
        assert obs[O.CARRIED] == state.carried[seat] and obs[O.IN_CAVE] == sum(state.in_cave)
        assert obs[O.LEFTOVER] == state.leftover()
        assert obs[O.DECK_TREASURE_SUM] == sum(c.value for c in deck if c.kind == TREASURE)
        for k in range(state.rules.hazard_kinds):
            assert obs[O.HAZARD_IN_DECK + k] == sum(c.kind == HAZARD and c.hazard == k for c in deck)
            assert obs[O.HAZARD_SEEN + k] == sum(c.kind == HAZARD and c.hazard == k for c in path)
        last_safe = state.rules.hazards_to_end - 1
        assert obs[O.DANGER_HAZARDS] == sum(
            1 for c in deck if c.kind == HAZARD and state.hazard_seen(c.hazard) == last_safe)
        checked += 1
        return (seat + state.decisions) % 4 == 3

    for seed in range(5):
        g = Game(BASE, 5, seed, 0)
        for _ in range(BASE.rounds):
            g.play_round(decide)
    assert checked > 50


# ====================================================================== rule-set validation
def test_unknown_parameter_suggests_close_name():
    with pytest.raises(UsageError, match="unknown diamant rule parameter 'hazard_copy'"
                                         ".*did you mean 'hazard_copies'"):
        DiamantRules.from_mapping({"hazard_copy": 2})


def test_unknown_parameter_in_assignment_suggests():
    with pytest.raises(UsageError, match="did you mean 'treasure_values'"):
        BASE.with_assignments(["treasure_value=1,2,3"])


def test_unknown_preset_suggests():
    with pytest.raises(UsageError, match="did you mean 'incan-gold-2006'"):
        DiamantRules.preset("incan-gold")


@pytest.mark.parametrize("changes, message", [
    ({"rounds": 0}, "out of range"),
    ({"rounds": 21}, "out of range"),
    ({"hazards_to_end": 1}, "out of range"),
    ({"hazard_kinds": 17}, "out of range"),
    ({"treasure_values": (1, 2, 1001)}, "item 1001 out of range"),
    ({"treasure_values": (-1,)}, "item -1 out of range"),
    ({"treasure_values": tuple(range(41))}, "41 items"),
    ({"artifact_values": ()}, "0 items"),
    ({"min_players": 5, "max_players": 4}, "min_players"),
])
def test_out_of_range(changes, message):
    with pytest.raises(UsageError, match=message):
        BASE.replace(**changes)


@pytest.mark.parametrize("changes, message", [
    ({"rounds": "five"}, "expected an integer"),
    ({"rounds": 2.5}, "expected an integer"),
    ({"rounds": True}, "expected an integer"),
    ({"first_card_free": 1}, "expected true or false"),
    ({"treasure_values": (1, "2")}, "expected a list of integers"),
    ({"treasure_values": 5}, "expected a list of integers"),
    ({"leftover_split": "pool"}, "did you mean 'pooled'"),
    ({"tie_break": 3}, "expected one of"),
])
def test_wrong_type(changes, message):
    with pytest.raises(UsageError, match=message):
        BASE.replace(**changes)


def test_integral_float_is_accepted():
    assert BASE.replace(rounds=3.0).rounds == 3


def test_assignments_parse_lists_and_bare_words():
    r = BASE.with_assignments(["treasure_values=1,2,3", "leftover_split=per-card", "rounds=2",
                               "chests_visible=false"])
    assert r.treasure_values == (1, 2, 3) and r.leftover_split == "per-card"
    assert r.rounds == 2 and r.chests_visible is False


def test_bad_toml_reports_the_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('rounds = 4\nhazard_kinds = 3\nleftover_split = pooled\n')
    with pytest.raises(UsageError, match=r"invalid TOML.*line 3") as e:
        DiamantRules.load_toml(path)
    assert str(path) in str(e.value)


def test_toml_unknown_key_names_the_file(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('round = 4\n')
    with pytest.raises(UsageError, match=r"r\.toml.*did you mean 'rounds'"):
        DiamantRules.load_toml(path)


def test_toml_bad_value_names_the_file(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('rounds = 0\n')
    with pytest.raises(UsageError, match=r"r\.toml.*out of range"):
        DiamantRules.load_toml(path)


def test_missing_toml_file(tmp_path):
    with pytest.raises(UsageError, match="no such file"):
        DiamantRules.load_toml(tmp_path / "nope.toml")


def test_toml_preset_key(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('preset = "incan-gold-2006"\nrounds = 3\n')
    r = DiamantRules.load_toml(path)
    assert r == rules("incan-gold-2006", rounds=3)


@pytest.mark.parametrize("name", sorted(DiamantRules.PRESETS))
def test_presets_load(name):
    r = DiamantRules.preset(name)
    assert isinstance(r, DiamantRules) and name in DiamantRules.PRESET_DOCS
    assert len(card_pool(r)) == r.deck_size


def _variant():
    return BASE.replace(rounds=3, treasure_values=(2, 4, 17), hazard_kinds=4, hazard_copies=2,
                        hazards_to_end=3, remove_hazard_after_disaster=False, first_card_free=False,
                        leftover_split="per-card", deck_exhausted="lose", artifacts="all-at-start",
                        artifact_count=2, artifact_values=(7,), unclaimed_artifacts="reshuffled",
                        tie_break="none", chests_visible=False, min_players=1, max_players=6)


@pytest.mark.parametrize("name", ["variant", *sorted(DiamantRules.PRESETS)])
@pytest.mark.parametrize("comments", [True, False])
def test_to_toml_round_trips(tmp_path, name, comments):
    r = _variant() if name == "variant" else DiamantRules.preset(name)
    path = tmp_path / "r.toml"
    path.write_text(r.to_toml(comments=comments))
    back = DiamantRules.load_toml(path)
    assert back == r and back.to_dict() == r.to_dict()


def test_to_toml_marks_rulings():
    text = BASE.to_toml()
    ruling_lines = [line for line in text.splitlines() if "[ruling]" in line]
    assert len(ruling_lines) == sum(p.ruling for p in DiamantRules.params()) >= 3
