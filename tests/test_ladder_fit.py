"""The ladders' rating fit (analyses/bradley_terry.py, through the generic ladder analyses/ladder.py
run from a fake study),
checked against values computed independently: closed forms (two strategies; a chain of
pairings, where the likelihood splits pair by pair), symmetries, an independent Newton fit with the Fisher information built pair by pair, and the
ladder's tables computed from scripted game results (no games are played here)."""
import dataclasses
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from analyses import bradley_terry as round_robin_module
from analyses import ladder
from analyses.bradley_terry import bradley_terry
from sim import games
from sim.core.game import LadderStudy

ELO_PER_UNIT = 173.71779276130073    # 400 / ln 10, written out
Z95 = 1.959963984540054              # the 97.5% normal quantile, written out


def reference_fit(wins, games, anchor=0):
    """Bradley-Terry by Fisher scoring with step halving, written independently of the module:
    each played pairing gets half a win each way and one more game; the information is summed
    pair by pair and inverted with the anchor's row and column deleted."""
    k = len(wins)
    w, n = np.array(wins, float), np.array(games, float)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k) if n[i, j] > 0]
    for i, j in pairs:
        w[i, j] += 0.5
        w[j, i] += 0.5
        n[i, j] += 1
        n[j, i] += 1
    free = [i for i in range(k) if i != anchor]

    def sigma(x):
        return 1 / (1 + np.exp(-x))

    def loglik(s):
        return sum(w[i, j] * np.log(sigma(s[i] - s[j])) + w[j, i] * np.log(sigma(s[j] - s[i]))
                   for i, j in pairs)

    def info(s):
        m = np.zeros((k, k))
        for i, j in pairs:
            p = sigma(s[i] - s[j])
            v = n[i, j] * p * (1 - p)
            m[i, i] += v
            m[j, j] += v
            m[i, j] -= v
            m[j, i] -= v
        return m

    s = np.zeros(k)
    for _ in range(200):
        grad = np.zeros(k)
        for i, j in pairs:
            r = w[i, j] - n[i, j] * sigma(s[i] - s[j])     # observed minus expected wins of i
            grad[i] += r
            grad[j] -= r
        step = np.zeros(k)
        step[free] = np.linalg.solve(info(s)[np.ix_(free, free)], grad[free])
        t = 1.0
        while loglik(s + t * step) < loglik(s) - 1e-12 and t > 1e-6:
            t /= 2
        s = s + t * step
        if np.abs(t * step).max() < 1e-12:
            break
    cov = np.linalg.inv(info(s)[np.ix_(free, free)])
    se = np.zeros(k)
    se[free] = np.sqrt(np.diag(cov))
    return s, se


def tournament(truth, games, seed):
    """Binomial results of every pairing; games[a, b] games between a and b."""
    rng = np.random.default_rng(seed)
    k = len(truth)
    wins = np.zeros((k, k))
    for a in range(k):
        for b in range(a + 1, k):
            w = rng.binomial(int(games[a, b]), 1 / (1 + np.exp(truth[b] - truth[a])))
            wins[a, b], wins[b, a] = w, games[a, b] - w
    return wins


# Unequal numbers of games per pairing, as in the ladder (a pair plays the smaller budget).
GAMES = np.array([[0, 4000, 60, 400, 120],
                  [4000, 0, 60, 400, 120],
                  [60, 60, 0, 60, 60],
                  [400, 400, 60, 0, 120],
                  [120, 120, 60, 120, 0]], float)
TRUTH = np.array([0.0, 1.2, 2.0, 0.6, 1.7])


