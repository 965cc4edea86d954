"""Pieces shared by the CIV analyses: the set-ups, self-play played once per process."""
from __future__ import annotations

import functools

from sim.civ.reference import END_CODES
from strategies.play import resolve_rules

from .common import games_of

GAME = "civ"
# set-up -> (preset, player counts)
SETUPS = {"classic": ("civ-classic", (2, 3, 4)), "draft": ("civ-draft", (2, 3, 4)),
          "teams": ("civ-teams", (4,))}
# the self-play of civ-endings, (strategy, games per player count and set-up); civ-first-player
# plays the same (sim/civ/game.py)
SELF_PLAY = (("random", 20_000), ("greedy", 10_000))
SELF_PLAY_SEED = 2018
QUICK_GAMES = 40
KEPT = ("end", "hegemony_domain", "turns", "deck_left")
HEGEMONY = END_CODES["hegemony"]       # the `end` of a game won by Hegemony


def configurations():
    """(set-up, preset, players) in report order: classic and draft at 2, 3, 4; teams at 4."""
    return [(setup, preset, p) for setup, (preset, players) in SETUPS.items() for p in players]


@functools.lru_cache(maxsize=64)
def self_play(rules, spec: str, players: int, games: int, seed: int) -> dict:
    """Every seat plays `spec`: the win shares (games x seats) and the columns KEPT, in game
    order, read-only. Played once per process for the same arguments (civ-endings compares
    every set-up with the classic one on the same games)."""
    g = games_of(GAME, rules, [spec] * players, games, seed)
    out = {"shares": g["shares"], **{k: g[k] for k in KEPT}}
    for a in out.values():
        a.setflags(write=False)
    return out


def preset_rules(preset: str):
    return resolve_rules(GAME, preset)
