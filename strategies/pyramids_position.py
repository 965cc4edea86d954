"""A Pyramids position written in the text notation (`sim/pyramids/notation.py`): its score by
edifice, group sizes per colour and glyphs, and, with a round state, the legal actions and what
strategies would choose there.

    >>> text = open("position.txt").read()
    >>> score_table(text, rules)                 # one row per seat
    >>> choices(text, ["random"], rules, seed=1)

A strategy is asked through the deciding seat's observation (`notation.decision_at`): cards the
position leaves unknown ('?', discards not written) are dealt from the cards placed nowhere, by
the seed; the seat sees none of them, so a strategy that reads only its observation chooses the
same whatever they are.
"""
from __future__ import annotations

import pandas as pd

from sim.core.batch import StrategyError
from sim.core.errors import UsageError
from sim.core.reference import Decider
from sim.pyramids import notation
from sim.pyramids import observation as O
from sim.pyramids import reference
from sim.pyramids.deck import OBELISK, PYRAMID, TOMB
from sim.pyramids.rules import COLOURS

from .registry import parse_spec

GAME = "pyramids"
SCORE_PARTS = ("pyramid", "bonus", "obelisk", "tomb", "glyph")


def _position(position, rules) -> notation.Position:
    return notation.parse_position(position, rules) if isinstance(position, str) else position


def score_table(position, rules) -> pd.DataFrame:
    """Per seat, the score of its necropolis as it stands (reference.Game.score_parts): pyramid
    groups (each colour's largest group, the largest once more), the bonus, obelisk stages, tomb
    majorities, glyph points, and the total. Tombs count their known cards only."""
    p = _position(position, rules)
    parts = notation.scoring_game(p, rules).score_parts()
    rows = [{"seat": s, **{k: parts[k][s] for k in SCORE_PARTS}, "total": sum(parts[k][s] for k in SCORE_PARTS)}
            for s in range(p.players)]
    return pd.DataFrame(rows)


def colour_table(position, rules) -> pd.DataFrame:
    """Per seat and edifice, by colour: the pyramid's largest connected group (stones), the
    obelisk stages showing the colour, the tomb's stones of the colour (known cards)."""
    p = _position(position, rules)
    g = notation.scoring_game(p, rules)
    rows = []
    for s in range(p.players):
        nec = g.necropolis[s]
        counts = {"pyramid group": reference.largest_groups(nec.pyramid, g.cards, rules),
                  "obelisk stages": [sum(1 for c in nec.obelisk if colour in g.cards[c].colours())
                                     for colour in range(len(COLOURS))],
                  "tomb stones": reference.tomb_colours(nec.tomb, g.cards, rules)}
        rows += [{"seat": s, "count": name, **dict(zip(COLOURS, values))} for name, values in counts.items()]
    return pd.DataFrame(rows)


def glyph_table(position, rules) -> pd.DataFrame:
    """Per seat: glyphs in their matching edifice (each scores glyph_points), and glyph cards
    elsewhere (they score nothing)."""
    p = _position(position, rules)
    g = notation.scoring_game(p, rules)
    rows = []
    for s in range(p.players):
        nec = g.necropolis[s]
        edifices = {PYRAMID: list(nec.pyramid.values()), OBELISK: nec.obelisk, TOMB: nec.tomb}
        matched = {glyph: reference.glyphs(cards, glyph, g.cards) for glyph, cards in edifices.items()}
        placed = sum(1 for cards in edifices.values() for c in cards if g.cards[c].glyph)
        rows.append({"seat": s, "pyramid glyphs": matched[PYRAMID], "obelisk glyphs": matched[OBELISK],
                     "tomb glyphs": matched[TOMB], "elsewhere": placed - sum(matched.values())})
    return pd.DataFrame(rows)


def legal_table(position, rules, seed: int = 0) -> pd.DataFrame:
    """The legal actions of the deciding seat, in the engine's order (index = what a strategy returns)."""
    p = _position(position, rules)
    at = notation.decision_at(p, rules, seed)
    return pd.DataFrame({"index": range(len(at.legal)),
                         "action": [notation.action_words(at.game, a) for a in at.legal]})


def choices(position, specs, rules, seed: int = 0) -> pd.DataFrame:
    """What each strategy (a spec such as 'random') chooses at the round state's decision: one row
    per strategy with `seat`, `action` and `legal_actions`. Seeded: the strategy draws from its
    seat's keyed stream of (seed, game 0), so the same seed gives the same choice."""
    bounds = [parse_spec(GAME, spec) for spec in specs]     # bad specs first: nothing to set up
    p = _position(position, rules)
    at = notation.decision_at(p, rules, seed)
    obs = at.observation()
    where = f"the position's {O.DECISION_NAMES[at.decision]} decision"
    rows = []
    for spec, bound in zip(specs, bounds):
        decide = Decider([bound.strategy.kernel] * p.players, [bound.params_array(rules, p.players)] * p.players,
                         seed, 0, p.players)
        try:
            index = decide(at.seat, obs.copy(), where)
        except StrategyError as e:     # a plugin's bug: named, not a traceback
            raise UsageError(f"strategy {bound.label} {e.cause}") from None
        rows.append({"strategy": spec.strip(), "seat": at.seat,
                     "action": notation.action_words(at.game, at.legal[index]),
                     "legal_actions": len(at.legal)})
    return pd.DataFrame(rows)


def show(text: str, rules_for, specs, seed: int) -> str:
    """`meeplelab position pyramids` (the game's position hook, sim/core/game.py)."""
    rules, label = rules_for(None)
    for spec in specs:
        parse_spec(GAME, spec)
    p = notation.parse_position(text, rules)
    r = p.round
    if specs and r is None:
        raise UsageError("pyramids position: -s asks a strategy at a decision, and the position has no round "
                         "state: add 'round R', 'quarry ...', 'tiles ...' and 'to-move S DECISION' lines "
                         "(sim/pyramids/notation.py)")
    head = f"{GAME} position, {p.players} seats, rules {label}"
    if r is not None:
        head += (f"; round {r.number}, first player seat {r.first}; seat {r.to_move} to move "
                 f"({O.DECISION_NAMES[r.decision]} decision)")
    legend = ("(pyramid: each colour's largest group, the largest once more; bonus: every colour has a group of "
              f"{rules.bonus_group}; obelisk: by the stages of its most frequent colour; tomb: majorities; glyph: "
              f"{rules.glyph_points} a glyph in its edifice)")
    out = [head, "", "score so far" if r is not None else "score", score_table(p, rules).to_string(index=False),
           legend,
           "", "by colour", colour_table(p, rules).to_string(index=False),
           "", "glyphs", glyph_table(p, rules).to_string(index=False)]
    unknown = [s for s, st in enumerate(p.seats) if None in st.tomb]
    if unknown:
        out.append(f"(the tombs of seat {', '.join(map(str, unknown))} hold cards not known: their "
                   f"majorities count only the known cards)")
    if r is not None:
        out += ["", f"legal actions of seat {r.to_move}", legal_table(p, rules, seed).to_string(index=False)]
    if specs:
        out += ["", choices(p, specs, rules, seed).to_string(index=False)]
    return "\n".join(out) + "\n"
