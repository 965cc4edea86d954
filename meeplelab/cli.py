"""`meeplelab`: the command-line interface. Every command has --help with an example."""
from __future__ import annotations

import contextlib
import functools
import signal
import sys
import threading
import warnings
from pathlib import Path

import click

from sim import games as game_registry
from sim.core import output as out
from sim.core.errors import UsageError

CONTEXT = dict(help_option_names=["-h", "--help"], max_content_width=100)


class CliError(click.ClickException):
    """A usage error: message on stderr, exit code 2."""
    exit_code = 2


def friendly(fn):
    """Turn the library's UsageError into a clean message and exit code 2."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except UsageError as e:
            raise CliError(str(e)) from None
    return wrapper


def _show_warning(message, category, filename, lineno, file=None, line=None):
    click.echo(f"warning: {message}", err=True)


MAX_GAMES = 10**12    # -n's hard maximum: a day or more on any one machine at the fastest
                      # engine's speed, and far inside int64 game indices and counts


class GameCount(click.ParamType):
    """A whole number of games from 1 to MAX_GAMES; accepts 1000, 1_000, 1e6."""
    name = "N"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            n = value
        else:
            try:
                f = float(str(value).replace("_", ""))
            except ValueError:
                self.fail(f"{value!r} is not a number of games (examples: 1000, 1e6)", param, ctx)
            if not f.is_integer():
                self.fail(f"{value!r} is not a whole number of games", param, ctx)
            n = int(f)
        if n < 1:
            self.fail(f"{value!r}: the number of games must be at least 1", param, ctx)
        if n > MAX_GAMES:
            self.fail(f"{value!r}: too many games; allowed 1 to 10^12 (1e12)", param, ctx)
        return n


def allow_long_option(fn):
    """--allow-long: the run plays even if its short timing says it takes more than a day."""
    return click.option(
        "--allow-long", is_flag=True,
        help="Play a run even if a short timing estimates it at more than a day (a run of "
             "200,000 games or more is timed first, except on a Dask backend); without it such "
             "a run is refused.")(fn)


def _max_seconds(allow_long: bool) -> float | None:
    from analyses.workbench.timing import DAY
    return None if allow_long else DAY


def _limit_time(game, rules, lineups, games, seed, threads, engine, allow_long) -> None:
    """Refuse (UsageError) a run of `games` deals of each lineup (a list of Bound) that a short
    timing estimates at more than a day, before anything is played or written
    (analyses/workbench/timing.py)."""
    from analyses.workbench.changes import Setup
    from analyses.workbench.timing import limit_time
    setups = [Setup(f"lineup {i}", rules, tuple(b)) for i, b in enumerate(lineups)]
    with nothing_finished():
        limit_time(game, setups, games, seed, 1, threads, engine, _max_seconds(allow_long))


@contextlib.contextmanager
def nothing_finished():
    """Ctrl-C before any game was kept (during the short timing, say): say so, exit 130."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo("interrupted before any game finished: nothing written", err=True)
        sys.exit(130)


def _load_plugins(plugins) -> None:
    """Load the --plugin files: one that is missing or fails to import stops the command before
    anything runs (exit 2, naming the file and the error). Installed entry-point plugins, which
    the user did not name, only warn (strategies/registry.py)."""
    from strategies.registry import load_plugin_file
    for path in plugins:
        if not Path(path).is_file():   # a typo: named as the option was given
            raise UsageError(f"--plugin {path}: no such file")
        try:
            load_plugin_file(path)
        except UsageError as e:
            raise UsageError(f"{e}; a file given with --plugin must import "
                             f"(fix it, or leave it out)") from None


def backend_options(fn):
    """--backend and --scheduler: the block runs its chunks on the backend they name
    (sim/core/backends.py), connected before anything is played and closed after."""
    @functools.wraps(fn)
    def wrapper(*args, backend, scheduler, **kwargs):
        from sim.core import backends
        try:
            chosen = backends.connect(backend, scheduler)
        except UsageError as e:
            raise CliError(str(e)) from None
        try:
            with backends.using(chosen):
                return fn(*args, **kwargs)
        finally:
            if chosen is not None:
                chosen.close()
    wrapper = click.option(
        "--scheduler", metavar="ADDRESS", envvar="MEEPLELAB_SCHEDULER", show_envvar=True,
        help="The Dask scheduler's address (tcp://host:8786); implies --backend dask.")(wrapper)
    return click.option(
        "--backend", type=click.Choice(["auto", "local", "dask"]), default="auto", show_default=True,
        help="Where the games are played: here (local) or on a Dask cluster (dask: the same "
             "numbers, see `meeplelab cluster --help`); auto: dask when a scheduler is named.")(wrapper)


def rules_options(fn):
    fn = click.option("--set", "assignments", multiple=True, metavar="KEY=VALUE",
                      help="Override one rule parameter (repeatable), e.g. --set rounds=4.")(fn)
    fn = click.option("--rules", "rules_file", type=click.Path(dir_okay=False), metavar="FILE.toml",
                      help="Rule file (TOML) applied on top of the preset.")(fn)
    fn = click.option("--preset", metavar="NAME", help="Named rule set (see `meeplelab games`).")(fn)
    return fn


