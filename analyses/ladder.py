"""The strategy ladder of a game: a two-player round-robin of its study's strategies, both seatings
on the same deals, win-share matrix and Bradley-Terry ratings (generic: every game that declares
a `LadderStudy` gets this section, "<game>-ladder")."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from sim.core import output
from strategies.play import resolve_rules

from .bradley_terry import plot_ladder, round_robin
from .common import game_label, markdown_table
from .registry import Section

SUFFIX = "ladder"


def title(game) -> str:
    return f"{game_label(game)}: the strategy ladder"


def summary(game) -> str:
    return ("Two-player round-robin of every strategy against every other, seats swapped on the "
            "same deals: win-share matrix with intervals and a Bradley-Terry rating per strategy.")


def entries(game, quick: bool) -> list[tuple[str, int]]:
    study = game.studies[SUFFIX]
    return list(study.quick_entries if quick else study.entries)


def run(game, out_dir: Path, quick: bool = False, seed: int | None = None) -> Section:
    study = game.studies[SUFFIX]
    seed = study.seed if seed is None else seed
    name = f"{game.name}-{SUFFIX}"
    ladder = entries(game, quick)
    labels = [s for s, _ in ladder]
    rules = resolve_rules(game.name, study.preset)
    n_games = [[min(na, nb) for _, nb in ladder] for _, na in ladder]
    matrix, ratings = round_robin(game.name, rules, labels, n_games, seed)
    files = [f"{name}.csv", f"{name}-ratings.csv", f"{name}.png"]
    output.write_csv(matrix, out_dir / files[0])
    output.write_csv(ratings, out_dir / files[1])
    short = {s: _short(s, study.short) for s in labels}
    plot_ladder(matrix.replace({"strategy": short, "opponent": short}),
                ratings.replace({"strategy": short}), list(short.values()), out_dir / files[2],
                study.title)
    order = ratings.sort_values("bradley_terry", ascending=False, kind="stable")
    key = pd.DataFrame({"strategy": order.strategy,
                        "Bradley-Terry strength ± SE": [f"{r:+.3f} ± {s:.3f}" for r, s in
                                                        zip(order.bradley_terry, order.se)],
                        "Elo-scale ± SE": [f"{e:+.0f} ± {s:.0f}" for e, s in
                                           zip(order.elo, order.elo_se)],
                        "strength − greedy's ± SE": [f"{r:+.3f} ± {s:.3f}" for r, s in
                                                     zip(order.vs_greedy, order.vs_greedy_se)]})
    vs_first = matrix[matrix.opponent == labels[0]]
    first_wins = ((1 - vs_first.win_share) * vs_first.games).sum()
    quick_note = ("\n\nIn this quick run the searchers play with the few playouts their labels give, "
                  "not the budgets above." if quick else "")
    md = f"""## {title(game)}

![ladder]({name}.png)

Every strategy plays every other at 2 players in both seats on the same deals (preset
`{study.preset}`, seat 0 first); a cell is the row strategy's win share against the column (ties
or draws half) with its 95% Wilson interval in `{files[0]}`. The Bradley-Terry model, fitted by
maximum likelihood to all games (plus half a win each way per pairing, so that a clean sweep gives
a finite strength), gives each strategy a strength on a log-odds scale (`{labels[0]}` = 0; Elo
scale = 400/ln 10 times it), with standard errors from the Fisher information; the last column
measures every strategy from the greedy (its SE is that of the difference). Rows from the
strongest. `{labels[0]}` wins {first_wins:g} of its {vs_first.games.sum():,} games: where that is
few, its distance from the others is only bounded (by the half win a pairing gets), and the last
column is the one to read. {study.note}{quick_note}

{markdown_table(key)}

- Command: `meeplelab analyse {name}` (also run by `meeplelab report`); a longer run of two of
  them: `meeplelab tournament {game.name} --players 2 -s {labels[1]} -s {labels[-1]} -n 400`
- Seed: {seed}; games per pairing and seating: the smaller budget of the two strategies
  ({', '.join(f'`{s}`: {n:,}' for s, n in ladder)})
- Rules: preset `{study.preset}`
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(name, title(game), md, files)


def _short(label: str, replacements) -> str:
    for old, new in replacements:
        label = label.replace(old, new)
    return label
