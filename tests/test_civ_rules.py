"""CIV rules, one test per rule on hand-built positions (reference engine, shared/rules/civ.md)."""
from __future__ import annotations

import numpy as np
import pytest

from sim.civ import observation as O
from sim.civ.cards import (AGE_OF, ART, COUNTS, DOMAIN_OF, DOMAIN_TOTALS, ECONOMY, MILITARY, N_CARDS,
                           RELIGION, SCIENCE, UTOPIA)
from sim.civ.observation import A_CARD, A_COPY, A_PERM, A_SAC, A_SEAT, A_TARGET, STOP, encode
from sim.civ.reference import Game, Turn, play_game
from sim.civ.rules import CivRules
from sim.core.errors import UsageError

CLASSIC = CivRules.preset()


def card(d):
    return encode(A_CARD, d)


def perm(d, level):
    return encode(A_PERM, d, level)


def copy(d, level):
    return encode(A_COPY, d, level)


def sac(d):
    return encode(A_SAC, d)


def target(d, seat):
    return encode(A_TARGET, d, seat)


class Script:
    """A decider playing the given actions in order (by code), then always the first legal one;
    it records every legal list it was offered."""

    def __init__(self, *actions):
        self.actions = list(actions)
        self.offered = []

    def __call__(self, seat, obs, where):
        legal = [int(x) for x in obs[O.LEGAL:O.LEGAL + obs[O.N_LEGAL]]]
        self.offered.append((seat, int(obs[O.DECISION]), legal))
        if self.actions:
            return legal.index(self.actions.pop(0))
        return 0


def position(players=3, rules=CLASSIC, seat=0, hands=None, plays=None, discard=None, deck=None):
    """A game in seat's turn, step 2 (effects), with the given hands and play areas (Domain lists)."""
    g = Game(rules, players)
    for s, cards in (hands or {}).items():
        for d in cards:
            g.hand[s][d] += 1
    for s, cards in (plays or {}).items():
        for d in cards:
            g.play[s][d] += 1
    for d in discard or ():
        g.discard[d] += 1
    g.deck = list(deck if deck is not None else range(60, 104))
    g.current = seat
    g.t = Turn(seat)
    g.update_coin()
    return g


def effects(g, seat=0):
    return g.effects(seat)


# ================================================================ cards and set-up
def test_the_deck_is_the_table_by_age_and_domain():
    assert N_CARDS == 104 and DOMAIN_TOTALS == (20, 16, 16, 20, 16, 16)
    for a in range(3):
        for d in range(6):
            assert sum(1 for c in range(N_CARDS) if AGE_OF[c] == a and DOMAIN_OF[c] == d) == COUNTS[a][d]


@pytest.mark.parametrize("players,removed", [(2, 3), (3, 3), (4, 0)])
def test_three_cards_per_age_go_to_the_box_at_two_and_three_players(players, removed):
    g = Game(CLASSIC, players, seed=5, game=1)
    g.setup(Script())
    assert len(g.box) == 3 * removed and len(g.deck) == 104 - 3 * removed
    assert sorted(AGE_OF[c] for c in g.box) == [a for a in range(3) for _ in range(removed)]
    ages = [AGE_OF[c] for c in g.deck]
    assert ages == sorted(ages)                       # Age I on top, Age III at the bottom
    assert g.domain_census() == list(DOMAIN_TOTALS)
    none = Game(CLASSIC.replace(removal_players=()), players, seed=5, game=1)
    none.setup(Script())
    assert not none.box


def test_classic_deal_gives_hand_size_cards_each():
    for size in (3, 4):
        g = Game(CLASSIC.replace(hand_size=size), 4, seed=1)
        g.setup(Script())
        assert [sum(h) for h in g.hand] == [size] * 4 and g.top == 4 * size


