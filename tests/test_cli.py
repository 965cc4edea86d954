"""The `meeplelab` command line: outputs, provenance, reproducibility, and bad input -> exit 2."""
import csv
import signal
import time
import tomllib
from pathlib import Path

import click
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from meeplelab.cli import GameCount, main
from sim.core.runner import available_threads
from sim.diamant.rules import DiamantRules
from strategies.registry import parse_spec

from conftest import meeplelab_process, read_json, reaped

pytestmark = pytest.mark.usefixtures("clean_registry")

RUN_COLUMNS = ["seat", "strategy", "games", "mean_score", "se_score", "win_share", "win_ci_low",
               "win_ci_high"]
TOURNAMENT_COLUMNS = RUN_COLUMNS[1:]
FOUR = ["-s", "leave-after-hazards:k=2", "-s", "leave-after-hazards:k=3", "-s", "leave-at-gems:t=10",
        "-s", "leave-at-gems:t=15"]
RULE_NAMES = [p.name for p in DiamantRules.params()]


def files_in(folder) -> list[str]:
    """Every entry of a folder, hidden temporaries included."""
    return sorted(p.name for p in Path(folder).iterdir())


def assert_usage_error(result, *fragments):
    assert result.exit_code == 2, (result.exit_code, result.output)
    for fragment in fragments:
        assert fragment in result.stderr, (fragment, result.stderr)


# ------------------------------------------------------------------ help and listings
@pytest.mark.parametrize("command", [None, *sorted(main.commands)])
def test_every_command_has_help_with_an_example(cli, command):
    result = cli(*([command] if command else []), "--help")
    assert result.exit_code == 0, result.output
    assert "Example" in result.stdout
    assert "meeplelab " in result.stdout


def test_games_lists_diamant_with_player_counts_and_presets(cli):
    result = cli("games")
    assert result.exit_code == 0
    assert "diamant" in result.stdout and "players: 1-8" in result.stdout
    for preset in DiamantRules.PRESETS:
        assert f"preset {preset}" in result.stdout


def test_strategies_lists_names_parameters_defaults_and_docs(cli):
    result = cli("strategies", "diamant")
    assert result.exit_code == 0
    for name in ["always-continue", "leave-after-hazards", "leave-at-gems", "expected-value",
                 "random-leave", "solo-optimal"]:
        assert f"diamant {name}" in result.stdout
    assert "k=2: hazard cards revealed" in result.stdout          # parameter = default: doc
    assert "an integer >= 0 and <= 100" in result.stdout          # its allowed range
    assert "Leave with probability p before each card." in result.stdout
    assert cli("strategies").stdout.count("diamant ") >= 7       # every game


def test_analyses_lists_the_analyses(cli):
    result = cli("analyses")
    assert result.exit_code == 0
    assert "diamant-leave-threshold" in result.stdout and "diamant-variants" in result.stdout


@pytest.mark.parametrize("preset", sorted(DiamantRules.PRESETS))
def test_rules_prints_every_parameter_and_loads_back(cli, tmp_path, preset):
    printed = cli("rules", "diamant", "--preset", preset)
    assert printed.exit_code == 0
    data = tomllib.loads(printed.stdout)
    assert sorted(data) == sorted(RULE_NAMES)
    assert data == DiamantRules.preset(preset).to_dict()
    (tmp_path / "variant.toml").write_text(printed.stdout)
    again = cli("rules", "diamant", "--rules", "variant.toml")
    assert again.exit_code == 0 and again.stdout == printed.stdout


def test_rules_with_assignments(cli):
    result = cli("rules", "diamant", "--set", "rounds=4", "--set", "hazard_copies=4")
    data = tomllib.loads(result.stdout)
    assert data["rounds"] == 4 and data["hazard_copies"] == 4


# ------------------------------------------------------------------ run
def test_run_writes_table_and_sidecar(cli, tmp_path):
    result = cli("run", "diamant", "--players", 4, *FOUR, "-n", 2000, "--seed", 1, "-o", "out.csv")
    assert result.exit_code == 0, result.output
    assert "4 players, 2,000 games, seed 1" in result.stdout
    for spec in FOUR[1::2]:
        assert spec in result.stdout                       # the per-seat table
    table = pd.read_csv(tmp_path / "out.csv")
    assert list(table.columns) == RUN_COLUMNS
    assert table["seat"].tolist() == [0, 1, 2, 3]
    assert table["strategy"].tolist() == FOUR[1::2]
    assert (table["games"] == 2000).all()
    assert (table["win_ci_low"] <= table["win_share"]).all()
    assert (table["win_share"] <= table["win_ci_high"]).all()
    assert table["win_share"].sum() == pytest.approx(1.0)

    side = read_json(tmp_path / "out.json")
    assert side["meeplelab_version"] == "0.1.0"
    assert side["rules"] == DiamantRules.preset().to_dict() and sorted(side["rules"]) == sorted(RULE_NAMES)
    assert side["seed"] == 1 and side["games"] == 2000 and side["players"] == 4
    assert side["threads"] == available_threads()
    assert isinstance(side["elapsed_seconds"], float) and side["elapsed_seconds"] >= 0
    assert side["interrupted"] is False
    assert [(s["seat"], s["name"], s["params"]) for s in side["strategies"]] == [
        (0, "leave-after-hazards", {"k": 2}), (1, "leave-after-hazards", {"k": 3}),
        (2, "leave-at-gems", {"t": 10}), (3, "leave-at-gems", {"t": 15})]
    assert files_in(tmp_path) == ["out.csv", "out.json"]      # no temporaries left


def test_one_strategy_fills_every_seat_and_n_accepts_1e3(cli, tmp_path):
    result = cli("run", "diamant", "-s", "leave-at-gems:t=12", "-n", "1e3", "-o", "one.csv")
    assert result.exit_code == 0, result.output
    table = pd.read_csv(tmp_path / "one.csv")
    assert len(table) == 4 and (table["strategy"] == "leave-at-gems:t=12").all()
    assert (table["games"] == 1000).all()
    assert read_json(tmp_path / "one.json")["games"] == 1000


