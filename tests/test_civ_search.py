"""CIV's search: what a seat knows of the other hands (the observation's S_KNOWN bookkeeping), a
determinization shows the seat exactly what it saw and plays on to the end, and the search
strategies win at once when they can and repeat themselves for a seed."""
from __future__ import annotations

import numpy as np
import pytest

from sim.civ import fast as F
from sim.civ import observation as O
from sim.civ import reference as R
from sim.civ import search as S
from sim.civ.cards import ART, ECONOMY, MILITARY, N_DOMAINS, RELIGION, SCIENCE, UTOPIA
from sim.civ.observation import A_CARD, A_PERM, A_SAC, A_SEAT, encode
from sim.civ.rules import CivRules
from sim.core.kernels import random_choice
from sim.core.reference import Decider


def observations(rules, players, seed, games):
    """The deciding seat's vector at every decision of random games (reference engine)."""
    seen = []
    for game in range(games):
        decide = Decider([random_choice] * players, [np.zeros(1)] * players, seed, game, players)

        def keep(seat, obs, where):
            seen.append(obs.copy())
            return decide(seat, obs, where)
        R.play_game(rules, players, seed, game, keep)
    return seen


def hand(**cards):
    """Counts per Domain from Domain letters: hand(M=1, K=2)."""
    out = [0] * N_DOMAINS
    for letter, n in cards.items():
        out["MREKAU".index(letter)] = n
    return out


def scripted(*actions):
    """A Decider that plays `actions` in order (each must be legal)."""
    queue = list(actions)

    def decide(seat, obs, where):
        legal = obs[O.LEGAL:O.LEGAL + obs[O.N_LEGAL]].tolist()
        return legal.index(queue.pop(0))
    return decide


def table(players, hands, plays, discard=None):
    """A reference game in the middle of seat 0's turn: the given hands and play areas."""
    g = R.Game(CivRules.preset(), players)
    g.hand = [list(h) for h in hands]
    g.play = [list(p) for p in plays]
    g.discard = list(discard or [0] * N_DOMAINS)
    g.t = R.Turn(0)
    return g


def card(d):
    return encode(A_CARD, d)


# ---------------------------------------------------------------- the known cards
def test_public_moves_into_and_out_of_a_hand_are_known_to_the_other_seats():
    # seat 0: Experiment (3 Science at 3 players) returns its Art, plays its Religion; then
    # Oligarchy (3 Utopia) takes a Military from the discard, Assassination (3 Military) discards it
    g = table(3, [hand(R=1), hand(), hand()], [hand(M=3, K=3, A=1, U=3), hand(), hand()],
              discard=hand(M=1))
    g.use(scripted(card(ART), card(RELIGION)), 0, encode(A_PERM, SCIENCE, 1))
    assert g.hand[0] == hand(A=1)
    assert g.known[1][0] == g.known[2][0] == hand(A=1)
    g.use(scripted(card(MILITARY)), 0, encode(A_PERM, UTOPIA, 1))
    assert g.known[1][0] == g.known[2][0] == hand(M=1, A=1)
    g.use(scripted(card(MILITARY)), 0, encode(A_PERM, MILITARY, 1))
    assert g.known[1][0] == g.known[2][0] == hand(A=1)
    assert g.known[0] == [[0] * N_DOMAINS] * 3            # nobody else's hand moved


