"""How long are Schotten Totten games, and how do they end?"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim import games as game_registry
from sim.core import output
from sim.core.stats import mean_se, wilson
from strategies.play import play, resolve_rules

from .common import markdown_table, quick_games, save_figure
from .registry import Section

NAME = "schotten-totten-game-shape"
TITLE = "Schotten Totten: game length and how games end"
SUMMARY = ("Distribution of game length (cards played), how games end (3 adjacent, 5 stones, "
           "blocked) and stones claimed by proof before the opponent completed, per preset.")
DEFAULT_SEED = 2000
STRATEGIES = [("random", 200_000), ("greedy", 5_000)]
PRESETS = ["base", "tactics", "base-claim-at-start", "tactics-claim-at-start"]


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    labels = game_registry.get("schotten-totten").extra_labels["end"]
    rows, hist_rows = [], []
    for preset in PRESETS:
        rules = resolve_rules("schotten-totten", preset)
        for spec, games in STRATEGIES:
            n = quick_games(games) if quick else games
            acc = {"cards": [], "end": [], "proof": []}

            def keep(batch, acc=acc):
                acc["cards"].append(batch.extras["cards_played"])
                acc["end"].append(batch.extras["end"])
                acc["proof"].append(batch.extras["proof_claims"])

            play("schotten-totten", rules, [spec, spec], games=n, seed=seed, progress=False,
                 partial=False,
                 on_batch=keep)
            cards, end, proof = (np.concatenate(acc[k]) for k in ("cards", "end", "proof"))
            m_cards, se_cards = mean_se(cards.sum(), (cards.astype(float) ** 2).sum(), n)
            m_proof, se_proof = mean_se(proof.sum(), (proof.astype(float) ** 2).sum(), n)
            row = {"preset": preset, "strategy": spec, "games": n,
                   "cards_played_mean": float(m_cards), "se_cards": float(se_cards),
                   "cards_played_median": float(np.median(cards)),
                   "proof_claims_mean": float(m_proof), "se_proof_claims": float(se_proof)}
            for code, label in labels.items():
                k = int((end == code).sum())
                low, high = wilson(k, n)
                row.update({f"end_{label}": k / n, f"end_{label}_ci_low": float(low),
                            f"end_{label}_ci_high": float(high)})
            rows.append(row)
            values, counts = np.unique(cards, return_counts=True)
            hist_rows += [{"preset": preset, "strategy": spec, "cards_played": int(v),
                           "games": int(c), "share": c / n} for v, c in zip(values, counts)]
    df, hist = pd.DataFrame(rows), pd.DataFrame(hist_rows)
    files = [f"{NAME}.csv", f"{NAME}-length.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    output.write_csv(hist, out_dir / files[1])
    _plot(df, hist, labels, out_dir / files[2])
    key = pd.DataFrame({
        "preset": df.preset, "strategy": df.strategy,
        "cards played ± SE": [f"{m:.2f} ± {s:.2f}" for m, s in zip(df.cards_played_mean, df.se_cards)],
        **{f"ends: {lab}": [f"{v:.3f} [{lo:.3f}, {hi:.3f}]" for v, lo, hi in
                            zip(df[f"end_{lab}"], df[f"end_{lab}_ci_low"], df[f"end_{lab}_ci_high"])]
           for lab in labels.values()},
        "stones by proof ± SE": [f"{m:.2f} ± {s:.2f}" for m, s in zip(df.proof_claims_mean, df.se_proof_claims)],
    })
    md = f"""## {TITLE}

![game shape]({NAME}.png)

Self-play per preset: the number of cards put on the table in a game (clan and tactic cards),
how the game ended (`adjacent`: 3 adjacent stones, which takes precedence when one claim makes
both; `five`: 5 stones; `blocked`: two turns in a row changed nothing, no card played, claimed
or drawn), and how many stones were claimed by proof, before the opponent had completed their
side. Shares with 95% Wilson intervals, means ± standard error.

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games per preset and strategy: {', '.join(f'`{s}`: {quick_games(g) if quick else g:,}' for s, g in STRATEGIES)}
- Rules: the presets {', '.join(f'`{p}`' for p in PRESETS)}
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _plot(df, hist, labels, path: Path) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(14, 4.8))
    for (preset, spec), sub in hist.groupby(["preset", "strategy"], sort=False):
        axes[0].plot(sub.cards_played, sub.share, label=f"{preset}, {spec}", lw=1.2)
    axes[0].set_xlabel("cards played in the game")
    axes[0].set_ylabel("share of games")
    axes[0].legend(fontsize=7)
    axes[0].grid(alpha=0.3)
    names = [f"{p}\n{s}" for p, s in zip(df.preset, df.strategy)]
    bottom = np.zeros(len(df))
    for lab in labels.values():
        share = df[f"end_{lab}"].to_numpy()
        axes[1].bar(names, share, bottom=bottom, label=lab)
        bottom += share
    axes[1].set_ylabel("share of games")
    axes[1].tick_params(axis="x", labelsize=7)
    axes[1].legend(fontsize=8)
    axes[1].set_title("how games end")
    fig.suptitle("Schotten Totten: game length and ends (self-play)")
    save_figure(fig, path)
