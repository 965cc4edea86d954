"""The analyses that `meeplelab analyse` and `meeplelab report` run.

Each game declares its analyses (`analysis_modules` in sim/<game>/game.py). An analysis of one
game is a module with NAME, TITLE, SUMMARY, DEFAULT_SEED and `run(out_dir, quick, seed) ->
Section`; a generic analysis, asked by every game (first player, ladder, variants, tuning), is a
module with SUFFIX and `title(game)`, `summary(game)`, `run(game, out_dir, quick, seed)`, run
for each game that lists it, from the game's study (`Game.studies[SUFFIX]`), as analysis
"<game>-<suffix>". The Section carries the markdown for the report index (figure, one sentence
on what it shows, key table, exact command and settings).
"""
from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

from sim import games
from sim.core.errors import unknown


def modules() -> list[str]:
    """Every game's analysis modules (its declaration names them), game by game."""
    return [m for g in games.all_games() for m in g.analysis_modules]


def is_generic(module) -> bool:
    return hasattr(module, "SUFFIX")


@dataclasses.dataclass
class Section:
    name: str
    title: str
    markdown: str
    files: list[str]


@dataclasses.dataclass(frozen=True)
class Analysis:
    name: str
    title: str
    summary: str
    default_seed: int
    module: object
    game: str | None = None           # the game whose declaration lists it

    def run(self, out_dir: Path, quick: bool = False, seed: int | None = None) -> Section:
        seed = self.default_seed if seed is None else seed
        if is_generic(self.module):
            return self.module.run(games.get(self.game), Path(out_dir), quick=quick, seed=seed)
        return self.module.run(Path(out_dir), quick=quick, seed=seed)


def all_analyses() -> list[Analysis]:
    out = []
    for g in games.all_games():
        for mod_name in g.analysis_modules:
            m = importlib.import_module(mod_name)
            if not is_generic(m):
                out.append(Analysis(m.NAME, m.TITLE, m.SUMMARY, m.DEFAULT_SEED, m, g.name))
                continue
            study = g.studies.get(m.SUFFIX)
            if study is None:
                raise TypeError(f"{g.name} lists {mod_name} but declares no studies[{m.SUFFIX!r}]")
            out.append(Analysis(f"{g.name}-{m.SUFFIX}", m.title(g), m.summary(g), study.seed, m, g.name))
    return out


def get(name: str) -> Analysis:
    by_name = {a.name: a for a in all_analyses()}
    if name not in by_name:
        raise unknown("analysis", name, by_name)
    return by_name[name]


def run(name: str, out_dir: Path, quick: bool = False, seed: int | None = None) -> Section:
    return get(name).run(out_dir, quick=quick, seed=seed)
