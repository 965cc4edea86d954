"""Are a strategy's default parameters worth keeping? `meeplelab tune` with the budget a game's
study states, then the tuned against the default parameters on held-out seeds (generic: every
game that declares a `TuningStudy` gets this section, "<game>-tuning")."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from sim.core import output
from sim.core.stats import Z95
from strategies.play import resolve_rules

from .common import game_label, markdown_table
from .registry import Section
from .workbench.plots import tune_figure
from .workbench.comparison import compare
from .workbench.tuner import confirmed, tune

SUFFIX = "tuning"
QUICK = dict(trials=3, games=10, confirm_games=10)


def title(game) -> str:
    return f"{game_label(game)}: tuning the {game.studies[SUFFIX].strategy}"


def summary(game) -> str:
    s = game.studies[SUFFIX]
    return (f"A seeded Optuna study (TPE) of {s.strategy}'s parameters against {', '.join(s.against)} "
            f"at {s.players} players, then the tuned against the default parameters on held-out "
            f"seeds, paired, with the 95% interval.")


def run(game, out_dir: Path, quick: bool = False, seed: int | None = None) -> Section:
    s = game.studies[SUFFIX]
    seed = s.seed if seed is None else seed
    name = f"{game.name}-{SUFFIX}"
    budget = QUICK if quick else dict(trials=s.trials, games=s.games, confirm_games=s.confirm_games)
    history = tune(game.name, resolve_rules(game.name, s.preset), s.strategy, list(s.params),
                   list(s.against), players=s.players, seed=seed, progress=False, **budget)
    if history.attrs["interrupted"]:
        raise KeyboardInterrupt
    a, c = history.attrs, confirmed(history)
    rows = [{"players": s.players, **c}]
    tuned_label = a["tuned"]
    for p in s.check_players:        # the tuned parameters where they were not tuned
        lineup = [s.strategy] + [s.against[i % len(s.against)] for i in range(p - 1)]
        df = compare(game.name, resolve_rules(game.name, s.preset), lineup, [f"seat0={tuned_label}"],
                     players=p, games=budget["confirm_games"], seed=seed,
                     first_game=budget["games"], progress=False)
        r = df[(df.measure == "win_share") & (df.slot == 0)].iloc[0]
        rows.append({"players": p, "default": r.base, "default_se": r.base_se, "tuned": r.value,
                     "tuned_se": r.value_se, "diff": r.difference, "diff_se": r.difference_se,
                     "ci_low": r.ci_low, "ci_high": r.ci_high, "games": int(r.games),
                     "better": bool(r.ci_low > 0)})
    checks = pd.DataFrame(rows)
    worse = checks[checks.ci_high < 0].players.tolist()
    if a["best_params"] == a["default_params"]:
        verdict = "the study's best trial was the defaults themselves: they stay"
    elif not c["better"]:
        verdict = "the held-out interval does not show the tuned parameters better: the defaults stay"
    elif worse:
        verdict = (f"better at {s.players} players, but worse at {', '.join(map(str, worse))}: the "
                   f"defaults, one set for every player count, stay; the tuned set is the "
                   f"{s.players}-player choice")
    else:
        verdict = "the tuned parameters are better, and no worse at the other player counts measured"
    result = checks.rename(columns={"default": "default_value", "tuned": "tuned_value",
                                    "diff": "difference", "diff_se": "difference_se",
                                    "games": "held_out_games", "better": "tuned_better"}).assign(
        strategy=s.strategy, objective=a["objective"], default=str(a["default_params"]),
        tuned=str(a["best_params"]), trials=a["trials"], games_per_trial=a["games"] * a["rotations"],
        best_trial_value=a["best_value"])
    result = result[["strategy", "players", "objective", "default", "tuned", "trials",
                     "games_per_trial", "best_trial_value", "held_out_games", "default_value",
                     "default_se", "tuned_value", "tuned_se", "difference", "difference_se",
                     "ci_low", "ci_high", "tuned_better"]]
    files = [f"{name}.csv", f"{name}-history.csv", f"{name}.png"]
    output.write_csv(result, out_dir / files[0])
    output.write_csv(history, out_dir / files[1])
    tune_figure(history, out_dir / files[2], f"{title(game)}: against {', '.join(s.against)}, "
                f"{s.players} players")
    params = ", ".join(f"`{p}`" for p in s.params)
    shown = pd.DataFrame({
        "players": checks.players, "held-out games": checks.games.map("{:,}".format),
        f"default's {a['objective']} ± 95%": [f"{v:.4f} ± {Z95 * e:.4f}" for v, e in
                                              zip(checks.default, checks.default_se)],
        f"tuned's ± 95%": [f"{v:.4f} ± {Z95 * e:.4f}" for v, e in zip(checks.tuned, checks.tuned_se)],
        "tuned - default [95% CI]": [f"{d:+.4f} [{lo:+.4f}, {hi:+.4f}]" for d, lo, hi in
                                     zip(checks["diff"], checks.ci_low, checks.ci_high)]})
    elsewhere = (f" (and at {', '.join(map(str, s.check_players))} players, where they were not "
                 f"tuned, in the table)" if s.check_players else "")
    values = "; ".join(f"{label}: " + ", ".join(f"{k}={v:.4g}" for k, v in d.items())
                       for label, d in (("default", a["default_params"]), ("tuned", a["best_params"])))
    against = " ".join(f"--against {x}" for x in s.against)
    budget_text = (f"{a['trials']} trials of {a['games']:,} deals"
                   + (f" x {a['rotations']} seatings" if a["rotations"] > 1 else ""))
    md = f"""## {title(game)}

![tuning]({name}.png)

A seeded Optuna study (TPE sampler) over {params} of `{s.strategy}`, playing against
`{', '.join(s.against)}` at {s.players} players (preset `{s.preset}`, the tuned seat rotated over the
table): {budget_text} each, every trial on the same deals, so that trials differ only by their
parameters; the first trial is the defaults. The best trial's own value ({a['best_value']:.4f}) is
biased up by the choice of the best of {a['trials']}; the honest figure is the confirmation: the
tuned and the default parameters on {c['games']:,} fresh games that no trial played, paired game by
game. Tuned - default: **{c['diff']:+.4f} [{c['ci_low']:+.4f}, {c['ci_high']:+.4f}]** (95%){elsewhere}:
{verdict}. {s.note}

Parameters: {values}.

{markdown_table(shown)}

- Command: `meeplelab tune {game.name} {s.strategy} {' '.join('--param ' + p for p in s.params)}
  {against} --players {s.players} --preset {s.preset} --trials {budget['trials']} -n {budget['games']}
  --confirm-games {budget['confirm_games']} --seed {seed}` (the same as `meeplelab analyse {name}`)
- Seed: {seed}; games: {budget_text}, then {c['games']:,} held out per parameter set
- Files: {', '.join(f'`{f}`' for f in files)}
"""
    return Section(name, title(game), md, files)