def test_draft_keeps_three_and_puts_one_into_play_counter_clockwise():
    seats = []
    g = Game(CLASSIC.replace(setup="draft"), 4, seed=3)
    g.on_decision = lambda game, seat, decision, action: seats.append((decision, seat))
    g.setup(Script())
    assert [sum(h) for h in g.hand] == [3] * 4 and [sum(p) for p in g.play] == [1] * 4
    keeps = [s for d, s in seats if d == O.D_DRAFT_KEEP]
    takes = [s for d, s in seats if d == O.D_DRAFT_TAKE]
    assert keeps == [0, 1, 2, 3] * 3 and takes == [3, 2, 1, 0]
    assert g.domain_census() == list(DOMAIN_TOTALS) and g.top == 16


def test_first_player_seat0_or_random():
    firsts = set()
    for game in range(30):
        g = Game(CLASSIC.replace(first_player="random"), 4, seed=1, game=game)
        g.setup(Script())
        firsts.add(g.first)
    assert firsts == {0, 1, 2, 3}
    g = Game(CLASSIC, 4, seed=1, game=3)
    g.setup(Script())
    assert g.first == 0


def test_thresholds_by_player_count():
    assert CLASSIC.levels(2) == CLASSIC.levels(3) == (3, 5) and CLASSIC.levels(4) == (2, 4)
    assert CLASSIC.hegemony(2) == 8 and CLASSIC.hegemony(3) == CLASSIC.hegemony(4) == 7
    g = position(4, plays={0: [MILITARY] * 2}, hands={0: [ART, ART]})
    assert perm(MILITARY, 1) in effects(g) and perm(MILITARY, 2) not in effects(g)
    g = position(3, plays={0: [MILITARY] * 2}, hands={0: [ART, ART]})
    assert perm(MILITARY, 1) not in effects(g)
    with pytest.raises(UsageError):
        CLASSIC.replace(level1_small=6)
    with pytest.raises(UsageError):
        CLASSIC.check_players(5)


# ================================================================ the turn
def test_mandatory_play_is_skipped_only_when_nothing_may_be_played():
    g = position(3, hands={0: [ECONOMY]}, plays={1: [MILITARY]})
    g.embargo[0][ECONOMY] = 1
    s = Script()
    g.play_turn(s)
    assert s.offered[0][1] == O.D_EFFECT and g.play[0][ECONOMY] == 0 and sum(g.hand[0]) == 3


def test_level_two_is_instead_of_level_one_and_each_domain_once_per_turn():
    g = position(3, plays={0: [MILITARY] * 5}, hands={0: [ART, ART, ART]})
    assert {perm(MILITARY, 1), perm(MILITARY, 2), sac(MILITARY)} <= set(effects(g))
    g.use(Script(), 0, perm(MILITARY, 2))
    assert sum(g.hand[0]) == 1 and g.discard[ART] == 2
    assert perm(MILITARY, 1) not in effects(g) and sac(MILITARY) in effects(g)
    g.use(Script(card(MILITARY)), 0, sac(MILITARY))
    assert sac(MILITARY) not in effects(g)


def test_hand_size_is_a_draw_target_never_a_discard():
    g = position(3, hands={0: [ART] * 4})
    g.play_turn(Script())
    assert sum(g.hand[0]) == 3                    # played one, no draw, no discard
    g = position(3, hands={0: [ART] * 6})
    g.play_turn(Script())
    assert sum(g.hand[0]) == 5


# ================================================================ Military
def test_assassination_and_purge_discard_from_the_hand():
    g = position(3, plays={0: [MILITARY] * 3}, hands={0: [ART, RELIGION]})
    assert perm(MILITARY, 1) in effects(g)
    g.use(Script(card(RELIGION)), 0, perm(MILITARY, 1))
    assert g.hand[0][RELIGION] == 0 and g.discard[RELIGION] == 1
    g = position(3, plays={0: [MILITARY] * 5}, hands={0: [ART]})
    assert perm(MILITARY, 2) not in effects(g)         # Purge needs two cards


def test_attack_discards_the_domain_everywhere():
    g = position(3, plays={0: [MILITARY, ART, ART], 1: [ART], 2: [RELIGION]})
    s = Script(card(ART))
    g.use(s, 0, sac(MILITARY))
    assert s.offered[0][2] == [card(ART)]              # needs a card of the Domain, Military only with a 2nd
    assert g.play[0] == [0, 0, 0, 0, 1, 0] and g.play[1][ART] == 0 and g.play[2][RELIGION] == 1
    assert g.discard[MILITARY] == 1 and g.discard[ART] == 2


