"""`meeplelab compare`, `sweep` and `tune`: the designers' workbench on the command line
(analyses/workbench/), registered on the main group by meeplelab.cli."""
from __future__ import annotations

import sys

import click

from sim import games as game_registry
from sim.core import output as out

from .cli import (CONTEXT, GameCount, _data_files, _load_plugins, _max_seconds, _rules_label,
                  allow_long_option, backend_options, friendly, main, nothing_finished,
                  rules_options)


def base_options(fn):
    """The base set-up and the run: strategies, players, games, seed, threads, plugins, engine,
    output (a CSV, with its JSON provenance and PNG beside it)."""
    options = [
        click.option("-o", "--output", "output_file", type=click.Path(dir_okay=False),
                     metavar="FILE.csv", help="Write the tidy table to FILE.csv, the provenance to "
                     "FILE.json and the figure to FILE.png."),
        click.option("--progress/--no-progress", default=None,
                     help="Progress bar (default: on a terminal)."),
        click.option("--engine", type=click.Choice(["auto", "fast", "reference"]), default="auto",
                     show_default=True, help="auto: the compiled engine unless a strategy cannot be compiled."),
        click.option("--plugin", "plugins", multiple=True, type=click.Path(dir_okay=False),
                     metavar="FILE.py", help="Load strategies from a Python file (repeatable)."),
        click.option("--threads", type=int, default=None, help="Compiled threads (default: all cores)."),
        click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
                     help="Seed: every set-up plays the same seeded deals."),
        click.option("--players", "-p", type=int, default=None,
                     help="Number of players (default: the number of -s given, or the game's usual count)."),
    ]
    for option in options:
        fn = option(fn)
    return rules_options(allow_long_option(fn))


def _outputs(output_file):
    """The three paths of -o FILE.csv, checked before anything runs (or None)."""
    if not output_file:
        return None
    path = out.check_writable(output_file)
    return path, out.check_writable(out.sidecar_path(path)), out.check_writable(path.with_suffix(".png"))


def _setup_record(s) -> dict:
    return {"label": s.label, "changes": list(s.changes), "rules": s.rules.to_dict(),
            **_data_files(s.rules), "strategies": [b.label for b in s.lineup]}


def _write(paths, df, record: dict, draw) -> None:
    """The table, its provenance and its figure (draw(df, path)), each written atomically."""
    out.write_csv(df, paths[0])
    out.write_json(paths[1], out.provenance(**record))
    draw(df, paths[2])
    click.echo(f"wrote {paths[0]}, {paths[1]} and {paths[2]}", err=True)


def _finish(interrupted: bool, what: str) -> None:
    if interrupted:
        click.echo(f"interrupted: {what}", err=True)
        sys.exit(130)


# ------------------------------------------------------------------ compare
@main.command(context_settings=CONTEXT)
@click.argument("game")
@click.option("-s", "--strategy", "strategies", multiple=True, metavar="NAME[:k=v,...]",
              help="The base's strategy for a seat: once for every seat, or once per seat.")
@click.option("--variant", "variants", multiple=True, metavar="CHANGES",
              help="A variant (repeatable): key=value changes separated by ';' (or by commas "
                   "before a key), a preset name or a rule file. Keys: rule parameters, "
                   "seatN=STRATEGY, seatN.PARAM, preset=NAME, rules=FILE.toml.")
@click.option("-n", "--games", type=GameCount(), default="10000", show_default=True,
              help="Deals (the most, with --until-ci; at most 1e12); with seats rotated each is "
                   "played once per seating.")
@click.option("--until-ci", type=float, default=None, metavar="W",
              help="Play on, chunk by chunk, until the 95% half-width of the main difference is "
                   "below W for every variant (or -n is reached).")
@click.option("--main", "main_measure", metavar="MEASURE", default=None,
              help="The main difference for --until-ci: win_share:SEAT, mean_score:SEAT or a "
                   "measure of the game (default: the win share of the seat a variant changes, "
                   "else first_edge).")
@click.option("--rotate/--no-rotate", default=None,
              help="Rotate the lineup over the seats (default: when a variant changes a strategy).")
