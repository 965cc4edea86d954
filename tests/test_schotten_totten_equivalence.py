"""The Schotten Totten fast engine agrees with the reference engine game by game, on every preset
and on rule variants; the strategy API's observation vector shows exactly the deciding seat's view.

The reference engine plays about 60-80 games a second, so the game counts below are sized to keep
this file well under a minute once the fast engine is compiled (numba caches it on disk).
"""
import numpy as np
import pytest
from numba import get_num_threads, njit, set_num_threads

from sim.core.batch import Batch, StrategyError
from sim.core.kernels import hash_observation, observation_hash
from sim.core.rng import uniform_below
from sim.core.strategy_api import DECIDE_SIG
from sim.schotten_totten import cards as C
from sim.schotten_totten import fast, reference
from sim.schotten_totten import observation as O
from sim.schotten_totten import policies as K
from sim.schotten_totten.reference import Game, RandomPolicy, play_game
from sim.schotten_totten.rules import SchottenTottenRules

NO_PARAMS = [np.zeros(0), np.zeros(0)]


@njit(DECIDE_SIG, cache=True)
def recording_hash(obs, params, rng):
    """`observation_hash` that also records each observation's hash (48 bits, exact in a float)
    and its choice in its params: params[1] counts decisions, then (hash, choice) pairs."""
    i = observation_hash(obs, params, rng)
    k = int(params[1])
    if 3 + 2 * k < params.shape[0]:
        params[2 + 2 * k] = np.float64(hash_observation(obs) & ((1 << 48) - 1))
        params[3 + 2 * k] = i
    params[1] += 1
    return i


def rules(preset="base", **overrides):
    return SchottenTottenRules.preset(preset).replace(**overrides)


def assert_same(got: Batch, ref: Batch):
    np.testing.assert_array_equal(got.scores, ref.scores)
    np.testing.assert_array_equal(got.shares, ref.shares)
    assert set(got.extras) == set(ref.extras) == set(reference.EXTRAS)
    for key in reference.EXTRAS:
        np.testing.assert_array_equal(got.extras[key], ref.extras[key], err_msg=key)


def lineup(strategy):
    if strategy == "random":
        return [K.random_policy] * 2, NO_PARAMS, [K.RANDOM_POLICY] * 2
    return [observation_hash] * 2, [np.array([11.0]), np.array([29.0])], None


CASES = [(preset, {}, strategy, 200) for preset in sorted(SchottenTottenRules.PRESETS)
         for strategy in ("random", "hash")] + [
    ("tactics", {"auto_claim": False}, "hash", 60),
    ("base-claim-at-start", {"auto_claim": False}, "hash", 60),
    ("tactics-claim-at-start", {"auto_claim": False, "redeploy": "discard"}, "hash", 60),
    ("tactics", {"no_play": "blocked", "blocked_game": "draw", "first_player": "random",
                 "tactic_limit": 2}, "hash", 60),
    ("tactics", {"stones": 5, "adjacent_to_win": 2, "total_to_win": 3, "hand_size": 8}, "hash", 60),
    ("tactics", {"hand_size": 12, "stones": 7, "adjacent_to_win": 4, "total_to_win": 6}, "random", 60),
    ("base", {"hand_size": 3, "no_play": "blocked"}, "hash", 60),
    ("tactics", {"hand_size": 2, "tactic_limit": 3, "first_player": "random"}, "random", 60),
    # some of the tactic cards only (rule tactic_cards): the others lie in the box
    ("tactics", {"tactic_cards": ("Fog", "Mud", "Scout", "Traitor")}, "hash", 100),
    ("tactics", {"tactic_cards": ("Chief1", "Chief2", "Troop", "Shield", "Redeploy", "Deserter")},
     "random", 100),
    ("tactics-claim-at-start", {"tactic_cards": ("Scout",), "auto_claim": False}, "hash", 60),
    ("tactics", {"tactic_cards": ()}, "hash", 60),
]


@pytest.mark.parametrize("preset,overrides,strategy,n", CASES)
def test_fast_engine_matches_reference_game_by_game(preset, overrides, strategy, n):
    r = rules(preset, **overrides)
    kernels, params, natives = lineup(strategy)
    seed, first = 20261130, 5000
    ref = reference.play_batch(r, 2, seed, first, n, kernels, params)
    for nat in ([natives, None] if natives else [None]):   # built-ins natively and by pointer
        assert_same(fast.play_batch(r, 2, seed, first, n, kernels, params, nat), ref)
    assert ref.shares.sum() == n and (ref.extras["end"] >= 0).all()
    drawn = ref.extras["tactics_drawn0"] | ref.extras["tactics_drawn1"]
    in_play = sum(1 << (c - C.N_CLAN) for c in r.tactic_cards_in_play())
    assert (drawn & ~in_play == 0).all()      # a card out of the game is never drawn
    if in_play:
        assert drawn.any()
    if overrides.get("no_play") == "blocked" or overrides.get("auto_claim") is False:
        assert (ref.extras["end"] == reference.END_CODES["blocked"]).any()


