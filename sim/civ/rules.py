"""CIV rule set: every rule and every [GUESS] of shared/rules/civ.md is a parameter.

Defaults are the rules as the specification reads them, with its default guesses; `ruling=True`
marks the parameters the sources leave open (a [GUESS], a [SEED] point or a reading of an
unclear text). Fixed by the components, not parameters: 6 Domains, the 104-card table by Age
(cards.py), one Art coin.
"""
from __future__ import annotations

import dataclasses

from ..core.errors import UsageError
from ..core.rules import RuleSet, param
from .cards import DOMAINS

MIN_PLAYERS, MAX_PLAYERS = 2, 4
TIE_BREAK_DEFAULT = ("utopia", "art", "science", "economy", "religion", "military")


@dataclasses.dataclass(frozen=True)
class CivRules(RuleSet):
    GAME = "civ"
    setup: str = param("classic", "Starting cards (§3): 3 from the deck each (classic), or the draft "
                       "(keep 1 and pass left three times from 4 cards, the leftovers to the centre, "
                       "taken into play counter-clockwise from the last player).",
                       choices=("classic", "draft"))
    first_player: str = param("seat0", "Who starts: seat 0 (simulations, to measure the seat edge) or "
                              "a random seat (the rulebook).", choices=("seat0", "random"))
    removed_per_age: int = param(3, "Cards of each Age removed unseen to the box at the player counts "
                                 "of `removal_players` (§2); they never reach the discard pile.",
                                 min=0, max=8)
    removal_players: tuple = param((2, 3), "Player counts at which `removed_per_age` cards per Age are "
                                   "removed (§2, [LIKELY]).", min=2, max=4, max_len=3, unique=True,
                                   ruling=True)
    level1_small: int = param(3, "Level 1 threshold (cards of the Domain in play) at 2-3 players.",
                              min=1, max=20)
    level2_small: int = param(5, "Level 2 threshold at 2-3 players.", min=1, max=20)
    level1_four: int = param(2, "Level 1 threshold at 4 players.", min=1, max=20)
    level2_four: int = param(4, "Level 2 threshold at 4 players.", min=1, max=20)
    hegemony_two: int = param(8, "Cards of one Domain for Hegemony at 2 players.", min=1, max=30)
    hegemony_more: int = param(7, "Cards of one Domain for Hegemony at 3-4 players.", min=1, max=30)
    hand_size: int = param(3, "Base hand size: the starting hand and the draw-up target.", min=1, max=10)
    hand_level1: int = param(5, "Hand size with Holy Book (Religion Level 1).", min=1, max=15)
    hand_level2: int = param(7, "Hand size with Divine Right (Religion Level 2).", min=1, max=15)
    leap_cards: int = param(5, "Technological Leap: cards drawn, then as many discarded from the hand "
                            "(fewer when the deck has fewer).", min=1, max=10)
    leap_takes_discard: bool = param(False, "Technological Leap ends by taking one card of the discard "
                                     "pile into the hand (the seed's sentence, probably a layout slip, "
                                     "§5.4).", ruling=True)
    level2_short: bool = param(False, "Monopoly may be used when the hand holds only one playable card "
                               "(discard 2, play the one); false: it needs two playable cards (§5.3 "
                               "[GUESS]; Development always needs one).", ruling=True)
    attack_needs_own: bool = param(True, "Attack: the chosen Domain must be one you have a card of "
                                   "(after sacrificing the Military card); false: any Domain, and you "
                                   "discard one only if you have one (§5.1 [GUESS]).", ruling=True)
    attack_military: bool = param(True, "Attack may choose Military itself (with attack_needs_own, only "
                                  "with a second Military card) (§5.1 [GUESS]).", ruling=True)
    attack_hits_teammate: bool = param(True, "In team play, Attack also hits your teammate (§7 "
                                       "[GUESS]).", ruling=True)
    embargo_blocks_effects: bool = param(False, "Embargo also forbids the target the effects of that "
                                         "Domain during its next turn (§5.3 [GUESS]: only plays).",
                                         ruling=True)
    embargo_needs_card: bool = param(True, "Embargo must lie on a card: the target Domain is not empty "
                                     "(§5.3).", ruling=True)
    embargo_card_counts: bool = param(False, "The Economy card of an Embargo counts as a card of the "
                                      "Domain it lies on while it lies there (§5.3 [GUESS]: no).",
                                      ruling=True)
    democracy_needs_card: bool = param(False, "Democracy must go under a non-empty Domain (§5.5 "
                                       "[GUESS]: any Domain).", ruling=True)
    democracy_card_counts: bool = param(False, "A Democracy card counts as a card of the Domain it lies "
                                        "under, for majorities and thresholds (§5.5 [GUESS]: no).",
                                        ruling=True)
    art_tie: str = param("nobody", "Art coin when the most Art cards are tied: nobody holds it "
                         "(nobody), or its holder keeps it until someone has more (keep) (§5.6).",
                         choices=("nobody", "keep"), ruling=True)
    art_min_cards: int = param(1, "Art cards needed to hold the coin (with a strict majority) (§5.6 "
                               "[GUESS]: 1).", min=1, max=16, ruling=True)
    copies_per_turn: int = param(1, "Inspiration copies per turn (§5.6: once).", min=0, max=5,
                                 ruling=True)
    copy_uses_slot: bool = param(True, "A copied effect uses your own once-per-Domain permanent slot "
                                 "of that Domain (§5.6 [GUESS]).", ruling=True)
    hegemony_in_final_round: bool = param(True, "Hegemony still wins during the final round after the "
                                          "deck ran out (§6.2 [GUESS]).", ruling=True)
    empty_domain_scores: bool = param(False, "A Domain nobody has a card of scores 1 point for every "
                                      "player (all tied at 0); false: nobody (§6.3 [GUESS]).",
                                      ruling=True)
    tie_break: str = param("domains", "Tied majority points: the most cards in the Domains of "
                           "`tie_break_order`, one after the other (domains, §6.4), or a shared win "
                           "(shared).", choices=("domains", "shared"), ruling=True)
    tie_break_order: tuple = param(TIE_BREAK_DEFAULT, "The Domains compared to break a tie, in order "
                                   "(§6.4).", choices=DOMAINS, min_len=0, max_len=6, unique=True)
    teams: bool = param(False, "Team play (§7, 4 players): seats 0 and 2 against 1 and 3; a Hegemony "
                        "wins for the team, a team scores a Domain once if one of its players has a "
                        "majority, a tie compares the team's summed cards in tie_break_order "
                        "(a reading: the seed says nothing of team ties).", ruling=True)

    def check(self) -> None:
        if self.level2_small < self.level1_small or self.level2_four < self.level1_four:
            raise UsageError("civ: a Level 2 threshold is below its Level 1 threshold")
        if self.hand_level2 < self.hand_level1:
            raise UsageError("civ: hand_level2 is below hand_level1")

    @property
    def min_players(self) -> int:
        return 4 if self.teams else MIN_PLAYERS

    def check_players(self, players: int) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise UsageError(f"civ: {players} players is not allowed (allowed: {MIN_PLAYERS} to "
                             f"{MAX_PLAYERS})")
        if self.teams and players != 4:
            raise UsageError(f"civ: team play needs 4 players (got {players})")

    def team_seats(self, players: int) -> tuple[tuple[int, ...], ...]:
        """§7: seats 0 and 2 (team A) against 1 and 3 (team B), in team play."""
        return ((0, 2), (1, 3)) if self.teams else ()

    # ---------------------------------------------------------------- by player count (§2)
    def levels(self, players: int) -> tuple[int, int]:
        """(Level 1, Level 2) thresholds."""
        return (self.level1_four, self.level2_four) if players >= 4 else (self.level1_small, self.level2_small)

    def hegemony(self, players: int) -> int:
        return self.hegemony_two if players == 2 else self.hegemony_more

    def removed(self, players: int) -> int:
        """Cards of each Age removed to the box."""
        return self.removed_per_age if players in self.removal_players else 0

    def tie_domains(self) -> tuple[int, ...]:
        return tuple(DOMAINS.index(d) for d in self.tie_break_order)


CivRules.DEFAULT_PRESET = "civ-classic"
CivRules.PRESETS = {
    "civ-classic": {},
    "civ-draft": {"setup": "draft"},
    "civ-teams": {"teams": True},
}
CivRules.PRESET_DOCS = {
    "civ-classic": "The published rules, classic deal, with the specification's default rulings; seat 0 "
                   "starts. Default.",
    "civ-draft": "As civ-classic with the draft set-up.",
    "civ-teams": "4 players in two teams, seats 0 and 2 against 1 and 3 (A B A B), team scoring as the "
                 "seed says.",
}
