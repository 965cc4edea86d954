"""`meeplelab position`: who can claim each stone of a written position, and what strategies play."""
import pytest
from click.testing import CliRunner

from sim.core.errors import UsageError
from sim.schotten_totten.rules import SchottenTottenRules
from strategies import schotten_totten_position as positions

pytestmark = pytest.mark.usefixtures("clean_registry")

# stone 0: seat 0's 9-8-7 colour run can't be beaten; stone 1: equal sums, seat 1 completed first;
# stone 3: purple 2-3 would only tie seat 0's run, and seat 0 completed first
CLAIMS = """turn 0
hand0 R1 R2 Y9 B9 G4 P7
hand1 ?
0: R9 R8 R7 / G1 G2
1: O4 O5 O6 / B4 B5 B6 | first1
3: Y1 Y2 Y3 / P1
"""
# seat 0 holds stones 0 and 1; R7 at stone 2 makes an unbeatable run there: a win at once
WIN_NOW = """turn 0
hand0 R7 G1 G2 B3 P4 Y5
hand1 ?
0: O9 O8 O7 / B1 P2 Y3 | claimed0
1: Y9 Y8 Y7 / O1 G3 P5 | claimed0
2: R9 R8 / -
"""


def test_stone_table_statuses():
    table = positions.stone_table(CLAIMS)
    status = dict(zip(table["stone"], table["status"]))
    assert status[0] == status[3] == "seat 0 can claim"
    assert status[1] == "seat 1 can claim"
    assert status[2] == "open"
    assert list(table.columns) == ["stone", "seat_0", "seat_1", "environment", "status"]
    assert positions.stone_table(WIN_NOW)["status"][0] == "claimed by seat 0"


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("spec", ["greedy", "flat-mc:sims=10", "ismcts:iters=100"])
def test_every_strategy_takes_the_winning_move(spec, seed):
    # ismcts used to play Y5 here with seeds 1 and 2: every move wins almost always, so its
    # visits were spread evenly (search.py, decisive moves)
    out = positions.choices(WIN_NOW, [spec], SchottenTottenRules.preset("base"), seed=seed)
    assert out.loc[0, "action"] == "play R7 at 2"
    assert out.loc[0, "seat"] == 0 and out.loc[0, "strategy"] == spec


def test_unknown_opponent_hand_is_dealt_to_the_hand_size():
    g = positions.game_at(CLAIMS, SchottenTottenRules.preset("base"), seed=1)
    assert len(g.hands[1]) == 6 and len(g.hands[0]) == 6
    assert sorted(positions.game_at(CLAIMS, SchottenTottenRules.preset("base"), seed=1).hands[1]) \
        == sorted(g.hands[1])


def test_a_strategy_needs_the_movers_hand():
    with pytest.raises(UsageError, match=r"hand1 is unknown"):
        positions.choices(CLAIMS.replace("turn 0", "turn 1"), ["greedy"],
                          SchottenTottenRules.preset("base"))


def test_cli_position_with_strategies(cli, tmp_path):
    (tmp_path / "p.txt").write_text(WIN_NOW)
    result = cli("position", "schotten-totten", "p.txt", "-s", "greedy", "-s", "random", "--seed", 4)
    assert result.exit_code == 0, result.output
    assert "rules base; seat 0 to move" in result.stdout
    assert "claimed by seat 0" in result.stdout
    assert "play R7 at 2" in result.stdout
    again = cli("position", "schotten-totten", "p.txt", "-s", "greedy", "-s", "random", "--seed", 4)
    assert again.stdout == result.stdout


def test_cli_position_reads_stdin_and_picks_tactics_rules():
    from meeplelab.cli import main
    text = "turn 0\nhand0 Chief1 R1\n0: R9 R8 / -\n"
    result = CliRunner().invoke(main, ["position", "schotten-totten", "-", "-s", "greedy"], input=text)
    assert result.exit_code == 0, result.output
    assert "rules tactics" in result.stdout


@pytest.mark.parametrize("args,fragments", [
    (["position", "diamant", "p.txt"], ["diamant: no position notation", "schotten-totten"]),
    (["position", "chess", "p.txt"], ["chess"]),
    (["position", "schotten-totten", "missing.txt"], ["missing.txt"]),
    (["position", "schotten-totten", "bad.txt"], ["unknown line"]),
    (["position", "schotten-totten", "p.txt", "-s", "greedy"], ["hand0 is unknown"]),
    (["position", "schotten-totten", "p.txt", "-s", "nope"], ["nope"]),
    (["position", "schotten-totten", "p.txt", "--preset", "nope"], ["nope"]),
])
def test_cli_position_bad_input(cli, tmp_path, args, fragments):
    (tmp_path / "p.txt").write_text("0: R9 R8 R7 / G1 G2\n")
    (tmp_path / "bad.txt").write_text("0: R9 / -\nwhatever 3\n")
    result = cli(*args)
    assert result.exit_code == 2, (result.exit_code, result.output)
    for fragment in fragments:
        assert fragment in result.stderr, (fragment, result.stderr)


PLUGIN = '''
from strategies.registry import strategy

@strategy("schotten-totten", "last-action")
def last_action(obs, params, rng):
    """Plays the action at index {n_legal} (the last legal one, or one past it)."""
    return {n_legal}
'''


def test_cli_position_with_a_plugin_and_a_broken_one(cli, tmp_path):
    from sim.schotten_totten import observation as O
    (tmp_path / "p.txt").write_text(WIN_NOW)
    good = PLUGIN.replace("{n_legal}", f"obs[{O.N_LEGAL}] - 1")
    (tmp_path / "good.py").write_text(good)
    result = cli("position", "schotten-totten", "p.txt", "--plugin", "good.py", "-s", "last-action")
    assert result.exit_code == 0, result.output
    assert "last-action" in result.stdout and "legal_actions" in result.stdout
    (tmp_path / "bad.py").write_text(PLUGIN.replace("{n_legal}", f"obs[{O.N_LEGAL}]"))
    result = cli("position", "schotten-totten", "p.txt", "--plugin", "bad.py", "-s", "last-action")
    assert result.exit_code == 2, result.output
    assert "returned illegal action" in result.stderr