def play_options(fn):
    options = [
        click.option("--progress/--no-progress", default=None,
                     help="Progress bar (default: on a terminal, for long runs)."),
        click.option("--engine", type=click.Choice(["auto", "fast", "reference"]), default="auto",
                     show_default=True, help="auto: the compiled engine unless a strategy cannot be compiled."),
        click.option("--compile-plugins", type=click.Choice(["auto", "always", "never"]),
                     default="auto", show_default=True,
                     help="Compile plugin strategies into the fast engine, where the game's engine "
                          "can: full speed, after one compilation per version of the plugin's "
                          "source (cached). auto: when already compiled or for 1e6 games or more; "
                          "never: call them through a pointer. The games are the same."),
        click.option("--plugin", "plugins", multiple=True, type=click.Path(dir_okay=False),
                     metavar="FILE.py", help="Load strategies from a Python file (repeatable)."),
        click.option("--threads", type=int, default=None, help="Compiled threads (default: all cores)."),
        click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
                     help="Seed: the same seed replays the same games exactly."),
        click.option("-n", "--games", type=GameCount(), default="10000", show_default=True,
                     help="Number of games (accepts 1e6; at most 1e12)."),
        click.option("-s", "--strategy", "strategies", multiple=True, metavar="NAME[:k=v,...]",
                     help="Strategy for a seat: once for every seat, or once per seat in seat order."),
        click.option("--players", "-p", type=int, default=None,
                     help="Number of players (default: the number of -s given, or the game's usual count)."),
    ]
    for option in options:
        fn = option(fn)
    return rules_options(allow_long_option(fn))


def _terminate(signum, frame):
    """SIGTERM as Ctrl-C, through SIGINT's current handler (which may hold it until a chunk is
    kept whole), even where SIGINT is ignored, as in a shell's background job."""
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
    else:
        raise KeyboardInterrupt


@click.group(context_settings=CONTEXT)
@click.version_option(out.package_version(), prog_name="meeplelab")
def main():
    """meeplelab: Monte-Carlo strategy analysis for tabletop card games.

    \b
    Examples:
      meeplelab games
      meeplelab run diamant -s leave-after-hazards:k=2 -n 1e6 --seed 1
      meeplelab tournament diamant --players 4 -s leave-after-hazards:k=2 -s expected-value -n 1e5
      meeplelab report
    """
    warnings.showwarning = _show_warning
    # `kill` (SIGTERM) stops a run like Ctrl-C: what finished is kept and written
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminate)


# ------------------------------------------------------------------ listings
@main.command(context_settings=CONTEXT)
def games():
    """List the games, their player counts, outcome measures and rule presets.

    \b
    Example:
      meeplelab games
    """
    for name in game_registry.names():
        g = game_registry.get(name)
        click.echo(f"{name}: {g.title}; {g.summary}")
        click.echo(f"  players: {g.min_players}-{g.max_players} (engine), default {g.default_players}")
        click.echo(f"  measures (compare, sweep, tune): {', '.join(m.name for m in g.all_measures())}")
        for preset, doc in g.rules.PRESET_DOCS.items():
            mark = " (default)" if preset == g.rules.DEFAULT_PRESET else ""
            click.echo(f"  preset {preset}{mark}: {doc}")


@main.command(context_settings=CONTEXT)
@click.argument("game")
@rules_options
@friendly
def rules(game, preset, rules_file, assignments):
    """Print the complete resolved rule set of GAME as TOML (every parameter, documented).

    \b
    Examples:
      meeplelab rules diamant
      meeplelab rules diamant --preset incan-gold-2006
      meeplelab rules diamant --set rounds=4 > variant.toml
    """
    from strategies.play import resolve_rules
    click.echo(resolve_rules(game, preset, rules_file, assignments).to_toml(), nl=False)


@main.command(context_settings=CONTEXT)
@click.argument("game", required=False)
@click.option("--plugin", "plugins", multiple=True, type=click.Path(dir_okay=False), metavar="FILE.py",
              help="Also list the strategies of a plugin file.")
@friendly
def strategies(game, plugins):
    """List strategies (of GAME, or of every game) with parameters and defaults.

    \b
    Examples:
      meeplelab strategies diamant
      meeplelab strategies diamant --plugin strategies/examples/diamant_plugin.py
    """
    from strategies.registry import all_strategies
    if game is not None:
        game_registry.get(game)
    _load_plugins(plugins)
    for s in all_strategies(game):
        flags = ["stochastic" if s.stochastic else "deterministic"]
        if s.origin != "built-in":
            flags.append(s.origin)
        if not s.compiled:
            flags.append(f"reference engine only: {s.compile_error}")
        click.echo(f"{s.game} {s.name}  [{'; '.join(flags)}]")
        click.echo(f"    {s.summary}")
        for p in s.params:
            click.echo(f"    {p.name}={p.default}: {p.doc} ({p.allowed()})")
        if s.observes:
            click.echo(f"    observes: {s.observes}")


