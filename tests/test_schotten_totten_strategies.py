"""The built-in Schotten Totten strategies: greedy, flat-mc and ismcts (policies.py, search.py).

They only ever return legal indices, are reproducible from the seed, play the same games in both
engines, beat the random policy, and decide from what their seat sees: the search's
determinizations are rebuilt from the observation vector alone (the opponent's actual hand never
enters), and the engine state they rebuild regenerates exactly the decision being taken.

Budgets are tiny (sims=2, iters=16) so that the file runs in well under a minute once the
kernels are compiled (numba caches them on disk).
"""
import numpy as np
import pytest
from numba import njit

import strategies.schotten_totten  # noqa: F401  (registers the built-ins)
from sim.core.rng import new_state, uniform_below
from sim.core.stats import wilson
from sim.core.strategy_api import DECIDE_SIG
from sim.schotten_totten import fast, reference, search
from sim.schotten_totten import observation as O
from sim.schotten_totten import policies as K
from sim.schotten_totten.rules import SchottenTottenRules
from strategies.play import play
from strategies.registry import parse_spec

# `make test` (--dist loadgroup): `probe` is compiled in one xdist worker, not in both
pytestmark = pytest.mark.xdist_group("st-probe")

GAME = "schotten-totten"
PRESETS = sorted(SchottenTottenRules.PRESETS)      # tactics on / off x both claim timings
SPECS = ["greedy", "flat-mc:sims=2,prune=3", "flat-mc:sims=2,prune=3,infer=5,margin=0.2",
         "ismcts:iters=16,prune=4", "ismcts:iters=16,prune=4,inner=2",
         "ismcts:iters=16,prune=4,replies=0"]


def rules(preset="base", **overrides):
    return SchottenTottenRules.preset(preset).replace(**overrides)


def lineup(specs, r):
    bound = [parse_spec(GAME, s) for s in specs]
    return ([b.strategy.kernel for b in bound], [b.params_array(r, 2) for b in bound],
            [b.strategy.native for b in bound])


# ---------------------------------------------------------------- legal actions everywhere
KERNEL_CODES = {"random": 0, "greedy": 1, "flat-mc": 2, "ismcts": 3}


@njit(cache=True)
def _built_in(code, obs, params, rng):
    if code == 0:
        return K.random_policy(obs, params, rng)
    if code == 1:
        return K.greedy_policy(obs, params, rng)
    if code == 2:
        return search.flat_mc_policy(obs, params, rng)
    return search.ismcts_policy(obs, params, rng)


@njit(DECIDE_SIG, cache=True)
def probe(obs, params, rng):
    """Asks the built-in kernel params[0] (KERNEL_CODES, with parameters params[1:]) for its
    choice, returns an illegal index if it is illegal, and otherwise plays at random: the kernel
    is checked on the varied positions of random games (tactic cards, Scout draws and returns,
    manual claims)."""
    n = obs[O.N_LEGAL]
    i = _built_in(int(params[0]), obs, params[1:], rng)
    if i < 0 or i >= n:
        return n
    return uniform_below(rng, n)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("spec", SPECS)
def test_strategies_return_only_legal_indices(preset, spec):
    b = parse_spec(GAME, spec)
    games = 12 if b.strategy.name == "greedy" else 2
    for overrides in ({}, {"auto_claim": False}):
        r = rules(preset, **overrides)
        prm = np.concatenate([[float(KERNEL_CODES[b.strategy.name])], b.params_array(r, 2)])
        # checked at random positions, and in its own games against the greedy (fast engine:
        # an illegal index raises StrategyError)
        fast.play_batch(r, 2, 11, 0, games, [probe] * 2, [prm, prm])
        kernels, params, natives = lineup([spec, "greedy"], r)
        fast.play_batch(r, 2, 12, 0, games, kernels, params, natives)


# ---------------------------------------------------------------- reproducible, engine-agnostic
@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_games(spec):
    r = rules("tactics")
    kernels, params, natives = lineup([spec, "random"], r)
    n = 6 if spec == "greedy" else 2
    a = fast.play_batch(r, 2, 5, 0, n, kernels, params, natives)
    b = fast.play_batch(r, 2, 5, 0, n, kernels, params, natives)
    c = fast.play_batch(r, 2, 5, 0, n, kernels, params, None)     # by function pointer
    for other in (b, c):
        np.testing.assert_array_equal(a.shares, other.shares)
        for key in reference.EXTRAS:
            np.testing.assert_array_equal(a.extras[key], other.extras[key])


