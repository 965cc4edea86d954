"""Pyramids rules, checked on hand-built positions and recorded games of the reference engine.

The contract is shared/rules/pyramids.md (§ numbers below); each test names the rule or the
[GUESS] parameter it pins. Positions use small decks written in the deck format (deck.py):
cells bl, br, tl, tr of a card's 2x2 stone field. Pyramid slots: base 0..3, level 1 4..6,
level 2 7..8, level 3 9 (observation.py); a card at level l, position p covers grid columns
2p + l and 2p + l + 1.
"""
from __future__ import annotations

import random
import zlib

import numpy as np
import pytest

from sim.core.batch import StrategyError
from sim.core.errors import UsageError
from sim.core.kernels import random_choice
from sim.core.rng import KeyedRng, deck_stream
from sim.pyramids import deck as D
from sim.pyramids import observation as O
from sim.pyramids import reference as R
from sim.pyramids.observation import SPOT_LEFT, SPOT_RIGHT
from sim.pyramids.reference import Game, Necropolis
from sim.pyramids.rules import ANUBIS, HORUS, KHEPRI, SEKHMET, THOTH, PyramidsRules

RULES = PyramidsRules.preset()


def rules(**changes) -> PyramidsRules:
    return RULES.replace(**changes) if changes else RULES


def cards(*rows) -> tuple:
    """A deck of the given cards: each row 'stones' or ('stones', glyph)."""
    rows = [(r, "none") if isinstance(r, str) else r for r in rows]
    return D.parse_deck("id,stones,glyph\n" + "".join(f"{i},{s},{g}\n" for i, (s, g) in enumerate(rows)))


def two(a: str, b: str) -> str:
    """A 2-stone card: large stone of colour a on the left, b on the right."""
    return f"{a}@bl+tl {b}@br+tr"


# ================================================================ §5.1 placement on the stepped grid
def test_the_first_card_has_one_spot_and_the_base_grows_at_either_end():
    nec = Necropolis()
    assert nec.pyramid_spots(RULES) == [SPOT_LEFT]
    nec.place_pyramid(10, SPOT_LEFT)
    assert nec.pyramid_spots(RULES) == [SPOT_LEFT, SPOT_RIGHT]
    nec.place_pyramid(11, SPOT_RIGHT)
    assert nec.pyramid == {0: 10, 1: 11}


def test_a_card_placed_left_moves_the_whole_pyramid_one_position_right():
    nec = Necropolis()
    nec.pyramid = {0: 10, 1: 11, 4: 12}            # base of two, one card on top
    nec.place_pyramid(13, SPOT_LEFT)
    assert nec.pyramid == {0: 13, 1: 10, 2: 11, 5: 12}


def test_an_upper_card_needs_both_cards_below_it():
    nec = Necropolis()
    nec.pyramid = {0: 1}
    assert nec.pyramid_spots(RULES) == [SPOT_LEFT, SPOT_RIGHT]       # no level 1 on one card
    nec.pyramid = {0: 1, 1: 2, 2: 3}
    assert nec.pyramid_spots(RULES) == [SPOT_LEFT, SPOT_RIGHT, 4, 5]
    nec.pyramid = {0: 1, 1: 2, 2: 3, 4: 4}
    assert nec.pyramid_spots(RULES) == [SPOT_LEFT, SPOT_RIGHT, 5]    # slot 7 needs 4 and 5


def test_an_upper_level_may_start_before_the_lower_is_complete():
    nec = Necropolis()
    nec.pyramid = {0: 1, 1: 2, 2: 3, 4: 4, 5: 5}
    assert 7 in nec.pyramid_spots(RULES)                               # base has 3 cards only


def test_no_fifth_card_on_the_base():
    nec = Necropolis()
    nec.pyramid = {0: 1, 1: 2, 2: 3, 3: 4}
    assert nec.pyramid_spots(RULES) == [4, 5, 6]