def test_attack_rulings():
    g = position(3, plays={0: [MILITARY, MILITARY], 1: [MILITARY]})
    assert g.attack_domains(0, False) == [MILITARY]
    g = position(3, rules=CLASSIC.replace(attack_military=False), plays={0: [MILITARY, MILITARY]})
    assert sac(MILITARY) not in effects(g)
    g = position(3, rules=CLASSIC.replace(attack_needs_own=False), plays={0: [MILITARY], 1: [SCIENCE]})
    assert g.attack_domains(0, False) == list(range(6))
    g.use(Script(card(SCIENCE)), 0, sac(MILITARY))
    assert g.play[1][SCIENCE] == 0 and g.play[0] == [0] * 6
    g = position(3, plays={0: [MILITARY]})
    assert sac(MILITARY) not in effects(g)             # nothing to choose


@pytest.mark.parametrize("hits", [True, False])
def test_attack_on_a_teammate(hits):
    rules = CLASSIC.replace(teams=True, attack_hits_teammate=hits)
    g = position(4, rules=rules, plays={0: [MILITARY, ART], 1: [ART], 2: [ART], 3: [ART]})
    g.use(Script(card(ART)), 0, sac(MILITARY))
    assert g.play[2][ART] == (0 if hits else 1) and g.play[1][ART] == g.play[3][ART] == 0


# ================================================================ Religion
def test_holy_book_and_divine_right_raise_the_draw_target():
    for n, size in ((0, 3), (3, 5), (5, 7)):
        g = position(3, plays={0: [RELIGION] * n})
        assert g.hand_limit(0) == size
        g.play_turn(Script())
        assert sum(g.hand[0]) == size
    g = position(3, rules=CLASSIC.replace(hand_level1=6), plays={0: [RELIGION] * 3})
    assert g.hand_limit(0) == 6


def test_inquisition_takes_a_hand_and_gives_back_as_many():
    g = position(3, plays={0: [RELIGION]}, hands={0: [ART], 1: [SCIENCE, UTOPIA], 2: []})
    s = Script(encode(A_SEAT, -1, 1), card(ART), card(UTOPIA))
    assert s and sac(RELIGION) in effects(g)
    g.use(s, 0, sac(RELIGION))
    assert [x[2] for x in s.offered][0] == [encode(A_SEAT, -1, 1)]     # only seats with a hand
    assert g.hand[0] == [0, 0, 0, 1, 0, 0] and g.hand[1] == [0, 0, 0, 0, 1, 1]
    assert g.discard[RELIGION] == 1 and g.play[0][RELIGION] == 0
    g = position(3, plays={0: [RELIGION]}, hands={0: [ART]})
    assert sac(RELIGION) not in effects(g)


# ================================================================ Economy
def test_development_and_monopoly():
    g = position(3, plays={0: [ECONOMY] * 3 + [ART]}, hands={0: [SCIENCE]})
    assert perm(ECONOMY, 1) in effects(g)
    g.use(Script(card(ART), card(SCIENCE)), 0, perm(ECONOMY, 1))
    assert g.play[0] == [0, 0, 3, 1, 0, 0] and g.discard[ART] == 1
    g = position(3, plays={0: [ECONOMY] * 5}, hands={0: [SCIENCE, ART]})
    s = Script(card(ECONOMY), card(ECONOMY))
    g.use(s, 0, perm(ECONOMY, 2))
    assert g.play[0] == [0, 0, 3, 1, 1, 0] and g.hand[0] == [0] * 6
    assert s.offered[2][2] == [card(SCIENCE)] and s.offered[3][2] == [card(ART)]   # non-decreasing


@pytest.mark.parametrize("short", [False, True])
def test_monopoly_with_one_playable_card(short):
    g = position(3, rules=CLASSIC.replace(level2_short=short), plays={0: [ECONOMY] * 5}, hands={0: [ART]})
    assert (perm(ECONOMY, 2) in effects(g)) == short
    assert perm(ECONOMY, 1) in effects(g)
    if short:
        g.use(Script(), 0, perm(ECONOMY, 2))
        assert g.play[0] == [0, 0, 3, 0, 1, 0]


