"""What is each God tile worth in Pyramids? The headline analysis of the game.

For each player count, round and tile: one seat is made to take the tile in that round (when it
is still there at its turn to choose) and everything else is played by the strategy; the same
deals are played with the strategy's own choice. The paired difference of the seat's final score
and of its win share is the value of taking the tile instead of what the strategy takes.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.core import output
from sim.core.stats import Z95
from strategies.play import resolve_rules

from .common import markdown_table, save_figure
from .pyramids_common import GAME, games_of, mean_over_rounds, paired, tile_at, tile_name
from . import pyramids_tile_choice as TC
from .registry import Section

NAME = "pyramids-god-tile-value"
TITLE = "Pyramids: what each God tile is worth"
SUMMARY = ("The value of taking each God tile in each round instead of the greedy's own choice, "
           "by player count: paired final-score and win-share differences with 95% intervals.")
DEFAULT_SEED = 2017
STRATEGY = "greedy"
PLAYERS = (2, 3, 4, 5)
GAMES = 3_000            # per player count, round and tile (and for each baseline)
QUICK_GAMES = 30
ROUNDS = range(1, 11)
MC_STRATEGY = "flat-mc"  # the tile choice again for seat 0 searching (the field stays greedy)
MC_SIMS = 20             # playouts per candidate: a fifth of flat-mc's default, for the budget
MC_PLAYERS = (2, 4)
MC_GAMES = 400
QUICK_MC_GAMES = 4


def base_rules(deck: str = ""):
    """The published rules with a random first player, so the forced seat's place in the tile
    order varies from game to game (with seat 0 always first, round r's order would be fixed)."""
    rules = resolve_rules(GAME, "rulebook-first-player")
    return rules.replace(deck=deck) if deck else rules


def _greedy_probe(tile: int, round_number: int) -> str:
    return f"force-tile:tile={tile},round={round_number}"


def tile_values(rules, players: int, games: int, seed: int, rounds=range(1, 11),
                strategy: str = STRATEGY) -> pd.DataFrame:
    """One row per (round, tile): games where the tile was there to take, how often the strategy
    took it itself, and the paired score and win-share differences (forced - own choice)."""
    base = games_of(rules, [strategy] * players, games, seed)
    forced = TC.forced_games(rules, players, games, seed, rounds, _greedy_probe, strategy)
    return against_own_choice(forced, base, rules, players, games)


def against_own_choice(forced: dict, base: dict, rules, players: int, games: int) -> pd.DataFrame:
    """The rows of tile_values from the forced runs and the unforced games `base`."""
    rows = []
    for (r, tile), run in sorted(forced.items()):
        took = tile_at(run["tiles_0"], r) == tile        # the tile was there to take
        own = tile_at(base["tiles_0"], r) == tile
        d, se = paired(run["scores"][took, 0], base["scores"][took, 0])
        w, wse = paired(run["shares"][took, 0], base["shares"][took, 0])
        rows.append({"players": players, "round": r, "tile": tile, "god": tile_name(tile),
                     "games": int(games), "available": int(took.sum()),
                     "own_choice_share": float(own[took].mean()) if took.any() else float("nan"),
                     "score_diff": d, "score_se": se, "win_diff": w, "win_se": wse})
    return pd.DataFrame(rows)


def averages(df: pd.DataFrame) -> pd.DataFrame:
    """Each tile's value averaged over the 10 rounds, with its SE."""
    return mean_over_rounds(df, ["players", "tile", "god"],
                            (("score_diff", "score_se"), ("win_diff", "win_se")))


def _mc_probe(tile: int, round_number: int) -> str:
    return f"force-tile-mc:tile={tile},round={round_number},sims={MC_SIMS}"


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    games = QUICK_GAMES if quick else GAMES
    mc_games = QUICK_MC_GAMES if quick else MC_GAMES
    rules = base_rules()
    values, choice = [], []
    for p in PLAYERS:
        base = games_of(rules, [STRATEGY] * p, games, seed)
        forced = TC.forced_games(rules, p, games, seed, ROUNDS, _greedy_probe, STRATEGY)
        values.append(against_own_choice(forced, base, rules, p, games))
        choice.append(TC.choice_values(forced, p, base).assign(strategy=STRATEGY))
    for p in MC_PLAYERS:
        forced = TC.forced_games(rules, p, mc_games, seed, ROUNDS, _mc_probe, STRATEGY)
        choice.append(TC.choice_values(forced, p).assign(strategy=MC_STRATEGY))
    df = pd.concat(values, ignore_index=True)
    choice = pd.concat(choice, ignore_index=True)
    choice = choice[["strategy"] + [c for c in choice.columns if c != "strategy"]]
    avg = averages(df)
    files = [f"{NAME}.csv", f"{NAME}-average.csv", f"{NAME}.png",
             f"{NAME}-choice.csv", f"{NAME}-choice.png", f"{NAME}-choice-flat-mc.png"]
    output.write_csv(df, out_dir / files[0])
    output.write_csv(avg, out_dir / files[1])
    _plot(df, out_dir / files[2])
    output.write_csv(choice, out_dir / files[3])
    greedy, mc = choice[choice.strategy == STRATEGY], choice[choice.strategy == MC_STRATEGY]
    TC.plot_choice(greedy, out_dir / files[4],
                   f"Pyramids: which tile to take ({STRATEGY} among {STRATEGY}), 95% bands")
    TC.plot_choice(mc, out_dir / files[5],
                   f"Pyramids: which tile to take ({MC_STRATEGY} sims={MC_SIMS} among {STRATEGY}), 95% bands")
    key = avg.pivot(index="god", columns="players", values="score_diff")
    se = avg.pivot(index="god", columns="players", values="score_se")
    table = pd.DataFrame({"God tile": key.index})
    for p in key.columns:
        table[f"{p} players"] = [f"{v:+.2f} ± {Z95 * s:.2f}" if np.isfinite(v) else "-"
                                 for v, s in zip(key[p], se[p])]
    best = {name: TC.best_tiles(TC.over_rounds(sub, rounds))
            for name, sub, rounds in (("early", greedy, range(1, 6)), ("late", greedy, range(6, 11)),
                                      ("all", greedy, None), ("mc", mc, None))}
    md = f"""## {TITLE}

![God tile value]({NAME}.png)

In each round r and for each God tile X, seat 0 is made to take X in round r (when X is still
on offer at its turn to choose: the `available` games) and plays `{STRATEGY}` otherwise; every
other seat, and seat 0 in every other decision, plays `{STRATEGY}`. The same deals are played
with seat 0 taking its own choice, so the difference of its final score (and win share) is paired
game by game: the value of taking X in round r instead of what the greedy takes. It is 0 in the
games where the greedy takes X anyway (`own_choice_share`). The first player is drawn at random
(`first_player=random`), so seat 0's place in the tile order varies. 95% intervals are
1.96 standard errors of the paired difference.

What it measures, and what not: the value of a tile **to this greedy player among greedy
players** (a one-ply builder), on the shipped **reconstructed deck**; not its value to a perfect
player, who would plan around the tile. Negative values mean the greedy's own choice was better.
The heat map is the score difference; the win-share differences are in `{files[0]}`.

Average value of each tile over the 10 rounds (final-score points, ± 95% interval):

{markdown_table(table)}

### Which tile to take at one's turn to choose

![Tile choice, greedy]({files[4]})

The forced runs above also say which tile to take among those on offer. In one deal, the runs
forcing seat 0 onto each tile in round r play the same game up to seat 0's choice (same deck,
same decisions), so the tiles their forced run got are exactly the tiles on offer to seat 0
there. A tile's value in that deal is seat 0's final score when taking it minus the mean over the
tiles on offer (picking among them at random); the cell is its mean over the deals where seat 0
chose in that place of the order (1 = first), with the 95% band of its standard error. The last
to choose at 5 players has one tile left and no choice. `own_choice_share` in `{files[3]}` is how
often the greedy takes the tile itself there; the win-share advantages (`win_rel`) are there too.

Best tile by place in the choosing order (score points over the mean of the tiles on offer, the
mean over the rounds named, ± 95% interval; **bold** where its interval clears the runner-up's):

{markdown_table(_best_table(best))}

In words (greedy, over all 10 rounds, then over rounds 6-10 alone):

{chr(10).join(TC.rule_of_thumb(best["all"], f"{STRATEGY}, all rounds"))}
{chr(10).join(TC.rule_of_thumb(best["late"], f"{STRATEGY}, rounds 6-10"))}

The same for seat 0 playing `{MC_STRATEGY}` (sims={MC_SIMS}, a smaller budget: {mc_games:,} deals
per player count, round and tile, at {', '.join(map(str, MC_PLAYERS))} players) among greedy
players: the value of a tile to a searching player, who plans its builds after the choice:

![Tile choice, flat-mc]({files[5]})

{chr(10).join(TC.rule_of_thumb(best["mc"], f"{MC_STRATEGY}, all rounds"))}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {games:,} per player count, round and tile (baselines the same);
  `{MC_STRATEGY}`: {mc_games:,}
- Rules: preset `rulebook-first-player` (published, random first player); deck: the shipped
  reconstruction
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _best_table(best: dict) -> pd.DataFrame:
    """players x place: the best tile of each group of rounds, bold where clearly best."""
    columns = (("early", f"{STRATEGY}, rounds 1-5"), ("late", f"{STRATEGY}, rounds 6-10"),
               ("all", f"{STRATEGY}, all rounds"), ("mc", f"{MC_STRATEGY}, all rounds"))
    keys = sorted({(b.players, b.place) for df in best.values() for b in df.itertuples()})
    rows = []
    for players, place in keys:
        row = {"players": players, "place": place}
        for name, label in columns:
            b = best[name]
            hit = b[(b.players == players) & (b.place == place)] if len(b) else b
            if len(hit):
                h = hit.iloc[0]
                cell = f"{h.best} {h.value:+.2f} ± {Z95 * h.se:.2f}"
                row[label] = f"**{cell}**" if h.clear else cell
            else:
                row[label] = "-"
        rows.append(row)
    return pd.DataFrame(rows)


def _plot(df: pd.DataFrame, path: Path) -> None:
    """One heat map (tile x round) per player count, on one shared row axis: every panel has the
    five tiles in the same rows (Thoth empty below 4 players), labelled once at the left."""
    gods = [tile_name(t) for t in range(1, 6)]
    fig, axes = plt.subplots(1, len(PLAYERS), figsize=(3.6 * len(PLAYERS) + 1.2, 3.6), squeeze=False,
                             sharey=True, layout="constrained")
    lim = max(1.0, float(np.nanmax(np.abs(df.score_diff))))
    for ax, p in zip(axes[0], PLAYERS):
        grid = df[df.players == p].pivot(index="god", columns="round", values="score_diff").reindex(gods)
        im = ax.imshow(grid.values, cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                v = grid.values[i, j]
                if np.isfinite(v):
                    ax.text(j, i, f"{v:+.1f}", ha="center", va="center", fontsize=6)
        ax.set_xticks(range(grid.shape[1]), grid.columns)
        ax.set_xlabel("round")
        ax.set_title(f"{p} players")
    axes[0][0].set_yticks(range(len(gods)), gods)
    fig.colorbar(im, ax=axes[0].tolist(), fraction=0.02, label="score: forced - own choice")
    fig.suptitle("Pyramids: value of taking each God tile in each round (greedy, reconstructed deck)")
    save_figure(fig, path)