@pytest.mark.parametrize("preset,specs,n", [
    ("base", ["greedy", "random"], 12), ("tactics", ["random", "greedy"], 12),
    ("tactics-claim-at-start", ["greedy", "greedy"], 8),
    ("base", ["flat-mc:sims=2,prune=3", "greedy"], 2),
    ("tactics", ["greedy", "flat-mc:sims=2,prune=3"], 2),
    ("base", ["greedy", "flat-mc:sims=2,prune=3,infer=5"], 2),
    ("tactics", ["ismcts:iters=16,prune=3", "random"], 1),
    ("base", ["greedy", "ismcts:iters=16,prune=3,inner=2"], 1),
    ("base", ["ismcts:iters=16,prune=3,replies=2", "greedy"], 1)])
def test_fast_and_reference_engines_agree_game_by_game(preset, specs, n):
    r = rules(preset)
    kernels, params, natives = lineup(specs, r)
    ref = reference.play_batch(r, 2, 77, 40, n, kernels, params)
    got = fast.play_batch(r, 2, 77, 40, n, kernels, params, natives)
    np.testing.assert_array_equal(got.shares, ref.shares)
    for key in reference.EXTRAS:
        np.testing.assert_array_equal(got.extras[key], ref.extras[key], err_msg=key)


# ---------------------------------------------------------------- strength
def _win_rate(a, b, preset, deals, seed):
    """Share of games won by `a` (draws half) over `deals` deals played with both seatings."""
    r = rules(preset)
    wins = 0.0
    for seats, j in (([a, b], 0), ([b, a], 1)):
        res = play(GAME, r, seats, games=deals, seed=seed, progress=False)
        wins += res.totals.summary()[2][j] * deals
    low, high = wilson(np.array([wins]), np.array([2 * deals]))
    return wins / (2 * deals), float(low[0])


def test_greedy_beats_random_clearly():
    for preset in ("base", "tactics"):
        rate, low = _win_rate("greedy", "random", preset, 200, 3)
        assert low > 0.5 and rate > 0.9, (preset, rate)


def test_flat_mc_with_a_small_budget_beats_random():
    rate, low = _win_rate("flat-mc:sims=2,prune=3,rollout=0", "random", "base", 12, 4)
    assert low > 0.5, rate


# ---------------------------------------------------------------- information
def _positions(preset, n_games, first=0, **overrides):
    """(copy of the game state, observation vector, phase) at every decision of random games in
    the reference engine."""
    import copy
    r = rules(preset, **overrides)
    out = []
    for game in range(first, first + n_games):
        g = reference.Game(r, 9, game)
        rng = reference.KeyedRng(9, game, 3)

        def decide(seat, phase, legal, g=g, rng=rng):
            out.append((copy.deepcopy(g), g.flat_observation(seat, phase, legal), phase))
            return legal[rng.below(len(legal))]
        while not g.over:
            g.play_turn(decide)
    return out


def _swap_opponent_hand(g, seat, rng):
    """The same game with the opponent's hidden hand exchanged with cards of the piles (the same
    numbers of clan and tactic cards), so that nothing the seat sees changes."""
    opp = 1 - seat
    hand = list(g.hands[opp])
    for pile in (g.clan_pile, g.tactic_pile):
        mine = [c for c in hand if (c < 54) == (pile is g.clan_pile)]
        k = min(len(mine), len(pile))
        if k == 0:
            continue
        rng.shuffle(pile)
        out, into = mine[:k], pile[:k]
        hand = [c for c in hand if c not in out] + into
        pile[:k] = out
    g.hands[opp] = sorted(hand)
    return g


