"""The tournament's bookkeeping, on scripted games: who sits where in each rotation, that every
rotation plays the same deals, and the per-strategy and head-to-head sums and intervals."""
import types

import numpy as np
import pytest

import strategies.tournament as tournament_module
from sim.core.batch import Batch
from sim.core.runner import RunInfo
from sim.core.stats import wilson
from strategies.registry import parse_spec

SPECS = ["always-continue", "leave-at-gems:t=10", "leave-after-hazards:k=2"]
# scores by strategy and deal: A 10 or 12, B and C always 5 (the top score takes the win)
SCRIPT = {0: [10, 12, 10, 12], 1: [5] * 4, 2: [5] * 4}


def test_tournament_bookkeeping_on_scripted_games(monkeypatch):
    labels = [parse_spec("diamant", s).label for s in SPECS]
    lineups, seeds = [], []

    def scripted_play(game, rules, seats, *, games, seed, on_batch, **options):
        ids = [labels.index(b.label) for b in seats]
        lineups.append(ids)
        seeds.append(seed)
        for first in (0, 2):                                   # two chunks of two deals
            scores = np.array([[SCRIPT[i][g] for i in ids] for g in range(first, first + 2)])
            top = (scores == scores.max(axis=1, keepdims=True)).astype(float)
            on_batch(Batch(first, scores, top / top.sum(axis=1, keepdims=True), {}))
        return types.SimpleNamespace(info=RunInfo(games, games, 0.0, 1, False))

    monkeypatch.setattr(tournament_module, "play", scripted_play)
    result = tournament_module.tournament("diamant", None, SPECS, 3, deals=4, seed=9)
    # rotation r puts strategy (seat + r) mod 3 in each seat, on the same deals (one seed)
    assert lineups == [[0, 1, 2], [1, 2, 0], [2, 0, 1]] and seeds == [9, 9, 9]
    a, b, c = labels

    table = result.table().set_index("strategy")
    assert table.games.tolist() == [12, 12, 12] and table.win_share.tolist() == [1.0, 0.0, 0.0]
    assert table.mean_score[a] == 11 and table.se_score[a] == pytest.approx(np.sqrt(1 / 11))
    assert table.se_score[b] == 0
    assert table.win_ci_low[a] == pytest.approx(wilson(12, 12)[0])

    h2h = result.head_to_head().set_index(["strategy", "opponent"])
    assert (h2h.win_rate[a, b], h2h.win_rate[b, a], h2h.win_rate[b, c]) == (1.0, 0.0, 0.5)
    assert (h2h.mean_diff[a, b], h2h.mean_diff[b, a]) == (6.0, -6.0)
    assert h2h.se_diff[a, b] == pytest.approx(np.sqrt(1 / 11))
    assert h2h.win_ci_low[a, b] == pytest.approx(wilson(12, 12)[0])
    assert h2h.win_ci_low[b, c] == pytest.approx(wilson(6, 12)[0])      # ties count half
    assert h2h.games.tolist() == [12] * 6

    matrix = result.matrix()
    assert (matrix.loc[a, b], matrix.loc[b, a], matrix.loc[b, c]) == (1.0, 0.0, 0.5)
    assert list(matrix.index) == labels and list(matrix.columns) == labels
