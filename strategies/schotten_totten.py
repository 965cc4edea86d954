"""Built-in Schotten Totten strategies. A strategy returns the index of its chosen action in the
observation's list of legal actions (see `sim/schotten_totten/observation.py`).

The decision kernels are in `sim.schotten_totten.policies` (the fast engine calls them
natively; search strategies use the fast engine as their forward model); this module gives each
its name, parameters and documentation.
"""
from sim.schotten_totten import policies as K

from .registry import register

GAME = "schotten-totten"

register(GAME, "random", K.random_policy, native=K.RANDOM_POLICY, stochastic=True,
         doc="Uniform over the legal actions: each placement of a card at a stone is one action; "
             "with tactics each way to play a tactic card is one action, and drawing from either "
             "pile is a separate uniform choice.",
         observes="the list of legal actions only", source="baseline")