def test_per_game_file(cli, tmp_path):
    n = 1500
    result = cli("run", "diamant", "--players", 3, "-s", "expected-value", "-s", "random-leave:p=0.1",
                 "-s", "leave-after-cards:n=5", "-n", n, "--seed", 3, "--chunk", 400, "-o", "res.csv",
                 "--per-game")
    assert result.exit_code == 0, result.output
    games = pd.read_csv(tmp_path / "res-games.csv")
    assert list(games.columns) == ["game", "score_0", "score_1", "score_2", "winner",
                                   "cards_revealed", "disasters"]
    assert games["game"].tolist() == list(range(n))
    assert games["winner"].between(-1, 2).all() and (games["disasters"] >= 0).all()
    table = pd.read_csv(tmp_path / "res.csv")
    for seat in range(3):    # the per-game rows are the games the table summarises
        assert games[f"score_{seat}"].mean() == pytest.approx(table["mean_score"][seat], abs=1e-9)
    assert read_json(tmp_path / "res.json")["per_game_file"] == "res-games.csv"


def test_pyramids_per_game_rows_have_the_seats_of_the_game(cli, tmp_path):
    result = cli("run", "pyramids", "--players", 3, "-s", "random", "-n", 50, "--seed", 2, "-o", "p.csv",
                 "--per-game")
    assert result.exit_code == 0, result.output
    games = pd.read_csv(tmp_path / "p-games.csv")
    seat_columns = [f"{k}_{s}" for k in ("pyramid", "bonus", "obelisk", "tomb", "glyph", "tiles")
                    for s in range(3)]
    assert list(games.columns) == (["game", "score_0", "score_1", "score_2", "winner"] + seat_columns
                                   + ["first_player", "discards"])
    parts = sum(games[f"{k}_0"] for k in ("pyramid", "bonus", "obelisk", "tomb", "glyph"))
    assert (parts == games["score_0"]).all()
    assert games["tiles_0"].astype(str).str.fullmatch("[1-4]{10}").all()   # 3 players: no Thoth


def test_same_seed_same_numbers_other_seed_other_numbers(cli, tmp_path):
    for name, seed in [("a", 5), ("b", 5), ("c", 6)]:
        assert cli("run", "diamant", *FOUR, "-n", 2000, "--seed", seed, "-o", f"{name}.csv",
                   "--per-game").exit_code == 0
    text = {n: (tmp_path / f"{n}.csv").read_text() for n in "abc"}
    assert text["a"] == text["b"] and text["a"] != text["c"]
    assert (tmp_path / "a-games.csv").read_text() == (tmp_path / "b-games.csv").read_text()
    assert (tmp_path / "a-games.csv").read_text() != (tmp_path / "c-games.csv").read_text()


@pytest.mark.skipif(available_threads() < 2, reason="needs two cores")
def test_results_do_not_depend_on_threads(cli, tmp_path):
    for name, threads in [("t1", 1), ("t2", 2)]:
        result = cli("run", "diamant", *FOUR, "-n", 3000, "--seed", 9, "-o", f"{name}.csv",
                     "--per-game", "--threads", threads)
        assert result.exit_code == 0, result.output
    assert (tmp_path / "t1.csv").read_text() == (tmp_path / "t2.csv").read_text()
    assert (tmp_path / "t1-games.csv").read_text() == (tmp_path / "t2-games.csv").read_text()
    assert [read_json(tmp_path / f"{n}.json")["threads"] for n in ("t1", "t2")] == [1, 2]


def test_games_do_not_depend_on_the_chunk_size(cli, tmp_path):
    for name, chunk in [("c1", 3000), ("c2", 333)]:
        result = cli("run", "diamant", *FOUR, "-n", 3000, "--seed", 9, "-o", f"{name}.csv",
                     "--per-game", "--chunk", chunk)
        assert result.exit_code == 0, result.output
    assert (tmp_path / "c1-games.csv").read_text() == (tmp_path / "c2-games.csv").read_text()
    assert (tmp_path / "c1.csv").read_text() == (tmp_path / "c2.csv").read_text()


def test_preset_rule_file_and_assignments_reach_the_sidecar(cli, tmp_path):
    assert cli("run", "diamant", "-s", "expected-value", "-n", 500, "--preset", "incan-gold-2006",
               "-o", "ig.csv").exit_code == 0
    side = read_json(tmp_path / "ig.json")
    assert side["preset"] == "incan-gold-2006"
    assert side["rules"] == DiamantRules.preset("incan-gold-2006").to_dict()
    assert side["rules"]["artifacts"] == "per-round"

    (tmp_path / "variant.toml").write_text('preset = "incan-gold-2006"\nrounds = 3\n')
    assert cli("run", "diamant", "-s", "expected-value", "-n", 500, "--rules", "variant.toml",
               "--set", "hazard_copies=4", "-o", "v.csv").exit_code == 0
    rules = read_json(tmp_path / "v.json")["rules"]
    assert (rules["rounds"], rules["hazard_copies"], rules["artifacts"]) == (3, 4, "per-round")

    result = cli("run", "diamant", "-s", "leave-after-hazards:k=2", "-n", 500, "--set", "rounds=4",
                 "--set", "hazard_copies=4", "-o", "set.csv")
    assert result.exit_code == 0 and "rounds=4" in result.stdout
    rules = read_json(tmp_path / "set.json")["rules"]
    assert rules == DiamantRules.preset().replace(rounds=4, hazard_copies=4).to_dict()


