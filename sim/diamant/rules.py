"""Diamant rule set: every rule and every ruling of shared/rules/diamant.md is a parameter."""
from __future__ import annotations

import dataclasses

from ..core.errors import UsageError
from ..core.rules import RuleSet, param

MAX_PLAYERS = 8
MAX_HAZARD_KINDS = 16
MAX_TREASURES = 40
MAX_ARTIFACTS = 16
BASE_TREASURES = (1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17)


@dataclasses.dataclass(frozen=True)
class DiamantRules(RuleSet):
    GAME = "diamant"
    min_players: int = param(3, "Fewest players the rule set allows (the engine plays 1..8).",
                             min=1, max=MAX_PLAYERS, ruling=True)
    max_players: int = param(8, "Most players the rule set allows.", min=1, max=MAX_PLAYERS)
    rounds: int = param(5, "Rounds (expeditions, one cave each).", min=1, max=20)
    treasure_values: tuple = param(BASE_TREASURES, "Gem value of each treasure card.",
                                   min=0, max=1000, min_len=0, max_len=MAX_TREASURES)
    hazard_kinds: int = param(5, "Number of hazard kinds.", min=0, max=MAX_HAZARD_KINDS)
    hazard_copies: int = param(3, "Copies of each hazard kind in the deck.", min=1, max=10)
    hazards_to_end: int = param(2, "Cards of one hazard kind revealed in a cave that end the round.",
                                min=2, max=10)
    remove_hazard_after_disaster: bool = param(
        True, "After a disaster, one card of that hazard kind leaves the game for good.")
    first_card_free: bool = param(True, "The first card of a round is revealed with no decision before it.")
    leftover_split: str = param("pooled", "How leavers share gems lying on cards: pooled over the whole "
                                "cave (the seed) or card by card.", choices=("pooled", "per-card"))
    deck_exhausted: str = param("leave-together", "If the deck runs out, players still inside leave "
                                "together (banking their gems) or lose their gems.",
                                choices=("leave-together", "lose"), ruling=True)
    artifacts: str = param("none", "Artifact cards: none (2005), one added per round (Incan Gold), "
                           "or all shuffled in at setup (IELLO 2016).",
                           choices=("none", "per-round", "all-at-start"))
    artifact_count: int = param(5, "Number of artifact cards.", min=0, max=MAX_ARTIFACTS)
    artifact_values: tuple = param((5, 5, 5, 10, 10), "Points of the 1st, 2nd, ... artifact taken in "
                                   "the game (the last value repeats).", min=0, max=1000,
                                   min_len=1, max_len=MAX_ARTIFACTS)
    unclaimed_artifacts: str = param("removed", "Artifacts still on the path at the end of a round "
                                     "leave the game or go back into the deck.",
                                     choices=("removed", "reshuffled"))
    tie_break: str = param("shared", "Tied top scores: share the win, most gems carried out in the last "
                           "round, most artifacts, or no winner.",
                           choices=("shared", "last-round", "artifacts", "none"), ruling=True)
    chests_visible: bool = param(True, "Chests are public (strategies may see other players' scores).")

    def check(self) -> None:
        if self.min_players > self.max_players:
            raise UsageError(f"diamant rules: min_players ({self.min_players}) > max_players "
                             f"({self.max_players})")
        if self.hazards_to_end > self.hazard_copies and self.hazard_kinds > 0:
            pass  # legal: such a hazard can never end a round; kept for designers' experiments

    @property
    def deck_size(self) -> int:
        return len(self.treasure_values) + self.hazard_kinds * self.hazard_copies + (
            self.artifact_count if self.artifacts != "none" else 0)

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise UsageError(f"diamant: {players} players is not allowed by this rule set "
                             f"(min_players={self.min_players}, max_players={self.max_players}); "
                             f"use --set min_players=1 for solo or two-player analysis")

    def artifact_value(self, taken_before: int) -> int:
        return self.artifact_values[min(taken_before, len(self.artifact_values) - 1)]


DiamantRules.DEFAULT_PRESET = "diamant-2005"
DiamantRules.PRESETS = {
    "diamant-2005": {},
    "incan-gold-2006": {"artifacts": "per-round", "artifact_count": 5,
                        "artifact_values": (5, 5, 5, 10, 10), "unclaimed_artifacts": "removed",
                        "tie_break": "artifacts"},
    "diamant-iello-2016": {"artifacts": "all-at-start", "artifact_count": 5,
                           "artifact_values": (5, 5, 5, 10, 10), "unclaimed_artifacts": "removed",
                           "tie_break": "shared"},
    "solo": {"min_players": 1},
}
DiamantRules.PRESET_DOCS = {
    "diamant-2005": "Schmidt 2005, the seed's rules (no artifacts). Default.",
    "incan-gold-2006": "Incan Gold: one artifact per round, taken by a lone leaver; 5,5,5 then 10.",
    "diamant-iello-2016": "IELLO 2016: five relics shuffled in at setup; 5,5,5 then 10.",
    "solo": "Base rules, allowing 1 and 2 players (for analysis).",
}
