"""The designers' workbench (analyses/workbench/): compare, sweep and tune, paired on the same
seeds, on every game; their exactness, their statistics and their bad input."""
import numpy as np
import pandas as pd
import pytest

from analyses.workbench import compare, sweep, tune
from analyses.workbench import sweeps as sweep_module
from analyses.workbench.changes import base_setup, split_items, variant
from analyses.workbench.comparison import COUNT_ROWS
from sim import games
from sim.core.errors import UsageError
from sim.core.stats import Z95, ExactSums
from strategies.play import play, resolve_rules

DIAMANT_FIELD = ["leave-after-hazards:k=2", "leave-at-gems:t=10", "expected-value", "leave-at-gems:t=14"]
GAMES = [g.name for g in games.all_games()]


def same_value_variant(game: str) -> str:
    """A variant that sets a rule to the value it already has."""
    rules = games.get(game).rules.preset()
    name = rules.packed_fields()[0]
    value = getattr(rules, name)
    return f"{name}={str(value).lower() if isinstance(value, bool) else value}"


# ---------------------------------------------------------------- compare
@pytest.mark.parametrize("game", GAMES)
def test_a_variant_equal_to_the_base_changes_nothing(game):
    df = compare(game, resolve_rules(game), ["random"], [same_value_variant(game)], games=30, seed=4)
    assert (df.value[df.measure.isin(COUNT_ROWS)] == 0).all()
    rest = df[~df.measure.isin(COUNT_ROWS)]
    assert (rest.difference == 0).all() and (rest.difference_se == 0).all()
    assert (rest.ci_low == 0).all() and (rest.ci_high == 0).all()
    assert (rest.value == rest.base).all()
    assert set(rest.measure) == {"win_share", "mean_score"} | {m.name for m in games.get(game).all_measures()}


def test_a_changed_rule_changes_games_and_the_table_is_the_paired_difference():
    base = resolve_rules("diamant")
    df = compare("diamant", base, DIAMANT_FIELD, ["hazard_copies=2"], games=3000, seed=2)
    changed = df[df.measure == "games_changed"].iloc[0]
    assert changed.value > 0.9 and changed.ci_low <= changed.value <= changed.ci_high
    # each arm is a run of its own rules on the same seed
    runs = [play("diamant", r, DIAMANT_FIELD, games=3000, seed=2, progress=False).table()
            for r in (base, base.replace(hazard_copies=2))]
    scores = df[df.measure == "mean_score"].set_index("slot")
    for seat in range(4):
        assert scores.base[seat] == runs[0].mean_score[seat]
        assert scores.value[seat] == runs[1].mean_score[seat]
        assert scores.difference[seat] == pytest.approx(runs[1].mean_score[seat] - runs[0].mean_score[seat])
    r = df[df.measure == "cards_revealed"].iloc[0]
    assert r.ci_low == pytest.approx(r.difference - Z95 * r.difference_se)


def test_pairing_narrows_the_interval():
    """Seat 1 leaving at 11 gems instead of 10: most games go the same way, so the paired
    difference is far more precise than two independent runs would make it."""
    df = compare("diamant", resolve_rules("diamant"), DIAMANT_FIELD, ["seat1.t=11"], games=5000,
                 seed=9, rotate=False)
    row = df[(df.measure == "mean_score") & (df.slot == 1)].iloc[0]
    assert row.strategy == "leave-at-gems:t=11"
    assert 0 < row.difference_se < 0.5 * row.unpaired_se


def test_a_strategy_variant_rotates_the_seats():
    df = compare("diamant", resolve_rules("diamant"), DIAMANT_FIELD, ["seat1=leave-at-gems:t=12"],
                 games=200, seed=1)
    assert df.attrs["rotations"] == 4 and df.attrs["games"] == 800 and df.attrs["main"] == "win_share:1"
    assert (df.games == 800).all()
    # seat 1's strategy sat in every seat: the same as a tournament-style rotation of plain runs
    totals = []
    for r in range(4):
        lineup = [DIAMANT_FIELD[(j + r) % 4] for j in range(4)]
        t = play("diamant", resolve_rules("diamant"), lineup, games=200, seed=1, progress=False).table()
        totals.append(t.mean_score[(1 - r) % 4])
    row = df[(df.measure == "mean_score") & (df.slot == 1)].iloc[0]
    assert row.base == pytest.approx(np.mean(totals))