def test_two_strategies_have_the_closed_form_with_half_a_win_each_way():
    # 30.5 wins to 9.5 (one draw counted half each way), plus the prior's half a win each way
    wins = np.array([[0, 30.5], [9.5, 0]])
    games = np.array([[0, 40.0], [40.0, 0]])
    strength, se = bradley_terry(wins, games)
    assert strength[0] == 0 and se[0] == 0
    assert strength[1] == pytest.approx(np.log(10 / 31), abs=1e-6)
    # the information is (n + 1) p (1 - p) with p = 31 / 41, so the variance is 1/31 + 1/10
    assert se[1] == pytest.approx(np.sqrt(1 / 31 + 1 / 10), rel=1e-6)
    back, se_back = bradley_terry(wins, games, anchor=1)
    np.testing.assert_allclose(back, [np.log(31 / 10), 0], atol=1e-6)
    np.testing.assert_allclose(se_back, [np.sqrt(1 / 31 + 1 / 10), 0], rtol=1e-6)


def test_a_clean_sweep_gets_a_finite_strength_from_the_prior():
    strength, se = bradley_terry(np.array([[0, 0.0], [50, 0]]), np.array([[0, 50.0], [50, 0]]))
    assert strength[1] == pytest.approx(np.log(50.5 / 0.5), abs=1e-5)
    assert se[1] == pytest.approx(np.sqrt(1 / 50.5 + 1 / 0.5), rel=1e-5)


def test_a_chain_of_pairings_splits_into_independent_pairs_and_unplayed_pairs_get_no_prior():
    # 0 plays 1 and 1 plays 2; 0 never meets 2. The likelihood factors pair by pair, so each
    # step is a two-strategy closed form, and the variances of the steps add up.
    wins = np.array([[0, 20, 0], [40, 0, 5], [0, 55, 0]], float)
    games = np.array([[0, 60, 0], [60, 0, 60], [0, 60, 0]], float)
    strength, se = bradley_terry(wins, games)
    np.testing.assert_allclose(strength, [0, np.log(40.5 / 20.5), np.log(40.5 / 20.5 * 55.5 / 5.5)],
                               atol=1e-5)
    v01, v12 = 1 / 40.5 + 1 / 20.5, 1 / 55.5 + 1 / 5.5
    np.testing.assert_allclose(se, [0, np.sqrt(v01), np.sqrt(v01 + v12)], rtol=1e-5)
    # measured from the middle strategy, each end carries the variance of its own step only
    mid, se_mid = bradley_terry(wins, games, anchor=1)
    np.testing.assert_allclose(mid, strength - strength[1], atol=1e-5)
    np.testing.assert_allclose(se_mid, [np.sqrt(v01), 0, np.sqrt(v12)], rtol=1e-5)


@pytest.mark.parametrize("anchor", range(5))
def test_fit_and_standard_errors_match_an_independent_fit_and_the_inverse_fisher_information(anchor):
    wins = tournament(TRUTH, GAMES, seed=11)
    wins[2, 4] -= 0.5          # a draw: half a win each way
    wins[4, 2] += 0.5
    strength, se = bradley_terry(wins, GAMES, anchor=anchor)
    ref, ref_se = reference_fit(wins, GAMES, anchor=anchor)
    assert strength[anchor] == 0 and se[anchor] == 0
    np.testing.assert_allclose(strength, ref, atol=1e-4)
    np.testing.assert_allclose(se, ref_se, rtol=1e-4, atol=1e-9)


def test_an_anchor_measures_standard_errors_of_differences():
    wins = tournament(TRUTH, GAMES, seed=12)
    s0, _ = reference_fit(wins, GAMES, anchor=0)
    k = len(TRUTH)
    # covariance of the strengths measured from strategy 0, from the information written out
    info = np.zeros((k, k))
    played = GAMES > 0
    n = GAMES + played
    for i in range(k):
        for j in range(k):
            if i != j and played[i, j]:
                p = 1 / (1 + np.exp(s0[j] - s0[i]))
                info[i, j] = -n[i, j] * p * (1 - p)
    info[np.diag_indices(k)] = -info.sum(axis=1)
    cov = np.zeros((k, k))
    cov[1:, 1:] = np.linalg.inv(info[1:, 1:])
    for anchor in (2, 4):
        strength, se = bradley_terry(wins, GAMES, anchor=anchor)
        np.testing.assert_allclose(strength, s0 - s0[anchor], atol=1e-4)
        expect = np.sqrt(np.diag(cov) + cov[anchor, anchor] - 2 * cov[:, anchor])
        np.testing.assert_allclose(se, expect, rtol=1e-4, atol=1e-9)