def test_upper_level_supported_or_contiguous():
    nec = Necropolis()
    nec.pyramid = {0: 1, 1: 2, 2: 3, 3: 4, 4: 5}
    assert nec.pyramid_spots(rules(upper_level="supported")) == [5, 6]
    assert nec.pyramid_spots(rules(upper_level="contiguous")) == [5]   # 6 has no neighbour on level 1


def test_the_pyramid_is_complete_after_ten_placements_whatever_the_choices():
    rng = random.Random(4)
    for upper in ("supported", "contiguous"):
        for _ in range(30):
            nec = Necropolis()
            for card in range(10):
                nec.place_pyramid(card, rng.choice(nec.pyramid_spots(rules(upper_level=upper))))
            assert sorted(nec.pyramid) == list(range(10)) and sorted(nec.pyramid.values()) == list(range(10))
            assert nec.pyramid_spots(RULES) == []


# ================================================================ §5.1 adjacency, §7.1 pyramid score
def test_stones_connect_left_right_across_cards():
    deck = cards(two("blue", "red"), two("red", "blue"))
    best = R.largest_groups({0: 0, 1: 1}, deck, RULES)
    assert best == [1, 0, 2, 0, 0]                              # blue, white, red, green, yellow
    assert R.pyramid_points({0: 0, 1: 1}, deck, RULES) == (1 + 2 + 2, 0, 0)
    assert R.pyramid_points({0: 1, 1: 0}, deck, RULES) == (2 + 1 + 2, 0, 0)   # blue meets blue instead


def test_stones_connect_up_and_down_across_levels_but_not_diagonally():
    up = cards("green@bl+tl white@br red@tr", two("white", "white"), "red@bl yellow@tl green@br+tr")
    # base 0's top-right red at (1, 1) is under the upper card's bottom-left red at (1, 2)
    assert R.largest_groups({0: 0, 1: 1, 4: 2}, up, RULES)[2] == 2
    diag = cards("red@bl+tl green@br white@tr", two("white", "white"), "red@bl yellow@tl green@br+tr")
    # base 0's red fills column 0; the upper red at (1, 2) only touches it at a corner
    assert R.largest_groups({0: 0, 1: 1, 4: 2}, diag, RULES)[2] == 1


def test_a_large_stone_bridges_two_cards():
    deck = cards("green@bl+tl white@br red@tr", "red@bl+br blue@tl yellow@tr", "white@bl red@tl green@br+tr")
    pyramid = {0: 0, 1: 2, 4: 1}          # the upper card's bottom-row large red spans both base cards
    assert R.largest_groups(pyramid, deck, RULES)[2] == 3
    assert R.largest_groups(pyramid, deck, rules(large_stone="cells"))[2] == 4


def test_large_stone_counts_one_stone_or_two_cells():
    deck = cards(two("blue", "red"), two("red", "blue"))
    assert R.pyramid_points({0: 0, 1: 1}, deck, rules(large_stone="cells")) == (2 + 4 + 4, 0, 0)


def test_stones_of_one_card_connect_too():
    deck = cards("red@bl+tl red@br blue@tr")
    assert R.largest_groups({0: 0}, deck, RULES)[2] == 2


BONUS_PYRAMID = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}


def bonus_deck(last: str):
    return cards(two("red", "red"), two("red", "blue"), two("blue", "blue"), two("white", "white"),
                 two("green", "green"), two("green", "yellow"), last)


def test_the_bonus_needs_a_group_of_three_in_every_colour():
    # columns of the base: R R R B B B W W; level 1: G G G Y | Y W(bottom) Y(top)
    full = bonus_deck("yellow@bl+tl white@br yellow@tr")
    assert R.largest_groups(BONUS_PYRAMID, full, RULES) == [3, 3, 3, 3, 3]
    assert R.pyramid_points(BONUS_PYRAMID, full, RULES) == (15 + 3, 10, 0)
    short = bonus_deck("yellow@bl+tl green@br yellow@tr")            # white stops at 2
    assert R.largest_groups(BONUS_PYRAMID, short, RULES) == [3, 2, 3, 3, 3]
    assert R.pyramid_points(BONUS_PYRAMID, short, RULES) == (14 + 3, 0, 0)


