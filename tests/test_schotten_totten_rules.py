"""Schotten Totten rules, checked on hand-built positions against the reference engine.

The contract is shared/rules/schotten-totten.md (from shared/seeds/schotten-totten-fr.txt). Each
test names the rule or ruling it pins. Positions are written in the notation of
sim/schotten_totten/notation.py (stone lines "i: seat 0's cards / seat 1's cards | tags") and
loaded with `Game.from_position`; clan cards the position does not place go to the clan pile in
ascending order (so the next card drawn is the lowest one left), unless the position lists the pile.
Seat 0 moves first by default (rule `first_player = "seat0"`).
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.batch import StrategyError
from sim.core.errors import UsageError
from sim.core.rng import KeyedRng, deck_stream
from sim.schotten_totten import cards as C
from sim.schotten_totten import fast, policies
from sim.schotten_totten import reference
from sim.schotten_totten.notation import Position, format_position, parse_position, who_can_claim
from sim.schotten_totten.reference import (CLAIM, DESERTER, DRAW, END_CLAIMS, PASS, PHASE_CLAIM, PHASE_PLAY,
                                           PLAY, REDEPLOY, RETURN, SCOUT, TRAITOR, Action, Game, RandomPolicy,
                                           first_legal, play_game, play_match, play_policy_batch)
from sim.schotten_totten.rules import SchottenTottenRules

card = C.parse_card


def rules(preset: str = "base", **changes) -> SchottenTottenRules:
    r = SchottenTottenRules.preset(preset)
    return r.replace(**changes) if changes else r


def load(text: str, preset: str = "base", **changes) -> Game:
    return Game.from_position(rules(preset, **changes), text)


def play(c: str, stone: int) -> Action:
    return Action(PLAY, card(c), stone)


def draw(pile: int) -> Action:
    return Action(DRAW, pile=pile)


def scripted(*actions: Action):
    """decide() replaying `actions` in order (each must be legal); when the script is used up,
    draws take the clan pile and anything else fails the test."""
    queue = list(actions)

    def decide(seat, phase, legal):
        if not queue:
            assert legal[0].kind == DRAW, f"unscripted decision {phase}: {legal}"
            return legal[0]
        a = queue.pop(0)
        assert a in legal, f"{a} not legal in phase {phase}; legal: {[str(x) for x in legal]}"
        return a
    decide.queue = queue
    return decide


def turn(g: Game, *actions: Action) -> Game:
    d = scripted(*actions)
    g.play_turn(d)
    assert not d.queue, f"script not used up: {d.queue}"
    return g


def names(cards) -> list[str]:
    return [C.card_name(c) for c in cards]


# ================================================================ rule set
def test_presets_and_defaults():
    base = SchottenTottenRules.preset()
    assert SchottenTottenRules.DEFAULT_PRESET == "base" and base == SchottenTottenRules()
    assert (base.tactics, base.claim_timing, base.redeploy, base.hand_size, base.stones) == \
        (False, "after-play", "move-or-discard", 6, 9)
    assert (base.adjacent_to_win, base.total_to_win, base.blocked_game, base.auto_claim, base.tactic_limit) == \
        (3, 5, "more-stones", True, 1)
    assert base.first_player == "seat0" and base.no_play == "pass"
    assert rules("tactics").tactics and rules("tactics").claim_timing == "after-play"
    assert rules("base-claim-at-start").claim_timing == "start-of-turn" and not rules("base-claim-at-start").tactics
    t = rules("tactics-claim-at-start")
    assert t.tactics and t.claim_timing == "start-of-turn"
    assert set(SchottenTottenRules.PRESET_DOCS) == set(SchottenTottenRules.PRESETS)


def test_rulings_are_parameters_with_the_documented_defaults():
    rulings = {p.name: p.default for p in SchottenTottenRules.params() if p.ruling}
    assert rulings == {"redeploy": "move-or-discard", "no_play": "pass", "blocked_game": "more-stones"}


def test_rule_file_round_trip(tmp_path):
    r = rules("tactics", redeploy="discard", tactic_limit=2)
    path = tmp_path / "st.toml"
    path.write_text(r.to_toml())
    assert SchottenTottenRules.load_toml(path) == r
    with pytest.raises(UsageError):
        rules(adjacent_to_win=10)
    with pytest.raises(UsageError):
        rules(stones=3)   # adjacent 3 ok, but total_to_win 5 > 3 stones
    assert rules(stones=3, total_to_win=3).stones == 3


# ================================================================ cards and formations
def test_card_encoding():
    assert card("R1") == 0 and card("R9") == 8 and card("O1") == 9 and card("P9") == 53
    for colour in range(6):
        for value in range(1, 10):
            c = C.clan_card(colour, value)
            assert c == colour * 9 + value - 1 and (C.colour_of(c), C.value_of(c)) == (colour, value)
    assert [C.card_name(c) for c in C.TACTIC_CARDS] == ["Chief1", "Chief2", "Troop", "Shield", "Fog", "Mud",
                                                       "Scout", "Redeploy", "Deserter", "Traitor"]
    assert all(card(C.card_name(c)) == c for c in range(C.N_CARDS))
    assert card("MacFarlane") == C.CHIEF_1 and card("macgregor") == C.CHIEF_2
    with pytest.raises(ValueError):
        card("X5")


def key(text: str, need: int = 3, fog: bool = False) -> int:
    return C.formation_key([card(t) for t in text.split()], need, fog)


def test_formation_order_strongest_first():
    ordered = ["R9 G9 B8",   # sum 26
               "R1 G2 B3",   # straight 6
               "R1 R2 R4",   # flush 7
               "R1 G1 B1",   # three of a kind 3
               "R1 R2 R3"]   # straight flush 6
    keys = [key(f) for f in ordered]
    assert [C.category_of(k) for k in keys] == [C.SUM, C.STRAIGHT, C.FLUSH, C.KIND, C.STRAIGHT_FLUSH]
    assert keys == sorted(keys) and len(set(keys)) == 5
    assert C.describe_key(key("R7 R8 R9")) == "straight flush (24)"


def test_four_card_formations_under_mud():
    ordered = ["R9 G9 B8 Y8", "R1 G2 B3 Y4", "R1 R2 R4 R6", "R1 G1 B1 Y1", "R1 R2 R3 R4"]
    keys = [key(f, need=4) for f in ordered]
    assert [C.category_of(k) for k in keys] == [0, 1, 2, 3, 4] and keys == sorted(keys)


def test_straights_do_not_wrap_around():
    assert C.category_of(key("R8 R9 R1")) == C.FLUSH
    assert C.category_of(key("R8 G9 B1")) == C.SUM


def test_same_category_higher_total_wins():
    assert who_can_claim("0: R2 R3 R4 / G1 G2 G3") == {0: 0}
    assert who_can_claim("0: R1 G1 B1 / O2 Y2 P2") == {0: 1}
    assert who_can_claim("0: R1 G5 B9 / O2 Y4 P8") == {0: 0}   # sums 15 and 14


TIES = [
    ("straight flush", "R4 R5 R6 / G4 G5 G6"),
    ("three of a kind", "R5 O5 Y5 / G5 B5 P5"),
    ("flush", "R1 R2 R9 / G1 G3 G8"),
    ("straight", "R4 G5 B6 / O4 Y5 P6"),
    ("sum", "R1 G5 B9 / O2 Y4 P9"),
    ("fog: a straight flush and a straight of the same total", "R1 R2 R3 / G1 B2 Y3 | fog"),
    ("mud: two 4-card straight flushes", "R1 R2 R3 R4 / G1 G2 G3 G4 | mud"),
    ("morale: a Chief making 7-8-9", "Chief1 R8 R9 / G7 G8 G9"),
]


@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize("case,stone", TIES, ids=[t[0] for t in TIES])
def test_tie_goes_to_who_completed_first(case, stone, first):
    sep = " first" if "|" in stone else " | first"
    text = f"0: {stone}{sep}{first}"
    p = parse_position(text)
    need = 4 if C.MUD in p.env[0] else 3
    fog = C.FOG in p.env[0]
    assert C.best_key(p.sides[0][0], need, fog) == C.best_key(p.sides[0][1], need, fog)
    assert who_can_claim(text) == {0: first}
    with pytest.raises(UsageError):
        who_can_claim(f"0: {stone}")   # a tie needs to know who completed first


def test_tie_in_play_the_player_who_placed_the_last_card_loses():
    g = load("""turn 0
               hand0 B3 R9
               hand1 Y9
               0: B1 B2 / O1 O2 O3""")
    turn(g, play("B3", 0))
    assert g.claimed[0] == -1                 # equal straight flushes, seat 1 completed first
    turn(g, play("Y9", 1))
    assert g.claimed[0] == 1                   # and seat 1 claims it on its own turn


# ================================================================ the claim proof
def test_proof_succeeds_when_nothing_can_beat():
    assert who_can_claim("0: R7 R8 R9 / G1") == {0: 0}
    assert who_can_claim("0: G1 / R7 R8 R9") == {0: 1}
    # three 9s against B1 B2: only B3 (straight flush) beats; with B3 visible the proof holds
    assert who_can_claim("0: R9 Y9 G9 / B1 B2\n1: B3 / -") == {0: 0}
    assert who_can_claim("0: R9 Y9 G9 / B1 B2") == {}


def test_proof_a_completion_that_only_ties_does_not_beat():
    assert who_can_claim("0: G4 G5 G6 / Y4 Y5") == {0: 0}      # Y6 would tie, later: seat 0 keeps it
    assert who_can_claim("0: G3 G4 G5 / Y4 Y5") == {}          # Y6 would beat


def test_proof_fails_because_of_a_card_in_the_claimers_own_hand():
    text = """turn 0
              hand0 B3 R1
              0: R9 Y9 G9 / B1 B2"""
    g = load(text)
    assert not g.can_claim(0, 0)
    turn(g, play("R1", 5))
    assert g.claimed[0] == -1                  # B3 is in seat 0's hand, yet it counts as available
    g = load(text.replace("hand0 B3 R1", "hand0 R1").replace("/ B1 B2", "/ B1 B2\n1: B3 / -"))
    turn(g, play("R1", 5))
    assert g.claimed[0] == 0


def test_proof_fails_because_of_a_card_in_the_opponents_hand():
    text = """turn 0
              hand0 R1
              hand1 B3
              0: R9 Y9 G9 / B1 B2"""
    g = load(text)
    turn(g, play("R1", 5))
    assert g.claimed[0] == -1                  # B3, in the opponent's hand, completes B1 B2 B3
    g = load(text.replace("hand1 B3", "hand1 R2").replace("/ B1 B2", "/ B1 B2\n1: B3 / -"))
    turn(g, play("R1", 5))
    assert g.claimed[0] == 0


def test_proof_uses_the_discards_as_visible():
    assert who_can_claim("0: R9 Y9 G9 / B1 B2\ndiscard B3") == {0: 0}


def test_proof_with_the_opponents_chief():
    assert who_can_claim("0: Y1 Y2 Y3 / Chief1 R5") == {}
    three_nines = "0: R9 O9 G9 / Chief1 R5\n"
    assert who_can_claim(three_nines) == {}                                      # e.g. R6 + Chief as R7
    blockers = "1: R3 R4 / -\n2: R6 / -\n3: R7 / -\n"
    assert who_can_claim(three_nines + blockers) == {0: 0}                       # best left: three 5s
    assert who_can_claim(three_nines + blockers.replace("3: R7 / -\n", "")) == {}  # R7 + Chief as R6


def test_proof_with_the_claimers_chief():
    assert who_can_claim("0: Chief1 G8 G9 / R1") == {0: 0}                       # Chief = G7: unbeatable
    assert who_can_claim("0: Chief1 G5 G6 / Y4 Y5 Y6") == {0: 0}                 # Chief = G7: 18 > 15
    assert who_can_claim("0: Chief1 R5 R6 / Chief2 G5 G6 | first1") == {0: 1}   # both 5-6-7, 18 = 18


def test_proof_with_support_troop_and_shield_bearer():
    assert who_can_claim("0: Troop R8 R9 / G1") == {0: 0}                        # 7-8-9 in red
    assert who_can_claim("0: Troop R5 R6 / G5 G6 G7 | first1") == {0: 1}        # 5-6-7 both
    assert who_can_claim("0: R8 O8 G8 / Troop Y7") == {0: 0}                     # Troop is only a 7
    assert who_can_claim("0: Shield B4 B5 / R3 R4 R5 | first1") == {0: 1}       # Shield = 3
    assert who_can_claim("0: Shield Y3 G3 / R2 O2 B2") == {0: 0}                 # three 3s beat three 2s
    assert who_can_claim("0: Shield Y5 G5 / R2 O2 B2") == {0: 1}                 # Shield cannot be a 5
    assert who_can_claim("0: R4 O4 G4 / Shield Y1") == {}                        # Y2 + Shield as 3: 1-2-3


@pytest.mark.parametrize("claimer", [0, 1])
def test_proof_under_fog_only_totals_count(claimer):
    def mirrored(text):
        if claimer == 0:
            return text
        out = []
        for line in text.splitlines():
            i, rest = line.split(":", 1)
            board, _, tags = rest.partition("|")
            a, b = board.split("/")
            out.append(f"{i}: {b.strip()} / {a.strip()}" + (f" | {tags.strip()}" if tags else ""))
        return "\n".join(out)
    assert who_can_claim(mirrored("0: R1 R2 R3 / G9 | fog")) == {}
    assert who_can_claim(mirrored("0: O9 Y9 G8 / B9 | fog")) == {}              # R9 + P9 make 27
    assert who_can_claim(mirrored("0: O9 Y9 G8 / B9 | fog\n1: R9 P9 / -")) == {0: claimer}   # 9+8+8 = 25
    assert who_can_claim(mirrored("0: R1 R2 R3 / G9 B9 Y8 | fog")) == {0: 1 - claimer}
    assert who_can_claim(mirrored("0: R7 R8 R9 / G1 | fog")) == {0: claimer}    # 24: G1 + 9 + 9 = 19


@pytest.mark.parametrize("claimer", [0, 1])
def test_proof_under_mud_needs_four_cards(claimer):
    def side(a, b):
        return f"{a} / {b}" if claimer == 0 else f"{b} / {a}"
    assert who_can_claim(f"0: {side('R7 R8 R9', 'G1')} | mud") == {}
    assert who_can_claim(f"0: {side('R6 R7 R8 R9', 'G1')} | mud") == {0: claimer}
    assert who_can_claim(f"0: {side('R5 O5 G5 B5', 'Y1 Y2 Y3')} | mud") == {}     # Y4 makes 1-2-3-4
    assert who_can_claim(f"0: {side('R5 O5 G5 B5', 'Y1 Y2 Y3')} | mud\n1: Y4 / -") == {0: claimer}
    assert who_can_claim(f"0: {side('R1 R2 R3 R4', 'G9 G8')} | mud fog") == {}    # totals: 10 against 17+
    assert who_can_claim(f"0: {side('R9 O9 G9 B8', 'Y1 Y2 Y3')} | mud fog") == {0: claimer}   # 35 vs <= 15


def test_mud_on_a_complete_stone_reopens_it():
    g = load("""turn 1
                hand0 R1
                hand1 Mud Y9
                0: R7 R8 R9 / G1 G2
                1: - / Y1 Y2 Y3""", "tactics", auto_claim=False)
    turn(g, play("Mud", 0), draw(0))
    assert g.capacity(0) == 4 and not g.can_claim(0, 0)
    assert Action(PLAY, card("R1"), 0) in g.legal_plays(0)


def test_mud_and_fog_on_one_stone_take_four_cards_a_side():
    g = load("""turn 0
                hand0 R1
                0: G1 G2 G3 / - | fog mud""", "tactics")
    assert g.capacity(0) == 4 and play("R1", 0) in g.legal_plays(0)


def test_unplayed_tactic_cards_never_prevent_a_claim():
    g = load("""turn 0
                hand0 R5
                hand1 Chief1 Chief2 Troop Shield Y5
                0: R9 O9 G9 / R1 R2
                1: R3 / -""", "tactics")
    assert g.can_claim(0, 0)   # Chief/Troop/Shield in hand or pile could beat three 9s, but do not count


# ================================================================ setup, turn, draw, pass
def test_first_player_is_seat_0_unless_random():
    assert all(Game(rules(), 5, g).to_move == 0 for g in range(20))
    r = rules(first_player="random")
    firsts = [Game(r, 5, g).to_move for g in range(40)]
    assert set(firsts) == {0, 1}
    assert firsts == [KeyedRng(5, g, deck_stream(2)).below(2) for g in range(40)]
    assert play_game(rules(), 5, 0, [RandomPolicy(), RandomPolicy()]).first == 0
    # the per-game column `first` says who started, in both engines
    kernels, params = [policies.random_policy] * 2, [np.zeros(1)] * 2
    for r_, want in ((rules(), [0] * 40), (r, firsts)):
        for engine in (reference.play_batch, fast.play_batch):
            assert engine(r_, 2, 5, 0, 40, kernels, params).extras["first"].tolist() == want


def test_deal_and_the_two_deck_streams():
    b, t = Game(rules(), 11, 3), Game(rules("tactics"), 11, 3)
    clan = list(range(54))
    KeyedRng(11, 3, deck_stream(0)).shuffle(clan)
    assert b.hands == [sorted(clan[:6]), sorted(clan[6:12])] and b.clan_pile == clan[12:]
    assert (b.hands, b.clan_pile) == (t.hands, t.clan_pile)    # same clan deck with or without tactics
    assert b.tactic_pile == [] and sorted(b.box) == list(C.TACTIC_CARDS)
    tactic = list(C.TACTIC_CARDS)
    KeyedRng(11, 3, deck_stream(1)).shuffle(tactic)
    assert t.tactic_pile == tactic and t.box == []


def test_play_one_card_on_your_side_of_an_open_stone_with_room():
    g = load("""turn 0
                stones 3
                hand0 R1 R2
                0: G1 G2 G3 / -
                1: G4 / O4 O5 O6
                2: - / - | claimed1""", stones=3, total_to_win=3)
    assert g.legal_plays(0) == [play("R1", 1), play("R2", 1)]
    turn(g, play("R2", 1))
    assert names(g.sides[1][0]) == ["G4", "R2"]
    assert names(g.hands[0]) == ["R1", "R3"] and g.to_move == 1   # drew one card: R3 topped the pile


def test_draw_one_card_back_to_six_then_nothing_when_the_pile_is_empty():
    g = load("""turn 0
                hand0 R9 O9 Y9 G9 B9 P9
                hand1 R8 O8 Y8 G8 B8 P8""")
    turn(g, play("R9", 4))
    assert len(g.hands[0]) == 6 and card("R1") in g.hands[0]     # the lowest card left tops the pile
    g = load("""turn 0
                hand0 R9 O9
                hand1 Y9 G9 B9 P9
                clan-pile -
                discard """ + " ".join(C.card_name(c) for c in range(54) if C.value_of(c) < 9))
    turn(g, play("R9", 4))
    assert names(g.hands[0]) == ["O9"] and g.to_move == 1


def test_pass_when_there_is_no_legal_placement():
    text = """turn 0
              stones 3
              hand0 R1 R2
              0: G1 G5 B9 / O1
              1: G2 G6 B8 / O2
              2: G3 G7 P9 / O3"""
    g = load(text, stones=3, total_to_win=3)
    assert g.legal_plays(0) == [Action(PASS)]
    before = list(g.hands[0])
    turn(g)
    assert set(before) <= set(g.hands[0]) and len(g.hands[0]) == 3    # passed, then drew one card
    assert g.cards_played == 0 and g.to_move == 1 and not g.over


def test_no_play_ruling_can_end_the_game_instead():
    g = load("""turn 0
                stones 3
                hand0 R1
                0: G1 G5 B9 / O1
                1: G2 G6 B8 / O2 | claimed1
                2: G3 G7 P9 / O3""", stones=3, total_to_win=3, no_play="blocked")
    turn(g)
    assert g.over and g.end == "blocked" and g.winner == 1


def test_no_play_ruling_ends_the_game_only_when_nothing_but_passing_is_legal():
    g = load("turn 0\nhand0 Fog", "tactics", no_play="blocked")
    assert Action(PASS) in g.legal_plays(0)    # no clan card: may pass, or play the Fog
    turn(g, play("Fog", 0))
    assert not g.over and g.env_cards[0] == [card("Fog")]
    g = load("turn 0\nhand0 -", "tactics", no_play="blocked")
    turn(g)
    assert g.over and g.end == "blocked"


def test_with_tactics_pass_is_allowed_only_when_no_clan_card_can_be_played():
    g = load("turn 0\nhand0 R1 Fog", "tactics")
    assert Action(PASS) not in g.legal_plays(0)
    g = load("turn 0\nhand0 Fog Scout", "tactics")
    legal = g.legal_plays(0)
    assert Action(PASS) in legal and Action(SCOUT, C.SCOUT) in legal and play("Fog", 0) in legal
    g = load("""turn 0
                stones 3
                hand0 R1 Fog
                0: G1 G5 B9 / -
                1: G2 G6 B8 / -
                2: G3 G7 P9 / -""", "tactics", stones=3, total_to_win=3)
    assert g.legal_plays(0) == [play("Fog", 0), play("Fog", 1), play("Fog", 2), Action(PASS)]


def test_with_tactics_draw_from_either_pile_but_not_an_empty_one():
    g = load("turn 0\nhand0 R9 O9 Y9 G9 B9 P9\ntactic-pile Fog", "tactics")
    seen = []

    def decide(seat, phase, legal):
        seen.append((phase, legal))
        return draw(1) if phase == "draw" else play("R9", 0)
    g.play_turn(decide)
    assert seen[1] == ("draw", [draw(0), draw(1)])
    assert card("Fog") in g.hands[0] and g.tactic_pile == []
    seen.clear()
    g.play_turn(decide)                          # seat 1 (empty hand): only the clan pile is left
    assert [p for p, _ in seen] == []            # no choice, no question
    assert len(g.hands[1]) == 1


# ================================================================ claims
CLAIMABLE_AFTER_PLAY = """turn 0
                          hand0 R9 B5
                          hand1 B6
                          0: R7 R8 / G1"""


def test_claims_happen_after_playing_by_default():
    g = load(CLAIMABLE_AFTER_PLAY)
    turn(g, play("R9", 0))
    assert g.claimed[0] == 0


def test_claim_at_start_variant_waits_for_the_next_turn():
    g = load(CLAIMABLE_AFTER_PLAY, claim_timing="start-of-turn")
    turn(g, play("R9", 0))
    assert g.claimed[0] == -1
    turn(g, play("B6", 3))
    assert g.claimed[0] == -1
    claimed_when_deciding = []

    def decide(seat, phase, legal):
        claimed_when_deciding.append(g.claimed[0])
        return play("B5", 1)
    g.play_turn(decide)
    assert claimed_when_deciding == [0]          # claimed at the start, before the play


def test_manual_claims_when_auto_claim_is_off():
    g = load(CLAIMABLE_AFTER_PLAY, auto_claim=False)
    turn(g, play("R9", 0), Action(END_CLAIMS))
    assert g.claimed[0] == -1
    asked = []

    def decide(seat, phase, legal):
        asked.append(phase)
        if phase == PHASE_CLAIM:
            assert legal == [Action(CLAIM, stone=0), Action(END_CLAIMS)]
            return legal[0]
        return legal[0]
    g.play_turn(decide)                           # seat 1 cannot claim stone 0
    g.play_turn(decide)
    assert PHASE_CLAIM in asked and g.claimed[0] == 0


def test_auto_claim_takes_every_provable_stone():
    g = load("""turn 0
                hand0 R9
                0: R7 R8 / G1
                4: O7 O8 O9 / -
                6: Y1 Y5 Y9 / G2 B5 P9""")
    turn(g, play("R9", 0))
    assert [g.claimed[s] for s in (0, 4, 6)] == [0, 0, 0]


# ================================================================ end of the game
def test_three_adjacent_stones_win_at_once():
    g = load("""turn 0
                hand0 R9
                0: R7 R8 / G1
                1: - / - | claimed0
                2: - / - | claimed0""")
    turn(g, play("R9", 0))
    assert (g.over, g.winner, g.end) == (True, 0, "adjacent")
    assert g.result().points == (5, 0)


def test_five_stones_win_at_once():
    g = load("""turn 0
                hand0 R9
                0: R7 R8 / G1
                2: - / - | claimed0
                4: - / - | claimed0
                6: - / - | claimed0
                8: - / - | claimed0
                3: - / - | claimed1""")
    turn(g, play("R9", 0))
    assert (g.winner, g.end) == (0, "five")
    assert g.result().points == (5, 1)


def test_one_claim_completing_both_reports_adjacent():
    g = load("""turn 0
                hand0 R9
                0: - / - | claimed0
                1: - / - | claimed0
                2: R7 R8 / G1
                5: - / - | claimed0
                7: - / - | claimed0""")
    turn(g, play("R9", 2))
    assert (g.winner, g.end) == (0, "adjacent")


BLOCKED = """turn 0
             clan-pile -
             tactic-pile -
             hand0 -
             hand1 -
             0: R1 R2 / G1 G2
             1: - / - | claimed{a}
             2: - / - | claimed{b}
             3: O1 / -
             discard {rest}"""


def blocked_position(a: int, b: int) -> str:
    placed = {card(c) for c in "R1 R2 G1 G2 O1".split()}
    rest = " ".join(C.card_name(c) for c in range(54) if c not in placed)
    return BLOCKED.format(a=a, b=b, rest=rest)


@pytest.mark.parametrize("a,b,winner", [(0, 0, 0), (1, 1, 1), (0, 1, -1)])
def test_blocked_game_more_stones_wins_equal_is_a_draw(a, b, winner):
    g = load(blocked_position(a, b), "tactics")
    turn(g)                       # seat 0 cannot play: pass, nothing to claim or draw
    assert not g.over
    turn(g)                       # seat 1 likewise: the position would repeat forever
    assert (g.over, g.end, g.winner) == (True, "blocked", winner)


def test_blocked_game_ruling_always_a_draw():
    g = load(blocked_position(0, 0), "tactics", blocked_game="draw")
    turn(g)
    turn(g)
    assert (g.end, g.winner) == ("blocked", -1)
    assert g.result().points == (2, 0)   # each player scores like a loser: 1 per stone


def test_a_pass_that_draws_a_card_does_not_count_towards_a_blocked_game():
    text = """turn 0
              hand0 Fog
              hand1 Mud
              tactic-pile -"""
    g = load(text, "tactics")
    turn(g, Action(PASS))                  # passes, then draws a clan card: the position changed
    turn(g, Action(PASS))
    assert not g.over and len(g.hands[0]) == len(g.hands[1]) == 2
    every_clan_card = " ".join(C.card_name(c) for c in range(C.N_CLAN))
    g = load(f"{text}\nclan-pile -\ndiscard {every_clan_card}", "tactics")
    turn(g, Action(PASS))                  # nothing to draw: two such turns block the game
    turn(g, Action(PASS))
    assert g.over and g.end == "blocked"


def test_a_turn_that_changes_something_resets_the_count_towards_a_blocked_game():
    every_clan_card_but_r1 = " ".join(C.card_name(c) for c in range(1, C.N_CLAN))
    g = load(f"""turn 0
                 hand0 Fog
                 hand1 R1
                 clan-pile -
                 tactic-pile -
                 discard {every_clan_card_but_r1}""", "tactics")
    turn(g, Action(PASS))                  # changes nothing
    turn(g, play("R1", 0))                 # changes something
    turn(g, Action(PASS))                  # changes nothing: one such turn only
    assert not g.over
    turn(g)                                # seat 1 can only pass: now two in a row
    assert g.over and g.end == "blocked"


def test_base_game_is_never_blocked():
    for preset in ("base", "base-claim-at-start"):
        for game in range(60):
            res = play_game(rules(preset), 2024, game, [RandomPolicy(), RandomPolicy()])
            assert res.end in ("adjacent", "five") and res.winner in (0, 1)


# ================================================================ tactic cards
def test_tactic_limit_at_most_one_more_than_the_opponent():
    text = """turn 0
              hand0 Fog R1
              tactics-played {a} {b}"""
    assert play("Fog", 0) in load(text.format(a=0, b=0), "tactics").legal_plays(0)
    assert play("Fog", 0) in load(text.format(a=1, b=1), "tactics").legal_plays(0)
    assert play("Fog", 0) not in load(text.format(a=1, b=0), "tactics").legal_plays(0)
    assert play("Fog", 0) in load(text.format(a=1, b=0), "tactics", tactic_limit=2).legal_plays(0)
    g = load(text.format(a=0, b=0), "tactics")
    turn(g, play("Fog", 0), draw(0))
    assert g.tactics_played == [1, 0]
    assert not g.may_play_tactic(0) and g.may_play_tactic(1)


def test_one_chief_per_side_the_second_stays_in_hand():
    g = load("turn 0\nhand0 Chief1 Chief2 R1\nhand1 G1 Fog\ntactic-pile Troop", "tactics")
    legal = g.legal_plays(0)
    assert play("Chief1", 0) in legal and play("Chief2", 0) in legal
    turn(g, play("Chief1", 0), draw(0))
    turn(g, play("Fog", 8), draw(0))                  # seat 1 plays a tactic card too: limit is fine
    assert g.may_play_tactic(0) and g.chief_played[0]
    assert not any(a.card == C.CHIEF_2 for a in g.legal_plays(0))
    # even after the first Chief has left the table
    g.sides[0][0].remove(C.CHIEF_1)
    g.discard.append(C.CHIEF_1)
    assert not any(a.card == C.CHIEF_2 for a in g.legal_plays(0))


def test_a_deserted_chief_still_keeps_the_second_in_hand():
    g = load("turn 1\nhand0 Chief2 R1\nhand1 Deserter G1\n0: Chief1 / -", "tactics")
    turn(g, Action(DESERTER, C.DESERTER, 0, C.CHIEF_1), draw(0))
    assert C.CHIEF_1 in g.discard and g.may_play_tactic(0)
    assert not any(a.card == C.CHIEF_2 for a in g.legal_plays(0))


def test_the_tactic_limit_holds_for_ruses_too():
    g = load("turn 0\nhand0 Deserter Scout R1\ntactics-played 1 0\n0: R2 / G1", "tactics")
    assert {a.kind for a in g.legal_plays(0)} == {PLAY}
    assert {a.card for a in g.legal_plays(0)} == {card("R1")}


def test_morale_cards_are_played_like_clan_cards():
    g = load("""turn 0
                hand0 Troop Shield Chief1
                0: R1 R2 R3 / -
                1: - / - | claimed1""", "tactics")
    for c in ("Troop", "Shield", "Chief1"):
        stones = [a.stone for a in g.legal_plays(0) if a.card == card(c)]
        assert stones == [2, 3, 4, 5, 6, 7, 8]          # not on a full side, not on a claimed stone
    turn(g, play("Troop", 4), draw(0))
    assert g.sides[4][0] == [C.TROOP]


def test_environment_cards_go_under_an_open_stone():
    g = load("""turn 0
                hand0 Fog Mud
                0: R1 R2 R3 / G1 G2 G3 | first1
                1: - / - | claimed1""", "tactics")
    legal = g.legal_plays(0)
    assert [a.stone for a in legal if a.card == C.FOG] == [0, 2, 3, 4, 5, 6, 7, 8]   # even a full stone
    assert [a.stone for a in legal if a.card == C.MUD] == [0, 2, 3, 4, 5, 6, 7, 8]
    turn(g, play("Fog", 2), draw(0))
    assert g.env_cards[2] == [C.FOG] and g.sides[2] == [[], []] and g.fog(2)


def test_fog_changes_who_holds_the_stone():
    g = load("""turn 1
                hand1 Fog
                hand0 B1
                0: R1 R2 R3 / G9 B9
                1: - / Y8""", "tactics")
    turn(g, play("Fog", 0), draw(0))
    turn(g, play("B1", 5), draw(0))
    assert g.claimed[0] == -1                     # seat 0's straight flush is only worth 6 now


def test_mud_gives_room_for_a_fourth_card():
    g = load("""turn 0
                hand0 R4
                0: R1 R2 R3 / G1 | mud""", "tactics")
    assert play("R4", 0) in g.legal_plays(0)
    turn(g, play("R4", 0), draw(0))
    assert g.claimed[0] == 0        # 1-2-3-4 (10): G1's best is G1-G2-G3-G4, a tie completed later


def test_scout_draws_three_then_returns_two_to_the_bottom_of_their_piles():
    g = load("""turn 0
                hand0 Scout R1 R2 R3 R4 R5
                tactic-pile Fog Mud Troop""", "tactics")
    top_clan = g.clan_pile[:2]
    script = [Action(SCOUT, C.SCOUT), draw(0), draw(1), draw(0),
              Action(RETURN, card("R1")), Action(RETURN, card("Fog"))]
    turn(g, *script)
    assert C.SCOUT in g.discard and g.tactics_played == [1, 0]
    assert sorted(g.hands[0]) == sorted([card(c) for c in "R2 R3 R4 R5".split()] + top_clan)
    assert g.clan_pile[-1] == card("R1") and g.tactic_pile == [C.MUD, C.TROOP, C.FOG]
    assert len(g.hands[0]) == 6 and g.to_move == 1     # back to 6: no end-of-turn draw


def test_redeploy_moves_or_discards_a_card_of_your_own_side():
    text = """turn 0
              hand0 Redeploy
              tactics-played 1 1
              0: R5 Troop / G1
              1: - / O1 O2 O3
              2: B1 B2 B3 / -
              3: - / - | claimed0"""
    g = load(text, "tactics")
    legal = [a for a in g.legal_plays(0) if a.kind == REDEPLOY]
    r = C.REDEPLOY
    assert Action(REDEPLOY, r, 0, card("R5"), -1) in legal
    assert Action(REDEPLOY, r, 0, C.TROOP, 1) in legal                  # tactic cards too
    assert {a.dest for a in legal if a.stone == 0} == {-1, 1, 4, 5, 6, 7, 8}   # not 0, full 2, claimed 3
    assert all(a.stone in (0, 2) for a in legal)
    turn(g, Action(REDEPLOY, r, 0, card("R5"), 1), draw(0))
    assert g.sides[1][0] == [card("R5")] and g.sides[0][0] == [C.TROOP] and g.discard == [r]
    g = load(text, "tactics")
    turn(g, Action(REDEPLOY, r, 2, card("B2"), -1), draw(0))
    assert g.discard == [r, card("B2")] and names(g.sides[2][0]) == ["B1", "B3"]
    only_discard = load(text, "tactics", redeploy="discard")
    assert {a.dest for a in only_discard.legal_plays(0) if a.kind == REDEPLOY} == {-1}


def test_deserter_discards_a_card_of_the_opponents_side():
    g = load("""turn 0
                hand0 Deserter
                0: R1 / Chief1 G5
                1: - / O1 | claimed1""", "tactics")
    legal = [a for a in g.legal_plays(0) if a.kind == DESERTER]
    assert legal == [Action(DESERTER, C.DESERTER, 0, C.CHIEF_1), Action(DESERTER, C.DESERTER, 0, card("G5"))]
    turn(g, legal[0], draw(0))
    assert g.sides[0][1] == [card("G5")] and g.discard == [C.DESERTER, C.CHIEF_1]


def test_traitor_takes_a_clan_card_only_to_another_stone_of_yours():
    g = load("""turn 0
                hand0 Traitor
                0: R1 / Troop G5
                1: - / O1 | claimed1
                2: B1 B2 B3 / -""", "tactics")
    legal = [a for a in g.legal_plays(0) if a.kind == TRAITOR]
    assert {a.target for a in legal} == {card("G5")}                   # not the Troop, not O1 (claimed)
    assert {a.dest for a in legal} == {3, 4, 5, 6, 7, 8}                # not 0 itself, claimed 1, full 2
    turn(g, Action(TRAITOR, C.TRAITOR, 0, card("G5"), 5), draw(0))
    assert g.sides[5][0] == [card("G5")] and g.sides[0][1] == [C.TROOP] and g.discard == [C.TRAITOR]


def test_no_tactic_card_can_touch_a_claimed_stone():
    g = load("""turn 0
                hand0 Fog Mud Redeploy Deserter Traitor Chief1
                0: R1 R2 R3 / G1 G2 | claimed0
                1: O4 / Y4""", "tactics")
    for a in g.legal_plays(0):
        assert a.stone != 0 and a.dest != 0, a


def test_ruse_needing_a_target_is_not_playable_without_one():
    g = load("turn 0\nhand0 Redeploy Deserter Traitor R1", "tactics")
    assert {a.kind for a in g.legal_plays(0)} == {PLAY}


# ================================================================ whole games, matches, information
def test_games_are_reproducible_and_count_cards_played():
    r = rules("tactics")
    g = Game(r, 9, 4)
    a = play_game(r, 9, 4, [RandomPolicy(), RandomPolicy()], record=True, game_state=g)
    b = play_game(r, 9, 4, [RandomPolicy(), RandomPolicy()], record=True)
    assert a == b
    # the log skips forced moves (one legal action), so it gives a lower bound; the table is exact
    plays = [x for x in a.log if x[2] == PHASE_PLAY and x[3].kind != PASS]
    out = [c for s in g.sides for x in s for c in x] + [c for e in g.env_cards for c in e] + g.discard
    assert a.cards_played >= len(plays) and a.cards_played == len(out)
    assert a.clan_cards_played == sum(c < C.N_CLAN for c in out) > 0
    # (on this deal no tactic card of seat 0 was a forced move, so its log count is exact)
    assert a.tactics_played[0] == sum(x[3].card >= C.N_CLAN for x in plays if x[1] == 0) > 0
    assert play_game(r, 9, 5, [RandomPolicy(), RandomPolicy()], record=True).log != a.log


def test_observation_shows_only_what_the_seat_may_see():
    g = Game(rules("tactics"), 3, 1)
    obs = g.observation(0)
    assert obs.hand == tuple(sorted(g.hands[0]))
    fields = obs.__dataclass_fields__
    assert "hands" not in fields and "deck" not in fields
    assert obs.clan_pile == len(g.clan_pile) and obs.tactic_pile == len(g.tactic_pile)
    assert obs.hand_sizes == (6, 6)
    # swapping the opponent's hand with pile cards changes nothing seat 0 sees
    other = Game(rules("tactics"), 3, 1)
    other.hands[1], other.clan_pile[:6] = other.clan_pile[:6], other.hands[1]
    assert other.observation(0) == obs
    assert set(obs.unseen_clan_cards()) == set(g.hidden_clan_cards()) - set(g.hands[0])


def test_policies_get_legal_actions_and_illegal_answers_are_reported():
    with pytest.raises(StrategyError):
        play_game(rules(), 1, 0, [lambda obs, legal: Action(PLAY, 0, 99), first_legal])
    res = play_game(rules(), 1, 0, [first_legal, lambda obs, legal: tuple(legal[-1])])
    assert res.winner in (0, 1)


def test_match_scoring_and_the_winner_starts_the_next_game():
    m = play_match(rules(), 77, 0, 6, [RandomPolicy(), RandomPolicy()])
    assert m.results[0].first == 0
    for prev, nxt in zip(m.results, m.results[1:]):
        assert nxt.first == prev.winner
    for r in m.results:
        loser = 1 - r.winner
        assert r.points[r.winner] == 5 and r.points[loser] == r.stones[loser]
    assert m.points == [sum(r.points[s] for r in m.results) for s in (0, 1)]


def test_after_a_drawn_game_the_other_player_starts():
    m = play_match(rules("tactics", no_play="blocked", blocked_game="draw"), 3, 0, 40,
                   [RandomPolicy(), RandomPolicy()])
    draws = [(prev, nxt) for prev, nxt in zip(m.results, m.results[1:]) if prev.winner == -1]
    assert draws and all(nxt.first == 1 - prev.first for prev, nxt in draws)


def test_play_batch_shape():
    b = play_policy_batch(rules("tactics"), 3, 10, 4, [RandomPolicy(), RandomPolicy()])
    assert b.scores.shape == (4, 2) and (b.shares.sum(axis=1) == 1).all()
    assert set(b.extras) == {"cards_played", "turns", "end", "proof_claims", "tactics_drawn0",
                             "tactics_drawn1", "tactics_played0", "tactics_played1", "first"}


# ================================================================ notation
def test_notation_round_trip_and_reload():
    g = Game(rules("tactics"), 21, 2)
    play_game(g.rules, 21, 2, [RandomPolicy(), RandomPolicy()], game_state=g)
    text = format_position(g.position())
    assert format_position(parse_position(text)) == text
    h = Game.from_position(g.rules, text)
    assert format_position(h.position()) == text
    assert (h.locations() == g.locations()).all()
    for s in range(9):
        if g.is_open(s):
            for seat in (0, 1):
                assert h.can_claim(s, seat) == g.can_claim(s, seat)


def test_notation_rejects_bad_positions():
    with pytest.raises(UsageError):
        parse_position("0: R1 R1 / -")
    with pytest.raises(UsageError):
        parse_position("0: R1 Fog / -")
    with pytest.raises(UsageError):
        parse_position("0: R1 R2 R3 R4 / -")
    with pytest.raises(UsageError):
        parse_position("0: R1 / G1 | sunny")
    p = parse_position("# a comment\n3: R1 / Chief1 | mud claimed1  # trailing")
    assert isinstance(p, Position) and p.env[3] == [C.MUD] and p.claimed[3] == 1
    assert p.tactics_played == [0, 1] and p.chief_played == [False, True]


def test_the_documented_example_position():
    import sim.schotten_totten.notation as N
    example = N.__doc__.split("Example", 1)[1].split("\n\n")[1]
    p = parse_position(example)
    assert p.hands[1] is None and p.tactics_played == [1, 0] and p.first_complete[2] == 1
    assert who_can_claim(p) == {0: 0, 2: 1}
    g = Game.from_position(rules("tactics"), p)
    assert g.tactic_pile == [C.MUD, C.TRAITOR] and len(g.box) == 10 - 2 - 3   # not Chief1, Scout, Fog


def test_who_can_claim_answers_for_both_seats():
    text = """0: R7 R8 R9 / G1
              1: B1 / Y4 Y5 Y6 | claimed1
              2: O2 O3 O4 / P2 P3
              3: Chief1 G8 / G2 G3 G4"""
    # stone 2: P1 would give 6, P4 9 = 9 (a tie, completed later); stone 3: Chief1 G8 may still become 7-8-9
    assert who_can_claim(text) == {0: 0, 2: 0}
