"""Playthroughs: a readable record of one seeded game, turn by turn (reference engine).

Every decision (forced ones too) in the words of the rules, every effect and target named. Before
each turn, every seat's hand, play area, embargoes and democracies per Domain, the discard pile,
the deck and the coin. So a change in what the rules do, in the deal or in the streams shows up in
tests/playthroughs/ turn by turn.
"""
from __future__ import annotations

from ..core.batch import StrategyError
from ..core.reference import Decider
from . import observation as O
from .cards import DOMAIN_LETTERS, DOMAIN_TITLES, N_DOMAINS
from .reference import Game, play_game
from .rules import CivRules


def counts_text(counts) -> str:
    """Counts per Domain as letters (M R E K A U), e.g. 'M2 A1', or '-'."""
    return " ".join(f"{DOMAIN_LETTERS[d]}{n}" for d, n in enumerate(counts) if n) or "-"


def seat_lines(g: Game) -> list[str]:
    lines = []
    for s in range(g.players):
        line = f"{s}: hand {counts_text(g.hand[s])}; play {counts_text(g.play[s])}"
        if any(g.embargo[s]):
            line += f"; embargo {counts_text(g.embargo[s])}"
        if any(g.democracy[s]):
            line += f"; democracy {counts_text(g.democracy[s])}"
        lines.append(line)
    coin = f"seat {g.coin}" if g.coin >= 0 else "nobody"
    lines.append(f"# discard {counts_text(g.discard)}; deck {g.deck_left()}; Art coin {coin}"
                 + ("; final round" if g.final else ""))
    return lines


PICK_WORDS = {O.D_DRAFT_KEEP: "keeps {d}", O.D_DRAFT_TAKE: "puts {d} into play", O.D_PLAY: "plays {d}",
              O.D_DISCARD_HAND: "discards {d} from the hand", O.D_DISCARD_PLAY: "discards {d} from play",
              O.D_EXTRA_PLAY: "plays {d}", O.D_RETURN: "takes {d} back into the hand",
              O.D_ATTACK: "attacks {d}", O.D_GIVE: "gives back {d}", O.D_TAKE_DISCARD: "takes {d} from the discard"}


def action_words(g: Game, seat: int, decision: int, action: int) -> str:
    kind, d, arg = O.action_kind(action), O.action_domain(action), O.action_arg(action)
    if decision in PICK_WORDS:
        return PICK_WORDS[decision].format(d=DOMAIN_TITLES[d])
    if kind == O.A_STOP:
        return "stops"
    if kind == O.A_PERM:
        return f"uses {O.effect_name(action)} ({DOMAIN_TITLES[d]} level {arg})"
    if kind == O.A_COPY:
        whose = [q for q in range(g.players) if q != seat and g.level(q, d) >= arg]
        return f"copies {O.effect_name(action)} of seat {whose[0]} (Art coin)"
    if kind == O.A_SAC:
        return f"sacrifices {DOMAIN_TITLES[d]}: {O.effect_name(action)}"
    if decision == O.D_INQUISITION:
        return f"takes the hand of seat {arg}"
    what = "embargoes" if decision == O.D_EMBARGO else "puts Democracy under"
    return f"{what} {DOMAIN_TITLES[d]} of seat {arg}"


def playthrough(rules: CivRules, players: int, seed: int, game: int, kernels, params) -> str:
    """The record of game `game` under `seed` between the strategy kernels (reference engine)."""
    lines: list[str] = []
    decide = Decider(kernels, params, seed, game, players)
    state = {"turn": None}

    def on_decision(g, seat, decision, action):
        turn = g.turns if g.t is not None else "draft"
        if turn != state["turn"]:
            state["turn"] = turn
            lines.extend(seat_lines(g))
            lines.append(f"# turn {g.turns + 1}: seat {g.current}" if g.t is not None else "# the draft")
        lines.append(f"seat {seat} ({O.DECISION_NAMES[decision]}): {action_words(g, seat, decision, action)}")

    try:
        g = play_game(rules, players, seed, game, decide, on_decision=on_decision)
    except StrategyError as e:     # keep the record up to the failing decision
        e.record = "\n".join(lines) + "\n"
        raise
    lines.extend(seat_lines(g))
    if g.winner >= 0:
        lines.append(f"# Hegemony: seat {g.winner} in {DOMAIN_TITLES[g.hegemony_domain]} after {g.turns} turns")
    else:
        lines.append(f"# majorities after {g.turns} turns")
    shares, points = g.win_shares(), g.majority_points()
    counts = g.counts()
    for s in range(players):
        lines.append(f"# end: seat {s} majority points {points[s]} (counts {counts_text(counts[s])}), "
                     f"win share {shares[s]:g}")
    assert len(counts[0]) == N_DOMAINS
    return "\n".join(lines) + "\n"
