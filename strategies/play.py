"""Play games between bound strategies: pick the engine, pack parameters, aggregate.

This is the Python API behind `meeplelab run`:

    >>> from strategies.play import play, resolve_rules
    >>> rules = resolve_rules("diamant", preset="diamant-2005")
    >>> result = play("diamant", rules, ["leave-after-hazards:k=2"] * 4, games=10_000, seed=1)
    >>> result.table()          # one row per seat, with standard errors and Wilson intervals
"""
from __future__ import annotations

import dataclasses
import sys
import warnings
from typing import Callable

import numpy as np
import pandas as pd

from sim import games as game_registry
from sim.core.batch import Batch, StrategyError
from sim.core import inlined as inl
from sim.core.errors import UsageError
from sim.core.runner import RunInfo, run_chunks
from sim.core.stats import SeatTotals

from .jobs import Job, LineupData
from .registry import Bound, StrategyWarning, lineup as make_lineup

REFERENCE_CHUNK = 512
COMPILE_MODES = ("auto", "always", "never")
COMPILE_MIN_GAMES = 1_000_000   # auto: a run this long compiles its plugins into the engine


class StrategyFailure(UsageError):
    """A strategy raised or returned an illegal action; the message says how to replay it.
    `record`: from `playthrough`, the game up to the failing decision."""
    record = ""


def resolve_rules(game: str, preset: str | None = None, rules_file: str | None = None,
                  assignments=()):
    """preset -> rule file -> --set assignments, validated at each step."""
    rules_cls = game_registry.get(game).rules
    rules = rules_cls.preset(preset)
    if rules_file:
        rules = rules_cls.load_toml(rules_file, base=rules)
    if assignments:
        rules = rules.with_assignments(list(assignments))
    return rules


TEAM_NAMES = "ABCDEFGH"


def team_name(i: int) -> str:
    return TEAM_NAMES[i]


def seats_label(seats) -> str:
    """A team's seats as `0+2`."""
    return "+".join(str(s) for s in seats)


def team_results(scores: np.ndarray, shares: np.ndarray, teams) -> tuple[np.ndarray, np.ndarray]:
    """Per game and team: the sum of its seats' scores and its share of the win (the sum of its
    seats' shares), games x teams."""
    return (np.stack([scores[:, list(t)].sum(axis=1) for t in teams], axis=1),
            np.stack([shares[:, list(t)].sum(axis=1) for t in teams], axis=1))


@dataclasses.dataclass
class Result:
    game: str
    rules: object
    lineup: list[Bound]
    seed: int
    engine: str
    totals: SeatTotals
    info: RunInfo
    teams: tuple = ()                        # rules.team_seats(players): () without team play
    team_totals: SeatTotals | None = None    # per team: summed seat scores, the team's share

    def table(self) -> pd.DataFrame:
        """Per seat: strategy, games, mean_score, se_score, win_share, win_ci_low, win_ci_high."""
        mean, se, win, low, high = self.totals.summary()
        return pd.DataFrame({
            "seat": np.arange(len(self.lineup)),
            "strategy": [b.label for b in self.lineup],
            "games": self.totals.games,
            "mean_score": mean, "se_score": se,
            "win_share": win, "win_ci_low": low, "win_ci_high": high,
        })

    def team_table(self) -> pd.DataFrame | None:
        """Per team (team play only, else None): team (A, B, ...), seats (`0+2`), strategy (its
        seats' labels, once if they are the same), games, mean_score and se_score (the mean
        over its seats of their scores, per game), win_share (the team's: its seats' shares
        summed) with its Wilson interval."""
        if not self.teams:
            return None
        mean, se, win, low, high = self.team_totals.summary()
        size = np.array([len(t) for t in self.teams], float)
        return pd.DataFrame({
            "team": [team_name(i) for i in range(len(self.teams))],
            "seats": [seats_label(t) for t in self.teams],
            "strategy": [" + ".join(dict.fromkeys(self.lineup[s].label for s in t)) for t in self.teams],
            "games": self.team_totals.games,
            "mean_score": mean / size, "se_score": se / size,
            "win_share": win, "win_ci_low": low, "win_ci_high": high,
        })


def choose_engine(lineup: list[Bound], engine: str = "auto") -> str:
    """'fast' when every strategy compiled; otherwise the reference engine, with a warning."""
    if engine not in ("auto", "fast", "reference"):
        raise UsageError(f"engine {engine!r}: allowed auto, fast, reference")
    slow = [b.strategy for b in lineup if not b.strategy.compiled]
    if engine == "reference":
        return engine
    if slow:
        names = ", ".join(dict.fromkeys(f"{s.name!r} ({s.compile_error})" for s in slow))
        if engine == "fast":
            raise UsageError(f"--engine fast: numba cannot compile strategy {names}")
        warnings.warn(f"numba cannot compile strategy {names}; running on the reference engine, "
                      f"about 100x slower", StrategyWarning, stacklevel=3)
        return "reference"
    return "fast"