def test_tournament_writes_table_head_to_head_and_sidecar(cli, tmp_path):
    specs = ["leave-after-hazards:k=2", "leave-at-gems:t=10", "expected-value:risk=1"]
    result = cli("tournament", "diamant", "--players", 4, *[x for s in specs for x in ("-s", s)],
                 "-n", 1000, "--seed", 2, "-o", "t.csv")
    assert result.exit_code == 0, result.output
    assert "head-to-head" in result.stdout
    table = pd.read_csv(tmp_path / "t.csv")
    assert list(table.columns) == TOURNAMENT_COLUMNS
    assert table["strategy"].tolist() == specs
    assert table["games"].sum() == 3 * 1000 * 4               # 3 rotations x deals x seats
    h2h = pd.read_csv(tmp_path / "t-head-to-head.csv")
    assert {"strategy", "opponent", "games", "win_rate"} <= set(h2h.columns)
    assert len(h2h) == 6                                         # every ordered pair
    pairs = h2h.set_index(["strategy", "opponent"])["win_rate"]
    for a in specs:
        for b in specs:
            if a != b:
                assert pairs[a, b] + pairs[b, a] == pytest.approx(1.0)
    side = read_json(tmp_path / "t.json")
    assert side["deals"] == 1000 and side["games"] == 3000 and side["seed"] == 2
    assert [s["name"] for s in side["strategies"]] == ["leave-after-hazards", "leave-at-gems",
                                                        "expected-value"]
    assert side["rules"] == DiamantRules.preset().to_dict()


# ------------------------------------------------------------------ team play (CIV civ-teams)
TEAM_LINEUP = ["-s", "greedy", "-s", "majority", "-s", "greedy", "-s", "majority"]


def test_run_in_team_play_reports_each_teams_win_share(cli, tmp_path):
    n = 300
    result = cli("run", "civ", "--preset", "civ-teams", *TEAM_LINEUP, "-n", n, "--seed", 4,
                 "-o", "t.csv", "--per-game")
    assert result.exit_code == 0, result.output
    assert "teams (A = seats 0+2, B = seats 1+3)" in result.stdout
    table = pd.read_csv(tmp_path / "t.csv", dtype={"seat": str})
    assert list(table.columns) == ["row", "seat", "team", *RUN_COLUMNS[1:]]
    assert table.row.tolist() == ["seat"] * 4 + ["team"] * 2
    assert table.seat.tolist() == ["0", "1", "2", "3", "0+2", "1+3"]
    assert table.team.tolist() == ["A", "B", "A", "B", "A", "B"]
    seats, teams = table[table.row == "seat"], table[table.row == "team"].set_index("team")
    # a team's share is its seats' summed; the two teams share every game's win
    assert teams.win_share["A"] == pytest.approx(seats.win_share.iloc[[0, 2]].sum())
    assert teams.win_share.sum() == pytest.approx(1.0) and (teams.games == n).all()
    assert (teams.win_ci_low < teams.win_share).all() and (teams.win_share < teams.win_ci_high).all()
    assert teams.mean_score["A"] == pytest.approx(seats.mean_score.iloc[[0, 2]].mean())
    games = pd.read_csv(tmp_path / "t-games.csv", keep_default_na=False)
    assert "winning_team" in games.columns and set(games.winning_team) <= {"A", "B", ""}
    assert (games.winning_team == "A").mean() == pytest.approx(teams.win_share["A"], abs=0.5 / n)
    assert (games.winner == -1).all()          # a team's win is shared by its two seats
    assert read_json(tmp_path / "t.json")["teams"] == [[0, 2], [1, 3]]


def test_run_without_teams_keeps_the_per_seat_table_only(cli, tmp_path):
    result = cli("run", "civ", "-s", "random", "-n", 50, "-o", "c.csv", "--per-game")
    assert result.exit_code == 0, result.output
    assert "teams" not in result.stdout and "teams" not in read_json(tmp_path / "c.json")
    assert list(pd.read_csv(tmp_path / "c.csv").columns) == RUN_COLUMNS
    assert "winning_team" not in pd.read_csv(tmp_path / "c-games.csv").columns


def test_tournament_in_team_play_counts_each_strategys_team_once_a_game(cli, tmp_path):
    n = 200
    result = cli("tournament", "civ", "--preset", "civ-teams", "-s", "greedy", "-s", "majority",
                 "-n", n, "--seed", 5, "-o", "tt.csv")
    assert result.exit_code == 0, result.output
    assert "team play (A = seats 0+2, B = seats 1+3)" in result.stdout
    table = pd.read_csv(tmp_path / "tt.csv").set_index("strategy")
    assert list(table.games) == [2 * n, 2 * n]                 # 2 rotations, one count a game
    assert table.win_share.sum() == pytest.approx(1.0)
    # rotation 0 is the run greedy, random, greedy, random; rotation 1 the run with seats swapped
    runs = []
    for k, lineup in enumerate((TEAM_LINEUP, TEAM_LINEUP[2:] + TEAM_LINEUP[:2])):
        assert cli("run", "civ", "--preset", "civ-teams", *lineup, "-n", n, "--seed", 5,
                   "-o", f"r{k}.csv").exit_code == 0
        teams = pd.read_csv(tmp_path / f"r{k}.csv", dtype={"seat": str})
        runs.append(teams[teams.row == "team"].set_index("team").win_share)
    greedy = table.index[0]
    assert table.win_share[greedy] == pytest.approx((runs[0]["A"] + runs[1]["B"]) / 2)
    assert read_json(tmp_path / "tt.json")["teams"] == [[0, 2], [1, 3]]


