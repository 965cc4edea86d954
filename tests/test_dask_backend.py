"""The Dask backend gives exactly the local numbers: run, tournament, compare, sweep, an analysis,
a plugin file on the workers, a worker killed mid-run; and it refuses workers of other code.

One LocalCluster of 2 worker processes for the module, in one xdist group (one test process)."""
import os
import signal
import shutil

import pandas as pd
import pytest

from analyses.workbench import compare, sweep
from sim.core import backends, dask_backend
from sim.core.dask_backend import DaskBackend, local_cluster
from sim.core.errors import UsageError
from strategies import jobs
from strategies.play import play, resolve_rules
from strategies.tournament import tournament

pytestmark = pytest.mark.xdist_group("dask")

LINEUP = ["leave-after-hazards:k=2", "expected-value", "leave-at-gems:t=10", "random-leave:p=0.2"]
PLUGIN = '''
from sim.diamant import observation as O
from strategies import Param, strategy

@strategy("diamant", "leave-at-hazards-seen", params=[Param("h", 2, "hazards seen", 1, 5)])
def leave_at_hazards_seen(obs, params, rng):
    """Leave once h hazard cards are out in this cave (a plugin file sent to the workers)."""
    return O.LEAVE if obs[O.HAZARDS_REVEALED] >= params[0] else O.CONTINUE
'''


@pytest.fixture(scope="module")
def cluster():
    with local_cluster(2) as c:
        yield c


@pytest.fixture
def dask(cluster):
    backend = DaskBackend.connect(cluster.scheduler_address)
    try:
        with backends.using(backend):
            yield backend
    finally:
        backend.close()


def test_run_is_the_local_run_for_any_chunk_size(dask):
    rules = resolve_rules("diamant")
    with backends.using(None):
        local = play("diamant", rules, LINEUP, games=200_000, seed=3)
    for chunk in (None, 7_777, 1 << 17):
        remote = play("diamant", rules, LINEUP, games=200_000, seed=3, chunk=chunk)
        assert remote.info.backend == "dask" and remote.info.workers == 2
        pd.testing.assert_frame_equal(remote.table(), local.table(), check_exact=True)
    assert remote.info.chunk == 1 << 17


def test_per_game_rows_arrive_in_order(dask):
    rules = resolve_rules("schotten-totten")
    rows = {"local": [], "dask": []}
    for where, backend in (("local", None), ("dask", dask)):
        with backends.using(backend):
            play("schotten-totten", rules, ["random", "random"], games=3_000, seed=5, chunk=500,
                 on_batch=lambda b, w=where: rows[w].append((b.first_game, b.scores.copy(),
                                                             b.extras["turns"].copy())))
    assert [r[0] for r in rows["dask"]] == list(range(0, 3_000, 500))
    for (fa, sa, ta), (fb, sb, tb) in zip(rows["local"], rows["dask"]):
        assert fa == fb and (sa == sb).all() and (ta == tb).all()


def test_tournament_is_the_local_tournament(dask):
    rules = resolve_rules("schotten-totten")
    specs = ["random", "greedy"]
    with backends.using(None):
        local = tournament("schotten-totten", rules, specs, 2, deals=2_000, seed=2, chunk=700)
    remote = tournament("schotten-totten", rules, specs, 2, deals=2_000, seed=2, chunk=700)
    pd.testing.assert_frame_equal(remote.table(), local.table(), check_exact=True)
    pd.testing.assert_frame_equal(remote.head_to_head(), local.head_to_head(), check_exact=True)


def test_compare_and_sweep_are_the_local_ones(dask):
    rules = resolve_rules("diamant")

    def both(fn):
        with backends.using(None):
            local = fn()
        remote = fn()
        pd.testing.assert_frame_equal(remote, local, check_exact=True)
        return remote

    both(lambda: compare("diamant", rules, ["leave-after-hazards:k=2"],
                         ["hazard_copies=2", "rounds=4"], games=50_000, seed=1, progress=False))
    df = both(lambda: compare("diamant", rules, ["leave-after-hazards:k=2"], ["hazard_copies=2"],
                              games=10**6, until_ci=0.012, main="cards_revealed", seed=1, progress=False))
    assert df.attrs["deals"] == 6 * (1 << 16)  # stopped after the same chunk as the local run
    both(lambda: sweep("diamant", rules, ["leave-after-hazards:k=2"], ["seat0.k=1..4"],
                       games=20_000, seed=4, progress=False, estimate=False))


