"""Diamant `solo-optimal`: the exact best stay/leave policy for a lone player (players == 1).

Dynamic programming over the deck state maximises the expected FINAL score of the game, so a
disaster's removed hazard card (when `remove_hazard_after_disaster`) is priced into later rounds.

With one player nothing is left on cards, so the carried gems of a round are the sum of the
treasure cards revealed in it. The state of a cave is
    (bitmask of treasure cards revealed this round, hazards of each kind revealed this round),
and the state between rounds is (round, copies left of each hazard kind). Hazard kinds are
symmetric, so copies are canonicalised by sorting them in decreasing order: one DP instance per
(round, sorted copies) reachable from the full deck (22 for the base game).

V(s) = max(leave, continue) with
    leave    = carried + W(r + 1, copies)
    continue = mean over the next card of: V(s + treasure), V(s + hazard k), or, on the
               `hazards_to_end`-th card of kind k, 0 + W(r + 1, copies - one k if removed);
               an empty deck follows `rules.deck_exhausted`.
W(r, copies) is the expected score of rounds r.. from a fresh cave (0 after the last round).
Exact ties are resolved as LEAVE.

`build_policy(rules)` packs the decisions into one float64 array (int64 words viewed as
float64) that `solo_optimal` reads. Layout, all int64 words:
    [0, HEADER)                     header (see the H_* constants)
    [round_index, +rounds+1)        first instance of each round (instances sorted by round, code)
    [pow_index, +K)                 base ** p: canonical copies code = sum sorted_c[p] * base**p
    [inst_index, +n_inst * (3+K))   per instance: code, word offset of its bits, states per
                                    mask (hn), then the stride of each canonical hazard position
    [bits_index, ...)               decision bits, 1 = leave; state index = mask * hn + hazard code
Used with more players it plays "as if alone" (valid, not optimal).
"""
from __future__ import annotations

import functools

import numpy as np
from numba import njit

from sim.core.errors import UsageError
from sim.core.strategy_api import DECIDE_SIG
from sim.diamant import observation as O
from sim.diamant.rules import DiamantRules

MAX_STATES_PER_INSTANCE = 1 << 24
MAX_TOTAL_STATES = 1 << 30

MAGIC = 0x4D4C44534F4C4F31  # "MLDSOLO1"
(H_MAGIC, H_TREASURES, H_KINDS, H_TO_END, H_ROUNDS, H_BASE, H_INSTANCES,
 H_ROUND_INDEX, H_POW_INDEX, H_INST_INDEX, H_BITS_INDEX, H_FIRST_FREE) = range(12)
HEADER = 16
REC_FIXED = 3  # code, word offset, hn; then K strides

_HS = O.HAZARD_SEEN
_HD = O.HAZARD_IN_DECK
_TD = O.TREASURE_IN_DECK