def _bound(game: str, lineup) -> list[Bound]:
    """A lineup given as strategy specs or as Bound, as Bound."""
    if lineup and isinstance(lineup[0], str):
        return make_lineup(game, list(lineup), len(lineup))
    return lineup


def kernels_and_params(lineup: list[Bound], rules) -> tuple[list, list]:
    """Each seat's decision kernel and its packed parameter array under `rules`."""
    return ([b.strategy.kernel for b in lineup],
            [b.params_array(rules, len(lineup)) for b in lineup])


def _check_players(g, rules, players: int) -> None:
    if not g.min_players <= players <= g.max_players:
        raise UsageError(f"{g.name}: {players} players; the engine plays {g.min_players} to {g.max_players}")
    rules.check_players(players)


def plugins_to_compile(game: str, lineup: list[Bound], games: int, mode: str = "auto"
                       ) -> inl.Inlined:
    """The plugin kernels to compile into the fast engine (sim/core/inlined.py): with mode
    "always"; with "auto" when that engine is already compiled for them or the run is long
    (COMPILE_MIN_GAMES); never with "never", nor for a game whose engine cannot."""
    if mode not in COMPILE_MODES:
        raise UsageError(f"compile plugins {mode!r}: allowed {', '.join(COMPILE_MODES)}")
    kernels = [b.strategy.kernel for b in lineup if b.strategy.origin != "built-in"
               and b.strategy.compiled and b.strategy.native < 0]
    if not kernels or mode == "never" or not game_registry.get(game).compiles_plugins:
        return inl.NONE
    token = inl.Inlined(kernels)
    if mode == "always" or games >= COMPILE_MIN_GAMES or inl.compiled_before(game, token):
        return token
    return inl.NONE


def batch_player(game: str, rules, lineup: list[Bound], seed: int, engine: str = "auto",
                 compiled_in: inl.Inlined = inl.NONE) -> tuple[Callable[[int, int], Batch], str]:
    """A `play_batch(first_game, n)` closure for the runner, and the engine it uses;
    `compiled_in`: plugin kernels the fast engine compiles into itself (`plugins_to_compile`)."""
    g = game_registry.get(game)
    players = len(lineup)
    _check_players(g, rules, players)
    engine = choose_engine(lineup, engine)
    kernels, params = kernels_and_params(lineup, rules)
    natives = [b.strategy.native for b in lineup]
    extra = {"inlined": compiled_in} if compiled_in else {}

    def reference(first: int, n: int) -> Batch:
        try:
            return g.reference_play(rules, players, seed, first, n, kernels, params)
        except StrategyError as e:
            raise _failure(game, lineup, seed, e) from None

    def fast(first: int, n: int) -> Batch:
        try:
            batch = g.fast_play(rules, players, seed, first, n, kernels, params, natives, **extra)
        except StrategyError as e:
            raise _failure(game, lineup, seed, e) from None
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception:
            # a compiled strategy raised: replay the chunk on the reference engine to find it
            reference(first, n)
            raise
        if compiled_in:
            inl.mark_compiled(game, compiled_in)
        return batch

    return (fast if engine == "fast" else reference), engine


def _failure(game: str, lineup: list[Bound], seed: int, e: StrategyError) -> StrategyFailure:
    who = lineup[e.seat]
    return StrategyFailure(
        f"strategy {who.label!r} ({who.strategy.origin}) in seat {e.seat} failed: {e.cause}; "
        f"at {e.decision} of game index {e.game}, seed {seed}. Replay that game with "
        f"`--seed {seed}` and the same strategies: it is game {e.game} of the run; "
        f"`meeplelab playthrough {game} --players {len(lineup)} "
        f"{' '.join('-s ' + b.label for b in lineup)} --seed {seed} --game {e.game}` (with the "
        f"same rules and --plugin files) shows it decision by decision.")


class GamesJob(Job):
    """The chunk job of `play` (strategies/jobs.py): per chunk, the seat totals, the team
    totals in team play, and the Batch when the caller looks at every game (keep "games": all
    of it, "results": scores and shares only, "": not at all)."""

    def __init__(self, game: str, rules, lineup: list[Bound], seed: int, engine: str,
                 compiled_in: inl.Inlined, keep: str):
        play_batch, used = batch_player(game, rules, lineup, seed, engine, compiled_in)
        teams = rules.team_seats(len(lineup))
        self._local = (play_batch, len(lineup), teams, keep)
        self._data = lambda: dict(lineup=LineupData.of(game, rules, lineup), seed=seed,
                                  engine=used, compile=bool(compiled_in), keep=keep)

    def build(self, data):
        rules, bound = data["lineup"].bind()
        game = data["lineup"].game
        compiled_in = plugins_to_compile(game, bound, 0, "always" if data["compile"] else "never")
        play_batch, _ = batch_player(game, rules, bound, data["seed"], data["engine"], compiled_in)
        return play_batch, len(bound), rules.team_seats(len(bound)), data["keep"]

    def __call__(self, first: int, n: int):
        play_batch, players, teams, keep = self.built()
        batch = play_batch(first, n)
        totals = SeatTotals(players)
        totals.add(batch.scores, batch.shares)
        team_totals = None
        if teams:
            team_totals = SeatTotals(len(teams))
            team_totals.add(*team_results(batch.scores, batch.shares, teams))
        if keep == "results":
            batch = Batch(batch.first_game, batch.scores, batch.shares, {})
        return totals, team_totals, batch if keep else None


