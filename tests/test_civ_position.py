"""The CIV position notation (sim/civ/notation.py) and `meeplelab position civ`: round trips on the
positions of real seeded games (text, position and the deciding seat's observation) and of the
playthrough files, every check's error naming its line and what is allowed, the game built at a
position, strategy choices on hand-built positions, and the command's output and exit codes."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.civ import notation as N
from sim.civ import observation as O
from sim.civ.cards import AGE_OF, DOMAIN_TOTALS, N_DOMAINS
from sim.civ.invariants import check_state
from sim.civ.reference import Game
from sim.civ.rules import CivRules
from sim.core.errors import UsageError
from sim.core.kernels import random_choice
from sim.core.reference import Decider
from strategies import civ_position as positions
from test_civ_invariants import lineup, setups
from test_cli import assert_usage_error
from test_schotten_totten_position import PLUGIN as ST_PLUGIN

pytestmark = pytest.mark.usefixtures("clean_registry")

RULES = CivRules.preset()
PLAYTHROUGHS = Path(__file__).parent / "playthroughs"

# 4 players, turn 9 (every seat has had two turns), seat 0 to play; all of Age I's cards placed
# so far are within the table, the Embargo on seat 2 was laid by seat 3 on turn 8
BASE = """civ 4 players
0: hand M1 R1 K1; play M2 A1
1: hand R2 E1; play R1 E1
2: hand M1 K2; play K1 A1; embargo M1
3: hand M2 A1; play M1
discard R1 E1; deck 81; coin -
turn 9: seat 0; first 0
"""

# seat 0 holds a Science card with six in play: playing it wins by Hegemony (7 at 4 players)
WIN_NOW = """0: hand M1 K1 A1; play K6
1: hand R3; play M1
2: hand M3; play R1
3: hand E3; play A1
discard M3 R4 E1 A2
turn 13: seat 0; first 0
"""


def error_of(text: str, rules=RULES) -> str:
    with pytest.raises(UsageError) as e:
        N.parse_position(text, rules)
    return str(e.value)


def defined_fields(obs: np.ndarray, players: int) -> list:
    """The observation's fields the notation carries, by name (a block other work adds to the
    observation later is not compared)."""
    n = int(obs[O.N_LEGAL])
    parts = [obs[:O.OWN_HAND], obs[O.OWN_HAND:O.DRAFT + N_DOMAINS], obs[O.LEGAL:O.LEGAL + n]]
    for s in range(players):
        at = O.SEATS + O.SEAT_BLOCK * s
        parts.append(obs[at + O.S_HAND_N:at + O.S_COUNT + N_DOMAINS])
    return [list(x) for x in parts]


def play_recording(rules, players, seed, game, at_decision, kernels=None, params=None):
    """A reference game (as play_game plays it, between random strategies unless kernels are
    given); at_decision(g, seat, decision, obs) before each play and effect decision with no
    effect in progress."""
    g = Game(rules, players, seed, game)
    decide = Decider(kernels or [random_choice] * players, params or [np.zeros(1)] * players, seed, game,
                     players)

    def watching(seat, obs, where):
        decision = int(obs[O.DECISION])
        if decision in (O.D_PLAY, O.D_EFFECT) and g.t is not None and g.t.effect == -1:
            at_decision(g, seat, decision, obs)
        return decide(seat, obs, where)

    g.setup(watching)
    while not g.over:
        g.play_turn(watching)
    return g


# ================================================================ round trips on real games
RULE_SETS = {
    "classic": {}, "draft": dict(setup="draft"), "teams": dict(teams=True, attack_hits_teammate=False),
    "rulings": dict(art_tie="keep", embargo_card_counts=True, democracy_card_counts=True, copy_uses_slot=False,
                    copies_per_turn=2, leap_takes_discard=True, first_player="random", art_min_cards=2,
                    hegemony_in_final_round=False, embargo_blocks_effects=True),
    "short": dict(hegemony_more=5, hegemony_two=5, level1_small=1, level2_small=2, level1_four=1, level2_four=2,
                  hand_level1=4, hand_level2=6, removed_per_age=1),
}


@pytest.mark.parametrize("name", RULE_SETS)
def test_every_play_and_effect_decision_of_a_real_game_round_trips(name):
    rules = RULES.replace(**RULE_SETS[name])
    seen = set()
    for players in ((4,) if rules.teams else (2, 3, 4)):
        def at_decision(g, seat, decision, obs):
            p = N.from_game(g, seat, decision)
            text = N.format_position(p)
            again = N.parse_position(text, rules)
            assert again == p, text
            assert N.format_position(again) == text
            at = N.decision_at(again, rules, seed=5)
            assert at.decision == decision
            assert defined_fields(at.observation(), players) == defined_fields(obs, players), text
            seen.add((decision, p.turn.started and bool(p.turn.permanent or p.turn.sacrifice)))

        g = play_recording(rules, players, seed=2, game=players, at_decision=at_decision)
        end = N.from_game(g)
        assert N.parse_position(N.format_position(end), rules) == end
    assert seen >= {(O.D_PLAY, False), (O.D_EFFECT, False), (O.D_EFFECT, True)}


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), seed=st.integers(0, 2**32), game=st.integers(0, 10**6))
def test_positions_of_games_under_drawn_rules_and_strategies_round_trip(setup, seed, game):
    """Every reachable position passes the checks (none refuses a real game's position)."""
    rules, players, specs = setup
    kernels, params = lineup(specs, rules, players, seed)

    def at_decision(g, seat, decision, obs):
        p = N.from_game(g, seat, decision)
        again = N.parse_position(N.format_position(p), rules)
        assert again == p
        assert defined_fields(N.decision_at(again, rules, seed).observation(), players) == \
            defined_fields(obs, players)

    g = play_recording(rules, players, seed, game, at_decision, kernels, params)
    assert N.parse_position(N.format_position(N.from_game(g)), rules) == N.from_game(g)


def playthrough_positions(path: Path):
    """(position text, the decision line after it) for every position of a playthrough file."""
    block, out = [], []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            continue
        if line.startswith("seat "):
            if block:
                out.append(("\n".join(block) + "\n", line))
            block = []
        else:
            block.append(line)
    return out + [("\n".join(block) + "\n", None)]


@pytest.mark.parametrize("preset", sorted(CivRules.PRESETS))
def test_the_positions_a_playthrough_prints_read_back_with_the_decision_that_follows(preset):
    rules = CivRules.preset(preset)
    found = playthrough_positions(PLAYTHROUGHS / f"civ-{preset}.txt")
    assert len(found) > 30
    for text, decision_line in found:
        p = N.parse_position(text, rules)
        assert N.format_position(p, header=False) == text
        if decision_line is None:                     # the end
            assert p.turn is None
            continue
        at = N.decision_at(p, rules)
        m = re.match(r"seat (\d+) \(([a-z-]+)\): (.*)$", decision_line)
        assert int(m.group(1)) == p.turn.seat and m.group(2) == O.DECISION_NAMES[at.decision]
        # a Leap's draws are the deck's next cards, which a position does not hold
        offered = [without_draws(a) for a in positions.legal_table(p, rules)["action"]]
        assert without_draws(m.group(3)) in offered, decision_line


def without_draws(words: str) -> str:
    return words.split(", draws")[0]


# ================================================================ the format
def test_the_example_of_the_docstring_parses_and_round_trips():
    example = N.__doc__.split("Example")[1].split("A line holds")[0]
    text = "\n".join(line[4:] for line in example.splitlines()[4:]).strip() + "\n"
    p = N.parse_position(text, RULES)
    assert p.players == 4 and p.turn.seat == 1 and p.turn.started and p.seats[3].unknown == 3
    assert p.turn.permanent == (0, 2) and p.turn.sacrifice == (2,) and p.coin == 1
    assert N.format_position(p) == text


def test_defaults_comments_lowercase_letters_and_parts_over_several_lines():
    text = ("# a start\n0: hand m1 r1 a1  # seat 0\n0: play -\n1: hand R1 E1 K1\n2: hand A2 M1\n"
            "3: hand K3\nturn 1: seat 0\n")
    p = N.parse_position(text, RULES)
    assert p.deck == 104 - 12 and p.box == 0 and p.coin == -1 and p.turn.first == 0 and not p.final
    assert N.format_position(p) == ("civ 4 players\n0: hand M1 R1 A1; play -\n1: hand R1 E1 K1; play -\n"
                                    "2: hand M1 A2; play -\n3: hand K3; play -\ndiscard -; deck 92; coin -\n"
                                    "turn 1: seat 0; first 0\n")
    three = N.parse_position(text.replace("3: hand K3\n", ""), RULES)
    assert three.box == 9 and three.deck == 104 - 9 - 9 and "box 9" in N.format_position(three)


def test_the_coin_and_the_final_round_are_filled_in():
    p = N.parse_position(replaced(BASE, ("; coin -", ""), ("2: hand M1 K2; play K1 A1", "2: hand M1 K1; play K1 A2")),
                         RULES)
    assert p.coin == 2                                  # seat 2's strict Art majority
    end = "0: hand -; play M5 A1\n1: hand R1; play K4\ndiscard M12 R12 E13 K16 A15 U16; deck 0\n"
    p = N.parse_position(end, RULES)
    assert p.final and p.box == 9 and p.turn is None    # the deck ran out: the final round


# ================================================================ errors: the line and what is allowed
@pytest.mark.parametrize("text, words", [
    ("0: hand X1\n1: hand M1\n", ["line 1", "'X1' is not a Domain letter", "M Military, R Religion, E Economy, "
                                  "K Science, A Art, U Utopia", "?N for N cards"]),
    ("0: hand M0\n1: hand M1\n", ["M0: 0 Military cards", "allowed: 1 to 20"]),
    ("0: hand M1 M2\n1: hand M1\n", ["Military (M) given twice"]),
    ("0: hand M1; play ?2\n1: hand M1\n", ["seat 0's play", "allowed only in a hand"]),
    ("0: hand M1 ?\n1: hand M1\n", ["'?' and a count"]),
    ("0: hand M1; tower R1\n1: hand M1\n", ["unknown part 'tower'", "hand, play, embargo, democracy"]),
    ("0: hand M1\n1: hand M1\nwhatever 3\n", ["line 3", "unknown statement 'whatever'", "discard, deck"]),
    ("0: hand M1\n1: hand M1\n0: hand R1\n", ["line 3", "seat 0: hand given twice (first on line 1)"]),
    ("0: hand M1\n1: hand M1\ndeck 90; deck 91\n", ["'deck' given twice"]),
    ("7: hand M1\n", ["'7' is not a seat", "0 to 3"]),
    ("1: hand M1\n", ["seat 0 is missing"]),
    ("0: hand M1\n1: play M1\n", ["seat 1 has no hand", "'hand -'", "'hand ?3'"]),
    ("0: hand M1\n", ["1 seat", "2 to 4 players"]),
    ("", ["no seat"]),
    ("civ 3 players\n0: hand M1\n1: hand M1\n", ["line 1", "the header says 3 players, but there are 2 seat lines"]),
    ("civ four\n0: hand M1\n1: hand M1\n", ["the header is 'civ', 'civ N players'"]),
    ("0: hand M1\n1: hand M1\nturn 3 seat\n", ["expected 'turn T: seat S'"]),
    ("0: hand M1\n1: hand M1\nplayed M\n", ["'played' belongs to a turn"]),
    ("0: hand M1\n1: hand M1\nturn 2: seat 1; permanent M\n", ["'permanent' tells the turn in progress", "played -"]),
    ("0: hand M1\n1: hand M1\nturn 2: seat 1; played M; sacrifice A\n", ["'A' is not allowed", "Art has no"]),
    ("0: hand M1\n1: hand M1\nturn 2: seat 1; played Z\n", ["played: expected the Domain letter"]),
    ("0: hand M1\n1: hand M1\ncoin x\n", ["coin: 'x' is not a seat"]),
    ("0: hand M1\n1: hand M1\nfinal\n", ["expected 'final round'"]),
    ("0: hand M1\n1: hand M1\ndeck many\n", ["deck: 'many' is not a number from 0 to 104"]),
])
def test_reading_errors_name_the_line_and_what_is_allowed(text, words):
    message = error_of(text)
    assert message.startswith("civ position")
    for w in words:
        assert w in message, (w, message)


def replaced(text: str, *pairs) -> str:
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    return text


# a 2-player game well into Age III: the Democracy cards under seat 0 were laid on turn 2
AGE3 = """0: hand M3; democracy K1
1: hand R3
discard M16 R13 E8 K12 A8
turn 3: seat 0; first 0
"""

# 3 players, turn 5: seat 0 has had its turns (0 and 3) and holds seven Science cards in play
SEVEN = """0: hand M3; play K7
1: hand R3
2: hand A3
discard M5 R6 E8 A5
turn 5: seat 1; first 0
"""


@pytest.mark.parametrize("text, words", [
    # the 104 cards
    ("0: hand M20 R16 E16 K20\n1: hand A16 U16 M1\n", ["holds 114 cards", "hands 105", "box 9", "the game has 104"]),
    (replaced(BASE, ("deck 81", "deck 80")), ["line 6", "holds 103 cards", "discard 2, deck 80, box 0",
                                              "the deck holds 81"]),
    ("0: hand K12\n1: hand K9\n", ["shows 21 Science cards, but the game has 20"]),
    (replaced(BASE, ("discard R1 E1; deck 81", "discard R1 E1 U1; deck 80")),
     ["shows 1 Utopia cards out of the deck", "Age I and Age II hold 0 Utopia",
      "only 0 cards of Age III have left the deck", "stacked Age I on top", "by Age: Age I 24; Age II 0"]),
    (replaced(BASE, ("discard R1 E1", "discard R1 E1 K1"), ("deck 81", "deck 80")),
     ["shows 5 Science cards out of the deck, but Age I holds 4 Science"]),
    ("0: hand M1\n1: hand M1\n2: hand M1\n3: hand M1\ndeck 100\n", ["line 5", "deck 100: 4 cards have left the deck",
                                                                    "the classic deal alone takes 12"]),
    ("0: hand M1\n1: hand M1\n", ["(deck 93 once these cards are placed) 2 cards have left the deck"]),
    ("0: hand M1\n1: hand M1\n2: hand M1\nbox 6\n", ["box 6", "3 cards of each Age in the box",
                                                    "removal_players = 2, 3", "box 9"]),
    # the coin
    (replaced(BASE, ("coin -", "coin 0")), ["coin 0", "seat 0 1, seat 1 0, seat 2 1, seat 3 0",
                                            "tied for the most", "nobody holds it (art_tie = nobody): coin -"]),
    (replaced(BASE, ("coin -", "coin 3")), ["coin 3: the Art cards"]),
    (replaced(BASE, ("coin -", "coin 3"), ("2: hand M1 K2; play K1 A1", "2: hand M1 K1; play K1 A2")),
     ["seat 2 has the most Art cards, so it holds it (a strict majority)"]),
    # the turn
    (replaced(BASE, ("coin -", "coin -; final round")), ["final round: the final round begins when the deck runs "
                                                         "out, and deck is 81"]),
    (replaced(BASE, ("turn 9: seat 0", "turn 9: seat 1")), ["line 7", "clockwise from the first player (seat 0), "
                                                            "so turn 9 is seat 0's"]),
    (replaced(BASE, ("turn 9: seat 0; first 0", "turn 11: seat 2; first 0; played M")),
     ["an Embargo lies on seat 2's Military, so it could not play that Domain"]),
    (replaced(BASE, ("first 0", "first 0; played M; permanent M; copies 2")), ["copies 2: the rules allow 1 a turn"]),
    (replaced(BASE, ("first 0", "first 0; played M; copies 1")), ["a copy uses the permanent slot",
                                                                  "copy_uses_slot"]),
    (replaced(BASE, ("first 0", "first 0; played M; permanent R; copies 1; copied-hand 6")),
     ["copied-hand 6: a copied Holy Book gives 5, a copied Divine Right 7"]),
    (replaced(BASE, ("first 0", "first 0; played M; copied-hand 5")), ["a copied hand size needs a copy"]),
    (replaced(BASE, ("first 0", "first 0; played M; permanent M; copies 1; copied-hand 5")),
     ["write 'permanent R'"]),
    (replaced(BASE, ("first 0", "first 0; played M; permanent R")), ["Religion's permanent effects are passive"]),
    (replaced(BASE, ("first 0", "first 0; played M; sacrifice E"), ("; embargo M1", ""), ("E1; deck", "E2; deck")),
     ["sacrifice E: seat 0's Embargo card of this turn lies on another seat"]),
    (replaced(BASE, ("first 0", "first 0; played M; sacrifice U")), ["no other seat has one (democracy ...)"]),
    # what the turns allow
    ("0: hand M3; play M1\n1: hand R3\n2: hand K2\n3: hand A3\nturn 2: seat 1\n",
     ["line 3", "seat 2 has not had a turn yet (turn 2, first player seat 0)", "its 3 starting cards",
      "its hand has 2"]),
    ("0: hand M3; play M1\n1: hand R3\n2: hand K3\n3: hand A3; play A1\nturn 2: seat 1\n",
     ["line 4", "seat 3 has not had a turn yet", "its play area holds nothing"]),
    (replaced(BASE, ("embargo M1", "embargo M2"), ("discard R1 E1", "discard R1")),
     ["line 4", "seat 2: 2 Embargo card(s), but each turn places at most one", "only 1 turn(s) were played since "
                                                                                "its last turn"]),
    (replaced(AGE3, ("democracy K1", "democracy K2")), ["seat 0: 2 Democracy card(s)", "only 1 turn(s) were played "
                                                                                       "by the other seats"]),
    (SEVEN, ["line 1", "seat 0 has 7 Science cards, and Hegemony takes 7 (7 at 3 players",
             "it would have won at the end of its last turn"]),
])
def test_checking_errors_name_the_line_and_what_is_allowed(text, words):
    message = error_of(text)
    assert message.startswith("civ position")
    for w in words:
        assert w in message, (w, message)


def test_the_checks_follow_the_rules():
    keep = RULES.replace(art_tie="keep")
    assert N.parse_position(replaced(BASE, ("coin -", "coin 0")), keep).coin == 0   # a tied holder keeps it
    assert "only one of them may keep it: coin 0 or coin 2 or coin -" in error_of(
        replaced(BASE, ("coin -", "coin 1")), keep)
    assert "nobody has the 2 Art card(s) needed" in error_of(replaced(BASE, ("coin -", "coin 0")),
                                                              RULES.replace(art_min_cards=2))
    assert N.parse_position(AGE3, RULES).seats[0].democracy[3] == 1
    assert N.parse_position(SEVEN, RULES.replace(hegemony_more=8)).turn.seat == 1
    no_copy_slot = RULES.replace(copy_uses_slot=False)
    assert N.parse_position(replaced(BASE, ("first 0", "first 0; played M; copies 1")), no_copy_slot).turn.copies == 1
    teams = CivRules.preset("civ-teams")
    assert "needs 4 seats" in error_of("0: hand M1\n1: hand M1\n2: hand M1\n", teams)
    assert "the header says teams, but the rules are not team play" in error_of(
        "civ 4 players teams\n0: hand M1\n1: hand M1\n2: hand M1\n3: hand M1\n")
    assert N.parse_position(BASE, teams).teams
    draft = RULES.replace(setup="draft")
    assert "14 cards have left the deck, but the draft deal alone takes 16" in error_of(
        "0: hand M3; play M1\n1: hand R3; play R1\n2: hand K3\n3: hand A3\n", draft)
    first = "0: hand M3; play M1\n1: hand R3; play R1\n2: hand K3; play K1\n3: hand A3; play A1\nturn 1: seat 0\n"
    assert N.parse_position(first, draft).deck == 88
    assert "its play area holds nothing" in error_of(first)


# ================================================================ the game at a position
def test_the_game_at_a_position_places_every_card_and_deals_the_unknown_ones_by_the_seed():
    text = replaced(WIN_NOW, ("1: hand R3", "1: hand ?3"), ("3: hand E3", "3: hand E1 ?2"))
    p = N.parse_position(text, RULES)
    games = [N.game_at(p, RULES, seed) for seed in range(8)]
    for g in games:
        check_state(g)                                      # the engine's invariants hold at a position
        assert g.domain_census() == list(DOMAIN_TOTALS) and g.deck_left() == p.deck
        ages = [AGE_OF[c] for c in g.deck[g.top:]]
        assert ages == sorted(ages) and ages[0] == 1       # Age I is out: Age II on top
        assert sum(g.hand[1]) == 3 and sum(g.hand[3]) == 3 and g.hand[3][2] >= 1
    assert len({tuple(g.hand[1]) for g in games}) > 1       # dealt by the seed
    assert N.game_at(p, RULES, 3).hand == games[3].hand
    seen = [defined_fields(N.decision_at(p, RULES, seed).observation(), 4) for seed in range(4)]
    assert all(x == seen[0] for x in seen)                  # seat 0 sees none of the dealt cards


def test_the_box_holds_three_cards_of_each_age_at_three_players():
    g = N.game_at(N.parse_position(SEVEN.replace("play K7", "play K6"), RULES), RULES)
    assert sorted(AGE_OF[c] for c in g.box) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert g.domain_census() == list(DOMAIN_TOTALS)


def test_a_decision_needs_a_turn_line_and_a_known_hand():
    with pytest.raises(UsageError, match="no decision: add the turn line"):
        N.decision_at("0: hand M3\n1: hand R3\n", RULES)
    with pytest.raises(UsageError, match="seat 0 is on turn, so its hand must be known"):
        N.decision_at(replaced(WIN_NOW, ("hand M1 K1 A1", "hand ?3")), RULES)


def test_nothing_playable_puts_the_seat_at_its_effect_decision():
    # seat 2 holds Military and Science, and Embargo cards lie on both
    text = replaced(BASE, ("turn 9: seat 0; first 0", "turn 11: seat 2; first 0"), ("embargo M1", "embargo M1 K1"),
                    ("discard R1 E1", "discard R1"))
    p = N.parse_position(text, RULES)
    at = N.decision_at(p, RULES)
    assert at.decision == O.D_EFFECT and at.game.t.played == -1 and not p.turn.started
    assert "played -" in N.format_position(N.from_game(at.game, at.seat, at.decision))


# ================================================================ strategies
@pytest.mark.parametrize("spec", ["greedy", "majority", "domain-focus:domain=art"])
def test_the_built_in_strategies_play_the_card_that_wins_by_hegemony_then_stop(spec):
    first = positions.choices(WIN_NOW, [spec], RULES)
    assert list(first.columns) == ["strategy", "seat", "action", "legal_actions"]
    assert first.loc[0, "action"] == "plays Science" and first.loc[0, "legal_actions"] == 3
    after = replaced(WIN_NOW, ("hand M1 K1 A1; play K6", "hand M1 A1; play K7"), ("first 0", "first 0; played K"))
    actions = list(positions.legal_table(after, RULES)["action"])
    assert actions[:3] == ["stops", "uses Experiment (Science level 1)", "uses Research (Science level 2)"]
    assert len(actions) == 4 and actions[3].startswith("sacrifices Science: Technological Leap, draws ")
    assert positions.choices(after, [spec], RULES).loc[0, "action"] == "stops"


def test_a_strategy_choice_is_seeded():
    first = positions.choices(BASE, ["random", "random"], RULES, seed=3)
    assert first.loc[0, "action"] == first.loc[1, "action"]
    assert positions.choices(BASE, ["random"], RULES, seed=3).equals(first.iloc[:1])
    picks = {positions.choices(BASE, ["random"], RULES, seed=s).loc[0, "action"] for s in range(12)}
    assert picks == {"plays Military", "plays Religion", "plays Science"}


def test_the_legal_table_names_each_effect_and_what_follows():
    text = replaced(BASE, ("first 0", "first 0; played M"), ("0: hand M1 R1 K1; play M2 A1", "0: hand R1 K1; play M4 A1"),
                    ("deck 81", "deck 80"))
    table = positions.legal_table(text, RULES)
    rows = dict(zip(table["action"], table["then"]))
    assert rows["uses Assassination (Military level 1)"] == "discard 1 card(s) from the hand"
    assert rows["uses Purge (Military level 2)"] == "discard 2 card(s) from the hand"
    assert rows["sacrifices Military: Attack"] == "then a Domain: Military, Art"
    embargo = replaced(text, ("0: hand R1 K1; play M4 A1", "0: hand R1 K1; play M3 E1 A1"), ("1: hand R2 E1",
                                                                                              "1: hand R2 M1"))
    table = positions.legal_table(embargo, RULES)
    rows = dict(zip(table["action"], table["then"]))
    assert rows["sacrifices Economy: Embargo"] == "then a target: seat 1 R E; seat 2 K A; seat 3 M"


# ================================================================ the command
def test_cli_position_civ_with_strategies(cli, tmp_path):
    (tmp_path / "p.txt").write_text(WIN_NOW)
    result = cli("position", "civ", "p.txt", "-s", "greedy", "-s", "random", "--seed", 4)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("civ position, 4 seats, rules civ-classic\nLevel 1 at 2 cards, Level 2 at 4; "
                          "Hegemony at 7")
    for fragment in ("Science", "6 L2", "legal actions of seat 0", "plays Science", "turn 13: seat 0 to move "
                     "(the play decision), first player seat 0", "legal_actions", "Art coin: seat 3"):
        assert fragment in out, fragment
    assert re.search(r"greedy\s+0\s+plays Science\s+3", out)
    assert cli("position", "civ", "p.txt", "-s", "greedy", "-s", "random", "--seed", 4).stdout == out


def test_cli_position_civ_reads_stdin_and_a_teams_header_picks_the_team_rules(cli):
    from click.testing import CliRunner

    from meeplelab.cli import main
    result = CliRunner().invoke(main, ["position", "civ", "-"], input="0: hand M1 R2\n1: hand K3\n")
    assert result.exit_code == 0, result.output
    assert "civ position, 2 seats, rules civ-classic" in result.stdout and "legal actions" not in result.stdout
    teams = "civ 4 players teams\n" + "".join(f"{s}: hand {'MR'[s % 2]}3\n" for s in range(4)) + "turn 1: seat 0\n"
    result = CliRunner().invoke(main, ["position", "civ", "-"], input=teams)
    assert result.exit_code == 0, result.output
    assert "rules civ-teams" in result.stdout


PLUGIN = ST_PLUGIN.replace('"schotten-totten"', '"civ"')


def test_cli_position_civ_with_a_plugin_and_a_broken_one(cli, tmp_path):
    (tmp_path / "p.txt").write_text(WIN_NOW)
    (tmp_path / "good.py").write_text(PLUGIN.replace("{n_legal}", f"obs[{O.N_LEGAL}] - 1"))
    result = cli("position", "civ", "p.txt", "--plugin", "good.py", "-s", "last-action")
    assert result.exit_code == 0, result.output
    assert re.search(r"last-action\s+0\s+plays Art\s+3", result.stdout)
    (tmp_path / "bad.py").write_text(PLUGIN.replace("{n_legal}", f"obs[{O.N_LEGAL}]"))
    result = cli("position", "civ", "p.txt", "--plugin", "bad.py", "-s", "last-action")
    assert result.exit_code == 2 and "returned illegal action 3" in result.stderr


@pytest.mark.parametrize("args, fragments", [
    (["position", "civ", "bad.txt"], ["civ position, line 2", "'Q2' is not a Domain letter"]),
    (["position", "civ", "over.txt"], ["civ position, line 6", "holds 103 cards"]),
    (["position", "civ", "n.txt", "-s", "greedy"], ["no turn line", "turn T: seat S"]),
    (["position", "civ", "p.txt", "-s", "greedyy"], ["unknown civ strategy 'greedyy'"]),
    (["position", "civ", "heg.txt"], ["civ position, line 1", "seat 0 has 7 Science cards", "would have won"]),
    (["position", "civ", "p.txt", "--set", "art_tie=maybe"], ["art_tie"]),
])
def test_cli_position_civ_bad_input_exits_2_with_the_reason(cli, tmp_path, args, fragments):
    (tmp_path / "p.txt").write_text(WIN_NOW)
    (tmp_path / "heg.txt").write_text(replaced(WIN_NOW, ("hand M1 K1 A1; play K6", "hand M1 A1; play K7")))
    (tmp_path / "n.txt").write_text("0: hand M3\n1: hand K3\n")
    (tmp_path / "bad.txt").write_text("0: hand M1\n1: hand M1 Q2\n")
    (tmp_path / "over.txt").write_text(replaced(BASE, ("deck 81", "deck 80")))
    result = cli(*args)
    assert_usage_error(result, *fragments)
    assert "Traceback" not in result.output
