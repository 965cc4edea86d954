"""CIV reference engine: the executable rulebook, in plain Python, written to be read.

Section numbers (§) are those of shared/rules/civ.md. One `Game` is one game; `play_game` plays it
asking `decide(seat, obs, where) -> index` (a `sim.core.reference.Decider`) for every decision, in
the chain documented in observation.py.

Seats and direction: seat s + 1 is the left neighbour of seat s, so "clockwise" is ascending seat
order (mod players). Randomness comes only from keyed streams of (seed, game): the three Ages are
shuffled one after the other (I, II, III) by `deck_stream(0)`, a random first player is drawn from
`deck_stream(1)`; each seat's strategy draws from its own stream (the Decider). Cards are ids
(cards.py) in the deck and counted per Domain everywhere else.

The Art coin is re-evaluated before every decision and when the effects are listed (so it is
right whenever someone may use it or sees it): a strict majority of at least art_min_cards Art cards holds it; on a tie nobody
does, or (art_tie = keep) its holder keeps it while nobody has more.
"""
from __future__ import annotations

import numpy as np

from ..core.reference import GameResult, MAX_TURNS, endless_game
from ..core.reference import play_batch as core_play_batch
from ..core.rng import KeyedRng, deck_stream
from . import observation as O
from .cards import (AGE_SIZES, AGE_START, ART, DOMAIN_OF, DOMAINS, ECONOMY, MILITARY,
                    N_AGES, N_DOMAINS, RELIGION, SCIENCE, UTOPIA)
from .observation import A_CARD, A_COPY, A_PERM, A_SAC, A_SEAT, A_TARGET, encode
from .rules import MAX_PLAYERS, CivRules

END_MAJORITY, END_HEGEMONY = 0, 1
END_CODES = {"majority": END_MAJORITY, "hegemony": END_HEGEMONY}
EXTRAS = ("end", "hegemony_domain", "turns", "deck_left", "first_player") + tuple(
    f"{d}_{s}" for s in range(MAX_PLAYERS) for d in DOMAINS)
PERMANENT_DOMAINS = (MILITARY, ECONOMY, SCIENCE, UTOPIA)   # Religion's are passive, Art's is the copy
SACRIFICE_DOMAINS = (MILITARY, RELIGION, ECONOMY, SCIENCE, UTOPIA)


def card(d: int) -> int:
    return encode(A_CARD, d)


class Turn:
    """What the seat on turn has done so far (published in the observation)."""

    def __init__(self, seat: int):
        self.seat = seat
        self.played = -1          # Domain of the mandatory play
        self.perm = 0             # bit d: the permanent effect of Domain d used (or copied)
        self.sac = 0              # bit d: the sacrifice of Domain d used
        self.copies = 0
        self.effect = -1          # the effect in progress (its action)
        self.left = 0             # cards still to pick in the effect's step
        self.minimum = 0          # the lowest Domain the next pick may take
        self.target = -1          # the seat the effect in progress targets
        self.copy_hand = 0        # hand size given this turn by a copied Religion effect


