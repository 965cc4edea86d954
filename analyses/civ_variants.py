"""Which CIV rulings matter? Each open ruling of the specification flipped from its default,
the draft set-up and the card removal at 2-3 players, in greedy self-play, paired game by game
with the default rules on the same seeds."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sim.civ.cards import DOMAINS
from sim.core import output
from sim.core.stats import Z95, paired_difference, wilson

from .civ_common import GAME, HEGEMONY, first_side, preset_rules
from .common import games_of, markdown_table, save_figure
from .registry import Section

NAME = "civ-variants"
TITLE = "CIV: which rulings matter"
SUMMARY = ("Each open ruling of the rules specification flipped from its default (and the draft "
           "set-up, and no card removal at 2-3 players), in greedy self-play at 2 to 4 players, "
           "paired game by game with the default rules on the same seeds: the change in the first "
           "player's edge, in the share of games won by Hegemony and its Domains, in length, and "
           "how many games the ruling changes at all.")
DEFAULT_SEED = 2019
FIELD = "greedy"
GAMES = 2_000          # per variant and player count (the defaults: the same seeds)
QUICK_GAMES = 12
ALL = (2, 3, 4)
CLEAR_Z = 3.0          # |difference| / SE above which a change is called clear
# (label, base preset, rule changes, player counts). Every ruling of CivRules (ruling=True) but
# `teams`, which is a set-up (civ-first-player, civ-endings); Attack on the teammate is a ruling
# of team play only, so it is flipped from civ-teams.
VARIANTS = [
    ("draft set-up", "civ-classic", {"setup": "draft"}, ALL),
    ("no card removal at 2-3 players", "civ-classic", {"removal_players": ()}, (2, 3)),
    ("Technological Leap takes a discard", "civ-classic", {"leap_takes_discard": True}, ALL),
    ("Monopoly with one playable card", "civ-classic", {"level2_short": True}, ALL),
    ("Attack on a Domain one lacks", "civ-classic", {"attack_needs_own": False}, ALL),
    ("Attack never on Military", "civ-classic", {"attack_military": False}, ALL),
    ("Attack spares the teammate", "civ-teams", {"attack_hits_teammate": False}, (4,)),
    ("Embargo blocks effects too", "civ-classic", {"embargo_blocks_effects": True}, ALL),
    ("Embargo on an empty Domain", "civ-classic", {"embargo_needs_card": False}, ALL),
    ("Embargo card counts", "civ-classic", {"embargo_card_counts": True}, ALL),
    ("Democracy only on a card", "civ-classic", {"democracy_needs_card": True}, ALL),
    ("Democracy card counts", "civ-classic", {"democracy_card_counts": True}, ALL),
    ("Art coin kept on a tie", "civ-classic", {"art_tie": "keep"}, ALL),
    ("Art coin needs 2 cards", "civ-classic", {"art_min_cards": 2}, ALL),
    ("two Inspirations a turn", "civ-classic", {"copies_per_turn": 2}, ALL),
    ("Inspiration leaves the slot free", "civ-classic", {"copy_uses_slot": False}, ALL),
    ("no Hegemony in the final round", "civ-classic", {"hegemony_in_final_round": False}, ALL),
    ("empty Domains score for all", "civ-classic", {"empty_domain_scores": True}, ALL),
    ("tied points share the win", "civ-classic", {"tie_break": "shared"}, ALL),
]


def _value_text(v) -> str:
    """A rule value as `--set` takes it (a list comma-separated, [] when empty)."""
    return (",".join(map(str, v)) or "[]") if isinstance(v, tuple) else str(v).lower()


def _changes_text(changes: dict) -> str:
    return ", ".join(f"{k}={_value_text(v)}" for k, v in changes.items())


def _outcome(g: dict) -> np.ndarray:
    """One row per game of everything recorded about it (shares and the per-game columns)."""
    cols = [g["shares"]] + [np.asarray(v, float).reshape(len(v), -1) for k, v in sorted(g.items())
                            if k not in ("shares", "scores")]
    return np.hstack(cols + [g["scores"]])


def _measures(rules, players: int, g: dict) -> dict:
    share, fair, side = first_side(rules, players, g["shares"])
    heg = g["end"] == HEGEMONY
    return {"shares": g["shares"], "share": share, "fair": fair, "side": side, "heg": heg,
            "turns": g["turns"].astype(float),
            "domains": [heg & (g["hegemony_domain"] == d) for d in range(len(DOMAINS))]}


def _row(label, base_preset, changes, players, m, base, changed, n):
    low, high = wilson(m["share"].sum(), n)
    hlow, hhigh = wilson(m["heg"].sum(), n)
    row = {"variant": label, "base": base_preset, "changes": _changes_text(changes),
           "players": players, "games": n, "first_side": m["side"],
           "first_win_share": m["share"].mean(), "first_ci_low": float(low),
           "first_ci_high": float(high), "fair_share": m["fair"], "edge": m["share"].mean() - m["fair"],
           "hegemony_share": m["heg"].mean(), "hegemony_ci_low": float(hlow),
           "hegemony_ci_high": float(hhigh), "mean_turns": m["turns"].mean()}
    if base is None:
        return row
    clow, chigh = wilson(changed.sum(), n)
    row.update(changed_share=changed.mean(), changed_ci_low=float(clow), changed_ci_high=float(chigh))
    won = (m["shares"] != base["shares"]).any(axis=1)      # who wins, or how the win is shared
    wlow, whigh = wilson(won.sum(), n)
    row.update(result_changed_share=won.mean(), result_changed_ci_low=float(wlow),
               result_changed_ci_high=float(whigh))
    for key, a, b in (("edge", m["share"], base["share"]), ("hegemony", m["heg"], base["heg"]),
                      ("turns", m["turns"], base["turns"])):
        d, se = paired_difference(a, b)
        row[f"{key}_vs_base"], row[f"se_{key}_vs_base"] = d, se
    shifts = [paired_difference(a, b) for a, b in zip(m["domains"], base["domains"])]
    worst = int(np.argmax([abs(d) for d, _ in shifts]))
    moved = shifts[worst][0] != 0
    row.update(largest_domain_shift=DOMAINS[worst] if moved else "",
               domain_shift=shifts[worst][0], se_domain_shift=shifts[worst][1])
    return row


def tables(quick: bool, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    n = QUICK_GAMES if quick else GAMES
    rows, domains, bases = [], [], {}

    def add_domains(label, players, m, base):
        for d, domain in enumerate(DOMAINS):
            low, high = wilson(m["domains"][d].sum(), n)
            r = {"variant": label, "players": players, "domain": domain,
                 "share_of_games": m["domains"][d].mean(), "ci_low": float(low), "ci_high": float(high)}
            if base is not None:
                r["vs_base"], r["se_vs_base"] = paired_difference(m["domains"][d], base["domains"][d])
            domains.append(r)

    for base_preset in dict.fromkeys(b for _, b, _, _ in VARIANTS):
        rules = preset_rules(base_preset)
        for p in sorted({p for _, b, _, ps in VARIANTS if b == base_preset for p in ps}):
            g = games_of(GAME, rules, [FIELD] * p, n, seed)
            bases[base_preset, p] = (g, _measures(rules, p, g))
            label = f"default ({base_preset})"
            rows.append(_row(label, base_preset, {}, p, bases[base_preset, p][1], None, None, n))
            add_domains(label, p, bases[base_preset, p][1], None)
    for label, base_preset, changes, players in VARIANTS:
        rules = preset_rules(base_preset).replace(**changes)
        for p in players:
            g = games_of(GAME, rules, [FIELD] * p, n, seed)
            base_g, base = bases[base_preset, p]
            changed = (_outcome(g) != _outcome(base_g)).any(axis=1)
            m = _measures(rules, p, g)
            rows.append(_row(label, base_preset, changes, p, m, base, changed, n))
            add_domains(label, p, m, base)
    return pd.DataFrame(rows), pd.DataFrame(domains)


def _summary(flipped: pd.DataFrame) -> str:
    """Which rulings changed nothing, and which changed the balance clearly (data-driven)."""
    def names(mask):
        return ", ".join(dict.fromkeys(flipped.variant[mask])) or "none"

    def clear(key):
        d, se = flipped[f"{key}_vs_base"], flipped[f"se_{key}_vs_base"]
        return (se > 0) & (d.abs() > CLEAR_Z * se)

    quiet = flipped.groupby("variant", sort=False).changed_share.transform("max") == 0
    return (f"- Changed no game at any player count: {names(quiet)}.\n"
            f"- Moved the first side's edge by more than {CLEAR_Z:g} SE at some player count: "
            f"{names(clear('edge'))}.\n"
            f"- Moved the share of games won by Hegemony by more than {CLEAR_Z:g} SE at some "
            f"player count: {names(clear('hegemony'))}.")


def _diff(d, se) -> str:
    if np.isnan(d):
        return ""
    mark = " **" if se > 0 and abs(d) > CLEAR_Z * se else ""
    return f"{d:+.3f} ± {Z95 * se:.3f}{mark}"


def run(out_dir: Path, quick: bool = False, seed: int = DEFAULT_SEED) -> Section:
    df, domains = tables(quick, seed)
    n = QUICK_GAMES if quick else GAMES
    files = [f"{NAME}.csv", f"{NAME}-domains.csv", f"{NAME}.png"]
    output.write_csv(df, out_dir / files[0])
    output.write_csv(domains, out_dir / files[1])
    _plot(df, out_dir / files[2])
    flipped = df[~df.variant.str.startswith("default")]
    key = pd.DataFrame({
        "variant": flipped.variant, "players": flipped.players,
        "games changed [95% CI]": [f"{c:.3f} [{lo:.3f}, {hi:.3f}]" for c, lo, hi in
                                   zip(flipped.changed_share, flipped.changed_ci_low,
                                       flipped.changed_ci_high)],
        "result changed [95% CI]": [f"{c:.3f} [{lo:.3f}, {hi:.3f}]" for c, lo, hi in
                                    zip(flipped.result_changed_share, flipped.result_changed_ci_low,
                                        flipped.result_changed_ci_high)],
        "first side's edge Δ ± 95%": [_diff(d, s) for d, s in
                                      zip(flipped.edge_vs_base, flipped.se_edge_vs_base)],
        "Hegemony share Δ ± 95%": [_diff(d, s) for d, s in
                                   zip(flipped.hegemony_vs_base, flipped.se_hegemony_vs_base)],
        "largest Hegemony-Domain Δ ± 95%": [f"{dom} {_diff(d, s)}" if dom else "" for dom, d, s in
                                            zip(flipped.largest_domain_shift, flipped.domain_shift,
                                                flipped.se_domain_shift)],
        "turns Δ ± 95%": [_diff(d, s) for d, s in zip(flipped.turns_vs_base, flipped.se_turns_vs_base)]})
    defaults = df[df.variant.str.startswith("default")]
    base_key = pd.DataFrame({
        "rules": defaults.variant, "players": defaults.players, "first side": defaults.first_side,
        "its wins [95% CI]": [f"{w:.3f} [{lo:.3f}, {hi:.3f}]" for w, lo, hi in
                              zip(defaults.first_win_share, defaults.first_ci_low, defaults.first_ci_high)],
        "fair": defaults.fair_share.map("{:.3f}".format),
        "won by Hegemony [95% CI]": [f"{h:.3f} [{lo:.3f}, {hi:.3f}]" for h, lo, hi in
                                     zip(defaults.hegemony_share, defaults.hegemony_ci_low,
                                         defaults.hegemony_ci_high)],
        "turns": defaults.mean_turns.map("{:.1f}".format)})
    tests = 4 * len(flipped)
    summary = _summary(flipped)
    md = f"""## {TITLE}

