"""The quick report: every analysis runs, the index is complete, output is deterministic."""
import pandas as pd
import pytest

from analyses import registry, report
from analyses.diamant_leave_threshold import GEM_T, HAZARD_K, PLAYER_COUNTS
from sim import games

# `make test` (--dist loadgroup): the two quick reports (half a minute each) are built in one xdist
# worker only; pyproject.toml pins the pytest that keeps the groups
pytestmark = pytest.mark.xdist_group("quick-report")


def test_the_quick_reports_tests_are_one_xdist_group(request):
    """Under `--dist loadgroup` xdist marks a grouped test's id with its group; a pytest that
    loses the mark (pytest-dev/pytest-xdist#1386) would build the quick reports in every worker."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run by pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@quick-report")


@pytest.fixture(scope="session")
def quick_reports(tmp_path_factory):
    a, b = tmp_path_factory.mktemp("report-a"), tmp_path_factory.mktemp("report-b")
    report.build(a, quick=True, echo=lambda m: None)
    report.build(b, quick=True, echo=lambda m: None)
    return a, b


def test_every_analysis_writes_its_files_and_a_section(quick_reports):
    out, _ = quick_reports
    index = (out / "README.md").read_text()
    for a in registry.all_analyses():
        assert f"## {a.title}" in index
        assert f"meeplelab analyse {a.name}" in index
    for line in index.splitlines():
        if line.startswith("![") or "`diamant-" in line and ".csv" in line:
            for name in [w.strip("`(),") for w in line.replace("](", " ").split() if w.strip("`(),").endswith((".png", ".csv"))]:
                assert (out / name).is_file(), name
    assert "Seed:" in index and "games:" in index and "Quick mode" in index


def test_report_is_byte_for_byte_reproducible(quick_reports):
    a, b = quick_reports
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    png = (a / "diamant-variants.png").read_bytes()
    assert b"Software" not in png and b"date" not in png.lower()


def test_leave_threshold_table_is_complete_and_coherent(quick_reports):
    out, _ = quick_reports
    df = pd.read_csv(out / "diamant-leave-threshold.csv")
    assert len(df) == len(PLAYER_COUNTS) * (len(HAZARD_K) + len(GEM_T))
    assert set(df.players) == set(PLAYER_COUNTS)
    assert ((df.win_ci_low <= df.win_share) & (df.win_share <= df.win_ci_high)).all()
    assert (df.se_score > 0).all()
    solo = df[df.players == 1]
    assert (solo.win_share == 1).all()
    best = pd.read_csv(out / "diamant-leave-threshold-best.csv")
    assert {"players", "family", "criterion", "best", "value", "runner_up", "advantage",
            "se_advantage"} <= set(best.columns)


def test_variants_table_has_every_variant(quick_reports):
    out, _ = quick_reports
    study = games.get("diamant").studies["variants"]
    df = pd.read_csv(out / "diamant-variants.csv")
    assert list(df.variant) == ["default (diamant-2005)"] + [v.label for v in study.variants]
    assert df.changes.isna()[0] and df.changes[1:].notna().all()
    assert (df.players == 4).all() and (df.games == study.quick_games).all()
    assert (df.cards_revealed > 0).all() and (df.cards_revealed_se > 0).all()
    base = df.set_index("variant")
    # more hazard copies make caves shorter, paired with the base on the same seeds
    short = base.loc["4 hazard copies"]
    assert short.cards_revealed_vs_base < 0
    assert short.cards_revealed < base.loc["default (diamant-2005)", "cards_revealed"]
    assert short.cards_revealed_vs_base == pytest.approx(
        short.cards_revealed - base.loc["default (diamant-2005)", "cards_revealed"])
    assert short.games_changed > 0.5


def test_the_civ_ladder_is_a_complete_round_robin(quick_reports):
    """(Read from the quick report, which the session builds anyway.)"""
    from analyses import ladder
    out, _ = quick_reports
    civ = games.get("civ")
    budget = dict(ladder.entries(civ, quick=True))
    specs = list(budget)
    matrix = pd.read_csv(out / "civ-ladder.csv").set_index(["strategy", "opponent"])
    ratings = pd.read_csv(out / "civ-ladder-ratings.csv")
    assert ratings.strategy.tolist() == specs and ratings.bradley_terry[0] == 0
    assert len(matrix) == len(specs) * (len(specs) - 1)
    for a in specs:
        for b in specs:
            if a != b:      # the same games seen from both sides
                assert matrix.win_share[a, b] + matrix.win_share[b, a] == pytest.approx(1)
                assert matrix.games[a, b] == 2 * min(budget[a], budget[b])   # both seatings
    assert ratings.set_index("strategy").vs_greedy["greedy"] == 0
    assert civ.studies["ladder"].note in (out / "README.md").read_text()


def _generic_files(game, suffix, study) -> list[str]:
    name = f"{game.name}-{suffix}"
    return {"first-player": [f"{name}.csv", f"{name}.png"],
            "ladder": [f"{name}.csv", f"{name}-ratings.csv", f"{name}.png"],
            "variants": [f"{name}.csv", f"{name}-differences.csv"]
                        + ([f"{name}-sweep.csv", f"{name}-best.csv"] if getattr(study, "sweep_key", "") else [])
                        + [f"{name}.png"],
            "tuning": [f"{name}.csv", f"{name}-history.csv", f"{name}.png"]}[suffix]


def test_every_generic_analysis_writes_its_files(quick_reports):
    """Every game's first-player, ladder, variants and tuning sections, from its studies."""
    import importlib
    from analyses.common import quick_games
    from analyses.workbench.changes import short_label
    from strategies.registry import parse_spec
    out, _ = quick_reports
    index = (out / "README.md").read_text()
    seen = set()
    for g in games.all_games():
        for mod_name in g.analysis_modules:
            m = importlib.import_module(mod_name)
            if not registry.is_generic(m):
                continue
            suffix, study, name = m.SUFFIX, g.studies[m.SUFFIX], f"{g.name}-{m.SUFFIX}"
            seen.add(suffix)
            assert f"## {m.title(g)}" in index and f"meeplelab analyse {name}" in index, name
            assert f"Seed: {study.seed}" in index, name
            for f in _generic_files(g, suffix, study):
                assert (out / f).is_file() and (out / f).stat().st_size > 0, f
                assert f"`{f}`" in index, f
            df = pd.read_csv(out / f"{name}.csv")
            if suffix == "first-player":
                quick = {short_label(parse_spec(g.name, s)): quick_games(n) for s, n in study.strategies}
                assert [(r.strategy, r.setup, r.players) for r in df.itertuples()] == [
                    (short_label(parse_spec(g.name, s)), label, p) for s, _ in study.strategies
                    for label, _, players in study.setups for p in players], name
                assert (df.games == df.strategy.map(quick)).all(), name
                assert ((df.win_ci_low <= df.first_win_share)
                        & (df.first_win_share <= df.win_ci_high)).all(), name
                for measure in study.measures:
                    assert {measure, f"{measure}_se"} <= set(df.columns), name
            elif suffix == "ladder":
                specs = [s for s, _ in study.quick_entries]
                ratings = pd.read_csv(out / f"{name}-ratings.csv")
                assert ratings.strategy.tolist() == specs, name
                assert len(df) == len(specs) * (len(specs) - 1), name
            elif suffix == "variants":
                assert len(df) == len({(v.base, p) for v in study.variants for p in v.players}) + sum(
                    len(v.players) for v in study.variants), name
                assert (df.games == study.quick_games).all(), name
                if study.sweep_key:
                    best = pd.read_csv(out / f"{name}-best.csv")
                    assert list(best.columns) == ["variant", "players", "objective", "best",
                                                  "best_value", "best_se", "runner_up", "advantage",
                                                  "advantage_se"], name
                    assert set(best.variant) == set(df.variant), name
                    assert set(best.best.astype(str)) <= {str(v) for v in study.sweep_values}, name
            elif suffix == "tuning":
                assert {"tuned_better", "ci_low", "ci_high", "difference"} <= set(df.columns), name
                # the player count tuned at first, then those where the tuned set is checked
                assert df.players.tolist() == [study.players, *getattr(study, "check_players", ())], name
                assert (df.strategy == study.strategy).all(), name
                assert ((df.ci_low <= df.difference) & (df.difference <= df.ci_high)).all(), name
                assert (df.tuned_better == (df.ci_low > 0)).all(), name
                assert len(pd.read_csv(out / f"{name}-history.csv")) > 0, name
    assert seen == {"first-player", "ladder", "variants", "tuning"}


