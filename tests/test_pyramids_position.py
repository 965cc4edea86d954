"""The Pyramids position notation (sim/pyramids/notation.py) and `meeplelab position pyramids`:
round trips on positions of real seeded games (text, position and the deciding seat's
observation), every error naming its line and slot, the score breakdown against
reference.Game.score_parts, and the command's output."""
from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner

from sim.core.errors import UsageError
from sim.core.rng import KeyedRng
from sim.pyramids import notation as N
from sim.pyramids import observation as O
from sim.pyramids import reference as R
from sim.pyramids.rules import ROUNDS, PyramidsRules
from strategies import pyramids_position as positions
from test_cli import assert_usage_error
from test_schotten_totten_position import PLUGIN as ST_PLUGIN

pytestmark = pytest.mark.usefixtures("clean_registry")

RULES = PyramidsRules.preset()
SCORE_PARTS = ("pyramid", "bonus", "obelisk", "tomb", "glyph")

# the state of a real game (4 players, seed 1, game 0, random play) in round 5, seat 0 deciding
# whether to lay a tomb card; seat 1's tomb and hand written as not known
ROUND5 = """pyramids
round 5; first 0; quarry - | 38 82 | - | 10 44
tiles Horus:2 Anubis:0 Khepri:3 Thoth:1
to-move 0 tomb; turn pair 2 pyramid 37
0: pyramid 30 93 54 39 / . 37 .; obelisk 12; tomb 60; hand 43 84; discard 3 24
1: pyramid 87 23 74 / . 76 .; obelisk 51 32; tomb ?; hand ?
2: pyramid 42 63 31 46 / . . 2; obelisk 72; tomb 77 0; hand 26; discard 33 45
3: pyramid 66 48 90 98; obelisk 65; tomb 19 100; hand -; discard 73 99; start 73
"""


def play_recording(rules, players, seed, game, at_decision=None):
    """A reference game played at random; `at_decision(g, seat, obs)` before every decision."""
    g = R.Game(rules, players, seed, game)
    rng = KeyedRng(seed, game, 12345)

    def decide(seat, obs, where):
        if at_decision is not None:
            at_decision(g, seat, obs)
        return rng.below(int(obs[O.N_LEGAL]))
    g.setup()
    for _ in range(ROUNDS):
        g.play_round(decide)
    return g


def error_of(text: str, rules=RULES) -> str:
    with pytest.raises(UsageError) as e:
        N.parse_position(text, rules)
    return str(e.value)