def test_an_analysis_writes_the_local_files(dask, tmp_path):
    from analyses import registry
    (tmp_path / "local").mkdir()
    (tmp_path / "dask").mkdir()
    with backends.using(None):
        registry.run("diamant-variants", tmp_path / "local", quick=True)
    section = registry.run("diamant-variants", tmp_path / "dask", quick=True)
    csvs = [f for f in section.files if f.endswith(".csv")]
    assert csvs
    for name in csvs:
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name


def test_a_plugin_file_travels_by_content(dask, tmp_path, clean_registry):
    from strategies.registry import load_plugin_file
    path = tmp_path / "travelling_plugin.py"
    path.write_text(PLUGIN)
    load_plugin_file(path)
    rules = resolve_rules("diamant")
    lineup = ["leave-at-hazards-seen:h=1", "leave-after-hazards:k=2"] * 2
    with backends.using(None):
        local = play("diamant", rules, lineup, games=50_000, seed=9)
    remote = play("diamant", rules, lineup, games=50_000, seed=9)
    pd.testing.assert_frame_equal(remote.table(), local.table(), check_exact=True)


def test_a_failing_strategy_on_a_worker_is_reported_as_locally(dask, tmp_path, clean_registry):
    from strategies.play import StrategyFailure
    from strategies.registry import load_plugin_file
    path = tmp_path / "illegal_plugin.py"
    path.write_text(PLUGIN.replace("leave-at-hazards-seen", "always-seven")
                    .replace("return O.LEAVE if obs[O.HAZARDS_REVEALED] >= params[0] else O.CONTINUE",
                             "return 7"))
    load_plugin_file(path)
    rules = resolve_rules("diamant")
    with pytest.raises(StrategyFailure, match="strategy 'always-seven:h=2' .* failed") as remote:
        play("diamant", rules, ["always-seven"] * 4, games=1_000, seed=1)
    with backends.using(None), pytest.raises(StrategyFailure) as local:
        play("diamant", rules, ["always-seven"] * 4, games=1_000, seed=1)
    assert str(remote.value) == str(local.value)          # naming the user's file, not the copy


def test_a_killed_worker_changes_nothing(dask):
    rules = resolve_rules("schotten-totten")
    with backends.using(None):
        local = play("schotten-totten", rules, ["greedy", "random"], games=60_000, seed=11)
    killed = []

    def kill_one(batch):
        if killed:
            return
        busy = [w for w, tasks in dask.client.processing().items() if tasks]
        pids = dask.client.run(os.getpid, workers=busy[:1])
        for pid in pids.values():
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    remote = play("schotten-totten", rules, ["greedy", "random"], games=60_000, seed=11,
                  chunk=2_000, on_batch=kill_one)
    assert killed
    assert remote.info.games == 60_000 and not remote.info.interrupted
    pd.testing.assert_frame_equal(remote.table(), local.table(), check_exact=True)


def test_a_lost_scheduler_keeps_the_games_that_finished():
    """The kept games are the run's first ones, exactly the local run of that many games."""
    import threading
    rules = resolve_rules("schotten-totten")
    cluster = local_cluster(2)
    backend = DaskBackend.connect(cluster.scheduler_address)

    def close_the_cluster(batch):
        if not closed:
            closed.append(threading.Thread(target=cluster.close))
            closed[0].start()

    closed = []
    try:
        with backends.using(backend):
            remote = play("schotten-totten", rules, ["greedy", "random"], games=60_000, seed=11,
                          chunk=2_000, on_batch=close_the_cluster)
    finally:
        closed[0].join()
        backend.close()
    info = remote.info
    assert info.interrupted and "lost the Dask scheduler" in info.lost
    assert 0 < info.games < 60_000 and info.games % 2_000 == 0
    local = play("schotten-totten", rules, ["greedy", "random"], games=info.games, seed=11)
    pd.testing.assert_frame_equal(remote.table(), local.table(), check_exact=True)


def test_workers_of_other_code_are_refused(cluster, monkeypatch):
    monkeypatch.setattr(dask_backend, "code_key", lambda: "0.0+other")
    with pytest.raises(UsageError, match="refused: 2 of 2 Dask workers run other meeplelab code"):
        DaskBackend.connect(cluster.scheduler_address)


