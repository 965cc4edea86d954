"""Statistical pieces of the analyses, checked on data with a known answer; the tactic-card-value
analysis in quick mode (complete, coherent, deterministic)."""
import numpy as np
import pandas as pd
import pytest

from analyses.schotten_totten_ladder import bradley_terry


def test_bradley_terry_recovers_known_strengths():
    truth = np.array([0.0, 0.7, 1.5, -0.4])
    rng = np.random.default_rng(7)
    k, n = len(truth), 3000
    wins, games = np.zeros((k, k)), np.zeros((k, k))
    for a in range(k):
        for b in range(a + 1, k):
            w = rng.binomial(n, 1 / (1 + np.exp(truth[b] - truth[a])))
            wins[a, b], wins[b, a] = w, n - w
            games[a, b] = games[b, a] = n
    strength, se = bradley_terry(wins, games)
    assert strength[0] == 0 and se[0] == 0
    assert np.all(np.abs(strength - truth) < 4 * np.maximum(se, 1e-9))
    assert np.all(se[1:] > 0.01) and np.all(se[1:] < 0.1)
    # the same fit measured from strategy 2: strengths shift by its strength, the anchor's SE is 0
    shifted, se2 = bradley_terry(wins, games, anchor=2)
    assert shifted[2] == 0 and se2[2] == 0
    np.testing.assert_allclose(shifted, strength - strength[2], atol=1e-4)
    assert se2[0] == pytest.approx(se[2], rel=1e-3)


def test_bradley_terry_with_one_strategy_is_trivial():
    strength, se = bradley_terry(np.zeros((1, 1)), np.zeros((1, 1)))
    assert strength.tolist() == [0.0] and se.tolist() == [0.0]


# ---------------------------------------------------------------- schotten-totten-tactics-value
def test_tactic_card_values_attribute_each_card_to_the_seat_that_drew_it():
    from analyses.schotten_totten_tactics_value import CARDS, card_values
    fog, mud = 1 << 4, 1 << 5
    shares0 = np.array([1.0, 0.0, 0.5, 1.0])          # seat 0's result with every card
    extras = {"tactics_drawn0": np.array([fog, 0, fog | mud, mud]),
              "tactics_drawn1": np.array([0, fog, mud, mud]),
              "tactics_played0": np.array([fog, 0, 0, 0]), "tactics_played1": np.array([0, fog, 0, 0])}
    without0 = {c: np.full(4, 0.5) for c in CARDS}
    rows = {r["card"]: r for r in card_values(shares0, extras, without0)}
    f = rows["Fog"]   # held by seat 0 (deals 0, 2) and seat 1 (deal 1): with 1, 1, 0.5; without 0.5 each
    assert (f["holder_deals"], f["drawn_share"], f["both_drew_share"]) == (3, 0.75, 0.0)
    assert f["value"] == pytest.approx((0.5 + 0.5 + 0.0) / 3)
    assert f["holder_win_share"] == pytest.approx(2.5 / 3) and f["holder_win_share_without"] == 0.5
    assert f["holder_seat0_share"] == pytest.approx(2 / 3) and f["played_share"] == pytest.approx(2 / 3)
    # paired differences 0.5, 0.5, 0: standard deviation sqrt(1/12), standard error 1/6
    assert f["value_se"] == pytest.approx(1 / 6)
    ci = (1 / 3 - 1.96 / 6, 1 / 3 + 1.96 / 6)
    assert (f["value_ci_low"], f["value_ci_high"]) == pytest.approx(ci, abs=1e-3)
    z, n, p = 1.959964, 3, 2.5 / 3           # Wilson's interval for 2.5 wins in 3, written out
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert (f["holder_win_ci_low"], f["holder_win_ci_high"]) == pytest.approx((centre - half, centre + half))
    m = rows["Mud"]   # deals 2 and 3: both seats drew it, no single holder
    assert (m["holder_deals"], m["drawn_share"], m["both_drew_share"]) == (0, 0.5, 0.5)
    assert rows["Scout"]["drawn_share"] == 0 and rows["Scout"]["holder_deals"] == 0


@pytest.fixture(scope="module")
def tactics_value_runs(tmp_path_factory):
    from analyses import schotten_totten_tactics_value as tv
    outs = [tmp_path_factory.mktemp(f"tv-{i}") for i in range(2)]
    sections = [tv.run(out, quick=True, seed=tv.DEFAULT_SEED) for out in outs]
    return tv, outs, sections