def test_inquisition_tells_the_taker_the_victim_and_a_third_seat_what_they_saw():
    # seat 2 knows seat 0's two Science and seat 1's Art; seat 0 takes seat 1's hand (the Art)
    # and gives back its Military
    g = table(3, [hand(M=1, K=2), hand(A=1), hand(E=1)], [hand(R=1), hand(), hand()])
    g.known[2][0] = hand(K=2)
    g.known[2][1] = hand(A=1)
    seen = []
    script = scripted(encode(A_SEAT, -1, 1), card(MILITARY))

    def decide(seat, obs, where):
        seen.append(obs.copy())
        return script(seat, obs, where)
    g.use(decide, 0, encode(A_SAC, RELIGION))
    give = seen[-1]
    assert give[O.DECISION] == O.D_GIVE
    at = O.SEATS + O.SEAT_BLOCK
    assert give[at + O.S_KNOWN:at + O.S_KNOWN + N_DOMAINS].tolist() == [0] * N_DOMAINS   # q's hand empty
    assert g.hand == [hand(K=2, A=1), hand(M=1), hand(E=1)]
    assert g.known[0][1] == hand(M=1)          # the taker knows the whole hand it gave back
    assert g.known[1][0] == hand(A=1)          # the victim: its former hand less what came back
    assert g.known[2][0] == hand(K=1)          # a third seat: one card of any Domain left seat 0
    assert g.known[2][1] == [0] * N_DOMAINS
    # seat 0 plays a Science: the third seat's known Science may have been it
    g.t = R.Turn(0)
    g.hand[0], g.play[0] = hand(K=2, A=1), hand()
    g.seen_leaving(0, SCIENCE)
    assert g.known[2][0] == [0] * N_DOMAINS and g.known[1][0] == hand(A=1)
    obs = g.observation(1, O.D_PLAY, [card(MILITARY)])
    at = O.SEATS
    assert obs[at + O.S_KNOWN:at + O.S_KNOWN + N_DOMAINS].tolist() == hand(A=1)
    at = O.SEATS + O.SEAT_BLOCK      # the seat's own block: its hand
    assert obs[at + O.S_KNOWN:at + O.S_KNOWN + N_DOMAINS].tolist() == hand(M=1)


def test_known_cards_turn_up_in_real_games_within_the_hand_sizes():
    """(Both engines keep the same table: the conformance suite's observation probe hashes every
    vector in both; the invariants check each bound against the true hand.)"""
    rules = CivRules.preset()
    known = 0
    for o in observations(rules, 4, 13, 3):
        for s in range(4):
            at = O.SEATS + O.SEAT_BLOCK * s
            k = o[at + O.S_KNOWN:at + O.S_KNOWN + N_DOMAINS]
            assert k.min() >= 0 and k.sum() <= o[at + O.S_HAND_N]
            known += s != o[O.SEAT] and k.sum() > 0
    assert known > 20


# ---------------------------------------------------------------- determinization
CASES = [("civ-classic", 2), ("civ-classic", 3), ("civ-classic", 4), ("civ-draft", 2),
         ("civ-draft", 3), ("civ-teams", 4)]


@pytest.mark.parametrize("preset,players", CASES)
def test_a_determinization_shows_the_seat_what_it_saw_and_plays_to_the_end(preset, players):
    rules = CivRules.preset(preset)
    r = F.pack_rules(rules)
    g = np.zeros(F.G_SIZE, np.int64)
    block = np.zeros((4, O.SIZE), np.int64)
    streams = np.zeros(F.N_STREAMS, np.uint64)
    again = np.zeros(O.SIZE, np.int64)
    seen = observations(rules, players, 5, 2)
    decisions = set()
    for k, obs in enumerate(seen):
        assert S.determinize(obs, g, streams, r, np.uint64(1000 + k)) == 0
        F.fill_observation(g, r, obs[O.SEAT], again)
        n = O.LEGAL + obs[O.N_LEGAL]
        cols = np.flatnonzero(again[:n] != obs[:n])
        assert cols.size == 0, (k, cols, again[cols], obs[cols])
        decisions.add(int(obs[O.DECISION]))
        if k % 9 == 0:
            g[F.G_CALL:F.G_CALL + 4] = F.RANDOM_POLICY
            assert F.run(g, block, streams, r, k % obs[O.N_LEGAL]) == F.RUN_END
    assert {O.D_PLAY, O.D_EFFECT, O.D_DISCARD_HAND} <= decisions


def test_the_deck_keeps_its_ages():
    """At the first decision of a 2-player game the Ages II and III are whole: the deck's 29
    Age II and 41 Age III cards hold only their Domains (no Religion in Age III, no Utopia before
    it), and the box and the hands take the rest."""
    rules = CivRules.preset()
    obs = observations(rules, 2, 3, 1)[0]
    g = np.zeros(F.G_SIZE, np.int64)
    streams = np.zeros(F.N_STREAMS, np.uint64)
    for seed in range(20):
        S.determinize(obs, g, streams, F.pack_rules(rules), np.uint64(seed))
        deck = g[F.G_DECK:F.G_DECK + g[F.G_DECK_N]]
        age2, age3 = deck[25:54], deck[54:]
        assert (age2 != UTOPIA).all() and (age3 != RELIGION).all()
        assert (deck[g[F.G_TOP]:25] != UTOPIA).all()
        assert (np.bincount(age3, minlength=6) <= [4, 0, 8, 8, 8, 16]).all()


