"""The quick report: every analysis runs, the index is complete, output is deterministic."""
import pandas as pd
import pytest

from analyses import registry, report
from analyses.diamant_leave_threshold import GEM_T, HAZARD_K, PLAYER_COUNTS


@pytest.fixture(scope="module")
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
    from analyses.diamant_variants import VARIANTS
    out, _ = quick_reports
    df = pd.read_csv(out / "diamant-variants.csv")
    assert list(df.variant) == [v[0] for v in VARIANTS]
    assert (df.cards_per_game > 0).all() and (df.se_cards > 0).all()
    base = df.set_index("variant")
    # more hazard copies make caves shorter; IELLO's deck of 35 makes them longer than 2005
    assert base.loc["4 hazard copies", "cards_per_game"] < base.loc["diamant-2005", "cards_per_game"]
