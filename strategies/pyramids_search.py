"""Pyramids' search strategies: `sim.core.search` (flat Monte-Carlo, ISMCTS) over the fast
engine's machine, on determinizations of what the seat has seen (sim/pyramids/search.py).

The searches take the rules with their parameters: `prepare` appends the packed rule vector,
since the observation does not show every rule.
"""
import numpy as np

from sim.pyramids import fast as F
from sim.pyramids import search as S

from .pyramids import FORCED_TILE_PARAMS, check_forced_tile
from .registry import Param, register

GAME = "pyramids"


def _with_rules(*names):
    """A `prepare`: the parameters `names` in order, then the packed rule vector."""
    def prepare(values, rules, players):
        own = np.array([float(values[k]) for k in names], np.float64)
        return np.concatenate([own, F.pack_rules(rules).astype(np.float64)])
    return prepare


_ROLLOUT = Param("rollout", 0, "rollout policy of every seat: 0 random, 1 the greedy with its "
                 "default weights (about 30x slower a playout)", 0, 1)
_MARGIN = Param("margin", 0.25, "playout result = (1 - margin) x win share + margin x the score "
                "margin over the best other seat, squashed into [0, 1]", 0.0, 1.0)
_DETERMINIZED = ("Each playout deals what the seat cannot see (the deck order, the other seats' "
                 "hands and tombs, from the cards it has not seen and those it saw them take) "
                 "consistently with the hand, tomb and deck sizes (sim/pyramids/search.py).")

_FLAT_MC = [Param("sims", 100, "playouts per candidate", 1, 1_000_000),
            Param("prune", 2, "candidates: the greedy's k best, its own choice first "
                  "(0: every legal action, in legal order)", 0, 32),
            Param("z", 1.0, "play another candidate than the first only if it beats it by "
                  "more than z standard errors of the paired difference (0: the best mean)",
                  0.0, 10.0),
            _ROLLOUT, _MARGIN]

_flat_mc_prepare = _with_rules("sims", "prune", "z", "rollout", "margin")

register(GAME, "flat-mc", S.flat_mc_policy, stochastic=True, prepare=_flat_mc_prepare,
         doc="Flat Monte-Carlo over the greedy's best actions: each candidate (the greedy's "
             "`prune` best, its own choice first; every legal action with prune=0) is played out "
             "sims times to the end of the game with the rollout policy for every seat, on the "
             "fast engine's rules; the greedy's choice is played unless another candidate's mean "
             "result beats it by more than z standard errors. Playout i of every candidate uses "
             "the same determinization (common random numbers). " + _DETERMINIZED +
             " Measured defaults: docs/pyramids-strategies.md.",
         params=_FLAT_MC,
         observes="the observation vector (own hand and tomb, every pyramid and obelisk, the "
                  "quarry, tiles, hand and tomb sizes, cards seen taken)",
         source="flat Monte-Carlo with determinization (perfect-information Monte-Carlo)")

register(GAME, "ismcts", S.ismcts_policy, stochastic=True,
         prepare=_with_rules("iters", "c", "rollout", "margin"),
         doc="Single-observer information-set MCTS (Cowling, Powley, Whitehouse 2012) through "
             "sim/core/search.py: UCB1 over (seat, action) nodes with availability counts, one "
             "playout per iteration with the rollout policy. " + _DETERMINIZED,
         params=[Param("iters", 2000, "iterations (determinizations, one playout each)", 1,
                       10_000_000),
                 Param("c", 0.7, "UCB1 exploration constant (results are in [0, 1])", 0.0, 100.0),
                 _ROLLOUT, _MARGIN],
         observes="the observation vector (as flat-mc)",
         source="SO-ISMCTS (Cowling, Powley and Whitehouse, 2012)")


def _force_with_rules(values, rules, players):
    tile = check_forced_tile("force-tile-mc", values, rules, players)
    return np.concatenate([[float(tile), float(values["round"])],
                           _flat_mc_prepare(values, rules, players)])


register(GAME, "force-tile-mc", S.force_tile_flat_mc_policy, stochastic=True,
         prepare=_force_with_rules,
         params=FORCED_TILE_PARAMS + _FLAT_MC,
         doc="Takes God tile `tile` in round `round` when it is still on offer at its turn to "
             "choose, and plays every other decision as flat-mc with the given parameters. The "
             "flat-mc probe of the tile-choice analysis (analyses/pyramids_god_tile_value.py): "
             "before that round it draws what flat-mc draws, so the forced games of one deal "
             "share their past.",
         observes="as flat-mc",
         source="analysis probe")
