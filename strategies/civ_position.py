"""A CIV position written in the text notation (`sim/civ/notation.py`): each seat's Domains, levels
and majorities, and with a turn line the legal decisions of the seat on turn and what strategies
would choose there.

    >>> text = open("position.txt").read()
    >>> seat_table(text, rules)                  # one row per seat
    >>> legal_table(text, rules)                 # the decision's legal actions
    >>> choices(text, ["greedy", "random"], rules, seed=1)

A strategy is asked through the deciding seat's observation (`notation.decision_at`): hands
written '?N' and the deck's order are dealt from the cards placed nowhere, by the seed; the seat
sees only their number, so a strategy that reads only its observation chooses the same whatever
they are.
"""
from __future__ import annotations

import pandas as pd

from sim.civ import notation
from sim.civ import observation as O
from sim.civ.cards import ART, DOMAIN_TITLES, ECONOMY, MILITARY, N_DOMAINS, RELIGION, SCIENCE
from sim.civ.playthrough import action_words
from sim.core.batch import StrategyError
from sim.core.errors import UsageError
from sim.core.reference import Decider

from .registry import parse_spec

GAME = "civ"


def _position(position, rules) -> notation.Position:
    return notation.parse_position(position, rules) if isinstance(position, str) else position


def seat_table(position, rules, seed: int = 0) -> pd.DataFrame:
    """Per seat: its hand, the cards that count per Domain with the level reached (L1, L2; Art
    has none), Embargo and Democracy cards, the majority points if the game ended now, and its
    closest Hegemony (count / need)."""
    p = _position(position, rules)
    g = notation.game_at(p, rules, seed)
    points = g.majority_points()
    rows = []
    for s, seat in enumerate(p.seats):
        row = {"seat": s, "hand": notation.counts_text(seat.hand, seat.unknown)}
        for d in range(N_DOMAINS):
            level = g.level(s, d) if d != ART else 0
            row[DOMAIN_TITLES[d]] = f"{g.count(s, d)}" + (f" L{level}" if level else "")
        row["embargo"] = notation.counts_text(seat.embargo)
        row["democracy"] = notation.counts_text(seat.democracy)
        row["points"] = points[s]
        need = [g.hegemony_base + g.democracy[s][d] for d in range(N_DOMAINS)]
        best = min(range(N_DOMAINS), key=lambda d: need[d] - g.count(s, d))
        row["hegemony"] = f"{DOMAIN_TITLES[best]} {g.count(s, best)}/{need[best]}"
        rows.append(row)
    return pd.DataFrame(rows)


def what_follows(g, seat: int, action: int) -> str:
    """What an effect of the effect decision then asks or does (its targets, its cards)."""
    kind, d, level = O.action_kind(action), O.action_domain(action), O.action_arg(action)
    if kind in (O.A_PERM, O.A_COPY):
        if d == MILITARY:
            return f"discard {level} card(s) from the hand"
        if d == RELIGION:
            return f"hand size {g.hand_size_of(level)} this turn"
        if d == ECONOMY:
            return f"discard {level} from play, then play {min(level, sum(g.playable(seat)))} from the hand"
        if d == SCIENCE:
            return f"return {level} from play to the hand, then play as many"
        return f"take {level} card(s) of the discard pile into the hand"
    if kind != O.A_SAC:
        return ""
    if d == MILITARY:
        return "then a Domain: " + ", ".join(DOMAIN_TITLES[x] for x in g.attack_domains(seat, False))
    if d == RELIGION:
        return "then a seat: " + ", ".join(str(O.action_arg(a)) for a in g.inquisition_targets(seat))
    if d == SCIENCE:
        n = min(g.rules.leap_cards, g.deck_left())
        return f"draw {n}, then discard {n} from the hand"
    needs = g.rules.embargo_needs_card if d == ECONOMY else g.rules.democracy_needs_card
    targets = g.targets(seat, needs)
    by_seat = {}
    for a in targets:
        by_seat.setdefault(O.action_arg(a), []).append(notation.DOMAIN_LETTERS[O.action_domain(a)])
    return "then a target: " + "; ".join(f"seat {q} {' '.join(ds)}" for q, ds in by_seat.items())