def test_the_bonus_parameters():
    full = bonus_deck("yellow@bl+tl white@br yellow@tr")
    assert R.pyramid_points(BONUS_PYRAMID, full, rules(bonus_group=4))[1] == 0
    assert R.pyramid_points(BONUS_PYRAMID, full, rules(bonus_points=7))[1] == 7


def test_pyramid_glyphs_score_only_in_the_pyramid():
    deck = cards(("red@bl+tl blue@br white@tr", "pyramid"), ("red@bl+tl blue@br white@tr", "obelisk"),
                 ("red@bl+tl blue@br white@tr", "tomb"))
    assert R.pyramid_points({0: 0}, deck, RULES)[2] == 2
    assert R.pyramid_points({0: 1}, deck, RULES)[2] == 0
    assert R.pyramid_points({0: 2}, deck, RULES)[2] == 0
    assert R.pyramid_points({0: 0}, deck, rules(glyph_points=3))[2] == 3


# ================================================================ §7.2 obelisk
RB = "red@bl+tl blue@br white@tr"
GY = "green@bl+tl yellow@br+tr"


def test_obelisk_scores_the_stages_of_its_most_frequent_colour():
    deck = cards(RB, RB, RB, "blue@bl+tl green@br+tr", GY, GY, GY, GY, GY, GY)
    assert R.obelisk_points([], deck, RULES) == (0, 0)
    assert R.obelisk_points([0], deck, RULES) == (1, 0)
    assert R.obelisk_points([0, 3], deck, RULES) == (3, 0)                # blue on both stages
    assert R.obelisk_points([0, 1, 3, 4], deck, RULES) == (6, 0)          # blue 3, not consecutive
    assert R.obelisk_points([4, 5, 6, 7], deck, RULES) == (10, 0)
    assert R.obelisk_points([4, 5, 6, 7, 8], deck, RULES) == (15, 0)
    assert R.obelisk_points([4, 5, 6, 7, 8, 9], deck, RULES) == (15, 0)   # capped at 5 stages


def test_a_colour_twice_on_one_stage_counts_once():
    deck = cards(two("red", "red"), two("red", "red"))
    assert R.obelisk_points([0, 1], deck, RULES) == (3, 0)


def test_obelisk_glyphs_score_only_in_the_obelisk_and_the_points_table_is_a_parameter():
    deck = cards((RB, "obelisk"), (RB, "tomb"), (RB, "pyramid"))
    assert R.obelisk_points([0, 1, 2], deck, RULES) == (6, 2)
    assert R.obelisk_points([0], deck, rules(obelisk_points=(0, 2, 5)))[0] == 2
    assert R.obelisk_points([0, 1, 2], deck, rules(obelisk_points=(0, 2, 5)))[0] == 5


# ================================================================ §7.3 tomb
def test_the_most_stones_of_a_colour_score_five():
    deck = cards("red@bl+tl red@br blue@tr", "red@bl+tl green@br white@tr")
    majority, glyph = R.tomb_points([[0], [1], []], deck, RULES)
    # red 2 v 1: seat 0; blue seat 0; green, white seat 1; yellow nobody
    assert majority == [10, 10, 0] and glyph == [0, 0, 0]


@pytest.mark.parametrize("tie, points", [("all", 5), ("none", 0), ("split", 2)])
def test_tomb_majority_ties(tie, points):
    deck = cards(two("red", "blue"), two("red", "green"))
    majority, _ = R.tomb_points([[0], [1]], deck, rules(tomb_tie=tie))
    assert majority == [points + 5, points + 5]               # red tied; blue, green alone


def test_a_three_way_split_rounds_down():
    deck = cards(two("red", "blue"), two("red", "green"), two("red", "white"))
    assert R.tomb_points([[0], [1], [2]], deck, rules(tomb_tie="split"))[0] == [1 + 5] * 3


def test_nobody_scores_a_colour_nobody_has():
    deck = cards(two("red", "red"))
    assert R.tomb_points([[], []], deck, RULES)[0] == [0, 0]
    assert R.tomb_points([[0], []], deck, RULES)[0] == [5, 0]