def test_results_do_not_depend_on_the_chunking():
    args = ("schotten-totten", resolve_rules("schotten-totten", "tactics"), ["random"],
            ["first_player=random", "seat0=greedy"])
    a = compare(*args, games=700, seed=3)
    b = compare(*args, games=700, seed=3, chunk=64)
    pd.testing.assert_frame_equal(a, b)


def test_until_ci_stops_once_precise_enough():
    args = ("diamant", resolve_rules("diamant"), DIAMANT_FIELD, ["seat1.t=11"])
    df = compare(*args, games=1_000_000, seed=5, rotate=False, until_ci=0.05, main="mean_score:1",
                 chunk=500)
    a = df.attrs
    assert a["precision_reached"] and a["deals"] < 1_000_000 and a["deals"] % 500 == 0
    row = df[(df.measure == "mean_score") & (df.slot == 1)].iloc[0]
    assert Z95 * row.difference_se < 0.05
    # one chunk fewer was not enough
    fewer = compare(*args, games=a["deals"] - 500, seed=5, rotate=False, main="mean_score:1")
    row = fewer[(fewer.measure == "mean_score") & (fewer.slot == 1)].iloc[0]
    assert Z95 * row.difference_se >= 0.05


def test_compare_agrees_with_the_diamant_variants_analysis(tmp_path):
    from analyses import registry
    study = games.get("diamant").studies["variants"]
    registry.run("diamant-variants", tmp_path, quick=True)
    table = pd.read_csv(tmp_path / "diamant-variants.csv").set_index("variant")
    field = [study.field[i % len(study.field)] for i in range(4)]
    df = compare("diamant", resolve_rules("diamant", "diamant-2005"), field, ["hazard_copies=2"],
                 games=study.quick_games, seed=study.seed).set_index("measure")
    row = table.loc["2 hazard copies"]
    for m in ("cards_revealed", "disasters", "score_spread"):
        assert row[m] == df.value[m] and row[f"{m}_vs_base"] == df.difference[m]
        assert row[f"{m}_vs_base_se"] == df.difference_se[m]
    assert row.games_changed == df.value["games_changed"]
    assert table.loc["default (diamant-2005)", "cards_revealed"] == df.base["cards_revealed"]


# ---------------------------------------------------------------- variants and grids as text
def test_variant_items_split_on_semicolons_and_before_keys():
    assert split_items("diamant", "rounds=4,hazard_copies=4") == ["rounds=4", "hazard_copies=4"]
    assert split_items("schotten-totten", "tactic_cards=Fog,Mud;seat0=flat-mc:sims=10,prune=4") == [
        "tactic_cards=Fog,Mud", "seat0=flat-mc:sims=10,prune=4"]
    base = base_setup("diamant", resolve_rules("diamant"), ["leave-at-gems:t=10"], 3)
    v = variant("diamant", base, "incan-gold-2006;rounds=4,seat2.t=7")
    assert v.rules.rounds == 4 and v.rules.artifacts != "none"
    assert [b.label for b in v.lineup] == ["leave-at-gems:t=10"] * 2 + ["leave-at-gems:t=7"]


@pytest.mark.parametrize("text, message", [
    ("tomb_pts=4", "unknown key 'tomb_pts'.*allowed: rule parameters \\(.*rounds"),
    ("rounds=0", "rounds"),
    ("seat7=random", "seat 7 does not exist"),
    ("seat0.q=3", "unknown parameter of strategy 'leave-at-gems' 'q'"),
    ("nonsense", "neither key=value, a diamant preset"),
])
def test_a_bad_variant_names_what_is_allowed(text, message):
    base = base_setup("diamant", resolve_rules("diamant"), ["leave-at-gems:t=10"], 4)
    with pytest.raises(UsageError, match=message):
        variant("diamant", base, text)


