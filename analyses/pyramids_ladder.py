"""The Pyramids strategy ladder: a 2-player round-robin, win-share matrix, Bradley-Terry ratings."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from sim.core import output
from strategies.play import resolve_rules

from .bradley_terry import plot_ladder, round_robin
from .common import markdown_table
from .pyramids_common import GAME
from .registry import Section

NAME = "pyramids-ladder"
TITLE = "Pyramids: the strategy ladder"
SUMMARY = ("Two-player round-robin of every strategy against every other, seats swapped on the "
           "same deals: win-share matrix with intervals and a Bradley-Terry rating per strategy.")
DEFAULT_SEED = 2020
PRESET = "published"
# (strategy, games per seating against a fast opponent); a pair plays the smaller budget
LADDER = [("random", 20_000), ("greedy", 5_000), ("god-priority:order=KSTAH", 5_000),
          ("god-priority:order=HASKT", 5_000), ("flat-mc", 200), ("ismcts:iters=300", 60)]
QUICK_GAMES = 10
# --quick (a smoke test): the searchers with a few playouts a decision
QUICK_LADDER = LADDER[:4] + [("flat-mc:sims=2", 200), ("ismcts:iters=10", 60)]


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    ladder = QUICK_LADDER if quick else LADDER
    labels = [s for s, _ in ladder]
    rules = resolve_rules(GAME, PRESET)
    n_games = [[QUICK_GAMES if quick else min(na, nb) for _, nb in ladder] for _, na in ladder]
    matrix, ratings = round_robin(GAME, rules, labels, n_games, seed)
    files = [f"{NAME}.csv", f"{NAME}-ratings.csv", f"{NAME}.png"]
    output.write_csv(matrix, out_dir / files[0])
    output.write_csv(ratings, out_dir / files[1])
    plot_ladder(matrix, ratings, labels, out_dir / files[2], "Pyramids strategy ladder (2 players)")
    key = pd.DataFrame({"strategy": labels,
                        "Bradley-Terry strength ± SE": [f"{r:+.3f} ± {s:.3f}" for r, s in
                                                        zip(ratings.bradley_terry, ratings.se)],
                        "Elo-scale ± SE": [f"{e:+.0f} ± {s:.0f}" for e, s in
                                           zip(ratings.elo, ratings.elo_se)],
                        "strength − greedy's ± SE": [f"{r:+.3f} ± {s:.3f}" for r, s in
                                                     zip(ratings.vs_greedy, ratings.vs_greedy_se)]})
    md = f"""## {TITLE}

![ladder]({NAME}.png)

Every strategy plays every other at 2 players in both seats on the same deals (preset
`{PRESET}`, seat 0 first); a cell is the row strategy's win share against the column (ties
shared) with its 95% Wilson interval in `{files[0]}`. The Bradley-Terry model, fitted by maximum
likelihood to all games (plus half a win each way per pairing), gives each strategy a strength on
a log-odds scale (random = 0; Elo scale = 400/ln 10 times it), with standard errors from the
Fisher information; the last column measures every strategy from the greedy. The searchers play
few games with small budgets here (the report should take minutes); a longer run:
`meeplelab tournament pyramids --players 2 -s flat-mc -s greedy -n 400`.

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games per pairing and seating: the smaller budget of the two strategies
  ({', '.join(f'`{s}`: {QUICK_GAMES if quick else n:,}' for s, n in ladder)})
- Rules: preset `{PRESET}`; deck: the shipped reconstruction
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)
