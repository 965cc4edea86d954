"""Diamant's declaration: what meeplelab finds about the game (sim/core/game.py)."""
from ..core import measures as M
from ..core.game import BenchSetup, Game, PluginBench, Variant, VariantsStudy, WorkbenchBench
from . import fast, invariants, playthrough, reference
from .rules import MAX_PLAYERS, DiamantRules

# the mixed field of the leave-threshold and variants analyses
FIELD = ("leave-after-hazards:k=2", "leave-at-gems:t=10", "expected-value")

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
    measures=(M.column("cards_revealed", "cards revealed in the game's caves (its length)"),
              M.column("disasters", "caves ended by a second hazard of a kind"),
              M.score_spread()),
    length="cards_revealed",
    strategy_modules=("strategies.diamant",),
    conformance_specs={"decision-map": "decision-map:games=2000"},
    analysis_modules=("analyses.diamant_leave_threshold", "analyses.diamant_decision_map",
                      "analyses.variants"),
    studies={
        "variants": VariantsStudy(
            field=FIELD + FIELD[:1], games=100_000, quick_games=2_000, seed=2006,
            measures=("cards_revealed", "disasters", "score_spread"),
            variants=tuple(Variant(label, "diamant-2005", changes, (4,)) for label, changes in (
                ("incan-gold-2006", ("preset=incan-gold-2006",)),
                ("diamant-iello-2016", ("preset=diamant-iello-2016",)),
                ("4 rounds", ("rounds=4",)),
                ("4 hazard copies", ("hazard_copies=4",)),
                ("2 hazard copies", ("hazard_copies=2",)),
                ("per-card leftovers", ("leftover_split=per-card",)),
                ("hazards stay after a disaster", ("remove_hazard_after_disaster=false",)),
                ("decide before the first card", ("first_card_free=false",)))),
            # the best leave-after-hazards threshold of seat 0 against the field, by win share
            sweep_lineup=("leave-after-hazards:k=2", *FIELD), sweep_key="seat0.k",
            sweep_values=(1, 2, 3, 4, 5),
            note="The editions are variants of the 2005 rules: `preset=NAME`."),
    },
    bench=(BenchSetup(None, ("leave-after-hazards:k=2", "leave-after-hazards:k=3",
                             "leave-at-gems:t=10", "leave-at-gems:t=15"), 1_000_000, 2_000),),
    plugin_bench=PluginBench("leave-after-hazards:k=2", "bench-plugin-hazards:k=2", 4, """\
from sim.diamant import observation as O
from strategies import Param, strategy


@strategy("diamant", "bench-plugin-hazards", params=[Param("k", 2, "hazards", 0, 100)])
def bench_plugin_hazards(obs, params, rng):
    return O.LEAVE if obs[O.HAZARDS_REVEALED] >= params[0] else O.CONTINUE
"""),
    # 20 points: every k of seat 0's leave-after-hazards from 1 to 20
    dask_bench_games=10_000_000,
    workbench_bench=WorkbenchBench("hazard_copies=2", ("seat0.k=1..20",), 1_000_000, 500_000),
    # fixed, simple strategies: the records change when the rules change, not a heuristic
    playthrough_lineups={"*": ("leave-after-hazards:k=1", "leave-after-hazards:k=2",
                               "leave-at-gems:t=12", "random-leave:p=0.2"),
                         "solo": ("leave-after-hazards:k=2",)},
)
