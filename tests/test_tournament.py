"""The tournament's bookkeeping, on scripted games: who sits where in each rotation, that every
rotation plays the same deals, and the per-strategy and head-to-head sums and intervals."""
import types

import numpy as np
import pytest

import strategies.tournament as tournament_module
from sim.core.batch import Batch
from sim.core.runner import RunInfo
from sim.civ.rules import CivRules
from sim.core.stats import wilson
from sim.diamant.rules import DiamantRules
from strategies.play import play
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
    result = tournament_module.tournament("diamant", DiamantRules.preset(), SPECS, 3, deals=4,
                                          seed=9)
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


# ---------------------------------------------------------------- team play (CIV's civ-teams)
def _team_script(monkeypatch, labels, lineups):
    """Scripted 4-seat team games: team A (seats 0 and 2) scores 3 and always wins, team B
    scores 1; each seat's share is half its team's."""
    def scripted_play(game, rules, seats, *, games, seed, on_batch, **options):
        lineups.append([labels.index(b.label) for b in seats])
        scores = np.tile([3, 1, 3, 1], (games, 1))
        on_batch(Batch(0, scores, np.tile([0.5, 0.0, 0.5, 0.0], (games, 1)), {}))
        return types.SimpleNamespace(info=RunInfo(games, games, 0.0, 1, False))
    monkeypatch.setattr(tournament_module, "play", scripted_play)


def test_team_play_counts_a_strategy_once_a_game_with_its_teams_result(monkeypatch):
    specs = ["greedy", "random"]
    labels = [parse_spec("civ", s).label for s in specs]
    lineups = []
    _team_script(monkeypatch, labels, lineups)
    result = tournament_module.tournament("civ", CivRules.preset("civ-teams"), specs, 4, deals=5, seed=1)
    assert lineups == [[0, 1, 0, 1], [1, 0, 1, 0]]       # each strategy a whole team in turn
    table = result.table().set_index("strategy")
    # 2 rotations x 5 deals, one count per game; team A won them all: each strategy half
    assert table.games.tolist() == [10, 10] and table.win_share.tolist() == [0.5, 0.5]
    assert table.win_ci_low[labels[0]] == pytest.approx(wilson(5, 10)[0])
    assert table.mean_score.tolist() == [2.0, 2.0]
    assert table.se_score[labels[0]] == pytest.approx(np.sqrt(10 / 9 / 10))   # 3 or 1, five each
    h2h = result.head_to_head().set_index(["strategy", "opponent"])
    assert h2h.games.tolist() == [10, 10] and h2h.win_rate[labels[0], labels[1]] == 0.5
    assert h2h.mean_diff[labels[0], labels[1]] == 0.0


def test_team_play_with_a_strategy_on_both_teams_takes_the_mean_of_its_seats(monkeypatch):
    specs = ["greedy", "random", "majority"]
    labels = [parse_spec("civ", s).label for s in specs]
    lineups = []
    _team_script(monkeypatch, labels, lineups)
    result = tournament_module.tournament("civ", CivRules.preset("civ-teams"), specs, 4, deals=4, seed=1)
    assert lineups == [[0, 1, 2, 0], [1, 2, 0, 1], [2, 0, 1, 2]]
    table = result.table().set_index("strategy")
    # greedy: rotation 0 in seats 0 (A) and 3 (B): 0.5 a game; rotation 1 seat 2 (A): 1;
    # rotation 2 seat 1 (B): 0. One count a game: 12 games, not 16 seat-games
    assert table.games.tolist() == [12, 12, 12]
    assert table.win_share.tolist() == pytest.approx([0.5, 0.5, 0.5])
    assert table.mean_score[labels[0]] == pytest.approx(2.0)       # scores 2, 3, 1 four times each
    assert table.se_score[labels[0]] == pytest.approx(np.sqrt(8 / 11 / 12))
    h2h = result.head_to_head().set_index(["strategy", "opponent"])
    # greedy against random: rotation 0 seats {0, 3} against {1}: a win and a tie, 0.75 a game;
    # rotation 1 seat 2 against seats {0, 3}: a tie and a win, 0.75; rotation 2 B against A: 0
    assert h2h.games[labels[0], labels[1]] == 12
    assert h2h.win_rate[labels[0], labels[1]] == pytest.approx(0.5)
    assert h2h.mean_diff[labels[0], labels[1]] == pytest.approx(0.0)
    assert h2h.se_diff[labels[0], labels[1]] == pytest.approx(np.sqrt(24 / 11 / 12))  # 1, 1, -2


