"""The designers' workbench: compare set-ups, sweep a grid, tune a strategy, on any game, paired
on the same seeds, from the outcome measures each game declares (sim/core/measures.py).

    from analyses.workbench import compare, sweep, tune, confirmed

Each returns a tidy pandas DataFrame (its run in `.attrs`); `meeplelab compare`, `sweep` and
`tune` are these with a console table, CSV, provenance JSON and PNG.
"""
from .comparison import compare
from .sweeps import sweep
from .tuner import confirmed, tune

__all__ = ["compare", "confirmed", "sweep", "tune"]