# ---------------------------------------------------------------- the DP of one cave
@njit(cache=True)
def _solve_instance(values, copies, radix, strides, hn, h_end, w_same, w_dis,
                    exhaust_bank, first_free, bits, buf):
    """Fill `bits` (leave = 1) and return W(r, copies): the expected score from a fresh cave.

    Successors have a larger mask or, for the same mask, a larger hazard code, so both loops
    run downwards. buf[mask * hn + h] holds V of that state.
    """
    t = values.shape[0]
    k_n = copies.shape[0]
    # per hazard code: cards of hazard left, and the disaster part of the continuation sum
    n_haz = np.zeros(hn, dtype=np.int64)
    dis = np.zeros(hn, dtype=np.float64)
    for h in range(hn):
        for k in range(k_n):
            seen = (h // strides[k]) % radix[k]
            left = copies[k] - seen
            n_haz[h] += left
            if seen + 1 >= h_end:
                dis[h] += left * w_dis[k]
    tot = np.empty(hn, dtype=np.float64)
    dig = np.empty(k_n, dtype=np.int64)
    cont = 0.0
    for mask in range((1 << t) - 1, -1, -1):
        base = mask * hn
        carried = 0.0
        n_t = 0
        tot[:] = 0.0
        for i in range(t):
            if (mask >> i) & 1:
                carried += values[i]
            else:
                n_t += 1
                s = (mask | (1 << i)) * hn  # contiguous block: vectorises
                for h in range(hn):
                    tot[h] += buf[s + h]
        leave = carried + w_same
        for k in range(k_n):
            dig[k] = radix[k] - 1
        for h in range(hn - 1, -1, -1):
            total = tot[h] + dis[h]
            for k in range(k_n):
                seen = dig[k]
                if seen + 1 < h_end and copies[k] > seen:
                    total += (copies[k] - seen) * buf[base + h + strides[k]]
            n = n_t + n_haz[h]
            if n == 0:
                cont = leave if exhaust_bank else w_same
            else:
                cont = total / n
            idx = base + h
            if leave >= cont:
                buf[idx] = leave
                bits[idx >> 6] |= np.uint64(1) << np.uint64(idx & 63)
            else:
                buf[idx] = cont
            for k in range(k_n):  # mixed-radix decrement of the hazard code
                if dig[k] > 0:
                    dig[k] -= 1
                    break
                dig[k] = radix[k] - 1
    # the last state done is (mask 0, no hazard): cont is the value of drawing the first card
    return cont if first_free else buf[0]


# ---------------------------------------------------------------- building the table
def _canon(copies) -> tuple:
    return tuple(sorted(copies, reverse=True))


def _check(rules: DiamantRules) -> None:
    if rules.artifacts != "none":
        raise UsageError(f"solo-optimal: rule set has artifacts ({rules.artifacts!r}); the solo DP "
                         f"covers only artifacts = 'none' (e.g. presets 'diamant-2005', 'solo')")
    t = len(rules.treasure_values)
    hn = 1
    for _ in range(rules.hazard_kinds):
        hn *= min(rules.hazard_copies, rules.hazards_to_end - 1) + 1
    states = (1 << t) * hn
    if states > MAX_STATES_PER_INSTANCE:
        raise UsageError(f"solo-optimal: state space too large: {states} states per cave "
                         f"(2**{t} treasure subsets x {hn} hazard counts), limit "
                         f"{MAX_STATES_PER_INSTANCE} (2**24); use fewer treasure cards or hazard kinds")


def _instances(rules: DiamantRules) -> list[list[tuple]]:
    """Sorted copies vectors reachable at the start of each round."""
    h = rules.hazards_to_end
    levels = [{_canon([rules.hazard_copies] * rules.hazard_kinds)}]
    for _ in range(1, rules.rounds):
        nxt = set()
        for c in levels[-1]:
            nxt.add(c)
            if rules.remove_hazard_after_disaster:
                for p in range(len(c)):
                    if c[p] >= h:
                        nxt.add(_canon(c[:p] + (c[p] - 1,) + c[p + 1:]))
        levels.append(nxt)
    return [sorted(lv, key=lambda c: _code(c, rules)) for lv in levels]


def _code(c: tuple, rules: DiamantRules) -> int:
    base = rules.hazard_copies + 1
    return sum(v * base ** p for p, v in enumerate(c))


def _layout(c: tuple, h_end: int):
    radix = np.array([min(v, h_end - 1) + 1 for v in c], dtype=np.int64)
    strides = np.ones(len(c), dtype=np.int64)
    for p in range(1, len(c)):
        strides[p] = strides[p - 1] * radix[p - 1]
    hn = int(np.prod(radix)) if len(c) else 1
    return radix, strides, hn


@functools.lru_cache(maxsize=8)
def _solve(rules: DiamantRules) -> tuple[np.ndarray, float, dict]:
    """(the packed table, the value of the game, W of every (round, sorted copies))."""
    _check(rules)
    t, k_n, h_end = len(rules.treasure_values), rules.hazard_kinds, rules.hazards_to_end
    levels = _instances(rules)
    flat = [(r, c) for r, lv in enumerate(levels) for c in lv]
    sizes = [(1 << t) * _layout(c, h_end)[2] for _, c in flat]
    total = sum(sizes)
    if total > MAX_TOTAL_STATES:
        raise UsageError(f"solo-optimal: state space too large: {total} states over {len(flat)} "
                         f"(round, hazard copies) instances, limit {MAX_TOTAL_STATES} (2**30)")
    words = [(s + 63) // 64 for s in sizes]
    round_index = HEADER
    pow_index = round_index + rules.rounds + 1
    inst_index = pow_index + k_n
    rec = REC_FIXED + k_n
    bits_index = inst_index + len(flat) * rec
    table = np.zeros(bits_index + sum(words), dtype=np.int64)
    table[[H_MAGIC, H_TREASURES, H_KINDS, H_TO_END, H_ROUNDS, H_BASE, H_INSTANCES, H_ROUND_INDEX,
           H_POW_INDEX, H_INST_INDEX, H_BITS_INDEX, H_FIRST_FREE]] = [
        np.int64(MAGIC), t, k_n, h_end, rules.rounds, rules.hazard_copies + 1, len(flat),
        round_index, pow_index, inst_index, bits_index, int(rules.first_card_free)]
    start = 0
    for r, lv in enumerate(levels):
        table[round_index + r] = start
        start += len(lv)
    table[round_index + rules.rounds] = start
    for p in range(k_n):
        table[pow_index + p] = (rules.hazard_copies + 1) ** p

    bits_all = table[bits_index:].view(np.uint64)
    offsets = np.concatenate([[0], np.cumsum(words)[:-1]]).astype(np.int64)
    values = np.array(rules.treasure_values, dtype=np.float64)
    buf = np.empty(max(sizes), dtype=np.float64)
    exhaust_bank = rules.deck_exhausted == "leave-together"
    w: dict[tuple, float] = {}
    for i in range(len(flat) - 1, -1, -1):  # later rounds first
        r, c = flat[i]
        radix, strides, hn = _layout(c, h_end)
        w_same = w.get((r + 1, c), 0.0)
        w_dis = np.zeros(k_n, dtype=np.float64)
        for p in range(k_n):
            if c[p] >= h_end:
                nc = _canon(c[:p] + (c[p] - 1,) + c[p + 1:]) if rules.remove_hazard_after_disaster else c
                w_dis[p] = w.get((r + 1, nc), 0.0)
        o = int(offsets[i])
        w[(r, c)] = _solve_instance(values, np.array(c, dtype=np.int64), radix, strides, hn, h_end,
                                    w_same, w_dis, exhaust_bank, rules.first_card_free,
                                    bits_all[o:o + words[i]], buf)
        base = inst_index + i * rec
        table[base:base + REC_FIXED] = [_code(c, rules), o, hn]
        table[base + REC_FIXED:base + rec] = strides
    root = _canon([rules.hazard_copies] * k_n)
    return table.view(np.float64), w[(0, root)], w


def build_policy(rules: DiamantRules) -> np.ndarray:
    """The packed decision table of optimal solo play (float64, 1-D, C-contiguous).

    Raises UsageError for rule sets with artifacts or a state space over the limits.
    """
    return _solve(rules)[0].copy()  # a copy: callers may own it, the cache stays intact


def solo_value(rules: DiamantRules) -> float:
    """Exact expected final score of optimal solo play from the start of the game."""
    return _solve(rules)[1]


@njit(cache=True)
def _go_on_values(buf, values, copies, strides, hn, h_end, w_same, w_dis, exhaust_bank,
                  masks, hs):
    """Expected final score of drawing one more card from states (masks[i], hs[i]) of a solved
    cave (buf: V of each state), then playing optimally: the continuation of `_solve_instance`."""
    t = values.shape[0]
    k_n = copies.shape[0]
    out = np.empty(masks.shape[0], np.float64)
    for j in range(masks.shape[0]):
        mask, h = masks[j], hs[j]
        total = 0.0
        n = 0
        carried = 0.0
        for i in range(t):
            if (mask >> i) & 1:
                carried += values[i]
            else:
                n += 1
                total += buf[(mask | (1 << i)) * hn + h]
        for k in range(k_n):
            seen = (h // strides[k]) % (min(copies[k], h_end - 1) + 1)
            left = copies[k] - seen
            n += left
            if seen + 1 >= h_end:
                total += left * w_dis[k]
            elif left > 0:
                total += left * buf[mask * hn + h + strides[k]]
        if n == 0:
            out[j] = carried + w_same if exhaust_bank else w_same
        else:
            out[j] = total / n
    return out


def action_values(rules: DiamantRules, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact expected final scores of leaving now and of going on one card, then playing
    optimally, at solo decision states (observation rows)."""
    _check(rules)
    w = _solve(rules)[2]
    t, k_n, h_end = len(rules.treasure_values), rules.hazard_kinds, rules.hazards_to_end
    values = np.array(rules.treasure_values, dtype=np.float64)
    seen = obs[:, _HS:_HS + k_n]
    copies = seen + obs[:, _HD:_HD + k_n]
    # canonical order of the kinds: copies decreasing, ties by kind (as `solo_optimal`)
    order = np.lexsort((np.broadcast_to(np.arange(k_n), copies.shape), -copies), axis=1)
    canon = np.take_along_axis(copies, order, axis=1)
    canon_seen = np.take_along_axis(seen, order, axis=1)
    masks = ((obs[:, _TD:_TD + t] == 0) * (1 << np.arange(t))).sum(axis=1).astype(np.int64)
    leave = np.empty(len(obs))
    go_on = np.empty(len(obs))
    exhaust_bank = rules.deck_exhausted == "leave-together"
    keys = [(int(r), tuple(int(x) for x in c)) for r, c in zip(obs[:, O.ROUND], canon)]
    for key in set(keys):
        at = np.array([i for i, k in enumerate(keys) if k == key])
        r, c = key
        radix, strides, hn = _layout(c, h_end)
        w_same = w.get((r + 1, c), 0.0)
        w_dis = np.zeros(k_n)
        for p in range(k_n):
            if c[p] >= h_end:
                nc = _canon(c[:p] + (c[p] - 1,) + c[p + 1:]) if rules.remove_hazard_after_disaster else c
                w_dis[p] = w.get((r + 1, nc), 0.0)
        buf = np.empty((1 << t) * hn)
        bits = np.zeros(((1 << t) * hn + 63) // 64, np.uint64)
        c_arr = np.array(c, dtype=np.int64)
        _solve_instance(values, c_arr, radix, strides, hn, h_end, w_same, w_dis, exhaust_bank,
                        rules.first_card_free, bits, buf)
        hs = (canon_seen[at] * strides).sum(axis=1).astype(np.int64)
        carried = (values * ((masks[at, None] >> np.arange(t)) & 1)).sum(axis=1)
        leave[at] = carried + w_same
        go_on[at] = _go_on_values(buf, values, c_arr, strides, hn, h_end, w_same, w_dis,
                                  exhaust_bank, masks[at], hs)
    return leave, go_on


# ---------------------------------------------------------------- the strategy kernel
@njit(DECIDE_SIG, cache=True)
def solo_optimal(obs, params, rng):
    """0 = continue, 1 = leave, looked up in the table of `build_policy` (no allocation)."""
    w = params.view(np.int64)
    t = w[H_TREASURES]
    k_n = w[H_KINDS]
    if (w[H_MAGIC] != MAGIC or obs[O.TREASURE_CARDS] != t or obs[O.HAZARD_KINDS] != k_n
            or obs[O.HAZARDS_TO_END] != w[H_TO_END] or obs[O.ROUNDS] != w[H_ROUNDS]):
        raise ValueError("solo_optimal: params is not a build_policy table for these rules")
    # canonical position of each kind: sort by copies (decreasing), ties by kind; 4 bits each
    code = 0
    ranks = 0
    pw = w[H_POW_INDEX]
    for k in range(k_n):
        ck = obs[_HS + k] + obs[_HD + k]
        rank = 0
        for j in range(k_n):
            cj = obs[_HS + j] + obs[_HD + j]
            if cj > ck or (cj == ck and j < k):
                rank += 1
        ranks |= rank << (4 * k)
        code += ck * w[pw + rank]
    r = obs[O.ROUND]
    ri = w[H_ROUND_INDEX]
    lo = w[ri + r]
    hi = w[ri + r + 1] - 1
    rec_len = REC_FIXED + k_n
    ib = w[H_INST_INDEX]
    found = -1
    while lo <= hi:
        mid = (lo + hi) >> 1
        c = w[ib + mid * rec_len]
        if c == code:
            found = mid
            break
        if c < code:
            lo = mid + 1
        else:
            hi = mid - 1
    if found < 0:
        raise ValueError("solo_optimal: hazard copies not reachable under the table's rules")
    rec = ib + found * rec_len
    hn = w[rec + 2]
    h = 0
    for k in range(k_n):
        h += obs[_HS + k] * w[rec + REC_FIXED + ((ranks >> (4 * k)) & 15)]
    mask = 0
    for i in range(t):
        if obs[_TD + i] == 0:
            mask |= 1 << i
    idx = mask * hn + h
    word = w[w[H_BITS_INDEX] + w[rec + 1] + (idx >> 6)]
    return (word >> (idx & 63)) & 1
