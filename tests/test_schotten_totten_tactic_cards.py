"""Rule `tactic_cards`: the advanced game with some of the tactic cards only.

The tactic pile is all ten cards shuffled with the tactic stream exactly as in the full game, the
cards not in play then taken out (the others keep their order); the cards taken out lie in the box
(CARD_LOC = LOC_BOX in both seats' observations), never in a pile, a hand or on the table. The
default (all ten) plays every game exactly as before the rule existed. Per-game extras
`tactics_drawn0/1` and `tactics_played0/1` are bit masks (bit i: card 54 + i) of the tactic cards
each seat drew and played.
"""
from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd
import pytest
from numba import njit

from sim.core.errors import UsageError
from sim.core.rng import KeyedRng, deck_stream, uniform_below
from sim.core.strategy_api import DECIDE_SIG
from sim.schotten_totten import cards as C
from sim.schotten_totten import fast, reference
from sim.schotten_totten import observation as O
from sim.schotten_totten import policies as K
from sim.schotten_totten.reference import LOC_BOX, Game, play_kernel_game
from sim.schotten_totten.rules import SchottenTottenRules

TOKENS = list(C.TACTIC_TOKENS.values())
NO_PARAMS = [np.zeros(0), np.zeros(0)]
SUBSETS = [("Fog", "Mud"), ("Chief1",), ("Scout", "Redeploy", "Deserter", "Traitor"), (),
           tuple(t for t in TOKENS if t != "Shield")]


def rules(preset="tactics", **changes) -> SchottenTottenRules:
    return SchottenTottenRules.preset(preset).replace(**changes)


def ids(tokens) -> set[int]:
    return {C.parse_card(t) for t in tokens}


def out_mask(tokens) -> int:
    return sum(1 << (c - C.N_CLAN) for c in C.TACTIC_CARDS if c not in ids(tokens))


# ================================================================ the deal
@pytest.mark.parametrize("subset", SUBSETS)
def test_pile_is_the_full_shuffle_with_the_removed_cards_deleted(subset):
    r = rules(tactic_cards=subset)
    for game in range(12):
        full, part = Game(rules(), 31, game), Game(r, 31, game)
        shuffled = list(C.TACTIC_CARDS)
        KeyedRng(31, game, deck_stream(1)).shuffle(shuffled)
        assert full.tactic_pile == shuffled
        assert part.tactic_pile == [c for c in shuffled if c in ids(subset)]
        assert sorted(part.tactic_pile) == sorted(ids(subset))
        assert part.box == [c for c in C.TACTIC_CARDS if c not in ids(subset)]
        assert (part.hands, part.clan_pile) == (full.hands, full.clan_pile)   # same clan deal
        loc = part.locations()
        assert all(loc[c] == LOC_BOX for c in C.TACTIC_CARDS if c not in ids(subset))


@pytest.mark.parametrize("subset", SUBSETS)
def test_fast_engine_deals_the_same_pile_and_boxes_the_rest(subset):
    r = rules(tactic_cards=subset)
    packed = fast.pack_rules(r)
    assert packed[fast.R_TACTICS_OUT] == out_mask(subset)
    work = np.zeros((fast.W_ROWS, fast.W_WIDTH), np.int64)
    streams = np.zeros(2, np.uint64)
    for game in range(6):
        fast.new_game(work, streams, packed, np.uint64(31), np.int64(game))
        state = work[fast.W_STATE]
        pile = list(work[fast.W_TACTIC_PILE, state[fast.S_T_HEAD]:state[fast.S_T_TAIL]])
        assert pile == Game(r, 31, game).tactic_pile
        for row in (fast.W_OBS0, fast.W_OBS1):
            loc = work[row, O.CARD_LOC:O.CARD_LOC + O.N_CARDS]
            for c in C.TACTIC_CARDS:
                assert loc[c] == (O.LOC_UNSEEN if c in ids(subset) else O.LOC_BOX)


def test_all_ten_is_the_default_and_the_order_of_the_list_does_not_matter():
    assert rules().tactic_cards == tuple(TOKENS) == SchottenTottenRules().tactic_cards
    assert rules(tactic_cards=TOKENS[::-1]) == rules()
    assert rules(tactic_cards=["Mud", "Fog"]).tactic_cards == ("Fog", "Mud")
    assert fast.pack_rules(rules())[fast.R_TACTICS_OUT] == 0
    assert fast.pack_rules(rules("base", tactic_cards=["Fog"]))[fast.R_TACTICS_OUT] == 0   # no tactics
    assert rules("base").tactic_cards_in_play() == ()
    assert rules(tactic_cards=["Traitor", "Chief1"]).tactic_cards_in_play() == (C.CHIEF_1, C.TRAITOR)


