"""Which God tile to take, at one's turn to choose: part of the God-tile section.

The forced-tile games of the God-tile analysis already hold the answer. In one deal, the runs
that force seat 0 onto tile X in round r play the same game up to seat 0's choice in round r
(the same deck, the same decisions, the same draws), so the tiles whose forced run got them are
exactly the tiles on offer to seat 0 there. A tile's value in that deal is seat 0's final score
(or win share) when taking it minus the mean over the tiles on offer: what taking it is worth
against picking among them at random. Grouped by round and by seat 0's place in the choosing
order; deals are independent, so a cell's standard error is the deviation over its root count.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.core.stats import Z95

from .common import save_figure
from .pyramids_common import games_of, mean_over_rounds, tile_at, tile_name

MIN_DEALS = 2            # a cell with fewer deals has no standard error


def forced_games(rules, players: int, games: int, seed: int, rounds, probe, field: str) -> dict:
    """{(round, tile): every game of the run with seat 0 playing probe(tile, round) and the other
    seats `field`}, on the same deals (seed)."""
    return {(r, t): games_of(rules, [probe(t, r)] + [field] * (players - 1), games, seed)
            for r in rounds for t in rules.tiles(players)}


def place_in_order(first_player: np.ndarray, round_number: int, players: int) -> np.ndarray:
    """Seat 0's place (1 = chooses first) in round `round_number` (1..10): the first player of
    the game chooses first in round 1, and the token passes one seat on each round (§4.2, §4.5)."""
    first = (np.asarray(first_player) + round_number - 1) % players
    return (-first) % players + 1


def offered(forced: dict, round_number: int, tiles) -> np.ndarray:
    """tiles x deals: whether the tile was on offer to seat 0 in that round (its forced run got it)."""
    return np.array([tile_at(forced[round_number, t]["tiles_0"], round_number) == t for t in tiles])


def choice_values(forced: dict, players: int, base: dict | None = None) -> pd.DataFrame:
    """One row per (round, place, tile): the deals where the tile was on offer with at least one
    other, its mean score and win-share advantage over the mean of the tiles on offer (with SEs),
    and, given the unforced games `base`, how often the strategy took it itself there."""
    rows = []
    for r in sorted({r for r, _ in forced}):
        tiles = sorted(t for rr, t in forced if rr == r)
        on = offered(forced, r, tiles)
        count = on.sum(axis=0)
        place = place_in_order(forced[r, tiles[0]]["first_player"], r, players)
        own = tile_at(base["tiles_0"], r) if base is not None else None
        rel = {}
        for key in ("scores", "shares"):
            values = np.array([forced[r, t][key][:, 0] for t in tiles])
            mean = np.where(on, values, 0.0).sum(axis=0) / np.maximum(count, 1)
            rel[key] = values - mean
        for p in range(1, players + 1):
            for i, t in enumerate(tiles):
                m = on[i] & (place == p) & (count >= 2)
                n = int(m.sum())
                row = {"players": players, "round": r, "place": p, "tile": t, "god": tile_name(t),
                       "on_offer": float(count[place == p].mean()) if (place == p).any() else np.nan,
                       "deals": n}
                for key, name in (("scores", "score"), ("shares", "win")):
                    x = rel[key][i, m]
                    row[f"{name}_rel"] = float(x.mean()) if n >= MIN_DEALS else np.nan
                    row[f"{name}_se"] = float(x.std(ddof=1) / np.sqrt(n)) if n >= MIN_DEALS else np.nan
                if own is not None:
                    row["own_choice_share"] = float((own[m] == t).mean()) if n else np.nan
                if n:
                    rows.append(row)
    return pd.DataFrame(rows)


def over_rounds(df: pd.DataFrame, rounds=None) -> pd.DataFrame:
    """Each (players, place, tile)'s mean advantage over the given rounds (default all), with its
    SE (pyramids_common.mean_over_rounds); tiles with no round of data are left out."""
    sub = df if rounds is None else df[df["round"].isin(list(rounds))]
    avg = mean_over_rounds(sub, ["players", "place", "tile", "god"],
                           (("score_rel", "score_se"), ("win_rel", "win_se")))
    return avg[avg.rounds > 0].reset_index(drop=True) if len(avg) else avg


def best_tiles(avg: pd.DataFrame) -> pd.DataFrame:
    """Per (players, place): the tile with the highest score advantage, its runner-up, and whether
    it is clearly best (the two 95% intervals do not overlap)."""
    rows = []
    for (players, place), g in avg.groupby(["players", "place"]):
        g = g.sort_values("score_rel", ascending=False)
        if len(g) < 2:
            continue
        a, b = g.iloc[0], g.iloc[1]
        rows.append({"players": players, "place": place, "best": a.god, "value": a.score_rel,
                     "se": a.score_se, "runner_up": b.god, "runner_up_value": b.score_rel,
                     "runner_up_se": b.score_se,
                     "clear": bool(a.score_rel - Z95 * a.score_se > b.score_rel + Z95 * b.score_se)})
    return pd.DataFrame(rows)


def rule_of_thumb(best: pd.DataFrame, label: str) -> list[str]:
    """The best tile per player count and place, in words, saying where it is uncertain."""
    lines = []
    for players, g in best.groupby("players"):
        parts = []
        for b in g.itertuples():
            verdict = ("clearly" if b.clear else
                       f"uncertain: {b.runner_up} {b.runner_up_value:+.2f} ± {Z95 * b.runner_up_se:.2f} is within reach")
            parts.append(f"{_ordinal(b.place)} to choose: **{b.best}** "
                         f"({b.value:+.2f} ± {Z95 * b.se:.2f}; {verdict})")
        lines.append(f"- {label}, {players} players: " + "; ".join(parts) + ".")
    return lines


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}[int(n)]


def plot_choice(df: pd.DataFrame, path: Path, title: str) -> None:
    """One panel per (player count, place): each tile's score advantage by round, with its 95%
    band; places with a single tile on offer are left out."""
    df = df.dropna(subset=["score_rel"])
    players = sorted(df.players.unique())
    places = sorted(df.place.unique())
    fig, axes = plt.subplots(len(players), len(places), figsize=(3.3 * len(places), 2.5 * len(players)),
                             squeeze=False, sharex=True, sharey=True, layout="constrained")
    colours = dict(zip(range(1, 6), plt.get_cmap("tab10").colors))
    for i, p in enumerate(players):
        for j, place in enumerate(places):
            ax = axes[i][j]
            sub = df[(df.players == p) & (df.place == place)]
            if sub.empty:
                ax.set_visible(False)
                continue
            for (tile, god), g in sub.groupby(["tile", "god"]):
                g = g.sort_values("round")
                ax.plot(g["round"], g.score_rel, marker=".", color=colours[tile], label=god)
                ax.fill_between(g["round"], g.score_rel - Z95 * g.score_se,
                                g.score_rel + Z95 * g.score_se, color=colours[tile], alpha=0.15)
            ax.axhline(0, color="grey", lw=0.6)
            ax.set_title(f"{p} players, {_ordinal(place)} to choose", fontsize=9)
            if i == len(players) - 1:
                ax.set_xlabel("round")
            if j == 0:
                ax.set_ylabel("score vs mean on offer")
    by_label = {}
    for ax in (a for row in axes for a in row if a.get_visible()):
        for h, l in zip(*ax.get_legend_handles_labels()):
            by_label.setdefault(l, h)
    fig.legend(by_label.values(), by_label.keys(), loc="outside lower center", ncols=len(by_label))
    fig.suptitle(title)
    save_figure(fig, path)
