"""Playthroughs: a readable record of one seeded game, round by round (reference engine).

Every decision (forced ones too) in the words of the rules, and after each round every seat's necropolis, hand and points, so a change in what the rules do, in
the deal or in the streams shows up in tests/playthroughs/ round by round.
"""
from __future__ import annotations

from ..core.batch import StrategyError
from ..core.reference import Decider
from . import observation as O
from .reference import play_game
from .rules import TILE_NAMES, PyramidsRules


def card_text(g, c: int) -> str:
    card = g.cards[c]
    glyph = ("", ", pyramid glyph", ", obelisk glyph", ", tomb glyph")[card.glyph]
    return f"#{card.id}[{card.text()}{glyph}]"


def necropolis_text(g, s: int) -> list[str]:
    nec = g.necropolis[s]
    pyramid = " ".join(f"{sl}:{g.cards[c].id}" for sl, c in sorted(nec.pyramid.items()))
    return [f"  seat {s}: pyramid {pyramid or '-'}",
            f"          obelisk {' '.join(str(g.cards[c].id) for c in nec.obelisk) or '-'}; "
            f"tomb {' '.join(str(g.cards[c].id) for c in nec.tomb) or '-'}; "
            f"hand {' '.join(str(g.cards[c].id) for c in sorted(g.hands[s])) or '-'}; "
            f"points so far {g.public_points(s)}"]


def action_words(g, action: int) -> str:
    kind, card = O.action_kind(action), O.action_card(action)
    if kind == O.A_TILE:
        return f"takes {TILE_NAMES[O.action_arg(action)]}"
    if kind == O.A_PAIR:
        pair = O.action_arg(action)
        return f"takes pair {pair}"
    if kind == O.A_PYRAMID:
        return f"builds {card_text(g, card)} in the pyramid, {O.spot_text(O.action_arg(action))}"
    if kind == O.A_TOMB:
        return f"puts {card_text(g, card)} in the tomb"
    if kind == O.A_OBELISK:
        return f"puts {card_text(g, card)} on the obelisk"
    if kind == O.A_KEEP:
        return f"keeps {card_text(g, card)}"
    return "no card" if kind == O.A_SKIP else "keeps nothing"


def playthrough(rules: PyramidsRules, players: int, seed: int, game: int, kernels, params) -> str:
    """The record of game `game` under `seed` between the strategy kernels (reference engine)."""
    lines: list[str] = []
    decide = Decider(kernels, params, seed, game, players)
    state = {"round": -1}

    def on_decision(g, seat, decision, action):
        if g.round != state["round"]:
            if state["round"] >= 0:
                for s in range(players):
                    lines.extend(necropolis_text(g, s))
            state["round"] = g.round
            quarry = "  ".join(f"{q}: {' '.join(card_text(g, c) for c in pair)}"
                               for q, pair in enumerate(g.quarry))
            lines.append(f"# round {g.round + 1}: first player seat {g.first}; quarry {quarry}")
        lines.append(f"seat {seat} ({O.DECISION_NAMES[decision]}): {action_words(g, action)}")

    try:
        g = play_game(rules, players, seed, game, decide, on_decision=on_decision)
    except StrategyError as e:     # keep the record up to the failing decision
        e.record = "\n".join(lines) + "\n"
        raise
    for s in range(players):
        lines.extend(necropolis_text(g, s))
    parts = g.score_parts()
    shares = g.win_shares()
    for s, total in enumerate(g.scores()):
        detail = ", ".join(f"{k} {parts[k][s]}" for k in parts)
        lines.append(f"# end: seat {s} scores {total} ({detail}), win share {shares[s]:g}")
    return "\n".join(lines) + "\n"
