"""Diamant fast engine: numba-compiled, parallel over games, identical to `reference.py`.

The kernel is flat and typed: the rule set is packed into int64 arrays and the observation
vector doubles as the public state. Built-in strategies run as native kernels (`policies`);
any other strategy is a first-class function of the one strategy signature, so the compiled
engine is cached on disk and never recompiled for a new strategy. Games are independent (keyed
streams), so any thread count or block size gives bit-identical results.

Performance notes: a whole range of games is played in one function body (`_play_range`), with
each seat's strategy, parameters and stream unpacked once into local variables and chosen by a
switch; the deck stream is a scalar. Passing tuples of arrays or function values through calls,
or rebinding array variables in the hot loop (which numba's `inline="always"` does), costs
reference-counting atomics or slow paths that would dominate the run time.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types

from ..core.batch import Batch, StrategyError
from ..core.nbutil import borrowed
from ..core.rng import PLAYER_STREAM_BASE, draw_at, stream_key
from ..core.strategy_api import DECIDE_TYPE
from . import observation as O
from .reference import ARTIFACT, EXTRAS, HAZARD, IN_DECK, NOT_YET_IN, OUT_OF_GAME, TREASURE, card_pool
from . import policies as K
from .rules import MAX_PLAYERS, DiamantRules

# packed rule scalars
(R_ROUNDS, R_KINDS, R_TO_END, R_REMOVE, R_FIRST_FREE, R_PER_CARD, R_EXHAUST_LOSE, R_ART_MODE,
 R_ART_RESHUFFLE, R_TIE, R_CHESTS_VISIBLE, R_TREASURES, R_N) = range(13)
TIE_CODES = {"shared": 0, "last-round": 1, "artifacts": 2, "none": 3}
ART_CODES = {"none": 0, "per-round": 1, "all-at-start": 2}
ERR_FIELDS = 5  # flag, seat, round, decision, action
# rows of the per-thread scratch array
(W_OBS, W_ORDER, W_PATH, W_STATUS, W_LEFTOVER, W_LEAVERS, W_CHEST, W_LAST_BANKED, W_ART_POINTS,
 W_ART_OWNED, W_ROWS) = range(11)

FNS_TYPE = types.UniTuple(DECIDE_TYPE, MAX_PLAYERS)
PARAMS_TYPE = types.UniTuple(types.float64[::1], MAX_PLAYERS)


def pack_rules(rules: DiamantRules):
    """Rule set -> (scalars, card kind, card value, card hazard kind, artifact values)."""
    r = np.zeros(R_N, np.int64)
    r[R_ROUNDS], r[R_KINDS], r[R_TO_END] = rules.rounds, rules.hazard_kinds, rules.hazards_to_end
    r[R_REMOVE], r[R_FIRST_FREE] = rules.remove_hazard_after_disaster, rules.first_card_free
    r[R_PER_CARD] = rules.leftover_split == "per-card"
    r[R_EXHAUST_LOSE] = rules.deck_exhausted == "lose"
    r[R_ART_MODE] = ART_CODES[rules.artifacts]
    r[R_ART_RESHUFFLE] = rules.unclaimed_artifacts == "reshuffled"
    r[R_TIE], r[R_CHESTS_VISIBLE] = TIE_CODES[rules.tie_break], rules.chests_visible
    r[R_TREASURES] = len(rules.treasure_values)
    pool = card_pool(rules)
    kind = np.array([c.kind for c in pool], np.int64)
    value = np.array([c.value for c in pool], np.int64)
    hazard = np.array([c.hazard for c in pool], np.int64)
    return r, kind, value, hazard, np.array(rules.artifact_values, np.int64)


@njit(cache=True, inline="always")
def _artifact_value(art_values, taken):
    return art_values[min(taken, art_values.shape[0] - 1)]


@njit(cache=True, inline="always")
def _leave(obs, leavers, m, r, path, path_len, leftover_card, card_kind, status, chest,
           last_banked, art_points, art_owned, art_values, taken):
    """Leavers bank their gems and share the leftovers; a lone leaver takes the artifacts.
    Returns the number of artifacts taken so far in the game."""
    share = 0
    if r[R_PER_CARD]:
        total = 0
        for i in range(path_len):
            c = path[i]
            if card_kind[c] == TREASURE:
                share += leftover_card[c] // m
                leftover_card[c] = leftover_card[c] % m
                total += leftover_card[c]
        obs[O.LEFTOVER] = total
    else:
        share = obs[O.LEFTOVER] // m
        obs[O.LEFTOVER] = obs[O.LEFTOVER] % m
    for j in range(m):
        p = leavers[j]
        gems = obs[O.SEAT_CARRIED + p] + share
        chest[p] += gems
        last_banked[p] += gems
        obs[O.SEAT_CARRIED + p] = 0
        obs[O.SEAT_IN_CAVE + p] = 0
        obs[O.SEAT_CHEST + p] = chest[p] if r[R_CHESTS_VISIBLE] else -1
    obs[O.IN_CAVE] -= m
    if m == 1 and obs[O.ARTIFACTS_ON_PATH] > 0:
        p = leavers[0]
        for i in range(path_len):
            c = path[i]
            if card_kind[c] == ARTIFACT and status[c] == IN_DECK:
                art_points[p] += _artifact_value(art_values, taken)
                art_owned[p] += 1
                taken += 1
                status[c] = OUT_OF_GAME
        obs[O.ARTIFACTS_ON_PATH] = 0
        obs[O.ARTIFACT_VALUE_ON_PATH] = 0
        obs[O.ARTIFACTS_TAKEN] = taken
    return taken


@njit(cache=True, inline="always")
def _flee(obs, players):
    """Everyone still inside loses the gems carried in this cave."""
    for p in range(players):
        if obs[O.SEAT_IN_CAVE + p]:
            obs[O.SEAT_CARRIED + p] = 0
            obs[O.SEAT_IN_CAVE + p] = 0
    obs[O.IN_CAVE] = 0


@njit(cache=True, inline="always")
def _start_round(obs, rnd, players, r, card_kind, card_value, card_hazard, status, order,
                 leftover_card, chest, last_banked):
    """Put the cave's deck in place (counts only: it is dealt lazily) and reset the cave."""
    n_cards = card_kind.shape[0]
    if r[R_ART_MODE] == 1:   # Incan Gold: one more artifact each round
        for c in range(n_cards):
            if card_kind[c] == ARTIFACT and status[c] == NOT_YET_IN:
                status[c] = IN_DECK
                break
    for k in range(r[R_KINDS]):
        obs[O.HAZARD_SEEN + k] = 0
        obs[O.HAZARD_IN_DECK + k] = 0
    deck_len = 0
    tsum = 0
    ntre = 0
    nhaz = 0
    nart = 0
    for c in range(n_cards):
        order[c] = c
        in_deck = status[c] == IN_DECK
        kd = card_kind[c]
        if kd == TREASURE:
            obs[O.TREASURE_IN_DECK + c] = in_deck
            leftover_card[c] = 0
        if in_deck:
            deck_len += 1
            if kd == TREASURE:
                tsum += card_value[c]
                ntre += 1
            elif kd == HAZARD:
                nhaz += 1
                obs[O.HAZARD_IN_DECK + card_hazard[c]] += 1
            else:
                nart += 1
    obs[O.ROUND] = rnd
    obs[O.CARDS_REVEALED] = 0
    obs[O.HAZARDS_REVEALED] = 0
    obs[O.IN_CAVE] = players
    obs[O.LEFTOVER] = 0
    obs[O.DECK_SIZE] = deck_len
    obs[O.DECK_TREASURE_SUM] = tsum
    obs[O.DECK_TREASURES] = ntre
    obs[O.DECK_HAZARDS] = nhaz
    obs[O.DECK_ARTIFACTS] = nart
    obs[O.ARTIFACTS_ON_PATH] = 0
    obs[O.ARTIFACT_VALUE_ON_PATH] = 0
    obs[O.DANGER_HAZARDS] = 0
    obs[O.DECISIONS] = 0
    for p in range(players):
        obs[O.SEAT_IN_CAVE + p] = 1
        obs[O.SEAT_CARRIED + p] = 0
        obs[O.SEAT_CHEST + p] = chest[p] if r[R_CHESTS_VISIBLE] else -1
        last_banked[p] = 0


