"""Play several set-ups on the same seeds and add up, exactly, each one's outcomes and the
differences between them game by game: the machinery under compare, sweep, tune and the generic
analyses.

Every arm (a `Setup`: rules and a strategy per seat) plays the same deals: games
first_game .. first_game + deals - 1 under one seed, so the cards are the same wherever the
changes leave them alone (common random numbers). With `rotations` R > 1 every deal is played R
times, the lineup turned by one seat each time (in rotation r seat j plays the strategy of slot
(j + r) mod players, as a tournament seats them), so that a strategy's result is not its seat's;
arms are paired game by game within each rotation. Per arm and game the recorded quantities are
each slot's share of the win and score, then every outcome measure of the game
(sim/core/measures.py), all in exact units.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

from sim import games as game_registry
from sim.core.batch import Batch
from sim.core.measures import UNIT
from sim.core.runner import RunInfo, run_chunks
from sim.core.stats import ExactSums
from strategies.jobs import Job, LineupData
from strategies.play import REFERENCE_CHUNK, batch_player, plugins_to_compile

from .changes import Setup

@dataclasses.dataclass(frozen=True)
class Quantity:
    """A recorded column: a slot's win share or score, or a game's measure (slot None)."""
    measure: str
    slot: int | None = None
    share: bool = False       # values in [0, 1]: Wilson intervals for one arm

    @property
    def key(self) -> str:
        return self.measure if self.slot is None else f"{self.measure}:{self.slot}"


def quantities(game: str, players: int) -> list[Quantity]:
    g = game_registry.get(game)
    return ([Quantity("win_share", s, True) for s in range(players)]
            + [Quantity("mean_score", s) for s in range(players)]
            + [Quantity(m.name, None, m.share) for m in g.all_measures()])


def measure_values(game: str, batch: Batch, rules, out: np.ndarray | None = None) -> np.ndarray:
    """Every outcome measure of the game for every game of a batch: measures x games (in `out`
    if given)."""
    measures = game_registry.get(game).all_measures()
    out = np.empty((len(measures), batch.games)) if out is None else out[:, :batch.games]
    for j, m in enumerate(measures):
        out[j] = m.of(batch, rules)
    return out


class Recorder:
    """Records the games of one arm (`record`) into buffers kept from chunk to chunk: fresh
    arrays of a chunk's size would cost page faults on every chunk."""

    def __init__(self, game: str, quantities: int):
        self.game, self.k = game, quantities
        self.units = self.values = None

    def record(self, batch: Batch, rules, rotation: int, sums: ExactSums,
               base: np.ndarray | None = None, diff: ExactSums | None = None) -> np.ndarray:
        """Add the quantities of every game of a batch to `sums` (with `base`, the units of the
        same games of another arm, their differences to `diff`); returns the units, games x
        quantities (int64; valid until the next call)."""
        n, players = batch.scores.shape
        if self.units is None or self.units.shape[0] < n:
            self.units = np.empty((n, self.k), np.int64)
            self.values = np.empty((self.k - 2 * players, n))
        seat_of_slot = [(i - rotation) % players for i in range(players)]
        return sums.record(np.ascontiguousarray(batch.scores, np.int64),
                           np.ascontiguousarray(batch.shares, np.float64), seat_of_slot,
                           measure_values(self.game, batch, rules, self.values), base, diff,
                           out=self.units)


def same_game(a: Batch, b: Batch) -> tuple[np.ndarray, np.ndarray]:
    """Per game: whether anything recorded differs (scores, shares, any per-game column), and
    whether the result differs (the shares of the win). (Column by column: numpy's reductions
    along short rows are slow, and this runs on every game of a comparison.)"""
    result = np.zeros(a.games, bool)
    for j in range(a.shares.shape[1]):
        result |= a.shares[:, j] != b.shares[:, j]
    anything = result.copy()
    for j in range(a.scores.shape[1]):
        anything |= a.scores[:, j] != b.scores[:, j]
    for k, v in a.extras.items():
        anything |= np.asarray(v) != np.asarray(b.extras[k])
    return anything, result


@dataclasses.dataclass
class ArmsRun:
    """The exact sums of a run of several arms on the same deals (see the module docstring)."""
    game: str
    setups: list[Setup]
    quantities: list[Quantity]
    rotations: int
    seed: int
    first_game: int
    totals: list[ExactSums]           # per arm
    diffs: list[ExactSums | None]     # per arm: arm - arm 0, game by game (None for arm 0)
    changed: list[int]                # per arm: games whose record differs from arm 0's
    result_changed: list[int]         # per arm: games whose shares of the win differ
    info: RunInfo | None = None
    engines: tuple[str, ...] = ()
    kept: list[np.ndarray] | None = None     # per arm: the kept quantity's units, game by game

    @property
    def games(self) -> int:
        """Games per arm (deals x rotations)."""
        return self.totals[0].n

    def column(self, key: str) -> int:
        for j, q in enumerate(self.quantities):
            if q.key == key:
                return j
        raise KeyError(key)