@click.option("--chunk", type=click.IntRange(1), default=None, help="Deals per chunk.")
@base_options
@backend_options
@friendly
def compare(game, strategies, variants, games, until_ci, main_measure, rotate, chunk, players,
            seed, threads, plugins, engine, progress, allow_long, output_file, preset, rules_file,
            assignments):
    """Compare a base set-up of GAME with variants of its rules or of a seat's strategy, all
    played on the same seeds (common random numbers), game by game.

    Per variant: the share of games whose outcome changed at all and whose result changed;
    each seat's win share and mean score, the first side's edge and every measure of the game
    (`meeplelab games` lists them), as base, variant and the paired difference with its 95%
    interval. A variant identical to the base shows exactly zero everywhere.

    \b
    Examples:
      meeplelab compare diamant -s leave-after-hazards:k=2 --variant hazard_copies=2 \\
          --variant incan-gold-2006 -n 1e6
      meeplelab compare pyramids -s greedy --variant tomb_points=4 --until-ci 0.005 -n 1e6
      meeplelab compare civ -s greedy --variant "hegemony_more=6" --variant "setup=draft" -o civ.csv
      meeplelab compare schotten-totten -s greedy --variant "seat0=flat-mc:sims=10,prune=4" -n 200
      meeplelab compare diamant -s leave-at-gems:t=10 --variant seat0.t=12 --until-ci 0.002
    """
    from analyses.workbench import compare as run_compare
    from analyses.workbench.comparison import format_table, setups
    from analyses.workbench.plots import compare_figure
    from strategies.play import resolve_rules
    game_registry.get(game)
    _load_plugins(plugins)
    rules = resolve_rules(game, preset, rules_file, assignments)
    base, arms = setups(game, rules, strategies, variants, players)   # every error before a run
    paths = _outputs(output_file)
    with nothing_finished():
        df = run_compare(game, rules, list(base.lineup), arms, games=games, seed=seed,
                         rotate=rotate, until_ci=until_ci, main=main_measure, chunk=chunk,
                         threads=threads, progress=progress, engine=engine,
                         max_seconds=_max_seconds(allow_long))
    a = df.attrs
    seatings = f" x {a['rotations']} seatings" if a["rotations"] > 1 else ""
    click.echo(f"{game} compare: {base.players} players, {a['deals']:,} deals{seatings} "
               f"({a['games']:,} games per set-up), seed {seed}, base rules "
               f"{_rules_label(rules, preset)}, strategies {', '.join(a['base_strategies'])}; "
               f"{a['elapsed_seconds']:.2f} s\n")
    click.echo(format_table(df), nl=False)
    if until_ci is not None:
        reached = "reached" if a["precision_reached"] else "not reached (the -n limit)"
        click.echo(f"\nuntil-ci {until_ci}: {a['main']} half-width {reached} after {a['games']:,} "
                   f"games per set-up")
    if paths:
        _write(paths, df, dict(
            command_kind="compare", game=game, base=_setup_record(base),
            variants=[_setup_record(v) for v in arms], seed=seed, deals=a["deals"],
            deals_requested=games, rotations=a["rotations"], games=a["games"],
            threads=a["threads"], engine=a["engine"], elapsed_seconds=round(a["elapsed_seconds"], 3),
            interrupted=a["interrupted"], until_ci=until_ci, main=a["main"],
            precision_reached=a["precision_reached"]),
            lambda d, p: compare_figure(d, p, f"{game}: {len(arms)} variant(s) against the base"))
    _finish(a["interrupted"], f"the tables cover the {a['deals']:,} deals that finished")


# ------------------------------------------------------------------ sweep
@main.command(context_settings=CONTEXT)
@click.argument("game")
@click.option("-s", "--strategy", "strategies", multiple=True, metavar="NAME[:k=v,...]",
              help="Strategy for a seat: once for every seat, or once per seat.")
@click.option("--grid", multiple=True, metavar="KEY=VALUES",
              help="A swept key and its values (repeatable: the cross product): 1,2,5, 1..8, "
                   "0.1..0.5:0.1, or a|b|c when a value holds commas. Keys: rule parameters, "
                   "seatN=STRATEGY, seatN.PARAM.")
@click.option("-n", "--games", type=GameCount(), default="10000", show_default=True,
              help="Deals per point (at most 1e12); with seats rotated each is played once per "
                   "seating.")
