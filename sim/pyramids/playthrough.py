"""Playthroughs: a readable record of one seeded game, round by round (reference engine).

Every decision (forced ones too) in the words of the rules. Before each round and at the end,
every seat's cards in the position notation (sim/pyramids/notation.py: `0: pyramid ...; obelisk
...; tomb ...; hand ...; discard ...`), and at the start of each round its state at the first
decision (`round R; first S; quarry ...; tiles -; to-move S tile`): the seat lines and the round
line just after them are a position `meeplelab position pyramids` reads. So a change in what the
rules do, in the deal or in the streams shows up in tests/playthroughs/ round by round.
"""
from __future__ import annotations

from ..core.batch import StrategyError
from ..core.reference import Decider
from . import notation
from . import observation as O
from .reference import play_game
from .rules import PyramidsRules


def card_text(g, c: int) -> str:
    card = g.cards[c]
    glyph = ("", ", pyramid glyph", ", obelisk glyph", ", tomb glyph")[card.glyph]
    return f"#{card.id}[{card.text()}{glyph}]"


def necropolis_lines(g) -> list[str]:
    """Every seat's cards in the position notation, and the points of its open edifices."""
    p = notation.from_game(g)
    lines = [notation.seat_line(g.cards, s, seat) for s, seat in enumerate(p.seats)]
    if any(n.pyramid for n in g.necropolis):
        lines.append("# points so far (pyramid, obelisk): " +
                     ", ".join(f"seat {s} {g.public_points(s)}" for s in range(g.players)))
    return lines


WORDS = {O.A_TILE: "takes {tile}", O.A_PAIR: "takes pair {arg}", O.A_PYRAMID: "builds {card} in the pyramid, {spot}",
         O.A_TOMB: "puts {card} in the tomb", O.A_OBELISK: "puts {card} on the obelisk", O.A_KEEP: "keeps {card}",
         O.A_SKIP: "no card", O.A_KEEP_NONE: "keeps nothing"}


def action_words(g, action: int) -> str:
    return notation.action_words(g, action, WORDS, lambda c: card_text(g, c))


def playthrough(rules: PyramidsRules, players: int, seed: int, game: int, kernels, params) -> str:
    """The record of game `game` under `seed` between the strategy kernels (reference engine)."""
    lines: list[str] = []
    decide = Decider(kernels, params, seed, game, players)
    state = {"round": -1}

    def on_decision(g, seat, decision, action):
        if g.round != state["round"]:
            lines.extend(necropolis_lines(g))
            state["round"] = g.round
            quarry = "  ".join(f"{q}: {' '.join(card_text(g, c) for c in pair)}"
                               for q, pair in enumerate(g.quarry))
            lines.append(f"# round {g.round + 1}: first player seat {g.first}; quarry {quarry}")
            at = notation.from_game(g, seat, decision).round
            lines.append("; ".join(notation.round_lines(g.cards, at, players)))
        lines.append(f"seat {seat} ({O.DECISION_NAMES[decision]}): {action_words(g, action)}")

    try:
        g = play_game(rules, players, seed, game, decide, on_decision=on_decision)
    except StrategyError as e:     # keep the record up to the failing decision
        e.record = "\n".join(lines) + "\n"
        raise
    lines.extend(necropolis_lines(g))
    parts = g.score_parts()
    shares = g.win_shares()
    for s, total in enumerate(g.scores()):
        detail = ", ".join(f"{k} {parts[k][s]}" for k in parts)
        lines.append(f"# end: seat {s} scores {total} ({detail}), win share {shares[s]:g}")
    return "\n".join(lines) + "\n"