# results of 60 random games per preset (seed 2026, games 100..159) computed before the rule
# `tactic_cards` existed: shares and the extras of that time
PINNED = {"tactics": "4390448bf709e1a1", "tactics-claim-at-start": "9430bf0e1eb38e7e"}


@pytest.mark.parametrize("preset", sorted(PINNED))
def test_default_games_are_bit_identical_to_before(preset):
    for engine in (reference, fast):
        b = engine.play_batch(rules(preset), 2, 2026, 100, 60, [K.random_policy] * 2, NO_PARAMS)
        h = hashlib.sha256(b.shares.tobytes())
        for k in ("cards_played", "end", "turns", "proof_claims"):
            h.update(b.extras[k].astype(np.int64).tobytes())
        assert h.hexdigest()[:16] == PINNED[preset], engine.__name__


def test_without_a_card_the_game_is_the_same_until_it_would_have_been_drawn():
    """Common random numbers: with random play, a game without a card that nobody drew in the
    full game (and whose pile never ran out) replays the full game exactly."""
    short = dict(stones=3, adjacent_to_win=1, total_to_win=1)    # short games: cards left undrawn
    full = fast.play_batch(rules(**short), 2, 8, 0, 400, [K.random_policy] * 2, NO_PARAMS,
                           [K.RANDOM_POLICY] * 2)
    drawn = full.extras["tactics_drawn0"] | full.extras["tactics_drawn1"]
    for token in ("Traitor", "Fog"):
        bit = 1 << (C.parse_card(token) - C.N_CLAN)
        part = fast.play_batch(rules(tactic_cards=[t for t in TOKENS if t != token], **short), 2, 8, 0,
                               400, [K.random_policy] * 2, NO_PARAMS, [K.RANDOM_POLICY] * 2)
        undrawn = (drawn & bit) == 0
        # at most 8 of the 10 cards drawn: the shorter pile never ran out where the full one had not
        same = undrawn & (np.array([bin(d).count("1") for d in drawn]) <= 8)
        assert same.sum() > 50 and (~same).sum() > 50
        np.testing.assert_array_equal(part.shares[same], full.shares[same])
        np.testing.assert_array_equal(part.extras["turns"][same], full.extras["turns"][same])
        assert ((part.extras["tactics_drawn0"] | part.extras["tactics_drawn1"]) & bit == 0).all()


# ================================================================ removed cards stay in the box
@njit(DECIDE_SIG, cache=True)
def box_checker(obs, params, rng):
    """Random play that returns an illegal index if a card of the mask params[0] (bit i: card
    54 + i) is anywhere but the box in this seat's view, or in its hand."""
    mask = np.int64(params[0])
    for i in range(10):
        if (mask >> i) & 1:
            if obs[O.CARD_LOC + 54 + i] != O.LOC_BOX:
                return -1
            for j in range(O.MAX_HAND):
                if obs[O.HAND + j] == 54 + i:
                    return -1
    return uniform_below(rng, obs[O.N_LEGAL])


@pytest.mark.parametrize("subset", SUBSETS[:4])
def test_removed_cards_never_enter_the_game(subset):
    r = rules("tactics-claim-at-start" if len(subset) == 1 else "tactics", tactic_cards=subset)
    mask = out_mask(subset)
    params = [np.array([float(mask)]), np.array([float(mask)])]
    # fast engine: every observation of both seats (an illegal answer would raise), and the extras
    b = fast.play_batch(r, 2, 5, 0, 1500, [box_checker] * 2, params)
    for key in ("tactics_drawn0", "tactics_drawn1", "tactics_played0", "tactics_played1"):
        assert (b.extras[key] & mask == 0).all(), key
    # reference engine: the whole state after every decision and at the end
    def watch(obs, prm, rng):
        i = box_checker(obs, prm, rng)
        assert i >= 0, "a removed card left the box"
        return i

    seen = []
    for game in range(25):
        g = play_kernel_game(r, 5, game, [watch] * 2, params)
        loc = g.locations()
        assert all(loc[c] == LOC_BOX for c in C.TACTIC_CARDS if (mask >> (c - C.N_CLAN)) & 1)
        seen.append(g.drawn_tactics[0] | g.drawn_tactics[1])
    if subset:
        assert any(seen)


