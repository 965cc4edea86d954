"""Diamant's invariants, checked after every decision (the conformance suite's game hook).

Every card is in exactly one place; the deck holds every card still in the game that is not on
the path; gems are never created (what players carry and what lies on the cards is at most the
value of the treasures revealed in this cave); scores are chests plus artifact points and never
negative; the deciding seat's observation tells the same as the state.
"""
from __future__ import annotations

from .reference import ARTIFACT, IN_DECK, NOT_YET_IN, TREASURE, Game, play_game
from . import observation as O


def check_state(g: Game, seat: int) -> None:
    deck = [c.index for c in g.deck]
    path = [c.index for c in g.path]
    assert len(set(deck)) == len(deck) and not set(deck) & set(path), "a card in two places"
    in_game = {c.index for c in g.cards if g.status[c.index] == IN_DECK}
    assert set(deck) <= in_game, "a card out of the game is in the deck"
    assert in_game <= set(deck) | set(path), "a card in the game is nowhere"
    if g.rules.artifacts != "per-round":
        assert NOT_YET_IN not in g.status
    revealed = sum(c.value for c in g.path if c.kind == TREASURE)
    carried = sum(g.carried[p] for p in range(g.players) if g.in_cave[p])
    assert all(g.carried[p] == 0 for p in range(g.players) if not g.in_cave[p])
    assert 0 <= carried + g.leftover() <= revealed, "gems created"
    assert all(x >= 0 for x in g.chest + g.artifact_points)
    assert g.scores() == [g.chest[p] + g.artifact_points[p] for p in range(g.players)]
    assert g.artifacts_taken == sum(g.artifacts_owned)
    assert sum(1 for c in g.cards if c.kind == ARTIFACT) >= g.artifacts_taken
    obs = g.observation(seat)
    assert obs[O.IN_CAVE] == sum(g.in_cave) and obs[O.DECK_SIZE] == len(g.deck)
    assert obs[O.CARRIED] == g.carried[seat] and obs[O.LEFTOVER] == g.leftover()


def check_invariants(rules, players, seed, first_game, n_games, kernels, params) -> int:
    """Play the games, checking the invariants after every decision; returns the decisions."""
    count = 0

    def on_decision(g, seat, leaves):
        nonlocal count
        count += 1
        check_state(g, seat)

    for game in range(first_game, first_game + n_games):
        g = play_game(rules, players, seed, game, kernels, params, on_decision=on_decision)
        assert sum(g.win_shares()) <= 1.0 + 1e-9
    return count