def test_large_stone_rule_in_tomb_majorities():
    deck = cards("red@bl+tl blue@br white@tr", "red@bl red@tl green@br+tr")
    # one large red (1 stone, 2 cells) against two small reds
    assert R.tomb_points([[0], [1]], deck, RULES)[0] == [10, 10]                       # red: seat 1
    assert R.tomb_points([[0], [1]], deck, rules(large_stone="cells"))[0] == [15, 10]  # red tied


def test_tomb_glyphs_score_only_in_the_tomb():
    deck = cards((RB, "tomb"), (RB, "obelisk"))
    assert R.tomb_points([[0, 1], []], deck, RULES)[1] == [2, 0]


# ================================================================ §7.5 totals and the tie-break
def tied_game(**changes) -> Game:
    g = Game(rules(**changes), 2)
    g.cards = cards(RB, two("red", "blue"), GY)
    g.necropolis[0].pyramid = {0: 0}                  # 3 colours of 1, largest again: 4
    g.necropolis[1].pyramid = {0: 1}                  # 1 + 1 + 1 = 3
    g.necropolis[1].obelisk = [2]                     # one stage: 1
    return g


def test_the_total_is_the_sum_of_the_parts():
    g = tied_game()
    assert g.score_parts() == {"pyramid": [4, 3], "bonus": [0, 0], "obelisk": [0, 1], "tomb": [0, 0],
                               "glyph": [0, 0]}
    assert g.scores() == [4, 4]


def test_a_tie_is_shared_or_broken_by_the_higher_pyramid():
    assert tied_game().win_shares() == [0.5, 0.5]
    assert tied_game(tie_break="pyramid").win_shares() == [1.0, 0.0]


# ================================================================ §2, §4 the round, on recorded games
class Recorder:
    """decide() and on_decision() that log every decision; `policy(obs, legal) -> index`."""

    def __init__(self, policy=None, seed=0):
        self.log = []
        self.rng = random.Random(seed)
        self.policy = policy or (lambda obs, legal: self.rng.randrange(len(legal)))

    def decide(self, seat, obs, where):
        legal = [int(a) for a in obs[obs[O.LEGAL_AT]:obs[O.LEGAL_AT] + obs[O.N_LEGAL]]]
        index = self.policy(obs, legal)
        self.log.append(dict(seat=seat, decision=int(obs[O.DECISION]), round=int(obs[O.ROUND]),
                             obs=obs.copy(), legal=legal, action=legal[index]))
        return index

    def of(self, decision):
        return [e for e in self.log if e["decision"] == decision]


def record(r=RULES, players=3, seed=1, game=0, policy=None) -> tuple[Game, Recorder]:
    rec = Recorder(policy, seed)
    return R.play_game(r, players, seed, game, rec.decide), rec


def build_everything(obs, legal):
    """Place a card wherever the tile allows (the last legal action is a card, SKIP is first);
    tiles and pairs by a hash of the observation, so every tile is taken."""
    if obs[O.DECISION] in (O.D_TILE, O.D_PAIR):
        return zlib.crc32(obs.tobytes()) % len(legal)
    return len(legal) - 1 if obs[O.DECISION] in (O.D_TOMB, O.D_OBELISK) else 0


def test_god_tiles_by_player_count():
    assert RULES.tiles(2) == RULES.tiles(3) == (HORUS, ANUBIS, KHEPRI, SEKHMET)
    assert RULES.tiles(4) == RULES.tiles(5) == (HORUS, ANUBIS, KHEPRI, SEKHMET, THOTH)
    for n, offered in ((2, 3), (3, 4), (4, 5), (5, 5)):
        _, rec = record(players=n)
        obs = rec.of(O.D_TILE)[0]["obs"]
        tiles = [t for t in range(1, 6) if obs[O.TILE_OFFERED + t - 1]]
        assert len(tiles) == offered and (THOTH in tiles) == (n >= 4)