def test_extras_drawn_and_played_masks():
    b = fast.play_batch(rules(), 2, 3, 0, 2000, [K.random_policy] * 2, NO_PARAMS, [K.RANDOM_POLICY] * 2)
    d0, d1, p0, p1 = (b.extras[k] for k in ("tactics_drawn0", "tactics_drawn1", "tactics_played0",
                                             "tactics_played1"))
    assert ((p0 & ~d0) == 0).all() and ((p1 & ~d1) == 0).all()    # played only what one drew
    assert ((d0 | d1) < 1024).all() and ((d0 | d1) > 0).all()
    assert (p0 & p1 == 0).all()                                   # a card is played once
    assert ((d0 & d1) != 0).any()          # the Scout's returns can be drawn again, by the other seat
    played = np.array([bin(x).count("1") for x in p0 | p1])
    assert (played <= b.extras["cards_played"]).all()
    base = fast.play_batch(rules("base"), 2, 3, 0, 200, [K.random_policy] * 2, NO_PARAMS,
                           [K.RANDOM_POLICY] * 2)
    assert all((base.extras[k] == 0).all() for k in ("tactics_drawn0", "tactics_drawn1"))


def test_empty_list_is_a_tactic_game_without_tactic_cards():
    r = rules(tactic_cards=[])
    g = Game(r, 4, 0)
    assert g.tactic_pile == [] and g.box == list(C.TACTIC_CARDS) and g.drawable_piles() == [0]
    a = fast.play_batch(r, 2, 4, 0, 300, [K.random_policy] * 2, NO_PARAMS, [K.RANDOM_POLICY] * 2)
    b = fast.play_batch(rules("base"), 2, 4, 0, 300, [K.random_policy] * 2, NO_PARAMS, [K.RANDOM_POLICY] * 2)
    np.testing.assert_array_equal(a.shares, b.shares)     # nothing tactic left: the base game


def test_positions_put_tactic_cards_out_of_the_game_in_the_box():
    r = rules(tactic_cards=["Fog", "Mud"])
    g = Game.from_position(r, "turn 0\nhand0 R1 Fog\n0: R2 / -")
    assert g.tactic_pile == [C.MUD] and C.FOG in g.hands[0]
    assert g.box == [c for c in C.TACTIC_CARDS if c not in (C.FOG, C.MUD)]
    assert (Game.from_position(rules(), "0: R2 / -").tactic_pile == list(C.TACTIC_CARDS))


# ================================================================ bad values
@pytest.mark.parametrize("value, fragment", [
    (["Fog", "Bog"], "item 'Bog' is not allowed; did you mean 'Fog'?"),
    (["Fog", "Mud", "Fog"], "item 'Fog' given 2 times"),
    (["chief1"], "item 'chief1' is not allowed"),
])
def test_bad_tactic_cards_name_the_item_and_the_allowed_tokens(value, fragment):
    with pytest.raises(UsageError) as e:
        rules(tactic_cards=value)
    message = str(e.value)
    assert fragment in message and "tactic_cards" in message
    assert ", ".join(repr(t) for t in TOKENS) in message
    with pytest.raises(UsageError, match=fragment.replace("?", r"\?")):
        rules().with_assignments([f"tactic_cards={','.join(value)}"])


# ================================================================ command line
def test_cli_runs_with_some_tactic_cards_and_rejects_bad_ones(cli):
    ok = cli("run", "schotten-totten", "-s", "random", "--preset", "tactics", "--set", "tactic_cards=Fog,Mud",
             "-n", "100", "-o", "out.csv", "--per-game")
    assert ok.exit_code == 0, ok.output
    assert "tactic_cards=Fog,Mud" in ok.stdout
    games = pd.read_csv("out-games.csv")
    assert {"tactics_drawn0", "tactics_drawn1", "tactics_played0", "tactics_played1"} <= set(games.columns)
    assert ((games.tactics_drawn0 | games.tactics_drawn1) & ~0b110000 == 0).all()
    run = ("run", "schotten-totten", "-s", "random", "--preset", "tactics", "-n", "100", "--set")
    bad = cli(*run, "tactic_cards=Fog,Bog")
    assert bad.exit_code == 2 and "item 'Bog' is not allowed" in bad.stderr and "'Traitor'" in bad.stderr
    dup = cli(*run, "tactic_cards=Fog,Fog")
    assert dup.exit_code == 2 and "given 2 times" in dup.stderr
    listing = cli("rules", "schotten-totten", "--preset", "tactics", "--set", "tactic_cards=Scout")
    assert listing.exit_code == 0 and 'tactic_cards = ["Scout"]' in listing.stdout