def test_relabelling_the_strategies_permutes_the_fit():
    wins = tournament(TRUTH, GAMES, seed=13)
    strength, se = bradley_terry(wins, GAMES)
    perm = np.array([3, 0, 4, 2, 1])           # new strategy i is old strategy perm[i]
    new_anchor = int(np.where(perm == 0)[0][0])
    s2, se2 = bradley_terry(wins[np.ix_(perm, perm)], GAMES[np.ix_(perm, perm)], anchor=new_anchor)
    np.testing.assert_allclose(s2, strength[perm], atol=1e-4)
    np.testing.assert_allclose(se2, se[perm], rtol=1e-4, atol=1e-9)


def test_swapping_winners_and_losers_negates_the_strengths_and_keeps_the_errors():
    wins = tournament(TRUTH, GAMES, seed=14)
    strength, se = bradley_terry(wins, GAMES)
    flipped, se_flipped = bradley_terry(wins.T, GAMES)
    np.testing.assert_allclose(flipped, -strength, atol=1e-4)
    np.testing.assert_allclose(se_flipped, se, rtol=1e-4)


def test_self_play_on_the_diagonal_changes_nothing():
    wins = tournament(TRUTH, GAMES, seed=15)
    strength, se = bradley_terry(wins, GAMES)
    selfplay = np.diag([100.0, 50, 20, 80, 10])
    s2, se2 = bradley_terry(wins + selfplay / 2, GAMES + selfplay)
    np.testing.assert_allclose(s2, strength, atol=1e-5)
    np.testing.assert_allclose(se2, se, rtol=1e-5)


def test_strategies_with_no_chain_of_games_to_the_anchor_get_no_strength():
    # 0, 1, 2 play each other; 3 and 4 play only each other: their strengths have no common scale
    truth = np.array([0.0, 0.7, -0.4, 0.0, 0.9])
    games = np.zeros((5, 5))
    games[np.ix_([0, 1, 2], [0, 1, 2])] = 300
    games[3, 4] = games[4, 3] = 300
    np.fill_diagonal(games, 0)
    wins = tournament(truth, games, seed=17)
    strength, se = bradley_terry(wins, games)
    assert np.isnan(strength[3:]).all() and np.isnan(se[3:]).all()
    group = np.ix_([0, 1, 2], [0, 1, 2])
    alone, alone_se = bradley_terry(wins[group], games[group])
    np.testing.assert_allclose(strength[:3], alone, atol=1e-9)
    np.testing.assert_allclose(se[:3], alone_se, rtol=1e-9)
    # anchored inside the other group, the roles swap
    other, other_se = bradley_terry(wins, games, anchor=4)
    assert np.isnan(other[:3]).all() and np.isnan(other_se[:3]).all()
    pair = np.ix_([3, 4], [3, 4])
    np.testing.assert_allclose(other[3:], bradley_terry(wins[pair], games[pair], anchor=1)[0], atol=1e-9)


@pytest.mark.parametrize("anchor", [-1, 5])
def test_an_anchor_outside_the_strategies_is_refused(anchor):
    with pytest.raises(ValueError, match="anchor must be a strategy index from 0 to 4"):
        bradley_terry(np.zeros((5, 5)), GAMES, anchor=anchor)