# ---------------------------------------------------------------- the index over partial runs
class _Stub:
    """An analysis whose run writes one file and a section naming the run (or is interrupted)."""

    def __init__(self, name, log, interrupt=False):
        self.NAME, self.TITLE, self.interrupt, self.log = name, f"Stub {name}", interrupt, log

    def run(self, out_dir, quick=False, seed=0):
        if self.interrupt:
            raise KeyboardInterrupt
        self.log.append(self.NAME)
        (out_dir / f"{self.NAME}.csv").write_text(f"run {len(self.log)}\n")
        return registry.Section(self.NAME, self.TITLE, f"## {self.TITLE}\n\nrun {len(self.log)}, quick={quick}\n",
                                [f"{self.NAME}.csv"])


@pytest.fixture
def stubs(monkeypatch):
    log, mods = [], {}

    def analyses():
        return [registry.Analysis(n, m.TITLE, "", 0, m) for n, m in mods.items()]

    for name in ("first", "second", "third"):
        mods[name] = _Stub(name, log)
    monkeypatch.setattr(registry, "all_analyses", analyses)
    return mods, log


def _sections(index):
    text = index.read_text()
    return [line for line in text.splitlines() if line.startswith("run ")], text


def test_only_rewrites_its_own_sections_and_keeps_the_others_in_order(tmp_path, stubs):
    mods, log = stubs
    index = report.build(tmp_path, echo=lambda m: None)
    assert _sections(index)[0] == ["run 1, quick=False", "run 2, quick=False", "run 3, quick=False"]
    report.build(tmp_path, only=["second"], echo=lambda m: None)
    runs, text = _sections(index)
    assert runs == ["run 1, quick=False", "run 4, quick=False", "run 3, quick=False"]
    assert text.index("- [Stub first]") < text.index("- [Stub second]") < text.index("- [Stub third]")
    assert text.count("<!-- analysis: ") == 3 and "Quick mode" not in text
    assert log == ["first", "second", "third", "second"]