class Game:
    """State of one game of CIV."""

    def __init__(self, rules: CivRules, players: int, seed: int = 0, game: int = 0):
        rules.check_players(players)
        self.rules, self.players, self.seed, self.game = rules, players, seed, game
        self.level1, self.level2 = rules.levels(players)
        self.hegemony_base = rules.hegemony(players)
        self.deck: list[int] = []                    # card ids, top first; deck[top:] is left
        self.top = 0
        self.box: list[int] = []                     # removed unseen (§2)
        self.hand = [[0] * N_DOMAINS for _ in range(players)]
        self.play = [[0] * N_DOMAINS for _ in range(players)]
        self.embargo = [[0] * N_DOMAINS for _ in range(players)]     # Economy cards lying on d
        self.democracy = [[0] * N_DOMAINS for _ in range(players)]   # Utopia cards under d
        self.discard = [0] * N_DOMAINS
        self.packets = [[0] * N_DOMAINS for _ in range(players)]     # the draft in progress
        # known[o][q][d]: cards of Domain d seat o knows to be in seat q's hand (observation.py)
        self.known = [[[0] * N_DOMAINS for _ in range(players)] for _ in range(players)]
        self.centre = [0] * N_DOMAINS
        self.draft_view: list[int] | None = None     # the cards a draft decision chooses from
        self.coin = -1
        self.first = 0
        self.current = 0
        self.turns = 0
        self.final = False                           # the deck ran out: the final round (§6.2)
        self.over = False
        self.winner = -1                             # the Hegemony winner
        self.hegemony_domain = -1
        self.t: Turn | None = None
        self.decisions = 0
        self.on_decision = None                      # observer: (game, seat, decision, action)

    # ---------------------------------------------------------------- counting
    def count(self, s: int, d: int) -> int:
        """Cards of Domain d that count for seat s (thresholds, Hegemony, majorities, the coin)."""
        n = self.play[s][d]
        if self.rules.embargo_card_counts:
            n += self.embargo[s][d]
        if self.rules.democracy_card_counts:
            n += self.democracy[s][d]
        return n

    def level(self, s: int, d: int) -> int:
        n = self.count(s, d)
        return 2 if n >= self.level2 else 1 if n >= self.level1 else 0

    def hand_size_of(self, level: int) -> int:
        return (self.rules.hand_size, self.rules.hand_level1, self.rules.hand_level2)[level]

    def hand_limit(self, s: int) -> int:
        """§5.2: 3, 5 with Holy Book, 7 with Divine Right (or what a copy gave this turn)."""
        limit = self.hand_size_of(self.level(s, RELIGION))
        if self.t is not None and self.t.seat == s:
            limit = max(limit, self.t.copy_hand)
        return limit

    def playable(self, s: int) -> list[int]:
        """The hand's cards s may play now: an embargoed Domain may not be played (§5.3)."""
        return [0 if self.embargo[s][d] else self.hand[s][d] for d in range(N_DOMAINS)]

    def teammate(self, s: int) -> int:
        return (s + 2) % 4 if self.rules.teams else -1

    def update_coin(self) -> None:
        """§5.6: the strict Art majority holds the coin."""
        art = [self.count(s, ART) for s in range(self.players)]
        best = max(art)
        leaders = [s for s in range(self.players) if art[s] == best]
        if len(leaders) == 1 and best >= self.rules.art_min_cards:
            self.coin = leaders[0]
        elif not (self.rules.art_tie == "keep" and self.coin >= 0 and art[self.coin] == best
                  and best >= self.rules.art_min_cards):
            self.coin = -1

    # ---------------------------------------------------------------- §3 set-up
    def draw(self, s: int) -> None:
        self.hand[s][DOMAIN_OF[self.deck[self.top]]] += 1
        self.top += 1

    def deck_left(self) -> int:
        return len(self.deck) - self.top

    def setup(self, decide) -> None:
        rng = KeyedRng(self.seed, self.game, deck_stream(0))
        removed = self.rules.removed(self.players)
        for age in range(N_AGES):            # Age I on top, Age III at the bottom
            cards = list(range(AGE_START[age], AGE_START[age] + AGE_SIZES[age]))
            rng.shuffle(cards)
            self.box += cards[:removed]
            self.deck += cards[removed:]
        if self.rules.first_player == "random":
            self.first = KeyedRng(self.seed, self.game, deck_stream(1)).below(self.players)
        self.current = self.first
        if self.rules.setup == "draft":
            self.draft(decide)
        else:
            for k in range(self.players):    # 3 cards each, from the first player
                for _ in range(self.rules.hand_size):
                    self.draw((self.first + k) % self.players)

    def draft(self, decide) -> None:
        """§3.1: keep 1 of 4 and pass left, of 3, of 2; the leftovers to the centre, taken into play
        from the last player counter-clockwise."""
        P = self.players
        for k in range(P):
            s = (self.first + k) % P
            for _ in range(4):
                self.packets[s][DOMAIN_OF[self.deck[self.top]]] += 1
                self.top += 1
        for step in range(3):
            for k in range(P):
                s = (self.first + k) % P
                self.draft_view = self.packets[s]
                legal = [card(d) for d in range(N_DOMAINS) if self.packets[s][d]]
                d = O.action_domain(self.ask(decide, s, O.D_DRAFT_KEEP, legal))
                self.packets[s][d] -= 1
                self.hand[s][d] += 1
            if step < 2:                      # passed left: seat s receives from seat s - 1
                self.packets = [self.packets[(s - 1) % P] for s in range(P)]
        for s in range(P):
            for d in range(N_DOMAINS):
                self.centre[d] += self.packets[s][d]
                self.packets[s][d] = 0
        self.draft_view = self.centre
        for k in range(P):
            s = (self.first - 1 - k) % P
            legal = [card(d) for d in range(N_DOMAINS) if self.centre[d]]
            d = O.action_domain(self.ask(decide, s, O.D_DRAFT_TAKE, legal))
            self.centre[d] -= 1
            self.play[s][d] += 1
        self.draft_view = None

    # ---------------------------------------------------------------- §4 a turn
    def play_turn(self, decide) -> None:
        p = self.current
        self.t = t = Turn(p)
        # 1. the mandatory play, skipped when nothing may be played
        legal = [card(d) for d in range(N_DOMAINS) if self.playable(p)[d]]
        if legal:
            d = O.action_domain(self.ask(decide, p, O.D_PLAY, legal))
            self.hand[p][d] -= 1
            self.play[p][d] += 1
            self.seen_leaving(p, d)
            t.played = d
        # 2. effects, in any order, each Domain's permanent and sacrifice at most once
        while True:
            action = self.ask(decide, p, O.D_EFFECT, [O.STOP] + self.effects(p))
            if action == O.STOP:
                break
            self.use(decide, p, action)
        # 3. draw up to the hand size (never discard down); nothing in the final round
        while sum(self.hand[p]) < self.hand_limit(p) and self.deck_left():
            self.draw(p)
        self.end_turn(p)

    def end_turn(self, p: int) -> None:
        """§4.4: the embargoes on p end; Hegemony; the final round (§6.2); the next seat."""
        for d in range(N_DOMAINS):
            self.discard[ECONOMY] += self.embargo[p][d]
            self.embargo[p][d] = 0
        if not self.final or self.rules.hegemony_in_final_round:
            for d in range(N_DOMAINS):
                if self.count(p, d) >= self.hegemony_base + self.democracy[p][d]:
                    self.winner, self.hegemony_domain, self.over = p, d, True
                    break
        self.t = None
        self.turns += 1
        if not self.final and self.deck_left() == 0:
            self.final = True
        if self.final and p == (self.first - 1) % self.players:
            self.over = True
        self.current = (p + 1) % self.players

    # ---------------------------------------------------------------- §5 the effects
    def blocked(self, p: int, d: int) -> bool:
        return self.rules.embargo_blocks_effects and self.embargo[p][d] > 0

    def feasible(self, p: int, d: int, level: int) -> bool:
        """The first step of permanent effect (d, level) can be done."""
        if d == MILITARY:
            return sum(self.hand[p]) >= level
        if d == ECONOMY:
            need = 1 if level == 1 or self.rules.level2_short else 2
            return sum(self.play[p]) >= level and sum(self.playable(p)) >= need
        if d == SCIENCE:
            return sum(self.play[p]) >= level
        if d == UTOPIA:
            return sum(self.discard) >= level
        return True                            # Religion: a hand size

    def attack_domains(self, p: int, sacrificed: bool) -> list[int]:
        """§5.1: the Domains Attack may choose once the Military card is sacrificed (`sacrificed`:
        it is already out of the play area)."""
        r, out = self.rules, []
        for d in range(N_DOMAINS):
            if d == MILITARY and not r.attack_military:
                continue
            have = self.play[p][d] - (d == MILITARY and not sacrificed)
            if r.attack_needs_own and have < 1:
                continue
            out.append(d)
        return out

    def targets(self, p: int, needs_card: bool) -> list[int]:
        """(Domain, seat) targets of Embargo or Democracy: another seat's Domain."""
        return [encode(A_TARGET, d, q) for q in range(self.players) if q != p
                for d in range(N_DOMAINS) if not needs_card or self.play[q][d]]

    def inquisition_targets(self, p: int) -> list[int]:
        return [encode(A_SEAT, -1, q) for q in range(self.players) if q != p and sum(self.hand[q])]

    def effects(self, p: int) -> list[int]:
        """The effects p may use now, in the legal-list order of observation.py (the coin is
        re-evaluated first)."""
        self.update_coin()
        r, t, out = self.rules, self.t, []
        coin = self.coin == p and t.copies < r.copies_per_turn
        for d in range(N_DOMAINS):
            if d == ART or self.blocked(p, d):
                continue
            own = self.level(p, d)
            if d in PERMANENT_DOMAINS and not t.perm >> d & 1:
                out += [encode(A_PERM, d, lv) for lv in (1, 2) if lv <= own and self.feasible(p, d, lv)]
            if coin and not (r.copy_uses_slot and t.perm >> d & 1):
                best = max(self.level(q, d) for q in range(self.players) if q != p)
                for lv in (1, 2):
                    if own < lv <= best and self.feasible(p, d, lv) and (
                            d != RELIGION or self.hand_size_of(lv) > t.copy_hand):
                        out.append(encode(A_COPY, d, lv))
            if d in SACRIFICE_DOMAINS and not t.sac >> d & 1 and self.play[p][d]:
                if ((d == MILITARY and self.attack_domains(p, False))
                        or (d == RELIGION and self.inquisition_targets(p))
                        or (d == ECONOMY and self.targets(p, r.embargo_needs_card))
                        or d == SCIENCE
                        or (d == UTOPIA and self.targets(p, r.democracy_needs_card))):
                    out.append(encode(A_SAC, d))
        return out

    def pick(self, decide, p: int, decision: int, pool, k: int, move) -> None:
        """k cards from `pool()` (counts per Domain), one decision each in non-decreasing Domain
        order; `move(d)` carries each out."""
        t = self.t
        t.left, t.minimum = k, 0
        while t.left > 0:
            c = pool()
            legal = [card(d) for d in range(t.minimum, N_DOMAINS) if c[d] and sum(c[d:]) >= t.left]
            d = O.action_domain(self.ask(decide, p, decision, legal))
            t.minimum = d
            t.left -= 1
            move(d)
        t.minimum = 0

    def use(self, decide, p: int, action: int) -> None:
        r, t = self.rules, self.t
        kind, d, level = O.action_kind(action), O.action_domain(action), O.action_arg(action)
        hand, play, discard = self.hand[p], self.play[p], self.discard
        t.effect = action

        if kind in (A_PERM, A_COPY):
            if kind == A_PERM or r.copy_uses_slot:
                t.perm |= 1 << d
            if kind == A_COPY:
                t.copies += 1
            if d == MILITARY:                 # Assassination / Purge
                self.pick(decide, p, O.D_DISCARD_HAND, lambda: hand, level,
                          move(hand, discard, self.leaving(p)))
            elif d == RELIGION:               # a copied Holy Book / Divine Right: the hand size
                t.copy_hand = self.hand_size_of(level)
            elif d == ECONOMY:                # Development / Monopoly
                self.pick(decide, p, O.D_DISCARD_PLAY, lambda: play, level, move(play, discard))
                self.extra_plays(decide, p, level)
            elif d == SCIENCE:                # Experiment / Research
                self.pick(decide, p, O.D_RETURN, lambda: play, level, move(play, hand, self.entering(p)))
                self.extra_plays(decide, p, level)
            else:                             # Oligarchy / Republic
                self.pick(decide, p, O.D_TAKE_DISCARD, lambda: discard, level,
                          move(discard, hand, self.entering(p)))
        else:
            t.sac |= 1 << d
            if d not in (ECONOMY, UTOPIA):    # the sacrificed card (those two: once placed)
                play[d] -= 1
            if d == MILITARY:                 # Attack
                discard[d] += 1
                x = O.action_domain(self.ask(decide, p, O.D_ATTACK, [card(x) for x in self.attack_domains(p, True)]))
                for q in range(self.players):
                    if q != p and q == self.teammate(p) and not r.attack_hits_teammate:
                        continue
                    if self.play[q][x]:
                        self.play[q][x] -= 1
                        discard[x] += 1
            elif d == RELIGION:               # Inquisition
                discard[d] += 1
                q = O.action_arg(self.ask(decide, p, O.D_INQUISITION, self.inquisition_targets(p)))
                t.target = q
                k = sum(self.hand[q])
                self.seen_taken(p, q)
                for x in range(N_DOMAINS):
                    hand[x] += self.hand[q][x]
                    self.hand[q][x] = 0
                self.pick(decide, p, O.D_GIVE, lambda: hand, k,
                          move(hand, self.hand[q], lambda x: self.seen_given(p, q, x)))
                t.target = -1
            elif d == ECONOMY:                # Embargo: the card lies on the target's Domain
                a = self.ask(decide, p, O.D_EMBARGO, self.targets(p, r.embargo_needs_card))
                play[d] -= 1
                self.embargo[O.action_arg(a)][O.action_domain(a)] += 1
            elif d == SCIENCE:                # Technological Leap
                discard[d] += 1
                n = min(r.leap_cards, self.deck_left())
                for _ in range(n):
                    self.draw(p)
                self.pick(decide, p, O.D_DISCARD_HAND, lambda: hand, n, move(hand, discard, self.leaving(p)))
                if r.leap_takes_discard and sum(discard):
                    self.pick(decide, p, O.D_TAKE_DISCARD, lambda: discard, 1,
                              move(discard, hand, self.entering(p)))
            else:                             # Democracy: the card stays under the target's Domain
                a = self.ask(decide, p, O.D_DEMOCRACY, self.targets(p, r.democracy_needs_card))
                play[d] -= 1
                self.democracy[O.action_arg(a)][O.action_domain(a)] += 1
        t.effect = -1

    def extra_plays(self, decide, p: int, level: int) -> None:
        """The plays of Development, Monopoly, Experiment, Research: as many as the hand allows."""
        n = min(level, sum(self.playable(p)))
        self.pick(decide, p, O.D_EXTRA_PLAY, lambda: self.playable(p), n,
                  move(self.hand[p], self.play[p], self.leaving(p)))

    # ---------------------------------------------------------------- what the seats know of hands
    def seen_leaving(self, s: int, d: int) -> None:
        """A card of Domain d left seat s's hand face up (played, discarded): a seat that knew
        of a d card in that hand knows of one fewer (it may have been the known one)."""
        for o in range(self.players):
            if o != s and self.known[o][s][d]:
                self.known[o][s][d] -= 1

    def seen_entering(self, s: int, d: int) -> None:
        """A card of Domain d went face up into seat s's hand (returned from play, taken from
        the discard pile): every other seat knows it is there."""
        for o in range(self.players):
            if o != s:
                self.known[o][s][d] += 1

    def leaving(self, s: int):
        return lambda d: self.seen_leaving(s, d)

    def entering(self, s: int):
        return lambda d: self.seen_entering(s, d)

    def seen_taken(self, p: int, q: int) -> None:
        """Inquisition: p takes q's whole hand. q knows p now holds its former hand; p knows q's
        hand is empty; a third seat's known cards of q's hand are now in p's."""
        for o in range(self.players):
            for d in range(N_DOMAINS):
                if o == p:
                    self.known[p][q][d] = 0
                elif o == q:
                    self.known[q][p][d] += self.hand[q][d]
                else:
                    self.known[o][p][d] += self.known[o][q][d]
                    self.known[o][q][d] = 0

    def seen_given(self, p: int, q: int, d: int) -> None:
        """Inquisition: p gives a card of Domain d back to q, face down. p and q know it (q one d
        fewer in p's hand); a third seat only knows a card left p's hand: one fewer of every
        Domain known there."""
        for o in range(self.players):
            if o == p:
                self.known[p][q][d] += 1
            elif o == q:
                self.known[q][p][d] = max(0, self.known[q][p][d] - 1)
            else:
                for x in range(N_DOMAINS):
                    self.known[o][p][x] = max(0, self.known[o][p][x] - 1)

    # ---------------------------------------------------------------- decisions
    def ask(self, decide, seat: int, decision: int, legal: list[int]) -> int:
        """One decision: the seat's strategy picks an index of the legal list."""
        self.decisions += 1
        if self.decisions > MAX_TURNS:
            raise endless_game(self.game)
        self.update_coin()
        where = f"turn {self.turns}, {O.DECISION_NAMES[decision]} decision"
        index = decide(seat, self.observation(seat, decision, legal), where)
        action = legal[index]
        if self.on_decision is not None:
            self.on_decision(self, seat, decision, action)
        return action

    # ---------------------------------------------------------------- §6 the end
    def counts(self) -> list[list[int]]:
        return [[self.count(s, d) for d in range(N_DOMAINS)] for s in range(self.players)]

    def majority_points(self) -> list[int]:
        """§6.3: 1 point per Domain where s has the most cards, ties all scoring; team play: a
        team scores a Domain once if one of its players does."""
        c = self.counts()
        points = [0] * self.players
        for d in range(N_DOMAINS):
            top = max(c[s][d] for s in range(self.players))
            if top == 0 and not self.rules.empty_domain_scores:
                continue
            if self.rules.teams:
                for team in (0, 1):
                    if c[team][d] == top or c[team + 2][d] == top:
                        points[team] += 1
                        points[team + 2] += 1
            else:
                for s in range(self.players):
                    points[s] += c[s][d] == top
        return points

    def win_shares(self) -> list[float]:
        P = self.players
        if self.winner >= 0:
            won = [self.winner, self.teammate(self.winner)] if self.rules.teams else [self.winner]
        else:
            points, c = self.majority_points(), self.counts()
            sides = [[0, 2], [1, 3]] if self.rules.teams else [[s] for s in range(P)]
            best = max(points[side[0]] for side in sides)
            tied = [side for side in sides if points[side[0]] == best]
            if self.rules.tie_break == "domains":
                for d in self.rules.tie_domains():
                    if len(tied) == 1:
                        break
                    most = max(sum(c[s][d] for s in side) for side in tied)
                    tied = [side for side in tied if sum(c[s][d] for s in side) == most]
            won = [s for side in tied for s in side]
        return [1.0 / len(won) if s in won else 0.0 for s in range(P)]

    def result(self) -> GameResult:
        c = self.counts()
        extras = [END_HEGEMONY if self.winner >= 0 else END_MAJORITY, self.hegemony_domain, self.turns,
                  self.deck_left(), self.first]
        for s in range(MAX_PLAYERS):
            extras += c[s] if s < self.players else [-1] * N_DOMAINS
        return GameResult(self.majority_points(), self.win_shares(), extras)

    # ---------------------------------------------------------------- what a seat sees
    def observation(self, seat: int, decision: int, legal: list[int]) -> np.ndarray:
        r, obs = self.rules, np.zeros(O.SIZE, dtype=np.int64)
        obs[O.SEAT], obs[O.DECISION], obs[O.N_LEGAL], obs[O.LEGAL_AT] = seat, decision, len(legal), O.LEGAL
        obs[O.PLAYERS], obs[O.FIRST], obs[O.TURN] = self.players, self.first, self.turns
        obs[O.DECK_LEFT], obs[O.FINAL], obs[O.COIN] = self.deck_left(), self.final, self.coin
        obs[O.LEVEL1], obs[O.LEVEL2], obs[O.HEGEMONY] = self.level1, self.level2, self.hegemony_base
        obs[O.HAND_LIMIT], obs[O.TEAMS], obs[O.TEAMMATE] = self.hand_limit(seat), r.teams, self.teammate(seat)
        t = self.t if self.t is not None and self.t.seat == seat else None
        obs[O.T_PLAYED] = t.played if t else -1
        obs[O.T_PERM], obs[O.T_SAC], obs[O.T_COPIES] = (t.perm, t.sac, t.copies) if t else (0, 0, 0)
        obs[O.T_EFFECT] = t.effect if t else -1
        obs[O.T_LEFT], obs[O.T_MIN] = (t.left, t.minimum) if t else (0, 0)
        obs[O.T_TARGET] = t.target if t else -1
        obs[O.T_COPY_HAND] = t.copy_hand if t else 0
        obs[O.OWN_HAND:O.OWN_HAND + N_DOMAINS] = self.hand[seat]
        obs[O.DISCARD:O.DISCARD + N_DOMAINS] = self.discard
        if self.draft_view is not None:
            obs[O.DRAFT:O.DRAFT + N_DOMAINS] = self.draft_view
        for s in range(self.players):
            at = O.SEATS + O.SEAT_BLOCK * s
            obs[at + O.S_HAND_N] = sum(self.hand[s])
            obs[at + O.S_PLAY:at + O.S_PLAY + N_DOMAINS] = self.play[s]
            obs[at + O.S_EMBARGO:at + O.S_EMBARGO + N_DOMAINS] = self.embargo[s]
            obs[at + O.S_DEMOCRACY:at + O.S_DEMOCRACY + N_DOMAINS] = self.democracy[s]
            obs[at + O.S_COUNT:at + O.S_COUNT + N_DOMAINS] = [self.count(s, d) for d in range(N_DOMAINS)]
            known = self.hand[seat] if s == seat else self.known[seat][s]
            obs[at + O.S_KNOWN:at + O.S_KNOWN + N_DOMAINS] = known
        obs[O.LEGAL:O.LEGAL + len(legal)] = legal
        return obs

    # ---------------------------------------------------------------- checks
    def domain_census(self) -> list[int]:
        """Cards of each Domain over every place (deck, box, hands, play areas, embargoes,
        democracies, discard, the draft): the table's totals, always."""
        total = [0] * N_DOMAINS
        for c in self.deck[self.top:] + self.box:
            total[DOMAIN_OF[c]] += 1
        for s in range(self.players):
            for d in range(N_DOMAINS):
                total[d] += self.hand[s][d] + self.play[s][d] + self.packets[s][d]
                total[ECONOMY] += self.embargo[s][d]
                total[UTOPIA] += self.democracy[s][d]
        for d in range(N_DOMAINS):
            total[d] += self.discard[d] + self.centre[d]
        return total


def move(source: list[int], to: list[int], then=None):
    """A pick's move: one card of the picked Domain from `source` to `to` (counts per Domain),
    then `then(x)` (what the seats see of it)."""
    def one(x):
        source[x] -= 1
        to[x] += 1
        if then is not None:
            then(x)
    return one


# ================================================================ entry points
def play_game(rules: CivRules, players: int, seed: int, game: int, decide, on_decision=None) -> Game:
    """Play one whole game; `decide(seat, obs, where) -> index` (a core Decider), and
    `on_decision(game_state, seat, decision, action)` after every decision (forced ones too)."""
    g = Game(rules, players, seed, game)
    g.on_decision = on_decision
    g.setup(decide)
    while not g.over:
        g.play_turn(decide)
    return g


def play_batch(rules: CivRules, players: int, seed: int, first_game: int, n_games: int,
               kernels, params):
    """Games first_game .. first_game + n_games - 1 with strategies `kernels[seat](obs, params, rng)`."""
    rules.check_players(players)

    def one(game: int, decide) -> GameResult:
        return play_game(rules, players, seed, game, decide).result()
    return core_play_batch(one, EXTRAS, players, seed, first_game, n_games, kernels, params)
