"""The Diamant decision map: go on for one more card, or leave now, state by state.

For states met in real games, the map gives the expected gain of going on for one card and then
following the table's policy, over leaving now, in final score and in win share. It comes from
paired rollouts: each game is played twice on the same seeds by the same lineup (seat 0 plays
the base policy BASE, the others the field), once with seat 0 forced to leave at one decision
and once forced to go on there (`sim.diamant.reference.Probe`). Everything before that decision is
the same game, so the state is one a player meets; everything after it sees the same cards.
The decision is drawn per game from its own keyed stream (round and decision step uniform), so
every decision seat 0 meets up to step MAX_STEP is equally likely to be the one probed.

A state's cell: players still inside, hazard kinds already out once in this cave, and the gems
seat 0 carries (in bins of GEM_BIN, the last open-ended). Gems on the path, artifacts, the
round and the scores so far are pooled within a cell (their means are in the map).

`decision-map` plays the map: in each cell, go on where the map's gain in final score is
positive, leave where it is not or where no game met the cell. By score, the map is a one-step
improvement of the base policy (exact up to the pooling of states within a cell); the win-share
gain is not one (a cell pools states whose standings differ, and a lead or a deficit changes
what a card is worth in wins). It builds its own map when prepared (seeded, `games` probes per
field policy), once per process.
"""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd
from numba import njit

from sim.core.rng import PROBE_STREAM, split_below, stream_key
from sim.core.runner import run_chunks
from sim.core.stats import Z95
from sim.diamant import fast, observation as O, reference
from sim.diamant.game import FIELD
from sim.diamant.rules import MAX_HAZARD_KINDS, MAX_PLAYERS, DiamantRules

from .diamant import MAP_SEED as DEFAULT_SEED
from .jobs import Job, LineupData
from .play import _bound, choose_engine, kernels_and_params
from .registry import Bound

MAX_STEP = 20          # decision steps of a round a probe may land on (0 .. MAX_STEP - 1)
GEM_BIN = 2            # gems carried per bin of the map
GEM_BINS = 21          # 0-1, 2-3, ..., 38-39, 40 and more
# seat 0's policy: the best threshold rule at 4 players of the leave-threshold analysis (by win
# share and by score), which the map improves on by one step
BASE = "leave-at-gems:t=6"
SOLO_BASE = "solo-optimal"
_SHAPE = (MAX_PLAYERS + 1, MAX_HAZARD_KINDS + 1, GEM_BINS)
# per cell: samples, then sums of the score gain, its square, the win gain, its square,
# gems on the path, artifacts on the path
_STATS = 7
WIN_UNITS = 840


def default_lineups(rules: DiamantRules, players: int) -> list[list[str]]:
    """Seat 0 plays BASE (whose states are probed, and which it follows after the probe), the
    others cycle through the leave-threshold analysis's field. Solo: the exact optimal policy
    where the rules allow it."""
    if players == 1:
        return [[SOLO_BASE if rules.artifacts == "none" else "leave-at-gems:t=30"]]
    return [[BASE] + [FIELD[j % len(FIELD)] for j in range(players - 1)]]


@njit(cache=True)
def probe_points(seed, first_game, n, rounds, max_step):
    """Per game: the round and the decision step probed, from the game's own probe stream."""
    r = np.empty(n, np.int64)
    s = np.empty(n, np.int64)
    for i in range(n):
        state = stream_key(np.uint64(seed), np.uint64(first_game + i), np.uint64(PROBE_STREAM))
        state, r[i] = split_below(state, rounds)
        state, s[i] = split_below(state, max_step)
    return r, s


