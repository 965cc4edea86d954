"""How much do the God-tile values depend on the reconstructed deck?

The real card list is not public, so the shipped deck is one plausible reconstruction. Here the
God-tile values are measured again on decks from the same generator with other plausible
parameters (and another seed): a conclusion that holds on every deck does not hang on the
reconstruction's guesses.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from sim.core import output
from sim.core.stats import Z95
from sim.pyramids import deck as D

from .common import markdown_table, save_figure
from .pyramids_god_tile_value import averages, base_rules, tile_values
from .registry import Section

NAME = "pyramids-deck-sensitivity"
TITLE = "Pyramids: do the God-tile values survive another deck?"
SUMMARY = ("God-tile values (4 players, rounds 2, 5 and 8) on the shipped reconstruction and on "
           "decks from the generator with other plausible parameters: which conclusions survive.")
DEFAULT_SEED = 2021
PLAYERS = 4
ROUNDS = (2, 5, 8)
GAMES = 2_000
QUICK_GAMES = 20
# name -> generator parameters that differ from the shipped deck's (deck.GENERATOR_DEFAULTS)
DECKS = {
    "shipped": None,
    "other-seed": {"seed": 7},
    "all-three-stone": {"two_stone_share": 0.0},
    "more-two-stone": {"two_stone_share": 0.35},
    "few-glyphs": {"glyph_share": 0.15},
    "many-glyphs": {"glyph_share": 0.45},
    "repeated-colours": {"same_colour_share": 0.3},
}


def deck_file(folder: Path, name: str, changes: dict | None) -> str:
    """The path of deck `name`: the shipped file, or a generated one written into `folder`."""
    if changes is None:
        return D.shipped_deck_path()
    kw = {**D.GENERATOR_DEFAULTS, **changes}
    path = folder / f"{name}.csv"
    path.write_text(D.format_deck(D.generate(**kw), D.generator_comments(kw)), encoding="utf-8")
    return str(path)


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    games = QUICK_GAMES if quick else GAMES
    frames = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, changes in DECKS.items():
            rules = base_rules(deck_file(Path(tmp), name, changes))
            avg = averages(tile_values(rules, PLAYERS, games, seed, rounds=ROUNDS))
            avg.insert(0, "deck", name)
            avg.insert(1, "changes", ", ".join(f"{k}={v}" for k, v in (changes or {}).items()) or "-")
            frames.append(avg)
    df = pd.concat(frames, ignore_index=True)
    summary = _summary(df)
    files = [f"{NAME}.csv", f"{NAME}-summary.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    output.write_csv(summary, out_dir / files[1])
    _plot(df, out_dir / files[2])
    md = f"""## {TITLE}

![deck sensitivity]({NAME}.png)

The God-tile value of the headline analysis (seat 0 forced to take the tile, paired with its own
choice on the same deals, greedy everywhere, random first player), at {PLAYERS} players, averaged
over rounds {', '.join(map(str, ROUNDS))}, on each deck: the shipped reconstruction and decks from
the same generator (`meeplelab pyramids-deck`) with one parameter changed. Per deck: the tile
worth most and least, and the rank correlation (Spearman) of its five tile values with the shipped
deck's. A ranking that holds on every deck is a conclusion about the game, not about the
reconstruction; a tile whose sign changes from deck to deck is not.

{markdown_table(summary, floatfmt=".2f")}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {games:,} per deck, round and tile (baselines the same)
- Rules: preset `rulebook-first-player`, `deck` as listed (generator parameters:
  `sim/pyramids/deck.py`, defaults {D.GENERATOR_DEFAULTS})
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _summary(df: pd.DataFrame) -> pd.DataFrame:
    ref = df[df.deck == "shipped"].set_index("god").score_diff
    rows = []
    for name, sub in df.groupby("deck", sort=False):
        v = sub.set_index("god").score_diff
        rho = spearmanr(v.reindex(ref.index), ref).statistic if name != "shipped" else 1.0
        best, worst = v.idxmax(), v.idxmin()
        rows.append({"deck": name, "changes": sub.changes.iloc[0],
                     "best_tile": best, "best_value": v[best],
                     "worst_tile": worst, "worst_value": v[worst],
                     "rank_correlation_with_shipped": float(rho)})
    return pd.DataFrame(rows)


def _plot(df: pd.DataFrame, path: Path) -> None:
    gods = list(df.drop_duplicates("tile").sort_values("tile").god)
    decks = list(dict.fromkeys(df.deck))
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / len(decks)
    x = np.arange(len(gods))
    for i, name in enumerate(decks):
        sub = df[df.deck == name].set_index("god").reindex(gods)
        ax.errorbar(x + (i - (len(decks) - 1) / 2) * width, sub.score_diff, yerr=Z95 * sub.score_se,
                    fmt="o", capsize=2, label=name)
    ax.axhline(0, color="black", lw=0.8, ls="--")
    ax.set_xticks(x, gods)
    ax.set_ylabel("score: forced - own choice")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=7, ncol=2)
    ax.set_title(f"Pyramids: God-tile value on other decks ({PLAYERS} players, 95% intervals)")
    save_figure(fig, path)
