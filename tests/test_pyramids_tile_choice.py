"""The Pyramids tile-choice analysis (analyses/pyramids_tile_choice.py): the values on a hand-made
set of runs, the place in the choosing order, and on real forced runs of both probes that the
runs of one deal share their past, so that the tiles they got are the tiles on offer."""
import numpy as np
import pandas as pd
import pytest

from analyses import pyramids_tile_choice as TC
from analyses.pyramids_common import games_of, tile_at
from analyses.pyramids_god_tile_value import _greedy_probe, base_rules
from sim.pyramids.rules import ROUNDS


def _run(tiles0, scores0, shares0, first):
    n = len(tiles0)
    return {"tiles_0": np.asarray(tiles0) * 10 ** (ROUNDS - 1), "first_player": np.asarray(first),
            "scores": np.column_stack([scores0, np.zeros(n)]).astype(float),
            "shares": np.column_stack([shares0, np.zeros(n)]).astype(float)}


def test_choice_values_on_hand_made_runs():
    # 2 players, round 1, three deals; seat 0 first in deals 0 and 1, second in deal 2, where
    # tile 2 was gone (its forced run got tile 1): tiles on offer {1, 2, 3}, {1, 2, 3}, {1, 3}
    first = [0, 0, 1]
    forced = {(1, 1): _run([1, 1, 1], [10, 20, 8], [1, 0, 0], first),
              (1, 2): _run([2, 2, 1], [13, 26, 8], [1, 1, 0], first),
              (1, 3): _run([3, 3, 3], [7, 14, 12], [0, 0, 1], first)}
    base = {"tiles_0": np.array([2, 1, 3]) * 10 ** (ROUNDS - 1)}
    df = TC.choice_values(forced, 2, base).set_index(["place", "tile"])
    # deal 0: mean 10 -> 0, +3, -3; deal 1: mean 20 -> 0, +6, -6; deal 2: mean 10 -> -2, +2
    assert df.loc[(1, 1), "score_rel"] == 0.0 and df.loc[(1, 1), "score_se"] == 0.0
    assert df.loc[(1, 2), "score_rel"] == pytest.approx(4.5)
    assert df.loc[(1, 2), "score_se"] == pytest.approx(np.std([3, 6], ddof=1) / np.sqrt(2))
    assert df.loc[(1, 3), "score_rel"] == pytest.approx(-4.5)
    assert df.loc[(1, 2), "win_rel"] == pytest.approx(np.mean([1 / 3, 2 / 3]))
    assert df.loc[(1, 2), "own_choice_share"] == 0.5
    assert df.loc[(1, 1), "deals"] == 2 and df.loc[(1, 1), "on_offer"] == 3
    # one deal at place 2: counted, but no mean without a standard error; tile 2 not on offer
    assert df.loc[(2, 1), "deals"] == 1 and np.isnan(df.loc[(2, 1), "score_rel"])
    assert df.loc[(2, 1), "on_offer"] == 2 and (2, 2) not in df.index


def test_place_in_order_follows_the_token():
    # 4 players: the first player chooses first in round 1, and the token passes on each round
    first = np.array([0, 1, 2, 3])
    assert TC.place_in_order(first, 1, 4).tolist() == [1, 4, 3, 2]
    assert TC.place_in_order(first, 2, 4).tolist() == [4, 3, 2, 1]
    # 3 players, seat 0 first in round 1: first again in rounds 4, 7 and 10, last in round 2
    assert [TC.place_in_order(np.array([0]), r, 3)[0] for r in (2, 4, 7, 10)] == [3, 1, 1, 1]


