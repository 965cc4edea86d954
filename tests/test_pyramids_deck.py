"""The Pyramids deck as data: the CSV format, the loader's errors (each naming the line and what
is allowed), the generator's reproducibility and parameters, and the shipped reconstructed deck."""
from __future__ import annotations

from collections import Counter

import pytest

from sim.core.errors import UsageError
from sim.pyramids import deck as D
from sim.pyramids import observation as O
from sim.pyramids.rules import PyramidsRules

HEADER = "id,stones,glyph\n"
GOOD = "0,red@bl+tl blue@br white@tr,pyramid\n"


def error_of(text: str) -> str:
    with pytest.raises(UsageError) as e:
        D.parse_deck(text, "test.csv")
    return str(e.value)


# ---------------------------------------------------------------- the format
def test_a_row_is_read_as_its_stones_cells_and_glyph():
    (card,) = D.parse_deck("# a comment\n\n" + HEADER + GOOD)
    assert card.id == 0 and card.index == 0 and card.glyph == D.PYRAMID
    assert [(D.COLOURS[s.colour], s.cells) for s in card.stones] == [("red", (0, 2)), ("blue", (1,)),
                                                                      ("white", (3,))]
    assert card.stone_at(2) == 0 and card.stone_at(3) == 2


def test_format_and_parse_round_trip():
    cards = D.generate(seed=5, n_cards=30)
    text = D.format_deck(cards, ("a comment",))
    assert D.format_deck(D.parse_deck(text), ("a comment",)) == text
    assert D.parse_deck(text) == cards


def test_card_code_holds_cell_colours_large_stones_and_glyph():
    (card,) = D.parse_deck(HEADER + "7,green@bl+br yellow@tl white@tr,tomb\n")
    code = O.card_code(card)
    assert [O.code_cell_colour(code, c) for c in range(4)] == [3, 3, 4, 1]
    assert O.code_joins(code) == O.JOIN_BOTTOM and O.code_glyph(code) == D.TOMB


# ---------------------------------------------------------------- loader errors
@pytest.mark.parametrize("row, words", [
    ("0,purple@bl+tl blue@br white@tr,none", ["line 2", "unknown colour 'purple'", "blue, white, red"]),
    ("0,red@bl+tl blue@tl white@br+tr,none", ["line 2", "cell tl is covered by two stones"]),
    ("0,red@bl+tl blue@br,none", ["line 2", "tr covered by no stone"]),
    ("0,red@bl+tl blue@br white@tr,sphinx",
     ["line 2", "unknown glyph 'sphinx'", "none, pyramid, obelisk, tomb"]),
    ("0,red@bl+tl+br blue@tr,none", ["line 2", "covers 3 cells", "2 adjacent cells"]),
    ("0,red@bl+tr blue@br white@tl,none", ["line 2", "not orthogonally adjacent", "bl+tl"]),
    ("0,red@bl+xx blue@br white@tr,none", ["line 2", "unknown cell 'xx'", "bl, br, tl, tr"]),
    ("0,red blue@br white@tr,none", ["line 2", "not colour@cells"]),
    ("x,red@bl+tl blue@br white@tr,none", ["line 2", "not a non-negative integer"]),
    ("0,red@bl+tl blue@br white@tr", ["line 2", "expected 3 fields"]),
])
def test_each_bad_row_is_named_with_what_is_allowed(row, words):
    message = error_of(HEADER + row + "\n")
    assert "test.csv" in message
    for w in words:
        assert w in message


def test_a_duplicate_id_names_both_lines():
    message = error_of(HEADER + GOOD + "1,red@bl+tl blue@br+tr,none\n" + GOOD)
    assert "line 4" in message and "duplicate card id 0" in message and "line 2" in message


def test_a_missing_header_is_an_error():
    assert "expected the header id,stones,glyph" in error_of(GOOD)
    assert "no header" in error_of("# only comments\n")
    assert "no cards" in error_of(HEADER)


def test_too_few_cards_for_the_player_count(tmp_path):
    path = tmp_path / "small.csv"
    path.write_text(D.format_deck(D.generate(n_cards=63)))
    rules = PyramidsRules.preset().replace(deck=str(path))
    rules.check_players(3)                       # 3 x 21 = 63: exactly enough
    with pytest.raises(UsageError, match=r"63 cards is too few for 4 players \(allowed: at least 84"):
        rules.check_players(4)


def test_a_bad_deck_file_is_a_usage_error_when_the_rule_is_set(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text(HEADER + GOOD + "1,red@bl+tl blue@br+tr,glyph?\n")
    with pytest.raises(UsageError, match=r"bad.csv, line 3: unknown glyph"):
        PyramidsRules.preset().with_assignments([f"deck={path}"])
    with pytest.raises(UsageError, match="no such file"):
        PyramidsRules.preset().replace(deck=str(tmp_path / "none.csv"))


def test_a_user_deck_replaces_the_shipped_one(tmp_path):
    path = tmp_path / "mine.csv"
    cards = D.generate(seed=99)
    path.write_text(D.format_deck(cards))
    assert PyramidsRules.preset().replace(deck=str(path)).cards() == cards


# ---------------------------------------------------------------- the generator
def test_the_generator_is_reproducible_by_seed():
    assert D.generate(seed=3) == D.generate(seed=3)
    assert D.generate(seed=3) != D.generate(seed=4)


def test_the_generator_defaults_follow_the_spec():
    cards = D.generate()
    assert len(cards) == 105
    assert Counter(len(c.stones) for c in cards) == {3: 84, 2: 21}
    glyphs = Counter(c.glyph for c in cards)
    assert glyphs[D.PYRAMID] == glyphs[D.OBELISK] == glyphs[D.TOMB] == 11
    colours = Counter(s.colour for c in cards for s in c.stones)
    assert sorted(colours.values()) == [58, 59, 59, 59, 59]           # balanced
    for c in cards:                                                    # large stones are columns
        assert all(len(s.cells) == 1 or s.cells in ((0, 2), (1, 3)) for s in c.stones)
    repeats = sum(1 for c in cards if len(c.colours()) < len(c.stones))
    assert 2 <= repeats <= 20                                          # "mostly" different colours


def test_the_generator_parameters_are_honoured():
    assert all(len(c.stones) == 2 for c in D.generate(two_stone_share=1.0, n_cards=20))
    assert all(c.glyph == D.NO_GLYPH for c in D.generate(glyph_share=0.0))
    assert all(len(c.colours()) == len(c.stones) for c in D.generate(same_colour_share=0.0))
    left = D.generate(large_left_share=1.0, two_stone_share=0.0)
    assert all(c.stones[0].cells == (0, 2) for c in left)
    skewed = Counter(s.colour for c in D.generate(colour_weights=(2, 1, 1, 1, 0)) for s in c.stones)
    assert skewed[4] == 0 and skewed[0] > skewed[1]
    with pytest.raises(UsageError, match="two_stone_share"):
        D.generate(two_stone_share=1.5)


def test_the_shipped_deck_is_the_labelled_output_of_the_generator():
    path = D.shipped_deck_path()
    text = open(path, encoding="utf-8").read()
    assert "RECONSTRUCTION" in text.splitlines()[0]
    assert text == D.format_deck(D.generate(), D.generator_comments(D.GENERATOR_DEFAULTS))
    assert PyramidsRules.preset().cards() == D.load_deck(path)


def test_the_generator_command_writes_a_loadable_deck(tmp_path):
    out = tmp_path / "d.csv"
    D.main(["--seed", "8", "--n-cards", "42", "-o", str(out)])
    assert D.load_deck(str(out)) == D.generate(seed=8, n_cards=42)
