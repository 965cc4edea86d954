"""Built-in Schotten Totten strategies. A strategy returns the index of its chosen action in the
observation's list of legal actions (see `sim/schotten_totten/observation.py`).

The decision kernels are in `sim.schotten_totten.policies` and `sim.schotten_totten.search` (the
fast engine calls them natively; the search strategies are `sim.core.search` over the fast engine's
turn machine as forward model); this module gives each its name, parameters and documentation.
What was measured with the search strategies' parameters: docs/search.md.
"""
from sim.schotten_totten import policies as K
from sim.schotten_totten import search as S

from .registry import Param, register

GAME = "schotten-totten"

register(GAME, "greedy", K.greedy_policy, native=K.GREEDY,
         doc="One-move heuristic. Each stone gets an estimated chance of winning it from what the "
             "seat sees (both sides, its own hand, the unseen clan cards): exact when both "
             "formations are complete or the claim proof holds, else a logistic of the expected "
             "formation strength (the best completion still possible, less a penalty per missing "
             "card; completions from the own hand alone count fully) against the opponent's "
             "(its best completion from the unseen cards, same penalty). A play scores the change "
             "it makes at the stones it touches, weighted up at stones that would end the game, "
             "less the card's best gain at another stone (opportunity cost); tactic cards pay a "
             "cost. Draws: tactic pile while the hand holds fewer than tactic_hand tactic cards. "
             "Deterministic (first best action in legal order). See sim/schotten_totten/policies.py.",
         params=[Param("pen", 100.0, "strength lost per card still missing from an incomplete "
                       "formation (keys: 100 per category; /20 under Fog)", 0.0, 1000.0),
                 Param("temp", 400.0, "logistic temperature of the strength difference (/10 under Fog)",
                       1.0, 1000.0),
                 Param("lam", 0.5, "weight of a card's opportunity cost (its best gain elsewhere)",
                       0.0, 10.0),
                 Param("crit", 1.0, "extra weight of a stone whose claim would end the game, per "
                       "seat it would make win", 0.0, 100.0),
                 Param("tactic_cost", 0.1, "score cost of playing a tactic card", 0.0, 10.0),
                 Param("scout_value", 0.0, "score of playing the Scout (before its cost)", -10.0, 10.0),
                 Param("tactic_hand", 1, "draw from the tactic pile while the hand holds fewer "
                       "tactic cards than this", 0, 16)],
         observes="own hand, the table, unseen clan cards (CARD_LOC), claimed stones",
         source="hand-written one-move heuristic")


_ROLLOUT = Param("rollout", 1, "rollout policy of both seats: 0 random, 1 greedy (default "
                 "parameters)", 0, 1)
_INFER = Param("infer", 50, "base game: per determinization, draw up to infer deals and keep the "
               "first in which the greedy would have made the opponent's last visible play (else "
               "the one where it regrets it least); 0: uniform deals (measured: docs/search.md)",
               0, 10_000)
_PRUNE = Param("prune", 8, "at a play decision, search only the prune best actions by the greedy "
               "score (0: all of them)", 0, 640)

register(GAME, "flat-mc", S.flat_mc_policy, stochastic=True,
         doc="Flat Monte-Carlo: each candidate action is played out sims times to the end of the "
             "game, each playout on a determinization (the opponent's hand and the pile order "
             "dealt from the cards the seat cannot see, with the right hand and pile sizes; in "
             "the base game the opponent's hand is inferred from its last play, see infer), "
             "with the fast engine's rules as forward model and the rollout policy for both "
             "seats; the best mean result wins (win 1, draw 0.5). Playout i of every "
             "candidate uses the same deal (common random numbers). All randomness comes from "
             "the strategy's own stream. Code: sim/core/search.py, sim/schotten_totten/search.py; "
             "measurements: docs/search.md.",
         params=[Param("sims", 100, "playouts per candidate action", 1, 1_000_000),
                 _PRUNE, _ROLLOUT,
                 Param("z", 0.0, "play another action than the greedy's choice only if it beats it "
                       "by more than z standard errors of the paired difference (0: best mean)",
                       0.0, 10.0),
                 _INFER,
                 Param("margin", 0.0, "playout result = (1 - margin) x (win 1, draw 0.5, loss 0) + "
                       "margin x (0.5 + stone difference / (2 x stones))", 0.0, 1.0)],
         observes="the observation vector (own hand, table, unseen cards, pile and hand sizes)",
         source="flat Monte-Carlo with determinization (perfect-information Monte-Carlo)")

register(GAME, "ismcts", S.ismcts_policy, stochastic=True,
         doc="Single-observer information-set MCTS (Cowling, Powley, Whitehouse 2012): each "
             "iteration deals a determinization, descends the tree by UCB1 over the actions legal "
             "in it (with availability counts), expands one untried action, plays out with the "
             "rollout policy and backs the result up; tree nodes are (seat, action), the "
             "opponent's moves included, and below the root only the greedy's inner best actions "
             "(replies for the opponent) are searched. Plays the most visited root action. "
             "Determinizations are inferred from the opponent's last play as in flat-mc "
             "(infer). Forward model: the fast engine's rules. Code: sim/core/search.py, "
             "sim/schotten_totten/search.py; measurements: docs/search.md.",
         params=[Param("iters", 1000, "iterations (determinizations, one playout each)", 1, 10_000_000),
                 Param("c", 0.25, "UCB1 exploration constant (results are in [0, 1])", 0.0, 100.0),
                 _ROLLOUT, _PRUNE, _INFER,
                 Param("inner", 3, "below the root, search only the inner best actions by the "
                       "greedy score of the seat to move, expanding the best first (0: all, "
                       "expanded in random order)", 0, 640),
                 Param("replies", 1, "with inner > 0, the opponent's decisions below the root "
                       "offer only its replies best actions by the greedy score (0: inner); 1 "
                       "models the opponent as the greedy", 0, 640)],
         observes="the observation vector (own hand, table, unseen cards, pile and hand sizes)",
         source="SO-ISMCTS (Cowling, Powley and Whitehouse, 2012)")