def test_tiles_are_chosen_clockwise_from_the_first_player_who_passes_the_token_left():
    for n in (2, 3, 5):
        _, rec = record(players=n)
        for rnd in range(10):
            picks = [e for e in rec.of(O.D_TILE) if e["round"] == rnd]
            assert [e["seat"] for e in picks] == [(rnd + k) % n for k in range(n)]
            assert all(e["obs"][O.FIRST_PLAYER] == rnd % n for e in picks)


def test_a_random_first_player_comes_from_its_stream():
    for game in range(4):
        g, rec = record(rules(first_player="random"), players=4, seed=3, game=game)
        first = KeyedRng(3, game, deck_stream(1)).below(4)
        assert g.initial_first == first and rec.of(O.D_TILE)[0]["seat"] == first


def test_pairs_are_taken_and_built_in_ascending_tile_order():
    _, rec = record(players=4)
    for rnd in range(10):
        turns = [e for e in rec.of(O.D_PAIR) if e["round"] == rnd]
        tiles = [int(e["obs"][O.TURN_TILE]) for e in turns]
        assert tiles == sorted(tiles) and len(tiles) == 4
        owners = turns[0]["obs"][O.TILE_OWNER:O.TILE_OWNER + 5]
        assert [e["seat"] for e in turns] == [int(owners[t - 1]) for t in tiles]


def turn_decisions(rec: Recorder, kept: int = 1) -> dict[int, set]:
    """Tile -> the decision sequences of its turns (from the pair on) that began holding `kept` cards."""
    turns = []
    for e in rec.log:
        if e["decision"] == O.D_PAIR:
            held = int((e["obs"][O.HAND:O.HAND + O.MAX_HAND] >= 0).sum())
            turns.append((int(e["obs"][O.TURN_TILE]) if held == kept else -1, [O.D_PAIR]))
        elif e["decision"] != O.D_TILE:
            turns[-1][1].append(e["decision"])
    seen: dict[int, set] = {}
    for tile, kinds in turns:
        seen.setdefault(tile, set()).add(tuple(kinds))
    seen.pop(-1, None)
    return seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_god_allows_its_edifices(players):
    g, rec = record(players=players, policy=build_everything, seed=players)
    P, Y, T, B, K = O.D_PAIR, O.D_PYRAMID, O.D_TOMB, O.D_OBELISK, O.D_KEEP
    # with 3 cards in hand and every allowed card built, a 3-edifice god leaves nothing to keep
    want = {HORUS: {(P, Y, K)}, ANUBIS: {(P, Y, T, K)}, KHEPRI: {(P, Y, B, K)},
            SEKHMET: {(P, Y, T, K)} if players >= 4 else {(P, Y, T, B)}, THOTH: {(P, Y, T, B)}}
    got = turn_decisions(rec)
    assert set(got) | set(turn_decisions(rec, kept=0)) == set(RULES.tiles(players))   # all were taken
    for tile, kinds in got.items():
        assert kinds == want[tile], (players, tile)
    # holding 2 cards (after a 3-card turn), the hand runs out before the keep or the obelisk
    short = {HORUS: {(P, Y, K)}, ANUBIS: {(P, Y, T)}, KHEPRI: {(P, Y, B)}, SEKHMET: {(P, Y, T)},
             THOTH: {(P, Y, T)}}
    for tile, kinds in turn_decisions(rec, kept=0).items():
        assert kinds == short[tile], (players, tile)
    for s in range(players):                 # every card chosen went to its edifice
        for d, edifice in ((O.D_TOMB, g.necropolis[s].tomb), (O.D_OBELISK, g.necropolis[s].obelisk)):
            chosen = [O.action_card(e["action"]) for e in rec.of(d) if e["seat"] == s]
            assert chosen == edifice


def test_sekhmet_at_four_players_offers_the_obelisk_when_the_tomb_is_skipped():
    def skip_tomb(obs, legal):
        return 0 if obs[O.DECISION] == O.D_TOMB else len(legal) - 1 if obs[O.DECISION] == O.D_OBELISK else 0
    g, rec = record(players=4, policy=skip_tomb)
    sekhmet = [e for e in rec.log if e["obs"][O.TURN_TILE] == SEKHMET and e["obs"][O.TURN_PAIR] >= 0]
    assert O.D_OBELISK in {e["decision"] for e in sekhmet}
    assert all(e["obs"][O.R_SEKHMET_EITHER] == 1 for e in sekhmet)


