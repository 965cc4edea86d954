"""Pyramids rule set: every rule and every [GUESS] of shared/rules/pyramids.md is a parameter.

Defaults are the published rules as the specification reads them, with its default guesses;
`ruling=True` marks the parameters the sources leave open (a [GUESS] or a reading of an unclear
text). Constants below are fixed by the components (five colours, five God tiles, a 4-3-2-1
pyramid, so ten rounds) and are not parameters.
"""
from __future__ import annotations

import dataclasses

from ..core.errors import UsageError
from ..core.rules import RuleSet, param

MIN_PLAYERS, MAX_PLAYERS = 2, 5
ROUNDS = 10                          # one pyramid card a round; the pyramid has 10 slots
CARDS_PER_PLAYER = 1 + 2 * ROUNDS    # the starting card, then one pair a round
COLOURS = ("blue", "white", "red", "green", "yellow")

HORUS, ANUBIS, KHEPRI, SEKHMET, THOTH = 1, 2, 3, 4, 5
TILE_NAMES = {HORUS: "Horus", ANUBIS: "Anubis", KHEPRI: "Khepri", SEKHMET: "Sekhmet", THOTH: "Thoth"}


@dataclasses.dataclass(frozen=True)
class PyramidsRules(RuleSet):
    GAME = "pyramids"
    DATA_FILES = ("deck",)
    deck: str = param("", "The deck file (CSV, format in sim/pyramids/deck.py); empty: the shipped deck "
                      "data/deck-reconstructed.csv, a RECONSTRUCTION (the real card list is not public).")
    first_player: str = param("seat0", "Who holds the First Player token in round 1: seat 0 "
                              "(simulations, to measure the seat edge) or a random seat (the rulebook).",
                              choices=("seat0", "random"))
    sekhmet_small: str = param("tomb-and-obelisk", "Sekhmet at 2-3 players (the tile's other side): "
                               "pyramid + tomb + obelisk (the French rules) or, as at 4-5 players, "
                               "pyramid + tomb or obelisk.", choices=("tomb-and-obelisk", "tomb-or-obelisk"),
                               ruling=True)
    two_player_tiles: str = param(
        "rotate", "2 players: the tile set aside at random in round 1 returns the next round and the "
        "tile nobody chose is set aside in its place (rotate); a new random tile is set aside each "
        "round (random); the round-1 tile stays out all game (fixed); or it returns and all four are "
        "offered from round 2 (return).", choices=("rotate", "random", "fixed", "return"), ruling=True)
    upper_level: str = param(
        "supported", "Where a card may go on an upper level: on any two adjacent cards below "
        "(supported, the specification's model), or, once the level is started, only next to a card "
        "of that level (contiguous, the strictest reading of the French text).",
        choices=("supported", "contiguous"), ruling=True)
    may_keep_none: bool = param(False, "After building, a player holding cards may discard them all "
                                "(true) instead of keeping exactly one (false).", ruling=True)
    keep_limit: int = param(1, "Cards a player may keep in hand from one round to the next.", min=0, max=1)
    large_stone: str = param("stone", "A large stone (two cells) counts as 1 stone or as 2 (cells) in "
                             "pyramid group sizes and tomb majorities.", choices=("stone", "cells"),
                             ruling=True)
    bonus_points: int = param(10, "Pyramid bonus when every colour has a connected group of at least "
                              "`bonus_group` stones.", min=0, max=100)
    bonus_group: int = param(3, "Group size each colour needs for the pyramid bonus.", min=1, max=40)
    obelisk_points: tuple = param((0, 1, 3, 6, 10, 15), "Obelisk points by stages of its most frequent "
                                  "colour: 0, 1, 2, ... stages; more stages than listed score the last "
                                  "value.", min=0, max=1000, min_len=2, max_len=12)
    tomb_points: int = param(5, "Tomb: points for the most stones of one colour.", min=0, max=100)
    tomb_tie: str = param("all", "Tomb majority tied: every tied player scores it (all), nobody does "
                          "(none), or the points are split, rounded down (split).",
                          choices=("all", "none", "split"), ruling=True)
    glyph_points: int = param(2, "Points per glyph on a card in the edifice its glyph shows.",
                              min=0, max=100)
    tie_break: str = param("shared", "Tied top totals: share the win (shared), or the higher pyramid "
                           "score wins, still tied sharing (pyramid).", choices=("shared", "pyramid"),
                           ruling=True)
    tomb_counts_public: bool = param(True, "Everyone sees how many cards each tomb holds (the contents "
                                     "stay hidden from the others).", ruling=True)
    discards_public: bool = param(False, "Discarded cards are face up (everyone sees them); by default "
                                  "only their owner knows them.", ruling=True)

    def check(self) -> None:
        if self.deck:
            from .deck import load_deck   # a bad file is a usage error at once, naming the row
            load_deck(self.deck)

    def cards(self):
        """The deck's cards (deck.Card), in file order; index = position in the file."""
        from .deck import load_deck, shipped_deck_path
        return load_deck(self.deck or shipped_deck_path())

    def check_players(self, players: int) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise UsageError(f"pyramids: {players} players is not allowed (allowed: {MIN_PLAYERS} to "
                             f"{MAX_PLAYERS})")
        from .deck import check_deck_size
        check_deck_size(self.cards(), players, self.deck or "the shipped deck")

    # ---------------------------------------------------------------- the God tiles
    def tiles(self, players: int) -> tuple[int, ...]:
        """Tiles used at this player count: Thoth only at 4-5 players."""
        return (HORUS, ANUBIS, KHEPRI, SEKHMET, THOTH) if players >= 4 else (HORUS, ANUBIS, KHEPRI, SEKHMET)

    def powers(self, tile: int, players: int) -> tuple[bool, bool, bool]:
        """(may tomb, may obelisk, only one of the two) besides the mandatory pyramid card."""
        if tile == HORUS:
            return False, False, False
        if tile == ANUBIS:
            return True, False, False
        if tile == KHEPRI:
            return False, True, False
        if tile == SEKHMET:
            either = players >= 4 or self.sekhmet_small == "tomb-or-obelisk"
            return True, True, either
        if tile == THOTH:
            return True, True, False
        raise ValueError(f"no God tile {tile}")

    def obelisk_value(self, stages: int) -> int:
        return self.obelisk_points[min(stages, len(self.obelisk_points) - 1)]


