"""Pyramids' declaration: what meeplelab finds about the game (sim/core/game.py)."""
from ..core import measures as M
from ..core.game import BenchSetup, FirstPlayerStudy, Game, LadderStudy, SearchBench
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
    # every game lasts the 10 rounds: no length measure
    measures=tuple(M.seat_mean(part, f"{what}, per seat (mean over the seats)", part)
                   for part, what in (("pyramid", "points of the pyramid's colour groups"),
                                      ("bonus", "points of the pyramid bonus"),
                                      ("obelisk", "points of the obelisk"),
                                      ("tomb", "points of the tomb majorities"),
                                      ("glyph", "points of the glyphs")))
    + (M.column("discards", "cards discarded in the game"),),
    first_seat="first_player",
    strategy_modules=("strategies.pyramids", "strategies.pyramids_search"),
    analysis_modules=("analyses.pyramids_god_tile_value", "analyses.first_player",
                      "analyses.pyramids_scoring_breakdown", "analyses.ladder",
                      "analyses.pyramids_deck_sensitivity"),
    studies={
        "first-player": FirstPlayerStudy(
            setups=(("published", "published", (2, 3, 4, 5)),),
            strategies=(("random", 100_000), ("greedy", 20_000)), seed=2018,
            measures=("first_score_lead",),
            note="Seat 0 holds the First Player token in round 1 (it chooses its God tile first) "
                 "and the token passes left each round, so over 10 rounds seat 0 chooses first 5 "
                 "times at 2 players, 4 at 3, 3 at 4 and 2 at 5. Deck: the shipped "
                 "reconstruction."),
        "ladder": LadderStudy(
            preset="published",
            entries=(("random", 20_000), ("greedy", 5_000), ("god-priority:order=KSTAH", 5_000),
                     ("god-priority:order=HASKT", 5_000), ("flat-mc", 200), ("ismcts:iters=300", 60)),
            quick_entries=(("random", 10), ("greedy", 10), ("god-priority:order=KSTAH", 10),
                           ("god-priority:order=HASKT", 10), ("flat-mc:sims=2", 10),
                           ("ismcts:iters=10", 10)),
            seed=2020, title="Pyramids strategy ladder (2 players)",
            note="The searchers play few games with small budgets here (the report should take "
                 "minutes). Deck: the shipped reconstruction."),
    },
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