# ================================================================ round trips on real games
@pytest.mark.parametrize("preset", sorted(PyramidsRules.PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_decision_of_a_real_game_round_trips_to_the_same_observation(preset, players):
    rules = PyramidsRules.preset(preset)
    checked = []

    def at_decision(g, seat, obs):
        p = N.from_game(g, seat, int(obs[O.DECISION]))
        text = N.format_position(p)
        again = N.parse_position(text, rules)
        assert again == p
        assert N.format_position(again) == text
        mine = N.decision_at(again, rules, seed=7).observation()
        defined = O.LEGAL + int(obs[O.N_LEGAL])
        assert np.array_equal(mine[:defined], obs[:defined]), text
        checked.append(int(obs[O.DECISION]))

    g = play_recording(rules, players, seed=3, game=players, at_decision=at_decision)
    assert set(checked) >= {O.D_TILE, O.D_PAIR, O.D_PYRAMID, O.D_KEEP}
    final = N.from_game(g)
    assert N.parse_position(N.format_position(final), rules) == final


@pytest.mark.parametrize("changes", [dict(may_keep_none=True), dict(keep_limit=0),
                                     dict(two_player_tiles="return"), dict(sekhmet_small="tomb-or-obelisk"),
                                     dict(discards_public=True), dict(upper_level="contiguous")])
def test_round_trips_under_other_rules(changes):
    rules = RULES.replace(**changes)

    def at_decision(g, seat, obs):
        p = N.from_game(g, seat, int(obs[O.DECISION]))
        mine = N.decision_at(N.format_position(p), rules).observation()
        defined = O.LEGAL + int(obs[O.N_LEGAL])
        assert np.array_equal(mine[:defined], obs[:defined])

    for players in (2, 4):
        play_recording(rules, players, seed=5, game=1, at_decision=at_decision)


def test_the_game_at_a_round_state_is_the_recorded_one():
    states = {}

    def at_decision(g, seat, obs):
        if g.round == 4 and int(obs[O.DECISION]) == O.D_TOMB and not states:
            states["text"] = N.format_position(N.from_game(g, seat, O.D_TOMB))
            states["seat"] = seat
            states["cards"] = {s: sorted(g.necropolis[s].cards() + g.hands[s] + g.discards[s])
                               for s in range(g.players)}
            states["deck"] = len(g.deck)
    play_recording(RULES, 4, seed=1, game=0, at_decision=at_decision)
    game = N.game_at(states["text"], RULES, seed=9)
    assert {s: sorted(game.necropolis[s].cards() + game.hands[s] + game.discards[s])
            for s in range(4)} == states["cards"]
    assert len(game.deck) == states["deck"] and game.turn.seat == states["seat"] and game.turn.may_tomb
    assert game.where_is_every_card()                      # every card in exactly one place


# ================================================================ the format
def test_the_example_of_the_docstring_parses():
    example = N.__doc__.split("Example")[1].split("A line holds")[0]
    text = "\n".join(line[4:] for line in example.splitlines()[2:])
    p = N.parse_position(text)
    assert p.players == 4 and p.round.number == 3 and p.round.decision == O.D_PYRAMID
    assert p.seats[2].pyramid == {0: 96, 1: 47, 4: 86} and p.seats[1].hand == [8, 22, 51]
    assert p.seats[3].tomb == [30, None] and p.seats[2].hand == [None]


def test_parts_on_several_lines_comments_and_a_short_upper_level():
    text = ("# two seats\n0: pyramid 5 6 7 / . 8  # the base, then level 1\n0: tomb 9\n"
            "1: obelisk -; pyramid -\n")
    p = N.parse_position(text)
    assert p.seats[0].pyramid == {0: 5, 1: 6, 2: 7, 5: 8} and p.seats[0].tomb == [9]
    assert N.format_position(p) == ("pyramids\n0: pyramid 5 6 7 / . 8 .; obelisk -; tomb 9\n"
                                    "1: pyramid -; obelisk -; tomb -\n")


def test_cards_are_named_by_their_deck_id(tmp_path):
    from sim.pyramids import deck as D
    cards = D.generate(seed=4, n_cards=42)
    relabelled = [D.Card(c.index, 1000 + 7 * c.index, c.stones, c.glyph) for c in cards]
    path = tmp_path / "deck.csv"
    path.write_text(D.format_deck(relabelled))
    rules = RULES.replace(deck=str(path))
    p = N.parse_position("0: pyramid 1007 1000\n1: pyramid 1014\n", rules)
    assert p.seats[0].pyramid == {0: 1, 1: 0} and p.seats[1].pyramid == {0: 2}
    assert "1007 1000" in N.format_position(p)
    assert "card id 7 is not in the deck" in error_of("0: pyramid 7\n", rules)


# ================================================================ errors: the line and the slot
@pytest.mark.parametrize("text, words", [
    ("0: pyramid 1 2 / 3 4\n", ["line 1", "level 1 position 1", "card 4 has no support",
                                "base position 2 is empty"]),
    ("0: pyramid 1 2 3 / . . 4\n", ["level 1 position 2", "no support", "base position 3 is empty"]),
    ("0: pyramid 1 2 3 4 / 5 6 . / . 8\n", ["level 2 position 1", "no support", "level 1 position 2 is empty"]),
    ("0: pyramid 1 2 3 4 5\n", ["base position 4", "a 5th card on the base", "4 cards, positions 0 to 3"]),
    ("0: pyramid 1 . 3\n", ["base position 1", "a row without gaps"]),
    ("0: pyramid 1 2 3 4 / 5 6 7 8\n", ["level 1: 4 entries", "3 positions (0 to 2)"]),
    ("0: pyramid 1 / 2 / 3 / 4 / 5\n", ["5 levels", "has 4"]),
    ("0: pyramid 1 2\n1: pyramid 3 2\n", ["line 2", "card 2 is twice", "seat 1's pyramid at base position 1",
                                          "seat 0's pyramid at base position 1 (line 1)"]),
    ("0: pyramid 1; obelisk 1\n", ["card 1 is twice", "seat 0's obelisk"]),
    ("0: pyramid 1; hand 2\n1: pyramid 3; discard 2\n", ["card 2 is twice", "seat 1's discard"]),
    ("0: pyramid 1 ?\n", ["'?'", "only in hands, tombs and discards"]),
    ("0: pyramid 999\n", ["card id 999 is not in the deck", "ids: 0 to 104"]),
    ("0: pyramid x\n", ["'x' is not a card id"]),
    ("0: pyramid 1; tower 2\n", ["unknown part 'tower'", "pyramid, obelisk, tomb, hand, discard, start"]),
    ("0: pyramid 1\nwhatever 3\n", ["line 2", "unknown statement 'whatever'", "round, first"]),
    ("0: pyramid 1\n0: pyramid 2\n", ["line 2", "seat 0: pyramid given twice (first on line 1)"]),
    ("7: pyramid 1\n", ["'7' is not a seat", "0 to 4"]),
    ("1: pyramid 1\n", ["seat 0 is missing"]),
    ("0: pyramid 1; obelisk 2 3\n", ["2 obelisk cards but 1 pyramid cards"]),
    ("0: pyramid 1; tomb 2; start 3\n", ["start 3 is not in its hand, tomb or discards"]),
    ("0: pyramid 1; hand 2 3 4 5\n", ["4 cards", "at most 3"]),
    ("", ["no seat"]),
])
def test_errors_name_the_line_and_what_is_allowed(text, words):
    message = error_of(text)
    assert message.startswith("pyramids position")
    for w in words:
        assert w in message, (w, message)


def test_the_contiguous_rule_names_the_gap():
    text = "0: pyramid 1 2 3 4 / 5 . 6\n"
    N.parse_position(text)                                  # supported: fine
    assert "level 1 position 1: empty between cards" in error_of(text, RULES.replace(upper_level="contiguous"))


def round_state(**lines) -> str:
    """ROUND5 with some statements replaced (a key's value None drops its statement)."""
    text = ROUND5
    for key, value in lines.items():
        key = key.replace("_", "-")
        pattern = rf"(?m)(^|; ){re.escape(key)} [^;\n]*"
        assert re.search(pattern, text), key
        text = re.sub(pattern, "" if value is None else rf"\g<1>{key} {value}", text)
    return text.replace("; ;", ";").replace("\n; ", "\n")


@pytest.mark.parametrize("changes, words", [
    (dict(round="11"), ["line 2", "round: expected the round in progress, 1 to 10"]),
    (dict(round="4"), ["seat 0: 5 pyramid cards, but 4 in round 4"]),
    (dict(quarry="- | 38 82 | 10 44"), ["quarry: 3 pairs, but 4 players have 4"]),
    (dict(quarry="- | 38 82 | 5 6 | 10 44"), ["quarry: 1 pairs taken, but 2 should be", "tile order"]),
    (dict(quarry="- | 38 | - | 10 44"), ["quarry pair 1: 1 cards"]),
    (dict(tiles="Horus:2 Anubis:0 Khepri:3"), ["pairs are taken once every seat has a God tile"]),
    (dict(tiles="Horus:2 Anubis:0 Khepri:3 Osiris:1"), ["unknown God tile 'Osiris'", "Horus, Anubis"]),
    (dict(tiles="Horus:2 Anubis:0 Khepri:0 Thoth:1"), ["seat 0 has two tiles"]),
    (dict(to_move="0 build"), ["to-move: expected a seat and a decision", "tile, pair, pyramid"]),
    (dict(to_move="0 obelisk"), ["to-move 0 obelisk: Anubis allows no obelisk card"]),
    (dict(turn="pair 2"), ["'turn pyramid ...' is needed"]),
    (dict(turn="pair 2 pyramid 37 tomb 60"), ["turn tomb 60: not laid yet at a tomb decision"]),
    (dict(turn="pair 1 pyramid 37"), ["turn pair 1: not a taken pair"]),
    (dict(turn="pair 2 pyramid 93"), ["turn pyramid 93: it lies inside the base"]),
    (dict(turn="pair 2 pyramid 87"), ["turn pyramid 87: not in seat 0's pyramid"]),
    (dict(turn="pair 2 pyramid 37 colour red"), ["turn: unknown key 'colour'"]),
    (dict(first="7"), ["'7' is not a seat"]),
    (dict(set_aside="Horus"), ["set-aside: only 2-player games"]),
])
def test_round_state_errors(changes, words):
    if "set_aside" in changes:
        text = ROUND5.replace("round 5;", f"round 5; set-aside {changes.pop('set_aside')};")
    else:
        text = round_state(**changes)
    message = error_of(text)
    for w in words:
        assert w in message, (w, message)


def test_round_state_errors_about_seats():
    assert "needs every hand" in error_of(ROUND5.replace("; hand -;", ";"))
    assert "seat 0 decides, so its own hand is known" in error_of(ROUND5.replace("hand 43 84", "hand 43 ?"))
    assert "seat 3: 2 cards in hand between turns" in error_of(ROUND5.replace("hand -; discard 73 99",
                                                                             "hand 73 99; discard -"))
    assert "it has received 9" in error_of(ROUND5.replace("discard 73 99", "discard 73 99 5"))
    covered = ROUND5.replace("/ . 37 .", "/ . . 37").replace("pyramid 37", "pyramid 39")
    assert "turn pyramid 39: a card lies on it" in error_of(covered)
    text = ROUND5.replace("to-move 0 tomb; turn pair 2 pyramid 37", "to-move 0 tile")
    assert "every seat has a God tile already" in error_of(text)
    first = ("round 1; first 0; quarry 1 2 | 3 4 | 5 6 | 7 8; tiles Horus:2; to-move 0 tile\n" +
             "".join(f"{s}: pyramid -; hand {10 + s}\n" for s in range(4)))
    assert "tiles are chosen clockwise from the first player (seat 0)" in error_of(first)
    assert N.parse_position(first.replace("Horus:2", "Horus:0").replace("to-move 0", "to-move 1"))
    assert "a round state needs a 'to-move' statement" in error_of(ROUND5.replace(
        "to-move 0 tomb; turn pair 2 pyramid 37", ""))


def test_two_players_need_the_set_aside_tile():
    text = ("round 1; first 0; quarry 1 2 | 3 4; tiles -; to-move 0 tile\n"
            "0: pyramid -; hand 5\n1: pyramid -; hand 6\n")
    assert "2 players: write 'set-aside TILE'" in error_of(text)
    assert "Thoth is not used at 2 players" in error_of(text.replace("first 0;", "first 0; set-aside Thoth;"))
    p = N.parse_position(text.replace("first 0;", "first 0; set-aside Khepri;"))
    at = N.decision_at(p, RULES)
    assert [O.action_arg(a) for a in at.legal] == [1, 2, 4]


# ================================================================ games and strategies from positions
def test_unknown_cards_are_dealt_from_the_cards_placed_nowhere_by_the_seed():
    p = N.parse_position(ROUND5)
    a, b = N.game_at(p, RULES, seed=1), N.game_at(p, RULES, seed=1)
    assert a.hands == b.hands and a.necropolis[1].tomb == b.necropolis[1].tomb and a.deck == b.deck
    assert len(a.hands[1]) == 1 and len(a.necropolis[1].tomb) == 1
    assert len(a.discards[1]) == 9 - 4 - 2 - 1 - 1                   # received 9: the rest discarded
    assert len(a.where_is_every_card()) == len(a.cards)
    c = N.game_at(p, RULES, seed=2)
    assert (c.hands[1], c.necropolis[1].tomb) != (a.hands[1], a.necropolis[1].tomb)
    obs_a, obs_c = N.decision_at(p, RULES, 1).observation(), N.decision_at(p, RULES, 2).observation()
    dealt = [x for g in (a, c) for x in g.hands[1] + g.necropolis[1].tomb + g.discards[1]]
    hidden = [O.CARD_LOC + x for x in dealt]
    mask = np.ones(O.SIZE, bool)
    mask[hidden] = False
    assert np.array_equal(obs_a[mask], obs_c[mask])      # seat 0 sees none of the dealt cards


def test_the_legal_list_of_a_pyramid_decision():
    text = ROUND5.replace("to-move 0 tomb; turn pair 2 pyramid 37", "to-move 0 pyramid; turn pair 2")
    text = text.replace("0: pyramid 30 93 54 39 / . 37 .;", "0: pyramid 30 93 54 39;").replace(
        "hand 43 84", "hand 37 43 84")
    table = positions.legal_table(text, RULES)
    assert list(table["action"][:4]) == ["pyramid 37 at level 1 position 0", "pyramid 37 at level 1 position 1",
                                         "pyramid 37 at level 1 position 2", "pyramid 43 at level 1 position 0"]
    assert len(table) == 9


def test_a_strategy_choice_is_seeded():
    first = positions.choices(ROUND5, ["random", "random"], RULES, seed=3)
    assert list(first.columns) == ["strategy", "seat", "action", "legal_actions"]
    assert first.loc[0, "seat"] == 0 and first.loc[0, "legal_actions"] == 3
    assert first.loc[0, "action"] in ("no card", "tomb 43", "tomb 84")
    assert positions.choices(ROUND5, ["random"], RULES, seed=3).equals(first.iloc[:1])
    picks = {positions.choices(ROUND5, ["random"], RULES, seed=s).loc[0, "action"] for s in range(12)}
    assert len(picks) > 1


# ================================================================ the score breakdown
@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_score_breakdown_is_the_engines(players):
    mid = {}

    def at_decision(g, seat, obs):
        if g.round == 6 and "parts" not in mid:
            mid["text"] = N.format_position(N.from_game(g))
            mid["parts"] = g.score_parts()
    g = play_recording(RULES, players, seed=11, game=players, at_decision=at_decision)
    for text, parts in ((mid["text"], mid["parts"]), (N.format_position(N.from_game(g)), g.score_parts())):
        table = positions.score_table(text, RULES)
        for k in SCORE_PARTS:
            assert list(table[k]) == parts[k]
        assert list(table["total"]) == [sum(parts[k][s] for k in SCORE_PARTS) for s in range(players)]
    assert list(positions.score_table(N.format_position(N.from_game(g)), RULES)["total"]) == g.scores()


def test_colour_and_glyph_tables_add_up_to_the_score():
    g = play_recording(RULES, 4, seed=2, game=3)
    text = N.format_position(N.from_game(g))
    colours = positions.colour_table(text, RULES)
    glyphs = positions.glyph_table(text, RULES)
    parts = g.score_parts()
    for s in range(4):
        groups = colours[(colours.seat == s) & (colours["count"] == "pyramid group")].iloc[0, 2:].tolist()
        assert sum(groups) + max(groups) == parts["pyramid"][s]
        stages = colours[(colours.seat == s) & (colours["count"] == "obelisk stages")].iloc[0, 2:].max()
        assert RULES.obelisk_value(stages) == parts["obelisk"][s]
        row = glyphs.iloc[s]
        matched = row["pyramid glyphs"] + row["obelisk glyphs"] + row["tomb glyphs"]
        assert RULES.glyph_points * matched == parts["glyph"][s]


def test_a_lone_necropolis_scores_its_tomb_majorities_alone():
    table = positions.score_table("0: pyramid 1; tomb 2\n", RULES)
    assert len(table) == 1 and table.loc[0, "tomb"] > 0


def test_the_final_position_of_a_playthrough_scores_as_its_end_lines(tmp_path):
    from pathlib import Path
    text = (Path(__file__).parent / "playthroughs" / "pyramids-published.txt").read_text().splitlines()
    seats = [line for line in text if re.match(r"\d+: pyramid", line)][-4:]
    table = positions.score_table("\n".join(seats) + "\n", RULES)
    ends = [int(re.search(r"scores (\d+)", line).group(1)) for line in text if line.startswith("# end:")]
    assert list(table["total"]) == ends


def test_a_round_line_of_a_playthrough_with_the_seat_lines_before_it_is_a_position():
    from pathlib import Path
    lines = (Path(__file__).parent / "playthroughs" / "pyramids-published.txt").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("round 4;"))
    p = N.parse_position("\n".join(lines[at - 6:at + 1]) + "\n")
    assert p.round.number == 4 and p.round.decision == O.D_TILE and p.players == 4


# ================================================================ the command
def test_cli_position_pyramids_with_a_round_state(cli, tmp_path):
    (tmp_path / "p.txt").write_text(ROUND5)
    result = cli("position", "pyramids", "p.txt", "-s", "random", "--seed", 4)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("pyramids position, 4 seats, rules published; round 5, first player seat 0; "
                          "seat 0 to move (tomb decision)")
    for fragment in ("score so far", "by colour", "pyramid group", "obelisk stages", "tomb stones",
                     "pyramid glyphs", "legal actions of seat 0", "tomb 43", "no card", "legal_actions",
                     "the tombs of seat 1 hold cards not known"):
        assert fragment in out, fragment
    assert cli("position", "pyramids", "p.txt", "-s", "random", "--seed", 4).stdout == out


def test_cli_position_pyramids_reads_a_necropolis_from_stdin():
    from meeplelab.cli import main
    result = CliRunner().invoke(main, ["position", "pyramids", "-"], input="0: pyramid 1 2 3 / 4 5\n1: pyramid 6\n")
    assert result.exit_code == 0, result.output
    assert "pyramids position, 2 seats, rules published\n" in result.stdout
    assert "legal actions" not in result.stdout


# the plugin of Schotten Totten's test, for Pyramids: it returns the index {n_legal}
PLUGIN = ST_PLUGIN.replace('"schotten-totten"', '"pyramids"')


def test_cli_position_pyramids_with_a_plugin_and_a_broken_one(cli, tmp_path):
    (tmp_path / "p.txt").write_text(ROUND5)
    (tmp_path / "good.py").write_text(PLUGIN.replace("{n_legal}", f"obs[{O.N_LEGAL}] - 1"))
    result = cli("position", "pyramids", "p.txt", "--plugin", "good.py", "-s", "last-action")
    assert result.exit_code == 0, result.output
    assert re.search(r"last-action\s+0\s+tomb 84\s+3", result.stdout)
    (tmp_path / "bad.py").write_text(PLUGIN.replace("{n_legal}", f"obs[{O.N_LEGAL}]"))
    result = cli("position", "pyramids", "p.txt", "--plugin", "bad.py", "-s", "last-action")
    assert result.exit_code == 2 and "returned illegal action 3" in result.stderr


@pytest.mark.parametrize("args, fragments", [
    (["position", "pyramids", "n.txt", "-s", "random"], ["no round state", "to-move S DECISION"]),
    (["position", "pyramids", "p.txt", "-s", "greedyy"], ["unknown pyramids strategy 'greedyy'"]),
    (["position", "pyramids", "bad.txt"], ["line 1", "a 5th card on the base"]),
    (["position", "pyramids", "p.txt", "--set", "tomb_tie=coin"], ["tomb_tie"]),
    (["position", "pyramids", "missing.txt"], ["missing.txt"]),
    (["position", "diamant", "p.txt"], ["diamant: no position notation", "pyramids", "schotten-totten"]),
])
def test_cli_position_pyramids_bad_input(cli, tmp_path, args, fragments):
    (tmp_path / "p.txt").write_text(ROUND5)
    (tmp_path / "n.txt").write_text("0: pyramid 1 2\n")
    (tmp_path / "bad.txt").write_text("0: pyramid 1 2 3 4 5\n")
    result = cli(*args)
    assert_usage_error(result, *fragments)
    assert "Traceback" not in result.output