# ------------------------------------------------------------------ playthrough
def test_playthrough_is_the_game_of_the_run_with_that_seed_and_index(cli, tmp_path):
    """The reference engine's record of game 9 ends as row 9 of a run on the fast engine."""
    lineup = ["-s", "greedy", "-s", "random"]
    assert cli("run", "schotten-totten", *lineup, "-n", 12, "--seed", 5, "-o", "r.csv",
               "--per-game").exit_code == 0
    row = pd.read_csv(tmp_path / "r-games.csv").iloc[9]
    result = cli("playthrough", "schotten-totten", *lineup, "--seed", 5, "--game", 9)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "# schotten-totten, rules base, seed 5, game 9"
    assert lines[1].startswith("# seats: greedy:pen=100,") and lines[1].endswith(", random")
    how = "draw" if row.winner == -1 else f"seat {row.winner} wins"
    assert lines[-1].startswith(f"# end: {how} ({row.end}), stones ")
    assert f"{row.cards_played} cards played in {row.turns} turns" in lines[-1]
    turns = [line for line in lines if line.startswith("# turn ")]
    assert len(turns) == row.turns and turns[1].startswith("# turn 1: seat 1 to move")
    # the rules as resolved, --set included, reach the game and its header
    result = cli("playthrough", "schotten-totten", "--preset", "tactics", "--set",
                 "first_player=random", "-s", "random", "--seed", 5, "--game", 9)
    assert result.stdout.startswith("# schotten-totten, rules tactics, first_player=random, seed 5")
    # and to a file, atomically; Diamant too
    result = cli("playthrough", "diamant", "--players", 3, "-s", "leave-after-hazards:k=2",
                 "--seed", 2, "--game", 4, "-o", "d.txt")
    assert result.exit_code == 0 and files_in(tmp_path) == ["d.txt", "r-games.csv", "r.csv", "r.json"]
    assert cli("run", "diamant", "--players", 3, "-s", "leave-after-hazards:k=2", "-n", 5,
               "--seed", 2, "-o", "d.csv", "--per-game").exit_code == 0
    scores = pd.read_csv(tmp_path / "d-games.csv").iloc[4][["score_0", "score_1", "score_2"]]
    assert (tmp_path / "d.txt").read_text().splitlines()[-1].startswith(
        f"# end: scores {[int(x) for x in scores]}")


@pytest.mark.parametrize("args, fragments", [
    (["playthrough", "diamnt", "-s", "random"], ["unknown game 'diamnt'"]),
    (["playthrough", "schotten-totten"], ["no strategy given"]),
    (["playthrough", "schotten-totten", "-s", "greedyy"], ["unknown schotten-totten strategy 'greedyy'"]),
    (["playthrough", "schotten-totten", "--players", 3, "-s", "random"], ["3 players", "2 to 2"]),
    (["playthrough", "schotten-totten", "-s", "random", "--preset", "tactic"], ["did you mean 'tactics'"]),
    (["playthrough", "schotten-totten", "-s", "random", "--game", -1], ["--game"]),
    (["playthrough", "schotten-totten", "-s", "random", "-o", "missing/x.txt"], ["missing"]),
])
def test_playthrough_bad_input_is_a_clear_usage_error(cli, tmp_path, args, fragments):
    assert_usage_error(cli(*args), *fragments)
    assert files_in(tmp_path) == []


# ------------------------------------------------------------------ bad input: exit 2
@pytest.mark.parametrize("args, fragments", [
    (["run", "diamnt", "-s", "always-continue"], ["unknown game 'diamnt'", "did you mean 'diamant'"]),
    (["rules", "diamnt"], ["unknown game 'diamnt'"]),
    (["strategies", "diamnt"], ["unknown game 'diamnt'"]),
    (["run", "diamant", "--preset", "incan-gold", "-s", "always-continue"],
     ["unknown diamant preset 'incan-gold'", "did you mean 'incan-gold-2006'", "allowed:"]),
    (["run", "diamant", "-s", "leave-after-hazard"],
     ["unknown diamant strategy 'leave-after-hazard'", "did you mean 'leave-after-hazards'"]),
    (["run", "diamant", "-s", "leave-after-hazards:kk=2"],
     ["unknown parameter 'kk'", "did you mean 'k'", "parameters of 'leave-after-hazards': k"]),
    (["run", "diamant", "-s", "leave-after-hazards:k=two"],
     ["parameter 'k' = 'two'", "expected an integer >= 0 and <= 100"]),
    (["run", "diamant", "-s", "leave-after-hazards:k=2.5"], ["expected an integer"]),
    (["run", "diamant", "-s", "random-leave:p=1.5"],
     ["parameter 'p' = '1.5' is out of range", "expected a number >= 0.0 and <= 1.0"]),
    (["run", "diamant", "-s", "leave-at-gems:t=-1"], ["out of range", ">= 0"]),
    (["run", "diamant", "--players", 2, "-s", "always-continue"],
     ["2 players is not allowed", "min_players=3"]),
    (["run", "diamant", "--players", 9, "-s", "always-continue"], ["9 players", "1 to 8"]),
    (["run", "diamant", "--players", 4, "-s", "always-continue", "-s", "expected-value"],
     ["2 strategies for 4 players", "exactly 4"]),
    (["run", "diamant", "-s", "always-continue", "-n", 0], ["at least 1"]),
    (["run", "diamant", "-s", "always-continue", "-n", -10], ["at least 1"]),
    (["run", "diamant", "-s", "always-continue", "-n", "1.5"], ["whole number"]),
    (["run", "diamant", "-s", "always-continue", "-n", "lots"], ["not a number of games"]),
    (["run", "diamant"], ["at least one strategy"]),
    (["run", "diamant", "-s", "always-continue", "--set", "rounds=0"],
     ["'rounds' = 0", "expected an integer >= 1 and <= 20"]),
    (["run", "diamant", "-s", "always-continue", "--set", "round=4"],
     ["unknown diamant rule parameter 'round'", "did you mean 'rounds'"]),
    (["run", "diamant", "-s", "always-continue", "--set", "tie_break=coin"],
     ["'tie_break' = 'coin'", "one of 'shared'"]),
    (["run", "diamant", "-s", "always-continue", "--threads", 0], ["--threads 0", "allowed 1 to"]),
    (["tournament", "diamant", "-s", "always-continue"], ["at least two strategies"]),
    (["tournament", "diamant", "--players", 9, "-s", "always-continue", "-s", "expected-value"],
     ["9 players"]),
    (["run", "diamant", "-s", "solo-optimal"], ["lone player", "--players 1"]),
])
def test_bad_input_is_a_clear_usage_error(cli, tmp_path, args, fragments):
    result = cli(*args, "-o", "out.csv") if args[0] in ("run", "tournament") else cli(*args)
    assert_usage_error(result, *fragments)
    assert "Traceback" not in result.output
    assert files_in(tmp_path) == []                             # nothing half-written


