"""Playthroughs: a readable record of one seeded game, as OpenSpiel keeps them.

The record gives every decision a strategy took (with how many actions were legal; forced moves
are not decisions) and, after each turn, the whole position in the notation of notation.py (both
hands and both piles included), so any position of it can be loaded with `meeplelab position`.
The files in tests/playthroughs/ are regression tests of the reference engine: a change in what
the rules do, in the deal or in the streams shows up there, turn by turn.
"""
from __future__ import annotations

from ..core.batch import StrategyError
from ..core.errors import UsageError
from .notation import format_position
from .reference import play_kernel_game
from .rules import SchottenTottenRules


def playthrough(rules: SchottenTottenRules, players: int, seed: int, game: int, kernels,
                params) -> str:
    """The record of game `game` under `seed` between two strategy kernels (reference engine);
    `players` must be 2 (the signature of `play_batch`)."""
    if players != 2:
        raise UsageError(f"schotten-totten is a 2-player game, not {players} players")
    lines: list[str] = []

    def on_decision(seat, phase, legal, action):
        lines.append(f"seat {seat} ({phase}, {len(legal)} legal): {action}")

    def before_turn(g):            # the position the last turn left, then who moves now
        if g.turns:
            lines.append(format_position(g.position()))
        lines.append(f"# turn {g.turns}: seat {g.to_move} to move")

    try:
        g = play_kernel_game(rules, seed, game, kernels, params, on_decision, before_turn)
    except StrategyError as e:     # keep the record up to the failing decision
        e.record = "\n".join(lines) + "\n"
        raise
    lines.append(format_position(g.position()))
    how = "draw" if g.winner == -1 else f"seat {g.winner} wins"
    lines.append(f"# end: {how} ({g.end}), stones {g.stones_of(0)}-{g.stones_of(1)}, "
                 f"{g.cards_played} cards played in {g.turns} turns, seat {g.first} moved first")
    return "\n".join(lines) + "\n"