![variants]({NAME}.png)

The field is `{FIELD}` self-play (every seat; seat 0 first). Each variant changes one rule of
its base rules (`civ-classic`; for Attack on the teammate, `civ-teams`) and plays the same
seeds as the base at the same player count, so every difference is paired game by game
(± 1.96 SE of the paired difference). Every open ruling of the specification (`ruling = true`
in `meeplelab rules civ`) is flipped to its alternative, except `teams`, a set-up measured by
`civ-first-player` and `civ-endings`; with them the draft set-up and no card removal at 2-3
players. Per variant and player count: the share of games the change alters at all (any
recorded outcome differs from the base game on the same seed: win shares, scores, end,
Hegemony Domain, turns, cards left, cards in play; a ruling that never comes up changes
nothing), the share whose result it changes (the win shares differ: another winner, or a win
shared otherwise), the change in the first side's win share (seat 0; in team play seat 0's
team), in the share of games won by Hegemony, in the share won by Hegemony in the Domain that
moves most (all Domains in `{files[1]}`) and in the number of turns. `**`: the
difference exceeds {CLEAR_Z:g} standard errors; with {tests} differences in the table, about
{0.05 * tests:.0f} would pass 1.96 SE by chance alone, hardly any {CLEAR_Z:g} SE. A ruling that
changes no game here is one whose situation the greedy never brings about (it may matter to
other players). The base rules:

{markdown_table(base_key)}

{summary}

{markdown_table(key)}

- Command: `meeplelab analyse {NAME}` (also run by `meeplelab report`)
- Seed: {seed}; games: {n:,} per variant and player count, the base rules the same
- Rules: the base preset with the changes of column `changes` in `{files[0]}`
  (`meeplelab rules civ --preset civ-classic --set KEY=VALUE` prints one)
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(NAME, TITLE, md, files)


def _plot(df: pd.DataFrame, path: Path) -> None:
    flipped = df[~df.variant.str.startswith("default")]
    labels = list(dict.fromkeys(flipped.variant))
    players = sorted(flipped.players.unique())
    y = np.arange(len(labels))
    fig, axes = plt.subplots(1, 3, figsize=(16, 0.42 * len(labels) + 1.8), sharey=True,
                             layout="constrained")
    height = 0.8 / len(players)
    for i, p in enumerate(players):
        sub = flipped[flipped.players == p].set_index("variant").reindex(labels)
        off = y + (i - (len(players) - 1) / 2) * height
        any_change = axes[0].errorbar(sub.changed_share, off,
                                      xerr=[sub.changed_share - sub.changed_ci_low,
                                            sub.changed_ci_high - sub.changed_share],
                                      fmt="o", ms=4, capsize=2, label=f"{p} players")
        axes[0].errorbar(sub.result_changed_share, off,
                         xerr=[sub.result_changed_share - sub.result_changed_ci_low,
                               sub.result_changed_ci_high - sub.result_changed_share],
                         fmt="x", ms=5, capsize=2, color=any_change[0].get_color(), alpha=0.7)
        axes[1].errorbar(sub.edge_vs_base, off, xerr=Z95 * sub.se_edge_vs_base, fmt="o", ms=4,
                         capsize=2, label=f"{p} players")
        axes[2].errorbar(sub.hegemony_vs_base, off, xerr=Z95 * sub.se_hegemony_vs_base, fmt="o",
                         ms=4, capsize=2, label=f"{p} players")
    axes[0].set_xlabel("share of games the change alters (o) and whose result it changes (x), "
                       "95% Wilson", fontsize=9)
    axes[1].set_xlabel("first side's win share: variant - base (95%)")
    axes[2].set_xlabel("share won by Hegemony: variant - base (95%)")
    for ax in axes[1:]:
        ax.axvline(0, color="black", lw=0.8, ls="--")
    for ax in axes:
        ax.grid(alpha=0.3, axis="x")
    axes[0].set_yticks(y, labels, fontsize=8)
    axes[0].invert_yaxis()
    axes[0].legend(fontsize=8)
    fig.suptitle(f"CIV: rulings flipped, {FIELD} self-play, paired with the base rules on the same seeds")
    save_figure(fig, path)