def test_embargo_blocks_plays_for_the_targets_next_turn_then_is_discarded():
    g = position(3, plays={0: [ECONOMY], 1: [ART]}, hands={1: [ART, SCIENCE]})
    s = Script(target(ART, 1))
    g.use(s, 0, sac(ECONOMY))
    assert s.offered[0][2] == [target(ART, 1)]          # on a card: a non-empty Domain
    assert g.embargo[1][ART] == 1 and g.count(1, ART) == 1
    g.t = None
    g.current = 1
    s = Script()
    g.play_turn(s)
    assert s.offered[0] == (1, O.D_PLAY, [card(SCIENCE)])
    assert g.embargo[1] == [0] * 6 and g.discard[ECONOMY] == 1


@pytest.mark.parametrize("blocks", [False, True])
def test_embargo_blocking_effects(blocks):
    g = position(3, rules=CLASSIC.replace(embargo_blocks_effects=blocks), plays={0: [MILITARY] * 3},
                 hands={0: [ART]})
    g.embargo[0][MILITARY] = 1
    assert (perm(MILITARY, 1) in effects(g)) != blocks


def test_embargo_rulings_needs_card_and_counts():
    g = position(3, rules=CLASSIC.replace(embargo_needs_card=False), plays={0: [ECONOMY]})
    assert len(g.targets(0, False)) == 12
    g = position(3, plays={0: [ECONOMY]})
    assert sac(ECONOMY) not in effects(g)
    g = position(3, rules=CLASSIC.replace(embargo_card_counts=True), plays={0: [ECONOMY], 1: [ART]})
    g.use(Script(target(ART, 1)), 0, sac(ECONOMY))
    assert g.count(1, ART) == 2


# ================================================================ Science
def test_experiment_and_research():
    g = position(3, plays={0: [SCIENCE] * 3 + [ART]}, hands={0: []})
    g.use(Script(card(ART), card(ART)), 0, perm(SCIENCE, 1))
    assert g.play[0][ART] == 1 and sum(g.hand[0]) == 0
    g = position(3, plays={0: [SCIENCE] * 5}, hands={0: [UTOPIA]})
    s = Script(card(SCIENCE), card(SCIENCE), card(SCIENCE), card(UTOPIA))
    g.use(s, 0, perm(SCIENCE, 2))
    assert g.play[0] == [0, 0, 0, 4, 0, 1] and g.hand[0] == [0, 0, 0, 1, 0, 0]


def test_technological_leap_draws_five_and_discards_five_or_fewer_near_the_end():
    g = position(3, plays={0: [SCIENCE]}, hands={0: [ART]}, deck=list(range(80, 104)))
    g.use(Script(), 0, sac(SCIENCE))
    assert sum(g.hand[0]) == 1 and g.top == 5 and sum(g.discard) == 6
    g = position(3, plays={0: [SCIENCE]}, hands={0: [ART]}, deck=[100, 101])
    g.use(Script(), 0, sac(SCIENCE))
    assert sum(g.hand[0]) == 1 and g.deck_left() == 0 and sum(g.discard) == 3
    g = position(3, plays={0: [SCIENCE]}, deck=[])
    assert sac(SCIENCE) in effects(g)
    g.end_turn(0)
    assert g.final


@pytest.mark.parametrize("takes", [False, True])
def test_technological_leap_discard_pick_ruling(takes):
    g = position(3, rules=CLASSIC.replace(leap_takes_discard=takes), plays={0: [SCIENCE]},
                 discard=[RELIGION], deck=list(range(90, 104)))
    g.use(Script(), 0, sac(SCIENCE))
    assert sum(g.hand[0]) == (1 if takes else 0)


# ================================================================ Utopia
def test_oligarchy_and_republic_take_from_the_discard():
    g = position(3, plays={0: [UTOPIA] * 5}, discard=[ART, MILITARY])
    assert {perm(UTOPIA, 1), perm(UTOPIA, 2)} <= set(effects(g))
    g.use(Script(), 0, perm(UTOPIA, 2))
    assert g.hand[0] == [1, 0, 0, 0, 1, 0] and sum(g.discard) == 0
    g = position(3, plays={0: [UTOPIA] * 5}, discard=[ART])
    assert perm(UTOPIA, 2) not in effects(g) and perm(UTOPIA, 1) in effects(g)


