"""Schotten Totten reference engine: the executable rulebook, in plain Python, written to be read.

The contract is shared/rules/schotten-totten.md. One call of `play_game` plays one game between
two policies; `play_match` plays several and scores them (winner 5, loser 1 per stone).

State (all small integers, so the fast engine can hold it in flat arrays):
  sides[stone][seat]        cards on that seat's side of the stone, in placement order (<= 4)
  last_placed[stone][seat]  clock value of the last card put there (orders completions: ties at a
                            stone go to the side that completed first, i.e. placed its last card first)
  env_cards[stone]          Fog / Mud cards lying under the stone
  claimed[stone]            -1, or the seat that claimed it
  hands[seat]               sorted card ids
  clan_pile, tactic_pile    top first (index 0 is drawn next); Scout returns go to the end (bottom)
  discard                   face-up cards beside the tactic pile: played ruse cards and discarded
                            cards, in the order they arrived
  box                       the tactic cards out of the game: all ten without tactics, those not in
                            `tactic_cards` with tactics
  tactics_played[seat]      tactic cards each seat has played from hand (ruse and environment
                            cards included); chief_played[seat]: whether it ever played a Chief
  drawn_tactics[seat], played_tactics[seat]   bit masks (bit i: card 54 + i) of the tactic cards
                            each seat has drawn (Scout draws included) and played from hand
`Game.locations()` gives the location code of every card (see LOC_*), one flat int array.

Randomness (all of it; `KeyedRng(seed, game, stream)`):
  - clan deck: `list(range(54))` shuffled with stream `deck_stream(0)`; seat 0 is dealt the first
    `hand_size` cards, seat 1 the next `hand_size`, the rest is the clan pile (top first);
  - tactic deck (advanced game): `list(range(54, 64))` shuffled with stream `deck_stream(1)`, then
    the cards not in `tactic_cards` taken out (the others keep their order: the pile without a card
    is the pile with it, that card deleted);
  - first player: seat 0, unless `first_player = "random"`: `below(2)` on stream `deck_stream(2)`;
  - each policy may use its own stream `player_stream(seat)` (see `RandomPolicy`).
Nothing else is random. The clan deck is the same with and without tactic cards.

A turn (seat to move):
  1. [claim timing "start-of-turn"] claims;
  2. play one card, or pass (see below);  Scout: draw 3 (one at a time, each from a pile of the
     player's choice among the non-empty ones), then return 2 cards one at a time to the bottom of
     their own piles (the first returned lies above the second);
  3. [claim timing "after-play"] claims;
  4. draw one card if the hand holds fewer than `hand_size` cards (choice of pile with tactics;
     an empty pile cannot be drawn from; nothing happens if both are empty).
Claims: with `auto_claim` every provable stone is claimed at once, then the end is checked
("adjacent" if the player now holds `adjacent_to_win` adjacent stones, else "five" if they hold
`total_to_win`); otherwise the policy claims stones one at a time (end checked after each) and stops
with END_CLAIMS. Passing is legal only when no clan card can be played (in the base game: no legal
placement at all). The game is blocked (end "blocked", ruling `blocked_game`) when two turns in a row
(one by each player) change nothing: no card played, none claimed, none drawn — such a position
would repeat forever; or at once when a player has no legal play and `no_play = "blocked"`.

Choices where the specification leaves room (not rule parameters):
  - the tactic-card limit counts tactic cards played from hand (a deserted or redeployed card stays
    counted); a seat that has played a Chief never plays the other one, even after the first has
    been deserted or redeployed to the discard ("must stay in hand for the rest of the game");
  - Fog and Mud may go under any unclaimed stone, full or not (Mud then reopens complete sides);
    Redeploy and Traitor move a card to *another* stone; a ruse with no target cannot be played;
  - the Scout may be played with short piles (it draws what there is), and it may return any card,
    the second Chief included; after it, the end-of-turn draw only tops the hand up to `hand_size`;
  - a voluntary pass that leaves the position unchanged counts towards a blocked game (see
    `Observation.idle`); a drawn (blocked, equal) game scores each player 1 per stone.

Policies are called only when there is a real choice (two or more legal actions), with
(observation, legal actions); legal actions come in the documented order of `legal_plays`.

Strategies of the strategy API (sim/core/strategy_api.py, as in every game of the project) play
through `play_batch` / `play_kernel_game`: `kernel(obs, params, rng) -> index` gets the flat
observation vector of observation.py (`Game.flat_observation`: the deciding seat's view plus the
encoded legal actions) and returns the index of its legal action; `rng` is the seat's own stream
(`player_stream(seat)`), so `policies.random_policy` plays exactly the games of `RandomPolicy`.
The fast engine (fast.py) plays the same games, bit for bit. Batch scores are 1 for the winner and
0 for the loser (0 and 0 after a draw); extras: `EXTRAS`, the end kind as `END_CODES`.
"""
from __future__ import annotations

import array
import dataclasses
from typing import NamedTuple

import numpy as np

from ..core import reference as core_reference
from ..core.batch import Batch, StrategyError
from ..core.errors import UsageError
from ..core.reference import MAX_TURNS, Decider, GameResult, endless_game
from ..core.rng import KeyedRng, deck_stream, player_stream
from . import cards as C
from . import observation as O
from .rules import SchottenTottenRules