def test_a_worker_refuses_a_task_of_other_code(dask, monkeypatch):
    rules = resolve_rules("diamant")
    monkeypatch.setattr(dask_backend, "code_key", lambda: "0.0+other")   # after the check
    with pytest.raises(UsageError, match="refused by a Dask worker: this worker runs meeplelab"):
        play("diamant", rules, ["random"] * 4, games=1_000, seed=1)


def test_the_deck_file_travels_by_content(tmp_path):
    from sim.pyramids.deck import shipped_deck_path
    deck = tmp_path / "my-deck.csv"
    shutil.copy(shipped_deck_path(), deck)
    rules = resolve_rules("pyramids", assignments=[f"deck={deck}"])
    from strategies.registry import lineup
    data = jobs.LineupData.of("pyramids", rules, lineup("pyramids", ["random"], 3))
    deck.unlink()                               # the worker reads the contents it was sent
    worker_rules, bound = data.bind()
    assert worker_rules.deck != str(deck) and worker_rules.cards() == resolve_rules("pyramids").cards()
    assert [b.label for b in bound] == ["random"] * 3


def test_bad_backend_options_exit_2(cli, monkeypatch):
    monkeypatch.delenv("MEEPLELAB_SCHEDULER", raising=False)
    r = cli("run", "diamant", "-s", "random", "-n", "100", "--backend", "dask")
    assert r.exit_code == 2 and "--backend dask needs --scheduler ADDRESS" in r.output
    r = cli("run", "diamant", "-s", "random", "-n", "100", "--backend", "local",
            "--scheduler", "tcp://127.0.0.1:1")
    assert r.exit_code == 2 and "with --backend local" in r.output
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1)
    r = cli("run", "diamant", "-s", "random", "-n", "100", "--scheduler", "tcp://127.0.0.1:1")
    assert r.exit_code == 2 and "cannot reach a Dask scheduler there" in r.output


def test_the_cli_records_the_backend(cli, cluster, tmp_path):
    import json
    address = cluster.scheduler_address
    r = cli("run", "diamant", "-s", "random", "-n", "20000", "--seed", "2", "-o", "d.csv",
            "--scheduler", address)
    assert r.exit_code == 0, r.output
    assert "2 Dask workers" in r.output
    sidecar = json.loads((tmp_path / "d.json").read_text())
    assert sidecar["backend"] == "dask" and sidecar["workers"] == 2 and sidecar["chunk"] == 1 << 16
    r = cli("run", "diamant", "-s", "random", "-n", "20000", "--seed", "2", "-o", "l.csv")
    assert (tmp_path / "d.csv").read_bytes() == (tmp_path / "l.csv").read_bytes()
    assert json.loads((tmp_path / "l.json").read_text())["backend"] == "local"


class _Scheduler:
    """What chunk_for asks of a client: the workers' Dask threads."""

    def __init__(self, workers):
        self.workers = workers

    def scheduler_info(self):
        return {"workers": {f"w{i}": {"nthreads": 1} for i in range(self.workers)}}


@pytest.mark.parametrize("workers, engine_threads, games, chunk", [
    (2, 1, 10**7, 1 << 20),        # four chunks a worker, at most 2**20 a thread
    (2, 1, 10**6, 1 << 16),        # never below the local chunk
    (100, 2, 10**10, 1 << 21),     # the limit: 2**20 a thread
    (100, 32, 10**10, 1 << 24),    # big machines: long tasks, four a worker
])
def test_the_chunk_size_rule(workers, engine_threads, games, chunk):
    backend = DaskBackend(_Scheduler(workers), "tcp://nowhere:8786")
    backend.identities = {f"w{i}": {"numba_threads": engine_threads} for i in range(workers)}
    assert backend.chunk_for(games) == chunk


@pytest.mark.parametrize("raw", ["0", "-2", "two"])
def test_a_bad_engine_thread_count_is_named(raw, monkeypatch):
    from sim.core.dask_backend import ENGINE_THREADS_ENV, engine_threads_here
    monkeypatch.setenv(ENGINE_THREADS_ENV, raw)
    with pytest.raises(UsageError, match=f"MEEPLELAB_ENGINE_THREADS={raw!r}: allowed a whole number"):
        engine_threads_here()
    import numba
    monkeypatch.setenv(ENGINE_THREADS_ENV, "1000")        # more than there are: all of them
    assert engine_threads_here() == numba.config.NUMBA_NUM_THREADS
    monkeypatch.setenv(ENGINE_THREADS_ENV, "1")
    assert engine_threads_here() == 1