def test_sekhmet_side_at_two_and_three_players_is_a_parameter():
    assert RULES.powers(SEKHMET, 3) == (True, True, False)
    assert RULES.powers(SEKHMET, 4) == (True, True, True)
    assert rules(sekhmet_small="tomb-or-obelisk").powers(SEKHMET, 2) == (True, True, True)
    assert RULES.powers(HORUS, 5) == (False, False, False) and RULES.powers(THOTH, 4) == (True, True, False)
    g, rec = record(rules(sekhmet_small="tomb-or-obelisk"), players=3, policy=build_everything)
    assert turn_decisions(rec)[SEKHMET] == {(O.D_PAIR, O.D_PYRAMID, O.D_TOMB, O.D_KEEP)}


def offered_by_round(rec):
    out = []
    for rnd in range(10):
        obs = next(e["obs"] for e in rec.of(O.D_TILE) if e["round"] == rnd)
        out.append(([t for t in range(1, 6) if obs[O.TILE_OFFERED + t - 1]], int(obs[O.SET_ASIDE])))
    return out


def test_two_players_set_aside_a_random_tile_then_rotate_the_unchosen_one():
    for game in range(3):
        g, rec = record(players=2, game=game, seed=7)
        rounds = offered_by_round(rec)
        assert rounds[0][1] == RULES.tiles(2)[KeyedRng(7, game, deck_stream(2)).below(4)]
        for rnd, (offered, aside) in enumerate(rounds):
            assert len(offered) == 3 and aside not in offered
            if rnd:
                chosen = {g.tiles_taken[0][rnd - 1], g.tiles_taken[1][rnd - 1]}
                unchosen = set(rounds[rnd - 1][0]) - chosen
                assert {aside} == unchosen                    # the tile left over is set aside
                assert rounds[rnd - 1][1] in offered           # the one set aside comes back


def test_two_player_tiles_random_fixed_and_return():
    g, rec = record(rules(two_player_tiles="random"), players=2, seed=5)
    stream = KeyedRng(5, 0, deck_stream(2))
    assert [a for _, a in offered_by_round(rec)] == [RULES.tiles(2)[stream.below(4)] for _ in range(10)]
    g, rec = record(rules(two_player_tiles="fixed"), players=2, seed=5)
    assert len({a for _, a in offered_by_round(rec)}) == 1
    g, rec = record(rules(two_player_tiles="return"), players=2, seed=5)
    rounds = offered_by_round(rec)
    assert len(rounds[0][0]) == 3 and all(len(o) == 4 and a == 0 for o, a in rounds[1:])


def test_keep_exactly_one_card_and_discard_the_rest():
    g, rec = record(players=3)
    discarded = {s: [] for s in range(3)}
    kept_last_turn = {s: True for s in range(3)}          # the dealt card counts as kept
    for e in rec.log:
        seat, obs = e["seat"], e["obs"]
        if e["decision"] == O.D_PAIR:
            held = int((obs[O.HAND:O.HAND + O.MAX_HAND] >= 0).sum())
            assert held == (1 if kept_last_turn[seat] else 0)   # empty only after building it all
            kept_last_turn[seat] = False
        if e["decision"] == O.D_KEEP:
            cards = [O.action_card(a) for a in e["legal"]]
            assert all(O.action_kind(a) == O.A_KEEP for a in e["legal"]) and len(cards) in (1, 2)
            discarded[seat] += [c for c in cards if c != O.action_card(e["action"])]
            kept_last_turn[seat] = True
    assert {s: sorted(g.discards[s]) for s in range(3)} == {s: sorted(d) for s, d in discarded.items()}
    assert any(discarded.values())


def test_may_keep_none():
    keep_none = lambda obs, legal: len(legal) - 1 if obs[O.DECISION] == O.D_KEEP else 0  # noqa: E731
    g, rec = record(rules(may_keep_none=True), players=3, policy=keep_none)
    assert rec.of(O.D_KEEP) and all(e["legal"][-1] == O.KEEP_NONE for e in rec.of(O.D_KEEP))
    assert all(h == [] for h in g.hands)


