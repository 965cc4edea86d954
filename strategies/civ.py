"""Built-in CIV strategies. A strategy returns the index of its chosen action in the observation's
legal list (sim/civ/observation.py: a turn is a chain of small decisions, the play, the next
effect or stop, each effect's cards and targets). `random` is the core's.

The kernel is `sim.civ.policies.one_ply` (the evaluation is described there); `greedy`,
`majority` and `domain-focus` are its three weight sets, packed here (`_params`).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from sim.civ import policies as K
from sim.civ.cards import DOMAINS
from sim.core.errors import UsageError

from .registry import Param, register

GAME = "civ"

_WEIGHTS = ("heg", "maj", "threat", "late", "cycle")
_WEIGHT_DOCS = (
    "weight of the own Hegemony closeness 1 / (1 + k^2), k the cards missing in the best Domain",
    "weight of the smoothed majorities (per Domain 0.5 + 0.5 z / (1 + |z|), z the lead over the "
    "best rival)",
    "weight of the best rival's Hegemony closeness (subtracted)",
    "majorities weigh (1 + late x lateness), lateness = 1 - min(1, deck left / 60)",
    "worth of a card cycled (Assassination, Purge, Oligarchy, Republic, Technological Leap)",
)


def _weights(defaults):
    return [Param(name, float(value), doc, 0.0, 100.0)
            for name, value, doc in zip(_WEIGHTS, defaults, _WEIGHT_DOCS)]


@dataclasses.dataclass(frozen=True)
class DomainParam(Param):
    """A Domain by name (the registry's Params are numbers)."""

    @property
    def type(self):
        return str

    def parse(self, raw, strategy: str):
        name = str(raw).strip().lower()
        if name not in DOMAINS:
            raise UsageError(f"strategy {strategy!r} parameter {self.name!r} = {raw!r}: expected "
                             f"{self.allowed()}")
        return name

    def allowed(self) -> str:
        return "a Domain: " + ", ".join(DOMAINS)


def _params(weights, focus: int = -1) -> np.ndarray:
    """The kernel's vector (sim/civ/policies.py P_*)."""
    p = np.zeros(K.N_PARAMS, np.float64)
    p[:len(_WEIGHTS)] = weights
    p[K.P_FOCUS] = focus
    p[K.P_FOCUS_W] = K.FOCUS_WEIGHT if focus >= 0 else 0.0
    p[K.P_FOCUS_EFFECT] = K.FOCUS_EFFECT if focus >= 0 else 0.0
    return p


def _weight_params(values, rules, players):
    return _params([values[w] for w in _WEIGHTS])


def _focus_params(values, rules, players):
    return _params(K.GREEDY_DEFAULTS, DOMAINS.index(values["domain"]))


_HOW = ("Every decision of the turn (the play, the next effect or stop, each effect's cards and "
        "targets) takes the action with the largest immediate gain of one evaluation of the "
        "position: own Hegemony closeness, smoothed Domain majorities as scored at the end "
        "(weighing more as the deck runs out), minus the best rival's Hegemony closeness; "
        "effects are valued as carried out (Attack, Democracy and Embargo at their best target, "
        "Development and Experiment with the cheapest removals and best plays). Deterministic. "
        "See sim/civ/policies.py.")
_OBSERVES = "own hand; every play area, Embargo and Democracy card; hand sizes; deck left; the coin"

register(GAME, "greedy", K.one_ply, prepare=_weight_params, params=_weights(K.GREEDY_DEFAULTS),
         doc="One-ply heuristic: Hegemony distance and majorities. " + _HOW,
         observes=_OBSERVES, source="hand-written one-ply heuristic")

register(GAME, "majority", K.one_ply, prepare=_weight_params, params=_weights(K.MAJORITY_DEFAULTS),
         doc="Plays for the Domain majorities scored at the end: the greedy's evaluation with the "
             "majorities weighted 2 and its own Hegemony 0.5, so it spreads over Domains where it "
             "can lead or deny the leader, and still blocks a rival close to Hegemony. " + _HOW,
         observes=_OBSERVES, source="hand-written one-ply heuristic")

register(GAME, "domain-focus", K.one_ply, prepare=_focus_params,
         params=[DomainParam("domain", "science", "the Domain to push toward Hegemony: "
                             + ", ".join(DOMAINS))],
         doc="Pushes one Domain (domain=) toward Hegemony: the greedy's evaluation plus 1 a card "
             "of that Domain in play, so it plays that Domain's cards first, and uses that "
             "Domain's permanent effects first (+0.05); it sacrifices them only for a clear gain "
             "and otherwise plays as the greedy (Attack on the leader's best Domain, Democracy "
             "and Embargo on the closest rival). " + _HOW,
         observes=_OBSERVES, source="hand-written one-ply heuristic")
