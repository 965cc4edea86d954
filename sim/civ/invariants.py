"""CIV's invariants, checked after every decision (the conformance suite's game hook).

The 104 cards are always accounted for, Domain by Domain (deck, box, hands, play areas, Economy
cards on an embargo, Utopia cards under a democracy, the discard pile, the draft) and by id (the
deck and the box hold each card once, the box the removed cards of each Age, the deck its Ages
in order, Age I on top); no count is negative; no Hegemony is declared in the middle of a turn,
and none was missed at the end of the last one; the Art coin is held only with the most Art
cards; the turn's picks stay in non-decreasing Domain order; what a seat knows of another's hand
(observation.py S_KNOWN) is a true lower bound of it. At the end the scores recomputed here
from the counts (numpy, independently of the engine) are the reference engine's, a Hegemony
winner is the seat whose turn just ended and meets its need, and a game ended on majorities
ended on an empty deck after a whole round.
"""
from __future__ import annotations

import numpy as np

from ..core.reference import checked_games
from .cards import AGE_OF, ART, DOMAIN_TOTALS, N_AGES, N_DOMAINS
from .reference import Game, play_game


def check_state(g: Game) -> None:
    assert g.domain_census() == list(DOMAIN_TOTALS), f"cards not conserved: {g.domain_census()}"
    for s in range(g.players):
        for table in (g.hand, g.play, g.embargo, g.democracy, g.packets):
            assert min(table[s]) >= 0, f"seat {s}: a negative count"
    assert min(g.discard) >= 0 and min(g.centre) >= 0
    assert not g.over and g.winner < 0, "the game is over, yet a decision is asked (a Hegemony mid-turn?)"
    check_card_ids(g)
    if g.t is not None and g.turns > 0 and turn_starts(g):
        check_no_hegemony_missed(g)
    for o in range(g.players):
        for q in range(g.players):
            if q != o:
                assert all(0 <= k <= h for k, h in zip(g.known[o][q], g.hand[q])), \
                    f"seat {o} knows {g.known[o][q]} in seat {q}'s hand {g.hand[q]}"
    if g.coin >= 0:
        art = [g.count(s, ART) for s in range(g.players)]
        assert art[g.coin] == max(art) >= g.rules.art_min_cards, f"coin held without a majority: {art}"
    if g.t is not None:
        assert 0 <= g.t.minimum < N_DOMAINS and g.t.left >= 0


def check_card_ids(g: Game) -> None:
    """The deck and the box hold each card once; the box the removed cards of each Age (§2); the
    deck its Ages in order, Age I on top (§3)."""
    left = g.deck[g.top:]
    assert len(set(left + g.box)) == len(left) + len(g.box), "a card twice in the deck or the box"
    removed = g.rules.removed(g.players)
    assert sorted(AGE_OF[c] for c in g.box) == [a for a in range(N_AGES) for _ in range(removed)]
    ages = [AGE_OF[c] for c in left]
    assert ages == sorted(ages), "the deck's Ages out of order"


def turn_starts(g: Game) -> bool:
    """The decision is the turn's first: nothing played, used or in progress yet."""
    t = g.t
    return t.played == -1 and t.perm == 0 and t.sac == 0 and t.copies == 0 and t.effect == -1


def check_no_hegemony_missed(g: Game) -> None:
    """The seat whose turn just ended has no Hegemony: nothing changed since its end of turn,
    which would have declared it (§4.4), unless Hegemony does not win in the final round."""
    if g.final and not g.rules.hegemony_in_final_round:
        return
    q = (g.current - 1) % g.players
    for d in range(N_DOMAINS):
        assert g.count(q, d) < g.hegemony_base + g.democracy[q][d], f"seat {q}'s Hegemony was not declared"


def check_end(g: Game) -> None:
    c = np.array(g.counts())
    top = c.max(axis=0)
    scored = (c == top) & ((top > 0) | g.rules.empty_domain_scores)
    if g.rules.teams:
        team = scored[0::2].any(axis=0).sum(), scored[1::2].any(axis=0).sum()
        points = [team[s % 2] for s in range(4)]
    else:
        points = list(scored.sum(axis=1))
    assert g.majority_points() == [int(x) for x in points]
    shares = g.win_shares()
    assert abs(sum(shares) - 1.0) < 1e-9
    if g.winner >= 0:
        d = g.hegemony_domain
        assert c[g.winner, d] >= g.hegemony_base + g.democracy[g.winner][d]
        assert g.winner == (g.current - 1) % g.players, "Hegemony declared for a seat not ending its turn"
        assert shares[g.winner] > 0
    else:
        assert g.final and g.deck_left() == 0 and g.turns % g.players == 0, "majorities before the end"
        best = max(points[s] for s in range(g.players))
        assert all(points[s] == best for s in range(g.players) if shares[s] > 0)


def check_invariants(rules, players, seed, first_game, n_games, kernels, params) -> int:
    """Play the games, checking the invariants after every decision; returns the decisions."""
    return checked_games(play_game, check_state, check_end, rules, players, seed, first_game, n_games,
                         kernels, params)