def test_decisions_never_depend_on_the_opponents_hidden_hand():
    rng = np.random.default_rng(1)
    checked = 0
    kernels = [(parse_spec(GAME, s).strategy.kernel, parse_spec(GAME, s).params_array(None, 2))
               for s in SPECS]
    for preset in ("base", "tactics"):
        for g, obs, phase in _positions(preset, 2)[::7]:
            seat = int(obs[O.SEAT])
            changed = _swap_opponent_hand(g, seat, rng)
            legal = changed.legal_plays(seat) if phase == reference.PHASE_PLAY else None
            obs2 = changed.flat_observation(seat, phase, [reference.Action(*O.decode_py(a)) for a in
                                                          obs[O.LEGAL:O.LEGAL + obs[O.N_LEGAL]]])
            if legal is not None:
                assert [reference.encode_action(a) for a in legal] == list(obs[O.LEGAL:O.LEGAL + len(legal)])
            np.testing.assert_array_equal(obs, obs2)
            for kernel, prm in kernels:
                a = kernel(obs, prm, new_state(3, checked, 7))
                b = kernel(obs2, prm, new_state(3, checked, 7))
                assert a == b
            checked += 1
    assert checked > 20


def test_determinization_is_consistent_and_regenerates_the_decision():
    """The engine state built from a vector: public table as in the vector, hands and piles of the
    right sizes holding exactly the unseen cards (the opponent's hand drawn from them, not the real
    one), and the engine's turn machine, started from it, offers the very same legal actions."""
    streams = np.zeros(2, np.uint64)
    kinds = set()
    differs = 0
    cases = [("tactics", 2, {}), ("tactics-claim-at-start", 1, {}), ("base", 1, {"auto_claim": False}),
             ("tactics", 1, {"auto_claim": False})]     # tactics game 3 has Scout draws and returns
    for preset, first, overrides in cases:
        for g, obs, phase in _positions(preset, 2, first, **overrides):
            seat = int(obs[O.SEAT])
            kinds.add(phase)
            work, r = search._new_scratch(obs, 0)
            search.determinize(obs, work, np.uint64(len(kinds) * 1000 + int(obs[O.TURN])))
            per = work[fast.W_PER_SEAT]
            state = work[fast.W_STATE]
            hands = []
            for p in (0, 1):
                cards = [c for c in range(54) if (per[fast.PS_HAND_CLAN + p] >> c) & 1]
                cards += [54 + c for c in range(10) if (per[fast.PS_HAND_TACTIC + p] >> c) & 1]
                hands.append(sorted(cards))
            assert hands[seat] == sorted(g.hands[seat])
            assert len(hands[1 - seat]) == len(g.hands[1 - seat])
            differs += hands[1 - seat] != sorted(g.hands[1 - seat])
            cpile = list(work[fast.W_CLAN_PILE, state[fast.S_C_HEAD]:state[fast.S_C_TAIL]])
            tpile = list(work[fast.W_TACTIC_PILE, state[fast.S_T_HEAD]:state[fast.S_T_TAIL]])
            assert len(cpile) == len(g.clan_pile) and len(tpile) == len(g.tactic_pile)
            unseen = sorted(g.hands[1 - seat] + g.clan_pile + g.tactic_pile)
            assert sorted(hands[1 - seat] + cpile + tpile) == unseen
            # the turn machine regenerates the pending decision
            search._stop_at_decisions(work)
            status = fast.run(work, streams, r, -1)
            n = int(obs[O.N_LEGAL])
            assert status == n, phase
            np.testing.assert_array_equal(work[fast.W_LEGAL, :n], obs[O.LEGAL:O.LEGAL + n])
            assert state[fast.S_SEAT] == seat and state[fast.S_DK] == obs[O.DECISION]
    assert kinds == {reference.PHASE_PLAY, reference.PHASE_DRAW, reference.PHASE_CLAIM,
                     reference.PHASE_SCOUT_DRAW, reference.PHASE_SCOUT_RETURN}
    assert differs > 0