@njit(cache=True, inline="always")
def _win_shares(players, tie, scores, shares, last_banked, art_owned):
    """Top score wins; ties per the tie_break rule (shared, last-round, artifacts, none)."""
    best = -1
    for p in range(players):
        best = max(best, scores[p])
    key_best = -1
    for p in range(players):
        if scores[p] == best:
            key = last_banked[p] if tie == 1 else (art_owned[p] if tie == 2 else 0)
            key_best = max(key_best, key)
    n_top = 0
    for p in range(players):
        shares[p] = 0.0
        if scores[p] == best:
            key = last_banked[p] if tie == 1 else (art_owned[p] if tie == 2 else 0)
            if key == key_best:
                shares[p] = 1.0
                n_top += 1
    if n_top > 1:
        for p in range(players):
            shares[p] = 0.0 if tie == 3 else shares[p] / n_top


@njit(cache=True, inline="always")
def _seat_stream(seed, game, p, players):
    return stream_key(seed, game, PLAYER_STREAM_BASE + p) if p < players else np.uint64(0)


@njit(cache=True, nogil=True)
def _play_range(start, stop, first_game, seed, players, r, card_kind, card_value, card_hazard,
                art_values, codes, fns, prms, work, streams, scores, shares, extras,
                errors):
    """Play games first_game + start .. first_game + stop - 1 into rows start .. stop - 1.

    `work` (W_ROWS x width) and `streams` (MAX_PLAYERS x 1) are scratch owned by the caller."""
    n_cards = card_kind.shape[0]
    to_end = r[R_TO_END]
    r = borrowed(r)
    card_kind = borrowed(card_kind)
    card_value = borrowed(card_value)
    card_hazard = borrowed(card_hazard)
    art_values = borrowed(art_values)
    obs = borrowed(work[W_OBS, :O.SIZE])
    order = borrowed(work[W_ORDER, :n_cards])
    path = borrowed(work[W_PATH, :n_cards])
    status = borrowed(work[W_STATUS, :n_cards])
    leftover_card = borrowed(work[W_LEFTOVER, :n_cards])
    leavers = borrowed(work[W_LEAVERS])
    chest = borrowed(work[W_CHEST])
    last_banked = borrowed(work[W_LAST_BANKED])
    art_points = borrowed(work[W_ART_POINTS])
    art_owned = borrowed(work[W_ART_OWNED])
    f0, f1, f2, f3, f4, f5, f6, f7 = fns
    c0, c1, c2, c3, c4, c5, c6, c7 = codes[0], codes[1], codes[2], codes[3], codes[4], codes[5], \
        codes[6], codes[7]
    p0 = borrowed(prms[0])
    p1 = borrowed(prms[1])
    p2 = borrowed(prms[2])
    p3 = borrowed(prms[3])
    p4 = borrowed(prms[4])
    p5 = borrowed(prms[5])
    p6 = borrowed(prms[6])
    p7 = borrowed(prms[7])
    s0 = borrowed(streams[0])
    s1 = borrowed(streams[1])
    s2 = borrowed(streams[2])
    s3 = borrowed(streams[3])
    s4 = borrowed(streams[4])
    s5 = borrowed(streams[5])
    s6 = borrowed(streams[6])
    s7 = borrowed(streams[7])

    for row in range(start, stop):
        game = first_game + row
        obs[:] = 0
        obs[O.PLAYERS], obs[O.ROUNDS], obs[O.HAZARDS_TO_END] = players, r[R_ROUNDS], to_end
        obs[O.HAZARD_KINDS], obs[O.TREASURE_CARDS] = r[R_KINDS], r[R_TREASURES]
        for i in range(r[R_TREASURES]):
            obs[O.TREASURE_VALUE + i] = card_value[i]
        for c in range(n_cards):
            status[c] = NOT_YET_IN if (card_kind[c] == ARTIFACT and r[R_ART_MODE] == 1) else IN_DECK
        for p in range(players):
            chest[p] = 0
            art_points[p] = 0
            art_owned[p] = 0
        s0[0] = _seat_stream(seed, game, 0, players)
        s1[0] = _seat_stream(seed, game, 1, players)
        s2[0] = _seat_stream(seed, game, 2, players)
        s3[0] = _seat_stream(seed, game, 3, players)
        s4[0] = _seat_stream(seed, game, 4, players)
        s5[0] = _seat_stream(seed, game, 5, players)
        s6[0] = _seat_stream(seed, game, 6, players)
        s7[0] = _seat_stream(seed, game, 7, players)
        taken = 0
        cards_revealed = 0
        disasters = 0
        failed = False

        for rnd in range(r[R_ROUNDS]):
            _start_round(obs, rnd, players, r, card_kind, card_value, card_hazard, status, order,
                         leftover_card, chest, last_banked)
            deck_state = stream_key(seed, game, rnd)   # this round's permutation, dealt lazily
            pos = 0
            path_len = 0
            first = True
            while True:
                if not (first and r[R_FIRST_FREE]):
                    # --- simultaneous decisions of everyone still inside
                    m = 0
                    for p in range(players):
                        if obs[O.SEAT_IN_CAVE + p] == 0:
                            continue
                        obs[O.SEAT] = p
                        obs[O.CARRIED] = obs[O.SEAT_CARRIED + p]
                        obs[O.CHEST] = chest[p]
                        obs[O.OWN_ARTIFACT_POINTS] = art_points[p]
                        seat_chest = obs[O.SEAT_CHEST + p]
                        obs[O.SEAT_CHEST + p] = chest[p]   # own chest is always visible
                        if p == 0:
                            code, fn, prm, rng = c0, f0, p0, s0
                        elif p == 1:
                            code, fn, prm, rng = c1, f1, p1, s1
                        elif p == 2:
                            code, fn, prm, rng = c2, f2, p2, s2
                        elif p == 3:
                            code, fn, prm, rng = c3, f3, p3, s3
                        elif p == 4:
                            code, fn, prm, rng = c4, f4, p4, s4
                        elif p == 5:
                            code, fn, prm, rng = c5, f5, p5, s5
                        elif p == 6:
                            code, fn, prm, rng = c6, f6, p6, s6
                        else:
                            code, fn, prm, rng = c7, f7, p7, s7
                        # built-in kernels are called directly (inlined), others by pointer
                        if code == K.LEAVE_AFTER_HAZARDS:
                            action = K.leave_after_hazards(obs, prm, rng)
                        elif code == K.LEAVE_AT_GEMS:
                            action = K.leave_at_gems(obs, prm, rng)
                        elif code == K.LEAVE_AFTER_CARDS:
                            action = K.leave_after_cards(obs, prm, rng)
                        elif code == K.ALWAYS_CONTINUE:
                            action = O.CONTINUE
                        elif code == K.RANDOM_LEAVE:
                            action = K.random_leave(obs, prm, rng)
                        else:
                            action = fn(obs, prm, rng)
                        obs[O.SEAT_CHEST + p] = seat_chest
                        if action == 1:
                            leavers[m] = p
                            m += 1
                        elif action != 0:
                            errors[row, 0] = 1
                            errors[row, 1] = p
                            errors[row, 2] = rnd
                            errors[row, 3] = obs[O.DECISIONS]
                            errors[row, 4] = action
                            failed = True
                            break
                    if failed:
                        break
                    obs[O.DECISIONS] += 1
                    if m > 0:
                        taken = _leave(obs, leavers, m, r, path, path_len, leftover_card,
                                       card_kind, status, chest, last_banked, art_points,
                                       art_owned, art_values, taken)
                    if obs[O.IN_CAVE] == 0:
                        break
                first = False
                if obs[O.DECK_SIZE] == 0:
                    # --- deck exhausted [ruling]
                    if r[R_EXHAUST_LOSE]:
                        _flee(obs, players)
                    else:
                        m = 0
                        for p in range(players):
                            if obs[O.SEAT_IN_CAVE + p]:
                                leavers[m] = p
                                m += 1
                        taken = _leave(obs, leavers, m, r, path, path_len, leftover_card,
                                       card_kind, status, chest, last_banked, art_points,
                                       art_owned, art_values, taken)
                    break
                # --- reveal the next card (cards no longer in the game are skipped)
                deck_state, c = draw_at(deck_state, order, pos)
                pos += 1
                while status[c] != IN_DECK:
                    deck_state, c = draw_at(deck_state, order, pos)
                    pos += 1
                path[path_len] = c
                path_len += 1
                cards_revealed += 1
                obs[O.CARDS_REVEALED] += 1
                obs[O.DECK_SIZE] -= 1
                kd = card_kind[c]
                if kd == TREASURE:
                    v = card_value[c]
                    obs[O.DECK_TREASURE_SUM] -= v
                    obs[O.DECK_TREASURES] -= 1
                    obs[O.TREASURE_IN_DECK + c] = 0
                    n_in = obs[O.IN_CAVE]
                    share = v // n_in
                    for p in range(players):
                        if obs[O.SEAT_IN_CAVE + p]:
                            obs[O.SEAT_CARRIED + p] += share
                    leftover_card[c] = v - share * n_in
                    obs[O.LEFTOVER] += v - share * n_in
                elif kd == HAZARD:
                    h = card_hazard[c]
                    obs[O.DECK_HAZARDS] -= 1
                    obs[O.HAZARDS_REVEALED] += 1
                    obs[O.HAZARD_IN_DECK + h] -= 1
                    obs[O.HAZARD_SEEN + h] += 1
                    seen = obs[O.HAZARD_SEEN + h]
                    if seen >= to_end:
                        disasters += 1
                        _flee(obs, players)
                        if r[R_REMOVE]:
                            status[c] = OUT_OF_GAME
                        break
                    if seen == to_end - 1:   # this kind now threatens: its copies in the deck
                        obs[O.DANGER_HAZARDS] += obs[O.HAZARD_IN_DECK + h]
                else:
                    obs[O.DECK_ARTIFACTS] -= 1
                    obs[O.ARTIFACTS_ON_PATH] += 1
                    obs[O.ARTIFACT_VALUE_ON_PATH] += _artifact_value(
                        art_values, taken + obs[O.ARTIFACTS_ON_PATH] - 1)
            if failed:
                break
            # --- end of the round: artifacts left on the path
            if not r[R_ART_RESHUFFLE]:
                for i in range(path_len):
                    c = path[i]
                    if card_kind[c] == ARTIFACT and status[c] == IN_DECK:
                        status[c] = OUT_OF_GAME
        if failed:
            continue
        for p in range(players):
            scores[row, p] = chest[p] + art_points[p]
        _win_shares(players, r[R_TIE], scores[row], shares[row], last_banked, art_owned)
        extras[row, 0] = cards_revealed
        extras[row, 1] = disasters