@pytest.mark.parametrize("preset,overrides,game", [
    ("base", {}, 1), ("tactics", {}, 2), ("tactics", {}, 3), ("base-claim-at-start", {}, 4),
    ("tactics-claim-at-start", {}, 5), ("tactics", {"auto_claim": False}, 6),
    ("tactics", {"redeploy": "discard", "first_player": "random"}, 7),
    ("tactics", {"tactic_cards": ("Scout", "Redeploy", "Deserter", "Traitor", "Mud")}, 8)])
def test_every_observation_is_the_same_in_both_engines(preset, overrides, game):
    """Decision by decision: the hash of each vector a strategy gets, and its choice."""
    r = rules(preset, **overrides)
    logs = []
    for engine in (reference, fast):
        params = [np.zeros(2 + 2 * 400), np.zeros(2 + 2 * 400)]
        params[0][0], params[1][0] = 3.0, 8.0
        engine.play_batch(r, 2, 99, game, 1, [recording_hash] * 2, params)
        logs.append(params)
    for seat in (0, 1):
        assert 0 < logs[0][seat][1] < 400
        np.testing.assert_array_equal(logs[1][seat], logs[0][seat], err_msg=f"seat {seat}")


def test_kernel_play_is_the_readable_random_policy():
    """The random kernel draws from the seat's stream exactly as `RandomPolicy`."""
    r = rules("tactics")
    a = reference.play_batch(r, 2, 4, 0, 30, [K.random_policy] * 2, NO_PARAMS)
    b = reference.play_policy_batch(r, 4, 0, 30, [RandomPolicy(), RandomPolicy()])
    np.testing.assert_array_equal(a.shares, b.shares)
    for key in reference.EXTRAS:
        np.testing.assert_array_equal(a.extras[key], b.extras[key])
    assert ((a.scores == 1) == (a.shares == 1.0)).all() and a.scores.sum(axis=1).max() == 1


def test_scores_shares_and_extras_of_a_batch():
    r = rules("tactics", no_play="blocked")
    b = fast.play_batch(r, 2, 1, 0, 3000, [K.random_policy] * 2, NO_PARAMS, [K.RANDOM_POLICY] * 2)
    draw = b.shares[:, 0] == 0.5
    assert (b.scores[draw] == 0).all() and (b.shares[draw] == 0.5).all()
    assert (b.scores[~draw].sum(axis=1) == 1).all() and (b.scores[~draw] == b.shares[~draw]).all()
    ends = np.bincount(b.extras["end"], minlength=3)
    assert ends.sum() == 3000 and ends[0] > 0 and ends[1] > 0 and ends[2] > 0
    assert (b.extras["cards_played"] <= b.extras["turns"] + 1).all()
    assert (b.extras["proof_claims"] <= 9).all() and b.extras["proof_claims"].sum() > 0
    assert set(reference.END_CODES) == set(reference.END_KINDS)
    assert all(reference.END_KINDS.index(k) == v for k, v in reference.END_CODES.items())
    assert reference.END_CODES == {"adjacent": fast.END_ADJACENT, "five": fast.END_FIVE,
                                   "blocked": fast.END_BLOCKED}


def test_results_do_not_depend_on_threads_or_chunks():
    r = rules("tactics")
    kernels, params, _ = lineup("hash")
    whole = fast.play_batch(r, 2, 42, 100, 1200, kernels, params)
    threads = get_num_threads()
    try:
        set_num_threads(1)
        parts = [fast.play_batch(r, 2, 42, 100 + a, b - a, kernels, params, block=blk)
                 for a, b, blk in ((0, 1, 1), (1, 500, 7), (500, 1200, 1000))]
    finally:
        set_num_threads(threads)
    assert_same(Batch.concat(parts), whole)
    assert Batch.concat(parts).first_game == 100


@njit(DECIDE_SIG, cache=True)
def scribbler(obs, params, rng):
    """Plays as the random policy, then writes garbage over its whole vector."""
    i = uniform_below(rng, obs[O.N_LEGAL])
    for j in range(obs.shape[0]):
        obs[j] = 10 ** 6 + j
    return i