@main.command(context_settings=CONTEXT)
def analyses():
    """List the analyses that `meeplelab analyse` and `meeplelab report` run.

    \b
    Example:
      meeplelab analyses
    """
    from analyses import registry
    for a in registry.all_analyses():
        click.echo(f"{a.name}: {a.title}")
        click.echo(f"    {a.summary}")


# ------------------------------------------------------------------ run
def _resolve_players(g, players, strategies) -> int:
    return players if players is not None else (
        len(strategies) if len(strategies) > 1 else g.default_players)


def _rules_label(rules_set, preset) -> str:
    base = preset or rules_set.DEFAULT_PRESET
    diff = rules_set.differences(rules_set.preset(base))
    return base + ("".join(f", {k}={_show_value(v)}" for k, v in diff.items()) if diff else "")


def _show_value(v) -> str:
    """A rule value as `--set` takes it (a list as comma-separated items)."""
    return (",".join(str(x) for x in v) or "[]") if isinstance(v, list) else str(v)


def _data_files(rules_set) -> dict:
    """The data files the rules read, for the sidecar: a `deck` rule (Pyramids) names a deck
    file, empty for the shipped one; recorded with the file's SHA-256."""
    if "deck" not in rules_set.to_dict():
        return {}
    from sim.pyramids import deck       # the one game whose rules read a file
    path = Path(rules_set.deck or deck.shipped_deck_path()).resolve()
    return {"deck": {"path": str(path), "shipped": not rules_set.deck, "sha256": deck.deck_digest(path)}}


def _headline(game, rules_set, preset, players, games_played, engine, info) -> str:
    rate = games_played / info.elapsed if info.elapsed > 0 else float("inf")
    where = (f"{info.threads} threads" if info.backend == "local" else
             f"{info.workers} Dask workers ({info.threads} threads), chunks of {info.chunk:,}")
    return (f"{game}: {players} players, {games_played:,} games, seed {{seed}}, rules "
            f"{_rules_label(rules_set, preset)}; {engine} engine, {where}, "
            f"{info.elapsed:.2f} s ({rate:,.0f} games/s)")


def _format_table(df, key: str) -> str:
    """Human-readable table: mean ± SE and win share [95% CI]."""
    import pandas as pd
    shown = pd.DataFrame({
        **({"seat": df["seat"]} if "seat" in df else {}),
        **({"team": df["team"], "seats": df["seats"]} if "team" in df else {}),
        "strategy": df[key],
        "games": df["games"].map("{:,}".format),
        "mean score ± SE": [f"{m:.3f} ± {s:.3f}" for m, s in zip(df["mean_score"], df["se_score"])],
        "win share [95% CI]": [f"{w:.4f} [{lo:.4f}, {hi:.4f}]" for w, lo, hi in
                               zip(df["win_share"], df["win_ci_low"], df["win_ci_high"])],
    })
    return shown.to_string(index=False)


def _empty_batch(players, extras):
    import numpy as np
    from sim.core.batch import Batch
    return Batch(0, np.zeros((0, players), np.int64), np.zeros((0, players), np.float64),
                 {k: np.zeros(0, np.int64) for k in extras})


def _teams_text(teams) -> str:
    from strategies.play import seats_label, team_name
    return ", ".join(f"{team_name(i)} = seats {seats_label(t)}" for i, t in enumerate(teams))


def _seat_and_team_rows(table, team_table, teams):
    """The CSV of a team game: `row` seat or team; a seat row names its team, a team row's
    `seat` is its seats (`0+2`)."""
    import pandas as pd
    team_of = {s: team_table.team[i] for i, t in enumerate(teams) for s in t}
    seats = table.assign(row="seat", team=table.seat.map(team_of), seat=table.seat.astype(str))
    rows = team_table.rename(columns={"seats": "seat"}).assign(row="team")
    return pd.concat([seats, rows], ignore_index=True)[["row", "seat", "team", *table.columns[1:]]]


@contextlib.contextmanager
def _maybe_atomic(path):
    if path is None:
        yield None
    else:
        with out.atomic_path(path) as fh:
            yield fh


@main.command(context_settings=CONTEXT)
@click.argument("game")
@play_options
@click.option("-o", "--output", "output_file", type=click.Path(dir_okay=False), metavar="FILE.csv",
              help="Write the per-seat table to FILE.csv and provenance to FILE.json.")
@click.option("--per-game", is_flag=True,
              help="Also write one row per game to <output stem>-games.csv (needs -o).")
@click.option("--chunk", type=click.IntRange(1), default=None,
              help="Games per batch (granularity of progress and of Ctrl-C).")