@click.option("--objective", metavar="MEASURE", default=None,
              help="What picks the best point: win_share:SEAT, mean_score:SEAT or a measure of "
                   "the game (default: the swept seat's win share, else first_edge).")
@click.option("--goal", type=click.Choice(["max", "min", "zero"]), default=None,
              help="Best = the largest, smallest or closest to 0 objective (default: zero for "
                   "first_edge, else max).")
@click.option("--rotate/--no-rotate", default=None,
              help="Rotate the lineup over the seats (default: when a seat's strategy is swept).")
@click.option("--chunk", type=click.IntRange(1), default=None, help="Deals per chunk.")
@base_options
@backend_options
@friendly
def sweep(game, strategies, grid, games, objective, goal, rotate, chunk, players, seed, threads,
          plugins, engine, progress, allow_long, output_file, preset, rules_file, assignments):
    """Play every point of a grid of rule or strategy parameters of GAME on the same seeds.

    Prints each point's objective with its interval and the best point with its paired
    advantage over the runner-up; a long sweep first says how long it will take. Ctrl-C keeps
    the points that finished. With -o: a tidy CSV (one row per point and measure), provenance
    JSON and a PNG (1 key: every measure against the value, 95% bands; 2 keys: a heat map of the
    objective with the best marked).

    \b
    Examples:
      meeplelab sweep diamant -s leave-after-hazards:k=2 -s leave-at-gems:t=10 \\
          -s expected-value -s expected-value --grid seat0.k=1..6 -n 1e5 -o k.csv
      meeplelab sweep pyramids -s greedy --grid tomb_points=2..6 -n 20000
      meeplelab sweep diamant -s expected-value --grid hazard_copies=2..4 --grid rounds=3..6
      meeplelab sweep schotten-totten -s greedy --grid "seat0.lam=0,0.25,0.5,1" -n 5000
    """
    import pandas as pd
    from analyses.workbench import sweep as run_sweep
    from analyses.workbench.changes import base_setup
    from analyses.workbench.plots import sweep_figure
    from analyses.workbench.sweeps import format_best, objective_rows, parse_grid
    from strategies.play import resolve_rules
    game_registry.get(game)
    _load_plugins(plugins)
    rules = resolve_rules(game, preset, rules_file, assignments)
    base = base_setup(game, rules, strategies, players)
    parse_grid(game, base, grid)                  # every error before a run
    paths = _outputs(output_file)
    with nothing_finished():
        df = run_sweep(game, rules, list(base.lineup), list(grid), games=games, seed=seed,
                       objective=objective, goal=goal, rotate=rotate, chunk=chunk,
                       threads=threads, progress=progress, engine=engine,
                       echo=lambda m: click.echo(m, err=True), max_seconds=_max_seconds(allow_long))
    a = df.attrs
    seatings = f" x {a['rotations']} seatings" if a["rotations"] > 1 else ""
    click.echo(f"{game} sweep: {a['points_done']} of {a['points']} points, {games:,} deals{seatings} "
               f"each, seed {seed}, base rules {_rules_label(rules, preset)}; "
               f"{a['elapsed_seconds']:.2f} s\n")
    if len(df):
        sub = objective_rows(df, a["objective"])
        shown = pd.DataFrame({"point": sub.label, "games": sub.games.map("{:,}".format),
                              f"{a['objective']} [95% CI]": [
                                  f"{v:.4f} [{lo:.4f}, {hi:.4f}]"
                                  for v, lo, hi in zip(sub.value, sub.ci_low, sub.ci_high)]})
        click.echo(shown.to_string(index=False))
        click.echo("\n" + format_best(a["best"]))
    if paths and len(df):
        _write(paths, df, dict(
            command_kind="sweep", game=game, base=_setup_record(base), grid=list(grid),
            keys=a["keys"], points=a["points"], points_done=a["points_done"], seed=seed,
            deals=games, rotations=a["rotations"], objective=a["objective"], goal=a["goal"],
            best=a["best"], threads=a["threads"], elapsed_seconds=round(a["elapsed_seconds"], 3),
            interrupted=a["interrupted"]),
            lambda d, p: sweep_figure(d, p, f"{game} sweep"))
    _finish(a["interrupted"], f"kept the {a['points_done']} points that finished")


