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
class WorkbenchBench:
    """compare and sweep timed against the plain runs they stand for (the headline's strategies
    and rules): a compare of the rules with `variant` against two runs, a sweep of `grid`
    against one run per point."""
    variant: str
    grid: tuple[str, ...]
    games: int                    # deals of the compare
    sweep_games: int              # deals per point of the sweep


@dataclasses.dataclass(frozen=True)
class FirstPlayerStudy:
    """What the generic first-player analysis plays (analyses/first_player.py): self-play of each
    strategy in each set-up, seat 0 first unless a rule draws it."""
    setups: tuple[tuple[str, str | None, tuple[int, ...]], ...]   # (label, preset, player counts)
    strategies: tuple[tuple[str, int], ...]   # (strategy spec, games in the full report)
    seed: int
    measures: tuple[str, ...] = ()            # declared measures shown beside the edge
    note: str = ""                            # markdown: what the game's set-ups mean


@dataclasses.dataclass(frozen=True)
class LadderStudy:
    """The generic strategy ladder (analyses/ladder.py): a two-player round-robin, both seatings on
    the same deals, Bradley-Terry ratings."""
    preset: str | None
    entries: tuple[tuple[str, int], ...]       # (strategy spec, games per seating); a pair plays
    quick_entries: tuple[tuple[str, int], ...]  # the smaller budget of its two strategies
    seed: int
    title: str                                 # of the figure
    short: tuple[tuple[str, str], ...] = ()    # label abbreviations in the figure (old, new)
    note: str = ""                             # markdown: the budgets and what to read


@dataclasses.dataclass(frozen=True)
class Variant:
    """A rule variant: its label, the preset of the base it is compared with, its changes as
    `compare --variant` takes them (`rounds=4`, `preset=incan-gold-2006`) and the player counts
    it is played at."""
    label: str
    base: str | None
    changes: tuple[str, ...]
    players: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class VariantsStudy:
    """The generic rule-variants analysis (analyses/variants.py): every variant against its base,
    the field in every seat, paired on the same seeds; optionally, for the base and every
    variant, the best value of one seat's strategy parameter (a sweep)."""
    field: tuple[str, ...]                     # strategy specs, cycled over the seats
    variants: tuple[Variant, ...]
    games: int
    quick_games: int
    seed: int
    measures: tuple[str, ...]                  # declared measures shown in the table
    sweep_lineup: tuple[str, ...] = ()         # the lineup of the sweep, one spec per seat
    sweep_key: str = ""                        # e.g. "seat0.k"
    sweep_values: tuple = ()
    note: str = ""


@dataclasses.dataclass(frozen=True)
class TuningStudy:
    """The generic tuning analysis (analyses/tuning.py): `meeplelab tune` of one strategy with a
    stated budget, and the tuned against the default parameters on held-out seeds."""
    strategy: str
    params: tuple[str, ...]                    # NAME=LO..HI, as --param takes them
    against: tuple[str, ...]
    players: int
    preset: str | None
    trials: int
    games: int                                 # deals per trial
    confirm_games: int
    seed: int
    check_players: tuple[int, ...] = ()        # the tuned against the default at these too
    note: str = ""


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
    workbench_bench: WorkbenchBench | None = None
    # games of the headline on a local Dask cluster against the local backend (`bench --dask`)
    dask_bench_games: int = 0
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
    # outcome measures (sim/core/measures.py) beside the ones every game has, its length first;
    # compare, sweep, tune and the generic analyses work from them
    measures: tuple = ()
    length: str | None = None                  # the measure that is the game's length
    first_seat: str | None = None              # the per-game column naming the first seat (else 0)
    # the studies of the generic analyses it lists in analysis_modules, by the analysis's suffix
    # ("first-player": FirstPlayerStudy, "ladder": LadderStudy, "variants": VariantsStudy,
    # "tuning": TuningStudy); the analysis is named "<game>-<suffix>"
    studies: dict = dataclasses.field(default_factory=dict)

    def all_measures(self) -> tuple:
        """Every outcome measure of the game: the common ones, then its own."""
        from .measures import common
        return common(self.first_seat) + tuple(self.measures)

    def measure(self, name: str):
        from .errors import unknown
        found = {m.name: m for m in self.all_measures()}
        if name not in found:
            raise unknown(f"{self.name} measure", name, found)
        return found[name]

    def playthrough_lineup(self, preset: str) -> list[str]:
        return list(self.playthrough_lineups.get(preset, self.playthrough_lineups["*"]))
