"""The registry of games: rule set, engines, per-game result columns."""
from __future__ import annotations

import dataclasses
from typing import Callable

from .core.errors import unknown


@dataclasses.dataclass(frozen=True)
class Game:
    name: str
    title: str
    rules: type                   # RuleSet subclass
    reference_play: Callable      # play_batch(rules, players, seed, first, n, kernels, params)
    fast_play: Callable           # same, plus natives=
    extras: tuple[str, ...]       # per-game columns the game adds
    min_players: int
    max_players: int
    default_players: int
    summary: str
    playthrough: Callable         # (rules, players, seed, game, kernels, params) -> text of one game
    extra_labels: dict = dataclasses.field(default_factory=dict)   # column -> {code: label}


def _diamant() -> Game:
    from .diamant import fast, playthrough, reference
    from .diamant.rules import MAX_PLAYERS, DiamantRules
    return Game("diamant", "Diamant (Moon & Faidutti, 2005)", DiamantRules, reference.play_batch,
                fast.play_batch, reference.EXTRAS, 1, MAX_PLAYERS, 4,
                "push-your-luck cave exploration; when to leave the cave", playthrough.playthrough)


def _schotten_totten() -> Game:
    from .schotten_totten import fast, playthrough, reference
    from .schotten_totten.rules import SchottenTottenRules
    return Game("schotten-totten", "Schotten Totten (Knizia, 1999), with tactic cards",
                SchottenTottenRules, reference.play_batch, fast.play_batch, reference.EXTRAS,
                2, 2, 2, "two-player border war of poker-like formations; seat 0 moves first "
                "(unless first_player=random); score 1 for a win, 0 for a loss",
                playthrough.playthrough,
                {"end": {code: name for name, code in reference.END_CODES.items()}})


_FACTORIES = {"diamant": _diamant, "schotten-totten": _schotten_totten}
_CACHE: dict[str, Game] = {}


def names() -> list[str]:
    return sorted(_FACTORIES)


def get(name: str) -> Game:
    if name not in _FACTORIES:
        raise unknown("game", name, names())
    if name not in _CACHE:
        _CACHE[name] = _FACTORIES[name]()
    return _CACHE[name]