class ArmsJob(Job):
    """The chunk job of `play_arms` (strategies/jobs.py): one chunk of deals on every arm and
    rotation, and the sums to add (nothing is added by the job, so that an interrupted chunk
    counts not at all)."""

    def __init__(self, game: str, setups: list[Setup], *, rotations: int, seed: int, engine: str,
                 compile_plugins: str, games: int, paired: bool, keep_col: int | None,
                 quantities: int):
        players = setups[0].players
        players_of, engines, compiled = [], [], []
        for s in setups:
            row, used_row, compiled_row = [], [], []
            for r in range(rotations):
                lineup = [s.lineup[(j + r) % players] for j in range(players)]
                compiled_in = plugins_to_compile(game, lineup, games, compile_plugins)
                bp, used = batch_player(game, s.rules, lineup, seed, engine, compiled_in)
                row.append(bp)
                used_row.append(used)
                compiled_row.append(bool(compiled_in))
            players_of.append(row)
            engines.append(used_row)
            compiled.append(compiled_row)
        self.engines = tuple(dict.fromkeys(e for row in engines for e in row))
        shape = dict(game=game, rotations=rotations, paired=paired, keep_col=keep_col,
                     quantities=quantities)
        self._local = self._parts(shape, [s.rules for s in setups], players_of)
        self._data = lambda: dict(shape, seed=seed, engines=engines, compiled=compiled,
                                  arms=[LineupData.of(game, s.rules, s.lineup) for s in setups])

    @staticmethod
    def _parts(shape: dict, rules: list, players_of: list) -> dict:
        recorders = [[Recorder(shape["game"], shape["quantities"]) for _ in range(shape["rotations"])]
                     for _ in rules]
        return dict(shape, rules=rules, players_of=players_of, recorders=recorders)

    def build(self, data):
        game, rotations = data["game"], data["rotations"]
        rules, players_of = [], []
        for a, arm in enumerate(data["arms"]):
            arm_rules, bound = arm.bind()
            players = len(bound)
            row = []
            for r in range(rotations):
                lineup = [bound[(j + r) % players] for j in range(players)]
                compiled_in = plugins_to_compile(game, lineup, 0,
                                                 "always" if data["compiled"][a][r] else "never")
                row.append(batch_player(game, arm_rules, lineup, data["seed"],
                                        data["engines"][a][r], compiled_in)[0])
            rules.append(arm_rules)
            players_of.append(row)
        return self._parts(data, rules, players_of)

    def __call__(self, first: int, n: int):
        p = self.built()
        arms, k, paired, keep_col = len(p["rules"]), p["quantities"], p["paired"], p["keep_col"]
        add = [ExactSums(k, UNIT) for _ in range(arms)]
        add_diff = [ExactSums(k, UNIT) for _ in range(arms)]
        changed, result = [0] * arms, [0] * arms
        kept = []
        for r in range(p["rotations"]):
            base_batch = base_u = None
            for a in range(arms):
                batch = p["players_of"][a][r](first, n)
                rec = p["recorders"][a][r]
                if a == 0 or not paired:
                    u = rec.record(batch, p["rules"][a], r, add[a])
                    base_batch, base_u = (batch, u) if a == 0 else (base_batch, base_u)
                else:
                    u = rec.record(batch, p["rules"][a], r, add[a], base_u, add_diff[a])
                    anything, res = same_game(batch, base_batch)
                    changed[a] += int(anything.sum())
                    result[a] += int(res.sum())
                if keep_col is not None:
                    kept.append((a, r, first, u[:, keep_col].copy()))
        return add, add_diff, changed, result, kept


def play_arms(game: str, setups: list[Setup], *, deals: int, seed: int, rotations: int = 1,
              first_game: int = 0, chunk: int | None = None, threads: int | None = None,
              progress: bool | None = None, engine: str = "auto", compile_plugins: str = "auto",
              paired: bool = True, stop: Callable[["ArmsRun"], bool] | None = None,
              keep: str | None = None, desc: str | None = None) -> ArmsRun:
    """Play every arm on deals first_game .. first_game + deals - 1, `rotations` times each.

    paired: also add each arm's difference from arm 0, game by game. stop(run): asked after each
    chunk of deals, True ends the run there. keep(arm, rotation, first game, units: games x quantities): every
    chunk's record, to keep per-game values (committed only with the chunk). On Ctrl-C the
    chunks that finished are kept (run.info.interrupted)."""
    players = setups[0].players
    if any(s.players != players for s in setups):
        raise ValueError("every arm of a comparison has the same number of seats")
    qs = quantities(game, players)
    k = len(qs)
    run = ArmsRun(game, list(setups), qs, rotations, seed, first_game,
                  [ExactSums(k, UNIT) for _ in setups],
                  [None] + [ExactSums(k, UNIT) if paired else None for _ in setups[1:]],
                  [0] * len(setups), [0] * len(setups))
    job = ArmsJob(game, setups, rotations=rotations, seed=seed, engine=engine,
                  compile_plugins=compile_plugins, games=deals * rotations * len(setups),
                  paired=paired, keep_col=[q.key for q in qs].index(keep) if keep is not None else None,
                  quantities=k)
    run.engines = job.engines
    pieces = []                     # (arm, rotation, first game, kept units)

    def commit(chunk_result) -> None:
        add, add_diff, changed, result, kept = chunk_result
        for a in range(len(setups)):
            run.totals[a].merge(add[a])
            if run.diffs[a] is not None:
                run.diffs[a].merge(add_diff[a])
            run.changed[a] += changed[a]
            run.result_changed[a] += result[a]
        pieces.extend(kept)

    if chunk is None and "reference" in run.engines:
        chunk = REFERENCE_CHUNK
    arms = f"{len(setups)} set-up{'s' if len(setups) > 1 else ''}"
    seatings = f" x {rotations} seatings" if rotations > 1 else ""
    run.info = run_chunks(job, deals, commit, first_game=first_game, chunk=chunk,
                          threads=threads, progress=progress, unit="deal",
                          desc=desc or f"{game}: {arms}{seatings}",
                          stop=(lambda: stop(run)) if stop is not None else None)
    if keep is not None:
        pieces.sort(key=lambda t: t[:3])
        run.kept = [np.concatenate([u for arm, _, _, u in pieces if arm == a] or [np.zeros(0, np.int64)])
                    for a in range(len(setups))]
    return run
