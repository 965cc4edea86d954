"""A game's declaration: everything the rest of meeplelab needs to know about it, in one place.

Each game package `sim/<game>/` has a module `game.py` with `GAME = Game(...)`; `sim.games`
finds them (and third-party games, from the entry-point group `meeplelab.games`), so adding a
game edits no central list: its strategies, analyses, benchmarks, playthroughs and the
conformance suite all come from here. Modules of higher layers (strategies, analyses) are
named as strings: `sim` never imports them.
"""
from __future__ import annotations

import dataclasses
from typing import Callable


@dataclasses.dataclass(frozen=True)
class BenchSetup:
    """One benchmark configuration: rules preset, strategies, games to time."""
    preset: str | None            # None: the game's default rules
    strategies: tuple[str, ...]
    games: int                    # fast-engine games per measurement
    reference_games: int          # reference-engine games


@dataclasses.dataclass(frozen=True)
class SearchBench:
    """A search strategy timed per decision in whole games against an opponent."""
    preset: str | None
    searcher: str
    opponent: str
    games: int


@dataclasses.dataclass(frozen=True)
class PluginBench:
    """A user's plugin file whose strategy is exactly a built-in's code, timed against it."""
    builtin: str                  # the built-in's spec, in every seat
    plugin: str                   # the same strategy as the file registers it
    players: int
    source: str                   # the plugin file


@dataclasses.dataclass(frozen=True)
class Game:
    name: str
    title: str
    summary: str
    rules: type                   # RuleSet subclass
    reference_play: Callable      # play_batch(rules, players, seed, first, n, kernels, params) -> Batch
    fast_play: Callable           # the same, plus natives= (engine codes of built-in kernels)
    playthrough: Callable         # (rules, players, seed, game, kernels, params) -> text of one game
    extras: tuple[str, ...]       # per-game columns the game adds
    min_players: int
    max_players: int
    default_players: int
    extra_labels: dict = dataclasses.field(default_factory=dict)   # column -> {code: label}
    strategy_modules: tuple[str, ...] = ()     # modules that register its strategies
    analysis_modules: tuple[str, ...] = ()     # its analyses, in report order
    bench: tuple[BenchSetup, ...] = ()         # the first one is the headline
    search_bench: tuple[SearchBench, ...] = ()
    plugin_bench: PluginBench | None = None
    # strategies of the seeded playthroughs (tests/playthroughs/): per preset, "*" for the others
    playthrough_lineups: dict = dataclasses.field(default_factory=dict)
    # engine code of the core `random` strategy in the fast engine (-1: through its pointer)
    random_native: int = -1
    # conformance hook: (rules, players, seed, first_game, n_games, kernels, params) -> None,
    # plays games checking the game's invariants after every decision (raises AssertionError)
    check_invariants: Callable | None = None
    # strategy specs the conformance suite plays instead of the defaults (small search budgets)
    conformance_specs: dict = dataclasses.field(default_factory=dict)
    # `meeplelab position GAME FILE`: "module:function" of show(text, rules, specs, seed) -> the
    # text to print, where `rules(default_preset=None)` resolves the command's --preset/--rules/--set
    # to (rule set, label) (default_preset applies when neither --preset nor --rules is given) and
    # `specs` are the -s strategies; None: the game has no position notation
    position: str | None = None
    # the fast engine takes `inlined=` (sim/core/inlined.py): plugins compiled into it
    compiles_plugins: bool = False

    def playthrough_lineup(self, preset: str) -> list[str]:
        return list(self.playthrough_lineups.get(preset, self.playthrough_lineups["*"]))
