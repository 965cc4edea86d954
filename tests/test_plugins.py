"""Strategy plugins: files (--plugin), installed entry points, compiled or not, broken or not."""
import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numba.core.registry import CPUDispatcher

import sim.diamant.fast
from sim.core.strategy_api import DECIDE_SIG
from strategies import registry
from strategies.play import StrategyFailure, play, resolve_rules
from strategies.registry import StrategyWarning, all_strategies, load_plugin_file

from conftest import ROOT, read_json

pytestmark = pytest.mark.usefixtures("clean_registry")

EXAMPLE = ROOT / "strategies" / "examples" / "diamant_plugin.py"
HEADER = """\
from sim.diamant import observation as O
from strategies import Param, strategy
"""


def write_plugin(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(HEADER + textwrap.dedent(body))
    return path


def files_in(folder) -> list[str]:
    return sorted(p.name for p in Path(folder).iterdir() if p.name != "__pycache__")


# ------------------------------------------------------------------ the example plugin file
def test_example_plugin_runs_compiled_on_the_fast_engine(cli, tmp_path):
    result = cli("run", "diamant", "--plugin", EXAMPLE, "-s", "example-cautious:risk=0.2",
                 "-s", "expected-value", "-s", "leave-after-hazards:k=2", "-n", 2000, "--seed", 4,
                 "-o", "out.csv")
    assert result.exit_code == 0, result.output
    assert "fast engine" in result.stdout and "warning" not in result.stderr
    s = registry.get("diamant", "example-cautious")
    assert s.compiled and isinstance(s.kernel, CPUDispatcher)
    assert [tuple(sig) for sig in s.kernel.signatures] == [DECIDE_SIG.args]
    assert s.origin == f"plugin file {EXAMPLE}"
    side = read_json(tmp_path / "out.json")
    assert side["engine"] == "fast"
    assert side["strategies"][0] == {"seat": 0, "label": "example-cautious:risk=0.2,min_gems=4",
                                     "name": "example-cautious",
                                     "params": {"risk": 0.2, "min_gems": 4},
                                     "origin": f"plugin file {EXAMPLE}", "compiled": True}
    table = pd.read_csv(tmp_path / "out.csv")
    assert table["mean_score"][0] > 5          # it plays: leaves with gems


def test_example_plugin_plays_the_same_games_on_both_engines(cli, tmp_path):
    lineup = ["-s", "example-cautious", "-s", "random-leave:p=0.1", "-s", "leave-at-gems:t=8"]
    for engine in ("fast", "reference"):
        result = cli("run", "diamant", "--plugin", EXAMPLE, *lineup, "-n", 150, "--seed", 11,
                     "--engine", engine, "-o", f"{engine}.csv", "--per-game")
        assert result.exit_code == 0, result.output
        assert f"{engine} engine" in result.stdout
    assert (tmp_path / "fast-games.csv").read_text() == (tmp_path / "reference-games.csv").read_text()


def test_example_plugin_is_listed_with_its_parameters(cli):
    result = cli("strategies", "diamant", "--plugin", EXAMPLE)
    assert result.exit_code == 0
    assert f"diamant example-cautious  [deterministic; plugin file {EXAMPLE}]" in result.stdout
    assert "risk=0.15: leave when the chance" in result.stdout
    assert "min_gems=4: never leave with fewer" in result.stdout
    assert "reference engine only" not in result.stdout


def test_plugin_parameters_are_validated(cli):
    result = cli("run", "diamant", "--plugin", EXAMPLE, "-s", "example-cautious:risk=2")
    assert result.exit_code == 2
    assert "parameter 'risk' = '2' is out of range: expected a number >= 0.0 and <= 1.0" in result.stderr
    result = cli("run", "diamant", "--plugin", EXAMPLE, "-s", "example-cautious:min_gem=3")
    assert result.exit_code == 2 and "did you mean 'min_gems'" in result.stderr


# ------------------------------------------------------------------ a plugin numba cannot compile
@pytest.mark.parametrize("container, reason", [
    ("{0: 2, 1: 2, 2: 3}", "Untyped global name 'LIMITS': Cannot determine Numba type of <class 'dict'>"),
    ("{2, 3}", "reflected set(int64) type, assigned to variable 'LIMITS' in globals"),
])
def test_uncompilable_plugin_runs_on_the_reference_engine_with_a_warning(cli, tmp_path, container,
                                                                         reason):
    write_plugin(tmp_path, "pyplug", f"""
        LIMITS = {container}

        @strategy("diamant", "python-hazards")
        def python_hazards(obs, params, rng):
            '''Leave after a number of hazards looked up in a Python container.'''
            return O.LEAVE if obs[O.HAZARDS_REVEALED] in LIMITS else O.CONTINUE
        """)
    result = cli("run", "diamant", "--plugin", "pyplug.py", "-s", "python-hazards",
                 "-s", "leave-after-hazards:k=2", "-s", "expected-value", "-n", 100, "-o", "out.csv")
    assert result.exit_code == 0, result.output
    assert "reference engine" in result.stdout
    warning = result.stderr.splitlines()[0]
    assert warning.startswith("warning: numba cannot compile strategy 'python-hazards'")
    assert "(TypingError: " in warning and reason in warning     # numba's reason, not its header
    assert "reference engine" in warning
    assert read_json(tmp_path / "out.json")["strategies"][0]["compiled"] is False
    assert (pd.read_csv(tmp_path / "out.csv")["games"] == 100).all()

    listed = cli("strategies", "diamant", "--plugin", "pyplug.py")
    assert "reference engine only: TypingError: " in listed.stdout and reason in listed.stdout

    forced = cli("run", "diamant", "--plugin", "pyplug.py", "-s", "python-hazards", "--engine", "fast")
    assert forced.exit_code == 2
    assert "--engine fast: numba cannot compile strategy 'python-hazards'" in forced.stderr


# ------------------------------------------------------------------ broken plugin files
@pytest.mark.parametrize("source, cause", [
    ("raise RuntimeError('no licence key')\n", "RuntimeError: no licence key"),
    ("def decide(obs, params, rng)\n    return 0\n", "SyntaxError"),
    ("import no_such_module_xyz\n", "ModuleNotFoundError: No module named 'no_such_module_xyz'"),
])
def test_a_named_plugin_file_that_cannot_import_is_a_usage_error(cli, tmp_path, source, cause):
    """A file the user named with --plugin must load: exit 2, naming the file and the error,
    nothing run or written (an installed entry point only warns: below)."""
    (tmp_path / "broken.py").write_text(source)
    for command in (["run", "diamant"], ["tournament", "diamant"], ["compare", "diamant",
                    "--variant", "rounds=4"], ["strategies", "diamant"]):
        strategies = [] if command[0] == "strategies" else [
            "-s", "example-cautious", "-s", "expected-value", "-n", 500, "-o", "out.csv"]
        result = cli(*command, "--plugin", EXAMPLE, "--plugin", "broken.py", *strategies)
        assert result.exit_code == 2, (command, result.output)
        assert "plugin file broken.py failed to import" in result.stderr, result.stderr
        assert cause in result.stderr and "a file given with --plugin must import" in result.stderr
        assert result.stdout == ""
        assert files_in(tmp_path) == ["broken.py"]
    with pytest.raises(registry.UsageError, match=r"plugin file .*broken\.py failed to import"):
        load_plugin_file(tmp_path / "broken.py")
    assert "meeplelab_plugin_broken" not in sys.modules
    assert {"always-continue", "example-cautious"} <= {s.name for s in all_strategies("diamant")}


def test_a_plugin_file_that_fails_names_its_origin(tmp_path):
    """A Dask worker loads its copy of the user's file with origin=: the message names the
    user's file, as the client's own would."""
    copy = tmp_path / "copy" / "broken.py"
    copy.parent.mkdir()
    copy.write_text("raise RuntimeError('no licence key')\n")
    with pytest.raises(registry.UsageError) as remote:
        load_plugin_file(copy, origin="plugin file /home/user/broken.py")
    assert str(remote.value) == ("plugin file /home/user/broken.py failed to import: "
                                 "RuntimeError: no licence key")


def test_missing_plugin_file_is_a_usage_error(cli):
    result = cli("strategies", "diamant", "--plugin", "nope.py")
    assert result.exit_code == 2
    assert "--plugin nope.py: no such file" in result.stderr


# ------------------------------------------------------------------ plugins that misbehave
FAILING = {
    # name: (plugin body, expected cause); each misbehaves once it carries 25 gems
    "py-raiser": ("""
        SEEN = set()

        @strategy("diamant", "py-raiser")
        def py_raiser(obs, params, rng):
            '''Raises (and cannot be compiled: it keeps a Python set).'''
            SEEN.add(1)
            if obs[O.CARRIED] >= 25:
                raise RuntimeError("greedy")
            return O.LEAVE if obs[O.HAZARDS_REVEALED] >= 2 else O.CONTINUE
        """, "raised RuntimeError: greedy"),
    "nb-illegal": ("""
        @strategy("diamant", "nb-illegal")
        def nb_illegal(obs, params, rng):
            '''Compiled; returns an action that does not exist.'''
            if obs[O.CARRIED] >= 25:
                return 7
            return O.LEAVE if obs[O.HAZARDS_REVEALED] >= 2 else O.CONTINUE
        """, "returned illegal action 7 (allowed: the index of a legal action, 0 .. 1)"),
    "nb-raiser": ("""
        @strategy("diamant", "nb-raiser")
        def nb_raiser(obs, params, rng):
            '''Compiled; raises inside the fast engine.'''
            if obs[O.CARRIED] >= 25:
                raise ValueError("compiled greed")
            return O.LEAVE if obs[O.HAZARDS_REVEALED] >= 2 else O.CONTINUE
        """, "raised ValueError: compiled greed"),
}


@pytest.mark.parametrize("name", sorted(FAILING))
def test_misbehaving_strategy_names_strategy_decision_seed_and_game(cli, tmp_path, name):
    body, cause = FAILING[name]
    write_plugin(tmp_path, "bad", body)
    lineup = [name, "leave-after-hazards:k=2", "leave-at-gems:t=10"]
    result = cli("run", "diamant", "--plugin", "bad.py", *[x for s in lineup for x in ("-s", s)],
                 "-n", 5000, "--seed", 7, "--chunk", 1000, "-o", "out.csv", "--per-game")
    assert result.exit_code == 2, result.output
    message = result.stderr
    assert f"strategy '{name}' (plugin file bad.py) in seat 0 failed: {cause}" in message
    found = re.search(r"at decision (\d+) of round (\d+) \(0-based\) of game index (\d+), seed 7", message)
    assert found, message
    assert "Traceback" not in result.output
    assert files_in(tmp_path) == ["bad.py"]                     # nothing half-written

    # the game index is the one that replays the failure: the games before it are fine
    game = int(found.group(3))
    rules = resolve_rules("diamant")
    bound = registry.lineup("diamant", lineup, 3)
    if game > 0:
        assert play("diamant", rules, bound, games=game, seed=7).info.games == game
    with pytest.raises(StrategyFailure) as replay:
        play("diamant", rules, bound, games=1, first_game=game, seed=7)
    assert found.group(0) in str(replay.value)

    # the message gives the command that shows the game; it prints the record up to the failure
    command = re.search(r"`meeplelab (playthrough [^`]*)`", message).group(1).split()
    assert command[-4:] == ["--seed", "7", "--game", str(game)]
    shown = cli(*command[:2], "--plugin", "bad.py", *command[2:])
    assert shown.exit_code == 2 and found.group(0) in shown.stderr
    record = shown.stdout.splitlines()
    assert record[-1].startswith(f"# stopped: strategy '{name}'") and found.group(0) in record[-1]
    assert len(record) > 3 and record[2].startswith("round 0 | path")


# ------------------------------------------------------------------ entry-point plugins
@pytest.fixture
def fake_distribution(tmp_path, monkeypatch, clean_registry):
    """install(entry_points={name: module}, modules={module: source}): a fake installed package."""
    added = []

    def install(entry_points: dict, modules: dict) -> None:
        dist = tmp_path / "site" / "fakeplug-0.1.dist-info"
        dist.mkdir(parents=True)
        (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeplug\nVersion: 0.1\n")
        (dist / "entry_points.txt").write_text(
            f"[{registry.ENTRY_POINT_GROUP}]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points.items()))
        for module, source in modules.items():
            (tmp_path / "site" / f"{module}.py").write_text(HEADER + textwrap.dedent(source))
            added.append(module)
        monkeypatch.syspath_prepend(str(tmp_path / "site"))
        clean_registry._entry_points_loaded[0] = False

    yield install
    for module in added:
        sys.modules.pop(module, None)


GOOD_ENTRY = """
    @strategy("diamant", "fake-gems", params=[Param("t", 9, "carried gems that make you leave", 0, 500)],
              source="fakeplug")
    def fake_gems(obs, params, rng):
        '''Leave once carrying t gems (from an installed package).'''
        return O.LEAVE if obs[O.CARRIED] >= params[0] else O.CONTINUE
    """


def test_entry_point_plugin_is_found_and_plays(fake_distribution, cli, tmp_path):
    fake_distribution({"fake": "fakeplug_good"}, {"fakeplug_good": GOOD_ENTRY})
    with warnings.catch_warnings():
        warnings.simplefilter("error")                          # no warning for a good plugin
        names = {s.name: s for s in all_strategies("diamant")}
    assert "fake-gems" in names and "always-continue" in names
    s = names["fake-gems"]
    assert s.origin == "entry point fake (fakeplug_good)" and s.compiled
    assert s.summary == "Leave once carrying t gems (from an installed package)."

    result = play("diamant", resolve_rules("diamant"), ["fake-gems:t=12", "leave-at-gems:t=12",
                                                        "expected-value"], games=1000, seed=3)
    assert result.engine == "fast"
    table = result.table()
    # the plugin is the same rule as the built-in next to it: same seat-independent strength
    assert abs(table["mean_score"][0] - table["mean_score"][1]) < 5 * table["se_score"][0]

    listed = cli("strategies", "diamant")
    assert "diamant fake-gems  [deterministic; entry point fake (fakeplug_good)]" in listed.stdout
    run = cli("run", "diamant", "-s", "fake-gems:t=12", "-n", 500, "-o", "ep.csv")
    assert run.exit_code == 0, run.output
    assert read_json(tmp_path / "ep.json")["strategies"][0]["origin"] == "entry point fake (fakeplug_good)"


def test_broken_entry_point_is_reported_by_name(fake_distribution, cli):
    fake_distribution({"fake": "fakeplug_ok", "kaput": "fakeplug_kaput", "ghost": "fakeplug_missing"},
                      {"fakeplug_ok": GOOD_ENTRY,
                       "fakeplug_kaput": "raise ImportError('needs torch')\n"})
    with pytest.warns(StrategyWarning) as caught:
        names = {s.name for s in all_strategies("diamant")}
    messages = [str(w.message) for w in caught]
    assert any("strategy plugin 'kaput' (fakeplug_kaput) failed to load: ImportError: needs torch" in m
               and "other strategies keep working" in m for m in messages), messages
    assert any("strategy plugin 'ghost' (fakeplug_missing) failed to load: ModuleNotFoundError" in m
               for m in messages), messages
    assert {"fake-gems", "always-continue", "expected-value"} <= names
    all_strategies("diamant")                                   # loaded once: no second report

    registry._entry_points_loaded[0] = False                    # the CLI shows the warning too
    result = cli("run", "diamant", "-s", "fake-gems", "-s", "expected-value", "-s", "always-continue",
                 "-n", 300)
    assert result.exit_code == 0, result.output
    assert "warning: strategy plugin 'kaput' (fakeplug_kaput) failed to load" in result.stderr


# ------------------------------------------------------------------ no recompilation
def test_one_games_strategies_load_only_that_games_modules():
    """`meeplelab run diamant` compiles (or loads) Diamant's kernels only, not every game's
    searches: the built-ins are registered game by game. (Discovering the games imports
    Schotten Totten's engine and its greedy, which the engine calls natively.)"""
    script = textwrap.dedent("""
        import sys
        from strategies.registry import all_strategies
        names = {s.name for s in all_strategies("diamant")}
        print(sorted(m for m in sys.modules if m.startswith("strategies.")))
        print(sorted(m for m in sys.modules if m.endswith(".search")))
        print("leave-after-hazards" in names and "random" in names)
        """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.splitlines()
    assert out[0] == "['strategies.diamant', 'strategies.diamant_solo', 'strategies.registry']", out
    assert out[1] == "[]" and out[2] == "True", out


def test_a_plugin_named_as_a_built_in_replaces_it_even_before_the_built_ins_load(tmp_path):
    path = write_plugin(tmp_path, "shadow", """
        @strategy("diamant", "leave-at-gems", params=[Param("t", 10, "gems", 0, 100)])
        def shadow(obs, params, rng):
            '''Leaves at once.'''
            return O.LEAVE
        """)
    script = textwrap.dedent(f"""
        import warnings
        from strategies.registry import get, load_plugin_file
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            load_plugin_file({str(path)!r})     # first thing in a new process
        print(get("diamant", "leave-at-gems").origin)
        print(*[str(w.message) for w in caught], sep="\\n")
        """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.splitlines()
    assert out[0] == f"plugin file {path}", out
    assert "'leave-at-gems' for diamant from plugin file" in out[1] and "replaces" in out[1], out


def test_plugins_do_not_recompile_the_engine(tmp_path, fake_distribution):
    fake_distribution({"fake": "fakeplug_sig"}, {"fakeplug_sig": GOOD_ENTRY})
    load_plugin_file(EXAMPLE)
    write_plugin(tmp_path, "third", """
        @strategy("diamant", "third-cards", params=[Param("n", 7, "cards", 0, 100)])
        def third_cards(obs, params, rng):
            '''Leave after n cards.'''
            return O.LEAVE if obs[O.CARDS_REVEALED] >= params[0] else O.CONTINUE
        """)
    load_plugin_file(tmp_path / "third.py")
    rules = resolve_rules("diamant")
    play("diamant", rules, ["leave-after-hazards"] * 3, games=1, seed=1)
    # other tests in this process may have compiled plugins into the engine: count from here
    compiled = len(sim.diamant.fast.play_block.signatures)
    for lineup in (["example-cautious", "fake-gems", "third-cards"],
                   ["fake-gems:t=5"] * 5,
                   ["third-cards:n=4", "example-cautious:risk=0.3", "leave-after-hazards:k=1", "fake-gems"]):
        assert play("diamant", rules, lineup, games=300, seed=1).engine == "fast"
        assert len(sim.diamant.fast.play_block.signatures) == compiled


def test_a_plugin_jitted_without_a_signature_runs_compiled(cli, tmp_path):
    """`@strategy` over the plugin's own `@njit` (no signature): the registry compiles that
    dispatcher with the strategy signature, keeping its options, rather than jitting it again."""
    write_plugin(tmp_path, "jitted", """
        from numba import njit

        @strategy("diamant", "jitted-hazards", params=[Param("k", 2, "hazards", 0, 100)])
        @njit(fastmath=True)
        def jitted_hazards(obs, params, rng):
            return O.LEAVE if obs[O.HAZARDS_REVEALED] >= params[0] else O.CONTINUE
        """)
    result = cli("run", "diamant", "--plugin", "jitted.py", "-s", "jitted-hazards",
                 "-s", "leave-after-hazards:k=2", "-s", "expected-value", "-n", 1000, "--seed", 3)
    assert result.exit_code == 0, result.output
    assert "fast engine" in result.stdout and "warning" not in result.stderr
    s = registry.get("diamant", "jitted-hazards")
    assert s.compiled and [tuple(sig) for sig in s.kernel.signatures] == [DECIDE_SIG.args]
    assert s.kernel.targetoptions.get("fastmath") is True


def test_search_strategies_and_lazily_compiled_kernels_do_not_recompile_the_engine():
    """Numba types a dispatcher that may still compile as itself, a type that is new in every
    process: the engine would be compiled again (half a minute) in each one that used it. The
    registry freezes every kernel to the one strategy signature, so it is a value of the one
    function type the engine is compiled for."""
    import numba
    import sim.schotten_totten.fast as st_fast
    from sim.core.strategy_api import DECIDE_TYPE

    @numba.njit
    def lazy(obs, params, rng):
        return 0
    lazy.compile(DECIDE_SIG)

    @numba.njit
    def two_signatures(obs, params, rng):
        return 0
    two_signatures.compile(DECIDE_SIG)
    two_signatures.compile((numba.int64[:], numba.float64[:], numba.uint64[:]))

    registry.register("schotten-totten", "lazy-first", lazy)
    registry.register("schotten-totten", "two-signatures-first", two_signatures)
    for s in all_strategies():
        if s.compiled:
            assert s.kernel.get_function_type() == DECIDE_TYPE, (s.game, s.name)
    assert registry.get("schotten-totten", "lazy-first").kernel is lazy
    rules = resolve_rules("schotten-totten")
    for lineup in (["random", "greedy"], ["flat-mc:sims=1", "ismcts:iters=2"],
                   ["greedy", "flat-mc:sims=1"], ["lazy-first", "two-signatures-first"]):
        assert play("schotten-totten", rules, lineup, games=2, seed=1).engine == "fast"
        assert len(st_fast.play_block.signatures) == 1, lineup


# ------------------------------------------------------------------ plugins identical to built-ins
TWINS = """
    @strategy("diamant", "twin-hazards", params=[Param("k", 2, "hazards", 0, 100)])
    def twin_hazards(obs, params, rng):
        return O.LEAVE if obs[O.HAZARDS_REVEALED] >= params[0] else O.CONTINUE

    @strategy("diamant", "twin-gems", params=[Param("t", 10, "gems", 0, 100)])
    def twin_gems(obs, params, rng):
        return O.LEAVE if obs[O.CARRIED] >= params[0] else O.CONTINUE

    @strategy("diamant", "twin-random", params=[Param("p", 0.2, "chance", 0, 1)], stochastic=True)
    def twin_random(obs, params, rng):
        return O.LEAVE if uniform_float(rng) < params[0] else O.CONTINUE
    """


@pytest.mark.parametrize("preset, assignments", [(None, ()), ("incan-gold-2006", ()),
                                                 (None, ("chests_visible=false",))])
def test_plugins_identical_to_built_ins_play_the_same_games(tmp_path, preset, assignments):
    """A plugin file with a built-in's code plays the built-in's games, in both engines."""
    (tmp_path / "twins.py").write_text(HEADER + "from sim.core.rng import uniform_float\n"
                                       + textwrap.dedent(TWINS))
    load_plugin_file(tmp_path / "twins.py")
    rules = resolve_rules("diamant", preset, assignments=assignments)
    pairs = [(["twin-hazards:k=2", "twin-hazards:k=3", "twin-gems:t=8", "twin-gems:t=12"],
              ["leave-after-hazards:k=2", "leave-after-hazards:k=3", "leave-at-gems:t=8",
               "leave-at-gems:t=12"]),
             (["twin-random:p=0.2", "twin-hazards:k=2", "twin-random:p=0.1"],
              ["random-leave:p=0.2", "leave-after-hazards:k=2", "random-leave:p=0.1"])]
    for plugins, builtins in pairs:
        seen = {}
        for name, lineup in (("plugin", plugins), ("built-in", builtins)):
            for engine in ("fast", "reference"):
                rows = []
                play("diamant", rules, lineup, games=300 if engine == "reference" else 3000,
                     seed=5, engine=engine, on_batch=lambda b: rows.append(b.scores.copy()))
                seen[name, engine] = np.concatenate(rows)
        n = len(seen["plugin", "reference"])
        assert np.array_equal(seen["plugin", "fast"], seen["built-in", "fast"])
        assert np.array_equal(seen["plugin", "fast"][:n], seen["plugin", "reference"])
        assert np.array_equal(seen["built-in", "fast"][:n], seen["built-in", "reference"])


def test_bench_times_a_plugin_file_against_the_built_in(monkeypatch):
    from meeplelab import bench
    from sim import games
    modes = []

    def play_never_compiling(*args, compile_plugins, **kwargs):   # compiling in: tested apart
        modes.append(compile_plugins)
        return play(*args, compile_plugins="never", **kwargs)
    monkeypatch.setattr(bench, "play", play_never_compiling)
    rates = bench.plugin_rates("diamant", games.get("diamant").plugin_bench, 2000, 1)
    assert set(rates) == {"built-in", "compiled in", "pointer"} and min(rates.values()) > 0
    assert "always" in modes and "never" in modes
    assert registry.get("diamant", "bench-plugin-hazards").origin.startswith("plugin file")