# ------------------------------------------------------------------ tune
@main.command(context_settings=CONTEXT)
@click.argument("game")
@click.argument("strategy")
@click.option("--param", "params", multiple=True, metavar="NAME=LO..HI",
              help="A parameter of STRATEGY and its range (repeatable); NAME=LO..HI:log for a "
                   "log scale.")
@click.option("--against", multiple=True, metavar="SPEC",
              help="The opponents: once for every other seat, or once per seat (none alone at "
                   "the table).")
@click.option("--trials", type=click.IntRange(1, 100_000), default=30, show_default=True,
              help="Trials of the study (the first is the strategy's defaults).")
@click.option("-n", "--games", type=GameCount(), default="2000", show_default=True,
              help="Deals per trial (the same for every trial; at most 1e12); with seats "
                   "rotated each is played once per seating.")
@click.option("--confirm-games", type=GameCount(), default=None,
              help="Fresh deals of the confirmation, tuned against default (default: 4 x -n).")
@click.option("--objective", metavar="MEASURE", default=None,
              help="What is maximised: win_share:0 (default), mean_score:0 (default alone at "
                   "the table) or a measure of the game.")
@click.option("--rotate/--no-rotate", default=None,
              help="Rotate the lineup over the seats (default: with opponents).")
@base_options
@backend_options
@friendly
def tune(game, strategy, params, against, trials, games, confirm_games, objective, rotate,
         players, seed, threads, plugins, engine, progress, allow_long, output_file, preset,
         rules_file, assignments):
    """Tune the parameters of STRATEGY of GAME against a lineup: a seeded Optuna study (TPE)
    in which every trial plays the same deals, then a confirmation on fresh deals that no trial
    played: the tuned against the default parameters, paired, with the 95% interval.

    With -o: the history (one row per trial, with the best so far) as CSV, the provenance JSON
    (the confirmation included) and a PNG of the objective by trial.

    \b
    Examples:
      meeplelab tune diamant leave-at-gems --param t=2..40 --players 1 --trials 30 -n 20000
      meeplelab tune schotten-totten greedy --param lam=0..2 --param crit=0..4 --against greedy
      meeplelab tune civ greedy --param heg=0..10 --param maj=0..10 --against greedy -n 1000
    """
    from analyses.workbench import tune as run_tune
    from analyses.workbench.plots import tune_figure
    from analyses.workbench.tuner import confirmed, format_result
    from strategies.play import resolve_rules
    game_registry.get(game)
    _load_plugins(plugins)
    rules = resolve_rules(game, preset, rules_file, assignments)
    paths = _outputs(output_file)
    with nothing_finished():
        history = run_tune(game, rules, strategy, list(params), list(against), players=players,
                           trials=trials, games=games, confirm_games=confirm_games, seed=seed,
                           objective=objective, rotate=rotate, threads=threads, engine=engine,
                           progress=progress, max_seconds=_max_seconds(allow_long))
    a = history.attrs
    seatings = f" x {a['rotations']} seatings" if a["rotations"] > 1 else ""
    click.echo(f"{game} tune {a['strategy']}: {a['trials']} trials of {games:,} deals{seatings}, "
               f"seed {seed}, rules {_rules_label(rules, preset)}, lineup {', '.join(a['lineup'])}; "
               f"{a['elapsed_seconds']:.1f} s")
    click.echo(format_result(history))
    if paths:
        _write(paths, history, dict(
            command_kind="tune", game=game, strategy=a["strategy"], params=list(params),
            lineup=a["lineup"], rules=rules.to_dict(), **_data_files(rules), sampler="optuna TPE",
            seed=seed, trials=a["trials"], games=games, rotations=a["rotations"],
            objective=a["objective"], best_params=a["best_params"], best_value=a["best_value"],
            default_params=a["default_params"], confirm_games=a["confirm_games"],
            confirmation=confirmed(history), elapsed_seconds=round(a["elapsed_seconds"], 3),
            interrupted=a["interrupted"]),
            lambda d, p: tune_figure(d, p, f"{game}: tuning {a['strategy']}"))
    _finish(a["interrupted"], f"kept the {a['trials']} trials that finished")

