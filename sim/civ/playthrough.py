"""Playthroughs: a readable record of one seeded game, turn by turn (reference engine).

Every decision (forced ones too) in the words of the rules, every effect and target named (what
an Attack takes from whom, the hand an Inquisition takes and what it gives back, the cards a
Technological Leap draws). Before each turn, the position at its first decision in the notation
`meeplelab position civ` reads (notation.py: the seat lines, the piles line and the turn line
are a position); the draft's packets as comments; the position at the end. So a change in what
the rules do, in the deal or in the streams shows up in tests/playthroughs/ turn by turn.
"""
from __future__ import annotations

from ..core.batch import StrategyError
from ..core.reference import Decider
from . import notation
from . import observation as O
from .cards import DOMAIN_OF, DOMAIN_TITLES, N_DOMAINS, SCIENCE
from .notation import counts_text
from .reference import Game, play_game
from .rules import CivRules


def draft_lines(g: Game) -> list[str]:
    """The draft's start: what each seat drew (a position cannot show the draft in progress)."""
    packets = " | ".join(f"{s}: {counts_text(g.packets[s])}" for s in range(g.players))
    return [f"# the draft: packets {packets}; deck {g.deck_left()}"]


PICK_WORDS = {O.D_DRAFT_KEEP: "keeps {d}", O.D_DRAFT_TAKE: "puts {d} into play", O.D_PLAY: "plays {d}",
              O.D_DISCARD_HAND: "discards {d} from the hand", O.D_DISCARD_PLAY: "discards {d} from play",
              O.D_EXTRA_PLAY: "plays {d}", O.D_RETURN: "takes {d} back into the hand",
              O.D_ATTACK: "attacks {d}", O.D_GIVE: "gives back {d}", O.D_TAKE_DISCARD: "takes {d} from the discard"}


def action_words(g: Game, seat: int, decision: int, action: int) -> str:
    """An action in words, with what it does to whom (the state is the one at the decision)."""
    kind, d, arg = O.action_kind(action), O.action_domain(action), O.action_arg(action)
    if decision == O.D_ATTACK:
        return f"attacks {DOMAIN_TITLES[d]} ({attack_victims(g, seat, d)})"
    if decision == O.D_GIVE:
        return f"gives {DOMAIN_TITLES[d]} back to seat {g.t.target}"
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
        words = f"sacrifices {DOMAIN_TITLES[d]}: {O.effect_name(action)}"
        if d == SCIENCE:                  # the deck's next cards, seen by the record only
            drawn = [0] * N_DOMAINS
            for c in g.deck[g.top:g.top + min(g.rules.leap_cards, g.deck_left())]:
                drawn[DOMAIN_OF[c]] += 1
            words += f", draws {counts_text(drawn)}" if any(drawn) else ", draws nothing (the deck is empty)"
        return words
    if decision == O.D_INQUISITION:
        return f"takes the hand of seat {arg} ({counts_text(g.hand[arg])})"
    what = "embargoes" if decision == O.D_EMBARGO else "puts Democracy under"
    return f"{what} {DOMAIN_TITLES[d]} of seat {arg}"


def attack_victims(g: Game, seat: int, d: int) -> str:
    """Who discards a card of Domain d to an Attack of `seat`, asked once the Military card is
    sacrificed (reference.Game.use: every seat with one, itself included, the teammate unless
    attack_hits_teammate is off)."""
    hit = [q for q in range(g.players) if g.play[q][d]
           and not (q == g.teammate(seat) and not g.rules.attack_hits_teammate)]
    names = ["itself"] * (seat in hit) + [f"seat {q}" for q in hit if q != seat]
    return "discarded by " + ", ".join(names) if names else "nobody has one"


def playthrough(rules: CivRules, players: int, seed: int, game: int, kernels, params) -> str:
    """The record of game `game` under `seed` between the strategy kernels (reference engine)."""
    lines: list[str] = []
    decide = Decider(kernels, params, seed, game, players)
    state = {"turn": None}

    def on_decision(g, seat, decision, action):
        turn = g.turns if g.t is not None else "draft"
        if turn != state["turn"]:
            state["turn"] = turn
            if g.t is None:
                lines.extend(draft_lines(g))
            else:
                lines.append(notation.format_position(notation.from_game(g, seat, decision), header=False).rstrip())
        lines.append(f"seat {seat} ({O.DECISION_NAMES[decision]}): {action_words(g, seat, decision, action)}")

    try:
        g = play_game(rules, players, seed, game, decide, on_decision=on_decision)
    except StrategyError as e:     # keep the record up to the failing decision
        e.record = "\n".join(lines) + "\n"
        raise
    lines.append("# the end")
    lines.append(notation.format_position(notation.from_game(g), header=False).rstrip())
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