@pytest.mark.parametrize("players,tiles", [(2, 3), (3, 4), (4, 5)])
def test_greedy_forced_runs_share_their_past_and_see_the_tiles_on_offer(players, tiles):
    """In every deal the forced runs of one round agree on every seat's tiles before it, and the
    number of tiles their runs got is what the place in the order leaves (2 players: one of the
    four set aside); the greedy's own choice is among them."""
    rules, games, seed, rounds = base_rules(), 60, 11, (1, 4, 9)
    forced = TC.forced_games(rules, players, games, seed, rounds, _greedy_probe, "greedy")
    base = games_of(rules, ["greedy"] * players, games, seed)
    _check_shared_past(forced, players, tiles, rounds, base)
    df = TC.choice_values(forced, players, base)
    first = df[df.place == 1].dropna(subset=["score_rel"])
    # from 3 players every tile is on offer to the first chooser, in the same deals: the
    # advantages over the mean sum to zero (at 2 the tile set aside changes from deal to deal)
    for r, g in first.groupby("round"):
        assert len(g) == len(rules.tiles(players)), r
        if players >= 3:
            assert abs(g.score_rel.sum()) < 1e-9 and g.own_choice_share.sum() == pytest.approx(1.0)


def test_flat_mc_forced_runs_share_their_past():
    rules, players, rounds = base_rules(), 2, (3, 8)
    probe = lambda t, r: f"force-tile-mc:tile={t},round={r},sims=2"          # noqa: E731
    forced = TC.forced_games(rules, players, 6, 5, rounds, probe, "greedy")
    _check_shared_past(forced, players, 3, rounds, None)


def _check_shared_past(forced, players, tiles, rounds, base):
    for r in rounds:
        runs = [forced[r, t] for t in rules_tiles(forced, r)]
        for s in range(players):
            past = [run[f"tiles_{s}"] // 10 ** (ROUNDS - r + 1) for run in runs]
            for p in past[1:]:
                np.testing.assert_array_equal(p, past[0])
        on = TC.offered(forced, r, rules_tiles(forced, r))
        place = TC.place_in_order(runs[0]["first_player"], r, players)
        np.testing.assert_array_equal(on.sum(axis=0), tiles - place + 1)
        if base is not None:
            own = tile_at(base["tiles_0"], r)
            index = {t: i for i, t in enumerate(rules_tiles(forced, r))}
            assert all(on[index[t], g] for g, t in enumerate(own))


def rules_tiles(forced, r):
    return sorted(t for rr, t in forced if rr == r)


def test_best_tiles_says_where_it_is_uncertain():
    avg = pd.DataFrame({"players": [4] * 3 + [4] * 2, "place": [1] * 3 + [2] * 2,
                        "tile": [1, 2, 3, 1, 2], "god": ["Horus", "Anubis", "Khepri", "Horus", "Anubis"],
                        "score_rel": [1.0, 0.2, -1.2, 0.3, 0.2], "score_se": [0.1, 0.1, 0.1, 0.1, 0.1]})
    best = TC.best_tiles(avg).set_index("place")
    assert best.loc[1, "best"] == "Horus" and best.loc[1, "runner_up"] == "Anubis" and best.loc[1, "clear"]
    assert best.loc[2, "best"] == "Horus" and not best.loc[2, "clear"]
    words = TC.rule_of_thumb(best.reset_index(), "greedy")
    assert len(words) == 1 and "first to choose: **Horus** (+1.00 ± 0.20; clearly)" in words[0]
    assert "second to choose: **Horus**" in words[0] and "uncertain: Anubis +0.20" in words[0]


def test_over_rounds_combines_independent_rounds():
    df = pd.DataFrame({"players": [2, 2], "place": [1, 1], "tile": [1, 1], "god": ["Horus"] * 2,
                       "round": [1, 2], "score_rel": [1.0, 3.0], "score_se": [0.3, 0.4],
                       "win_rel": [0.1, 0.0], "win_se": [0.03, 0.04]})
    row = TC.over_rounds(df).iloc[0]
    assert row.score_rel == 2.0 and row.score_se == pytest.approx(0.25) and row.rounds == 2
    assert TC.over_rounds(df, rounds=[2]).iloc[0].score_rel == 3.0