@backend_options
@friendly
def run(game, players, strategies, games, seed, threads, plugins, engine, compile_plugins, progress,
        allow_long, preset, rules_file, assignments, output_file, per_game, chunk):
    """Play seeded games of GAME and print a per-seat table.

    Each row: strategy, mean final score ± standard error, win share with a 95% Wilson
    interval (ties split the win). In team play (CIV's --preset civ-teams) a table per team
    follows: its win share is its seats' summed, and the CSV holds both (column `row`). Seat 0 is the first player (unless a rule draws it, as
    Schotten Totten's first_player=random). Ctrl-C keeps the games that
    finished and says so.

    \b
    Examples:
      meeplelab run diamant --players 4 -s leave-after-hazards:k=2 -s leave-after-hazards:k=3 \\
          -s leave-at-gems:t=10 -s leave-at-gems:t=15 -n 1e6 --seed 1 -o out.csv
      meeplelab run diamant -s expected-value --preset incan-gold-2006 -n 1e5
      meeplelab run diamant --set rounds=4 --set hazard_copies=4 -s leave-after-hazards:k=2
      meeplelab run diamant --plugin my_strats.py -s my-strategy -s expected-value -s expected-value
      meeplelab run civ --preset civ-teams -s greedy -s random -s greedy -s random -n 2000
    """
    from strategies.play import per_game_frame, play, resolve_rules
    from strategies.registry import lineup
    g = game_registry.get(game)
    _load_plugins(plugins)
    if not strategies:
        raise UsageError(f"give at least one strategy with -s NAME (see `meeplelab strategies {game}`)")
    players = _resolve_players(g, players, strategies)
    rules_set = resolve_rules(game, preset, rules_file, assignments)
    bound = lineup(game, list(strategies), players)
    teams = rules_set.team_seats(players)
    if per_game and not output_file:
        raise UsageError("--per-game writes <output stem>-games.csv: give -o FILE.csv too")
    output_path = out.check_writable(output_file) if output_file else None
    games_path = None
    if per_game:
        games_path = out.check_writable(output_path.with_name(output_path.stem + "-games.csv"))
    _limit_time(game, rules_set, [bound], games, seed, threads, engine, allow_long)

    with _maybe_atomic(games_path) as fh:
        first = [True]

        def write_rows(batch):
            per_game_frame(batch, g.extras, g.extra_labels, teams).to_csv(
                fh, index=False, header=first[0], lineterminator="\n")
            first[0] = False

        result = play(game, rules_set, bound, games=games, seed=seed, threads=threads,
                      progress=progress, engine=engine, chunk=chunk, compile_plugins=compile_plugins,
                      on_batch=write_rows if fh is not None else None)
        if fh is not None and first[0]:   # no game finished (early Ctrl-C): still a valid CSV
            write_rows(_empty_batch(players, g.extras))
    info = result.info
    table = result.table()
    click.echo(_headline(game, rules_set, preset, players, info.games, result.engine, info)
               .replace("{seed}", str(seed)))
    click.echo(_format_table(table, "strategy"))
    team_table = result.team_table()
    if team_table is not None:
        click.echo(f"\nteams ({_teams_text(teams)}): a team's win share is its seats' summed")
        click.echo(_format_table(team_table, "strategy"))
    if output_path:
        out.write_csv(table if team_table is None else _seat_and_team_rows(table, team_table, teams),
                      output_path)
        out.write_json(out.sidecar_path(output_path), out.provenance(
            game=game, preset=preset or rules_set.DEFAULT_PRESET, rules=rules_set.to_dict(),
            **_data_files(rules_set),
            players=players, **({"teams": [list(t) for t in teams]} if teams else {}),
            strategies=[{"seat": i, "label": b.label, **b.describe()} for i, b in enumerate(bound)],
            seed=seed, games=info.games, games_requested=info.requested, threads=info.threads,
            chunk=info.chunk, engine=result.engine, elapsed_seconds=round(info.elapsed, 3),
            interrupted=info.interrupted, per_game_file=str(games_path) if games_path else None))
        extra = f" and {games_path}" if games_path else ""
        click.echo(f"wrote {output_path} and {out.sidecar_path(output_path)}{extra}", err=True)
    if info.interrupted:
        click.echo(f"interrupted: kept the {info.games:,} games that finished (of {info.requested:,})",
                   err=True)
        sys.exit(130)


@main.command(context_settings=CONTEXT)
@click.argument("game")
@play_options
@click.option("-o", "--output", "output_file", type=click.Path(dir_okay=False), metavar="FILE.csv",
              help="Write the per-strategy table to FILE.csv, head-to-head to FILE-head-to-head.csv, "
                   "provenance to FILE.json.")
