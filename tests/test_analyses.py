"""Statistical pieces of the analyses, checked on data with a known answer; the tactic-card-value
analysis in quick mode (complete, coherent, deterministic)."""
import dataclasses

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


# ---------------------------------------------------------------- CIV
@pytest.fixture(scope="module")
def civ_quick(tmp_path_factory):
    from analyses import civ_endings, civ_first_player
    out = tmp_path_factory.mktemp("civ")
    civ_first_player.run(out, quick=True, seed=7)
    civ_endings.run(out, quick=True, seed=7)
    return out


def _civ_reference_games(preset, spec, players, n, seed):
    """The same games on the reference engine (the analyses use the fast one)."""
    from sim.core.batch import Batch
    from strategies.play import play, resolve_rules
    batches = []
    play("civ", resolve_rules("civ", preset), [spec] * players, games=n, seed=seed,
         engine="reference", progress=False, on_batch=batches.append)
    return Batch.concat(sorted(batches, key=lambda b: b.first_game))


def test_civ_first_player_covers_every_set_up_and_is_the_games(civ_quick):
    from analyses.civ_common import QUICK_GAMES, SELF_PLAY, configurations
    df = pd.read_csv(civ_quick / "civ-first-player.csv")
    assert [(r.strategy, r.setup, r.players) for r in df.itertuples()] == [
        (s, setup, p) for s, _ in SELF_PLAY for setup, _, p in configurations()]
    assert (df.games == QUICK_GAMES).all()
    assert ((df.win_ci_low <= df.first_win_share) & (df.first_win_share <= df.win_ci_high)).all()
    assert np.allclose(df.edge, df.first_win_share - df.fair_share)
    teams = df[df.setup == "teams"]
    assert (teams.fair_share == 0.5).all() and (teams.side == "team A (seats 0+2)").all()
    assert (df[df.setup != "teams"].side == "seat 0").all()
    for preset, players, side in (("civ-teams", 4, [0, 2]), ("civ-draft", 3, [0])):
        b = _civ_reference_games(preset, "random", players, QUICK_GAMES, 7)
        row = df[(df.strategy == "random") & (df.setup == preset[4:]) & (df.players == players)].iloc[0]
        assert row.first_win_share == pytest.approx(b.shares[:, side].sum(axis=1).mean())
        assert row.mean_turns == pytest.approx(b.extras["turns"].mean())


def test_civ_endings_shares_add_up_and_pair_with_classic(civ_quick):
    from analyses.civ_common import configurations
    from sim.civ.cards import DOMAINS
    df = pd.read_csv(civ_quick / "civ-endings.csv")
    domains = pd.read_csv(civ_quick / "civ-endings-domains.csv")
    assert len(df) == 2 * len(configurations()) and len(domains) == len(df) * len(DOMAINS)
    assert np.allclose(df.hegemony_share + df.majority_share, 1)
    by = domains.groupby(["strategy", "setup", "players"], sort=False).share_of_games.sum()
    assert np.allclose(by.to_numpy(), df.hegemony_share.to_numpy())
    assert ((df.turns_p10 <= df.turns_median) & (df.turns_median <= df.turns_p90)).all()
    first = pd.read_csv(civ_quick / "civ-first-player.csv")      # the same games
    assert np.allclose(first.hegemony_share, df.hegemony_share)
    classic = df[df.setup == "classic"].set_index(["strategy", "players"])
    other = df[df.setup != "classic"]
    assert classic.hegemony_vs_classic.isna().all()
    for r in other.itertuples():
        base = classic.loc[(r.strategy, r.players)]
        assert r.hegemony_vs_classic == pytest.approx(r.hegemony_share - base.hegemony_share)
        assert r.turns_vs_classic == pytest.approx(r.mean_turns - base.mean_turns)
    b = _civ_reference_games("civ-classic", "greedy", 2, int(df.games[0]), 7)
    row = df[(df.strategy == "greedy") & (df.setup == "classic") & (df.players == 2)].iloc[0]
    assert row.hegemony_share == pytest.approx((b.extras["end"] == 1).mean())


def test_civ_variants_flip_every_ruling_but_teams():
    from analyses.civ_variants import VARIANTS
    from sim.civ.rules import CivRules
    rulings = {p.name for p in CivRules.params() if p.ruling}
    flipped = {k for _, _, changes, _ in VARIANTS for k in changes}
    assert rulings - {"teams"} <= flipped and "setup" in flipped
    for label, base, changes, players in VARIANTS:
        rules = CivRules.preset(base).replace(**changes)      # valid, and a change
        assert rules != CivRules.preset(base), label
        for p in players:
            rules.check_players(p)


@pytest.fixture(scope="module")
def civ_variants_quick(tmp_path_factory):
    from analyses import civ_variants
    out = tmp_path_factory.mktemp("civ-variants")
    section = civ_variants.run(out, quick=True, seed=3)
    return civ_variants, out, section


def test_civ_variants_are_paired_with_their_base(civ_variants_quick):
    cv, out, section = civ_variants_quick
    df = pd.read_csv(out / f"{cv.NAME}.csv", keep_default_na=False, na_values=[""])
    flipped = df[~df.variant.str.startswith("default")]
    assert len(flipped) == sum(len(p) for *_, p in cv.VARIANTS)
    assert (df.games == cv.QUICK_GAMES).all()
    base = df[df.variant.str.startswith("default")].set_index(["base", "players"])
    for r in flipped.itertuples():
        b = base.loc[(r.base, r.players)]
        assert r.edge_vs_base == pytest.approx(r.first_win_share - b.first_win_share)
        assert r.hegemony_vs_base == pytest.approx(r.hegemony_share - b.hegemony_share)
        assert r.turns_vs_base == pytest.approx(r.mean_turns - b.mean_turns)
        assert r.result_changed_share <= r.changed_share
        if r.changed_share == 0:      # no game changed: nothing may differ
            assert r.edge_vs_base == r.hegemony_vs_base == r.turns_vs_base == 0
    # a different deal changes every game
    assert (flipped[flipped.variant == "draft set-up"].changed_share == 1).all()
    domains = pd.read_csv(out / f"{cv.NAME}-domains.csv")
    assert len(domains) == 6 * len(df)
    assert "Seed: 3" in section.markdown and f"meeplelab analyse {cv.NAME}" in section.markdown


def test_civ_ladder_takes_every_built_in_strategy_and_searchers_with_a_budget(monkeypatch):
    from analyses import civ_ladder
    from strategies import registry
    specs = [s for s, _ in civ_ladder.ladder()]
    assert specs[:3] == ["random", "greedy", "majority"]
    assert [s for s in specs if s.startswith("domain-focus")] == [
        f"domain-focus:domain={d}" for d in ("military", "religion", "economy", "science", "art", "utopia")]
    builtin = [s for s in registry.all_strategies("civ") if s.origin == "built-in"]
    fake = [dataclasses.replace(builtin[0], name="flat-mc", stochastic=True),
            dataclasses.replace(builtin[0], name="new-search", stochastic=True),
            dataclasses.replace(builtin[0], name="plugin-search", stochastic=True, origin="plugin x.py")]
    monkeypatch.setattr(civ_ladder, "all_strategies", lambda game: builtin + fake)
    entries = civ_ladder.ladder()
    assert entries[-2:] == [(civ_ladder.SEARCH_SPECS["flat-mc"], "search"), ("new-search", "search")]
    assert len(entries) == len(specs) + 2
