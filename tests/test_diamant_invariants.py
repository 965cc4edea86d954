"""Diamant invariants over random valid rule sets and random strategies (reference engine).

`Audited` subclasses the reference `Game` only to watch it: it records the gems banked and
lost in the current cave and checks, after every step (reveal, leave, disaster, decision, round
end), that
  - gems are conserved: value of the treasure cards revealed this round
        == carried + lying on cards + banked this round from this cave + lost to disasters;
  - every card of the pool is in exactly one of deck / path / out-of-game / not-yet-in
    (once the round is over, a card removed at its end may still lie on the path);
  - the observation a strategy gets agrees with the state.
Engine behaviour is unchanged: every override calls the original method.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.diamant import observation as O
from sim.diamant.reference import (ARTIFACT, HAZARD, IN_DECK, NOT_YET_IN, OUT_OF_GAME, TREASURE,
                                   Game, card_pool)
from sim.diamant.rules import DiamantRules

SETTINGS = settings(max_examples=100, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rule_sets(draw) -> DiamantRules:
    values = dict(
        min_players=1,
        rounds=draw(st.integers(1, 6)),
        treasure_values=tuple(draw(st.lists(st.integers(0, 20), max_size=20))),
        hazard_kinds=draw(st.integers(0, 6)),
        hazard_copies=draw(st.integers(1, 4)),
        hazards_to_end=draw(st.integers(2, 4)),
        remove_hazard_after_disaster=draw(st.booleans()),
        first_card_free=draw(st.booleans()),
        leftover_split=draw(st.sampled_from(["pooled", "per-card"])),
        deck_exhausted=draw(st.sampled_from(["leave-together", "lose"])),
        artifacts=draw(st.sampled_from(["none", "per-round", "all-at-start"])),
        artifact_count=draw(st.integers(0, 6)),
        artifact_values=tuple(draw(st.lists(st.integers(0, 20), min_size=1, max_size=6))),
        unclaimed_artifacts=draw(st.sampled_from(["removed", "reshuffled"])),
        tie_break=draw(st.sampled_from(["shared", "last-round", "artifacts", "none"])),
        chests_visible=draw(st.booleans()),
    )
    return DiamantRules.preset().replace(**values)


@st.composite
def strategies(draw, players: int):
    """A seeded random strategy: seat p leaves with probability leave_p[p] at each decision."""
    seed = draw(st.integers(0, 2**32 - 1))
    leave_p = draw(st.lists(st.sampled_from([0.0, 0.05, 0.2, 0.5, 0.9, 1.0]),
                            min_size=players, max_size=players))
    return seed, leave_p


class Audited(Game):
    def __init__(self, *args):
        super().__init__(*args)
        self.pool_size = len(self.cards)
        self.round_over = True
        self.removed_at_end: set[int] = set()
        self.steps = 0

    # ------------------------------------------------------------ hooks (behaviour unchanged)
    def start_round(self) -> None:
        super().start_round()
        in_game = [c.index for c in self.cards if self.status[c.index] == IN_DECK]
        assert sorted(c.index for c in self.deck) == in_game, "the deck is every card in the game"
        assert self.path == [] and self.leftover() == 0 and self.carried == [0] * self.players
        assert all(self.in_cave)
        self.revealed_value = self.banked = self.lost = 0
        self.round_over = False
        self.removed_at_end = set()
        self.chest_at_start = list(self.chest)
        self.audit()

    def reveal(self) -> bool:
        card = self.deck[0]
        if card.kind == TREASURE:
            self.revealed_value += card.value
        going_on = super().reveal()
        assert self.path[-1] is card
        if not going_on:
            assert card.kind == HAZARD and self.hazard_seen(card.hazard) == self.rules.hazards_to_end
        self.audit()
        return going_on

    def leave(self, leavers: list[int]) -> None:
        assert leavers and all(self.in_cave[p] for p in leavers)
        carried = {p: self.carried[p] for p in leavers}
        before = sum(self.chest)
        chests = list(self.chest)
        super().leave(leavers)
        gains = {p: self.chest[p] - chests[p] for p in leavers}
        assert all(gains[p] - carried[p] == gains[leavers[0]] - carried[leavers[0]] for p in leavers), \
            "simultaneous leavers get equal shares of the leftovers"
        assert all(gains[p] >= carried[p] for p in leavers)
        self.banked += sum(self.chest) - before
        self.audit()

    def disaster(self, card) -> None:
        self.lost += sum(self.carried[p] for p in range(self.players) if self.in_cave[p])
        super().disaster(card)
        self.round_over = True
        if self.rules.remove_hazard_after_disaster:
            self.removed_at_end.add(card.index)
        self.audit()

    def disaster_without_card(self) -> None:
        self.lost += sum(self.carried[p] for p in range(self.players) if self.in_cave[p])
        super().disaster_without_card()
        self.round_over = True
        self.audit()

    def end_round(self) -> None:
        assert not any(self.in_cave), "a round ends only when nobody is left in the cave"
        on_path = {c.index for c in self.path if self.status[c.index] == IN_DECK}
        super().end_round()
        self.round_over = True
        self.removed_at_end |= {i for i in on_path if self.status[i] == OUT_OF_GAME}
        assert all(self.cards[i].kind == ARTIFACT for i in self.removed_at_end - {
            c.index for c in self.path if c.kind == HAZARD})
        self.audit()
        # the chests only grow, by what was banked from this cave
        assert all(a >= b for a, b in zip(self.chest, self.chest_at_start))
        assert sum(self.chest) - sum(self.chest_at_start) == self.banked
        assert self.last_round_banked == [a - b for a, b in zip(self.chest, self.chest_at_start)]

    # ------------------------------------------------------------ the checks
    def audit(self) -> None:
        self.steps += 1
        # gems
        assert all(x >= 0 for x in self.carried) and all(x >= 0 for x in self.leftover_on.values())
        assert all(x >= 0 for x in self.chest)
        assert all(self.carried[p] == 0 for p in range(self.players) if not self.in_cave[p])
        assert self.revealed_value == sum(self.carried) + self.leftover() + self.banked + self.lost, (
            self.revealed_value, self.carried, self.leftover(), self.banked, self.lost)
        # cards
        assert len(self.cards) == len(self.status) == self.pool_size == self.rules.deck_size
        deck = [c.index for c in self.deck]
        path = [c.index for c in self.path]
        assert len(set(deck)) == len(deck) and len(set(path)) == len(path) and not set(deck) & set(path)
        for c in self.cards:
            where = [c.index in set(deck), c.index in set(path),
                     self.status[c.index] == OUT_OF_GAME, self.status[c.index] == NOT_YET_IN]
            if self.round_over and where[1] and where[2]:
                assert c.index in self.removed_at_end, "only a card removed at round end stays on the path"
                continue
            assert sum(where) == 1, (c, where, self.status[c.index])
        assert set(self.leftover_on) <= {c.index for c in self.path if c.kind == TREASURE}

    def check_observation(self, seat: int, obs) -> None:
        r = self.rules
        assert obs.shape == (O.SIZE,)
        assert (obs[O.SEAT], obs[O.PLAYERS], obs[O.ROUND], obs[O.ROUNDS]) == (seat, self.players, self.round,
                                                                             r.rounds)
        assert obs[O.CARRIED] == self.carried[seat] and obs[O.CHEST] == self.chest[seat]
        assert obs[O.IN_CAVE] == sum(self.in_cave) >= 1 and self.in_cave[seat]
        assert obs[O.LEFTOVER] == self.leftover()
        assert obs[O.DECK_SIZE] == len(self.deck)
        assert obs[O.DECK_TREASURES] + obs[O.DECK_HAZARDS] + obs[O.DECK_ARTIFACTS] == len(self.deck)
        assert obs[O.DECK_TREASURE_SUM] == sum(c.value for c in self.deck if c.kind == TREASURE)
        assert obs[O.CARDS_REVEALED] >= len(self.path)   # taken artifacts leave the path
        assert obs[O.HAZARDS_REVEALED] == sum(obs[O.HAZARD_SEEN:O.HAZARD_SEEN + r.hazard_kinds])
        assert obs[O.DECK_HAZARDS] == sum(obs[O.HAZARD_IN_DECK:O.HAZARD_IN_DECK + r.hazard_kinds])
        danger = 0
        for k in range(r.hazard_kinds):
            seen = sum(1 for c in self.path if c.kind == HAZARD and c.hazard == k)
            left = sum(1 for c in self.deck if c.kind == HAZARD and c.hazard == k)
            assert seen < r.hazards_to_end
            assert (obs[O.HAZARD_SEEN + k], obs[O.HAZARD_IN_DECK + k]) == (seen, left)
            danger += left if seen == r.hazards_to_end - 1 else 0
        assert obs[O.DANGER_HAZARDS] == danger
        arts = sum(1 for c in self.path if c.kind == ARTIFACT)
        assert obs[O.ARTIFACTS_ON_PATH] == arts
        assert obs[O.ARTIFACT_VALUE_ON_PATH] == sum(
            r.artifact_value(self.artifacts_taken + i) for i in range(arts))
        assert obs[O.ARTIFACTS_TAKEN] == self.artifacts_taken == sum(self.artifacts_owned)
        assert obs[O.OWN_ARTIFACT_POINTS] == self.artifact_points[seat]
        for p in range(self.players):
            assert obs[O.SEAT_IN_CAVE + p] == self.in_cave[p]
            assert obs[O.SEAT_CARRIED + p] == self.carried[p]
            shown = self.chest[p] if (r.chests_visible or p == seat) else -1
            assert obs[O.SEAT_CHEST + p] == shown
        deck_ids = {c.index for c in self.deck}
        for i, v in enumerate(r.treasure_values):
            assert obs[O.TREASURE_VALUE + i] == v and obs[O.TREASURE_IN_DECK + i] == (i in deck_ids)


def play(rules: DiamantRules, players: int, strategy, game_seed: int) -> Audited:
    seed, leave_p = strategy
    rng = random.Random(seed)
    g = Audited(rules, players, game_seed, 0)

    def decide(state: Audited, seat: int) -> bool:
        state.check_observation(seat, state.observation(seat))
        state.audit()
        return rng.random() < leave_p[seat]

    for _ in range(rules.rounds):
        g.play_round(decide)
    assert g.round == rules.rounds
    return g


game_setups = st.tuples(rule_sets(), st.integers(1, 8), st.integers(0, 2**31)).flatmap(
    lambda t: st.tuples(st.just(t[0]), st.just(t[1]), st.just(t[2]), strategies(t[1])))


@SETTINGS
@given(game_setups)
def test_gems_and_cards_are_conserved(setup):
    rules, players, game_seed, strategy = setup
    rules.check_players(players)
    g = play(rules, players, strategy, game_seed)
    assert g.steps > 0
    assert len(card_pool(rules)) == len(g.cards) == rules.deck_size


@SETTINGS
@given(game_setups)
def test_scores_and_win_shares(setup):
    rules, players, game_seed, strategy = setup
    g = play(rules, players, strategy, game_seed)
    scores = g.scores()
    assert all(s >= 0 for s in scores)
    assert scores == [g.chest[p] + g.artifact_points[p] for p in range(players)]
    assert all(g.artifact_points[p] == 0 for p in range(players)) or rules.artifacts != "none"
    shares = g.win_shares()
    assert len(shares) == players and all(0.0 <= s <= 1.0 for s in shares)
    best = max(scores)
    assert all(shares[p] == 0.0 for p in range(players) if scores[p] < best), "only top scores win"
    total = sum(shares)
    tied = sum(1 for s in scores if s == best) > 1
    if rules.tie_break == "none" and tied:
        assert total == 0.0
    else:
        assert abs(total - 1.0) < 1e-9
        winners = [s for s in shares if s > 0]
        assert all(s == winners[0] for s in winners)
    if not tied:
        assert shares[scores.index(best)] == 1.0


@SETTINGS
@given(game_setups)
def test_card_bookkeeping_between_rounds(setup):
    """Cards leave the game only by a disaster (when the rule says so) or as artifacts; the pool
    never changes size, and per-round artifacts enter one per round."""
    rules, players, game_seed, strategy = setup
    seed, leave_p = strategy
    rng = random.Random(seed)
    g = Audited(rules, players, game_seed, 0)
    pool = len(g.cards)

    def decide(state, seat):
        return rng.random() < leave_p[seat]

    for r in range(rules.rounds):
        out_before = g.status.count(OUT_OF_GAME)
        waiting_before = g.status.count(NOT_YET_IN)
        disasters, taken = g.disasters, g.artifacts_taken
        g.play_round(decide)
        assert len(g.status) == pool
        removed_hazards = sum(1 for c in g.cards if c.kind == HAZARD and g.status[c.index] == OUT_OF_GAME)
        if not rules.remove_hazard_after_disaster:
            assert removed_hazards == 0
        else:
            assert removed_hazards == g.disasters
        new_out = g.status.count(OUT_OF_GAME) - out_before
        hazard_out = (g.disasters - disasters) if rules.remove_hazard_after_disaster else 0
        artifact_out = new_out - hazard_out
        assert artifact_out >= g.artifacts_taken - taken
        if rules.unclaimed_artifacts == "reshuffled":
            assert artifact_out == g.artifacts_taken - taken
        if rules.artifacts == "per-round":
            assert waiting_before - g.status.count(NOT_YET_IN) == (1 if waiting_before else 0)
        else:
            assert NOT_YET_IN not in g.status
        if rules.artifacts == "none":
            assert g.artifacts_taken == 0
