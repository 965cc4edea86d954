"""Pyramids' declaration: what meeplelab finds about the game (sim/core/game.py)."""
from ..core.game import BenchSetup, Game, SearchBench
from . import fast, invariants, playthrough, reference
from .rules import MAX_PLAYERS, MIN_PLAYERS, PyramidsRules

GAME = Game(
    name="pyramids",
    title="Pyramids (Dunstan & Gilbert, IELLO 2017), on a reconstructed deck",
    summary="draft God tiles and card pairs, build a pyramid, an obelisk and a tomb; the deck is "
            "data (the shipped one is a reconstruction)",
    rules=PyramidsRules,
    reference_play=reference.play_batch,
    fast_play=fast.play_batch,
    playthrough=playthrough.playthrough,
    check_invariants=invariants.check_invariants,
    extras=reference.EXTRAS,
    min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, default_players=4,
    strategy_modules=("strategies.pyramids", "strategies.pyramids_search"),
    analysis_modules=("analyses.pyramids_god_tile_value", "analyses.pyramids_first_player",
                      "analyses.pyramids_scoring_breakdown", "analyses.pyramids_ladder",
                      "analyses.pyramids_deck_sensitivity"),
    bench=(BenchSetup(None, ("random",) * 4, 200_000, 100),
           BenchSetup(None, ("random",) * 2, 400_000, 200),
           BenchSetup(None, ("random",) * 5, 200_000, 100),
           BenchSetup(None, ("greedy",) * 4, 20_000, 20)),
    search_bench=(SearchBench(None, "flat-mc", "greedy", 4), SearchBench(None, "ismcts", "greedy", 2)),
    playthrough_lineups={"*": ("random", "random", "random", "random")},
    random_native=fast.RANDOM_POLICY,
    conformance_specs={"flat-mc": "flat-mc:sims=2", "ismcts": "ismcts:iters=30"},
    position="strategies.pyramids_position:show",
)
