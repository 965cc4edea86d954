"""`meeplelab compare`, `sweep` and `tune` on every game at a tiny budget (conformance style), and
their bad input: a message, exit code 2, nothing written."""
import json
from pathlib import Path

import pandas as pd
import pytest

from sim import games
from strategies.registry import all_strategies

from test_cli import assert_usage_error, files_in

pytestmark = pytest.mark.usefixtures("clean_registry")
GAMES = [g.name for g in games.all_games()]


def tunable(game: str):
    """A built-in strategy with a numeric parameter (not a search), and a range inside its bounds."""
    searchers = set(games.get(game).conformance_specs)
    for s in all_strategies(game):
        if s.origin != "built-in" or s.name in searchers:
            continue
        for p in s.params:
            if p.type in (int, float) and p.min is not None and p.max is not None and p.min < p.max:
                hi = p.min + (p.max - p.min) / 4
                return s.name, f"{p.name}={p.min}..{int(hi) if p.type is int else hi}"
    pytest.fail(f"{game}: no strategy with a numeric parameter")


@pytest.mark.parametrize("game", GAMES)
def test_compare_sweep_and_tune_run_on_every_game(cli, tmp_path, game):
    g = games.get(game)
    players = str(g.default_players)
    rule = g.rules.packed_fields()[0]
    value = getattr(g.rules.preset(), rule)
    text = str(value).lower() if isinstance(value, bool) else str(value)
    same = f"{rule}={text}"
    r = cli("compare", game, "-s", "random", "--players", players, "--variant", same,
            "--variant", "seat0=random", "-n", 4, "--seed", 2, "-o", "c.csv")
    assert r.exit_code == 0, r.output
    df = pd.read_csv(tmp_path / "c.csv")
    assert set(df.variant) == {same, "seat0=random"}
    assert (df[df.variant == same].difference.fillna(0) == 0).all()
    assert {m.name for m in g.all_measures()} <= set(df.measure)
    prov = json.loads((tmp_path / "c.json").read_text())
    assert prov["game"] == game and prov["seed"] == 2 and len(prov["variants"]) == 2
    assert (tmp_path / "c.png").stat().st_size > 0

    r = cli("sweep", game, "-s", "random", "--players", players, "--grid", f"{same}|{text}", "-n", 3,
            "-o", "s.csv")
    assert r.exit_code == 0, r.output
    df = pd.read_csv(tmp_path / "s.csv")
    assert set(df.point) == {0, 1} and "best:" in r.stdout
    assert (tmp_path / "s.json").is_file() and (tmp_path / "s.png").is_file()

    strategy, param = tunable(game)
    r = cli("tune", game, strategy, "--param", param, "--against", "random", "--players", players,
            "--trials", 2, "-n", 2, "--confirm-games", 2, "-o", "t.csv")
    assert r.exit_code == 0, r.output
    assert "confirmation on" in r.stdout
    history = pd.read_csv(tmp_path / "t.csv")
    assert history.trial.tolist() == [0, 1]
    prov = json.loads((tmp_path / "t.json").read_text())
    assert prov["confirmation"]["games"] == 2 * g.default_players
    assert (tmp_path / "t.png").is_file()


def test_compare_until_ci_says_how_many_games_it_needed(cli):
    r = cli("compare", "diamant", "-s", "leave-at-gems:t=10", "--players", 3, "--variant", "seat0.t=11",
            "--no-rotate", "--until-ci", 0.2, "--main", "mean_score:0", "-n", "1e6", "--chunk", 1000)
    assert r.exit_code == 0, r.output
    assert "until-ci 0.2: mean_score:0 half-width reached after" in r.stdout


@pytest.mark.parametrize("args, fragments", [
    (["compare", "pyramids", "-s", "greedy", "--variant", "tomb_pts=4"],
     ["unknown key 'tomb_pts'", "did you mean", "allowed: rule parameters"]),
    (["compare", "diamant", "-s", "random", "--variant", "rounds=99"], ["rounds", "expected"]),
    (["compare", "diamant", "-s", "random"], ["at least one variant"]),
    (["compare", "diamant", "-s", "random", "--variant", "rounds=4", "--main", "nothing"],
     ["main difference 'nothing'", "cards_revealed"]),
    (["compare", "diamant", "-s", "random", "--variant", "rounds=4", "--until-ci", "-1"], ["positive"]),
    (["sweep", "diamant", "-s", "random"], ["empty grid"]),
    (["sweep", "diamant", "-s", "random", "--grid", "tomb_pts=1,2"], ["unknown key 'tomb_pts'"]),
    (["sweep", "diamant", "-s", "random", "--grid", "rounds=0..3"], ["rounds"]),
    (["sweep", "diamant", "-s", "leave-at-gems", "--grid", "seat0.t=1..200", "--grid", "rounds=1..60"],
     ["12,000 points", "at most 10,000"]),
    (["sweep", "diamant", "-s", "random", "--grid", "rounds=5..1"], ["empty range"]),
    (["tune", "diamant", "leave-at-gems", "--players", 1, "--preset", "solo", "--param", "t=5..2"],
     ["empty range"]),
    (["tune", "diamant", "leave-at-gems", "--players", 1, "--preset", "solo", "--param", "t=0..200000"],
     ["out of range", "<= 100000"]),
    (["tune", "diamant", "leave-at-gems", "--against", "random", "--players", 4], ["at least one --param"]),
    (["tune", "diamant", "leave-at-gems", "--players", 4, "--param", "t=1..9"], ["--against"]),
])
def test_bad_input_exits_2_and_writes_nothing(cli, tmp_path, args, fragments):
    before = files_in(tmp_path)
    result = cli(*args, "-o", "out.csv")
    assert_usage_error(result, *fragments)
    assert files_in(tmp_path) == before


def test_an_interrupted_sweep_writes_the_points_that_finished_and_exits_130(cli, tmp_path, interrupt_third_sweep_point):
    r = cli("sweep", "diamant", "-s", "leave-after-hazards:k=2", "--players", 3, "--grid", "seat0.k=1..5",
            "-n", 100, "--no-rotate", "-o", "s.csv")
    assert r.exit_code == 130
    assert "kept the 2 points that finished" in r.stderr
    assert set(pd.read_csv(tmp_path / "s.csv").point) == {0, 1}
    assert json.loads(Path(tmp_path / "s.json").read_text())["interrupted"] is True
