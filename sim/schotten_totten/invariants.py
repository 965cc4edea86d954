"""Schotten Totten's invariants, checked after every decision (the conformance suite's hook).

Every card is in exactly one place; a claimed stone never changes (owner, sides, environment);
no side holds more cards than its stone allows; the tactic-card limit holds; a seat has at most
one Chief on the table; without tactics every tactic card is in the box; the game's winner holds
the stones that won it.
"""
from __future__ import annotations

from . import cards as C
from .reference import Game, play_kernel_game


class Watch:
    """The invariants of one game, watched from decision to decision."""

    def __init__(self):
        self.frozen: dict[int, tuple] = {}   # claimed stone -> (owner, sides, env)

    def check(self, g: Game) -> None:
        loc = g.locations()                                  # raises on a card in two places
        assert (loc >= 0).all(), "a card is nowhere"
        assert abs(g.tactics_played[0] - g.tactics_played[1]) <= g.rules.tactic_limit
        for s in range(g.rules.stones):
            snap = (g.claimed[s], [list(x) for x in g.sides[s]], list(g.env_cards[s]))
            if s in self.frozen:
                assert snap == self.frozen[s], f"claimed stone {s} changed"
            elif g.claimed[s] != -1:
                self.frozen[s] = snap
            assert all(len(x) <= g.capacity(s) for x in g.sides[s])
        for seat in (0, 1):
            assert sum(1 for s in g.sides for c in s[seat] if c in C.CHIEFS) <= 1
        if not g.rules.tactics:
            assert sorted(g.box) == list(C.TACTIC_CARDS)


def check_invariants(rules, players, seed, first_game, n_games, kernels, params) -> int:
    """Play the games, checking the invariants after every decision; returns the decisions."""
    count = 0
    for game in range(first_game, first_game + n_games):
        watch = Watch()
        state: list[Game] = []

        def before_turn(g):
            if not state:
                state.append(g)
            watch.check(g)

        def on_decision(seat, phase, legal, action):
            nonlocal count
            count += 1
            watch.check(state[0])

        g = play_kernel_game(rules, seed, game, kernels, params, on_decision=on_decision,
                             before_turn=before_turn)
        watch.check(g)
        if g.winner != -1 and g.end != "blocked":
            assert g.stones_of(g.winner) >= min(g.rules.adjacent_to_win, g.rules.total_to_win)
    return count