def test_an_index_of_the_other_mode_is_not_mixed_in(tmp_path, stubs):
    report.build(tmp_path, quick=True, echo=lambda m: None)
    said = []
    index = report.build(tmp_path, only=["third"], echo=said.append)
    runs, text = _sections(index)
    assert runs == ["run 4, quick=False"] and "Quick mode" not in text and "Stub first" not in text
    assert any("--quick" in m for m in said)


def test_an_interrupted_report_indexes_what_finished_and_keeps_the_rest(tmp_path, stubs):
    mods, log = stubs
    report.build(tmp_path, echo=lambda m: None)
    mods["second"].interrupt = True
    with pytest.raises(KeyboardInterrupt):
        report.build(tmp_path, echo=lambda m: None)
    # first ran again, second was interrupted (its old section stays), third never started
    assert _sections(tmp_path / "README.md")[0] == ["run 4, quick=False", "run 2, quick=False",
                                                    "run 3, quick=False"]
    # interrupted before anything finished: the index is left as it was
    before = (tmp_path / "README.md").read_bytes()
    with pytest.raises(KeyboardInterrupt):
        report.build(tmp_path, only=["second"], echo=lambda m: None)
    assert (tmp_path / "README.md").read_bytes() == before
    # and no index is made from nothing
    with pytest.raises(KeyboardInterrupt):
        report.build(tmp_path / "new", only=["second"], echo=lambda m: None)
    assert not (tmp_path / "new" / "README.md").exists()


def test_an_index_without_markers_is_replaced(tmp_path, stubs):
    (tmp_path / "README.md").write_text("# an index of an older version\n\n## Stub first\n\nold\n")
    index = report.build(tmp_path, only=["first"], echo=lambda m: None)
    runs, text = _sections(index)
    assert runs == ["run 1, quick=False"] and "old" not in text


def test_a_full_report_runs_each_games_analyses_once_that_game_is_compiled(monkeypatch):
    """From an empty cache the report compiles its games in parallel (strategies/warmup.py)
    and runs a game's analyses as soon as it is ready, while the others compile; analyses of
    no game first. A report of one game's analyses, or a quick one, starts no process."""
    import contextlib
    import strategies.warmup
    calls = []

    @contextlib.contextmanager
    def warming(processes, names):
        calls.append((processes, names))
        yield iter([("diamant", 1.0), ("civ", 2.0)])       # diamant happens to be ready first

    monkeypatch.setattr(strategies.warmup, "warming", warming)
    monkeypatch.setattr(report.os, "cpu_count", lambda: 2)
    stub = registry.Analysis("stub", "Stub", "", 0, _Stub("stub", []))
    chosen = [registry.get("civ-endings"), registry.get("diamant-variants"),
              registry.get("civ-ladder"), stub]
    lines = []
    order = [a.name for a in report._in_compile_order(chosen, False, lines.append)]
    assert order == ["stub", "diamant-variants", "civ-endings", "civ-ladder"]
    assert calls == [(2, ["civ", "diamant"])] and "diamant: " in lines[0] and "civ: " in lines[1]
    assert list(report._in_compile_order(chosen[:1], False, lines.append)) == chosen[:1]
    assert list(report._in_compile_order(chosen, True, lines.append)) == chosen
    assert len(calls) == 1
