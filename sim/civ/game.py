"""CIV's declaration: what meeplelab finds about the game (sim/core/game.py)."""
from ..core.game import BenchSetup, Game, SearchBench
from . import fast, invariants, playthrough, reference
from .cards import DOMAINS
from .rules import MAX_PLAYERS, MIN_PLAYERS, CivRules

GAME = Game(
    name="civ",
    title="CIV: Carta Impera Victoria (Rémi Amy, Ludonaute 2018)",
    summary="play cards into six Domains, use their permanent and sacrifice effects; win by "
            "Hegemony (7 cards of a Domain, 8 at 2 players) or by Domain majorities when the deck "
            "runs out",
    rules=CivRules,
    reference_play=reference.play_batch,
    fast_play=fast.play_batch,
    playthrough=playthrough.playthrough,
    check_invariants=invariants.check_invariants,
    extras=reference.EXTRAS,
    extra_labels={"end": {code: name for name, code in reference.END_CODES.items()},
                  "hegemony_domain": {-1: "", **dict(enumerate(DOMAINS))}},
    min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, default_players=4,
    strategy_modules=("strategies.civ", "strategies.civ_search"),
    analysis_modules=("analyses.civ_domain_strategies", "analyses.civ_first_player",
                      "analyses.civ_endings", "analyses.civ_variants", "analyses.civ_ladder"),
    bench=(BenchSetup(None, ("random",) * 4, 200_000, 100),
           BenchSetup(None, ("random",) * 3, 200_000, 100),
           BenchSetup(None, ("random",) * 2, 200_000, 100),
           BenchSetup(None, ("greedy",) * 4, 20_000, 20),
           BenchSetup(None, ("greedy",) * 2, 20_000, 20)),
    search_bench=(SearchBench(None, "flat-mc", "greedy", 2), SearchBench(None, "ismcts", "greedy", 2)),
    playthrough_lineups={"*": ("random", "random", "random", "random")},
    random_native=fast.RANDOM_POLICY,
    position="strategies.civ_position:show",
    conformance_specs={"flat-mc": "flat-mc:sims=2,rollout=0", "ismcts": "ismcts:iters=20,rollout=0"},
)
