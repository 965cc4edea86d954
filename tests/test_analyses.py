"""Statistical pieces of the analyses, checked on data with a known answer; the tactic-card-value
analysis in quick mode (complete, coherent, deterministic); the generic first-player, variants and
ladder analyses (analyses/first_player.py, variants.py, ladder.py) run from the games' studies,
against the reference engine's games."""
import numpy as np
import pandas as pd
import pytest

from analyses.bradley_terry import bradley_terry
from sim import games


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
    from analyses import first_player as fp, schotten_totten_game_shape as gs
    from analyses.common import quick_games
    from sim.schotten_totten import reference
    from sim.schotten_totten.policies import random_policy
    from sim.schotten_totten.rules import SchottenTottenRules
    game = games.get("schotten-totten")
    study = game.studies["first-player"]
    fp.run(game, tmp_path, quick=True, seed=5)
    gs.run(tmp_path, quick=True, seed=6)
    first = pd.read_csv(tmp_path / "schotten-totten-first-player.csv")
    shape = pd.read_csv(tmp_path / f"{gs.NAME}.csv")
    n = quick_games(dict(study.strategies)["random"])
    presets = [preset for _, preset, _ in study.setups]
    # a set-up of the study is a preset, under its own name
    assert [label for label, _, _ in study.setups] == presets
    assert set(first.setup) == set(shape.preset) == set(gs.PRESETS) == set(presets)
    assert list(first.columns[:10]) == ["setup", "players", "strategy", "games", "first_side",
                                        "first_win_share", "win_ci_low", "win_ci_high",
                                        "fair_share", "edge"]
    assert len(first) == len(study.strategies) * sum(len(p) for *_, p in study.setups)
    quick = {_label("schotten-totten", s): quick_games(g) for s, g in study.strategies}
    assert (first.games == first.strategy.map(quick)).all()

    def reference_games(preset, seed):
        return reference.play_batch(SchottenTottenRules.preset(preset), 2, seed, 0, n,
                                    [random_policy] * 2, [np.zeros(1)] * 2)

    for preset in presets:
        row = first[(first.setup == preset) & (first.strategy == "random")].iloc[0]
        b = reference_games(preset, 5)
        assert (b.extras["first"] == 0).all()         # seat 0 moves first in every preset
        assert row.games == n and row.players == 2 and row.first_side == "seat 0"
        assert row.first_win_share == pytest.approx(b.shares[:, 0].mean())
        assert row.win_ci_low <= row.first_win_share <= row.win_ci_high
        assert row.fair_share == 0.5 and row.edge == pytest.approx(row.first_win_share - 0.5)
        row = shape[(shape.preset == preset) & (shape.strategy == "random")].iloc[0]
        b = reference_games(preset, 6)
        assert row.cards_played_mean == pytest.approx(b.extras["cards_played"].mean())
        assert row.proof_claims_mean == pytest.approx(b.extras["proof_claims"].mean())
        for end, code in reference.END_CODES.items():
            assert row[f"end_{end}"] == pytest.approx((b.extras["end"] == code).mean())
        assert row.end_adjacent + row.end_five + row.end_blocked == pytest.approx(1)


# ---------------------------------------------------------------- CIV
@pytest.fixture(scope="module")
def civ_quick(tmp_path_factory):
    from analyses import civ_endings, first_player
    out = tmp_path_factory.mktemp("civ")
    section = first_player.run(games.get("civ"), out, quick=True, seed=7)
    civ_endings.run(out, quick=True, seed=7)
    return out, section


def _civ_reference_games(preset, spec, players, n, seed):
    """The same games on the reference engine (the analyses use the fast one)."""
    from sim.core.batch import Batch
    from strategies.play import play, resolve_rules
    batches = []
    play("civ", resolve_rules("civ", preset), [spec] * players, games=n, seed=seed,
         engine="reference", progress=False, on_batch=batches.append)
    return Batch.concat(sorted(batches, key=lambda b: b.first_game))


def _label(game, spec):
    from analyses.workbench.changes import short_label
    from strategies.registry import parse_spec
    return short_label(parse_spec(game, spec))


