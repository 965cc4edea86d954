"""Built-in Diamant strategies. Each decides, before a card, 0 = continue or 1 = leave.

The decision kernels are in `sim.diamant.policies` (the fast engine calls them natively); this
module gives each its name, parameters, documentation and metadata. Plugins use the same
signature (see `strategies/examples/diamant_plugin.py`).
"""
from sim.diamant import policies as K

from .diamant_solo import build_policy, solo_optimal
from .registry import Param, register

GAME = "diamant"

register(GAME, "always-continue", K.always_continue, native=K.ALWAYS_CONTINUE,
         doc="Never leave: stay until a disaster (or until the deck runs out).",
         observes="nothing", source="baseline")

register(GAME, "leave-after-hazards", K.leave_after_hazards, native=K.LEAVE_AFTER_HAZARDS,
         doc="Leave when at least k hazard cards have been revealed in the current cave.",
         params=[Param("k", 2, "hazard cards revealed in this cave that make you leave", 0, 100)],
         observes="hazard cards revealed in this cave", source="the classic rule of thumb")

register(GAME, "leave-at-gems", K.leave_at_gems, native=K.LEAVE_AT_GEMS,
         doc="Leave when the gems you carried in this cave (not those lying on cards) reach at least t.",
         params=[Param("t", 10, "carried gems that make you leave", 0, 100000)],
         observes="own carried gems", source="the classic rule of thumb")

register(GAME, "leave-after-cards", K.leave_after_cards, native=K.LEAVE_AFTER_CARDS,
         doc="Leave after n cards of this cave have been revealed.",
         params=[Param("n", 6, "cards revealed in this cave that make you leave", 0, 1000)],
         observes="cards revealed in this cave")

register(GAME, "random-leave", K.random_leave, native=K.RANDOM_LEAVE, stochastic=True,
         doc="Leave with probability p before each card.",
         params=[Param("p", 0.2, "probability of leaving before each card", 0.0, 1.0)],
         observes="nothing (its own random stream)", source="baseline")

register(GAME, "expected-value", K.expected_value, native=K.EXPECTED_VALUE,
         doc="Leave when the expected loss of the next card exceeds its expected gain. Gain: the "
             "mean share (value // players inside) of the next card over the cards left in the "
             "deck; loss: the chance the next card ends the round times the gems carried, "
             "weighted by risk. Myopic: leftovers and artifacts are ignored.",
         params=[Param("risk", 1.0, "weight of the expected loss (1 = risk-neutral, >1 cautious)",
                       0.0, 100.0)],
         observes="deck contents (counts), carried gems, players inside",
         source="one-step look-ahead")

register(GAME, "solo-optimal", solo_optimal,
         doc="The exact optimal stay/leave policy of a lone player, by dynamic programming over "
             "the deck state (maximises the expected final score; solo games, no artifacts).",
         observes="revealed cards, hazards removed so far",
         source="exact dynamic programming (strategies/diamant_solo.py)",
         prepare=lambda values, rules, players: _solo_table(rules, players))


def _solo_table(rules, players):
    from sim.core.errors import UsageError
    if players != 1:
        raise UsageError(f"strategy 'solo-optimal' is the optimal policy of a lone player; "
                         f"it cannot play a {players}-player game (use --players 1 --preset solo)")
    return build_policy(rules)

MAP_SEED = 2024   # the decision map's rollouts


def prepare_map(values, rules, players):
    """The map's table, built on first use (the builder imports the engines and the jobs)."""
    from .diamant_map import prepare_map as build
    return build(values, rules, players)


register(GAME, "decision-map", K.decision_map,
         doc="Go on or leave by the decision map (strategies/diamant_map.py): in the cell of the "
             "state (players inside, hazard kinds out once, gems carried), go on where paired "
             "rollouts found going on one more card, then playing the field's policy, better than "
             "leaving, in expected final score. The map is built when the strategy is prepared.",
         params=[Param("games", 100_000, "paired rollouts per field policy the map is built from", 1_000, 1e9),
                 Param("seed", MAP_SEED, "seed of the rollouts", 0, 2 ** 63 - 1)],
         observes="players inside, hazards revealed, own carried gems",
         source="paired rollouts from sampled states against the leave-threshold field",
         prepare=prepare_map)
