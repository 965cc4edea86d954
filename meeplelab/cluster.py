"""`meeplelab cluster local`: a Dask cluster on this machine, to try the Dask backend (on real
machines: `dask scheduler` and `dask worker ADDRESS`, see README.md). Registered on the main
group by meeplelab.cli."""
from __future__ import annotations

import os
import time

import click

from .cli import CONTEXT, friendly, main


@main.group(context_settings=CONTEXT)
def cluster():
    """A Dask cluster to play games on (`--backend dask`, the same numbers as local).

    On real machines start the scheduler and workers with Dask's own commands (README.md,
    "Past one machine"); `cluster local` is the one-machine try.

    \b
    Examples:
      meeplelab cluster local --workers 2
      dask scheduler                                  # on real machines: one scheduler,
      dask worker tcp://10.0.0.5:8786 --nworkers 1 --nthreads 1   # and a worker on each machine
      meeplelab sweep diamant -s leave-after-hazards:k=2 --grid seat0.k=1..8 -n 1e7 \\
          --scheduler tcp://10.0.0.5:8786
    """


@cluster.command("local", context_settings=CONTEXT)
@click.option("--workers", type=click.IntRange(1, 256), default=2, show_default=True,
              help="Worker processes (one thread each; the cores are shared between them).")
@click.option("--port", type=click.IntRange(0, 65535), default=8786, show_default=True,
              help="The scheduler's port (0: any free port).")
@click.option("--dashboard", metavar="ADDRESS", default=None,
              help="Serve Dask's dashboard there (e.g. :8787; needs bokeh); default: none.")
@friendly
def local(workers, port, dashboard):
    """Start a scheduler and WORKERS worker processes here; run until Ctrl-C.

    \b
    Examples:
      meeplelab cluster local --workers 2
      # in another terminal, the same numbers as without --scheduler:
      meeplelab run diamant -s leave-after-hazards:k=2 -n 1e7 --scheduler tcp://127.0.0.1:8786
      MEEPLELAB_SCHEDULER=tcp://127.0.0.1:8786 make report
    """
    from sim.core.dask_backend import local_cluster
    with local_cluster(workers, port=port, dashboard=dashboard) as c:
        address = c.scheduler_address
        click.echo(f"Dask scheduler at {address}, {workers} worker processes of 1 thread "
                   f"(engine threads each: {max(1, (os.cpu_count() or 1) // workers)})")
        click.echo(f"use it with --scheduler {address}, or export MEEPLELAB_SCHEDULER={address}; "
                   f"Ctrl-C stops it")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            click.echo("stopping the cluster", err=True)
