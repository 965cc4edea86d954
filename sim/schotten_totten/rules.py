"""Schotten Totten rule set: every rule and every ruling of shared/rules/schotten-totten.md is a parameter.

Defaults are the base game of the seed with the rulings of the specification; presets switch on the
tactic cards (advanced game) and the "claim at start" variant; `tactic_cards` plays the advanced game
with some of the tactic cards only (the tactic-card-value analysis takes out one at a time). One
deliberate difference from the rulebook: the first player is seat 0 unless `first_player =
"random"`, so that simulations can measure the first-player advantage (the rulebook picks the first
player at random).
"""
from __future__ import annotations

import dataclasses

from ..core.errors import UsageError
from ..core.rules import RuleSet, param
from .cards import TACTIC_TOKENS

MAX_STONES = 9
CLAN_CARDS = 54


@dataclasses.dataclass(frozen=True)
class SchottenTottenRules(RuleSet):
    GAME = "schotten-totten"
    tactics: bool = param(False, "Advanced game: the 10 tactic cards form a second draw pile.")
    tactic_cards: tuple = param(
        list(TACTIC_TOKENS.values()), "The tactic cards in the game when `tactics` is true, by token "
        "(any order, kept in card order; an empty list: a tactic game without tactic cards). The "
        "tactic pile is built by shuffling all ten cards with the tactic stream, exactly as with all "
        "of them, then taking out the cards not listed (the others keep their order), so a game with "
        "and without a card has the same deal otherwise; the cards taken out lie in the box, out of "
        "the game.",
        choices=TACTIC_TOKENS.values(), unique=True)
    claim_timing: str = param("after-play", "When the player to move may claim stones: after playing "
                              "their card (and before drawing), or only at the start of their turn, "
                              "before playing (the variant).", choices=("after-play", "start-of-turn"))
    auto_claim: bool = param(True, "The engine claims every stone the player to move can prove, at the "
                             "legal moment; if false the player's strategy chooses its claims one by one.")
    redeploy: str = param("move-or-discard", "Redeploy: the card taken from your side is moved to another "
                          "unclaimed stone with room or discarded (published rule), or only discarded "
                          "(the seed's text).", choices=("move-or-discard", "discard"), ruling=True)
    no_play: str = param("pass", "A player with no legal placement (no room, or no card they may play) "
                         "passes the play step, then claims and draws as usual; or the game ends at "
                         "once as a blocked game.", choices=("pass", "blocked"), ruling=True)
    blocked_game: str = param("more-stones", "A blocked game (two turns in a row change nothing: no "
                              "card played, claimed or drawn; or no_play = blocked): the player holding "
                              "more stones wins, equal stones is a draw; or always a draw.",
                              choices=("more-stones", "draw"), ruling=True)
    first_player: str = param("seat0", "Who starts a single game: seat 0 (simulations) or a random seat "
                              "(the rulebook). In a match the winner of the previous game starts.",
                              choices=("seat0", "random"))
    hand_size: int = param(6, "Cards in hand after the deal and after each draw.", min=1, max=12)
    stones: int = param(9, "Boundary stones in the row.", min=1, max=MAX_STONES)
    adjacent_to_win: int = param(3, "Adjacent stones that win at once.", min=1, max=MAX_STONES)
    total_to_win: int = param(5, "Stones in total that win at once.", min=1, max=MAX_STONES)
    tactic_limit: int = param(1, "A player may play a tactic card only while they have played fewer than "
                              "this many tactic cards more than their opponent.", min=1, max=10)
    winner_points: int = param(5, "Match scoring: points of the winner of a game.", min=0, max=100)
    loser_points_per_stone: int = param(1, "Match scoring: points of the loser per stone they claimed.",
                                        min=0, max=100)

    def __post_init__(self):
        super().__post_init__()
        # a set of cards: kept in card order, so equal sets are equal rule sets
        order = list(TACTIC_TOKENS.values())
        object.__setattr__(self, "tactic_cards", tuple(sorted(self.tactic_cards, key=order.index)))

    def check(self) -> None:
        if self.adjacent_to_win > self.stones:
            raise UsageError(f"schotten-totten rules: adjacent_to_win ({self.adjacent_to_win}) > stones "
                             f"({self.stones})")
        if self.total_to_win > self.stones:
            raise UsageError(f"schotten-totten rules: total_to_win ({self.total_to_win}) > stones "
                             f"({self.stones})")
        if 2 * self.hand_size > CLAN_CARDS:
            raise UsageError(f"schotten-totten rules: hand_size {self.hand_size} leaves no deck")

    def tactic_cards_in_play(self) -> tuple[int, ...]:
        """Card ids (cards.py) of the tactic cards in the game, ascending; () without tactics."""
        if not self.tactics:
            return ()
        return tuple(sorted(card for card, token in TACTIC_TOKENS.items() if token in self.tactic_cards))


SchottenTottenRules.DEFAULT_PRESET = "base"
SchottenTottenRules.PRESETS = {
    "base": {},
    "tactics": {"tactics": True},
    "base-claim-at-start": {"claim_timing": "start-of-turn"},
    "tactics-claim-at-start": {"tactics": True, "claim_timing": "start-of-turn"},
}
SchottenTottenRules.PRESET_DOCS = {
    "base": "Base game: 54 clan cards, claims after playing. Default.",
    "tactics": "Advanced game: with the 10 tactic cards.",
    "base-claim-at-start": "Base game, variant: claims only at the start of one's turn.",
    "tactics-claim-at-start": "Advanced game, variant: claims only at the start of one's turn.",
}
