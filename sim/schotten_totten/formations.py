"""Schotten Totten's formations on bit masks: the strength of a side and the claim proof.

The engine's counterpart of `cards.best_key` / `cards.wins_stone`, which work on card lists.
The hidden clan cards (piles and both hands) are one 54-bit mask (colour c, value v at bit
9 c + v - 1); a side is summarised by its clan values / colours masks and its morale cards
(`tally`). The proof only needs whether some completion of the opponent's side beats the
claimer's formation, so `beats` stops at the first one that does (categories strongest first).
Used by the turn machine (`fast`) and the greedy (`policies`); imports nothing of either.
"""
from numba import njit

from ..core.nbutil import lowest_bit, no_int_literals, popcount  # noqa: F401  (fast imports them from here)
from .cards import N_CLAN, SHIELD, TROOP

COLUMN = sum(1 << (9 * c) for c in range(6))     # bit v - 1 of every colour: cards of value v
CLAN_ALL = (1 << N_CLAN) - 1


# ---------------------------------------------------------------- formations and the proof
@njit(cache=True, inline="always")
def _run_fits(vmask, n_clan, nchief, ntroop, nshield, run, avail):
    """`cards._run_fits` on masks: can the side (clan values `vmask`, morale counts) plus cards of
    values in `avail` make exactly the values of `run`? (At most one Chief, Troop and Shield.)"""
    if popcount(vmask) != n_clan or (vmask & ~run) != 0:
        return False
    free = run & ~vmask
    if nchief + ntroop + nshield == 0:
        return (free & ~avail) == 0
    rem = free
    if ntroop > 0:
        if (free & 64) == 0:    # the Troop is a 7
            return False
        rem = free & ~64
    if nshield > 0:             # the Shield is a 1, 2 or 3
        cand = rem & 7
        while cand != 0:
            b = cand & -cand
            cand ^= b
            r2 = rem & ~b
            if nchief > 0:
                c2 = r2
                while c2 != 0:
                    bb = c2 & -c2
                    c2 ^= bb
                    if (r2 & ~bb & ~avail) == 0:
                        return True
            elif (r2 & ~avail) == 0:
                return True
        return False
    if nchief > 0:
        c2 = rem
        while c2 != 0:
            bb = c2 & -c2
            c2 ^= bb
            if (rem & ~bb & ~avail) == 0:
                return True
        return False
    return (rem & ~avail) == 0


@njit(cache=True, inline="always")
def _top_sum(pool, k):
    """Sum of the k highest values among the clan cards of `pool` (which holds at least k)."""
    total = 0
    v = 9
    while k > 0:
        c = popcount((pool >> (v - 1)) & COLUMN)
        take = c if c < k else k
        total += take * v
        k -= take
        v -= 1
    return total


@njit(cache=True, inline="always")
def _top_colour_sum(cm, k):
    """Sum of the k highest values set in the 9-bit value mask `cm` (which holds at least k)."""
    total = 0
    v = 9
    while k > 0:
        if (cm >> (v - 1)) & 1:
            total += v
            k -= 1
        v -= 1
    return total


@no_int_literals
@njit(cache=True)
def best_key(n_clan, vsum, vmask, cmask, nchief, ntroop, nshield, need, fog, pool, min_cat):
    """`cards.best_key` on masks: the strongest key the side can reach with clan cards of `pool`
    (-1 if none, or none of category >= min_cat)."""
    missing = need - n_clan - nchief - ntroop - nshield
    if popcount(pool) < missing:
        return -1
    base = vsum + 9 * nchief + 7 * ntroop + 3 * nshield
    if fog:
        return base + _top_sum(pool, missing)
    one_colour = popcount(cmask) <= 1
    top_run = need * (need - 1) // 2
    if min_cat <= 4 and one_colour:
        best = -1
        for col in range(6):
            if cmask != 0 and ((cmask >> col) & 1) == 0:
                continue
            cm = (pool >> (9 * col)) & 511
            for low in range(10 - need, 0, -1):
                if _run_fits(vmask, n_clan, nchief, ntroop, nshield, ((1 << need) - 1) << (low - 1), cm):
                    key = 400 + need * low + top_run
                    if key > best:
                        best = key
                    break
        if best >= 0:
            return best
    if min_cat <= 3 and popcount(vmask) <= 1:
        v_hi, v_lo = 9, 1
        if vmask != 0:
            v_hi = v_lo = lowest_bit(vmask) + 1
        for v in range(v_hi, v_lo - 1, -1):
            if (ntroop == 0 or v == 7) and (nshield == 0 or v <= 3) and \
                    popcount((pool >> (v - 1)) & COLUMN) >= missing:
                return 300 + need * v
    if min_cat <= 2 and one_colour:
        best = -1
        for col in range(6):
            if cmask != 0 and ((cmask >> col) & 1) == 0:
                continue
            cm = (pool >> (9 * col)) & 511
            if popcount(cm) >= missing:
                key = 200 + base + _top_colour_sum(cm, missing)
                if key > best:
                    best = key
        if best >= 0:
            return best
    if min_cat <= 1:
        held = 0
        for col in range(6):
            held |= (pool >> (9 * col)) & 511
        for low in range(10 - need, 0, -1):
            if _run_fits(vmask, n_clan, nchief, ntroop, nshield, ((1 << need) - 1) << (low - 1), held):
                return 100 + need * low + top_run
    if min_cat <= 0:
        return base + _top_sum(pool, missing)
    return -1


