"""A Schotten Totten position written in the text notation (`sim/schotten_totten/notation.py`):
who can claim each stone, and what strategies would play there.

    >>> text = open("position.txt").read()
    >>> stone_table(text)                       # one row per stone
    >>> choices(text, ["greedy", "flat-mc:sims=100"], rules)

A strategy decides the play step of the seat to move (the position's `turn`), which must have a
known hand. An unknown opponent hand ('?') is dealt from the clan cards placed nowhere (its size
is the rule's hand size, or what the clan pile leaves): the mover sees only its size, so the
choice does not depend on which cards it gets, and searchers re-deal it anyway.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from sim.core.errors import UsageError
from sim.core.observation import illegal_message
from sim.core.rng import KeyedRng, deck_stream, new_state, player_stream
from sim.schotten_totten import cards as C
from sim.schotten_totten import notation, reference

from .registry import parse_spec

GAME = "schotten-totten"


def shows_tactic_cards(p: notation.Position) -> bool:
    """Whether the position shows a tactic card anywhere (table, hands, discard, piles)."""
    cards = [c for s in range(p.stones) for c in p.sides[s][0] + p.sides[s][1] + p.env[s]]
    cards += p.discard + (p.hands[0] or []) + (p.hands[1] or []) + (p.tactic_pile or [])
    return any(c >= C.N_CLAN for c in cards) or any(p.tactics_played)


def stone_table(position) -> pd.DataFrame:
    """One row per stone: the cards of each side, Fog/Mud, and `status`: `claimed by seat N`,
    `seat N can claim` (the claim proof holds now) or `open`."""
    p = notation.parse_position(position) if isinstance(position, str) else position
    claims = notation.who_can_claim(p)
    rows = []
    for s in range(p.stones):
        if p.claimed[s] != -1:
            status = f"claimed by seat {p.claimed[s]}"
        elif s in claims:
            status = f"seat {claims[s]} can claim"
        else:
            status = "open"
        rows.append({"stone": s, "seat_0": notation.card_names(p.sides[s][0]),
                     "seat_1": notation.card_names(p.sides[s][1]),
                     "environment": " ".join(C.card_name(c) for c in p.env[s]) or "-",
                     "status": status})
    return pd.DataFrame(rows)


def game_at(position, rules, seed: int = 0) -> reference.Game:
    """A reference game set up at the position, with the seat to move on its play step; an
    unknown opponent hand is dealt (module docstring)."""
    p = notation.parse_position(position) if isinstance(position, str) else position
    mover = p.turn
    if mover not in (0, 1):
        raise UsageError(f"schotten-totten position: turn {mover}: expected 0 or 1")
    if p.hands[mover] is None:
        raise UsageError(f"schotten-totten position: hand{mover} is unknown ('?'), but seat {mover} "
                         f"is to move (turn {mover}): give its cards to ask what a strategy plays")
    if len(p.sides) != rules.stones:
        raise UsageError(f"schotten-totten position: {len(p.sides)} stones, but the rules have "
                         f"{rules.stones} (add a 'stones N' line or change the rules)")
    try:
        g = reference.Game.from_position(rules, p, seed)
    except ValueError as e:
        raise UsageError(f"schotten-totten position: {e}") from None
    opp = 1 - mover
    if p.hands[opp] is None:
        pile = list(g.clan_pile)
        KeyedRng(seed, 0, deck_stream(0)).shuffle(pile)
        k = min(rules.hand_size, len(pile))
        g.hands[opp] = sorted(pile[:k])
        g.clan_pile = pile[k:]
    return g


def choices(position, specs, rules, seed: int = 0) -> pd.DataFrame:
    """What each strategy (a spec such as 'flat-mc:sims=100') plays at the position: one row per
    strategy with `seat`, `action` (as the engine writes it) and `legal_actions`. Seeded: the same
    seed gives the same choice (the strategy draws from its seat's keyed stream)."""
    bounds = [parse_spec(GAME, spec) for spec in specs]     # bad specs first: nothing to set up
    g = game_at(position, rules, seed)
    seat = g.to_move
    legal = g.legal_plays(seat)
    rows = []
    for spec, bound in zip(specs, bounds):
        if len(legal) == 1:
            action = legal[0]
        else:
            obs = g.flat_observation(seat, reference.PHASE_PLAY, legal)
            params = bound.params_array(rules, 2)
            try:
                i = bound.strategy.kernel(obs, params, new_state(seed, 0, player_stream(seat)))
            except Exception as e:      # a plugin's bug: named, not a traceback
                raise UsageError(f"strategy {bound.label} raised {type(e).__name__}: {e}") from e
            if not isinstance(i, (int, np.integer)) or not 0 <= int(i) < len(legal):
                raise UsageError(f"strategy {bound.label}: {illegal_message(i, len(legal))}")
            action = legal[int(i)]
        rows.append({"strategy": spec.strip(), "seat": seat, "action": str(action),
                     "legal_actions": len(legal)})
    return pd.DataFrame(rows)


def show(text: str, rules_for, specs, seed: int) -> str:
    """`meeplelab position schotten-totten` (the game's position hook, sim/core/game.py): the
    stone table, and with strategies what each plays. Without --preset or --rules, a position
    showing tactic cards uses the `tactics` rules."""
    p = notation.parse_position(text)
    rules, label = rules_for("tactics" if shows_tactic_cards(p) else None)
    table = stone_table(p)
    out = [f"{GAME} position, rules {label}; seat {p.turn} to move", table.to_string(index=False)]
    if specs:
        out += ["", choices(p, list(specs), rules, seed).to_string(index=False)]
    return "\n".join(out) + "\n"
