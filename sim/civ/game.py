"""CIV's declaration: what meeplelab finds about the game (sim/core/game.py)."""
from ..core import measures as M
from ..core.game import (BenchSetup, FirstPlayerStudy, Game, LadderStudy, SearchBench, TuningStudy,
                         Variant, VariantsStudy)
from . import fast, invariants, playthrough, reference
from .cards import DOMAINS
from .rules import MAX_PLAYERS, MIN_PLAYERS, CivRules

ALL = (2, 3, 4)

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
    measures=(M.column("turns", "turns played (the game's length)"),
              M.column("deck_left", "cards left in the deck at the end"),
              M.is_code("hegemony", "the game is won by Hegemony", "end", reference.END_CODES["hegemony"]),
              *(M.is_code(f"hegemony_{d}", f"won by Hegemony in {d.capitalize()}", "hegemony_domain", i)
                for i, d in enumerate(DOMAINS))),
    length="turns",
    first_seat="first_player",
    strategy_modules=("strategies.civ", "strategies.civ_search"),
    analysis_modules=("analyses.civ_domain_strategies", "analyses.first_player",
                      "analyses.civ_endings", "analyses.variants", "analyses.ladder", "analyses.tuning"),
    studies={
        "first-player": FirstPlayerStudy(
            setups=(("classic", "civ-classic", (2, 3, 4)), ("draft", "civ-draft", (2, 3, 4)),
                    ("teams", "civ-teams", (4,))),
            strategies=(("random", 20_000), ("greedy", 10_000)), seed=2018,
            measures=("hegemony", "turns"),
            note="Set-ups: classic (3 cards dealt), draft (keep 1 and pass, the leftovers taken "
                 "into play from the last player back to the first) and team play at 4 (seats 0 "
                 "and 2 against 1 and 3, preset `civ-teams`)."),
        "variants": VariantsStudy(
            field=("greedy",), games=2_000, quick_games=12, seed=2019,
            measures=("first_edge", "hegemony", "turns"),
            # every ruling of CivRules (ruling=True) but `teams`, a set-up (civ-first-player,
            # civ-endings); Attack on the teammate is a ruling of team play only
            variants=tuple(Variant(label, base, changes, players) for label, base, changes, players in (
                ("draft set-up", "civ-classic", ("setup=draft",), ALL),
                ("no card removal at 2-3 players", "civ-classic", ("removal_players=[]",), (2, 3)),
                ("Technological Leap takes a discard", "civ-classic", ("leap_takes_discard=true",), ALL),
                ("Monopoly with one playable card", "civ-classic", ("level2_short=true",), ALL),
                ("Attack on a Domain one lacks", "civ-classic", ("attack_needs_own=false",), ALL),
                ("Attack never on Military", "civ-classic", ("attack_military=false",), ALL),
                ("Attack spares the teammate", "civ-teams", ("attack_hits_teammate=false",), (4,)),
                ("Embargo blocks effects too", "civ-classic", ("embargo_blocks_effects=true",), ALL),
                ("Embargo on an empty Domain", "civ-classic", ("embargo_needs_card=false",), ALL),
                ("Embargo card counts", "civ-classic", ("embargo_card_counts=true",), ALL),
                ("Democracy only on a card", "civ-classic", ("democracy_needs_card=true",), ALL),
                ("Democracy card counts", "civ-classic", ("democracy_card_counts=true",), ALL),
                ("Art coin kept on a tie", "civ-classic", ("art_tie=keep",), ALL),
                ("Art coin needs 2 cards", "civ-classic", ("art_min_cards=2",), ALL),
                ("two Inspirations a turn", "civ-classic", ("copies_per_turn=2",), ALL),
                ("Inspiration leaves the slot free", "civ-classic", ("copy_uses_slot=false",), ALL),
                ("no Hegemony in the final round", "civ-classic", ("hegemony_in_final_round=false",), ALL),
                ("empty Domains score for all", "civ-classic", ("empty_domain_scores=true",), ALL),
                ("tied points share the win", "civ-classic", ("tie_break=shared",), ALL))),
            note="Every open ruling of the specification (`ruling = true` in `meeplelab rules "
                 "civ`) is flipped to its alternative, except `teams`, a set-up measured by "
                 "`civ-first-player` and `civ-endings`; with them the draft set-up and no card "
                 "removal at 2-3 players. A ruling that changes no game here is one whose "
                 "situation the greedy never brings about (it may matter to other players)."),
        "ladder": LadderStudy(
            preset="civ-classic",
            # random first: the ratings' zero; games per seating against a fast opponent
            entries=(("random", 20_000), ("greedy", 800), ("majority", 800),
                     *((f"domain-focus:domain={d}", 800) for d in DOMAINS),
                     # the searchers with a small budget: about 30 playouts a decision
                     ("flat-mc:sims=10,prune=3", 12), ("ismcts:iters=30", 12)),
            quick_entries=(("random", 4), ("greedy", 4), ("majority", 4),
                           *((f"domain-focus:domain={d}", 4) for d in DOMAINS),
                           ("flat-mc:sims=2,prune=2", 1), ("ismcts:iters=6", 1)),
            seed=2020, title="CIV strategy ladder (2 players; focus X: domain-focus:domain=X)",
            short=(("domain-focus:domain=", "focus "),),
            note="`domain-focus` plays once per Domain. The searchers (`flat-mc:sims=10,prune=3`, "
                 "`ismcts:iters=30`) play with a small budget and few games here (the report "
                 "should take minutes), hence their wide intervals; a longer run: `meeplelab "
                 "tournament civ --players 2 -s flat-mc:sims=10,prune=3 -s greedy -n 400`."),
        "tuning": TuningStudy(
            strategy="greedy", params=("heg=0..10", "maj=0..5", "threat=0..10", "late=0..4",
                                       "cycle=0..0.5"),
            against=("greedy",), players=4, preset="civ-classic", trials=40, games=1_000,
            confirm_games=5_000, seed=2024, check_players=(2, 3),
            note="The greedy's weights were set by hand, one set for every player count; here they "
                 "are tuned against itself at 4 players."),
    },
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
