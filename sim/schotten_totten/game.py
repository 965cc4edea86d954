"""Schotten Totten's declaration: what meeplelab finds about the game (sim/core/game.py)."""
from ..core import measures as M
from ..core.game import BenchSetup, FirstPlayerStudy, Game, LadderStudy, SearchBench, TuningStudy
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
    measures=(M.column("turns", "turns played (the game's length)"),
              M.column("cards_played", "clan and tactic cards put on the table"),
              M.column("proof_claims", "stones claimed before the opponent completed its side"),
              *(M.is_code(f"end_{name}", f"the game ends by {what}", "end", code)
                for name, code, what in (("adjacent", reference.END_CODES["adjacent"],
                                          "3 adjacent stones"),
                                         ("five", reference.END_CODES["five"], "5 stones"),
                                         ("blocked", reference.END_CODES["blocked"],
                                          "a blocked game")))),
    length="turns",
    first_seat="first",
    strategy_modules=("strategies.schotten_totten",),
    analysis_modules=("analyses.first_player", "analyses.schotten_totten_game_shape",
                      "analyses.ladder", "analyses.schotten_totten_tactics_value", "analyses.tuning"),
    studies={
        "first-player": FirstPlayerStudy(
            setups=tuple((preset, preset, (2,)) for preset in
                         ("base", "tactics", "base-claim-at-start", "tactics-claim-at-start")),
            # searchers are slow, so they get fewer games
            strategies=(("random", 200_000), ("greedy", 5_000), ("flat-mc:sims=10,prune=4", 100)),
            seed=1999,
            note="Flat Monte-Carlo search plays with a small budget (10 playouts for each of the "
                 "greedy's 4 best actions) and few games: each game costs about a quarter of a "
                 "second (base) to half a second (tactics) on one core, so its intervals are wide, "
                 "about +-0.1; a tighter figure takes a longer run, e.g. `meeplelab run "
                 "schotten-totten -s flat-mc:sims=10,prune=4 -n 2000 --preset tactics`."),
        "ladder": LadderStudy(
            preset="base",
            # games per seating against a fast opponent. The two searchers get the same budget:
            # 200 playouts per play decision (25 for each of the greedy's 8 best actions; 200 tree
            # iterations over the same 8 root actions)
            entries=(("random", 20_000), ("greedy", 2_000), ("flat-mc:sims=25,prune=8", 30),
                     ("ismcts:iters=200,prune=8", 30)),
            # --quick (a smoke test): the searchers with a few playouts a decision
            quick_entries=(("random", 40), ("greedy", 40), ("flat-mc:sims=2,prune=2", 2),
                           ("ismcts:iters=8,prune=2", 2)),
            seed=2001, title="Schotten Totten strategy ladder (base game)",
            note="The two searchers get the same budget, 200 playouts per play decision (flat-mc: "
                 "25 for each of the greedy's 8 best actions; ismcts: 200 iterations over the same "
                 "8 root actions, with the greedy's 3 best actions at each of its own decisions "
                 "below and the greedy's best reply at the opponent's), and play few games here "
                 "(each of their games takes about half a second on a core), hence their wide "
                 "intervals. A longer run at 800 playouts per play decision (flat-mc's default; "
                 "ismcts's default is 1000 iterations): `meeplelab tournament schotten-totten "
                 "-s flat-mc -s ismcts:iters=800 -n 200`."),
        "tuning": TuningStudy(
            strategy="greedy", params=("pen=20..300", "temp=100..1000:log", "lam=0..1.5", "crit=0..4"),
            against=("greedy",), players=2, preset="base", trials=40, games=2_000,
            confirm_games=10_000, seed=2024,
            note="The tactic-card parameters play no part in the base game and are left out."),
    },
    bench=(BenchSetup("base", ("random", "random"), 1_000_000, 500),
           BenchSetup("tactics", ("random", "random"), 1_000_000, 500),
           BenchSetup("base", ("greedy", "greedy"), 20_000, 100),
           BenchSetup("tactics", ("greedy", "greedy"), 20_000, 100)),
    dask_bench_games=1_000_000,
    search_bench=(SearchBench("base", "flat-mc:sims=100", "greedy", 6),
                  SearchBench("base", "ismcts", "greedy", 6)),
    playthrough_lineups={"*": ("random", "random")},
    random_native=K.RANDOM_POLICY,
    conformance_specs={"flat-mc": "flat-mc:sims=3", "ismcts": "ismcts:iters=40"},
    position="strategies.schotten_totten_position:show",
)
