"""Statistical pieces of the analyses, checked on data with a known answer."""
import numpy as np
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


def test_bradley_terry_with_one_strategy_is_trivial():
    strength, se = bradley_terry(np.zeros((1, 1)), np.zeros((1, 1)))
    assert strength.tolist() == [0.0] and se.tolist() == [0.0]