def test_rule_file_errors_name_the_file_and_line(cli, tmp_path):
    (tmp_path / "unknown.toml").write_text("# my variant\nrounds = 4\n\nhazard_copys = 4\n")
    assert_usage_error(cli("run", "diamant", "-s", "always-continue", "--rules", "unknown.toml"),
                       "rule file unknown.toml, line 4", "unknown diamant rule parameter 'hazard_copys'",
                       "did you mean 'hazard_copies'")
    (tmp_path / "broken.toml").write_text("rounds = 4\nhazard_copies = = 4\n")
    assert_usage_error(cli("rules", "diamant", "--rules", "broken.toml"),
                       "rule file broken.toml", "invalid TOML", "line 2")
    (tmp_path / "wrong.toml").write_text('rounds = "five"\n')
    assert_usage_error(cli("rules", "diamant", "--rules", "wrong.toml"),
                       "rule file wrong.toml", "'rounds' = 'five'", "expected an integer")
    (tmp_path / "preset.toml").write_text('rounds = 4\npreset = "incan"\n')
    assert_usage_error(cli("rules", "diamant", "--rules", "preset.toml"),
                       "rule file preset.toml, line 2", "unknown diamant preset 'incan'")
    assert_usage_error(cli("rules", "diamant", "--rules", "missing.toml"), "missing.toml", "no such file")


