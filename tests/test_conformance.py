"""The conformance suite: what every registered game and preset must do (OpenSpiel's random-
simulation test is the model). A new game gets all of it by declaring itself (sim/core/game.py).

- the core `random` and every built-in strategy give the same games through both engines;
- results do not depend on the thread count or the chunk size;
- the game's own invariants hold after every decision (its `check_invariants` hook);
- the observation starts with the common header and the legal list is its last block;
- a strategy returning an index outside the legal list is reported with its name, the
  decision, the seed and the game index, by both engines.
(Every seeded playthrough replaying is tests/test_playthroughs.py, over the same registry.)
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from sim import games
from sim.core import observation as H
from sim.core.batch import Batch
from sim.core.errors import UsageError
from sim.core.kernels import observation_hash
from sim.core.strategy_api import DECIDE_SIG
from strategies.play import StrategyFailure, kernels_and_params, play
from strategies.registry import all_strategies, lineup

SEED = 20261202
PRESETS = [(g.name, preset) for g in games.all_games() for preset in g.rules.PRESETS]


def _players(g, rules) -> list[int]:
    """The default table size the rules allow, and the smallest."""
    lo = max(g.min_players, getattr(rules, "min_players", g.min_players))
    hi = min(g.max_players, getattr(rules, "max_players", g.max_players))
    return sorted({min(max(g.default_players, lo), hi), lo})


def _specs(g) -> list[str]:
    return [g.conformance_specs.get(s.name, s.name) for s in all_strategies(g.name)
            if s.origin == "built-in"]


def _same(a: Batch, b: Batch) -> None:
    np.testing.assert_array_equal(a.scores, b.scores)
    np.testing.assert_array_equal(a.shares, b.shares)
    assert set(a.extras) == set(b.extras)
    for k in a.extras:
        np.testing.assert_array_equal(a.extras[k], b.extras[k], err_msg=k)


def _lineups(g, rules):
    """(players, specs): each built-in strategy in seat 0 against `random`, at each table size
    its preparation accepts (a strategy for one table size only, e.g. Diamant's solo-optimal,
    is played where it can be)."""
    for players in _players(g, rules):
        for spec in _specs(g):
            specs = [spec] + ["random"] * (players - 1)
            try:
                bound = lineup(g.name, specs, players)
                kernels_and_params(bound, rules)
            except UsageError:
                continue
            yield players, spec, bound


@pytest.mark.parametrize("name,preset", PRESETS)
def test_every_strategy_plays_the_same_games_in_both_engines(name, preset):
    g = games.get(name)
    rules = g.rules.preset(preset)
    played = set()
    for players, spec, bound in _lineups(g, rules):
        kernels, params = kernels_and_params(bound, rules)
        natives = [b.strategy.native for b in bound]
        n = 6 if spec != "random" and any(k in spec for k in ("sims", "iters")) else 60
        ref = g.reference_play(rules, players, SEED, 100, n, kernels, params)
        # built-ins natively and through their pointers (a strategy the engine does not run
        # natively, e.g. a search, is called through its pointer either way; `random` in the
        # other seats is checked both ways by its own lineup)
        for nat in (natives, None) if natives[0] >= 0 or spec == "random" else (natives,):
            _same(g.fast_play(rules, players, SEED, 100, n, kernels, params, nat), ref)
        played.add(spec)
    assert "random" in played


def test_every_built_in_strategy_is_played_somewhere():
    for g in games.all_games():
        played = {spec for preset in g.rules.PRESETS
                  for _, spec, _ in _lineups(g, g.rules.preset(preset))}
        assert played == set(_specs(g)), g.name


@pytest.mark.parametrize("name,preset", PRESETS)
def test_the_observation_probe_plays_the_same_games_in_both_engines(name, preset):
    """The core's observation-hash kernel in every seat: any entry of the vector on which the
    engines differ, or any draw of a seat's stream, changes the games."""
    g = games.get(name)
    rules = g.rules.preset(preset)
    for players in _players(g, rules):
        kernels = [observation_hash] * players
        params = [np.array([float(7 * p + 1)]) for p in range(players)]
        ref = g.reference_play(rules, players, SEED, 0, 40, kernels, params)
        _same(g.fast_play(rules, players, SEED, 0, 40, kernels, params), ref)


