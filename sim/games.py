"""The registry of games, found rather than listed.

A game is a package `sim/<game>/` whose module `game.py` declares `GAME` (sim/core/game.py), or
a third-party module named by an entry point of the group `meeplelab.games` whose value is such
a `Game`:

    [project.entry-points."meeplelab.games"]
    my-game = "my_package.game:GAME"
"""
from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
import warnings
from pathlib import Path

from .core.errors import unknown
from .core.game import Game

ENTRY_POINT_GROUP = "meeplelab.games"
_GAMES: dict[str, Game] = {}


def _discover() -> dict[str, Game]:
    if _GAMES:
        return _GAMES
    found: list[Game] = []
    here = Path(__file__).parent
    for info in pkgutil.iter_modules([str(here)]):
        if info.ispkg and info.name != "core" and (here / info.name / "game.py").is_file():
            found.append(importlib.import_module(f"{__package__}.{info.name}.game").GAME)
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            game = ep.load()
        except Exception as e:
            warnings.warn(f"game plugin {ep.name!r} ({ep.value}) failed to load: "
                          f"{type(e).__name__}: {e}; other games keep working", stacklevel=3)
            continue
        if not isinstance(game, Game):
            warnings.warn(f"game plugin {ep.name!r} ({ep.value}) is not a sim.core.game.Game",
                          stacklevel=3)
            continue
        found.append(game)
    for game in sorted(found, key=lambda g: g.name):
        _GAMES.setdefault(game.name, game)   # a built-in keeps its name
    return _GAMES


def names() -> list[str]:
    return list(_discover())


def all_games() -> list[Game]:
    return list(_discover().values())


def get(name: str) -> Game:
    games = _discover()
    if name not in games:
        raise unknown("game", name, games)
    return games[name]
