"""Shared fixtures for the CLI and plugin tests (none is autouse)."""
import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from strategies import registry

ROOT = Path(__file__).resolve().parents[1]
MEEPLELAB = Path(sys.executable).with_name("meeplelab")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """The whole suite on pytest-xdist workers: fill numba's cache first, once per game
    (strategies/warmup.py), so that the workers do not each compile the same engines and kernels.
    MEEPLELAB_TEST_WARMUP=0 skips it."""
    config = session.config
    workers = min(int(getattr(config.option, "numprocesses", 0) or 0), os.cpu_count() or 1)
    if (hasattr(config, "workerinput") or workers < 2 or os.environ.get("MEEPLELAB_TEST_WARMUP") == "0"
            or config.args_source != pytest.Config.ArgsSource.TESTPATHS):
        return
    from sim import games
    from strategies.warmup import warm_all
    # every game at once, more processes than cores: the tests wait for the last game, and with
    # one process per core the cores that finish first would idle (20 s from a cold cache)
    processes = max(workers, len(games.names()))
    seconds = warm_all(processes, echo=lambda m: None)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"numba cache filled in {seconds:.0f} s ({processes} processes)")


@pytest.fixture
def clean_registry():
    """Undo every strategy a test registers (plugins) and the entry-point scan."""
    registry.all_strategies()   # built-ins and installed entry points, before the snapshot
    saved = dict(registry._REGISTRY)
    saved_flag = registry._entry_points_loaded[0]
    yield registry
    registry._REGISTRY.clear()
    registry._REGISTRY.update(saved)
    registry._entry_points_loaded[0] = saved_flag
    registry._current_origin[0] = "built-in"


@pytest.fixture
def cli(tmp_path, monkeypatch, clean_registry):
    """cli("run", "diamant", ...) -> click Result, run in tmp_path; stdout and stderr apart."""
    from meeplelab.cli import main
    monkeypatch.chdir(tmp_path)

    def invoke(*args):
        return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return invoke


def meeplelab_process(*args, cwd, sigint=signal.SIG_DFL, **kwargs) -> subprocess.Popen:
    """The installed `meeplelab` script in a real process; SIGINT at its default unless told
    (a parent started in the background may ignore it, and children would inherit that)."""
    return subprocess.Popen([str(MEEPLELAB), *map(str, args)], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, sigint),
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, **kwargs)


@contextlib.contextmanager
def reaped(proc: subprocess.Popen):
    """The process, killed and waited for on the way out if a test failed before it ended."""
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def read_json(path) -> dict:
    return json.loads(Path(path).read_text())


@pytest.fixture
def interrupt_third_sweep_point(monkeypatch):
    """A sweep whose third point reports an interruption (as Ctrl-C would) once it is played."""
    from analyses.workbench import sweeps
    real, calls = sweeps.play_arms, []

    def interrupted_third(*args, **kwargs):
        run = real(*args, **kwargs)
        calls.append(1)
        if len(calls) == 3:
            run.info.interrupted = True
        return run

    monkeypatch.setattr(sweeps, "play_arms", interrupted_third)