def test_a_large_tournament_recovers_known_strengths():
    games = np.where(np.eye(5) > 0, 0, 20_000.0)
    wins = tournament(TRUTH, games, seed=16)
    strength, se = bradley_terry(wins, games, anchor=3)
    assert np.all(np.abs(strength - (TRUTH - TRUTH[3])) < 4 * np.maximum(se, 1e-12))
    assert np.all(se[[0, 1, 2, 4]] > 0.005) and np.all(se[[0, 1, 2, 4]] < 0.02)


def test_standard_errors_match_the_spread_over_repeated_tournaments():
    truth = np.array([0.0, 0.8, -0.5])
    games = np.array([[0, 2000, 500], [2000, 0, 1000], [500, 1000, 0]], float)
    fits = [bradley_terry(tournament(truth, games, seed=100 + r), games, anchor=1) for r in range(120)]
    strengths = np.array([f[0] for f in fits])
    errors = np.array([f[1] for f in fits])
    spread = strengths.std(axis=0, ddof=1)[[0, 2]]
    np.testing.assert_allclose(strengths.mean(axis=0), truth - truth[1], atol=0.02)
    # 120 replicates estimate a standard deviation to about 7%
    np.testing.assert_allclose(errors.mean(axis=0)[[0, 2]] / spread, 1, atol=0.2)


# ---------------------------------------------------------------- the ladder's tables
# greedy deliberately not second, so the vs_greedy anchor is a real reordering
FAKE_LADDER = [("random", 400), ("flat-mc:sims=3", 30), ("greedy", 200), ("ismcts:iters=5", 60)]
FAKE_TRUTH = {"random": 0.0, "flat-mc:sims=3": 2.2, "greedy": 1.4, "ismcts:iters=5": 1.9}
SEAT_BONUS = 0.35


def first_seat_share(sa, sb, n):
    """Scripted win share of the first seat when sa moves first against sb (a multiple of 1/n)."""
    p = 1 / (1 + np.exp(-(FAKE_TRUTH[sa] - FAKE_TRUTH[sb] + SEAT_BONUS)))
    return round(p * n) / n


# the quick ladder of the fake study: if the full run took it, the calls would show it
FAKE_QUICK_LADDER = [("random", 3), ("greedy", 3)]


@pytest.fixture
def fake_game():
    """Schotten Totten with a fake ladder study (its strategies are never played here)."""
    study = LadderStudy(preset="base", entries=tuple(FAKE_LADDER),
                        quick_entries=tuple(FAKE_QUICK_LADDER), seed=99, title="fake ladder",
                        short=(("flat-mc", "fmc"),), note="A fake ladder.")
    return dataclasses.replace(games.get("schotten-totten"), studies={"ladder": study})


@pytest.fixture
def ladder_tables(tmp_path, monkeypatch, fake_game):
    calls, resolved, plotted = [], [], []

    def fake_play(game, rules, lineup, games, seed, progress, partial):
        sa, sb = lineup
        assert game == "schotten-totten" and rules == "rules of base" and seed == 1
        calls.append((sa, sb, games))
        share = first_seat_share(sa, sb, games)
        return SimpleNamespace(table=lambda: pd.DataFrame({"win_share": [share, 1 - share]}))

    def fake_rules(game, preset):
        resolved.append((game, preset))
        return f"rules of {preset}"

    monkeypatch.setattr(round_robin_module, "play", fake_play)
    monkeypatch.setattr(ladder, "resolve_rules", fake_rules)
    monkeypatch.setattr(ladder, "plot_ladder", lambda *a, **k: plotted.append(a))
    section = ladder.run(fake_game, tmp_path, quick=False, seed=1)
    assert resolved == [("schotten-totten", "base")]
    assert section.name == "schotten-totten-ladder" and "Seed: 1" in section.markdown
    assert section.files == ["schotten-totten-ladder.csv", "schotten-totten-ladder-ratings.csv",
                             "schotten-totten-ladder.png"]
    assert "A fake ladder." in section.markdown
    # the figure gets the labels shortened as the study says, in the ladder's order
    (_, _, labels, path, title), = plotted
    assert labels == [s.replace("flat-mc", "fmc") for s, _ in FAKE_LADDER] and title == "fake ladder"
    matrix = pd.read_csv(tmp_path / "schotten-totten-ladder.csv")
    ratings = pd.read_csv(tmp_path / "schotten-totten-ladder-ratings.csv")
    return matrix, ratings, calls