@backend_options
@friendly
def tournament(game, players, strategies, games, seed, threads, plugins, engine, compile_plugins,
               progress, allow_long, preset, rules_file, assignments, output_file):
    """Round-robin: every strategy in every seat equally often, on the same decks.

    Each of the N deals (-n) is played once per rotation of the strategies over the seats
    (S strategies: S rotations), so every comparison is paired on the same cards. Prints one
    row per strategy and a head-to-head table: the share of the games two strategies shared in
    which the row's share of the win beat the column's (equal shares half). What decides the
    game, not the score: a CIV Hegemony wins whatever the points, two losers are even; with 2
    players it is the row's win share. The CSV's mean_diff is the score difference.

    In team play (CIV's --preset civ-teams: seats 0+2 against 1+3) a strategy's win share is
    its team's, counted once per game: with two strategies, each is a whole team in turn.

    \b
    Examples:
      meeplelab tournament diamant --players 4 -s leave-after-hazards:k=2 \\
          -s leave-at-gems:t=10 -s expected-value -s random-leave:p=0.2 -n 1e5 -o t.csv
      meeplelab tournament civ --preset civ-teams -s greedy -s majority -n 2000
    """
    from strategies.play import resolve_rules
    from strategies.registry import parse_spec
    from strategies.tournament import tournament as run_tournament
    g = game_registry.get(game)
    _load_plugins(plugins)
    if len(strategies) < 2:
        raise UsageError("a tournament needs at least two strategies (-s A -s B ...)")
    players = players if players is not None else g.default_players
    rules_set = resolve_rules(game, preset, rules_file, assignments)
    bound = [parse_spec(game, s) for s in strategies]
    output_path = out.check_writable(output_file) if output_file else None
    h2h_path = None
    if output_path:
        h2h_path = out.check_writable(output_path.with_name(output_path.stem + "-head-to-head.csv"))
    S = len(bound)
    _limit_time(game, rules_set, [[bound[(j + r) % S] for j in range(players)] for r in range(S)],
                games, seed, threads, engine, allow_long)
    res = run_tournament(game, rules_set, bound, players, deals=games, seed=seed, threads=threads,
                         progress=progress, engine=engine, compile_plugins=compile_plugins)
    table, h2h = res.table(), res.head_to_head()
    elapsed = sum(i.elapsed for i in res.infos)
    played = sum(i.games for i in res.infos)
    click.echo(f"{game} tournament: {players} players, {len(bound)} strategies x {games:,} deals "
               f"({played:,} games), seed {seed}, rules {_rules_label(rules_set, preset)}; "
               f"{elapsed:.2f} s")
    if res.teams:
        click.echo(f"team play ({_teams_text(res.teams)}): a strategy's win share is its team's, "
                   f"one count per game (the mean over its seats); fair share 1/{len(res.teams)}")
    click.echo(_format_table(table, "strategy"))
    click.echo("\nhead-to-head: share of shared games in which the row's share of the win beat the "
               "column's (equal shares half)")
    click.echo(res.matrix().map(lambda v: "" if v != v else f"{v:.3f}").to_string())
    if output_path:
        out.write_csv(table, output_path)
        out.write_csv(h2h, h2h_path)
        out.write_json(out.sidecar_path(output_path), out.provenance(
            game=game, preset=preset or rules_set.DEFAULT_PRESET, rules=rules_set.to_dict(),
            **_data_files(rules_set),
            players=players, **({"teams": [list(t) for t in res.teams]} if res.teams else {}),
            strategies=[{"label": b.label, **b.describe()} for b in bound],
            seed=seed, deals=games, games=played, rotations=len(bound),
            threads=res.infos[0].threads if res.infos else None,
            chunk=res.infos[0].chunk if res.infos else None,
            elapsed_seconds=round(elapsed, 3), interrupted=res.interrupted,
            head_to_head_file=str(h2h_path)))
        click.echo(f"wrote {output_path}, {h2h_path} and {out.sidecar_path(output_path)}", err=True)
    if res.interrupted:
        click.echo("interrupted: the tables cover the rotations and games that finished", err=True)
        sys.exit(130)


# ------------------------------------------------------------------ analyses and report
@main.command(context_settings=CONTEXT)
@click.argument("name")
@click.option("--quick", is_flag=True, help="Few games: a smoke test, not a result.")
@click.option("--output-dir", type=click.Path(file_okay=False), default="reports", show_default=True)
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="Seed (default: the analysis's own, as in the report).")
@click.option("--threads", type=int, default=None, help="Compiled threads (default: all cores).")
@backend_options
@friendly
def analyse(name, quick, output_dir, seed, threads):
    """Run one analysis (CSV + PNG into --output-dir; see `meeplelab analyses`).

    \b
    Examples:
      meeplelab analyse diamant-leave-threshold
      meeplelab analyse diamant-variants --quick --output-dir /tmp/check
    """
    from analyses import registry
    from sim.core.runner import set_threads
    set_threads(threads)
    out_dir = _checked_dir(output_dir)
    section = registry.run(name, out_dir, quick=quick, seed=seed)
    for f in section.files:
        click.echo(f"wrote {out_dir / f}")


@main.command(context_settings=CONTEXT)
@click.option("--quick", is_flag=True, help="Few games per analysis (for tests); not a result.")
@click.option("--output-dir", type=click.Path(file_okay=False), default="reports", show_default=True)
@click.option("--only", multiple=True, metavar="NAME", help="Run only these analyses (repeatable).")
@click.option("--threads", type=int, default=None, help="Compiled threads (default: all cores).")
@backend_options
@friendly
def report(quick, output_dir, only, threads):
    """Regenerate every analysis into --output-dir, with README.md as the index.

    Deterministic for a given seed: CSVs, PNGs (no timestamps) and the index are identical
    from run to run. With --only, the index keeps its sections of the other analyses.

    \b
    Examples:
      meeplelab report
      meeplelab report --quick --output-dir /tmp/report
      meeplelab report --only schotten-totten-ladder
    """
    from analyses import report as report_builder
    from sim.core.runner import set_threads
    set_threads(threads)
    out_dir = _checked_dir(output_dir)
    try:
        index = report_builder.build(out_dir, quick=quick, only=list(only) or None,
                                     echo=lambda m: click.echo(m, err=True))
    except KeyboardInterrupt:
        click.echo(f"interrupted: the analyses that finished are in {out_dir} and in its "
                   f"README.md", err=True)
        sys.exit(130)
    click.echo(f"wrote {index}")