# streams
CLAN_STREAM = deck_stream(0)
TACTIC_STREAM = deck_stream(1)
FIRST_PLAYER_STREAM = deck_stream(2)

# action kinds
PLAY, PASS, SCOUT, REDEPLOY, DESERTER, TRAITOR, DRAW, RETURN, CLAIM, END_CLAIMS = range(10)
KIND_NAMES = ("play", "pass", "scout", "redeploy", "deserter", "traitor", "draw", "return", "claim",
              "end-claims")
CLAN_PILE, TACTIC_PILE = 0, 1
PILE_NAMES = ("clan", "tactic")

# decision phases
PHASE_PLAY, PHASE_CLAIM, PHASE_DRAW, PHASE_SCOUT_DRAW, PHASE_SCOUT_RETURN = (
    "play", "claim", "draw", "scout-draw", "scout-return")

# end kinds
END_KINDS = ("adjacent", "five", "blocked")

# location codes of `Game.locations()`
LOC_CLAN_PILE, LOC_TACTIC_PILE, LOC_HAND, LOC_DISCARD, LOC_BOX = 0, 1, 2, 4, 5  # hand: 2 + seat
LOC_SIDE = 8            # 8 + 2 * stone + seat
LOC_ENV = LOC_SIDE + 18  # 26 + stone

SCOUT_DRAWS = 3
SCOUT_RETURNS = 2


class Action(NamedTuple):
    """One decision. Unused fields are -1.

    PLAY card stone           clan or morale card onto your side, or Fog/Mud under the stone
    PASS                      play nothing this turn
    SCOUT card                play the Scout (draws and returns follow as decisions)
    REDEPLOY card stone target dest   move `target` from your side of `stone` to your side of
                              `dest`, or discard it (dest -1)
    DESERTER card stone target        discard `target` from the opponent's side of `stone`
    TRAITOR card stone target dest    move the clan card `target` from the opponent's side of
                              `stone` to your side of `dest`
    DRAW pile                 draw the top card of a pile (0 clan, 1 tactic)
    RETURN card               Scout: put a card from hand at the bottom of its pile
    CLAIM stone / END_CLAIMS  (only when auto_claim is off)
    """
    kind: int
    card: int = -1
    stone: int = -1
    target: int = -1
    dest: int = -1
    pile: int = -1

    def __str__(self) -> str:
        k = self.kind
        if k == PLAY:
            return f"play {C.card_name(self.card)} at {self.stone}"
        if k == PASS:
            return "pass"
        if k == SCOUT:
            return "play Scout"
        if k == REDEPLOY:
            to = "discard" if self.dest < 0 else f"stone {self.dest}"
            return f"Redeploy {C.card_name(self.target)} from {self.stone} to {to}"
        if k == DESERTER:
            return f"Deserter discards {C.card_name(self.target)} at {self.stone}"
        if k == TRAITOR:
            return f"Traitor takes {C.card_name(self.target)} at {self.stone} to {self.dest}"
        if k == DRAW:
            return f"draw from the {PILE_NAMES[self.pile]} pile"
        if k == RETURN:
            return f"return {C.card_name(self.card)}"
        if k == CLAIM:
            return f"claim {self.stone}"
        return "end claims"


@dataclasses.dataclass(frozen=True)
class Observation:
    """What one seat may see when it decides: its own hand and everything public.

    Board fields are indexed by absolute seat (`sides[stone][seat]`); `seat` says which is yours.
    """
    seat: int
    phase: str
    turn: int                      # turns completed so far
    first: int                     # seat that moved first
    hand: tuple
    sides: tuple                   # [stone] -> (seat 0 cards, seat 1 cards), placement order
    last_placed: tuple             # [stone] -> (clock of seat 0's last card, of seat 1's)
    env: tuple                     # [stone] -> tuple of Fog/Mud cards under it
    claimed: tuple                 # [stone] -> -1 or seat
    discard: tuple
    clan_pile: int                 # cards left in each pile
    tactic_pile: int
    hand_sizes: tuple
    tactics_played: tuple
    chief_played: tuple
    scout_returns: int             # cards still to return (phase scout-return)
    idle: bool                     # the previous turn changed nothing: if this one changes nothing
                                   # too (pass, no claim, no draw) the game ends blocked
    rules: SchottenTottenRules

    def unseen_clan_cards(self) -> list[int]:
        """Clan cards this seat cannot see: the piles and the opponent's hand."""
        seen = set(self.hand) | set(self.discard)
        for pair in self.sides:
            seen.update(pair[0])
            seen.update(pair[1])
        return [c for c in range(C.N_CLAN) if c not in seen]


@dataclasses.dataclass
class Result:
    winner: int                    # seat, or -1 for a draw
    end: str                       # "adjacent", "five" or "blocked"
    stones: tuple                  # stones claimed by each seat
    claimed: tuple                 # [stone] -> -1 or seat
    points: tuple                  # match points of this game (winner 5, loser 1 per stone)
    first: int
    turns: int
    cards_played: int              # clan and tactic cards played from hand
    clan_cards_played: int
    tactics_played: tuple
    log: list | None = None        # (turn, seat, phase, action) when recorded