def test_democracy_stacks_and_raises_the_hegemony_need():
    g = position(3, plays={0: [UTOPIA, UTOPIA], 1: [ART] * 8})
    g.use(Script(target(ART, 1)), 0, sac(UTOPIA))
    g.t = Turn(0)
    g.use(Script(target(ART, 1)), 0, sac(UTOPIA))     # a new turn: the slot is free again
    assert g.democracy[1][ART] == 2 and g.count(1, ART) == 8
    g.t = Turn(1)
    g.end_turn(1)
    assert not g.over                                   # needs 7 + 2 = 9
    g.play[1][ART] = 9
    g.t = Turn(1)
    g.end_turn(1)
    assert g.over and g.winner == 1 and g.hegemony_domain == ART


def test_democracy_rulings():
    g = position(3, plays={0: [UTOPIA]})
    assert len(g.targets(0, CLASSIC.democracy_needs_card)) == 12   # any Domain, even empty
    assert g.targets(0, True) == []
    g = position(3, rules=CLASSIC.replace(democracy_card_counts=True), plays={0: [UTOPIA], 1: [ART]})
    g.use(Script(target(ART, 1)), 0, sac(UTOPIA))
    assert g.count(1, ART) == 2


# ================================================================ Art
def test_art_coin_needs_a_strict_majority():
    g = position(3, plays={0: [ART, ART], 1: [ART]})
    assert g.coin == 0
    g.play[1][ART] = 2
    g.update_coin()
    assert g.coin == -1
    g = position(3, rules=CLASSIC.replace(art_tie="keep"), plays={0: [ART, ART], 1: [ART]})
    g.play[1][ART] = 2
    g.update_coin()
    assert g.coin == 0
    g.play[1][ART] = 3
    g.update_coin()
    assert g.coin == 1
    g = position(3, rules=CLASSIC.replace(art_min_cards=2), plays={0: [ART]})
    assert g.coin == -1
    g = position(3, plays={0: [ART]})
    assert g.coin == 0


def test_inspiration_copies_one_permanent_effect_another_player_has():
    g = position(3, plays={0: [ART], 1: [MILITARY] * 5, 2: [RELIGION] * 3}, hands={0: [SCIENCE] * 2})
    offered = effects(g)
    assert {copy(MILITARY, 1), copy(MILITARY, 2), copy(RELIGION, 1)} <= set(offered)
    assert copy(RELIGION, 2) not in offered
    g.use(Script(), 0, copy(MILITARY, 2))
    assert sum(g.hand[0]) == 0 and not any(x >> 0 & 15 == A_COPY for x in effects(g))
    g = position(3, plays={0: [ART], 2: [RELIGION] * 5})
    g.use(Script(), 0, copy(RELIGION, 2))
    assert g.hand_limit(0) == 7
    g = position(3, plays={0: [], 1: [ART], 2: [MILITARY] * 3}, hands={0: [ART]})
    assert not [x for x in effects(g) if O.action_kind(x) == A_COPY]   # no coin


@pytest.mark.parametrize("uses_slot", [True, False])
def test_a_copy_uses_the_own_slot(uses_slot):
    rules = CLASSIC.replace(copy_uses_slot=uses_slot)
    g = position(3, rules=rules, plays={0: [ART] + [MILITARY] * 3, 1: [MILITARY] * 5}, hands={0: [UTOPIA] * 4})
    assert copy(MILITARY, 2) in effects(g)
    g.use(Script(), 0, copy(MILITARY, 2))
    assert (perm(MILITARY, 1) in effects(g)) == (not uses_slot)
    g = position(3, rules=rules.replace(copies_per_turn=2), plays={0: [ART], 1: [MILITARY] * 3, 2: [SCIENCE] * 3},
                 hands={0: [UTOPIA] * 2})
    g.use(Script(), 0, copy(MILITARY, 1))
    assert copy(SCIENCE, 1) in effects(g)