def cells_of(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(players inside, hazard kinds out once, gem bin) of probe observations (rows)."""
    kinds = (obs[:, O.HAZARD_SEEN:O.HAZARD_SEEN + MAX_HAZARD_KINDS] > 0).sum(axis=1)
    gems = np.minimum(obs[:, O.CARRIED] // GEM_BIN, GEM_BINS - 1)
    return obs[:, O.IN_CAVE], kinds, gems


def probe_chunk(play_probed, rules, players, seed, first, n):
    """Both branches of games first .. first + n - 1: (observations, score gain, win gain) of
    the games that reached their probe (gain: go on minus leave, for seat 0)."""
    rounds, steps = probe_points(seed, first, n, rules.rounds, MAX_STEP)
    leave = play_probed(first, n, reference.Probe(rounds, steps, 0, O.LEAVE))
    go_on = play_probed(first, n, reference.Probe(rounds, steps, 0, O.CONTINUE))
    assert (leave.reached == go_on.reached).all()   # the state is before the forced decision
    hit = leave.reached
    return (leave.observations[hit],
            (go_on.batch.scores[hit, 0] - leave.batch.scores[hit, 0]).astype(np.float64),
            go_on.batch.shares[hit, 0] - leave.batch.shares[hit, 0])


def probes(rules, lineup, seed: int, games: int, chunk: int = 1 << 15, engine: str = "auto"):
    """`probe_chunk` of games 0 .. games - 1 of one lineup (specs), chunk by chunk, joined:
    every probed state with its gains (for checks against exact values)."""
    bound = _bound("diamant", list(lineup))
    play_probed = _player(rules, bound, seed, choose_engine(bound, engine))
    parts = [probe_chunk(play_probed, rules, len(bound), seed, first, min(chunk, games - first))
             for first in range(0, games, chunk)]
    return tuple(np.concatenate(x) for x in zip(*parts))


def _cell_sums(obs, d_score, d_win) -> np.ndarray:
    inside, kinds, gems = cells_of(obs)
    flat = np.ravel_multi_index((inside, kinds, gems), _SHAPE)
    size = int(np.prod(_SHAPE))
    # win shares are multiples of 1/840 (ties of up to 8 split): counted in 840ths, every sum
    # is of whole numbers below 2**53, exact in any order, so chunks never change the map
    d_win = np.rint(d_win * WIN_UNITS)
    cols = [np.ones(len(flat)), d_score, d_score ** 2, d_win, d_win ** 2,
            obs[:, O.LEFTOVER].astype(np.float64), obs[:, O.ARTIFACTS_ON_PATH].astype(np.float64)]
    return np.stack([np.bincount(flat, weights=c, minlength=size) for c in cols], axis=1)


def _player(game_rules, bound: list[Bound], seed: int, engine: str):
    players = len(bound)
    kernels, params = kernels_and_params(bound, game_rules)
    if engine == "fast":
        natives = [b.strategy.native for b in bound]
        return lambda first, n, probe: fast.play_probed(game_rules, players, seed, first, n,
                                                        kernels, params, probe, natives)
    return lambda first, n, probe: reference.play_probed(game_rules, players, seed, first, n,
                                                         kernels, params, probe)


class ProbeJob(Job):
    """Per chunk of games: the map's cell sums (portable: strategies/jobs.py)."""

    def __init__(self, rules, bound: list[Bound], seed: int, engine: str):
        self._local = (_player(rules, bound, seed, engine), rules, len(bound), seed)
        self._data = lambda: dict(lineup=LineupData.of("diamant", rules, bound), seed=seed,
                                  engine=engine)

    def build(self, data):
        rules, bound = data["lineup"].bind()
        return _player(rules, bound, data["seed"], data["engine"]), rules, len(bound), data["seed"]

    def __call__(self, first: int, n: int):
        play_probed, rules, players, seed = self.built()
        return _cell_sums(*probe_chunk(play_probed, rules, players, seed, first, n))


def decision_map(rules: DiamantRules, lineups=None, *, players: int = 4, games: int = 1_000_000,
                 seed: int = DEFAULT_SEED, threads=None, chunk=None, progress=None,
                 engine: str = "auto") -> pd.DataFrame:
    """The map from `games` paired rollouts for each lineup (seat 0 probed, then following its
    own policy; the others are the field), on the same seeds, pooled: one row per cell met,
    with the mean gain of going on (score and win share), standard errors and 95% intervals.
    Default lineups: `default_lineups`."""
    lineups = [list(x) for x in lineups] if lineups is not None else default_lineups(rules, players)
    total = np.zeros((int(np.prod(_SHAPE)), _STATS))

    def collect(sums):
        total[:] += sums

    for specs in lineups:
        bound = _bound("diamant", specs)
        rules.check_players(len(bound))
        job = ProbeJob(rules, bound, seed, choose_engine(bound, engine))
        info = run_chunks(job, games, collect, chunk=chunk, threads=threads, progress=progress,
                          desc=f"diamant decision map, seat 0 {specs[0]}")
        if info.interrupted:
            raise KeyboardInterrupt
    return map_frame(total, len(lineups[0]))


def map_frame(total: np.ndarray, players: int) -> pd.DataFrame:
    n = total[:, 0]
    met = n > 0
    inside, kinds, gems = np.unravel_index(np.flatnonzero(met), _SHAPE)
    t = total[met]
    n = n[met]
    df = pd.DataFrame({"players": players, "inside": inside, "hazard_kinds_out": kinds,
                       "gems_low": gems * GEM_BIN,
                       "gems_high": np.where(gems == GEM_BINS - 1, -1, gems * GEM_BIN + GEM_BIN - 1),
                       "states": n.astype(np.int64)})
    for name, s, s2, unit in (("score_gain", 1, 2, 1), ("win_gain", 3, 4, WIN_UNITS)):
        mean = t[:, s] / n
        var = np.where(n > 1, (t[:, s2] - n * mean ** 2) / np.maximum(n - 1, 1), np.nan)
        se = np.sqrt(np.maximum(var, 0.0) / n) / unit
        mean = mean / unit
        df[name], df[f"{name}_se"] = mean, se
        df[f"{name}_low"], df[f"{name}_high"] = mean - Z95 * se, mean + Z95 * se
    df["mean_gems_on_path"] = t[:, 5] / n
    df["mean_artifacts_on_path"] = t[:, 6] / n
    return df


# ---------------------------------------------------------------- the strategy
def pack_map(df: pd.DataFrame) -> np.ndarray:
    """The map as the `decision-map` table (`sim.diamant.policies.decision_map`, after its
    MAP_HEADER): leave where the gain in final score is not positive, or where no state of the
    cell was met."""
    leave = np.ones(_SHAPE, np.float64)
    leave[df.inside, df.hazard_kinds_out, df.gems_low // GEM_BIN] = (df.score_gain <= 0).astype(np.float64)
    return np.concatenate([[MAX_HAZARD_KINDS + 1, GEM_BINS, GEM_BIN], leave.ravel()])


@functools.lru_cache(maxsize=16)
def cached_map(rules: DiamantRules, players: int, games: int, seed: int) -> pd.DataFrame:
    """`decision_map` with the default lineups, once per process (the strategy's and the
    report's map are then one computation)."""
    return decision_map(rules, players=players, games=games, seed=seed, progress=False)


def prepare_map(values, rules, players):
    return pack_map(cached_map(rules, players, int(values["games"]), int(values["seed"])))
