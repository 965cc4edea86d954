"""Playthroughs: a readable record of one seeded game, as OpenSpiel keeps them.

One line per decision: the round, the path of cards revealed so far (T value: treasure, H kind:
hazard, A: artifact), the gems lying on it, the deciding seat's gems carried, and its choice;
after each round, every seat's chest and artifacts. The files in tests/playthroughs/ are
regression tests of the reference engine: a change in what the rules do, in the deck order or in
the streams shows up there, decision by decision.
"""
from __future__ import annotations

from ..core.batch import StrategyError
from .reference import play_game
from .rules import DiamantRules


def playthrough(rules: DiamantRules, players: int, seed: int, game: int, kernels, params) -> str:
    """The record of game `game` under `seed` between `players` strategy kernels (reference
    engine)."""
    lines: list[str] = []

    def on_decision(g, seat, leaves):
        path = " ".join(map(repr, g.path)) or "-"
        lines.append(f"round {g.round} | path {path} | leftover {g.leftover()} | seat {seat} "
                     f"carries {g.carried[seat]}: {'leave' if leaves else 'continue'}")

    def after_round(g):
        lines.append(f"# after round {g.round - 1}: chests {g.chest}, artifact points "
                     f"{g.artifact_points}, disasters {g.disasters}")

    try:
        g = play_game(rules, players, seed, game, kernels, params, on_decision, after_round)
    except StrategyError as e:     # keep the record up to the failing decision
        e.record = "\n".join(lines) + "\n"
        raise
    lines.append(f"# end: scores {g.scores()}, win shares {g.win_shares()}, "
                 f"{g.cards_revealed} cards revealed")
    return "\n".join(lines) + "\n"