def test_keep_limit_zero_discards_everything_unbuilt():
    g, rec = record(rules(keep_limit=0), players=3)
    assert not rec.of(O.D_KEEP) and all(h == [] for h in g.hands)


# ================================================================ the legal lists and the observation
def test_legal_lists_come_in_the_documented_order():
    _, rec = record(players=4, seed=9)
    for e in rec.log:
        legal, d = e["legal"], e["decision"]
        if d == O.D_TILE:
            assert [O.action_arg(a) for a in legal] == sorted(O.action_arg(a) for a in legal)
        elif d == O.D_PYRAMID:
            keys = [(O.action_card(a), O.action_arg(a)) for a in legal]
            assert keys == sorted(keys) and len(keys) == len(set(keys))
        elif d in (O.D_TOMB, O.D_OBELISK):
            assert legal[0] == O.SKIP and [O.action_card(a) for a in legal[1:]] == sorted(
                O.action_card(a) for a in legal[1:])
        assert e["obs"][O.LEGAL_AT] == O.LEGAL and len(e["obs"]) == O.SIZE


def test_the_observation_publishes_the_turn_so_far():
    _, rec = record(players=4, policy=build_everything)
    tomb = rec.of(O.D_TOMB)[0]["obs"]
    seat = tomb[O.SEAT]
    block = O.SEATS + O.SEAT_BLOCK * seat
    card = tomb[O.TURN_PYRAMID_CARD]
    assert card in tomb[block + O.S_PYRAMID:block + O.S_PYRAMID + 10]
    assert card not in tomb[O.HAND:O.HAND + O.MAX_HAND]
    assert tomb[O.MAY_TOMB] == 1 and tomb[O.TURN_TILE] in (ANUBIS, SEKHMET, THOTH)
    pair = tomb[O.TURN_PAIR]
    assert list(tomb[O.QUARRY + 2 * pair:O.QUARRY + 2 * pair + 2]) == [-1, -1]
    keep = rec.of(O.D_KEEP)[0]["obs"]
    assert keep[O.MAY_TOMB] == keep[O.MAY_OBELISK] == 0
    assert rec.of(O.D_TILE)[0]["obs"][O.TURN_PAIR] == -1


def test_the_observation_hides_others_hands_tombs_and_discards():
    for public in (True, False):
        g = Game(rules(tomb_counts_public=public), 3, seed=2)
        seen = []

        def decide(seat, obs, where, g=g):
            if obs[O.ROUND] >= 3 and not seen:
                seen.append(obs.copy())
                seen.append({s: (list(g.hands[s]), list(g.necropolis[s].tomb), list(g.discards[s]))
                             for s in range(3)})
            return 0
        g.setup()
        for _ in range(10):
            g.play_round(decide)
        obs, truth = seen
        me = int(obs[O.SEAT])
        assert sorted(truth[me][0]) == [c for c in obs[O.HAND:O.HAND + O.MAX_HAND] if c >= 0]
        for s in range(3):
            block = O.SEATS + O.SEAT_BLOCK * s
            hand, tomb, discards = truth[s]
            if s == me:
                assert all(obs[O.CARD_LOC + c] == O.LOC_HAND for c in hand)
                assert list(obs[block + O.S_TOMB:block + O.S_TOMB + len(tomb)]) == tomb
                continue
            assert all(x == -1 for x in obs[block + O.S_TOMB:block + O.S_TOMB + 10])
            assert obs[block + O.S_TOMB_N] == (len(tomb) if public else -1)
            for c in hand + tomb + discards:
                assert obs[O.CARD_LOC + c] in (O.LOC_UNSEEN, O.LOC_TAKEN + s)
                assert (obs[O.CARD_LOC + c] == O.LOC_TAKEN + s) == (c in g.from_quarry)


def test_public_discards():
    g, rec = record(rules(discards_public=True), players=3)
    obs = rec.log[-1]["obs"]
    assert all(obs[O.CARD_LOC + c] == O.LOC_DISCARD for d in g.discards[:2] for c in d[:-2])