@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if any game is played."""
    import strategies.play
    import strategies.tournament

    def refuse(*args, **kwargs):
        raise AssertionError("games were played before the output path was checked")
    for module, name in [(strategies.play, "play"), (strategies.play, "batch_player"),
                         (strategies.tournament, "play"), (strategies.tournament, "tournament")]:
        monkeypatch.setattr(module, name, refuse)


@pytest.mark.parametrize("command", ["run", "tournament"])
def test_unwritable_output_fails_before_any_game(cli, tmp_path, no_games, command):
    three = ["-s", "leave-after-hazards:k=2", "-s", "expected-value", "-s", "leave-at-gems"]
    assert_usage_error(cli(command, "diamant", *three, "-o", "missing/out.csv"),
                       "missing/out.csv", "folder missing does not exist")
    (tmp_path / "adir").mkdir()
    assert_usage_error(cli(command, "diamant", *three, "-o", "adir"), "adir", "directory")
    assert files_in(tmp_path) == ["adir"] and files_in(tmp_path / "adir") == []


def test_unwritable_per_game_or_head_to_head_file_fails_before_any_game(cli, tmp_path, no_games):
    (tmp_path / "out-games.csv").mkdir()
    assert_usage_error(cli("run", "diamant", "-s", "always-continue", "-o", "out.csv", "--per-game"),
                       "out-games.csv", "is a directory")
    assert_usage_error(cli("run", "diamant", "-s", "always-continue", "--per-game"), "give -o")
    (tmp_path / "t-head-to-head.csv").mkdir()
    assert_usage_error(cli("tournament", "diamant", "-s", "always-continue", "-s", "expected-value",
                           "-o", "t.csv"), "t-head-to-head.csv", "is a directory")
    assert files_in(tmp_path) == ["out-games.csv", "t-head-to-head.csv"]


# ------------------------------------------------------------------ how many games
# every command that takes -n, with what else it needs
N_COMMANDS = {
    "run": ["run", "diamant", "-s", "expected-value"],
    "tournament": ["tournament", "diamant", "-s", "expected-value", "-s", "leave-at-gems:t=10"],
    "compare": ["compare", "diamant", "-s", "expected-value", "--variant", "rounds=4"],
    "sweep": ["sweep", "diamant", "-s", "expected-value", "--grid", "rounds=3..4"],
    "tune": ["tune", "diamant", "leave-at-gems", "--param", "t=2..20", "--players", 1, "--preset",
             "solo", "--trials", 1],
    "bench": ["bench", "diamant"],
}


@pytest.mark.parametrize("command", sorted(N_COMMANDS))
def test_more_games_than_the_maximum_is_refused(cli, tmp_path, command):
    out = [] if command == "bench" else ["-o", "out.csv"]
    assert_usage_error(cli(*N_COMMANDS[command], "-n", "1e20", *out),
                       "'1e20'", "too many games", "allowed 1 to 10^12 (1e12)")
    assert files_in(tmp_path) == []
    if command != "bench":
        assert "at most 1e12" in " ".join(cli(command, "--help").stdout.split())


def test_game_count_refuses_more_than_10_to_the_12():
    assert GameCount().convert("1e12", None, None) == 10**12
    for text in ("1e20", "1_000_000_000_001", str(2**63)):
        with pytest.raises(click.BadParameter, match="allowed 1 to 10"):
            GameCount().convert(text, None, None)


@pytest.mark.parametrize("command", ["run", "tournament", "compare", "sweep", "tune"])
def test_a_run_a_short_timing_puts_above_a_day_is_refused(cli, tmp_path, command):
    """1e12 games of greedy Schotten Totten: months on any one machine. Refused after a short
    timing, naming the estimate and what fits, nothing written."""
    args = {"run": ["run", "schotten-totten", "-s", "greedy"],
            "tournament": ["tournament", "schotten-totten", "-s", "greedy", "-s", "random"],
            "compare": ["compare", "schotten-totten", "-s", "greedy", "--variant", "seat0=random"],
            "sweep": ["sweep", "schotten-totten", "-s", "greedy", "--grid", "seat0.lam=0,1"],
            "tune": ["tune", "schotten-totten", "greedy", "--param", "lam=0..2", "--against",
                     "greedy", "--trials", 2]}[command]
    result = cli(*args, "-n", "1e12", "-o", "out.csv")
    assert_usage_error(result, "-n 1,000,000,000,000", "from a short timing", "more than a day",
                       "allowed: a run that fits in a day (here about -n ", "--allow-long")
    assert "days" in result.stderr
    assert files_in(tmp_path) == []
    assert "--allow-long" in cli(command, "--help").stdout


@pytest.fixture
def one_game_a_second(monkeypatch):
    """Every short timing measures 1 game a second."""
    from analyses.workbench import timing
    monkeypatch.setattr(timing, "games_per_second", lambda *args: 1.0)


@pytest.mark.parametrize("command, args", [
    ("run", ["diamant", "-s", "expected-value", "-n", "2e5"]),
    ("tournament", ["diamant", "-s", "expected-value", "-s", "leave-at-gems:t=10", "-n", "1e5"]),
    ("compare", ["diamant", "-s", "expected-value", "--variant", "rounds=4", "-n", "1e5"]),
    ("sweep", ["diamant", "-s", "expected-value", "--grid", "rounds=3..4", "-n", "1e5"]),
    ("tune", ["diamant", "leave-at-gems", "--param", "t=2..20", "--players", 1, "--preset", "solo",
              "--trials", 2, "-n", "3e4"]),
])
def test_allow_long_plays_a_run_estimated_above_a_day(cli, tmp_path, one_game_a_second, command, args):
    refused = cli(command, *args, "-o", "out.csv")
    assert_usage_error(refused, "more than a day", "--allow-long", "days")
    assert files_in(tmp_path) == []
    played = cli(command, *args, "-o", "out.csv", "--allow-long")
    assert played.exit_code == 0, played.output
    assert "out.csv" in files_in(tmp_path)


def test_a_short_run_is_not_timed(cli, monkeypatch):
    from analyses.workbench import timing

    def refuse(*args):
        raise AssertionError("a run of fewer than ESTIMATE_GAMES games was timed")
    monkeypatch.setattr(timing, "games_per_second", refuse)
    assert cli("run", "diamant", "-s", "expected-value", "-n", 1000).exit_code == 0
    assert cli("compare", "diamant", "-s", "expected-value", "--variant", "rounds=4").exit_code == 0


def test_until_ci_with_a_large_cap_still_runs(cli):
    """--until-ci takes -n as its most: a cap that fits in a day is not refused, and the run stops
    at the precision, long before it."""
    result = cli("compare", "diamant", "-s", "leave-at-gems:t=10", "--variant", "seat0.t=12",
                 "--until-ci", "0.02", "-n", "1e6", "--seed", 1)
    assert result.exit_code == 0, result.output
    assert "half-width reached after 262,144 games per set-up" in result.stdout   # 65,536 deals x 4


def test_the_limit_message_and_the_dask_backend():
    from sim.core import backends
    from sim.core.errors import UsageError
    from analyses.workbench.timing import DAY, check_limit, duration
    with pytest.raises(UsageError) as e:
        check_limit(3 * DAY, 3_000_000, DAY, "-n 3,000,000")
    assert str(e.value) == ("-n 3,000,000: estimated 3.0 days from a short timing, more than a "
                            "day; allowed: a run that fits in a day (here about -n 1,000,000), "
                            "or --allow-long to play it anyway")
    check_limit(3 * DAY, 3_000_000, None, "-n 3,000,000")      # no limit (--allow-long)
    check_limit(DAY, 1_000_000, DAY, "-n 1,000,000")           # a day is allowed
    with backends.using(object()):                              # a cluster: not measured so
        check_limit(3 * DAY, 3_000_000, DAY, "-n 3,000,000")
    assert [duration(s) for s in (5, 600, 7200, 3 * DAY)] == ["5 s", "10.0 min", "2.0 h", "3.0 days"]


# ------------------------------------------------------------------ real processes
def test_exit_code_2_end_to_end(tmp_path):
    start = time.monotonic()
    proc = meeplelab_process("run", "diamant", "-s", "leave-after-hazards:k=2", "-n", "1e9",
                             "-o", tmp_path / "nowhere" / "out.csv", cwd=tmp_path)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    assert "folder" in err and "does not exist" in err and "Traceback" not in err
    assert time.monotonic() - start < 30          # 1e9 games were not played first
    assert files_in(tmp_path) == []

    proc = meeplelab_process("run", "diamant", "-s", "leave-after-hazards:k=x", cwd=tmp_path)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "expected an integer" in err and "Traceback" not in err


def test_a_run_too_long_is_refused_end_to_end(tmp_path):
    """In real processes, with a deadline (before the limits these ran until killed)."""
    for n, fragment in [("1e20", "too many games"), ("1e12", "more than a day")]:
        with reaped(meeplelab_process("run", "schotten-totten", "-s", "greedy", "-n", n,
                                      "-o", "out.csv", cwd=tmp_path)) as proc:
            _, err = proc.communicate(timeout=120)
        assert proc.returncode == 2, err
        assert fragment in err and "Traceback" not in err
    assert files_in(tmp_path) == []


def _wait_for_a_finished_chunk(proc, tmp_path):
    """Until at least one chunk is in the per-game temporary file, then a little more (a fixed
    sleep fails on a loaded machine, where loading the kernels can take seconds)."""
    deadline = time.monotonic() + 60
    while not any(p.name.startswith(".out-games.csv.") and p.stat().st_size > 0
                  for p in tmp_path.iterdir()):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no game finished within 60 s"
        time.sleep(0.05)
    time.sleep(0.5)


def test_kill_stops_a_background_run_like_ctrl_c(tmp_path):
    """SIGTERM keeps the finished games even where SIGINT is ignored (a shell's background job)."""
    with reaped(meeplelab_process("run", "diamant", "-s", "always-continue", "-n", "1e9", "--chunk",
                                  20000, "-o", "out.csv", "--per-game", cwd=tmp_path,
                                  sigint=signal.SIG_IGN)) as proc:
        _wait_for_a_finished_chunk(proc, tmp_path)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "kept the" in err and read_json(tmp_path / "out.json")["interrupted"] is True


def test_ctrl_c_keeps_the_finished_games_and_says_so(tmp_path):
    with reaped(meeplelab_process("run", "diamant", "-s", "always-continue", "-n", "1e9", "--chunk",
                                  20000, "-o", "out.csv", "--per-game", cwd=tmp_path)) as proc:
        _wait_for_a_finished_chunk(proc, tmp_path)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "kept the" in err
    assert files_in(tmp_path) == ["out-games.csv", "out.csv", "out.json"]   # no temporaries

    side = read_json(tmp_path / "out.json")
    assert side["interrupted"] is True and side["games_requested"] == 10**9
    played = side["games"]
    assert 0 < played < 10**9 and played % 20000 == 0          # whole chunks only
    table = pd.read_csv(tmp_path / "out.csv")
    assert list(table.columns) == RUN_COLUMNS and (table["games"] == played).all()
    with open(tmp_path / "out-games.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["game", "score_0", "score_1", "score_2", "score_3", "winner",
                       "cards_revealed", "disasters"]
    assert len(rows) - 1 == played
    assert all(len(r) == 8 for r in rows[1:])
    assert [int(r[0]) for r in rows[1:]] == list(range(played))
    assert f"{played:,} games" in out


def test_ctrl_c_while_a_chunk_is_being_written_keeps_it_whole(cli, tmp_path, monkeypatch):
    """Deterministic version of the race above: SIGINT arrives inside the per-game writer."""
    import strategies.play
    real = strategies.play.per_game_frame
    calls = []
    # Ctrl-C as a terminal delivers it, whatever an earlier test in this worker left installed
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)

    def interrupted_frame(batch, extras, labels=None, teams=()):
        calls.append(batch.first_game)
        if len(calls) == 2:
            # to this thread, now (os.kill may wake another thread, and the handler run late)
            signal.raise_signal(signal.SIGINT)     # Ctrl-C half-way through chunk 2's rows
        return real(batch, extras, labels, teams)

    monkeypatch.setattr(strategies.play, "per_game_frame", interrupted_frame)
    try:
        result = cli("run", "diamant", "-s", "always-continue", "-n", 5000, "--chunk", 1000,
                     "-o", "out.csv", "--per-game")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert result.exit_code == 130 and "interrupted" in result.stderr
    assert calls == [0, 1000]
    side = read_json(tmp_path / "out.json")
    assert side["games"] == 2000 and side["interrupted"] is True
    assert (pd.read_csv(tmp_path / "out.csv")["games"] == 2000).all()
    assert pd.read_csv(tmp_path / "out-games.csv")["game"].tolist() == list(range(2000))


