"""Schotten Totten's declaration: what meeplelab finds about the game (sim/core/game.py)."""
from ..core.game import BenchSetup, Game, SearchBench
from . import fast, invariants, playthrough, reference
from . import policies as K
from .rules import SchottenTottenRules

GAME = Game(
    name="schotten-totten",
    title="Schotten Totten (Knizia, 1999), with tactic cards",
    summary="two-player border war of poker-like formations; seat 0 moves first "
            "(unless first_player=random); score 1 for a win, 0 for a loss",
    rules=SchottenTottenRules,
    reference_play=reference.play_batch,
    fast_play=fast.play_batch,
    playthrough=playthrough.playthrough,
    check_invariants=invariants.check_invariants,
    extras=reference.EXTRAS,
    extra_labels={"end": {code: name for name, code in reference.END_CODES.items()}},
    min_players=2, max_players=2, default_players=2,
    strategy_modules=("strategies.schotten_totten",),
    analysis_modules=("analyses.schotten_totten_first_player", "analyses.schotten_totten_game_shape",
                      "analyses.schotten_totten_ladder", "analyses.schotten_totten_tactics_value"),
    bench=(BenchSetup("base", ("random", "random"), 1_000_000, 500),
           BenchSetup("tactics", ("random", "random"), 1_000_000, 500),
           BenchSetup("base", ("greedy", "greedy"), 20_000, 100),
           BenchSetup("tactics", ("greedy", "greedy"), 20_000, 100)),
    search_bench=(SearchBench("base", "flat-mc:sims=100", "greedy", 6),
                  SearchBench("base", "ismcts", "greedy", 6)),
    playthrough_lineups={"*": ("random", "random")},
    random_native=K.RANDOM_POLICY,
    conformance_specs={"flat-mc": "flat-mc:sims=3", "ismcts": "ismcts:iters=40"},
    position="strategies.schotten_totten_position:show",
)
