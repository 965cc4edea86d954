"""The Schotten Totten strategy ladder: round-robin, win-share matrix, Bradley-Terry ratings."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from sim.core import output
from strategies.play import resolve_rules

from .bradley_terry import bradley_terry, plot_ladder, round_robin  # noqa: F401  (tests import it here)
from .common import markdown_table
from .registry import Section
from .schotten_totten_first_player import available, quick_games

NAME = "schotten-totten-ladder"
TITLE = "Schotten Totten: the strategy ladder"
SUMMARY = ("Round-robin of every strategy against every other, seats swapped on the same deals: "
           "win-share matrix with intervals and a Bradley-Terry rating per strategy.")
DEFAULT_SEED = 2001
PRESET = "base"
# (strategy, games per seating against a fast opponent); a pair plays the smaller budget.
# The two searchers get the same budget: 200 playouts per play decision (25 for each of the
# greedy's 8 best actions; 200 tree iterations over the same 8 root actions).
LADDER = [("random", 20_000), ("greedy", 2_000), ("flat-mc:sims=25,prune=8", 30),
          ("ismcts:iters=200,prune=8", 30)]
# --quick (a smoke test): the searchers with a few playouts a decision
QUICK_LADDER = LADDER[:2] + [("flat-mc:sims=2,prune=2", 30), ("ismcts:iters=8,prune=2", 30)]
QUICK_BUDGETS = ("\n\nIn this quick run the searchers play with the few playouts their labels "
                 "give, not the budgets above.")


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    ladder = available(QUICK_LADDER if quick else LADDER)
    labels = [s for s, _ in ladder]
    rules = resolve_rules("schotten-totten", PRESET)
    n_games = [[quick_games(min(na, nb)) if quick else min(na, nb) for _, nb in ladder]
               for _, na in ladder]
    matrix, ratings = round_robin("schotten-totten", rules, labels, n_games, seed)
    rating, se = ratings.bradley_terry.to_numpy(), ratings.se.to_numpy()
    vs_greedy, vs_greedy_se = ratings.vs_greedy.to_numpy(), ratings.vs_greedy_se.to_numpy()
    files = [f"{NAME}.csv", f"{NAME}-ratings.csv", f"{NAME}.png"]
    output.write_csv(matrix, out_dir / files[0])
    output.write_csv(ratings, out_dir / files[1])
    plot_ladder(matrix, ratings, labels, out_dir / files[2], "Schotten Totten strategy ladder (base game)")
    key = pd.DataFrame({"strategy": labels,
                        "Bradley-Terry strength ± SE": [f"{r:+.3f} ± {s:.3f}" for r, s in zip(rating, se)],
                        "Elo-scale ± SE": [f"{e:+.0f} ± {s:.0f}" for e, s in
                                           zip(ratings.elo, ratings.elo_se)],
                        "strength − greedy's ± SE": [f"{r:+.3f} ± {s:.3f}" for r, s in
                                                     zip(vs_greedy, vs_greedy_se)]})
    md = f"""## {TITLE}

![ladder]({NAME}.png)

Every strategy plays every other in both seats on the same deals (preset `{PRESET}`); a cell is
the row strategy's win share against the column (draws half) with its 95% Wilson interval in
`{files[0]}`. The Bradley-Terry model, fitted by maximum likelihood to all games (plus half a
win each way per pairing, so that a clean sweep gives a finite strength), gives each strategy a
strength on a log-odds scale (random = 0; Elo scale = 400/ln 10 times it), with standard errors
from the Fisher information. The SE against random is large because random never wins (its
strength is only bounded); the last column measures every strategy from the greedy instead,
whose SE is that of the difference. The two searchers get the same budget, 200 playouts per play
decision (flat-mc: 25 for each of the greedy's 8 best actions; ismcts: 200 iterations over the
same 8 root actions, with the greedy's 3 best actions at each of its own decisions below and the
greedy's best reply at the opponent's), and play few games here (each of their games takes about
half a second on a core, and the whole report should take minutes, not hours), hence their wide
intervals. A longer run at 800 playouts per play decision (flat-mc's default: 100 for each of the
greedy's 8 best actions; ismcts's default is 1000 iterations):
`meeplelab tournament schotten-totten -s flat-mc -s ismcts:iters=800 -n 200`.{QUICK_BUDGETS if quick else ""}

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games per pairing and seating: the smaller budget of the two strategies
  ({', '.join(f'`{s}`: {quick_games(n) if quick else n:,}' for s, n in ladder)})
- Rules: preset `{PRESET}`
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)