def test_grid_values_and_ranges():
    assert sweep_module.parse_values("k", "1..4") == ["1", "2", "3", "4"]
    assert sweep_module.parse_values("k", "1..3,7") == ["1", "2", "3", "7"]
    assert sweep_module.parse_values("p", "0.1..0.3:0.1") == ["0.1", "0.2", "0.3"]
    assert sweep_module.parse_values("tactic_cards", "Fog|Mud|Fog,Mud") == ["Fog", "Mud", "Fog,Mud"]
    for text, message in (("3..1", "empty range"), ("0.1..0.5", "needs a step"), ("1,,2", "empty value")):
        with pytest.raises(UsageError, match=message):
            sweep_module.parse_values("k", text)


@pytest.mark.parametrize("grid, message", [
    ([], "empty grid"),
    (["seat0.k=0..100", "rounds=1..100", "hazard_copies=1..2"], "at most 10,000"),
    (["tomb_pts=1,2"], "unknown key 'tomb_pts'"),
    (["rounds=0,1"], "rounds"),
])
def test_a_bad_grid_stops_before_anything_runs(grid, message, monkeypatch):
    monkeypatch.setattr(sweep_module, "play_arms", lambda *a, **k: pytest.fail("played"))
    with pytest.raises(UsageError, match=message):
        sweep("diamant", resolve_rules("diamant"), ["leave-after-hazards:k=2"], grid, games=10)


# ---------------------------------------------------------------- sweep
def test_a_sweep_point_is_a_run_bit_for_bit():
    rules = resolve_rules("diamant")
    df = sweep("diamant", rules, DIAMANT_FIELD, ["seat0.k=1..3"], games=4000, seed=8, rotate=False)
    assert df.attrs["points"] == 3 and list(df.drop_duplicates("point")["seat0.k"]) == ["1", "2", "3"]
    point = df[df.label == "seat0.k=2"]
    t = play("diamant", rules, DIAMANT_FIELD, games=4000, seed=8, progress=False).table()
    for measure, column, se in (("mean_score", "mean_score", "se_score"), ("win_share", "win_share", None)):
        rows = point[point.measure == measure].sort_values("slot")
        assert rows.value.tolist() == t[column].tolist()
        if se:
            assert rows.se.tolist() == t[se].tolist()
    wins = point[point.measure == "win_share"].sort_values("slot")
    assert wins.ci_low.tolist() == t.win_ci_low.tolist() and wins.ci_high.tolist() == t.win_ci_high.tolist()


def test_the_best_point_and_its_paired_lead_over_the_runner_up():
    rules = resolve_rules("diamant")
    df = sweep("diamant", rules, DIAMANT_FIELD, ["seat0.k=1..4"], games=3000, seed=2, rotate=False)
    b = df.attrs["best"]
    wins = df[(df.measure == "win_share") & (df.slot == 0)].set_index("label").value
    assert b["label"] == wins.idxmax() and b["value"] == wins.max()
    assert b["runner_up"] == wins.drop(b["label"]).idxmax()
    # the lead, paired on the same games, is the mean of the per-game differences
    per_game = [play("diamant", rules, [label.replace("seat0.k=", "leave-after-hazards:k=")] + DIAMANT_FIELD[1:],
                     games=3000, seed=2, progress=False, on_batch=None)
                for label in (b["label"], b["runner_up"])]
    assert b["advantage"] == pytest.approx(per_game[0].table().win_share[0] - per_game[1].table().win_share[0])
    assert b["advantage_ci_low"] < b["advantage"] < b["advantage_ci_high"]


def test_a_two_key_sweep_is_the_cross_product_and_estimates_its_time(monkeypatch):
    said = []
    monkeypatch.setattr(sweep_module, "ESTIMATE_GAMES", 1000)
    df = sweep("diamant", resolve_rules("diamant"), ["expected-value"], ["hazard_copies=2..3", "rounds=3,5"],
               games=500, seed=1, objective="cards_revealed", echo=said.append)
    labels = list(dict.fromkeys(df.label))
    assert labels == ["hazard_copies=2, rounds=3", "hazard_copies=2, rounds=5",
                      "hazard_copies=3, rounds=3", "hazard_copies=3, rounds=5"]
    assert any("estimated" in m for m in said)
    assert df.attrs["best"]["label"] == "hazard_copies=2, rounds=5"        # the longest games