def test_a_ladder_takes_its_entries_from_the_study(fake_game):
    assert ladder.entries(fake_game, quick=False) == FAKE_LADDER
    assert ladder.entries(fake_game, quick=True) == FAKE_QUICK_LADDER


def expected_counts():
    """wins[a, b] and games[a, b] summed by hand over both seatings."""
    labels = [s for s, _ in FAKE_LADDER]
    k = len(labels)
    wins, games = np.zeros((k, k)), np.zeros((k, k))
    for a, (sa, na) in enumerate(FAKE_LADDER):
        for b, (sb, nb) in enumerate(FAKE_LADDER):
            if a < b:
                n = min(na, nb)
                a_first, b_first = first_seat_share(sa, sb, n), first_seat_share(sb, sa, n)
                wins[a, b] = n * a_first + n * (1 - b_first)
                wins[b, a] = n * (1 - a_first) + n * b_first
                games[a, b] = games[b, a] = 2 * n
    return labels, wins, games


def test_ladder_matrix_counts_both_seatings_with_wilson_intervals(ladder_tables):
    matrix, _, calls = ladder_tables
    labels, wins, games = expected_counts()
    budgets = dict(FAKE_LADDER)
    assert sorted(calls) == sorted((sa, sb, min(budgets[sa], budgets[sb]))
                                   for sa in labels for sb in labels if sa != sb)
    assert len(matrix) == len(labels) * (len(labels) - 1)
    for r in matrix.itertuples():
        a, b = labels.index(r.strategy), labels.index(r.opponent)
        n, p = games[a, b], wins[a, b] / games[a, b]
        assert r.games == n
        assert r.win_share == pytest.approx(p)
        centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
        half = Z95 * np.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
        assert (r.win_ci_low, r.win_ci_high) == pytest.approx((centre - half, centre + half))
    # the two directions of a pairing share out every game
    m = matrix.set_index(["strategy", "opponent"]).win_share
    for sa in labels:
        for sb in labels:
            if sa != sb:
                assert m[sa, sb] + m[sb, sa] == pytest.approx(1)


def test_ladder_ratings_elo_intervals_and_vs_greedy(ladder_tables):
    _, ratings, _ = ladder_tables
    labels, wins, games = expected_counts()
    assert ratings.strategy.tolist() == labels
    s, se = reference_fit(wins, games, anchor=0)
    g = labels.index("greedy")
    vs, vs_se = reference_fit(wins, games, anchor=g)
    np.testing.assert_allclose(ratings.bradley_terry, s, atol=1e-4)
    np.testing.assert_allclose(ratings.se, se, rtol=1e-4, atol=1e-9)
    np.testing.assert_allclose(ratings.ci_low, s - Z95 * se, atol=1e-3)
    np.testing.assert_allclose(ratings.ci_high, s + Z95 * se, atol=1e-3)
    np.testing.assert_allclose(ratings.elo, ELO_PER_UNIT * s, atol=1e-2)
    np.testing.assert_allclose(ratings.elo_se, ELO_PER_UNIT * se, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(ratings.vs_greedy, vs, atol=1e-4)
    np.testing.assert_allclose(ratings.vs_greedy_se, vs_se, rtol=1e-4, atol=1e-9)
    assert ratings.vs_greedy[g] == 0 and ratings.vs_greedy_se[g] == 0
    # the scripted truth orders the strategies: flat-mc > ismcts > greedy > random
    order = ratings.sort_values("bradley_terry").strategy.tolist()
    assert order == ["random", "greedy", "ismcts:iters=5", "flat-mc:sims=3"]
