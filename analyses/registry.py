"""The analyses that `meeplelab analyse` and `meeplelab report` run.

Each game declares its analyses (`analysis_modules` in sim/<game>/game.py). Each analysis is a
module with NAME, TITLE, SUMMARY, DEFAULT_SEED and
`run(out_dir, quick, seed) -> Section`; the Section carries the markdown for the report
index (figure, one sentence on what it shows, key table, exact command and settings).
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


def all_analyses() -> list[Analysis]:
    out = []
    for mod_name in modules():
        m = importlib.import_module(mod_name)
        out.append(Analysis(m.NAME, m.TITLE, m.SUMMARY, m.DEFAULT_SEED, m))
    return out


def get(name: str) -> Analysis:
    by_name = {a.name: a for a in all_analyses()}
    if name not in by_name:
        raise unknown("analysis", name, by_name)
    return by_name[name]


def run(name: str, out_dir: Path, quick: bool = False, seed: int | None = None) -> Section:
    a = get(name)
    return a.module.run(Path(out_dir), quick=quick, seed=a.default_seed if seed is None else seed)