def _checked_dir(path) -> Path:
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise UsageError(f"--output-dir {p}: exists and is not a folder")
    p.mkdir(parents=True, exist_ok=True)
    out.check_writable(p / "probe.tmp")
    return p


# ------------------------------------------------------------------ positions
@main.command(context_settings=CONTEXT)
@click.argument("game")
@click.argument("position_file", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-s", "--strategy", "strategies", multiple=True, metavar="NAME[:k=v,...]",
              help="Also show what this strategy plays for the seat to move (repeatable).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Seed of the strategies' draws (and of the cards a position leaves unknown).")
@click.option("--plugin", "plugins", multiple=True, type=click.Path(dir_okay=False),
              metavar="FILE.py", help="Load strategies from a Python file (repeatable).")
@rules_options
@friendly
def position(game, position_file, strategies, seed, plugins, preset, rules_file, assignments):
    """Read a position of GAME written in its text notation ('-': standard input) and show it;
    with -s, what each strategy plays there.

    Schotten Totten (sim/schotten_totten/notation.py): one line per stone such as
    `3: R9 R8 R7 / G1 G2 | fog` (seat 0's side / seat 1's side, then tags), plus optional lines
    `turn 0`, `hand0 R1 Y9 Chief1`, `hand1 ?`, `discard ...`. Prints who can claim each stone: a
    stone "can claim" when the claim proof holds now (no clan card still hidden, hands included,
    could complete a formation beating the claimer's). With -s, the seat to move (`turn`) must
    have a known hand. Without --preset, a position showing tactic cards uses the `tactics` rules.

    Pyramids (sim/pyramids/notation.py): one line per seat such as
    `0: pyramid 29 32 19 / 41 .; obelisk 64; tomb 16 ?; hand 35` (cards by deck id, the pyramid
    level by level from the base, '.' an empty position, '?' a card not known), and optionally a
    round state: `round 3; first 2; quarry - | 12 40 | - | -`, `tiles Horus:2 Anubis:0 ...`,
    `to-move 1 pyramid; turn pair 0`. Prints the score by edifice (pyramid groups, bonus,
    obelisk, tomb majorities, glyphs), each colour's group, obelisk stages and tomb stones, the
    glyphs; with a round state the legal actions of the seat to move, and with -s what each
    strategy chooses. The card ids are those of the rules' deck (--set deck=FILE).
    `meeplelab playthrough pyramids` prints positions in this notation.

    CIV (sim/civ/notation.py): cards counted per Domain (M R E K A U and a count), one line per
    seat such as `0: hand M1 K2; play R3 A1; embargo K1` ('?N': N cards not known), then
    `discard M4 R2; deck 60; coin 0` and the turn line `turn 14: seat 1; first 0` (add
    `played K; permanent K` for the effect decision of the turn in progress). Prints each seat's
    counts, levels, majority points and closest Hegemony, the legal decisions of the seat on
    turn, and with -s what each strategy chooses. `meeplelab playthrough civ` prints positions
    in this notation. Without --preset, a header `civ 4 players teams` uses civ-teams.

    \b
    Examples:
      meeplelab position schotten-totten position.txt
      meeplelab position schotten-totten position.txt -s greedy -s flat-mc:sims=100
      printf '0: R9 R8 R7 / G1 G2\\n' | meeplelab position schotten-totten -
      meeplelab position pyramids necropolis.txt
      meeplelab position pyramids round.txt -s random --seed 3
      printf '0: pyramid 1 2 3 / 4 5\\n1: pyramid 6 7\\n' | meeplelab position pyramids -
      meeplelab position civ position.txt -s greedy -s random --seed 3
    """
    import importlib
    from strategies.play import resolve_rules
    g = game_registry.get(game)          # an unknown game: named with the known ones
    if g.position is None:
        have = [x.name for x in game_registry.all_games() if x.position]
        raise UsageError(f"{game}: no position notation (positions: {', '.join(have)})")
    try:
        with click.open_file(position_file) as fh:
            text = fh.read()
    except OSError as e:
        raise UsageError(f"{position_file}: cannot read ({e.strerror})") from None
    _load_plugins(plugins)

    def rules_for(default_preset=None):
        chosen = preset if preset is not None or rules_file is not None else default_preset
        rules = resolve_rules(game, chosen, rules_file, assignments)
        return rules, _rules_label(rules, chosen)

    module, _, function = g.position.partition(":")
    show = getattr(importlib.import_module(module), function)
    click.echo(show(text, rules_for, list(strategies), seed), nl=False)


@main.command(context_settings=CONTEXT)
@click.argument("game")
@click.option("-s", "--strategy", "strategies", multiple=True, metavar="NAME[:k=v,...]",
              help="Strategy for a seat: once for every seat, or once per seat in seat order.")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: the number of -s given, or the game's usual count).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Seed of the run the game belongs to.")