def test_civ_first_player_covers_every_set_up_and_is_the_games(civ_quick):
    from analyses.civ_common import QUICK_GAMES, SELF_PLAY, configurations
    from analyses.common import quick_games
    from sim.civ.reference import END_CODES
    out, section = civ_quick
    study = games.get("civ").studies["first-player"]
    df = pd.read_csv(out / "civ-first-player.csv")
    expected = [(_label("civ", s), setup, p) for s, _ in study.strategies
                for setup, _, players in study.setups for p in players]
    assert [(r.strategy, r.setup, r.players) for r in df.itertuples()] == expected
    # the same self-play as civ-endings (the same strategies, set-ups and quick games)
    assert [s for s, _ in study.strategies] == [s for s, _ in SELF_PLAY]
    assert [(setup, preset, p) for setup, preset, players in study.setups for p in players] == \
        list(configurations())
    quick = {_label("civ", s): quick_games(n) for s, n in study.strategies}
    assert (df.games == df.strategy.map(quick)).all() and (df.games == QUICK_GAMES).all()
    assert ((df.win_ci_low <= df.first_win_share) & (df.first_win_share <= df.win_ci_high)).all()
    assert np.allclose(df.edge, df.first_win_share - df.fair_share)
    assert {"hegemony", "hegemony_se", "turns", "turns_se"} <= set(df.columns)
    teams = df[df.setup == "teams"]
    assert (teams.fair_share == 0.5).all() and (teams.first_side == "team A (seats 0+2)").all()
    others = df[df.setup != "teams"]
    assert (others.first_side == "seat 0").all() and np.allclose(others.fair_share, 1 / others.players)
    for spec, preset, players, side in (("random", "civ-teams", 4, [0, 2]),
                                        ("random", "civ-draft", 3, [0]),
                                        ("random", "civ-classic", 2, [0]),
                                        ("greedy", "civ-draft", 2, [0])):
        b = _civ_reference_games(preset, spec, players, QUICK_GAMES, 7)
        assert (b.extras["first_player"] == 0).all()
        row = df[(df.strategy == _label("civ", spec)) & (df.setup == preset[4:])
                 & (df.players == players)].iloc[0]
        assert row.first_win_share == pytest.approx(b.shares[:, side].sum(axis=1).mean())
        turns = b.extras["turns"].astype(float)
        assert row.turns == pytest.approx(turns.mean())
        assert row.turns_se == pytest.approx(turns.std(ddof=1) / np.sqrt(len(turns)), rel=1e-6)
        hegemony = (b.extras["end"] == END_CODES["hegemony"]).astype(float)
        assert row.hegemony == pytest.approx(hegemony.mean())
        assert row.hegemony_se == pytest.approx(hegemony.std(ddof=1) / np.sqrt(len(hegemony)),
                                                rel=1e-6)
    assert "Seed: 7" in section.markdown and "meeplelab analyse civ-first-player" in section.markdown
    assert section.files == ["civ-first-player.csv", "civ-first-player.png"]
    assert (out / "civ-first-player.png").stat().st_size > 10_000


def test_civ_endings_shares_add_up_and_pair_with_classic(civ_quick):
    from analyses.civ_common import configurations
    from sim.civ.cards import DOMAINS
    out, _ = civ_quick
    df = pd.read_csv(out / "civ-endings.csv")
    domains = pd.read_csv(out / "civ-endings-domains.csv")
    assert len(df) == 2 * len(configurations()) and len(domains) == len(df) * len(DOMAINS)
    assert np.allclose(df.hegemony_share + df.majority_share, 1)
    by = domains.groupby(["strategy", "setup", "players"], sort=False).share_of_games.sum()
    assert np.allclose(by.to_numpy(), df.hegemony_share.to_numpy())
    assert ((df.turns_p10 <= df.turns_median) & (df.turns_median <= df.turns_p90)).all()
    # the same games as civ-first-player's (its strategy column carries the bound label)
    first = pd.read_csv(out / "civ-first-player.csv")
    first["strategy"] = first.strategy.str.split(":").str[0]
    both = df.merge(first, on=["strategy", "setup", "players"], validate="one_to_one")
    assert len(both) == len(df) == len(first)
    assert (both.games_x == both.games_y).all()
    assert np.allclose(both.hegemony_share, both.hegemony)
    assert np.allclose(both.mean_turns, both.turns)
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
    from analyses import variants
    from analyses.workbench import changes as C
    from sim.civ.rules import CivRules
    game = games.get("civ")
    study = game.studies["variants"]
    rulings = {p.name for p in CivRules.params() if p.ruling}
    flipped = {c.split("=", 1)[0] for v in study.variants for c in v.changes}
    assert rulings - {"teams"} <= flipped and "setup" in flipped
    assert len({v.label for v in study.variants}) == len(study.variants)
    for v in study.variants:
        rules = CivRules.preset(v.base).with_assignments(list(v.changes))   # valid, and a change
        assert rules != CivRules.preset(v.base), v.label
        for p in v.players:
            rules.check_players(p)
            # the analysis plays these rules against the base preset's
            base = variants.base_of(game, study, v.base, p)
            assert base.rules == CivRules.preset(v.base)
            assert C.variant("civ", base, "; ".join(v.changes), v.label).rules == rules, v.label


@pytest.fixture(scope="module")
def civ_variants_quick(tmp_path_factory):
    from analyses import variants
    out = tmp_path_factory.mktemp("civ-variants")
    section = variants.run(games.get("civ"), out, quick=True, seed=3)
    return out, section