def test_ctrl_c_before_any_game_finished_still_writes_valid_files(cli, tmp_path, monkeypatch):
    import strategies.play

    def interrupted(*args, **kwargs):
        def play_batch(first, n):
            raise KeyboardInterrupt
        return play_batch, "fast"

    monkeypatch.setattr(strategies.play, "batch_player", interrupted)
    result = cli("run", "diamant", "-s", "always-continue", "-n", 5000, "-o", "out.csv", "--per-game")
    assert result.exit_code == 130 and "kept the 0 games" in result.stderr
    assert read_json(tmp_path / "out.json")["games"] == 0
    assert (pd.read_csv(tmp_path / "out.csv")["games"] == 0).all()
    assert (tmp_path / "out-games.csv").read_text() == (
        "game,score_0,score_1,score_2,score_3,winner,cards_revealed,disasters\n")


# ------------------------------------------------------------------ properties (no games)
@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**12), st.sampled_from(["plain", "underscore", "float", "exponent"]))
def test_game_count_accepts_the_usual_spellings(n, style):
    text = {"plain": str(n), "underscore": f"{n:_}", "float": f"{n}.0",
            "exponent": f"{n:e}"}[style]
    if style == "exponent" and float(text) != n:
        return                                              # not exact in 7 digits
    assert GameCount().convert(text, None, None) == n


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 100), st.floats(0.0, 1.0, allow_nan=False))
def test_a_label_parses_back_to_the_same_strategy(k, p):
    for spec in (f"leave-after-hazards:k={k}", f"random-leave:p={p!r}"):
        bound = parse_spec("diamant", spec)
        assert parse_spec("diamant", bound.label) == bound


# ------------------------------------------------------------------ benchmark
def test_bench_reports_every_configuration_with_rates_and_ratios(cli):
    result = cli("bench", "schotten-totten", "-n", "300", "--reference-games", "3", "--repeat", "1",
                 "--search-games", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for title in ("random, random; rules base", "random, random; rules tactics",
                  "greedy, greedy; rules base", "greedy, greedy; rules tactics"):
        assert title in out
    assert out.count("fast engine, 1 thread:") == 4
    assert out.count("fast (1 thread) / reference:") == 4
    assert out.count("through their pointers") == 1 and out.count("start to first game") == 1
    for searcher in ("flat-mc:sims=100 against greedy", "ismcts against greedy"):
        line = next(x for x in out.splitlines() if x.startswith(searcher))
        assert "decisions in 1 games, ms per decision: mean" in line and "max" in line


def test_search_decision_times_are_one_per_call_of_the_searchers_kernel():
    from meeplelab.bench import decision_times
    from sim.core.game import SearchBench
    from sim import games as game_registry
    from strategies.play import resolve_rules
    from strategies.registry import lineup
    t = decision_times("schotten-totten", SearchBench("base", "flat-mc:sims=2", "greedy", 2), 2)
    assert (t > 0).all()
    # the same games, the searcher's calls counted: searcher first in game 0, second in game 1
    rules = resolve_rules("schotten-totten", "base")
    calls = []
    for game, specs in ((0, ["flat-mc:sims=2", "greedy"]), (1, ["greedy", "flat-mc:sims=2"])):
        bound = lineup("schotten-totten", specs, 2)
        kernels = [b.strategy.kernel for b in bound]
        seat = game
        kernel = kernels[seat]
        kernels[seat] = lambda obs, prm, rng, kernel=kernel: calls.append(1) or kernel(obs, prm, rng)
        game_registry.get("schotten-totten").reference_play(
            rules, 2, 0, game, 1, kernels, [b.params_array(rules, 2) for b in bound])
    assert t.size == len(calls) >= 8


def test_bench_of_an_unknown_game_is_a_usage_error(cli):
    assert_usage_error(cli("bench", "chess"), "chess")


# ------------------------------------------------------------------ Pyramids: its deck
def test_pyramids_deck_defaults_make_the_shipped_deck(cli, tmp_path):
    from meeplelab.cli import DECK_DEFAULTS
    from sim.pyramids import deck as D
    assert DECK_DEFAULTS == D.GENERATOR_DEFAULTS              # --help shows the generator's defaults
    result = cli("pyramids-deck", "-o", "d.csv")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "d.csv").read_bytes() == Path(D.shipped_deck_path()).read_bytes()
    assert "wrote d.csv: 105 cards" in result.stderr and files_in(tmp_path) == ["d.csv"]
    assert cli("pyramids-deck").stdout == (tmp_path / "d.csv").read_text()     # no -o: stdout