PyramidsRules.DEFAULT_PRESET = "published"
PyramidsRules.PRESETS = {
    "published": {},
    "rulebook-first-player": {"first_player": "random"},
    "strict": {"upper_level": "contiguous", "tomb_tie": "none", "tie_break": "pyramid"},
    "hidden-tombs": {"tomb_counts_public": False},
}
PyramidsRules.PRESET_DOCS = {
    "published": "The published rules with the specification's default rulings; seat 0 starts. Default.",
    "rulebook-first-player": "As published, the first player drawn at random.",
    "strict": "The strictest readings: upper levels grow contiguously, tied tomb majorities score "
              "nothing, the higher pyramid breaks a tie.",
    "hidden-tombs": "As published, but nobody sees how many cards another player's tomb holds.",
}
PyramidsRules.NOTES = """\
The shipped deck (deck = "": sim/pyramids/data/deck-reconstructed.csv) is a RECONSTRUCTION, not
the real card list, which is not public: the generator of `meeplelab pyramids-deck` made it with its
defaults (their reasons: sim/pyramids/deck.py). To play your own deck, transcribe it and use
--set deck=path/to/deck.csv. Format: CSV, `#` comment lines, the header id,stones,glyph, then one
row per card: a unique id; its stones, each colour@cells (colour blue, white, red, green or
yellow; cells bl, br, tl, tr of the card's 2x2 stone field, a large stone two adjacent cells
joined by +), together covering the four cells once; its glyph: none, pyramid, obelisk or tomb.
  id,stones,glyph
  0,red@bl+tl blue@br white@tr,pyramid
  1,green@bl+tl yellow@br+tr,none
"""
