"""Plugins compiled into the fast engine (sim/core/inlined.py): the same games as through their
pointer and as the built-ins they copy, errors reported the same way, and never stale code."""
import textwrap

import numpy as np
import pytest
from numba import njit

from sim.core import inlined as inl
from sim.core.errors import UsageError
from sim.diamant import fast
from sim.diamant import observation as O
from strategies import registry
from strategies.play import StrategyFailure, kernels_and_params, play, plugins_to_compile, resolve_rules
from strategies.registry import load_plugin_file

# one xdist worker (make test): its first test compiles the plugins into the engine, the others
# reuse that compilation instead of compiling it at the same time in the other worker
pytestmark = [pytest.mark.usefixtures("clean_registry"), pytest.mark.xdist_group("compiled-plugins")]

PLUGINS = """\
from sim.core.rng import uniform_float
from sim.diamant import observation as O
from strategies import Param, strategy


@strategy("diamant", "twin-hazards", params=[Param("k", 2, "hazards", 0, 100)])
def twin_hazards(obs, params, rng):
    return O.LEAVE if obs[O.HAZARDS_REVEALED] >= params[0] else O.CONTINUE


@strategy("diamant", "twin-gems", params=[Param("t", 10, "gems", 0, 100)])
def twin_gems(obs, params, rng):
    return O.LEAVE if obs[O.CARRIED] >= params[0] else O.CONTINUE


@strategy("diamant", "twin-random", params=[Param("p", 0.2, "chance", 0, 1)], stochastic=True)
def twin_random(obs, params, rng):
    return O.LEAVE if uniform_float(rng) < params[0] else O.CONTINUE


@strategy("diamant", "continue-then-fail", params=[Param("after", 1000, "decisions", 0, 10000)])
def continue_then_fail(obs, params, rng):
    return 7 if obs[O.DECISIONS] >= params[0] else O.CONTINUE
"""
PLUGGED = ["twin-hazards:k=2", "twin-gems:t=8", "twin-random:p=0.2", "continue-then-fail"]
BUILT_IN = ["leave-after-hazards:k=2", "leave-at-gems:t=8", "random-leave:p=0.2", "always-continue"]


@pytest.fixture
def plugins(tmp_path):
    path = tmp_path / "twins.py"
    path.write_text(PLUGINS)
    load_plugin_file(path)
    return path


def _scores(lineup, rules, mode, games=2000, seed=5):
    rows = []
    play("diamant", rules, lineup, games=games, seed=seed, compile_plugins=mode, chunk=700,
         on_batch=lambda b: rows.append(b.scores.copy()))
    return np.concatenate(rows)


@pytest.mark.parametrize("preset, assignments", [(None, ()), ("incan-gold-2006", ()),
                                                 (None, ("chests_visible=false",))])
def test_compiled_in_plugins_play_the_built_ins_games(plugins, preset, assignments):
    """All four seats compiled in (their own loop; the own view skipped for seats that do not
    read it, kept for twin-gems; a stream seeded only for twin-random): the built-ins' games."""
    rules = resolve_rules("diamant", preset, assignments=assignments)
    built_in = _scores(BUILT_IN, rules, "never")
    assert np.array_equal(_scores(PLUGGED, rules, "always"), built_in)
    assert np.array_equal(_scores(PLUGGED, rules, "never"), built_in)


def test_compiled_in_plugins_beside_built_ins_play_the_same_games(plugins):
    """The mixed loop: some seats compiled in, some built-in, one through its pointer."""
    rules = resolve_rules("diamant", assignments=("chests_visible=false",))
    token = plugins_to_compile("diamant", registry.lineup("diamant", PLUGGED, 4), 1, "always")
    mixed = ["twin-hazards:k=2", "leave-at-gems:t=8", "twin-random:p=0.2", "expected-value"]
    bound = registry.lineup("diamant", mixed, 4)
    kernels, params = kernels_and_params(bound, rules)
    natives = [b.strategy.native for b in bound]
    compiled = fast.play_batch(rules, 4, 3, 0, 3000, kernels, params, natives, inlined=token)
    pointer = fast.play_batch(rules, 4, 3, 0, 3000, kernels, params, natives)
    assert compiled.scores.tolist() == pointer.scores.tolist()
    assert compiled.shares.tolist() == pointer.shares.tolist()


