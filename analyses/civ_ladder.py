"""The CIV strategy ladder: a 2-player round-robin of every registered strategy, win-share matrix,
Bradley-Terry ratings."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from sim.civ.cards import DOMAINS
from sim.core import output
from strategies.play import resolve_rules
from strategies.registry import all_strategies

from .bradley_terry import plot_ladder, round_robin
from .civ_common import GAME
from .common import markdown_table
from .registry import Section

NAME = "civ-ladder"
TITLE = "CIV: the strategy ladder"
SUMMARY = ("Two-player round-robin of every registered CIV strategy (domain-focus once per Domain, "
           "searchers with a small budget), seats swapped on the same deals: win-share matrix with "
           "intervals and a Bradley-Terry rating per strategy.")
DEFAULT_SEED = 2020
PRESET = "civ-classic"
FIRST = ("random", "greedy", "majority")     # random first: the ratings' zero
# games per seating against a fast opponent; a pair plays the smaller budget of the two
GAMES = {"random": 20_000, "one-ply": 800, "search": 12}
QUICK_GAMES = {"random": 4, "one-ply": 4, "search": 1}
# searchers (stochastic strategies other than random) play with a small budget: about 30
# playouts a decision. A searcher not named here plays with its defaults.
SEARCH_SPECS = {"flat-mc": "flat-mc:sims=10,prune=3", "ismcts": "ismcts:iters=30"}
# --quick (a smoke test): a few playouts a decision
QUICK_SEARCH_SPECS = {"flat-mc": "flat-mc:sims=2,prune=2", "ismcts": "ismcts:iters=6"}


def ladder(quick: bool = False) -> list[tuple[str, str]]:
    """(spec, kind) for every built-in CIV strategy in the registry: random, greedy, majority,
    the others (kind one-ply), domain-focus once per Domain, the searchers last (kind search)."""
    strategies = [s for s in all_strategies(GAME) if s.origin == "built-in"]
    search = [s for s in strategies if s.stochastic and s.name != "random"]
    plain = sorted((s for s in strategies if s not in search),
                   key=lambda s: (FIRST.index(s.name) if s.name in FIRST else len(FIRST), s.name))
    out = []
    for s in plain:
        kind = "random" if s.name == "random" else "one-ply"
        if any(p.name == "domain" for p in s.params):
            out += [(f"{s.name}:domain={d}", kind) for d in DOMAINS]
        else:
            out.append((s.name, kind))
    specs = QUICK_SEARCH_SPECS if quick else SEARCH_SPECS
    return out + [(specs.get(s.name, s.name), "search") for s in search]


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    budget = QUICK_GAMES if quick else GAMES
    entries = [(spec, budget[kind]) for spec, kind in ladder(quick)]
    labels = [s for s, _ in entries]
    rules = resolve_rules(GAME, PRESET)
    n_games = [[min(na, nb) for _, nb in entries] for _, na in entries]
    matrix, ratings = round_robin(GAME, rules, labels, n_games, seed)
    files = [f"{NAME}.csv", f"{NAME}-ratings.csv", f"{NAME}.png"]
    output.write_csv(matrix, out_dir / files[0])
    output.write_csv(ratings, out_dir / files[1])
    short = {s: s.replace("domain-focus:domain=", "focus ") for s in labels}
    plot_ladder(matrix.replace({"strategy": short, "opponent": short}),
                ratings.replace({"strategy": short}), list(short.values()), out_dir / files[2],
                "CIV strategy ladder (2 players; focus X: domain-focus:domain=X)")
    order = ratings.sort_values("bradley_terry", ascending=False, kind="stable")
    key = pd.DataFrame({"strategy": order.strategy,
                        "Bradley-Terry strength ± SE": [f"{r:+.3f} ± {s:.3f}" for r, s in
                                                        zip(order.bradley_terry, order.se)],
                        "Elo-scale ± SE": [f"{e:+.0f} ± {s:.0f}" for e, s in
                                           zip(order.elo, order.elo_se)],
                        "strength − greedy's ± SE": [f"{r:+.3f} ± {s:.3f}" for r, s in
                                                     zip(order.vs_greedy, order.vs_greedy_se)]})
    vs_random = matrix[matrix.opponent == "random"]
    random_wins = ((1 - vs_random.win_share) * vs_random.games).sum()
    random_note = (f"Random wins {random_wins:g} of its {vs_random.games.sum():,} games, so its "
                   f"distance from the others is only bounded (by the half win a pairing gets): "
                   f"the last column is the one to read.")
    searchers = [s for s, kind in ladder(quick) if kind == "search"]
    search_note = (f"The searchers ({', '.join(f'`{s}`' for s in searchers)}) play with a small "
                   f"budget and few games here (the report should take minutes), hence their wide "
                   f"intervals; a longer run: `meeplelab tournament civ --players 2 -s "
                   f"{searchers[0]} -s greedy -n 400`."
                   if searchers else
                   "No search strategy is registered for CIV in this build; the ladder takes every "
                   "built-in strategy from the registry, so searchers join it when they are.")
    md = f"""## {TITLE}

![ladder]({NAME}.png)

Every built-in CIV strategy of the registry plays every other at 2 players, in both seats on the
same deals (preset `{PRESET}`, seat 0 first); `domain-focus` once per Domain. A cell is the row
strategy's win share against the column (ties shared) with its 95% Wilson interval in
`{files[0]}`. The Bradley-Terry model, fitted by maximum likelihood to all games (plus half a
win each way per pairing), gives each strategy a strength on a log-odds scale (random = 0; Elo
scale = 400/ln 10 times it), with standard errors from the Fisher information; the last column
measures every strategy from the greedy (the SE is that of the difference). Rows from the
strongest. {random_note}

{search_note}

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games per pairing and seating: the smaller budget of the two strategies
  ({', '.join(f'`{s}`: {n:,}' for s, n in entries)})
- Rules: preset `{PRESET}`
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)