@click.option("--game", "game_index", type=click.IntRange(0, 2**62), default=0, show_default=True,
              help="Index of the game in that run (0 is the first).")
@click.option("--plugin", "plugins", multiple=True, type=click.Path(dir_okay=False),
              metavar="FILE.py", help="Load strategies from a Python file (repeatable).")
@click.option("-o", "--output", "output_file", type=click.Path(dir_okay=False), metavar="FILE.txt",
              help="Write the record to this file (default: standard output).")
@rules_options
@friendly
def playthrough(game, strategies, players, seed, game_index, plugins, output_file, preset,
                rules_file, assignments):
    """Print one seeded game, decision by decision.

    The game is game --game of a `run` with the same seed, strategies, players and rules, played
    by the reference engine: the way to look at a game a run or an error message points to
    (strategies that keep state from game to game, which a plugin could, may play it otherwise
    here, since the earlier games are not played). Diamant: one line per decision (the path so
    far, the gems carried, the choice), the chests after each round. Schotten Totten: each
    decision (with how many actions were legal) and the whole position after each turn, hands
    and piles included, in the notation `meeplelab position` reads. Pyramids: each decision in
    words, each seat's cards before each round and at the end, and each round's state at its
    first decision, in the notation `meeplelab position pyramids` reads (the seat lines and the
    `round ...` line after them are a position). CIV: each decision in words with its effect
    and targets, and the position before each turn in the notation `meeplelab position civ`
    reads.

    \b
    Examples:
      meeplelab playthrough schotten-totten -s greedy -s flat-mc --seed 1 --game 17
      meeplelab playthrough diamant --players 4 -s leave-after-hazards:k=2 --game 3
      meeplelab playthrough schotten-totten --preset tactics -s random -o game.txt
      meeplelab playthrough pyramids --players 4 -s random --game 2
    """
    from strategies.play import StrategyFailure, playthrough as record, resolve_rules
    from strategies.registry import lineup as make_lineup
    g = game_registry.get(game)
    if output_file:
        out.check_writable(output_file)
    rules = resolve_rules(game, preset, rules_file, assignments)
    _load_plugins(plugins)
    lineup = make_lineup(game, list(strategies), _resolve_players(g, players, strategies))
    head = (f"# {game}, rules {_rules_label(rules, preset)}, seed {seed}, game {game_index}\n"
            f"# seats: {', '.join(b.label for b in lineup)}\n")

    def emit(text: str) -> None:
        if output_file:
            out.write_text(output_file, head + text)
            click.echo(f"wrote {output_file}", err=True)
        else:
            click.echo(head + text, nl=False)

    try:
        text = record(game, rules, lineup, seed=seed, game_index=game_index)
    except StrategyFailure as e:     # show the game up to the failing decision, then the error
        emit(e.record + f"# stopped: {e}\n")
        raise
    emit(text)


# ------------------------------------------------------------------ Pyramids' deck
class Share(click.ParamType):
    """A share of the cards: a number from 0 to 1."""
    name = "X"

    def convert(self, value, param, ctx):
        try:
            x = float(value)
        except (TypeError, ValueError):
            x = None
        if x is None or not 0.0 <= x <= 1.0:
            self.fail(f"{value!r}: allowed a number from 0 to 1 (a share of the cards)", param, ctx)
        return x


class ColourWeights(click.ParamType):
    """Five non-negative numbers, not all 0, comma-separated."""
    name = "W,W,W,W,W"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        try:
            weights = tuple(float(x) for x in str(value).split(","))
        except ValueError:
            weights = ()
        if len(weights) != 5 or min(weights) < 0 or sum(weights) <= 0:
            self.fail(f"{value!r}: allowed 5 comma-separated non-negative numbers, not all 0 (the "
                      f"weights of blue, white, red, green, yellow), e.g. 1,1,1,1,1", param, ctx)
        return tuple(int(w) if w.is_integer() else w for w in weights)   # as the deck's comment shows them


# the generator's defaults (sim/pyramids/deck.py GENERATOR_DEFAULTS; a test keeps them equal),
# written here so that --help does not load the engine
DECK_DEFAULTS = dict(seed=2017, n_cards=105, two_stone_share=0.2, glyph_share=0.3, same_colour_share=0.1,
                     large_left_share=0.5, colour_weights=(1, 1, 1, 1, 1))


@main.command("pyramids-deck", context_settings=CONTEXT)
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=DECK_DEFAULTS["seed"], show_default=True,
              help="Seed of the generator: the same parameters and seed make the same deck.")
@click.option("--cards", "n_cards", type=click.IntRange(42, 128), default=DECK_DEFAULTS["n_cards"],
              show_default=True, help="Cards in the deck (21 per player: 42 for 2 players, 105 for 5).")
@click.option("--two-stone-share", type=Share(), default=DECK_DEFAULTS["two_stone_share"], show_default=True,
              help="Share of 2-stone cards (two large stones, one per column); the rest have 3.")