@no_int_literals
@njit(cache=True)
def beats(n_clan, vsum, vmask, cmask, nchief, ntroop, nshield, need, fog, pool, mine):
    """Is some completion of the side with clan cards of `pool` stronger than key `mine`?
    Exactly `best_key(..., min_cat=category of mine) > mine` (`cards.wins_stone`), stopping at
    the first completion that is stronger."""
    missing = need - n_clan - nchief - ntroop - nshield
    if popcount(pool) < missing:
        return False
    base = vsum + 9 * nchief + 7 * ntroop + 3 * nshield
    if fog:
        return base + _top_sum(pool, missing) > mine
    cat = mine // 100
    one_colour = popcount(cmask) <= 1
    top_run = need * (need - 1) // 2
    # straight flush: any beats a lower category; within it, a higher run
    if one_colour:
        for col in range(6):
            if cmask != 0 and ((cmask >> col) & 1) == 0:
                continue
            cm = (pool >> (9 * col)) & 511
            for low in range(10 - need, 0, -1):
                if 400 + need * low + top_run <= mine:
                    break
                if _run_fits(vmask, n_clan, nchief, ntroop, nshield, ((1 << need) - 1) << (low - 1), cm):
                    return True
    if cat == 4:
        return False
    if popcount(vmask) <= 1:
        v_hi, v_lo = 9, 1
        if vmask != 0:
            v_hi = v_lo = lowest_bit(vmask) + 1
        for v in range(v_hi, v_lo - 1, -1):
            if 300 + need * v <= mine:
                break
            if (ntroop == 0 or v == 7) and (nshield == 0 or v <= 3) and \
                    popcount((pool >> (v - 1)) & COLUMN) >= missing:
                return True
    if cat == 3:
        return False
    if one_colour:
        for col in range(6):
            if cmask != 0 and ((cmask >> col) & 1) == 0:
                continue
            cm = (pool >> (9 * col)) & 511
            if popcount(cm) >= missing and 200 + base + _top_colour_sum(cm, missing) > mine:
                return True
    if cat == 2:
        return False
    held = 0
    for col in range(6):
        held |= (pool >> (9 * col)) & 511
    for low in range(10 - need, 0, -1):
        if 100 + need * low + top_run <= mine:
            break
        if _run_fits(vmask, n_clan, nchief, ntroop, nshield, ((1 << need) - 1) << (low - 1), held):
            return True
    if cat == 1:
        return False
    return base + _top_sum(pool, missing) > mine


@njit(cache=True, inline="always")
def tally(c, n_clan, vsum, vmask, cmask, nchief, ntroop, nshield):
    """The side summary (below) with card c added: what a card contributes to a formation."""
    if c < N_CLAN:
        v = c % 9
        return n_clan + 1, vsum + v + 1, vmask | (1 << v), cmask | (1 << (c // 9)), nchief, ntroop, nshield
    if c == TROOP:
        return n_clan, vsum, vmask, cmask, nchief, ntroop + 1, nshield
    if c == SHIELD:
        return n_clan, vsum, vmask, cmask, nchief, ntroop, nshield + 1
    return n_clan, vsum, vmask, cmask, nchief + 1, ntroop, nshield