@pytest.mark.parametrize("name", games.names())
def test_results_do_not_depend_on_threads_or_chunks(name):
    g = games.get(name)
    rules = g.rules.preset()
    specs = ["random"] * g.default_players
    runs = []
    for threads, chunk in ((1, 700), (2, 700), (2, 1500)):
        batches: list[Batch] = []
        play(name, rules, specs, games=3000, seed=SEED, threads=threads, chunk=chunk,
             progress=False, on_batch=batches.append)
        runs.append(Batch.concat(batches))
    _same(runs[0], runs[1])
    _same(runs[0], runs[2])


@pytest.mark.parametrize("name,preset", PRESETS)
def test_the_game_invariants_hold_after_every_decision(name, preset):
    g = games.get(name)
    rules = g.rules.preset(preset)
    assert g.check_invariants is not None, f"{name} declares no invariants"
    for players in _players(g, rules):
        bound = lineup(name, ["random"] * players, players)
        kernels, params = kernels_and_params(bound, rules)
        assert g.check_invariants(rules, players, SEED, 0, 150, kernels, params) > 150


@njit(DECIDE_SIG, cache=True)
def _header_probe(obs, params, rng):
    """Returns an out-of-range index when the header is wrong, else a valid one."""
    n = obs[H.N_LEGAL]
    start = obs[H.LEGAL_AT]
    ok = 2 <= n and H.HEADER <= start and start + n <= obs.shape[0] and 0 <= obs[H.SEAT] < 8
    return 0 if ok else n


@pytest.mark.parametrize("name", games.names())
def test_every_observation_starts_with_the_common_header(name):
    g = games.get(name)
    rules = g.rules.preset()
    players = g.default_players
    kernels, params = [_header_probe] * players, [np.zeros(1)] * players
    g.reference_play(rules, players, SEED, 0, 20, kernels, params)
    g.fast_play(rules, players, SEED, 0, 20, kernels, params)


@njit(DECIDE_SIG, cache=True)
def _out_of_range(obs, params, rng):
    """A valid index for the first params[0] decisions of each game... then one past the list."""
    params[1] += 1
    return obs[H.N_LEGAL] if params[1] > params[0] else 0


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_an_out_of_range_index_is_reported_with_what_replays_it(name, engine, clean_registry):
    g = games.get(name)
    rules = g.rules.preset()
    s = clean_registry.register(name, "conformance-out-of-range", _out_of_range,
                                prepare=lambda values, rules, players: np.array([5.0, 0.0]))
    specs = [s.name] + ["random"] * (g.default_players - 1)
    with pytest.raises(StrategyFailure) as e:
        play(name, rules, specs, games=50, seed=SEED, engine=engine, progress=False)
    text = str(e.value)
    assert f"strategy '{s.name}'" in text and "in seat 0" in text
    assert f"seed {SEED}" in text and "game index 0" in text
    assert "returned illegal action" in text and "index of a legal action" in text


def test_one_turn_limit_for_both_engines(monkeypatch):
    """The turn limit is the core's constant in both engines; the reference engine stops an
    over-long game with the core's error (the fast engine's row decodes to the same error)."""
    import sim.core.reference as core
    from sim.core import engine
    from sim.schotten_totten import fast, reference

    assert fast.MAX_TURNS is core.MAX_TURNS is reference.MAX_TURNS
    rules = games.get("schotten-totten").rules.preset()
    kernels, params = kernels_and_params(lineup("schotten-totten", ["random"] * 2, 2), rules)
    monkeypatch.setattr(reference, "MAX_TURNS", 3)
    with pytest.raises(RuntimeError, match="game 5 did not end after"):
        reference.play_batch(rules, 2, SEED, 5, 1, kernels, params)
    scores, shares, extras, errors = engine.outputs(2, 2, 0)
    engine.record_endless(errors, 1)
    with pytest.raises(RuntimeError, match="game 8 did not end after"):
        engine.finish(7, scores, shares, extras, errors, (), lambda a, b: "")
