"""Built-in Pyramids strategies. A strategy returns the index of its chosen action in the
observation's legal list (sim/pyramids/observation.py: a turn is a chain of small decisions,
tile, pair, pyramid card and spot, tomb, obelisk, keep). `random` is the core's.

The kernels are in `sim.pyramids.policies` (the heuristic is described there); this module gives
them their names, parameters and documentation. Their parameter vector is prepared here
(`_params`): the greedy weights, the god-priority tile ranks and the rules' obelisk table, which
the observation does not carry.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from sim.core.errors import UsageError
from sim.pyramids import policies as K
from sim.pyramids.rules import TILE_NAMES

from .registry import Param, register

GAME = "pyramids"
TILE_LETTERS = "HAKST"          # Horus, Anubis, Khepri, Sekhmet, Thoth: tiles 1 .. 5
DEFAULT_ORDER = "ASTKH"          # the best order measured against the greedy (docs/pyramids-strategies.md)
LETTERS_TEXT = ", ".join(f"{ch} ({TILE_NAMES[t]})" for t, ch in enumerate(TILE_LETTERS, 1))

_WEIGHTS = [
    Param("bonus", K.GREEDY_DEFAULTS[K.P_BONUS], "share of the pyramid bonus credited, stone by "
          "stone, before every colour has its group (0: the bonus counts only when complete)",
          0.0, 1.0),
    Param("reach", K.GREEDY_DEFAULTS[K.P_REACH], "the partial bonus credit holds while the stones "
          "still missing are at most reach x the free pyramid slots", 0.0, 10.0),
    Param("obelisk", K.GREEDY_DEFAULTS[K.P_OBELISK], "obelisk stages expected per round left: a "
          "stage is valued on the obelisk table that far on", 0.0, 1.0),
    Param("tomb", K.GREEDY_DEFAULTS[K.P_TOMB], "weight of the estimated tomb-majority gain", 0.0, 10.0),
    Param("tomb_temp", K.GREEDY_DEFAULTS[K.P_TOMB_TEMP], "temperature (stones) of the sigmoid of "
          "a majority's chance, in the last round", 0.05, 20.0),
    Param("tomb_spread", K.GREEDY_DEFAULTS[K.P_TOMB_SPREAD], "added to tomb_temp per round left",
          0.0, 5.0),
    Param("keep", K.GREEDY_DEFAULTS[K.P_KEEP], "the kept card is worth keep x its best gain alone "
          "next round", 0.0, 2.0),
]


@dataclasses.dataclass(frozen=True)
class TileOrder(Param):
    """A god-priority order: a string of tile letters (the registry's Params are numbers)."""

    @property
    def type(self):
        return str

    def parse(self, raw, strategy: str):
        order = str(raw).strip().upper()
        letters = set(order)
        if (len(order) != len(letters) or not letters <= set(TILE_LETTERS)
                or not set("HAKS") <= letters):
            raise UsageError(f"strategy {strategy!r} parameter {self.name!r} = {raw!r}: expected "
                             f"{self.allowed()}")
        return order

    def allowed(self) -> str:
        return (f"a permutation of the tile letters {TILE_LETTERS}: {LETTERS_TEXT}, most wanted first, "
                f"e.g. KSAHT; T may be left out (Thoth plays only at 4-5 players)")


def _params(order: str, weights, rules, players: int) -> np.ndarray:
    """The kernels' vector (sim/pyramids/policies.py P_*)."""
    table = tuple(rules.obelisk_points)
    if len(table) > K.MAX_TABLE:
        raise UsageError(f"pyramids strategies: an obelisk table of {len(table)} values (allowed: "
                         f"at most {K.MAX_TABLE})")
    p = np.zeros(K.N_PARAMS, np.float64)
    p[:K.N_WEIGHTS] = weights
    for rank, letter in enumerate(order):
        p[K.P_ORDER + TILE_LETTERS.index(letter)] = rank
    p[K.P_TABLE_N] = len(table)
    p[K.P_TABLE:K.P_TABLE + len(table)] = table
    return p


def _greedy_params(values, rules, players):
    return _params(TILE_LETTERS, [values[w.name] for w in _WEIGHTS], rules, players)


def _order_params(values, rules, players):
    order = values["order"]
    if players >= 4 and "T" not in order:
        raise UsageError(f"strategy 'god-priority' order {order!r}: Thoth plays at {players} "
                         f"players, so the order must place T too (allowed: {ORDER.allowed()})")
    return _params(order + "T" * ("T" not in order), K.GREEDY_DEFAULTS, rules, players)


ORDER = TileOrder("order", DEFAULT_ORDER, "God tiles by preference; the first one still "
                  "available is taken")

_HEURISTIC = (
    "Every decision values whole plans for the rest of the turn against the seat's state when "
    "its turn began (so the pair, pyramid, tomb, obelisk and keep decisions carry out one plan): "
    "one card to the pyramid at a spot, at most one to the tomb and one to the obelisk as the "
    "tile allows, one kept. A plan is worth the pyramid gain (each colour's largest connected "
    "group, the largest again, glyphs, and the bonus, credited stone by stone while in reach), "
    "the obelisk gain (on the obelisk table a few expected stages ahead), the tomb gain (the "
    "chance of each colour's majority against the largest estimated rival count, from the "
    "public tomb sizes and the cards each seat took from the quarry), and a share of the kept "
    "card's best gain. ")

register(GAME, "greedy", K.greedy, prepare=_greedy_params, params=_WEIGHTS,
         doc="One-ply heuristic that maximises the immediate score gain of its turn. "
             + _HEURISTIC +
             "A God tile is worth the expected best plan with its powers and the pair left when "
             "its turn comes: owners of lower tiles, known or predicted among the seats still to "
             "choose, take first the pair best for them by the same valuation. Deterministic "
             "(the first best action in legal order). See sim/pyramids/policies.py.",
         observes="own hand, pyramid, obelisk and tomb; every pyramid and obelisk; quarry, tiles, "
                  "tomb sizes, where seen cards went (CARD_LOC)",
         source="hand-written one-ply heuristic")

register(GAME, "god-priority", K.god_priority, prepare=_order_params, params=[ORDER],
         doc="Takes the first God tile still available in a fixed order (order=, tile letters "
             "H Horus, A Anubis, K Khepri, S Sekhmet, T Thoth; default ASTKH), and plays every "
             "other decision as the greedy with its default weights: " + _HEURISTIC +
             "Deterministic. See sim/pyramids/policies.py.",
         observes="as greedy; tiles: only which are available",
         source="hand-written one-ply heuristic")


def check_forced_tile(name, values, rules, players) -> int:
    """The forced tile of probe `name`, checked against the tiles in play at `players`."""
    tile = values["tile"]
    if tile not in rules.tiles(players):
        raise UsageError(f"strategy {name!r} tile={tile}: no such tile at {players} players "
                         f"(allowed: {', '.join(map(str, rules.tiles(players)))})")
    return tile


FORCED_TILE_PARAMS = [Param("tile", 1, "the God tile to take: " + ", ".join(
                          f"{t} {TILE_NAMES[t]}" for t in range(1, len(TILE_LETTERS) + 1)), 1, 5),
                      Param("round", 1, "the round (1..10) in which to take it", 1, 10)]


def _force_params(values, rules, players):
    tile = check_forced_tile("force-tile", values, rules, players)
    p = _params(TILE_LETTERS, K.GREEDY_DEFAULTS, rules, players)
    p[K.P_FORCE_TILE] = tile
    p[K.P_FORCE_ROUND] = values["round"]
    return p


register(GAME, "force-tile", K.force_tile, prepare=_force_params,
         params=FORCED_TILE_PARAMS,
         doc="Takes God tile `tile` in round `round` when it is still on offer at its turn to "
             "choose, and plays every other decision as the greedy with its default weights. "
             "The probe of the God-tile value analysis (analyses/pyramids_god_tile_value.py). "
             "Deterministic.",
         observes="as greedy",
         source="analysis probe")