# ================================================================ the end
def test_hegemony_only_at_the_end_of_ones_own_turn():
    g = position(3, plays={0: [ART] * 6, 1: [SCIENCE] * 7}, hands={0: [ART]})
    s = Script()
    g.play_turn(s)
    assert g.over and g.winner == 0 and g.hegemony_domain == ART   # seat 1's 7 did not count
    assert g.win_shares() == [1.0, 0.0, 0.0]
    g = position(2, plays={0: [ART] * 6}, hands={0: [ART]})
    g.play_turn(Script())
    assert not g.over                                   # 8 at 2 players


@pytest.mark.parametrize("in_final", [True, False])
def test_deck_exhaustion_final_round_and_hegemony_in_it(in_final):
    rules = CLASSIC.replace(hegemony_in_final_round=in_final)
    g = position(3, rules=rules, seat=1, hands={1: [ART], 2: [ART]}, plays={2: [ART] * 6}, deck=[0])
    g.play_turn(Script())                               # seat 1 draws the last card
    assert g.final and not g.over and g.current == 2
    g.play_turn(Script())                               # seat 2, the last seat, reaches 7 Art
    assert g.over and (g.winner == 2) == in_final


def test_the_final_round_ends_after_the_last_seat():
    g = position(3, seat=2, hands={2: [ART]}, deck=[0])
    g.play_turn(Script())
    assert g.final and g.over                           # the last seat drew the last card
    g = position(3, seat=0, hands={0: [ART], 1: [ART], 2: [ART]}, deck=[0])
    for _ in range(3):
        assert not g.over
        g.play_turn(Script())
    assert g.over and g.turns == 3


def test_majorities_ties_score_for_all_and_empty_domains():
    g = position(3, plays={0: [ART, MILITARY], 1: [ART], 2: [SCIENCE]})
    assert g.majority_points() == [2, 1, 1]          # the Art tie scores for both
    g.play[1][MILITARY] = 1
    assert g.majority_points() == [2, 2, 1]
    g2 = position(3, rules=CLASSIC.replace(empty_domain_scores=True), plays={0: [ART]})
    assert g2.majority_points() == [1 + 5, 5, 5]


def test_tie_break_order_and_shared():
    g = position(3, plays={0: [ART, MILITARY], 1: [ART, SCIENCE], 2: [RELIGION, MILITARY]})
    assert g.majority_points() == [2, 2, 2]
    assert g.win_shares() == [0.0, 1.0, 0.0]            # Utopia 0-0-0, Art 1-1-0, Science: seat 1
    g.rules = CLASSIC.replace(tie_break_order=("military", "religion"))
    assert g.win_shares() == [0.0, 0.0, 1.0]
    g.rules = CLASSIC.replace(tie_break="shared")
    assert g.win_shares() == pytest.approx([1 / 3] * 3)


def test_team_scoring():
    rules = CLASSIC.replace(teams=True)
    g = position(4, rules=rules, plays={0: [ART], 2: [ART, MILITARY], 1: [SCIENCE, MILITARY], 3: []})
    assert g.majority_points() == [2, 2, 2, 2]          # team A: Art, Military; B: Science, Military
    assert g.win_shares() == [0.5, 0.0, 0.5, 0.0]       # tie-break: Utopia 0-0, Art 2-0 (summed)
    g.winner = 1
    assert g.win_shares() == [0.0, 0.5, 0.0, 0.5]
    with pytest.raises(UsageError):
        rules.check_players(3)


def test_whole_games_keep_every_card_and_end():
    from sim.core.reference import Decider
    from sim.core.kernels import random_choice
    for preset in CivRules.PRESETS:
        rules = CivRules.preset(preset)
        for players in ((4,) if rules.teams else (2, 3, 4)):
            for game in range(5):
                def check(g, seat, decision, action):
                    assert g.domain_census() == list(DOMAIN_TOTALS)
                d = Decider([random_choice] * players, [np.zeros(1)] * players, 9, game, players)
                g = play_game(rules, players, 9, game, d, on_decision=check)
                assert g.over and abs(sum(g.win_shares()) - 1) < 1e-9