@click.option("--glyph-share", type=Share(), default=DECK_DEFAULTS["glyph_share"], show_default=True,
              help="Share of cards with a glyph, as many pyramid, obelisk and tomb glyphs.")
@click.option("--same-colour-share", type=Share(), default=DECK_DEFAULTS["same_colour_share"],
              show_default=True, help="Chance that a card keeps a repeated colour among its stones.")
@click.option("--large-left-share", type=Share(), default=DECK_DEFAULTS["large_left_share"],
              show_default=True, help="Share of 3-stone cards whose large stone is the left column.")
@click.option("--colour-weights", type=ColourWeights(), default="1,1,1,1,1", show_default=True,
              help="Relative stone counts of blue, white, red, green, yellow.")
@click.option("-o", "--output", "output_file", type=click.Path(dir_okay=False), metavar="FILE.csv",
              help="Write the deck here (atomically; default: standard output).")
@friendly
def pyramids_deck(seed, n_cards, two_stone_share, glyph_share, same_colour_share, large_left_share,
                  colour_weights, output_file):
    """Generate a Pyramids deck (CSV, one row per card) with the reconstruction's generator.

    The real list of the 105 cards is not public: the shipped deck is this generator's output
    with its defaults, a RECONSTRUCTION. Other parameters give other plausible decks (to see
    which conclusions survive them); play one with `--set deck=FILE.csv`. The file names its
    parameters in its comments; the format is in README.md and sim/pyramids/deck.py. A user who
    owns the game can instead transcribe the real deck in the same format.

    \b
    Examples:
      meeplelab pyramids-deck --seed 5 --two-stone-share 0.3 --glyph-share 0.2 -o deck.csv
      meeplelab run pyramids -s random --set deck=deck.csv -n 1000
    """
    from sim.pyramids import deck
    kw = dict(seed=seed, n_cards=n_cards, two_stone_share=two_stone_share, glyph_share=glyph_share,
              same_colour_share=same_colour_share, large_left_share=large_left_share,
              colour_weights=colour_weights)
    if output_file:
        out.check_writable(output_file)
    text = deck.format_deck(deck.generate(**kw), deck.generator_comments(kw))
    if not output_file:
        click.echo(text, nl=False)
        return
    out.write_text(output_file, text)
    click.echo(f"wrote {output_file}: {n_cards} cards (a generated deck, not the real one)", err=True)


# ------------------------------------------------------------------ benchmark
@main.command(context_settings=CONTEXT)
@click.argument("game", required=False)
@click.option("-n", "--games", type=GameCount(), default=None,
              help="Games per fast-engine measurement (default: per configuration, e.g. 1e6 "
                   "for random play, 2e4 for greedy Schotten Totten).")
@click.option("--reference-games", type=GameCount(), default=None,
              help="Games for the reference-engine measurement (default: per configuration).")
@click.option("--repeat", type=click.IntRange(1, 20), default=3, show_default=True,
              help="Measurements per configuration; the best is reported.")
@click.option("--search-games", type=click.IntRange(0, 10_000), default=None,
              help="Games in which each search strategy's decisions are timed (default: per "
                   "configuration, e.g. 6; 0: skip).")
@click.option("--dask", "dask_workers", type=click.IntRange(1, 64), default=None, metavar="WORKERS",
              help="Instead: the Dask backend on a local cluster of WORKERS processes of one "
                   "thread against the local backend on WORKERS threads, for every game that "
                   "declares it (Diamant 1e7 games, Schotten Totten 1e6; -n overrides).")
@friendly
def bench(game, games, reference_games, repeat, search_games, dask_workers):
    """Benchmark GAME (default: every game): games/s of the fast engine and of the reference
    engine, and their ratio.

    Each game has a few configurations (Schotten Totten: random and greedy self-play, base and
    tactics). The first is also measured through the plugin path (every decision through a
    function pointer), on all threads, and for the start-up time of a second process (warm
    compilation cache). Search strategies (Schotten Totten: flat-mc, ismcts) are timed per
    decision in whole games against the greedy. A benchmark, not a test: each fast-engine rate
    is the best of --repeat runs (the reference engine's, far slower, is one run).

    \b
    Examples:
      meeplelab bench
      meeplelab bench diamant
      meeplelab bench schotten-totten --repeat 1
      meeplelab bench --dask 2
    """
    from meeplelab import bench as bench_module
    if dask_workers is not None:
        names = [game] if game else [g.name for g in game_registry.all_games() if g.dask_bench_games]
        click.echo(f"Dask backend against local, {dask_workers} cores' worth each")
        for name in names:
            for line in bench_module.dask_lines(name, dask_workers, repeat, games):
                click.echo(line)
        return
    names = [game] if game else [g.name for g in game_registry.all_games() if g.bench]
    for k, name in enumerate(names):
        if k:
            click.echo("")
        for line in bench_module.run(name, games=games, reference_games=reference_games,
                                     repeat=repeat, search_games=search_games):
            click.echo(line)


# compare, sweep and tune (the designers' workbench) and `cluster`, on this group
from . import cluster, workbench  # noqa: E402,F401

if __name__ == "__main__":
    main()
