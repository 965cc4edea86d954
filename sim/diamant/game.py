"""Diamant's declaration: what meeplelab finds about the game (sim/core/game.py)."""
from ..core.game import BenchSetup, Game, PluginBench
from . import fast, invariants, playthrough, reference
from .rules import MAX_PLAYERS, DiamantRules

GAME = Game(
    name="diamant",
    title="Diamant (Moon & Faidutti, 2005)",
    summary="push-your-luck cave exploration; when to leave the cave",
    rules=DiamantRules,
    reference_play=reference.play_batch,
    fast_play=fast.play_batch,
    playthrough=playthrough.playthrough,
    check_invariants=invariants.check_invariants,
    extras=reference.EXTRAS,
    min_players=1, max_players=MAX_PLAYERS, default_players=4,
    compiles_plugins=True,
    strategy_modules=("strategies.diamant",),
    analysis_modules=("analyses.diamant_leave_threshold", "analyses.diamant_variants"),
    bench=(BenchSetup(None, ("leave-after-hazards:k=2", "leave-after-hazards:k=3",
                             "leave-at-gems:t=10", "leave-at-gems:t=15"), 1_000_000, 2_000),),
    plugin_bench=PluginBench("leave-after-hazards:k=2", "bench-plugin-hazards:k=2", 4, """\
from sim.diamant import observation as O
from strategies import Param, strategy


@strategy("diamant", "bench-plugin-hazards", params=[Param("k", 2, "hazards", 0, 100)])
def bench_plugin_hazards(obs, params, rng):
    return O.LEAVE if obs[O.HAZARDS_REVEALED] >= params[0] else O.CONTINUE
"""),
    # fixed, simple strategies: the records change when the rules change, not a heuristic
    playthrough_lineups={"*": ("leave-after-hazards:k=1", "leave-after-hazards:k=2",
                               "leave-at-gems:t=12", "random-leave:p=0.2"),
                         "solo": ("leave-after-hazards:k=2",)},
)