def test_action_encoding_round_trips():
    for kind in range(8):
        for card in (-1, 0, 127):
            for arg in (-1, 0, 9):
                a = O.encode(kind, card, arg)
                assert (O.action_kind(a), O.action_card(a), O.action_arg(a)) == (kind, card, arg)


# ================================================================ whole games through the core kernel
def random_batch(players, seed=11, first=0, n=3, r=RULES):
    return R.play_batch(r, players, seed, first, n, [random_choice] * players, [np.zeros(1)] * players)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_after_ten_rounds_and_conserve_cards(players):
    for game in range(2):
        g = R.play_game(RULES, players, 11, game, _core_decider(players, 11, game))
        assert g.round == 10
        where = g.where_is_every_card()                     # raises if a card is in two places
        assert len(where) == len(g.cards) == 105
        assert len(g.deck) == 105 - 21 * players
        for s in range(players):
            assert sorted(g.necropolis[s].pyramid) == list(range(10))
            assert len(g.hands[s]) <= 1          # 0 after a turn that built 3 cards
            assert len(g.tiles_taken[s]) == 10
        assert sum(len(h) for h in g.hands) + sum(len(n.cards()) for n in g.necropolis) + \
            sum(map(len, g.discards)) == 21 * players
    b = random_batch(players)
    assert b.scores.shape == (3, players) and np.allclose(b.shares.sum(axis=1), 1.0)
    parts = sum(b.extras[f"{k}_{s}"] for k in ("pyramid", "bonus", "obelisk", "tomb", "glyph")
                for s in [0])
    assert (parts == b.scores[:, 0]).all()
    assert all(len(str(t)) == 10 for t in b.extras["tiles_0"])
    if players < 5:
        assert (b.extras[f"pyramid_{players}"] == -1).all()


def _core_decider(players, seed, game):
    from sim.core.reference import Decider
    return Decider([random_choice] * players, [np.zeros(1)] * players, seed, game, players)


def test_games_are_reproducible_by_seed_and_game_index():
    a, b = random_batch(4, seed=21, n=4), random_batch(4, seed=21, n=4)
    assert (a.scores == b.scores).all() and all((a.extras[k] == b.extras[k]).all() for k in a.extras)
    c = random_batch(4, seed=21, first=2, n=1)                  # game 2 alone is game 2 of the batch
    assert (c.scores[0] == a.scores[2]).all() and c.extras["tiles_3"][0] == a.extras["tiles_3"][2]
    d = random_batch(4, seed=22, n=4)
    assert (d.scores != a.scores).any()


def test_an_illegal_index_is_a_strategy_error():
    def bad(obs, params, rng):
        return 99
    with pytest.raises(StrategyError, match=r"seat 0, game index 0, round 0 \(0-based\), tile decision"):
        R.play_batch(RULES, 2, 1, 0, 1, [bad, random_choice], [np.zeros(1)] * 2)


# ================================================================ the rule set
def test_player_counts_two_to_five():
    for n in (2, 5):
        RULES.check_players(n)
    for n in (1, 6):
        with pytest.raises(UsageError, match="allowed: 2 to 5"):
            RULES.check_players(n)


def test_presets_and_parameter_validation():
    for name in PyramidsRules.PRESETS:
        assert PyramidsRules.preset(name).GAME == "pyramids"
    assert set(PyramidsRules.PRESET_DOCS) == set(PyramidsRules.PRESETS)
    with pytest.raises(UsageError, match="tomb_tie"):
        RULES.with_assignments(["tomb_tie=sometimes"])
    assert RULES.with_assignments(["tomb_tie=split"]).tomb_tie == "split"
    rulings = {p.name for p in PyramidsRules.params() if p.ruling}
    assert {"tomb_tie", "tie_break", "two_player_tiles", "may_keep_none", "large_stone", "sekhmet_small",
            "tomb_counts_public", "upper_level", "discards_public"} <= rulings
    assert "[ruling]" in RULES.to_toml()