def test_tactics_value_quick_run_writes_a_complete_table(tactics_value_runs):
    tv, (out, _), (section, _) = tactics_value_runs
    df = pd.read_csv(out / f"{tv.NAME}.csv")
    assert list(df.columns[:4]) == ["strategy", "card", "card_name", "group"]
    assert {"deals", "drawn_share", "value", "value_se", "value_ci_low", "value_ci_high",
            "holder_win_share", "holder_win_ci_low", "holder_win_ci_high", "holder_win_share_without",
            "holder_deals", "both_drew_share", "holder_seat0_share", "played_share"} <= set(df.columns)
    assert list(df.strategy.unique()) == [s for s, _ in tv.STRATEGIES]
    for strategy in df.strategy.unique():
        assert list(df[df.strategy == strategy].card) == tv.TOKENS
    assert df.value.between(-1, 1).all() and df.drawn_share.between(0, 1).all()
    assert (df.holder_deals <= df.deals).all() and (df.both_drew_share <= df.drawn_share).all()
    ok = df.holder_deals > 1
    assert ok.sum() >= 15
    assert (df.value_ci_low[ok] <= df.value[ok]).all() and (df.value[ok] <= df.value_ci_high[ok]).all()
    assert ((df.holder_win_ci_low[ok] <= df.holder_win_share[ok])
            & (df.holder_win_share[ok] <= df.holder_win_ci_high[ok])).all()
    assert np.allclose(df.value[ok], df.holder_win_share[ok] - df.holder_win_share_without[ok])
    random = df[df.strategy == "random"]
    assert (random.drawn_share > 0.9).all() and (random.value_se > 0).all()
    assert f"meeplelab analyse {tv.NAME}" in section.markdown and section.files == [
        f"{tv.NAME}.csv", f"{tv.NAME}.png"]
    assert (out / f"{tv.NAME}.png").stat().st_size > 10_000


def test_tactics_value_is_deterministic(tactics_value_runs):
    tv, (a, b), (sa, sb) = tactics_value_runs
    assert sa.markdown == sb.markdown
    for name in sa.files:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


# ---------------------------------------------------------------- first player, game shape
def test_first_player_and_game_shape_figures_are_those_of_the_games(tmp_path):
    """Each quick-run figure for random self-play, recomputed from the same seeded games played
    by the reference engine (the analyses use the fast one)."""
    from analyses import schotten_totten_first_player as fp, schotten_totten_game_shape as gs
    from sim.schotten_totten import reference
    from sim.schotten_totten.policies import random_policy
    from sim.schotten_totten.rules import SchottenTottenRules
    fp.run(tmp_path, quick=True, seed=5)
    gs.run(tmp_path, quick=True, seed=6)
    first = pd.read_csv(tmp_path / f"{fp.NAME}.csv")
    shape = pd.read_csv(tmp_path / f"{gs.NAME}.csv")
    n = fp.quick_games(200_000)
    assert set(first.preset) == set(shape.preset) == set(fp.PRESETS)

    def games(preset, seed):
        return reference.play_batch(SchottenTottenRules.preset(preset), 2, seed, 0, n,
                                    [random_policy] * 2, [np.zeros(1)] * 2)

    for preset in fp.PRESETS:
        row = first[(first.preset == preset) & (first.strategy == "random")].iloc[0]
        b = games(preset, 5)
        assert row.games == n and row.first_player_win_share == pytest.approx(b.shares[:, 0].mean())
        assert row.win_ci_low <= row.first_player_win_share <= row.win_ci_high
        assert row.edge == pytest.approx(row.first_player_win_share - 0.5)
        row = shape[(shape.preset == preset) & (shape.strategy == "random")].iloc[0]
        b = games(preset, 6)
        assert row.cards_played_mean == pytest.approx(b.extras["cards_played"].mean())
        assert row.proof_claims_mean == pytest.approx(b.extras["proof_claims"].mean())
        for end, code in reference.END_CODES.items():
            assert row[f"end_{end}"] == pytest.approx((b.extras["end"] == code).mean())
        assert row.end_adjacent + row.end_five + row.end_blocked == pytest.approx(1)