def legal_table(position, rules, seed: int = 0) -> pd.DataFrame:
    """The legal actions of the seat on turn, in the engine's order (index = what a strategy
    returns), in words, with what each effect then asks."""
    p = _position(position, rules)
    at = notation.decision_at(p, rules, seed)
    g = at.game
    return pd.DataFrame({"index": range(len(at.legal)),
                         "action": [action_words(g, at.seat, at.decision, a) for a in at.legal],
                         "then": [what_follows(g, at.seat, a) for a in at.legal]})


def choices(position, specs, rules, seed: int = 0) -> pd.DataFrame:
    """What each strategy (a spec such as 'greedy') chooses at the position's decision: one row per
    strategy with `seat`, `action` and `legal_actions`. Seeded: the strategy draws from its seat's
    keyed stream of (seed, game 0), so the same seed gives the same choice."""
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
                     "action": action_words(at.game, at.seat, at.decision, at.legal[index]),
                     "legal_actions": len(at.legal)})
    return pd.DataFrame(rows)


def table_text(table: pd.DataFrame) -> str:
    """A table as text: words left-aligned, numbers right-aligned, two spaces between columns."""
    columns = [[str(c)] + [str(x) for x in table[c]] for c in table.columns]
    numeric = [pd.api.types.is_numeric_dtype(table[c]) for c in table.columns]
    widths = [max(map(len, col)) for col in columns]
    rows = []
    for i in range(len(table) + 1):
        cells = [col[i].rjust(w) if num else col[i].ljust(w) for col, w, num in zip(columns, widths, numeric)]
        rows.append("  ".join(cells).rstrip())
    return "\n".join(rows)


def show(text: str, rules_for, specs, seed: int) -> str:
    """`meeplelab position civ` (the game's position hook, sim/core/game.py). Without --preset or
    --rules, a position whose header says `teams` uses the civ-teams rules."""
    for spec in specs:
        parse_spec(GAME, spec)
    p = notation.read_position(text)
    rules, label = rules_for("civ-teams" if p.teams else None)
    notation.check_position(p, rules)
    t = p.turn
    if specs and t is None:
        raise UsageError("civ position: -s asks a strategy at a decision, and the position has no turn line: add "
                         "'turn T: seat S' (and 'played D' for the effect decision) (sim/civ/notation.py)")
    level1, level2 = rules.levels(p.players)
    head = f"{GAME} position, {p.players} seats, rules {label}"
    facts = (f"Level 1 at {level1} cards, Level 2 at {level2}; Hegemony at {rules.hegemony(p.players)} (+1 a "
             f"Democracy card); deck {p.deck}" + (f", box {p.box}" if p.box else "")
             + (", final round" if p.final else "")
             + f"; Art coin: {f'seat {p.coin}' if p.coin >= 0 else 'nobody'}")
    out = [head, facts, "", table_text(seat_table(p, rules, seed)),
           "(counts: the cards that count for thresholds, Hegemony and majorities; points: the majority points "
           "if the game ended now)"]
    if t is not None:
        at = notation.decision_at(p, rules, seed) if not p.seats[t.seat].unknown else None
        what = f"the {O.DECISION_NAMES[at.decision]} decision" if at else "its hand is not known ('?')"
        out += ["", f"turn {t.number}: seat {t.seat} to move ({what}), first player seat {t.first}"]
        if t.started:
            done = [f"played {DOMAIN_TITLES[t.played] if t.played >= 0 else 'nothing'}"]
            done += [f"{name} {', '.join(DOMAIN_TITLES[d] for d in ds)}" for name, ds in
                     (("permanent effects used:", t.permanent), ("sacrificed:", t.sacrifice)) if ds]
            if t.copies:
                done.append(f"copies {t.copies}")
            out.append("this turn so far: " + "; ".join(done))
        if at is not None:
            out += ["", f"legal actions of seat {t.seat}", table_text(legal_table(p, rules, seed))]
    if specs:
        out += ["", table_text(choices(p, specs, rules, seed))]
    return "\n".join(out) + "\n"