def test_a_strategy_that_writes_into_its_vector_changes_neither_the_game_nor_what_the_other_sees():
    r = rules("tactics")
    for kernels in ([scribbler, observation_hash], [observation_hash, scribbler]):
        params = [np.array([1.0]), np.array([2.0])]
        assert_same(fast.play_batch(r, 2, 3, 0, 60, kernels, params),
                    reference.play_batch(r, 2, 3, 0, 60, kernels, params))


def test_illegal_action_is_reported_alike_by_both_engines():
    @njit(DECIDE_SIG)
    def bad(obs, params, rng):   # out of range once the game is under way
        return obs[O.N_LEGAL] if obs[O.TURN] > 6 and obs[O.DECISION] == O.D_PLAY else 0

    @njit(DECIDE_SIG)
    def negative(obs, params, rng):
        return -1 if obs[O.DECISION] == O.D_DRAW else 0

    for r, kernels in ((rules(), [K.random_policy, bad]), (rules("tactics"), [negative, K.random_policy])):
        errors = []
        for engine in (reference, fast):
            with pytest.raises(StrategyError) as e:
                engine.play_batch(r, 2, 7, 3, 20, kernels, NO_PARAMS)
            errors.append(e.value)
        assert str(errors[0]) == str(errors[1])
        assert (errors[0].seat, errors[0].game) == (errors[1].seat, errors[1].game)
        assert "game index 3" in str(errors[0]) and "illegal action" in str(errors[0])
    with pytest.raises(ValueError):
        fast.play_batch(rules(), 3, 0, 0, 1, [K.random_policy] * 3, [np.zeros(0)] * 3)


# ---------------------------------------------------------------- the observation vector
def test_action_encoding_round_trips():
    for kind, card, stone, target, dest, pile in [(O.PLAY, 53, 8, -1, -1, -1), (O.PASS, -1, -1, -1, -1, -1),
                                                  (O.REDEPLOY, C.REDEPLOY, 0, C.CHIEF_2, -1, -1),
                                                  (O.TRAITOR, C.TRAITOR, 8, 0, 7, -1),
                                                  (O.DRAW, -1, -1, -1, -1, O.PILE_TACTIC),
                                                  (O.END_CLAIMS, -1, -1, -1, -1, -1)]:
        a = O.encode_py(kind, card, stone, target, dest, pile)
        assert a == O.encode(kind, card, stone, target, dest, pile) > 0
        assert O.decode_py(a) == (kind, card, stone, target, dest, pile)
        assert (O.action_kind(a), O.action_card(a), O.action_stone(a), O.action_target(a),
                O.action_dest(a), O.action_pile(a)) == (kind, card, stone, target, dest, pile)
    assert O.encode_py(O.PASS) == O.PASS and O.encode_py(O.END_CLAIMS) == O.END_CLAIMS
    # the codes are the reference's
    assert (reference.PLAY, reference.PASS, reference.SCOUT, reference.REDEPLOY, reference.DESERTER,
            reference.TRAITOR, reference.DRAW, reference.RETURN, reference.CLAIM, reference.END_CLAIMS) == \
        (O.PLAY, O.PASS, O.SCOUT, O.REDEPLOY, O.DESERTER, O.TRAITOR, O.DRAW, O.RETURN, O.CLAIM, O.END_CLAIMS)
    assert (reference.LOC_HAND, reference.LOC_DISCARD, reference.LOC_BOX, reference.LOC_SIDE,
            reference.LOC_ENV) == (O.LOC_HAND, O.LOC_DISCARD, O.LOC_BOX, O.LOC_SIDE, O.LOC_ENV)
    assert O.DECISION_NAMES == (reference.PHASE_PLAY, reference.PHASE_CLAIM, reference.PHASE_DRAW,
                                reference.PHASE_SCOUT_DRAW, reference.PHASE_SCOUT_RETURN)
    assert O.SIZE == O.LEGAL + O.MAX_LEGAL and len(set(O.NAMES)) == len(O.NAMES)


@pytest.mark.parametrize("preset,game", [("base", 0), ("tactics", 1), ("tactics", 2),
                                         ("tactics-claim-at-start", 3)])