def play(game: str, rules, lineup, *, games: int, seed: int = 0, first_game: int = 0,
         threads: int | None = None, chunk: int | None = None, progress: bool | None = None,
         engine: str = "auto", on_batch: Callable[[Batch], None] | None = None,
         partial: bool = True, compile_plugins: str = "auto", batch_extras: bool = True) -> Result:
    """Play `games` seeded games; `lineup` is a list of Bound or of strategy specs.

    On Ctrl-C the games that finished are returned (`result.info.interrupted`), or, with
    partial=False (analyses, which need every game), KeyboardInterrupt propagates.
    `compile_plugins` (auto, always, never): see `plugins_to_compile`; the games are the same.
    batch_extras=False: the batches given to on_batch hold scores and shares only (less for
    a Dask worker to send back)."""
    lineup = _bound(game, lineup)
    compiled_in = plugins_to_compile(game, lineup, games, compile_plugins)
    g = game_registry.get(game)
    _check_players(g, rules, len(lineup))
    used = choose_engine(lineup, engine)
    keep = ("games" if batch_extras else "results") if on_batch is not None else ""
    job = GamesJob(game, rules, lineup, seed, used, compiled_in, keep)
    if (used == "fast" and compiled_in and not inl.compiled_before(game, compiled_in)
            and progress is not False):
        names = ", ".join(dict.fromkeys(b.strategy.name for b in lineup
                                        if b.strategy.kernel in compiled_in.kernels))
        print(f"compiling {names} into the {game} engine: once per version of its source, "
              f"then cached", file=sys.stderr)
    totals = SeatTotals(len(lineup))
    teams = rules.team_seats(len(lineup))
    team_totals = SeatTotals(len(teams)) if teams else None

    def collect(chunk_result) -> None:
        seat_totals, chunk_team_totals, batch = chunk_result
        totals.merge(seat_totals)
        if teams:
            team_totals.merge(chunk_team_totals)
        if on_batch is not None:
            on_batch(batch)

    if chunk is None and used == "reference":
        chunk = REFERENCE_CHUNK
    info = run_chunks(job, games, collect, first_game=first_game, chunk=chunk,
                      threads=threads, progress=progress, desc=f"{game} ({used} engine)")
    if info.interrupted and not partial:
        raise KeyboardInterrupt
    return Result(game, rules, lineup, seed, used, totals, info, teams, team_totals)


def per_game_frame(batch: Batch, game_extras, labels: dict | None = None, teams=()) -> pd.DataFrame:
    """Tidy per-game rows: game, score_0..score_{n-1}, winner (-1: shared or none), in team play
    winning_team (A, B, ...; empty: shared), extras (coded extras such as Schotten Totten's
    `end` written as their labels; per-seat extras `name_s` only for the seats of the game)."""
    labels = labels or {}
    players = batch.scores.shape[1]
    cols = {"game": np.arange(batch.first_game, batch.first_game + batch.games)}
    for seat in range(batch.scores.shape[1]):
        cols[f"score_{seat}"] = batch.scores[:, seat]
    cols["winner"] = batch.winners()
    if teams:
        _, shares = team_results(batch.scores, batch.shares, teams)
        best = shares.argmax(axis=1)
        whole = np.isclose(shares[np.arange(batch.games), best], 1.0)
        cols["winning_team"] = np.where(whole, np.array(list(TEAM_NAMES[:len(teams)]))[best], "")
    for key in game_extras:
        seat = key.rpartition("_")[2]
        if seat.isdigit() and int(seat) >= players:
            continue
        values = batch.extras[key]
        cols[key] = [labels[key][v] for v in values.tolist()] if key in labels else values
    return pd.DataFrame(cols)


def playthrough(game: str, rules, lineup, *, seed: int = 0, game_index: int = 0) -> str:
    """One seeded game as readable text (every decision; Schotten Totten adds the position after
    each turn), played by the reference engine: the same game as game `game_index` of a run
    with this seed. `lineup` is a list of Bound or of strategy specs."""
    lineup = _bound(game, lineup)
    g = game_registry.get(game)
    _check_players(g, rules, len(lineup))
    kernels, params = kernels_and_params(lineup, rules)
    try:
        return g.playthrough(rules, len(lineup), seed, game_index, kernels, params)
    except StrategyError as e:
        failure = _failure(game, lineup, seed, e)
        failure.record = e.record
        raise failure from None