def test_pyramids_deck_writes_a_valid_deck_of_its_parameters(cli, tmp_path):
    from sim.pyramids import deck as D
    from sim.pyramids.rules import PyramidsRules
    result = cli("pyramids-deck", "--seed", 5, "--cards", 42, "--two-stone-share", 0.5, "--glyph-share", 0,
                 "--same-colour-share", 0, "--large-left-share", 1, "--colour-weights", "2,1,1,1,0",
                 "-o", "d.csv")
    assert result.exit_code == 0, result.output
    cards = D.load_deck(str(tmp_path / "d.csv"))
    assert cards == D.generate(seed=5, n_cards=42, two_stone_share=0.5, glyph_share=0.0, same_colour_share=0.0,
                               large_left_share=1.0, colour_weights=(2, 1, 1, 1, 0))
    assert sum(len(c.stones) == 2 for c in cards) == 21 and all(c.glyph == D.NO_GLYPH for c in cards)
    assert "RECONSTRUCTION" in (tmp_path / "d.csv").read_text().splitlines()[0]
    PyramidsRules.preset().replace(deck=str(tmp_path / "d.csv")).check_players(2)    # plays 2 players


@pytest.mark.parametrize("args, fragments", [
    (["--two-stone-share", 1.5], ["--two-stone-share", "'1.5': allowed a number from 0 to 1"]),
    (["--glyph-share", "-0.1"], ["--glyph-share", "allowed a number from 0 to 1"]),
    (["--same-colour-share", "lots"], ["--same-colour-share", "allowed a number from 0 to 1"]),
    (["--large-left-share", 2], ["--large-left-share", "from 0 to 1"]),
    (["--colour-weights", "1,2"], ["--colour-weights", "5 comma-separated non-negative numbers"]),
    (["--colour-weights", "0,0,0,0,0"], ["not all 0"]),
    (["--colour-weights", "1,1,-1,1,1"], ["non-negative"]),
    (["--cards", 10], ["--cards", "42<=x<=128"]),
    (["--cards", 200], ["--cards", "42<=x<=128"]),
    (["--seed", -1], ["--seed"]),
    (["-o", "missing/d.csv"], ["missing"]),
    (["-o", "."], ["is a directory"]),
])
def test_pyramids_deck_bad_values_exit_2_naming_the_allowed_range(cli, tmp_path, args, fragments):
    assert_usage_error(cli("pyramids-deck", *args, *([] if "-o" in args else ["-o", "d.csv"])), *fragments)
    assert files_in(tmp_path) == []


def test_python_m_sim_pyramids_deck_still_writes_one(tmp_path):
    from sim.pyramids import deck as D
    D.main(["--seed", "8", "-o", str(tmp_path / "d.csv")])
    assert D.load_deck(str(tmp_path / "d.csv")) == D.generate(seed=8)


def test_rules_pyramids_says_the_deck_is_a_reconstruction_and_shows_its_format(cli):
    from sim.pyramids.rules import PyramidsRules
    out = cli("rules", "pyramids").stdout
    notes = out[out.index("# The shipped deck"):]
    assert "RECONSTRUCTION" in notes and "--set deck=path/to/deck.csv" in notes
    assert "id,stones,glyph" in notes and "0,red@bl+tl blue@br white@tr,pyramid" in notes
    assert tomllib.loads(out) == PyramidsRules.preset().to_dict()            # still a rule file
    assert "The shipped deck" not in PyramidsRules.preset().to_toml(comments=False)


# ------------------------------------------------------------------ Pyramids: the deck in the sidecar
FIRST_ACTION = '''
from strategies.registry import strategy

@strategy("pyramids", "first-action")
def first_action(obs, params, rng):
    """Always the first legal action."""
    return 0
'''


@pytest.mark.parametrize("command", ["run", "tournament"])
def test_the_sidecar_records_the_deck_file_and_its_hash(cli, tmp_path, command):
    from sim.pyramids import deck as D
    (tmp_path / "first.py").write_text(FIRST_ACTION)
    strategies = ["-s", "random"] + (["--plugin", "first.py", "-s", "first-action"] if command == "tournament" else [])
    result = cli(command, "pyramids", "--players", 2, *strategies, "-n", 20, "-o", "a.csv")
    assert result.exit_code == 0, result.output
    deck = read_json(tmp_path / "a.json")["deck"]
    shipped = D.shipped_deck_path()
    assert deck == {"path": str(Path(shipped).resolve()), "shipped": True, "sha256": D.deck_digest(shipped)}
    assert cli("pyramids-deck", "--seed", 3, "-o", "mine.csv").exit_code == 0
    result = cli(command, "pyramids", "--players", 2, *strategies, "-n", 20, "--set", "deck=mine.csv",
                 "-o", "b.csv")
    assert result.exit_code == 0, result.output
    side = read_json(tmp_path / "b.json")
    assert side["rules"]["deck"] == "mine.csv"
    assert side["deck"] == {"path": str((tmp_path / "mine.csv").resolve()), "shipped": False,
                            "sha256": D.deck_digest(str(tmp_path / "mine.csv"))}
    assert side["deck"]["sha256"] != deck["sha256"]


def test_a_game_without_a_deck_has_no_deck_in_its_sidecar(cli, tmp_path):
    assert cli("run", "diamant", "-s", "expected-value", "-n", 100, "-o", "a.csv").exit_code == 0
    assert "deck" not in read_json(tmp_path / "a.json")
