"""Schotten Totten invariants under random legal play, and the claim proof against brute force.

Random legal play (hypothesis picks rule sets, seeds and game indices; policies are uniform over
the legal actions, from their keyed streams) must keep: every card in exactly one place; a claimed
stone never changes (its cards, environment and owner); the tactic-card count rule; games end.
`best_key` and `wins_stone` (cards.py) are checked against plain enumeration of every completion
and every colour/value of the morale cards.
"""
from __future__ import annotations

from itertools import combinations, product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.schotten_totten import cards as C
from sim.schotten_totten.invariants import Watch
from sim.schotten_totten.reference import Game, RandomPolicy, play_game
from sim.schotten_totten.rules import SchottenTottenRules

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- random legal play
rule_sets = st.builds(
    lambda preset, auto, redeploy, limit, first: SchottenTottenRules.preset(preset).replace(
        auto_claim=auto, redeploy=redeploy, tactic_limit=limit, first_player=first),
    st.sampled_from(sorted(SchottenTottenRules.PRESETS)), st.booleans(),
    st.sampled_from(["move-or-discard", "discard"]), st.integers(1, 2), st.sampled_from(["seat0", "random"]))


class Checker:
    """Wraps the policies; checks the whole state at every decision and at the end."""

    def __init__(self, game: Game):
        self.g = game
        self.watch = Watch()      # the game's own invariants (the conformance suite's hook)
        self.decisions = 0

    def check(self) -> None:
        self.watch.check(self.g)
        assert sorted(c for _, c in self.g.places()) == list(range(C.N_CARDS))

    def policy(self, seat: int):
        inner = RandomPolicy()

        class P:
            def reset(_, seed, game, s):
                inner.reset(seed, game, s)

            def __call__(_, obs, legal):
                self.decisions += 1
                self.check()
                assert len(legal) >= 2 and len(set(legal)) == len(legal)
                visible = set(obs.hand) | set(obs.discard)
                for pair in obs.sides:
                    visible.update(pair[0], pair[1])
                assert not visible & set(self.g.hands[1 - seat]), "opponent's hand leaked"
                return inner(obs, legal)
        return P()


@FAST
@given(rule_sets, st.integers(0, 2**32), st.integers(0, 10_000))
def test_random_legal_play_keeps_invariants(rules, seed, game):
    g = Game(rules, seed, game)
    chk = Checker(g)
    res = play_game(rules, seed, game, [chk.policy(0), chk.policy(1)], game_state=g)
    chk.check()
    assert g.over and res.end in ("adjacent", "five", "blocked")
    assert res.turns < 400
    if res.end != "blocked":
        assert res.winner in (0, 1)
        mine = [c == res.winner for c in res.claimed]
        runs = max(len(r) for r in "".join("x" if m else " " for m in mine).split(" "))
        assert runs >= rules.adjacent_to_win or sum(mine) >= rules.total_to_win
    else:
        # the base game never blocks, unless a player declines claims it could make (auto_claim off)
        assert rules.tactics or not rules.auto_claim
    # cards played: every card that left a hand for the table (its stones, Fog / Mud, the discard)
    out = [c for s in g.sides for x in s for c in x] + [c for e in g.env_cards for c in e] + g.discard
    assert len(out) == len(set(out)) == res.cards_played
    assert sum(c < C.N_CLAN for c in out) == res.clan_cards_played
    assert sum(c >= C.N_CLAN for c in out) == sum(res.tactics_played)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["base", "base-claim-at-start"]), st.integers(0, 2**32))
def test_base_game_is_never_blocked(preset, seed):
    rules = SchottenTottenRules.preset(preset)
    for game in range(5):
        assert play_game(rules, seed, game, [RandomPolicy(), RandomPolicy()]).end != "blocked"


# ---------------------------------------------------------------- proof against brute force
def morale_options(card):
    values = C.MORALE_VALUES[card]
    return [(col, v) for col in range(C.N_COLOURS) for v in values]


def brute_best(cards, need, fog, pool):
    clan = [c for c in cards if c < C.N_CLAN]
    morale = [c for c in cards if c in C.MORALE]
    pool = [c for c in pool if c < C.N_CLAN and c not in cards]
    best = C.NO_FORMATION
    for extra in combinations(pool, need - len(cards)):
        plain = clan + list(extra)
        for assign in product(*[morale_options(m) for m in morale]):
            values = [C.value_of(c) for c in plain] + [v for _, v in assign]
            colours = [C.colour_of(c) for c in plain] + [col for col, _ in assign]
            best = max(best, C.classify(values, colours, fog))
    return best


def deal_case(draw, max_morale=2):
    """A side (clan + at most 2 morale cards, one Chief at most) and a small pool."""
    need = draw(st.sampled_from([3, 3, 4]))
    fog = draw(st.booleans())
    morale = draw(st.lists(st.sampled_from([C.CHIEF_1, C.TROOP, C.SHIELD]), unique=True,
                           max_size=max_morale))
    # cards from few colours and a value window, so that runs, kinds and flushes are common
    colours = draw(st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True))
    low = draw(st.integers(1, 6))
    universe = [C.clan_card(c, v) for c in colours for v in range(low, min(9, low + 4) + 1)]
    n_clan = draw(st.integers(0, need - len(morale)))
    clan = draw(st.lists(st.sampled_from(universe), unique=True, min_size=n_clan, max_size=n_clan))
    rest = [c for c in universe if c not in clan]
    pool = draw(st.lists(st.sampled_from(rest), unique=True, max_size=7)) if rest else []
    return need, fog, clan + morale, pool


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_best_key_equals_enumeration(data):
    need, fog, side, pool = deal_case(data.draw)
    assert C.best_key(side, need, fog, pool) == brute_best(side, need, fog, pool)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_claim_proof_equals_enumeration(data):
    need, fog, other, _ = deal_case(data.draw, max_morale=1)
    # claimer: a complete formation of clan cards not used by the opponent
    free = [c for c in range(C.N_CLAN) if c not in other]
    own = data.draw(st.lists(st.sampled_from(free), unique=True, min_size=need, max_size=need))
    free = [c for c in free if c not in own]
    # hidden cards: a few of the cards close to the opponent's (the rest is "visible")
    near = [c for c in free if any(abs(C.value_of(c) - C.value_of(o)) <= 2 or C.colour_of(c) == C.colour_of(o)
                                   for o in other if o < C.N_CLAN)] or free
    hidden = data.draw(st.lists(st.sampled_from(near), unique=True, max_size=6))
    first = data.draw(st.booleans())
    mine = brute_best(own, need, fog, [])
    if len(other) == need:
        theirs = brute_best(other, need, fog, [])
        expect = mine > theirs or (mine == theirs and first)
    else:
        expect = brute_best(other, need, fog, hidden) <= mine
    assert C.wins_stone(own, other, need, fog, hidden, first) == expect