# ---------------------------------------------------------------- the searches
def _params(spec, rules, players):
    from strategies.registry import parse_spec
    return parse_spec("civ", spec).params_array(rules, players)


def _winning_play():
    """Seat 0 (2 players) at its play, 7 Science in play, a Science and a Military in hand."""
    obs = next(o for o in observations(CivRules.preset(), 2, 7, 1)
               if o[O.DECISION] == O.D_PLAY and o[O.SEAT] == 0 and o[O.TURN] > 10)
    obs = obs.copy()
    at = O.SEATS
    for d in range(N_DOMAINS):
        obs[O.OWN_HAND + d] = obs[at + O.S_KNOWN + d] = 0
    obs[O.OWN_HAND + SCIENCE] = obs[O.OWN_HAND + MILITARY] = 1
    obs[at + O.S_KNOWN + SCIENCE] = obs[at + O.S_KNOWN + MILITARY] = 1
    obs[at + O.S_PLAY + SCIENCE] = obs[at + O.S_COUNT + SCIENCE] = 7
    obs[at + O.S_HAND_N] = 2
    obs[O.N_LEGAL] = 2
    obs[O.LEGAL], obs[O.LEGAL + 1] = card(MILITARY), card(SCIENCE)
    return obs


@pytest.mark.parametrize("spec", ["flat-mc:sims=4", "ismcts:iters=30"])
def test_a_search_plays_the_card_that_wins_at_once(spec):
    rules = CivRules.preset()
    obs = _winning_play()
    params = _params(spec, rules, 2)
    kernel = S.flat_mc_policy if spec.startswith("flat") else S.ismcts_policy
    assert kernel(obs, params, np.zeros(1, np.uint64) + 5) == 1
    state = S._setup(obs, params[S.MC_ROLLOUT if spec.startswith("flat") else S.TS_ROLLOUT:])
    assert [S.wins_at_once(obs, state, i) for i in range(2)] == [False, True]
    obs[O.SEATS + O.S_DEMOCRACY + SCIENCE] = 1          # a Democracy card: 9 needed
    assert not S.wins_at_once(obs, state, 1)


def test_pruned_candidates_are_the_greedys_best_its_choice_first():
    from sim.civ import policies as K
    rules = CivRules.preset()
    params = _params("greedy", rules, 3)
    checked = 0
    for obs in observations(rules, 3, 9, 2):
        n = int(obs[O.N_LEGAL])
        if n < 4:
            continue
        values = np.empty(n)
        K.action_values(obs, params, values)
        cand = S.candidates(obs, 3)
        assert len(set(cand.tolist())) == 3
        assert cand[0] == K.one_ply(obs, params, np.zeros(1, np.uint64))
        assert values[cand].tolist() == sorted(values, reverse=True)[:3]
        assert S.candidates(obs, 0).tolist() == list(range(n))
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("spec", ["flat-mc:sims=3", "ismcts:iters=40"])
def test_a_search_repeats_itself_for_a_seed(spec):
    rules = CivRules.preset()
    params = _params(spec, rules, 3)
    kernel = S.flat_mc_policy if spec.startswith("flat") else S.ismcts_policy
    searched = 0
    for obs in observations(rules, 3, 21, 1)[::4]:
        if obs[O.N_LEGAL] < 3:
            continue
        picks = []
        for _ in range(2):
            rng = np.array([77], np.uint64)
            picks.append((kernel(obs, params, rng), int(rng[0])))
        assert picks[0] == picks[1] and 0 <= picks[0][0] < obs[O.N_LEGAL]
        searched += picks[0][1] != 77
    assert searched > 5


@pytest.mark.parametrize("spec", ["flat-mc:sims=2,rollout=1,margin=0.3", "ismcts:iters=15,rollout=1"])
def test_greedy_rollouts_play_the_same_games_in_both_engines(spec):
    from strategies.play import play
    rules = CivRules.preset()
    scores = []
    for engine in ("fast", "reference"):
        batches = []
        play("civ", rules, [spec, "greedy"], games=2, seed=4, progress=False, engine=engine,
             on_batch=batches.append)
        scores.append(np.concatenate([b.shares for b in sorted(batches, key=lambda b: b.first_game)]))
    assert scores[0].shape == (2, 2)
    np.testing.assert_array_equal(scores[0], scores[1])