def test_an_interrupted_sweep_keeps_the_points_that_finished(interrupt_third_sweep_point):
    df = sweep("diamant", resolve_rules("diamant"), DIAMANT_FIELD, ["seat0.k=1..5"], games=200,
               seed=1, rotate=False)
    assert df.attrs["interrupted"] and df.attrs["points_done"] == 2 and set(df.point) == {0, 1}


# ---------------------------------------------------------------- tune
def test_tune_finds_the_exact_best_threshold_of_tiny_solo_diamant():
    """Alone at the table, the exact expected score of every leave-at-gems threshold is known
    (tests/test_diamant_solo.py evaluates a policy exactly): the seeded study must find the best,
    and the confirmation must show it better than the default t=10."""
    from strategies.registry import get
    from test_diamant_solo import evaluate, tiny
    rules = tiny("tiny")
    kernel = get("diamant", "leave-at-gems").kernel
    exact = {t: evaluate(rules, kernel, np.array([float(t)])) for t in range(0, 19)}
    best = max(exact, key=exact.get)
    h = tune("diamant", rules, "leave-at-gems", ["t=0..18"], [], trials=25, games=40_000,
             confirm_games=100_000, seed=3)
    a = h.attrs
    assert a["objective"] == "mean_score:0" and a["trials"] == 25
    assert a["best_params"] == {"t": best}
    assert h.trial.tolist() == list(range(25)) and h.t[0] == 10          # the defaults first
    assert (h.best_so_far.diff().fillna(0) >= 0).all()
    from analyses.workbench.tuner import confirmed
    c = confirmed(h)
    assert c["better"] and c["games"] == 100_000
    assert c["diff"] == pytest.approx(exact[best] - exact[10], abs=4 * c["diff_se"])
    # the study is seeded: the same history again
    again = tune("diamant", rules, "leave-at-gems", ["t=0..18"], [], trials=25, games=40_000,
                 confirm_games=100_000, seed=3)
    pd.testing.assert_frame_equal(h, again)


@pytest.mark.parametrize("param, message", [
    ("t=5..5", "empty range"), ("t=9..2", "empty range"), ("t=-1..5", "out of range"),
    ("q=1..2", "unknown parameter"), ("t=1:5", "expected NAME=LO..HI"),
])
def test_a_bad_tuning_range_is_refused(param, message):
    with pytest.raises(UsageError, match=message):
        tune("diamant", resolve_rules("diamant", "solo"), "leave-at-gems", [param], [], trials=1, games=1)


def test_exact_sums_are_exact_at_any_size():
    """A block recorded in int64 and one too large for it give the sums Python's integers give."""
    scores = np.array([[3, -1], [7, 2], [0, 5]], np.int64)
    shares = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    values = np.array([[1.5, 2.0, -0.25]])
    base = np.arange(15, dtype=np.int64).reshape(3, 5)
    for scale in (1, 2**40):           # int64 kernel, then Python integers
        s, d = ExactSums(5), ExactSums(5)
        u = s.record(scores * scale, shares, [1, 0], values, base, d)
        cols = [[round(x) for x in col] for col in (
            shares[:, 1] * 840, shares[:, 0] * 840, scores[:, 1] * 840 * scale,
            scores[:, 0] * 840 * scale, values[0] * 840)]
        assert u.T.tolist() == cols
        assert s.s == [sum(c) for c in cols] and s.s2 == [sum(x * x for x in c) for c in cols]
        diffs = [[x - int(b) for x, b in zip(c, base[:, j])] for j, c in enumerate(cols)]
        assert d.s == [sum(c) for c in diffs] and d.s2 == [sum(x * x for x in c) for c in diffs]
