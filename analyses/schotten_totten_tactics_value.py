"""What is each Schotten Totten tactic card worth to the player who draws it?

For each strategy (the same on both seats) the `tactics` preset is played on a set of deals with
all ten tactic cards (the baseline), then, for each card, on the same deals (same seed, same game
indices) with that card taken out (rule `tactic_cards`): the tactic pile is the same shuffle with
the card deleted, the clan deal is unchanged. The holder of a card in a deal is the seat that drew
it in the baseline game (per-game extras `tactics_drawn0/1`); the card's value is the holder's
result with the card minus the same seat's result on the same deal without it (1 win, 0.5 draw,
0 loss), averaged over the deals where one seat drew it: a paired difference, with its standard
error (`sim.core.stats.paired_difference`).
"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.core import output
from sim.core.stats import Z95, paired_difference, wilson
from sim.schotten_totten import cards as C
from strategies.play import resolve_rules

from .common import markdown_table, save_figure, self_play
from .registry import Section

NAME = "schotten-totten-tactics-value"
TITLE = "Schotten Totten: what each tactic card is worth"
SUMMARY = ("Win share each tactic card is worth to the seat that draws it: self-play of random and "
           "greedy on the same deals with and without the card, paired, with 95% intervals.")
DEFAULT_SEED = 2001
PRESET = "tactics"
GAME = "schotten-totten"
# (strategy, deals in the full report): 11 runs of each (all cards, then each card out); sized so
# that the analysis takes about a minute on 2 cores (greedy plays about 25 times slower than random)
STRATEGIES = [("random", 200_000), ("greedy", 6_000)]
CARDS = list(C.TACTIC_CARDS)
TOKENS = [C.TACTIC_TOKENS[c] for c in CARDS]
GROUPS = {"morale": C.MORALE, "environment": C.ENVIRONMENT, "ruse": C.RUSES}
GROUP_COLOURS = {"morale": "tab:blue", "environment": "tab:green", "ruse": "tab:orange"}
EXTRAS = ("tactics_drawn0", "tactics_drawn1", "tactics_played0", "tactics_played1")


def quick_deals(deals: int) -> int:
    """Deals in --quick mode: a smoke test of a few seconds."""
    return max(40, deals // 150)


def group_of(card: int) -> str:
    return next(name for name, cards in GROUPS.items() if card in cards)


def card_values(shares0: np.ndarray, extras: dict, without0: dict) -> list[dict]:
    """One row per card: shares0[g] is seat 0's result in deal g with every card, extras the
    baseline's per-game columns, without0[card][g] seat 0's result in deal g without that card."""
    deals = shares0.size
    d0, d1, p0, p1 = (extras[k] for k in EXTRAS)
    rows = []
    for card in CARDS:
        bit = 1 << (card - C.N_CLAN)
        a, b = (d0 & bit) != 0, (d1 & bit) != 0
        one = a ^ b                      # exactly one seat drew it: that seat is the holder
        holder0 = a[one]
        with_c = np.where(holder0, shares0[one], 1.0 - shares0[one])
        w0 = without0[card][one]
        without_c = np.where(holder0, w0, 1.0 - w0)
        n = int(one.sum())
        value, se = paired_difference(with_c, without_c)
        low, high = wilson(with_c.sum(), n)
        played = np.where(holder0, (p0[one] & bit) != 0, (p1[one] & bit) != 0)
        rows.append({
            "card": C.TACTIC_TOKENS[card], "card_name": C.TACTIC_NAMES[card], "group": group_of(card),
            "deals": deals, "drawn_share": float((a | b).mean()), "both_drew_share": float((a & b).mean()),
            "holder_deals": n, "holder_seat0_share": float(holder0.mean()) if n else float("nan"),
            "played_share": float(played.mean()) if n else float("nan"),
            "value": value, "value_se": se, "value_ci_low": value - Z95 * se,
            "value_ci_high": value + Z95 * se,
            "holder_win_share": float(with_c.mean()) if n else float("nan"),
            "holder_win_ci_low": float(low), "holder_win_ci_high": float(high),
            "holder_win_share_without": float(without_c.mean()) if n else float("nan"),
        })
    return rows


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    base = resolve_rules(GAME, PRESET)
    rows, baseline = [], {}
    for spec, deals in STRATEGIES:
        n = quick_deals(deals) if quick else deals
        shares, extras = self_play(GAME, base, spec, n, seed, EXTRAS)
        without0 = {}
        for card in CARDS:
            rules = base.replace(tactic_cards=[t for t in TOKENS if t != C.TACTIC_TOKENS[card]])
            without0[card] = self_play(GAME, rules, spec, n, seed)[0][:, 0]
        baseline[spec] = float(shares[:, 0].mean())
        rows += [{"strategy": spec, **row} for row in card_values(shares[:, 0], extras, without0)]
    df = pd.DataFrame(rows)
    files = [f"{NAME}.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    _plot(df, out_dir / files[1])
    key = pd.DataFrame({
        "strategy": df.strategy, "card": df.card,
        "drawn": [f"{x:.3f}" for x in df.drawn_share],
        "value [95% CI]": [f"{v:+.4f} [{lo:+.4f}, {hi:+.4f}]" for v, lo, hi in
                           zip(df.value, df.value_ci_low, df.value_ci_high)],
        "holder wins [95% CI]": [f"{w:.4f} [{lo:.4f}, {hi:.4f}]" for w, lo, hi in
                                 zip(df.holder_win_share, df.holder_win_ci_low, df.holder_win_ci_high)],
        "holder wins without": [f"{w:.4f}" for w in df.holder_win_share_without],
        "played": [f"{x:.3f}" for x in df.played_share],
    })
    deals_note = ", ".join(f"`{s}`: {quick_deals(d) if quick else d:,}" for s, d in STRATEGIES)
    base_note = " and ".join(f"{w:.3f} with `{s}`" for s, w in baseline.items())
    md = f"""## {TITLE}

