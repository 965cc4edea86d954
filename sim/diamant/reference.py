"""Diamant reference engine: the executable rulebook, in plain Python, written to be read.

One call plays one game. Randomness comes only from keyed streams: the deck of round r is a
permutation of the whole card pool drawn from stream `deck_stream(r)`, restricted to the cards
still in the game (so removing a hazard changes nothing else about the order); each seat's
strategy draws from its own stream. The fast engine must give identical results game by game.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..core import reference as core_reference
from ..core.batch import Batch
from ..core.reference import Decider, GameResult
from ..core.rng import KeyedRng, deck_stream
from . import observation as O
from .rules import DiamantRules

TREASURE, HAZARD, ARTIFACT = 0, 1, 2
IN_DECK, OUT_OF_GAME, NOT_YET_IN = 0, 1, 2
EXTRAS = ("cards_revealed", "disasters")


class Card:
    def __init__(self, index: int, kind: int, value: int = 0, hazard: int = -1):
        self.index, self.kind, self.value, self.hazard = index, kind, value, hazard

    def __repr__(self):
        return {TREASURE: f"T{self.value}", HAZARD: f"H{self.hazard}", ARTIFACT: "A"}[self.kind]


def card_pool(rules: DiamantRules) -> list[Card]:
    """Treasures, then hazards kind by kind, then artifacts: the fixed order of the pool."""
    cards = [Card(i, TREASURE, value=v) for i, v in enumerate(rules.treasure_values)]
    for kind in range(rules.hazard_kinds):
        for _ in range(rules.hazard_copies):
            cards.append(Card(len(cards), HAZARD, hazard=kind))
    if rules.artifacts != "none":
        for _ in range(rules.artifact_count):
            cards.append(Card(len(cards), ARTIFACT))
    return cards


class Game:
    """State of one game of Diamant."""

    def __init__(self, rules: DiamantRules, players: int, seed: int, game: int):
        self.rules, self.players, self.seed, self.game = rules, players, seed, game
        self.cards = card_pool(rules)
        self.status = [IN_DECK] * len(self.cards)
        if rules.artifacts == "per-round":
            for c in self.cards:
                if c.kind == ARTIFACT:
                    self.status[c.index] = NOT_YET_IN
        self.chest = [0] * players
        self.artifact_points = [0] * players
        self.artifacts_owned = [0] * players
        self.last_round_banked = [0] * players
        self.artifacts_taken = 0
        self.cards_revealed = 0
        self.disasters = 0
        self.round = 0
        # state of the current cave
        self.deck: list[Card] = []
        self.path: list[Card] = []
        self.leftover_on: dict[int, int] = {}   # treasure card index -> gems lying on it
        self.in_cave = [False] * players
        self.carried = [0] * players
        self.decisions = 0

    # ---------------------------------------------------------------- one round
    def start_round(self) -> None:
        if self.rules.artifacts == "per-round":
            waiting = [c for c in self.cards if c.kind == ARTIFACT and self.status[c.index] == NOT_YET_IN]
            if waiting:
                self.status[waiting[0].index] = IN_DECK
        order = list(range(len(self.cards)))
        KeyedRng(self.seed, self.game, deck_stream(self.round)).shuffle(order)
        self.deck = [self.cards[i] for i in order if self.status[i] == IN_DECK]
        self.path, self.leftover_on = [], {}
        self.in_cave = [True] * self.players
        self.carried = [0] * self.players
        self.last_round_banked = [0] * self.players
        self.decisions = 0
        self.cave_cards = 0

    def leftover(self) -> int:
        return sum(self.leftover_on.values())

    def hazard_seen(self, kind: int) -> int:
        return sum(1 for c in self.path if c.kind == HAZARD and c.hazard == kind)

    def reveal(self) -> bool:
        """Reveal the next card; return True if the round goes on."""
        card = self.deck.pop(0)
        self.path.append(card)
        self.cards_revealed += 1
        self.cave_cards += 1
        inside = [p for p in range(self.players) if self.in_cave[p]]
        if card.kind == TREASURE:
            share, rest = divmod(card.value, len(inside))
            for p in inside:
                self.carried[p] += share
            self.leftover_on[card.index] = rest
        elif card.kind == HAZARD and self.hazard_seen(card.hazard) >= self.rules.hazards_to_end:
            self.disaster(card)
            return False
        return True

    def disaster(self, card: Card) -> None:
        """Everyone still inside flees and loses the gems carried in this cave."""
        self.disasters += 1
        for p in range(self.players):
            if self.in_cave[p]:
                self.carried[p] = 0
                self.in_cave[p] = False
        if self.rules.remove_hazard_after_disaster:
            self.status[card.index] = OUT_OF_GAME   # one of the cards of that kind leaves the game

    def leave(self, leavers: list[int]) -> None:
        """Leavers bank their gems, share the leftovers, and a lone leaver takes the artifacts."""
        m = len(leavers)
        for p in leavers:
            self.in_cave[p] = False
        if self.rules.leftover_split == "pooled":
            share, rest = divmod(self.leftover(), m)
            # pooled: only the total matters, so the remainder is kept on the first card
            self.leftover_on = {i: 0 for i in self.leftover_on}
            if self.leftover_on:
                self.leftover_on[next(iter(self.leftover_on))] = rest
        else:
            share = 0
            for i, gems in self.leftover_on.items():
                share += gems // m
                self.leftover_on[i] = gems % m
        for p in leavers:
            banked = self.carried[p] + share
            self.chest[p] += banked
            self.last_round_banked[p] += banked
            self.carried[p] = 0
        if m == 1:
            for card in [c for c in self.path if c.kind == ARTIFACT]:
                self.artifact_points[leavers[0]] += self.rules.artifact_value(self.artifacts_taken)
                self.artifacts_taken += 1
                self.artifacts_owned[leavers[0]] += 1
                self.status[card.index] = OUT_OF_GAME
                self.path.remove(card)

    def end_round(self) -> None:
        for card in self.path:
            if card.kind == ARTIFACT and self.rules.unclaimed_artifacts == "removed":
                self.status[card.index] = OUT_OF_GAME
        self.round += 1

    def play_round(self, decide) -> None:
        self.start_round()
        first = True
        while True:
            if not (first and self.rules.first_card_free):
                leavers = [p for p in range(self.players) if self.in_cave[p] and decide(self, p)]
                self.decisions += 1
                if leavers:
                    self.leave(leavers)
                if not any(self.in_cave):
                    break
            first = False
            if not self.deck:
                if self.rules.deck_exhausted == "leave-together":
                    self.leave([p for p in range(self.players) if self.in_cave[p]])
                else:
                    self.disaster_without_card()
                break
            if not self.reveal():
                break
        self.end_round()

    def disaster_without_card(self) -> None:
        for p in range(self.players):
            if self.in_cave[p]:
                self.carried[p] = 0
                self.in_cave[p] = False

    # ---------------------------------------------------------------- end of game
    def scores(self) -> list[int]:
        return [self.chest[p] + self.artifact_points[p] for p in range(self.players)]

    def win_shares(self) -> list[float]:
        scores = self.scores()
        best = max(scores)
        tied = [p for p in range(self.players) if scores[p] == best]
        rule = self.rules.tie_break
        if len(tied) > 1 and rule in ("last-round", "artifacts"):
            key = self.last_round_banked if rule == "last-round" else self.artifacts_owned
            top = max(key[p] for p in tied)
            tied = [p for p in tied if key[p] == top]
        if len(tied) > 1 and rule == "none":
            tied = []
        return [1.0 / len(tied) if p in tied else 0.0 for p in range(self.players)]

    # ---------------------------------------------------------------- what a seat sees
    def observation(self, seat: int) -> np.ndarray:
        r = self.rules
        obs = np.zeros(O.SIZE, dtype=np.int64)
        obs[O.SEAT], obs[O.DECISION], obs[O.N_LEGAL], obs[O.LEGAL_AT] = seat, O.STAY_OR_LEAVE, 2, O.LEGAL
        obs[O.LEGAL + O.CONTINUE], obs[O.LEGAL + O.LEAVE] = O.CONTINUE, O.LEAVE
        obs[O.PLAYERS], obs[O.ROUND], obs[O.ROUNDS] = self.players, self.round, r.rounds
        obs[O.CARDS_REVEALED] = self.cave_cards
        obs[O.HAZARDS_REVEALED] = sum(1 for c in self.path if c.kind == HAZARD)
        obs[O.CARRIED], obs[O.CHEST] = self.carried[seat], self.chest[seat]
        obs[O.IN_CAVE] = sum(self.in_cave)
        obs[O.LEFTOVER] = self.leftover()
        obs[O.DECK_SIZE] = len(self.deck)
        obs[O.DECK_TREASURE_SUM] = sum(c.value for c in self.deck if c.kind == TREASURE)
        obs[O.DECK_TREASURES] = sum(1 for c in self.deck if c.kind == TREASURE)
        obs[O.DECK_HAZARDS] = sum(1 for c in self.deck if c.kind == HAZARD)
        obs[O.HAZARDS_TO_END], obs[O.HAZARD_KINDS] = r.hazards_to_end, r.hazard_kinds
        obs[O.TREASURE_CARDS] = len(r.treasure_values)
        on_path = sum(1 for c in self.path if c.kind == ARTIFACT)
        obs[O.ARTIFACTS_ON_PATH] = on_path
        obs[O.ARTIFACT_VALUE_ON_PATH] = sum(r.artifact_value(self.artifacts_taken + i) for i in range(on_path))
        obs[O.ARTIFACTS_TAKEN] = self.artifacts_taken
        obs[O.DECK_ARTIFACTS] = sum(1 for c in self.deck if c.kind == ARTIFACT)
        obs[O.OWN_ARTIFACT_POINTS] = self.artifact_points[seat]
        obs[O.DECISIONS] = self.decisions
        for kind in range(r.hazard_kinds):
            seen = self.hazard_seen(kind)
            left = sum(1 for c in self.deck if c.kind == HAZARD and c.hazard == kind)
            obs[O.HAZARD_SEEN + kind], obs[O.HAZARD_IN_DECK + kind] = seen, left
            if seen == r.hazards_to_end - 1:
                obs[O.DANGER_HAZARDS] += left
        for p in range(self.players):
            obs[O.SEAT_IN_CAVE + p] = self.in_cave[p]
            obs[O.SEAT_CHEST + p] = self.chest[p] if (r.chests_visible or p == seat) else -1
            obs[O.SEAT_CARRIED + p] = self.carried[p]
        in_deck = {c.index for c in self.deck}
        for i, v in enumerate(r.treasure_values):
            obs[O.TREASURE_VALUE + i] = v
            obs[O.TREASURE_IN_DECK + i] = i in in_deck
        return obs


def play_game(rules: DiamantRules, players: int, seed: int, game: int, kernels, params,
              on_decision=None, after_round=None) -> Game:
    """Play one whole game; `kernels[seat](obs, params[seat], rng)` returns the index of its
    choice in the legal list [continue, leave] (sim/core/reference.py checks it). Observers
    (see playthrough.py): `on_decision(game, seat, leaves)` after each decision,
    `after_round(game)` after each round."""
    return _play(rules, players, seed, game, Decider(kernels, params, seed, game, players),
                 on_decision, after_round)


def _play(rules, players, seed, game, decider, on_decision=None, after_round=None,
          forced=None) -> Game:
    """`forced` (round, step, seat, action): that seat's decision at that decision step of that
    round (0-based), if it is in the cave then, is `action` whatever its strategy says (which is
    still asked, so its stream draws as it would); `g.probed` is then what it saw there."""
    g = Game(rules, players, seed, game)
    g.probed = None

    def decide(state: Game, seat: int) -> bool:
        where = f"decision {state.decisions} of round {state.round} (0-based)"
        obs = state.observation(seat)
        leaves = decider(seat, obs, where) == O.LEAVE
        if forced is not None and (state.round, state.decisions, seat) == forced[:3]:
            g.probed = obs
            leaves = forced[3] == O.LEAVE
        if on_decision is not None:
            on_decision(state, seat, leaves)
        return leaves

    for _ in range(rules.rounds):
        g.play_round(decide)
        if after_round is not None:
            after_round(g)
    return g


def play_batch(rules: DiamantRules, players: int, seed: int, first_game: int, n_games: int,
               kernels, params) -> Batch:
    def one(game: int, decider: Decider) -> GameResult:
        g = _play(rules, players, seed, game, decider)
        return GameResult(g.scores(), g.win_shares(), (g.cards_revealed, g.disasters))
    return core_reference.play_batch(one, EXTRAS, players, seed, first_game, n_games, kernels, params)


@dataclasses.dataclass(frozen=True)
class Probe:
    """One forced decision per game, for paired rollouts from states met in real games: in game
    first_game + i, seat `seat` takes `action` at decision step steps[i] of round rounds[i]
    (0-based; a step no decision reaches, such as -1, forces nothing), if it is still in the
    cave then, and what it saw there is kept."""
    rounds: np.ndarray
    steps: np.ndarray
    seat: int
    action: int


@dataclasses.dataclass
class ProbedBatch:
    """The games of a Probe: the Batch, whether each game reached its probe, and the probe
    seat's observation there (zeros where not reached)."""
    batch: Batch
    reached: np.ndarray       # bool per game
    observations: np.ndarray  # int64, games x O.SIZE


def play_probed(rules: DiamantRules, players: int, seed: int, first_game: int, n_games: int,
                kernels, params, probe: Probe) -> ProbedBatch:
    reached = np.zeros(n_games, bool)
    seen = np.zeros((n_games, O.SIZE), np.int64)

    def one(game: int, decider: Decider) -> GameResult:
        i = game - first_game
        forced = (int(probe.rounds[i]), int(probe.steps[i]), probe.seat, probe.action)
        g = _play(rules, players, seed, game, decider, forced=forced)
        if g.probed is not None:
            reached[i], seen[i] = True, g.probed
        return GameResult(g.scores(), g.win_shares(), (g.cards_revealed, g.disasters))
    batch = core_reference.play_batch(one, EXTRAS, players, seed, first_game, n_games, kernels, params)
    return ProbedBatch(batch, reached, seen)
