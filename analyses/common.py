"""Shared pieces of the analyses: focal-player experiments, deterministic figures, tables."""
from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from sim import games as game_registry  # noqa: E402
from sim.core import output  # noqa: E402
from sim.core.stats import Z95, paired_difference  # noqa: E402
from strategies.play import play  # noqa: E402
from strategies.registry import parse_spec  # noqa: E402


QUICK_GAMES = 40


def game_label(game) -> str:
    """The game's short name for titles: its title before any subtitle or credit."""
    return game.title.split(" (")[0].split(":")[0]


def quick_games(games: int) -> int:
    """Games in --quick mode (a smoke test): a few, even for the slow searchers."""
    return max(2, min(QUICK_GAMES, games // 50))


def focal_run(game: str, rules, focal: str, field: list[str], players: int, games: int, seed: int):
    """Seat 0 plays `focal`, seats 1.. play the field (cycled).

    Returns (row, per_game) where per_game = {"mean_score": focal scores, "win_share": focal
    shares of the win}, one entry per game.

    All candidates run with the same seed see the same decks game by game (common random
    numbers), so their per-game scores can be compared pairwise."""
    lineup = [parse_spec(game, focal)] + [parse_spec(game, field[i % len(field)])
                                          for i in range(players - 1)]
    scores, shares = [], []

    def keep(batch):
        scores.append(batch.scores[:, 0].astype(float))
        shares.append(batch.shares[:, 0].copy())

    result = play(game, rules, lineup, games=games, seed=seed, progress=False, partial=False,
                  on_batch=keep)
    t = result.table().iloc[0]
    row = {"players": players, "strategy": lineup[0].label, "games": int(t.games),
           "mean_score": t.mean_score, "se_score": t.se_score, "win_share": t.win_share,
           "win_ci_low": t.win_ci_low, "win_ci_high": t.win_ci_high}
    return row, {"mean_score": np.concatenate(scores), "win_share": np.concatenate(shares)}


def self_play(game: str, rules, spec: str, games: int, seed: int, extras=()):
    """Every seat plays `spec`, games 0 .. games - 1 under `seed`. Returns (shares, extras):
    shares[g, seat] the share of the win of each seat in game g, and the per-game `extras`
    columns of the game (sim/games.py), in game order. Runs with the same seed deal the same
    cards game by game whatever the rules change leaves alone (common random numbers)."""
    batches = []
    players = game_registry.get(game).default_players
    play(game, rules, [spec] * players, games=games, seed=seed, progress=False, partial=False,
         on_batch=batches.append)
    batches.sort(key=lambda b: b.first_game)
    shares = np.concatenate([b.shares for b in batches])
    return shares, {k: np.concatenate([b.extras[k] for b in batches]) for k in extras}


def games_of(game: str, rules, lineup, games: int, seed: int) -> dict:
    """Every game of a run, in game order: scores and shares (games x seats) and the game's
    per-game columns (extras)."""
    batches = []
    play(game, rules, lineup, games=games, seed=seed, progress=False, partial=False,
         on_batch=batches.append)
    batches.sort(key=lambda b: b.first_game)
    return {"scores": np.concatenate([b.scores for b in batches]).astype(float),
            "shares": np.concatenate([b.shares for b in batches]),
            **{k: np.concatenate([b.extras[k] for b in batches]) for k in batches[0].extras}}


def best_with_runner_up(df: pd.DataFrame, per_game: dict, key: str) -> dict:
    """The best row by `key` ("mean_score" or "win_share") and its advantage over the
    runner-up, paired game by game on the same decks (mean difference and its SE)."""
    order = df.sort_values(key, ascending=False)
    best = order.iloc[0]
    out = {"best": best.strategy, key: best[key]}
    if len(order) > 1:
        second = order.iloc[1]
        diff, se = paired_difference(per_game[best.strategy][key], per_game[second.strategy][key])
        out.update(runner_up=second.strategy, advantage=diff, se_advantage=se)
    return out


def save_figure(fig, path: Path) -> None:
    """PNG without timestamps or version strings, written atomically: same input, same bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None}, bbox_inches="tight")
    plt.close(fig)
    with output.atomic_path(path, "wb") as fh:
        fh.write(buf.getvalue())


def markdown_table(df: pd.DataFrame, floatfmt=".3f") -> str:
    return df.to_markdown(index=False, floatfmt=floatfmt)


def ci(se):
    return Z95 * np.asarray(se)


__all__ = ["game_label", "quick_games", "focal_run", "self_play", "best_with_runner_up", "save_figure", "markdown_table", "ci"]