# ---------------------------------------------------------------- head-to-head: what decides the game
def test_head_to_head_follows_the_win_not_the_score(monkeypatch):
    """A CIV Hegemony: seat 0 wins on 2 points against 5. The head-to-head is the winner's,
    and two seats that both lost are even whatever their points."""
    specs = ["greedy", "random", "majority"]
    labels = [parse_spec("civ", s).label for s in specs]

    def scripted_play(game, rules, seats, *, games, seed, on_batch, **options):
        scores = np.tile([2, 5, 4], (games, 1))
        on_batch(Batch(0, scores, np.tile([1.0, 0.0, 0.0], (games, 1)), {}))
        return types.SimpleNamespace(info=RunInfo(games, games, 0.0, 1, False))

    monkeypatch.setattr(tournament_module, "play", scripted_play)
    result = tournament_module.tournament("civ", CivRules.preset(), specs, 3, deals=4, seed=1)
    h2h = result.head_to_head().set_index(["strategy", "opponent"])
    # every strategy sits in seat 0 (the winner) once in three rotations; else it lost, and
    # against the other loser it is even: (1 + 0 + 1/2) / 3 against each opponent
    for a in labels:
        for b in labels:
            if a != b:
                assert h2h.win_rate[a, b] == pytest.approx(0.5)
    g, r = labels[0], labels[1]
    # greedy against random by the score: 2 < 5 (rotation 0), 4 > 2, 5 > 4; the mean difference
    # stays the score's
    assert h2h.mean_diff[g, r] == pytest.approx((-3 + 2 + 1) / 3)


def _head_to_head_from_shares(specs, players, deals, seed):
    """The head-to-head computed directly from the per-game shares of each rotation's games."""
    rules = CivRules.preset()
    bound = [parse_spec("civ", s) for s in specs]
    S = len(bound)
    wins, games = np.zeros((S, S)), np.zeros((S, S))
    for rot in range(S):
        idx = [(j + rot) % S for j in range(players)]
        batches = []
        play("civ", rules, [bound[i] for i in idx], games=deals, seed=seed, on_batch=batches.append,
             progress=False)
        shares = np.concatenate([b.shares for b in batches])
        scores = np.concatenate([b.scores for b in batches])
        for j, a in enumerate(idx):
            for k, b in enumerate(idx):
                if j != k:
                    wins[a, b] += (shares[:, j] > shares[:, k]).sum() + 0.5 * (shares[:, j] == shares[:, k]).sum()
                    games[a, b] += deals
        if rot == 0:
            outscored = (scores[:, 0] > scores[:, 1]) + 0.5 * (scores[:, 0] == scores[:, 1])
            won = (shares[:, 0] > shares[:, 1]) + 0.5 * (shares[:, 0] == shares[:, 1])
            assert (outscored != won).any()         # the case: the score and the winner disagree
    return wins, games


@pytest.mark.parametrize("specs, players", [(["greedy", "majority"], 2),
                                            (["greedy", "random", "majority"], 3)])
def test_civ_head_to_head_is_the_one_from_the_per_game_shares(specs, players):
    deals, seed = 300, 4
    result = tournament_module.tournament("civ", CivRules.preset(), specs, players, deals=deals,
                                          seed=seed, progress=False)
    wins, games = _head_to_head_from_shares(specs, players, deals, seed)
    labels = [b.label for b in result.strategies]
    h2h = result.head_to_head().set_index(["strategy", "opponent"])
    for a in range(len(specs)):
        for b in range(len(specs)):
            if a != b:
                assert h2h.games[labels[a], labels[b]] == games[a, b]
                assert h2h.win_rate[labels[a], labels[b]] == pytest.approx(wins[a, b] / games[a, b])
    if players == 2:            # two players: the head-to-head is the win share
        table = result.table().set_index("strategy")
        assert h2h.win_rate[labels[0], labels[1]] == pytest.approx(table.win_share[labels[0]])