def test_show_at_decisions_fills_the_vector_and_inner_keeps_the_greedys_best():
    """ismcts's `inner`: with CALL_SHOW the turn machine stops at a decision with the deciding
    seat's vector filled as the engine would show it (same hand, same legal actions, so the same
    greedy scores), and `_inner_candidates` allows exactly the `inner` best of them, ranked."""
    streams = np.zeros(2, np.uint64)
    gp = np.array(K.GREEDY_DEFAULTS, np.float64)
    checked = 0
    for g, obs, phase in _positions("base", 1, 0):
        if phase != reference.PHASE_PLAY or obs[O.N_LEGAL] < 4:
            continue
        seat, n = int(obs[O.SEAT]), int(obs[O.N_LEGAL])
        work, r = search._new_scratch(obs, 0)
        search.determinize(obs, work, np.uint64(checked))
        search._stop_at_decisions(work, fast.CALL_SHOW)
        assert fast.run(work, streams, r, -1) == n
        shown = work[fast.W_OBS0 + seat, :O.SIZE].copy()
        np.testing.assert_array_equal(shown[O.LEGAL:O.LEGAL + n], obs[O.LEGAL:O.LEGAL + n])
        assert sorted(shown[O.HAND:O.HAND + O.MAX_HAND]) == sorted(obs[O.HAND:O.HAND + O.MAX_HAND])
        want = np.empty(O.MAX_LEGAL)
        K.greedy_scores(obs, gp, want)
        ok = np.zeros(O.MAX_LEGAL, np.bool_)
        rank = np.zeros(O.MAX_LEGAL, np.int64)
        search._inner_candidates(shown, n, 3, gp, np.empty(O.MAX_LEGAL), ok, rank)
        order = np.argsort(-want[:n], kind="mergesort")
        assert set(np.flatnonzero(ok[:n])) == set(order[:3])
        np.testing.assert_array_equal(np.argsort(rank[:n]), order)
        checked += 1
    assert checked > 5


def test_ismcts_replies_zero_means_inner_and_one_changes_decisions():
    """`replies` = 0 falls back to `inner` (the same decisions as replies = inner, same streams);
    replies = 1 (the opponent as the greedy) changes some decisions, so the parameter is used."""
    spec = parse_spec(GAME, "ismcts:iters=60,prune=4")
    r = rules("base")
    kernel = spec.strategy.kernel
    positions = [np.asarray(obs, np.int64) for _, obs, _ in _positions("base", 1, 3)[::3]]

    def decisions(replies):
        params = spec.params_array(r, 2).copy()
        params[search.TS_REPLIES] = replies
        return [kernel(obs, params, np.array([np.uint64(1000 + i)], np.uint64))
                for i, obs in enumerate(positions)]
    three = decisions(3)
    assert decisions(0) == three
    assert decisions(1) != three


# ---------------------------------------------------------------- flat-mc's inference
def test_inference_accepts_the_true_hand_and_rejects_many_uniform_deals():
    """On greedy-vs-greedy games: the opponent's last visible play is found, the greedy would have
    made it with the opponent's true hand (for one of its cards as the card drawn since), and
    a good share of uniform deals are inconsistent with it (the check carries information)."""
    r = rules("base")
    gp = np.array(K.GREEDY_DEFAULTS, np.float64)
    work = np.zeros((fast.W_ROWS, fast.W_WIDTH), np.int64)
    scores = np.empty(O.MAX_LEGAL, np.float64)
    count = {"seen": 0, "rejected": 0, "deals": 0}
    for game in range(3):
        g = reference.Game(r, 9, game)

        def decide(seat, phase, legal, g=g):
            obs = np.asarray(g.flat_observation(seat, phase, legal), np.int64)
            if obs[O.DECISION] == O.D_PLAY:
                c, s = search._last_opponent_play(obs)
                if c >= 0:
                    count["seen"] += 1
                    pv = search._previous_view(obs, c, s)
                    hand = [x for x in g.hands[1 - seat] if x < 54]
                    true = sum(1 << x for x in hand)
                    drawn = hand if len(g.hands[1 - seat]) >= r.hand_size else [-1]
                    assert min(search._regret(obs, pv, c, s, true, d, gp, scores) for d in drawn) <= 1e-12
                    for i in range(10):
                        search.determinize(obs, work, new_state(game, count["seen"], i)[0])
                        h = work[fast.W_PER_SEAT, fast.PS_HAND_CLAN + 1 - seat]
                        count["deals"] += 1
                        count["rejected"] += search._regret(obs, pv, c, s, h, -1, gp, scores) > 1e-12
            return legal[K.greedy_policy(obs, gp, np.zeros(1, np.uint64))]
        while not g.over:
            g.play_turn(decide)
    assert count["seen"] > 50, count
    assert count["rejected"] > 0.3 * count["deals"], count