def test_civ_variants_are_paired_with_their_base(civ_variants_quick):
    out, section = civ_variants_quick
    game = games.get("civ")
    study = game.studies["variants"]
    measures = [m.name for m in game.all_measures()]
    df = pd.read_csv(out / "civ-variants.csv")
    df["changes"] = df.changes.fillna("")
    is_base = df.changes == ""
    assert (df.variant[is_base] == "default (" + df.base[is_base] + ")").all()
    flipped = df[~is_base]
    # every variant at each of its player counts, after the base of its preset and player count
    assert sorted(zip(flipped.variant, flipped.players)) == sorted(
        (v.label, p) for v in study.variants for p in v.players)
    assert len(df[is_base]) == len({(v.base, p) for v in study.variants for p in v.players})
    by_label = {v.label: v for v in study.variants}
    assert (flipped.changes == flipped.variant.map(lambda x: "; ".join(by_label[x].changes))).all()
    assert (flipped.base == flipped.variant.map(lambda x: by_label[x].base)).all()
    assert (df.games == study.quick_games).all()
    base = df[is_base].set_index(["base", "players"])
    for r in flipped.itertuples():
        b = base.loc[(r.base, r.players)]
        row = r._asdict()
        for m in measures:
            # the paired difference, game by game, has the difference of the means as its mean
            assert row[f"{m}_vs_base"] == pytest.approx(row[m] - b[m], abs=1e-12), (r.variant, m)
        assert 0 <= r.result_changed <= r.games_changed <= 1
        for c in ("games_changed", "result_changed"):
            assert row[f"{c}_ci_low"] <= row[c] <= row[f"{c}_ci_high"]
        if r.games_changed == 0:      # no game changed: nothing may differ
            for m in measures:
                assert row[f"{m}_vs_base"] == 0 and row[f"{m}_vs_base_se"] == 0, (r.variant, m)
    # a different deal changes every game
    assert (flipped[flipped.variant == "draft set-up"].games_changed == 1).all()
    # the tidy table: every seat and every measure; the Hegemonies by Domain add up to all of them
    tidy = pd.read_csv(out / "civ-variants-differences.csv")
    from sim.civ.cards import DOMAINS
    for (variant, players), sub in tidy.groupby(["variant", "players"]):
        assert len(sub) == 2 + 2 * players + len(measures), (variant, players)
        game_rows = sub[sub.slot.isna()].set_index("measure")
        for col in ("base", "value"):
            total = sum(game_rows.loc[f"hegemony_{d}", col] for d in DOMAINS)
            assert total == pytest.approx(game_rows.loc["hegemony", col])
    assert set(zip(tidy.variant, tidy.players)) == set(zip(flipped.variant, flipped.players))
    assert "Seed: 3" in section.markdown and "meeplelab analyse civ-variants" in section.markdown


def test_civ_variants_base_and_draft_are_the_reference_engines_games(civ_variants_quick):
    """The base rules and the draft set-up at 2 players, recomputed from the same seeded games
    played by the reference engine."""
    from sim.civ.reference import END_CODES
    from sim.civ.rules import CivRules
    from sim.core.batch import Batch
    from strategies.play import play
    out, _ = civ_variants_quick
    study = games.get("civ").studies["variants"]
    df = pd.read_csv(out / "civ-variants.csv").set_index(["variant", "players"])
    for label, rules in (("default (civ-classic)", CivRules.preset("civ-classic")),
                         ("draft set-up", CivRules.preset("civ-classic").with_assignments(["setup=draft"]))):
        batches = []
        play("civ", rules, list(study.field) * 2, games=study.quick_games, seed=3,
             engine="reference", progress=False, on_batch=batches.append)
        b = Batch.concat(sorted(batches, key=lambda x: x.first_game))
        row = df.loc[(label, 2)]
        assert row.turns == pytest.approx(b.extras["turns"].mean()), label
        assert row.hegemony == pytest.approx((b.extras["end"] == END_CODES["hegemony"]).mean()), label
        assert row.first_edge == pytest.approx(b.shares[:, 0].mean() - 0.5), label


def test_civ_ladder_lists_every_strategy_once_per_domain_and_the_searchers_last():
    from analyses import ladder
    from strategies import registry
    from strategies.registry import parse_spec
    game = games.get("civ")
    full, quick = ladder.entries(game, quick=False), ladder.entries(game, quick=True)
    specs = [s for s, _ in full]
    assert specs[:3] == ["random", "greedy", "majority"]
    assert specs[3:9] == [f"domain-focus:domain={d}" for d in
                          ("military", "religion", "economy", "science", "art", "utopia")]
    assert [s for s in specs if s.startswith("domain-focus")] == specs[3:9]

    def name(spec):
        return parse_spec("civ", spec).strategy.name

    searchers = [s.name for s in registry.all_strategies("civ")
                 if s.origin == "built-in" and s.stochastic and s.name != "random"]
    assert sorted(searchers) == ["flat-mc", "ismcts"]
    assert [name(s) for s in specs[9:]] == ["flat-mc", "ismcts"] and len(specs) == 11
    # every built-in strategy of the registry plays
    assert {name(s) for s in specs} == {s.name for s in registry.all_strategies("civ")
                                        if s.origin == "built-in"}
    # the searchers with a budget of their own, and fewer games
    assert all(":" in s for s in specs[9:])
    assert max(n for _, n in full[9:]) < min(n for _, n in full[:9])
    # quick: the same strategies in the same order, a smaller budget
    assert [name(s) for s, _ in quick] == [name(s) for s in specs]
    assert [s for s, _ in quick[:9]] == specs[:9]
    assert all(nq <= nf for (_, nq), (_, nf) in zip(quick, full))
    assert ladder.entries(game, quick=False) == list(game.studies["ladder"].entries)