@dataclasses.dataclass
class MatchResult:
    points: list                   # total per seat
    results: list                  # one Result per game


class Game:
    """State of one game of Schotten Totten, and the rules that change it."""

    def __init__(self, rules: SchottenTottenRules, seed: int = 0, game: int = 0, first: int | None = None,
                 deal: bool = True):
        self.rules, self.seed, self.game = rules, seed, game
        n = rules.stones
        self.sides = [[[], []] for _ in range(n)]
        self.last_placed = [[0, 0] for _ in range(n)]
        self.env_cards = [[] for _ in range(n)]
        self.claimed = [-1] * n
        self.hands = [[], []]
        self.clan_pile: list[int] = []
        self.tactic_pile: list[int] = []
        self.discard: list[int] = []
        self.box: list[int] = []
        self.tactics_played = [0, 0]
        self.drawn_tactics = [0, 0]         # bit masks, bit i: card 54 + i
        self.played_tactics = [0, 0]
        self.chief_played = [False, False]
        self.clock = 0
        self.turns = 0
        self.cards_played = 0
        self.clan_cards_played = 0
        self.proof_claims = 0               # stones claimed before the opponent's side was complete
        self.previous_turn_idle = False     # the last turn changed nothing (see play_turn)
        self.scout_returns_left = 0
        self.over = False
        self.winner = -1
        self.end = ""
        if first is None:
            first = 0 if rules.first_player == "seat0" else \
                KeyedRng(seed, game, FIRST_PLAYER_STREAM).below(2)
        self.first = self.to_move = first
        if deal:
            self.deal()

    def deal(self) -> None:
        h = self.rules.hand_size
        clan = list(range(C.N_CLAN))
        KeyedRng(self.seed, self.game, CLAN_STREAM).shuffle(clan)
        self.hands = [sorted(clan[:h]), sorted(clan[h:2 * h])]
        self.clan_pile = clan[2 * h:]
        tactic = list(C.TACTIC_CARDS)
        if self.rules.tactics:
            KeyedRng(self.seed, self.game, TACTIC_STREAM).shuffle(tactic)   # all ten, always
            in_play = self.rules.tactic_cards_in_play()
            self.tactic_pile = [c for c in tactic if c in in_play]
            self.box = [c for c in C.TACTIC_CARDS if c not in in_play]
        else:
            self.box = tactic

    # ---------------------------------------------------------------- reading the table
    def capacity(self, stone: int) -> int:
        """Cards in a complete formation at this stone (4 under Mud)."""
        return 4 if C.MUD in self.env_cards[stone] else 3

    def fog(self, stone: int) -> bool:
        return C.FOG in self.env_cards[stone]

    def is_open(self, stone: int) -> bool:
        return self.claimed[stone] == -1

    def has_room(self, stone: int, seat: int) -> bool:
        return self.is_open(stone) and len(self.sides[stone][seat]) < self.capacity(stone)

    def hidden_clan_cards(self) -> set[int]:
        """Clan cards not visible on the table: both piles and both hands."""
        return {c for c in self.clan_pile + self.hands[0] + self.hands[1] if c < C.N_CLAN}

    def can_claim(self, stone: int, seat: int, hidden: set[int] | None = None) -> bool:
        if not self.is_open(stone):
            return False
        if hidden is None:
            hidden = self.hidden_clan_cards()
        lp = self.last_placed[stone]
        return C.wins_stone(self.sides[stone][seat], self.sides[stone][1 - seat], self.capacity(stone),
                            self.fog(stone), hidden, lp[seat] < lp[1 - seat])

    def provable_stones(self, seat: int) -> list[int]:
        hidden = self.hidden_clan_cards()
        return [s for s in range(self.rules.stones) if self.can_claim(s, seat, hidden)]

    def may_play_tactic(self, seat: int) -> bool:
        """At most `tactic_limit` more tactic cards played than the opponent, ever."""
        return self.rules.tactics and \
            self.tactics_played[seat] - self.tactics_played[1 - seat] < self.rules.tactic_limit

    def legal_plays(self, seat: int) -> list[Action]:
        """Legal actions of the play step, in this order: for each card in hand (ascending id) its
        uses (stones ascending; ruse targets by stone, then placement order, then destination,
        discard first), then PASS if no clan card can be played."""
        n = self.rules.stones
        opp = 1 - seat
        open_stones = [s for s in range(n) if self.is_open(s)]
        room = [s for s in open_stones if self.has_room(s, seat)]
        tactic_ok = self.may_play_tactic(seat)
        acts: list[Action] = []
        for card in sorted(set(self.hands[seat])):
            if card < C.N_CLAN:
                acts += [Action(PLAY, card, s) for s in room]
            elif not tactic_ok:
                continue
            elif card in C.CHIEFS:
                if not self.chief_played[seat]:
                    acts += [Action(PLAY, card, s) for s in room]
            elif card in (C.TROOP, C.SHIELD):
                acts += [Action(PLAY, card, s) for s in room]
            elif card in C.ENVIRONMENT:
                acts += [Action(PLAY, card, s) for s in open_stones if card not in self.env_cards[s]]
            elif card == C.SCOUT:
                acts.append(Action(SCOUT, card))
            elif card == C.REDEPLOY:
                for s in open_stones:
                    for t in self.sides[s][seat]:
                        acts.append(Action(REDEPLOY, card, s, t, -1))
                        if self.rules.redeploy == "move-or-discard":
                            acts += [Action(REDEPLOY, card, s, t, d) for d in room if d != s]
            elif card == C.DESERTER:
                for s in open_stones:
                    acts += [Action(DESERTER, card, s, t) for t in self.sides[s][opp]]
            elif card == C.TRAITOR:
                for s in open_stones:
                    for t in self.sides[s][opp]:
                        if t < C.N_CLAN:
                            acts += [Action(TRAITOR, card, s, t, d) for d in room if d != s]
        if not any(a.kind == PLAY and a.card < C.N_CLAN for a in acts):
            acts.append(Action(PASS))
        return acts

    def drawable_piles(self) -> list[int]:
        piles = [CLAN_PILE] if self.clan_pile else []
        if self.tactic_pile:
            piles.append(TACTIC_PILE)
        return piles

    def stones_of(self, seat: int) -> int:
        return sum(1 for c in self.claimed if c == seat)

    # ---------------------------------------------------------------- changing the table
    def _place(self, stone: int, seat: int, card: int) -> None:
        self.sides[stone][seat].append(card)
        self.clock += 1
        self.last_placed[stone][seat] = self.clock

    def _from_hand(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.cards_played += 1
        if card < C.N_CLAN:
            self.clan_cards_played += 1
        else:
            self.tactics_played[seat] += 1
            self.played_tactics[seat] |= 1 << (card - C.N_CLAN)
            if card in C.CHIEFS:
                self.chief_played[seat] = True

    def apply_play(self, seat: int, a: Action) -> None:
        """Apply a play-step action other than PASS and SCOUT (see `scout`)."""
        if a.kind == PLAY:
            self._from_hand(seat, a.card)
            if a.card in C.ENVIRONMENT:
                self.env_cards[a.stone].append(a.card)
            else:
                self._place(a.stone, seat, a.card)
            return
        self._from_hand(seat, a.card)
        self.discard.append(a.card)            # ruse cards lie face up beside the tactic pile
        owner = seat if a.kind == REDEPLOY else 1 - seat
        self.sides[a.stone][owner].remove(a.target)
        if a.kind == DESERTER or (a.kind == REDEPLOY and a.dest < 0):
            self.discard.append(a.target)
        else:
            self._place(a.dest, seat, a.target)

    def draw(self, seat: int, pile: int) -> int:
        source = self.clan_pile if pile == CLAN_PILE else self.tactic_pile
        card = source.pop(0)
        if card >= C.N_CLAN:
            self.drawn_tactics[seat] |= 1 << (card - C.N_CLAN)
        self.hands[seat].append(card)
        self.hands[seat].sort()
        return card

    def return_to_pile(self, seat: int, card: int) -> None:
        """Scout: a card from hand goes to the bottom of its own pile."""
        self.hands[seat].remove(card)
        (self.clan_pile if card < C.N_CLAN else self.tactic_pile).append(card)

    def claim(self, stone: int, seat: int) -> None:
        assert self.can_claim(stone, seat), f"seat {seat} cannot prove stone {stone}"
        if len(self.sides[stone][1 - seat]) < self.capacity(stone):
            self.proof_claims += 1
        self.claimed[stone] = seat

    def check_win(self, seat: int) -> bool:
        mine = [c == seat for c in self.claimed]
        run = best = 0
        for m in mine:
            run = run + 1 if m else 0
            best = max(best, run)
        if best >= self.rules.adjacent_to_win:
            self.finish(seat, "adjacent")
        elif sum(mine) >= self.rules.total_to_win:
            self.finish(seat, "five")
        return self.over

    def finish(self, winner: int, end: str) -> None:
        self.over, self.winner, self.end = True, winner, end

    def finish_blocked(self) -> None:
        s0, s1 = self.stones_of(0), self.stones_of(1)
        winner = -1
        if self.rules.blocked_game == "more-stones" and s0 != s1:
            winner = 0 if s0 > s1 else 1
        self.finish(winner, "blocked")

    # ---------------------------------------------------------------- one turn
    def claim_step(self, seat: int, decide) -> bool:
        """Claims of the player to move; returns whether any stone was claimed."""
        if self.rules.auto_claim:
            stones = self.provable_stones(seat)
            for s in stones:
                self.claim(s, seat)
            if stones:
                self.check_win(seat)
            return bool(stones)
        claimed_any = False
        while True:
            stones = self.provable_stones(seat)
            if not stones:
                return claimed_any
            legal = [Action(CLAIM, stone=s) for s in stones] + [Action(END_CLAIMS)]
            a = decide(seat, PHASE_CLAIM, legal)
            if a.kind == END_CLAIMS:
                return claimed_any
            self.claim(a.stone, seat)
            claimed_any = True
            if self.check_win(seat):
                return True

    def scout(self, seat: int, decide) -> None:
        self._from_hand(seat, C.SCOUT)
        self.discard.append(C.SCOUT)
        for _ in range(SCOUT_DRAWS):
            piles = self.drawable_piles()
            if not piles:
                break
            legal = [Action(DRAW, pile=p) for p in piles]
            a = legal[0] if len(legal) == 1 else decide(seat, PHASE_SCOUT_DRAW, legal)
            self.draw(seat, a.pile)
        for i in range(min(SCOUT_RETURNS, len(self.hands[seat]))):
            self.scout_returns_left = SCOUT_RETURNS - i
            legal = [Action(RETURN, card) for card in sorted(set(self.hands[seat]))]
            a = legal[0] if len(legal) == 1 else decide(seat, PHASE_SCOUT_RETURN, legal)
            self.return_to_pile(seat, a.card)
        self.scout_returns_left = 0

    def draw_step(self, seat: int, decide) -> bool:
        if len(self.hands[seat]) >= self.rules.hand_size:
            return False
        piles = self.drawable_piles()
        if not piles:
            return False
        legal = [Action(DRAW, pile=p) for p in piles]
        a = legal[0] if len(legal) == 1 else decide(seat, PHASE_DRAW, legal)
        self.draw(seat, a.pile)
        return True

    def play_turn(self, decide) -> None:
        """One whole turn of the player to move. `decide(seat, phase, legal) -> Action`."""
        seat = self.to_move
        after_play = self.rules.claim_timing == "after-play"
        claimed = False
        if not after_play:
            claimed = self.claim_step(seat, decide)
            if self.over:
                self.turns += 1
                return
        legal = self.legal_plays(seat)
        if legal == [Action(PASS)] and self.rules.no_play == "blocked":
            self.turns += 1
            self.finish_blocked()
            return
        a = legal[0] if len(legal) == 1 else decide(seat, PHASE_PLAY, legal)
        if a.kind == SCOUT:
            self.scout(seat, decide)
        elif a.kind != PASS:
            self.apply_play(seat, a)
        if after_play:
            claimed = self.claim_step(seat, decide)
            if self.over:
                self.turns += 1
                return
        drew = self.draw_step(seat, decide)
        self.turns += 1
        idle = a.kind == PASS and not claimed and not drew
        if idle and self.previous_turn_idle:
            self.finish_blocked()
            return
        self.previous_turn_idle = idle
        self.to_move = 1 - seat

    # ---------------------------------------------------------------- views
    def observation(self, seat: int, phase: str = PHASE_PLAY) -> Observation:
        return Observation(
            seat=seat, phase=phase, turn=self.turns, first=self.first,
            hand=tuple(sorted(self.hands[seat])),
            sides=tuple((tuple(p[0]), tuple(p[1])) for p in self.sides),
            last_placed=tuple((lp[0], lp[1]) for lp in self.last_placed),
            env=tuple(tuple(e) for e in self.env_cards),
            claimed=tuple(self.claimed), discard=tuple(self.discard),
            clan_pile=len(self.clan_pile), tactic_pile=len(self.tactic_pile),
            hand_sizes=(len(self.hands[0]), len(self.hands[1])),
            tactics_played=tuple(self.tactics_played), chief_played=tuple(self.chief_played),
            scout_returns=self.scout_returns_left if phase == PHASE_SCOUT_RETURN else 0,
            idle=self.previous_turn_idle, rules=self.rules)

    def flat_observation(self, seat: int, phase: str, legal: list[Action]) -> np.ndarray:
        """The strategy API's observation vector (layout: observation.py) of `seat` at a decision
        of `phase` with these legal actions, built from the readable state."""
        assert len(legal) <= O.MAX_LEGAL, f"{len(legal)} legal actions > MAX_LEGAL"
        r, n = self.rules, self.rules.stones
        obs = [0] * O.LEGAL          # filled as a list (fast in plain Python), one array at the end
        obs[O.SEAT], obs[O.DECISION], obs[O.TURN] = seat, O.DECISION_NAMES.index(phase), self.turns
        obs[O.FIRST], obs[O.IDLE] = self.first, int(self.previous_turn_idle)
        obs[O.SCOUT_RETURNS] = self.scout_returns_left if phase == PHASE_SCOUT_RETURN else 0
        obs[O.CLAN_PILE], obs[O.TACTIC_PILE] = len(self.clan_pile), len(self.tactic_pile)
        obs[O.N_DISCARD], obs[O.N_LEGAL], obs[O.LEGAL_AT] = len(self.discard), len(legal), O.LEGAL
        obs[O.STONES], obs[O.HAND_LIMIT], obs[O.TACTICS] = n, r.hand_size, int(r.tactics)
        obs[O.ADJACENT_TO_WIN], obs[O.TOTAL_TO_WIN] = r.adjacent_to_win, r.total_to_win
        obs[O.TACTIC_LIMIT], obs[O.AUTO_CLAIM] = r.tactic_limit, int(r.auto_claim)
        obs[O.CLAIM_AT_START] = int(r.claim_timing == "start-of-turn")
        obs[O.REDEPLOY_MOVE] = int(r.redeploy == "move-or-discard")
        obs[O.NO_PLAY_BLOCKS] = int(r.no_play == "blocked")
        obs[O.BLOCKED_DRAW] = int(r.blocked_game == "draw")
        for p in (0, 1):
            obs[O.HAND_SIZE + p] = len(self.hands[p])
            obs[O.TACTICS_PLAYED + p] = self.tactics_played[p]
            obs[O.CHIEF_PLAYED + p] = int(self.chief_played[p])
            obs[O.STONES_HELD + p] = self.stones_of(p)
        hand = sorted(self.hands[seat])
        obs[O.HAND:O.HAND + O.MAX_HAND] = hand + [-1] * (O.MAX_HAND - len(hand))
        obs[O.CLAIMED:O.CLAIMED + O.MAX_STONES] = self.claimed + [-1] * (O.MAX_STONES - n)
        obs[O.SIDE:O.DISCARD] = [-1] * (O.DISCARD - O.SIDE)
        for s in range(n):
            obs[O.FOG + s], obs[O.MUD + s] = int(C.FOG in self.env_cards[s]), int(C.MUD in self.env_cards[s])
            obs[O.NEED + s] = self.capacity(s)
            for p in (0, 1):
                k = 2 * s + p
                cards = self.sides[s][p]
                obs[O.SIDE_N + k], obs[O.LAST_PLACED + k] = len(cards), self.last_placed[s][p]
                obs[O.SIDE + O.MAX_SIDE * k:O.SIDE + O.MAX_SIDE * k + len(cards)] = cards
        obs[O.DISCARD:O.DISCARD + O.MAX_DISCARD] = self.discard + [-1] * (O.MAX_DISCARD - len(self.discard))
        # where each card is, as far as this seat knows: piles and the opponent's hand are unseen
        loc = [O.LOC_UNSEEN] * C.N_CARDS
        for c in self.hands[seat]:
            loc[c] = LOC_HAND + seat
        for c in self.discard:
            loc[c] = LOC_DISCARD
        for c in self.box:
            loc[c] = LOC_BOX
        for s in range(n):
            for p in (0, 1):
                for c in self.sides[s][p]:
                    loc[c] = LOC_SIDE + 2 * s + p
            for c in self.env_cards[s]:
                loc[c] = LOC_ENV + s
        obs[O.CARD_LOC:O.CARD_LOC + C.N_CARDS] = loc
        obs += [encode_action(a) for a in legal]
        obs += [0] * (O.SIZE - len(obs))
        return np.frombuffer(array.array("q", obs), np.int64)   # writable, owns its buffer

    def places(self):
        """(location code, card) for every card of the game, container by container."""
        for c in self.clan_pile:
            yield LOC_CLAN_PILE, c
        for c in self.tactic_pile:
            yield LOC_TACTIC_PILE, c
        for seat in (0, 1):
            for c in self.hands[seat]:
                yield LOC_HAND + seat, c
        for c in self.discard:
            yield LOC_DISCARD, c
        for c in self.box:
            yield LOC_BOX, c
        for s in range(self.rules.stones):
            for seat in (0, 1):
                for c in self.sides[s][seat]:
                    yield LOC_SIDE + 2 * s + seat, c
            for c in self.env_cards[s]:
                yield LOC_ENV + s, c

    def locations(self) -> np.ndarray:
        """Location code of each of the 64 cards (-1 if a card is missing; raises if duplicated)."""
        loc = np.full(C.N_CARDS, -1, np.int64)
        for where, card in self.places():
            if loc[card] != -1:
                raise AssertionError(f"card {C.card_name(card)} is in two places")
            loc[card] = where
        return loc

    def result(self, log=None) -> Result:
        stones = (self.stones_of(0), self.stones_of(1))
        points = [0, 0]
        for seat in (0, 1):
            if seat == self.winner:
                points[seat] = self.rules.winner_points
            else:
                points[seat] = self.rules.loser_points_per_stone * stones[seat]
        return Result(self.winner, self.end, stones, tuple(self.claimed), tuple(points), self.first,
                      self.turns, self.cards_played, self.clan_cards_played, tuple(self.tactics_played),
                      log)

    # ---------------------------------------------------------------- positions
    def position(self):
        """The whole state as a `notation.Position` (hands and piles included)."""
        from .notation import Position
        n = self.rules.stones
        first_complete = []
        for s in range(n):
            lp = self.last_placed[s]
            both = all(len(self.sides[s][p]) >= self.capacity(s) for p in (0, 1))
            first_complete.append((0 if lp[0] < lp[1] else 1) if both else -1)
        return Position(sides=[[list(p[0]), list(p[1])] for p in self.sides],
                        env=[list(e) for e in self.env_cards], claimed=list(self.claimed),
                        first_complete=first_complete, hands=[sorted(h) for h in self.hands],
                        discard=list(self.discard), clan_pile=list(self.clan_pile),
                        tactic_pile=list(self.tactic_pile), turn=self.to_move,
                        tactics_played=list(self.tactics_played), chief_played=list(self.chief_played))

    @classmethod
    def from_position(cls, rules: SchottenTottenRules, position, seed: int = 0, game: int = 0) -> "Game":
        """A game set up at a `notation.Position` (or its text). Clan cards placed nowhere go to the
        clan pile (ascending) when the position gives no clan pile (if it gives one, every clan card
        must be placed); tactic cards placed nowhere go to the tactic pile (ascending) in the advanced
        game unless the position gives one or the card is not in `tactic_cards`, to the box (out of
        this game) otherwise (a position may still show a card that `tactic_cards` leaves out).
        Unknown hands ('?') are empty (their cards join the clan pile: the claim proof is the same).
        Both complete and equally strong formations need the `first0`/`first1` tag."""
        from .notation import Position, parse_position
        p = parse_position(position) if isinstance(position, str) else position
        assert isinstance(p, Position)
        if len(p.sides) != rules.stones:
            raise ValueError(f"position has {len(p.sides)} stones, rules have {rules.stones}")
        g = cls(rules, seed, game, first=p.turn, deal=False)
        g.sides = [[list(pair[0]), list(pair[1])] for pair in p.sides]
        g.env_cards = [list(e) for e in p.env]
        g.claimed = list(p.claimed)
        g.hands = [sorted(h or []) for h in p.hands]
        g.discard = list(p.discard)
        g.tactics_played = list(p.tactics_played)
        g.chief_played = list(p.chief_played)
        used = set(g.discard) | set(g.hands[0]) | set(g.hands[1])
        for s in range(rules.stones):
            used.update(g.sides[s][0], g.sides[s][1], g.env_cards[s])
        g.clan_pile = list(p.clan_pile) if p.clan_pile is not None else \
            [c for c in range(C.N_CLAN) if c not in used]
        rest = [c for c in C.TACTIC_CARDS if c not in used]
        if p.tactic_pile is not None:
            g.tactic_pile = list(p.tactic_pile)
            g.box = [c for c in rest if c not in g.tactic_pile]
        else:
            in_play = rules.tactic_cards_in_play()    # () without tactics
            g.tactic_pile = [c for c in rest if c in in_play]
            g.box = [c for c in rest if c not in in_play]
        # completion order: at each stone, the side that completed first gets the earlier clock
        for s in range(rules.stones):
            if p.first_complete[s] == -1 and all(len(g.sides[s][q]) >= g.capacity(s) for q in (0, 1)):
                need, fog = g.capacity(s), g.fog(s)
                if C.best_key(g.sides[s][0], need, fog) == C.best_key(g.sides[s][1], need, fog):
                    raise ValueError(f"stone {s}: equal complete formations; say who completed first "
                                     f"(first0 or first1)")
            order = (0, 1) if p.first_complete[s] in (-1, 0) else (1, 0)
            for seat in order:
                g.clock += 1
                g.last_placed[s][seat] = g.clock
        loc = g.locations()   # raises if a card is in two places
        missing = [C.card_name(c) for c in range(C.N_CLAN) if loc[c] == -1]
        if missing:
            raise ValueError(f"clan cards placed nowhere (the clan pile was given): {' '.join(missing)}")
        g.box += [c for c in C.TACTIC_CARDS if loc[c] == -1]   # tactic cards out of this game
        return g


def encode_action(a: Action) -> int:
    """The strategy API's int64 code of an action (observation.py)."""
    return O.encode_py(a.kind, a.card, a.stone, a.target, a.dest, a.pile)


# ---------------------------------------------------------------- playing
class RandomPolicy:
    """Uniform choice among the legal actions, drawn from the seat's own keyed stream."""

    def __init__(self):
        self.rng = KeyedRng(0, 0, player_stream(0))

    def reset(self, seed: int, game: int, seat: int) -> None:
        self.rng = KeyedRng(seed, game, player_stream(seat))

    def __call__(self, obs: Observation, legal: list[Action]) -> Action:
        return legal[self.rng.below(len(legal))]


def first_legal(obs: Observation, legal: list[Action]) -> Action:
    """Deterministic policy: the first legal action."""
    return legal[0]


def play_game(rules: SchottenTottenRules, seed: int, game: int, policies, first: int | None = None,
              record: bool = False, game_state: Game | None = None) -> Result:
    """Play one whole game. `policies[seat](observation, legal_actions) -> action`; a policy with a
    `reset(seed, game, seat)` method is reset first. `first` overrides the rule's first player;
    `game_state` continues a prepared `Game` instead of dealing a new one."""
    g = game_state if game_state is not None else Game(rules, seed, game, first)
    for seat, policy in enumerate(policies):
        if hasattr(policy, "reset"):
            policy.reset(seed, game, seat)
    log = [] if record else None

    def decide(seat: int, phase: str, legal: list[Action]) -> Action:
        obs = g.observation(seat, phase)
        where = f"turn {g.turns}, phase {phase}"
        try:
            a = policies[seat](obs, legal)
        except Exception as e:  # a policy's bug, reported with what replays it
            raise StrategyError(seat, game, where, f"raised {type(e).__name__}: {e}") from e
        if not isinstance(a, Action) and isinstance(a, tuple):
            a = Action(*a)
        if a not in legal:
            raise StrategyError(seat, game, where, f"returned illegal action {a!r}")
        if log is not None:
            log.append((g.turns, seat, phase, a))
        return a

    while not g.over:
        g.play_turn(decide)
        if g.turns > MAX_TURNS:
            raise endless_game(game)
    return g.result(log)


def play_match(rules: SchottenTottenRules, seed: int, first_game: int, n_games: int, policies) -> MatchResult:
    """Several games, scored: the winner of a game scores `winner_points` (5), the loser
    `loser_points_per_stone` (1) per stone claimed (so does each player after a drawn game).
    The first game's first player follows the rules; then the winner of the previous game starts
    (after a draw, the player who did not start the drawn game)."""
    points = [0, 0]
    results = []
    first = None
    for i in range(n_games):
        r = play_game(rules, seed, first_game + i, policies, first=first)
        results.append(r)
        points = [points[s] + r.points[s] for s in (0, 1)]
        first = r.winner if r.winner != -1 else 1 - r.first
    return MatchResult(points, results)


# per-game result columns of `play_batch`, and the codes of the "end" column; tactics_drawn0/1 and
# tactics_played0/1 are bit masks (bit i: tactic card 54 + i, cards.py) of the tactic cards seat 0 / 1
# drew (Scout draws included; a card the Scout returned may be drawn again, by either seat) and played;
# first is the seat that moved first (0 unless first_player = "random")
EXTRAS = ("cards_played", "end", "turns", "proof_claims", "tactics_drawn0", "tactics_drawn1",
          "tactics_played0", "tactics_played1", "first")
END_CODES = {"adjacent": 0, "five": 1, "blocked": 2}   # == END_KINDS.index; when one claim makes
# both 3 adjacent and 5 stones, the end is "adjacent" (checked first)


def _extras_row(g: Game) -> tuple:
    """cards played from hand, end code, turns, stones claimed by proof (the opponent's side at
    that stone not complete yet), the tactic cards each seat drew and played (bit masks), the
    seat that moved first."""
    return (g.cards_played, END_CODES[g.end], g.turns, g.proof_claims, *g.drawn_tactics,
            *g.played_tactics, g.first)


def play_policy_batch(rules: SchottenTottenRules, seed: int, first_game: int, n_games: int,
                      policies) -> Batch:
    """Independent games between readable policies (each started by the rules' first player):
    scores are the match points of each game, shares 1 to the winner (0.5 each after a draw);
    extras as `play_batch`."""
    scores = np.zeros((n_games, 2), np.int64)
    shares = np.zeros((n_games, 2), np.float64)
    extras = {k: np.zeros(n_games, np.int64) for k in EXTRAS}
    for i in range(n_games):
        g = Game(rules, seed, first_game + i)
        r = play_game(rules, seed, first_game + i, policies, game_state=g)
        scores[i] = r.points
        shares[i] = (0.5, 0.5) if r.winner == -1 else (1.0 - r.winner, float(r.winner))
        for k, v in zip(EXTRAS, _extras_row(g)):
            extras[k][i] = v
    return Batch(first_game, scores, shares, extras)


def play_kernel_game(rules: SchottenTottenRules, seed: int, game: int, kernels, params,
                     on_decision=None, before_turn=None, decider: Decider | None = None) -> Game:
    """One game between strategies of the strategy API (`kernel(obs, params, rng) -> index of a
    legal action`, observation.py), each drawing from its seat's own stream (the core's
    `Decider`, which also checks the index); returns the ended `Game`. Kernels are called only
    when there are two or more legal actions. Observers (see playthrough.py):
    `on_decision(seat, phase, legal, action)` after each decision, `before_turn(game)` before
    each turn."""
    g = Game(rules, seed, game)
    decider = decider or Decider(kernels, params, seed, game, 2)

    def decide(seat: int, phase: str, legal: list[Action]) -> Action:
        i = decider(seat, g.flat_observation(seat, phase, legal), f"turn {g.turns}, phase {phase}")
        if on_decision is not None:
            on_decision(seat, phase, legal, legal[i])
        return legal[i]

    while not g.over:
        if before_turn is not None:
            before_turn(g)
        g.play_turn(decide)
        if g.turns > MAX_TURNS:
            raise endless_game(game)
    return g


def play_batch(rules: SchottenTottenRules, players: int, seed: int, first_game: int, n_games: int,
               kernels, params) -> Batch:
    """Independent games (each started by the rules' first player) between strategies of the
    strategy API (see `play_kernel_game`); `players` must be 2. Scores: 1 to the winner, 0 to the
    loser (0 and 0 after a draw, shares 0.5 each); extras (`EXTRAS`): cards played from hand, end
    (`END_CODES`), turns, stones claimed by proof before the opponent completed their side, the
    bit masks of the tactic cards each seat drew and played, and the seat that moved first."""
    if players != 2:
        raise UsageError(f"schotten-totten is a 2-player game, not {players} players")

    def one(game: int, decider: Decider) -> GameResult:
        g = play_kernel_game(rules, seed, game, kernels, params, decider=decider)
        scores = [int(g.winner == 0), int(g.winner == 1)]
        shares = [0.5, 0.5] if g.winner == -1 else [float(g.winner == 0), float(g.winner == 1)]
        return GameResult(scores, shares, _extras_row(g))
    return core_reference.play_batch(one, EXTRAS, 2, seed, first_game, n_games, kernels, params)