def test_the_vector_shows_the_deciding_seats_view(preset, game):
    """At every decision of a game: the vector agrees with the readable state and hides the
    opponent's hand and the piles."""
    r = rules(preset, auto_claim=game != 2)
    g = Game(r, 5, game)
    seen_kinds = set()

    class Check(RandomPolicy):
        def __call__(self, view, legal):
            seat = view.seat
            obs = g.flat_observation(seat, view.phase, legal)
            assert obs.shape == (O.SIZE,) and obs.dtype == np.int64
            assert obs[O.SEAT] == seat == g.to_move and O.DECISION_NAMES[obs[O.DECISION]] == view.phase
            n = obs[O.N_LEGAL]
            assert n == len(legal) >= 2
            assert [reference.Action(*O.decode_py(a)) for a in obs[O.LEGAL:O.LEGAL + n]] == legal
            seen_kinds.update(a.kind for a in legal)
            hand = [c for c in obs[O.HAND:O.HAND + O.MAX_HAND] if c >= 0]
            assert hand == sorted(g.hands[seat]) and len(hand) == obs[O.HAND_SIZE + seat]
            assert obs[O.HAND_SIZE + 1 - seat] == len(g.hands[1 - seat])
            loc = obs[O.CARD_LOC:O.CARD_LOC + C.N_CARDS]
            for c in g.hands[1 - seat] + g.clan_pile + g.tactic_pile:
                assert loc[c] == O.LOC_UNSEEN, "a hidden card is shown"
            assert sorted(np.flatnonzero(loc == O.LOC_HAND + seat)) == sorted(g.hands[seat])
            assert not (loc == O.LOC_HAND + 1 - seat).any()
            assert obs[O.CLAN_PILE] == len(g.clan_pile) and obs[O.TACTIC_PILE] == len(g.tactic_pile)
            for s in range(r.stones):
                assert obs[O.CLAIMED + s] == g.claimed[s] and obs[O.NEED + s] == g.capacity(s)
                for p in (0, 1):
                    k = 2 * s + p
                    cards = list(obs[O.SIDE + 4 * k:O.SIDE + 4 * k + obs[O.SIDE_N + k]])
                    assert cards == g.sides[s][p] and all(loc[c] == O.LOC_SIDE + k for c in cards)
            nd = obs[O.N_DISCARD]
            assert list(obs[O.DISCARD:O.DISCARD + nd]) == g.discard
            assert obs[O.STONES_HELD] == g.stones_of(0) and obs[O.STONES_HELD + 1] == g.stones_of(1)
            return super().__call__(view, legal)

    play_game(r, 5, game, [Check(), Check()], game_state=g)
    assert g.over
    assert reference.PLAY in seen_kinds and (reference.DRAW in seen_kinds or not r.tactics)


# ---------------------------------------------------------------- the compiled proof
def _summary(cards):
    clan = [c for c in cards if c < C.N_CLAN]
    vmask = cmask = 0
    for c in clan:
        vmask |= 1 << (C.value_of(c) - 1)
        cmask |= 1 << C.colour_of(c)
    return (len(clan), sum(C.value_of(c) for c in clan), vmask, cmask,
            sum(c in C.CHIEFS for c in cards), cards.count(C.TROOP), cards.count(C.SHIELD))


def test_compiled_best_key_and_proof_match_cards_py():
    """`fast.best_key` / `fast.beats` against `cards.best_key` on random sides and pools,
    concentrated on few colours and values so that every category occurs."""
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(4000):
        need = int(rng.choice([3, 3, 4]))
        fog = bool(rng.random() < 0.15)
        colours = rng.choice(6, size=int(rng.integers(1, 4)), replace=False)
        low = int(rng.integers(1, 7))
        universe = [C.clan_card(int(c), v) for c in colours for v in range(low, min(9, low + 4) + 1)]
        if rng.random() < 0.3:
            universe = list(range(C.N_CLAN))
        rng.shuffle(universe)
        morale = [m for m in (C.CHIEF_1, C.TROOP, C.SHIELD) if rng.random() < 0.2]
        n_clan = int(rng.integers(0, need - len(morale) + 1)) if len(morale) <= need else 0
        morale = morale[:need]
        side = universe[:n_clan] + morale
        pool = [c for c in universe[n_clan:] if rng.random() < 0.5]
        pool_mask = sum(1 << c for c in pool)
        s = _summary(side)
        for min_cat in (C.SUM, int(rng.integers(0, 5))):
            want = C.best_key(side, need, fog, pool, min_category=min_cat)
            assert fast.best_key(*s, need, fog, pool_mask, min_cat) == want, (side, need, fog, pool, min_cat)
        # the proof: does some completion beat a claimer's formation of strength `mine`?
        mine = int(rng.choice([C.best_key(side, need, fog, pool) + d for d in (-1, 0, 1)] +
                              [int(rng.integers(6, 430))]))
        if mine < 0:
            continue
        theirs = C.best_key(side, need, fog, pool, min_category=C.SUM if fog else C.category_of(mine))
        assert fast.beats(*s, need, fog, pool_mask, mine) == (theirs > mine), (side, need, fog, pool, mine)
        checked += 1
    assert checked > 3000