@njit(parallel=True, cache=True, nogil=True)
def play_block(seed, first_game, players, r, card_kind, card_value, card_hazard, art_values,
               codes, fns, prms, scores, shares, extras, errors):
    """Play games first_game .. first_game + len(scores) - 1 into the output rows."""
    n = scores.shape[0]
    n_blocks = min(n, 64)
    width = max(O.SIZE, card_kind.shape[0], MAX_PLAYERS)
    for b in prange(n_blocks):
        work = np.zeros((W_ROWS, width), np.int64)
        streams = np.zeros((MAX_PLAYERS, 1), np.uint64)
        _play_range(b * n // n_blocks, (b + 1) * n // n_blocks, first_game, seed, players, r,
                    card_kind, card_value, card_hazard, art_values, codes, fns, prms, work, streams,
                    scores, shares, extras, errors)


def play_batch(rules: DiamantRules, players: int, seed: int, first_game: int, n_games: int,
               kernels, params, natives=None) -> Batch:
    """Same contract as `reference.play_batch`. kernels must be compiled with DECIDE_SIG;
    natives[seat] is the `policies` code of a built-in kernel the engine may call directly
    (the same function as kernels[seat]), or -1."""
    natives = list(natives) if natives is not None else [-1] * players
    codes = np.array([natives[p] if p < players else -1 for p in range(MAX_PLAYERS)], np.int64)
    packed = pack_rules(rules)
    fns = tuple(kernels[p] if p < players else kernels[0] for p in range(MAX_PLAYERS))
    prm = tuple(np.ascontiguousarray(params[p] if p < players else params[0], np.float64)
                for p in range(MAX_PLAYERS))
    scores = np.zeros((n_games, players), np.int64)
    shares = np.zeros((n_games, players), np.float64)
    extras = np.zeros((n_games, len(EXTRAS)), np.int64)
    errors = np.zeros((n_games, ERR_FIELDS), np.int64)
    play_block(np.uint64(seed), np.int64(first_game), np.int64(players), *packed, codes, fns, prm,
               scores, shares, extras, errors)
    bad = np.flatnonzero(errors[:, 0])
    if bad.size:
        i = int(bad[0])
        _, seat, rnd, decision, action = (int(x) for x in errors[i])
        raise StrategyError(seat, first_game + i, f"decision {decision} of round {rnd} (0-based)",
                            f"returned illegal action {action} (allowed: 0 = continue, 1 = leave)")
    return Batch(first_game, scores, shares, {k: extras[:, j].copy() for j, k in enumerate(EXTRAS)})