![tactic card values]({NAME}.png)

Both seats play the same strategy on the `{PRESET}` preset. Every deal is played with all ten
tactic cards and again, once per card, with that card taken out (rule `tactic_cards`): the same
seed and game index give the same clan deal and the same tactic shuffle, the card simply deleted
from the pile. The **holder** of a card is the seat that drew it in the game with all ten cards;
its **value** is the holder's result with the card minus the same seat's result on the same deal
without it (1 win, 0.5 draw, 0 loss), averaged over the deals where one seat drew it: a paired
difference with a 95% interval (1.96 standard errors). **Holder wins** is that seat's win share
with the card (95% Wilson interval), **holder wins without** the same seat's share on the same
deals without it; *drawn* is the share of deals in which the card was drawn, *played* the share
of those in which its holder played it. The holder is either seat (seat 0 moves first), so the
seat order is rotated implicitly; `holder_seat0_share` in the CSV says how often it was seat 0.
With all ten cards seat 0's win share is {base_note}. Deals in which both seats drew the card
(a Scout put it back and the other seat drew it, `both_drew_share`) have no single holder and
are left out. Who draws a card depends on the game (the greedy draws from the tactic pile only
after playing its tactic card), so the holder's win share is not 0.5 even without the card; the
paired value compares the same seat on the same deal and removes that.

This measures the whole game with against without the card, not the card in isolation: taking a
card out shortens the tactic pile, so every tactic card below it is drawn earlier, and the game
after its draw differs in everything. The value is also what the card is worth *to this
strategy*: random players draw nearly every tactic card in every game and play a card however
badly it fits; the greedy draws from the tactic pile only while it holds no tactic card, so about
half of them are drawn.

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; deals per strategy (each played 11 times: all cards, then each card out): {deals_note}
- Rules: the preset `{PRESET}`, and `--set tactic_cards=...` with one card out
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _plot(df: pd.DataFrame, path: Path) -> None:
    strategies = list(dict.fromkeys(df.strategy))
    fig, axes = plt.subplots(1, len(strategies), figsize=(6 * len(strategies), 4.8), sharey=True,
                             squeeze=False)
    y = np.arange(len(TOKENS))[::-1]            # the first card at the top
    for ax, spec in zip(axes[0], strategies):
        sub = df[df.strategy == spec].set_index("card").reindex(TOKENS)
        ax.barh(y, sub.value, xerr=Z95 * sub.value_se, capsize=3,
                color=[GROUP_COLOURS[g] for g in sub.group])
        ax.axvline(0, color="black", lw=0.8)
        ax.set_yticks(y, TOKENS)
        ax.set_xlabel("holder's win share with the card minus without it")
        ax.set_title(f"{spec} self-play")
        ax.grid(alpha=0.3, axis="x")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in GROUP_COLOURS.values()]
    axes[0][0].legend(handles, list(GROUP_COLOURS), fontsize=8, loc="lower right")
    fig.suptitle("Schotten Totten: value of each tactic card to the seat that draws it (95% intervals)")
    save_figure(fig, path)