def test_an_illegal_action_compiled_in_is_reported_as_through_the_pointer(plugins):
    rules = resolve_rules("diamant")
    lineup = PLUGGED[:3] + ["continue-then-fail:after=2"]
    messages = []
    for mode in ("always", "never"):
        with pytest.raises(StrategyFailure) as e:
            play("diamant", rules, lineup, games=100, seed=9, compile_plugins=mode)
        messages.append(str(e.value))
    assert messages[0] == messages[1]
    assert "'continue-then-fail:after=2'" in messages[0] and "seat 3" in messages[0]
    assert "returned illegal action 7" in messages[0] and "game index 0, seed 9" in messages[0]


def test_when_plugins_are_compiled_in(plugins, monkeypatch):
    bound = registry.lineup("diamant", ["twin-hazards", "leave-after-hazards"], 2)
    plugin = registry.get("diamant", "twin-hazards").kernel
    assert plugins_to_compile("diamant", bound, 10, "always").kernels == (plugin,)
    assert not plugins_to_compile("diamant", bound, 10**7, "never")
    assert plugins_to_compile("diamant", bound, 10**6, "auto").kernels == (plugin,)
    token = inl.Inlined([plugin])
    monkeypatch.setattr(inl, "compiled_before", lambda game, t: t.key == token.key)
    assert plugins_to_compile("diamant", bound, 10, "auto").kernels == (plugin,)
    monkeypatch.setattr(inl, "compiled_before", lambda game, t: False)
    assert not plugins_to_compile("diamant", bound, 10, "auto")          # a short run: the pointer
    assert not plugins_to_compile("diamant", registry.lineup("diamant", ["leave-after-hazards"], 2),
                                  10**7, "always")                         # built-ins never
    with pytest.raises(UsageError, match="allowed auto, always, never"):
        plugins_to_compile("diamant", bound, 10, "sometimes")


def test_an_edited_plugin_is_a_new_compilation(tmp_path):
    """The token's key (its numba type, hence its cache entry) follows the plugin's source."""
    path = tmp_path / "edited.py"
    path.write_text(PLUGINS)
    load_plugin_file(path)
    before = inl.Inlined([registry.get("diamant", "twin-hazards").kernel])
    path.write_text(PLUGINS.replace("O.HAZARDS_REVEALED] >= params[0]",
                                    "O.HAZARDS_REVEALED] > params[0]"))
    load_plugin_file(path)
    after = inl.Inlined([registry.get("diamant", "twin-hazards").kernel])
    assert before.key != after.key
    load_plugin_file(path)
    assert inl.Inlined([registry.get("diamant", "twin-hazards").kernel]).key == after.key


def _kernel(source: str):
    ns: dict = {"O": O}
    exec(textwrap.dedent(source), ns)
    return njit(ns["decide"])


@pytest.mark.parametrize("source, fields", [
    ("def decide(obs, params, rng):\n    return obs[O.HAZARDS_REVEALED] >= params[0]\n",
     {O.HAZARDS_REVEALED}),
    ("def decide(obs, params, rng):\n    x = obs\n    return x[3] + obs[O.CARRIED] + obs[7]\n",
     {3, O.CARRIED, 7}),
    ("def decide(obs, params, rng):\n    return obs[obs[O.SEAT]]\n", None),       # computed
    ("def decide(obs, params, rng):\n    return helper(obs)\n", None),            # passed on
    ("def decide(obs, params, rng):\n    obs[3] = 1\n    return 0\n", None),      # written
    ("def decide(obs, params, rng):\n    return obs[-1]\n", None),                # from the end
    ("def decide(obs, params, rng):\n    return obs.sum()\n", None),
])
def test_the_observation_entries_a_kernel_reads(source, fields):
    kernel = _kernel("def helper(o):\n    return 0\n" + source)
    read = inl.observed_fields(kernel)
    assert read == (None if fields is None else frozenset(fields))
    token = inl.Inlined([kernel])
    assert token.may_read(0, O.OWN_VIEW) == (fields is None or bool(fields & O.OWN_VIEW))


@pytest.mark.parametrize("source, draws", [
    ("def decide(obs, params, rng):\n    return 0\n", False),
    ("def decide(obs, params, rng):\n    return rng[0] > 0\n", True),
    ("def decide(obs, params, rng):\n    r = rng\n    return 0\n", True),
    ("def decide(obs, params, stream):\n    return stream.sum() > 0\n", True),
])
def test_whether_a_kernel_may_draw(source, draws):
    assert inl.draws(_kernel(source)) == draws
