"""Diamant fast engine: numba-compiled, parallel over games, identical to `reference.py`.

The kernel is flat and typed: the rule set is packed into int64 arrays and the observation
vector doubles as the public state. Built-in strategies run as native kernels (`policies`);
any other strategy is a first-class function of the one strategy signature, so the compiled
engine is cached on disk and never recompiled for a new strategy. Games are independent (keyed
streams), so any thread count or block size gives bit-identical results.

Performance notes (one thread, base rules, four built-ins: ~108 decisions, ~36 cards a game).
The cost is branch mispredictions and the latency of what feeds them, plus per-decision
overhead; numba's reference counting and exception paths must stay out of the loop.
- No reference counting: the hot code works on views that numba does not count (`borrowed`,
  `part`): passing an owned array to a compiled function, or rebinding one in a loop (which
  `inline="always"` does), costs atomic increments that would dominate the run time.
- One block, one base register: all the state the loop touches (observation, deck, card
  tables, seats) lives at constant offsets of one scratch block (`S_*`), so LLVM addresses
  every array from one register instead of spilling a dozen pointers.
- Seats are rows of integer tables indexed by seat (how to call, field, threshold, address of
  the compiled body and of the parameters), not locals chosen by a switch.
- Threshold built-ins (leave after k hazards / t gems / n cards, always continue) are data:
  `obs[field] >= threshold` with an integer threshold, and read nothing else, so the
  deciding seat's own fields are written only before other strategies. A lineup of them
  only runs a loop with no test of the strategy per decision (`_threshold_decisions`).
- Other strategies are called through the address of their compiled body (`call_decide`),
  numba's own calling convention, or, for plugins compiled into the engine
  (`sim/core/inlined.py`), directly: a lineup of those has its own loop too
  (`_inlined_decisions`), writes the deciding seat's own view only for kernels that read it
  (O.OWN_VIEW) and seeds only the streams of kernels that may draw.
- The decision to leave is not a branch: leavers are appended unconditionally and counted
  with `m += action == 1`; seats still inside are a list (`inside`), not a test per seat.
- The deck is dealt one card ahead, so the next card (and its kind, the game's coin toss,
  mispredicted half the time) is known long before the branch on it.
- `nonneg` tells LLVM that indices read from memory are >= 0: numba's wrap-around of
  negative indices and the sign fix-ups of `//` disappear, and `a[i]` folds into one
  addressing mode. `error_model="numpy"` removes the zero-division exception paths.
- Round and game set-up keep counts up to date instead of scanning the cards, and are
  separate calls (see `_new_game`).
What each of these measured, and what was tried without gain: docs/engine-performance.md.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core import engine
from ..core.batch import Batch
from ..core.engine import INLINED, record_illegal
from ..core.inlined import NONE, call_inlined, inlined_draws
from ..core.nbutil import (address_of, borrowed, call_decide, jit_address, nonneg, part, part_as,
                           view_at)
from ..core.rng import PLAYER_STREAM_BASE, draw_at, game_key, stream_of
from . import observation as O
from .reference import (ARTIFACT, EXTRAS, HAZARD, IN_DECK, NOT_YET_IN, OUT_OF_GAME, TREASURE, Probe,
                        ProbedBatch, card_pool)
from . import policies as K
from .rules import MAX_ARTIFACTS, MAX_HAZARD_KINDS, MAX_PLAYERS, MAX_TREASURES, DiamantRules

# the packed rule vector (`RuleSet.packed`): positions and choice codes from the declarations
_R = DiamantRules
R_ROUNDS, R_KINDS, R_TO_END = _R.slot("rounds"), _R.slot("hazard_kinds"), _R.slot("hazards_to_end")
R_REMOVE, R_FIRST_FREE = _R.slot("remove_hazard_after_disaster"), _R.slot("first_card_free")
R_SPLIT, R_EXHAUSTED = _R.slot("leftover_split"), _R.slot("deck_exhausted")
R_ARTIFACTS, R_UNCLAIMED = _R.slot("artifacts"), _R.slot("unclaimed_artifacts")
R_TIE, R_CHESTS_VISIBLE = _R.slot("tie_break"), _R.slot("chests_visible")
PER_CARD = _R.code("leftover_split", "per-card")
LOSE = _R.code("deck_exhausted", "lose")
ART_PER_ROUND = _R.code("artifacts", "per-round")
RESHUFFLED = _R.code("unclaimed_artifacts", "reshuffled")
TIE_LAST_ROUND, TIE_ARTIFACTS, TIE_NONE = (_R.code("tie_break", c)
                                           for c in ("last-round", "artifacts", "none"))

MAX_COPIES = DiamantRules.__dataclass_fields__["hazard_copies"].metadata["max"]
MAX_CARDS = MAX_TREASURES + MAX_HAZARD_KINDS * MAX_COPIES + MAX_ARTIFACTS
# The per-thread scratch block: every array the hot loop touches lives at a constant offset of
# it (int64 units), so one base register addresses them all (see the performance notes).
S_OBS = 0
S_ORDER = S_OBS + O.SIZE             # [card] the lazily shuffled deck
S_PATH = S_ORDER + MAX_CARDS         # [i] cards revealed in this cave
S_STATUS = S_PATH + MAX_CARDS        # [card] IN_DECK, OUT_OF_GAME, NOT_YET_IN
S_LEFTOVER = S_STATUS + MAX_CARDS    # [card] gems lying on a treasure card (per-card split)
S_KIND = S_LEFTOVER + MAX_CARDS      # [card] copies of the rule set's card tables
S_VALUE = S_KIND + MAX_CARDS
S_HAZARD = S_VALUE + MAX_CARDS
S_ART_VALUES = S_HAZARD + MAX_CARDS
S_HAZ_POOL = S_ART_VALUES + MAX_ARTIFACTS   # [kind] hazard cards in the pool
S_HAZ_LEFT = S_HAZ_POOL + MAX_HAZARD_KINDS  # [kind] hazard cards still in the game
S_INSIDE = S_HAZ_LEFT + MAX_HAZARD_KINDS    # [i] seats still in the cave, in order
S_LEAVERS = S_INSIDE + MAX_PLAYERS          # [i] seats leaving now, in order
S_CHEST = S_LEAVERS + MAX_PLAYERS           # [seat] ...
S_LAST_BANKED = S_CHEST + MAX_PLAYERS
S_ART_POINTS = S_LAST_BANKED + MAX_PLAYERS
S_ART_OWNED = S_ART_POINTS + MAX_PLAYERS
S_CALL = S_ART_OWNED + MAX_PLAYERS          # [seat] how the strategy is called (code or CALL_*)
S_FN = S_CALL + MAX_PLAYERS                 # [seat] address of its compiled body
S_PRM = S_FN + MAX_PLAYERS                  # [seat] address of its parameters
S_PRM_LEN = S_PRM + MAX_PLAYERS
S_FIELD = S_PRM_LEN + MAX_PLAYERS           # [seat] field a threshold strategy watches
S_THRESHOLD = S_FIELD + MAX_PLAYERS         # [seat] its threshold (`integer_threshold`)
S_RNG = S_THRESHOLD + MAX_PLAYERS           # [seat] 1 if its stream is seeded each game
S_VIEW = S_RNG + MAX_PLAYERS                # [seat] 1 if it reads its own view (`own_view`)
S_STREAMS = S_VIEW + MAX_PLAYERS             # [seat] its stream state (uint64 bits)
S_SIZE = S_STREAMS + MAX_PLAYERS

# how the engine calls a seat's strategy, besides the built-in codes of `policies`
CALL_THRESHOLD = 100   # a threshold built-in, as data (`policies.threshold_field`)
CALL_JIT = 200         # through the address of its compiled body (`call_decide`)
CALL_FT = 300          # through the first-class function value (no compiled body: a cfunc)
CALL_INLINED = 400     # compiled into the engine (`sim.core.inlined`), S_FN its slot


def pack_rules(rules: DiamantRules):
    """Rule set -> (rule vector, card kind, card value, card hazard kind, artifact values)."""
    pool = card_pool(rules)
    kind = np.array([c.kind for c in pool], np.int64)
    value = np.array([c.value for c in pool], np.int64)
    hazard = np.array([c.hazard for c in pool], np.int64)
    return rules.packed(), kind, value, hazard, np.array(rules.artifact_values, np.int64)


@njit(cache=True, inline="always")
def _copy_into(block, start, a):
    """a copied into block[start:start + len(a)], returned as that part of the block."""
    view = part(block, start, a.shape[0])
    for i in range(a.shape[0]):
        view[i] = a[i]
    return view


@njit(cache=True, inline="always")
def _artifact_value(art_values, taken):
    return art_values[min(taken, art_values.shape[0] - 1)]


@njit(cache=True, inline="always")
def _leave(obs, leavers, m, r, path, path_len, leftover_card, card_kind, status, chest,
           last_banked, art_points, art_owned, art_values, taken):
    """Leavers bank their gems and share the leftovers; a lone leaver takes the artifacts.
    Returns the number of artifacts taken so far in the game."""
    share = 0
    if r[R_SPLIT] == PER_CARD:
        total = 0
        for i in range(path_len):
            c = nonneg(path[i])
            if card_kind[c] == TREASURE:
                share += leftover_card[c] // m
                leftover_card[c] = leftover_card[c] % m
                total += leftover_card[c]
        obs[O.LEFTOVER] = total
    else:
        share = nonneg(obs[O.LEFTOVER]) // m
        obs[O.LEFTOVER] = nonneg(obs[O.LEFTOVER]) % m
    for j in range(m):
        p = nonneg(leavers[j])
        gems = obs[O.SEAT_CARRIED + p] + share
        chest[p] += gems
        last_banked[p] += gems
        obs[O.SEAT_CARRIED + p] = 0
        obs[O.SEAT_IN_CAVE + p] = 0
        obs[O.SEAT_CHEST + p] = chest[p] if r[R_CHESTS_VISIBLE] else -1
    obs[O.IN_CAVE] -= m
    if m == 1 and obs[O.ARTIFACTS_ON_PATH] > 0:
        p = nonneg(leavers[0])
        for i in range(path_len):
            c = nonneg(path[i])
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
def _threshold_decisions(obs, inside, leavers, seat_field, seat_threshold):
    """Decisions of a lineup of threshold built-ins: leavers[:m], returns m."""
    m = 0
    for j in range(obs[O.IN_CAVE]):
        p = nonneg(inside[j])
        action = K.leave_at_threshold(obs, nonneg(seat_field[p]), seat_threshold[p])
        # no branch on the decision itself, the least predictable of the game
        leavers[m] = p
        m += action == 1
    return m


@njit(cache=True, inline="always")
def _own_view(obs, p, chest, art_points, visible):
    """The deciding seat's own view of the state (O.OWN_VIEW), written before its call."""
    obs[O.SEAT] = p
    obs[O.CARRIED] = obs[O.SEAT_CARRIED + p]
    obs[O.CHEST] = chest[p]
    obs[O.OWN_ARTIFACT_POINTS] = art_points[p]
    if not visible:
        obs[O.SEAT_CHEST + p] = chest[p]   # own chest: visible


@njit(cache=True, inline="always")
def _inlined_decisions(obs, inside, leavers, block, seat_fn, seat_view, seat_prm, seat_prm_len,
                       chest, art_points, visible, inl, any_view):
    """Decisions of a lineup of strategies compiled into the engine: (m, -1, 0) with
    leavers[:m], or (m, seat, action) for the first illegal action. `any_view` is a constant
    where it is called: False, for kernels that never read the own view, removes its tests."""
    m = 0
    for j in range(obs[O.IN_CAVE]):
        p = nonneg(inside[j])
        own = any_view and seat_view[p] != 0
        if own:
            _own_view(obs, p, chest, art_points, visible)
        prm = view_at(seat_prm[p], seat_prm_len[p], np.float64)
        rng = part_as(block, S_STREAMS + p, 1, np.uint64)
        action = call_inlined(inl, seat_fn[p], obs, prm, rng)
        if own and not visible:
            obs[O.SEAT_CHEST + p] = -1
        if action != 0 and action != 1:
            return m, p, action
        leavers[m] = p
        m += action == 1
    return m, -1, 0


@njit(cache=True)
def _seen_by(obs, p, chest, art_points, out):
    """What seat p sees now (its own view of the public state), copied into out."""
    for i in range(O.SIZE):
        out[i] = obs[i]
    out[O.SEAT] = p
    out[O.CARRIED] = obs[O.SEAT_CARRIED + p]
    out[O.CHEST] = chest[p]
    out[O.OWN_ARTIFACT_POINTS] = art_points[p]
    out[O.SEAT_CHEST + p] = chest[p]


@njit(cache=True)
def _forced(leavers, m, p, action):
    """leavers[:m] (in seat order) with seat p's decision replaced by action; returns m."""
    at = -1
    for j in range(m):
        if leavers[j] == p:
            at = j
    if action == O.LEAVE and at < 0:
        j = m
        while j > 0 and leavers[j - 1] > p:
            leavers[j] = leavers[j - 1]
            j -= 1
        leavers[j] = p
        return m + 1
    if action == O.CONTINUE and at >= 0:
        for j in range(at, m - 1):
            leavers[j] = leavers[j + 1]
        return m - 1
    return m


@njit(cache=True, inline="always")
def _gather_inside(obs, players, inside):
    """inside[:obs[IN_CAVE]] = the seats still in the cave, in seat order."""
    k = 0
    for p in range(players):
        inside[k] = p
        k += obs[O.SEAT_IN_CAVE + p]


@njit(cache=True, inline="always")
def _flee(obs, players):
    """Everyone still inside loses the gems carried in this cave."""
    for p in range(players):
        if obs[O.SEAT_IN_CAVE + p]:
            obs[O.SEAT_CARRIED + p] = 0
            obs[O.SEAT_IN_CAVE + p] = 0
    obs[O.IN_CAVE] = 0


@njit(cache=True, inline="always")
def _win_shares(players, tie, scores, shares, last_banked, art_owned):
    """Top score wins; ties per the tie_break rule (shared, last-round, artifacts, none)."""
    best = -1
    for p in range(players):
        best = max(best, scores[p])
    key_best = -1
    for p in range(players):
        if scores[p] == best:
            key = (last_banked[p] if tie == TIE_LAST_ROUND
                   else (art_owned[p] if tie == TIE_ARTIFACTS else 0))
            key_best = max(key_best, key)
    n_top = 0
    for p in range(players):
        shares[p] = 0.0
        if scores[p] == best:
            key = (last_banked[p] if tie == TIE_LAST_ROUND
                   else (art_owned[p] if tie == TIE_ARTIFACTS else 0))
            if key == key_best:
                shares[p] = 1.0
                n_top += 1
    if n_top > 1:
        for p in range(players):
            shares[p] = 0.0 if tie == TIE_NONE else shares[p] / n_top


# Game and cave set-up are separate functions, called, not inlined: the constants of their
# vectorised loops would otherwise stay in vector registers over the whole game loop, reloaded
# after every call of a strategy by address (all vector registers are caller-saved).
@njit(cache=True, nogil=True, error_model="numpy")
def _new_game(block, n_cards, players, kinds, first_art, art_mode, key):
    """Reset the game state in `block`; returns (artifacts, hazards) in the deck."""
    status = part(block, S_STATUS, n_cards)
    for c in range(n_cards):
        status[c] = IN_DECK
    n_art = n_cards - first_art
    if art_mode == ART_PER_ROUND:   # Incan Gold: artifacts wait outside, one comes in each round
        for c in range(first_art, n_cards):
            status[c] = NOT_YET_IN
        n_art = 0
    haz_pool = part(block, S_HAZ_POOL, MAX_HAZARD_KINDS)
    haz_left = part(block, S_HAZ_LEFT, MAX_HAZARD_KINDS)
    n_haz = 0
    for k in range(kinds):
        haz_left[k] = haz_pool[k]
        n_haz += haz_pool[k]
    chest = part(block, S_CHEST, MAX_PLAYERS)
    art_points = part(block, S_ART_POINTS, MAX_PLAYERS)
    art_owned = part(block, S_ART_OWNED, MAX_PLAYERS)
    seat_rng = part(block, S_RNG, MAX_PLAYERS)
    streams = part_as(block, S_STREAMS, MAX_PLAYERS, np.uint64)
    for p in range(players):
        chest[p] = 0
        art_points[p] = 0
        art_owned[p] = 0
        if seat_rng[p]:
            streams[p] = stream_of(key, PLAYER_STREAM_BASE + p)
    block[S_OBS + O.ARTIFACTS_TAKEN] = 0
    return n_art, n_haz


@njit(cache=True, nogil=True, error_model="numpy")
def _new_cave(block, rnd, n_cards, players, kinds, n_tre, first_art, art_mode, n_haz, n_art,
              tre_sum, visible):
    """Set up round rnd's cave in `block`; returns the artifacts in the deck.

    The deck holds every card still in the game: its contents are counts (kept up to date
    during the game), its order is dealt lazily, so nothing here loops over the cards."""
    status = part(block, S_STATUS, n_cards)
    if art_mode == ART_PER_ROUND:   # Incan Gold: one more artifact each round
        for c in range(first_art, n_cards):
            if status[c] == NOT_YET_IN:
                status[c] = IN_DECK
                n_art += 1
                break
    order = part(block, S_ORDER, n_cards)
    for c in range(n_cards):
        order[c] = c
    obs = part(block, S_OBS, O.SIZE)
    haz_left = part(block, S_HAZ_LEFT, MAX_HAZARD_KINDS)
    for k in range(kinds):
        obs[O.HAZARD_SEEN + k] = 0
        obs[O.HAZARD_IN_DECK + k] = haz_left[k]
    for i in range(n_tre):   # treasures never leave the game
        obs[O.TREASURE_IN_DECK + i] = 1
    obs[O.ROUND] = rnd
    obs[O.CARDS_REVEALED] = 0
    obs[O.HAZARDS_REVEALED] = 0
    obs[O.IN_CAVE] = players
    obs[O.LEFTOVER] = 0
    obs[O.DECK_SIZE] = n_tre + n_haz + n_art
    obs[O.DECK_TREASURE_SUM] = tre_sum
    obs[O.DECK_TREASURES] = n_tre
    obs[O.DECK_HAZARDS] = n_haz
    obs[O.DECK_ARTIFACTS] = n_art
    obs[O.ARTIFACTS_ON_PATH] = 0
    obs[O.ARTIFACT_VALUE_ON_PATH] = 0
    obs[O.DANGER_HAZARDS] = 0
    obs[O.DECISIONS] = 0
    chest = part(block, S_CHEST, MAX_PLAYERS)
    inside = part(block, S_INSIDE, MAX_PLAYERS)
    last_banked = part(block, S_LAST_BANKED, MAX_PLAYERS)
    for p in range(players):
        obs[O.SEAT_IN_CAVE + p] = 1
        obs[O.SEAT_CARRIED + p] = 0
        obs[O.SEAT_CHEST + p] = chest[p] if visible else -1
        inside[p] = p
        last_banked[p] = 0
    return n_art


@njit(cache=True, inline="always")
def _deal(state, order, pos, status):
    """The next card still in the game from the lazily shuffled deck: (state, card, pos)."""
    state, c = draw_at(state, order, nonneg(pos))
    pos += 1
    while status[nonneg(c)] != IN_DECK:
        state, c = draw_at(state, order, nonneg(pos))
        pos += 1
    return state, nonneg(c), pos


@njit(cache=True, nogil=True, error_model="numpy")
def _play_range(start, stop, first_game, seed, players, r, card_kind, card_value, card_hazard,
                art_values, codes, views, fns, prms, inl, work, scores, shares, extras, errors,
                probe_rounds, probe_steps, probe_seat, probe_action, reached, probe_obs):
    """Play games first_game + start .. first_game + stop - 1 into rows start .. stop - 1.

    `work` (S_SIZE int64) is scratch owned by the caller. probe_* (empty: no probe) force one
    decision per game and keep what the seat saw there (`reference.Probe`)."""
    n_cards = card_kind.shape[0]
    block = borrowed(work)
    r = borrowed(r)
    scores = borrowed(scores)
    shares = borrowed(shares)
    extras = borrowed(extras)
    errors = borrowed(errors)
    # the rule set's tables, copied into the block
    card_kind = _copy_into(block, S_KIND, card_kind)
    card_value = _copy_into(block, S_VALUE, card_value)
    card_hazard = _copy_into(block, S_HAZARD, card_hazard)
    art_values = _copy_into(block, S_ART_VALUES, art_values)
    obs = part(block, S_OBS, O.SIZE)
    order = part(block, S_ORDER, n_cards)
    path = part(block, S_PATH, n_cards)
    status = part(block, S_STATUS, n_cards)
    leftover_card = part(block, S_LEFTOVER, n_cards)
    haz_pool = part(block, S_HAZ_POOL, MAX_HAZARD_KINDS)
    haz_left = part(block, S_HAZ_LEFT, MAX_HAZARD_KINDS)
    inside = part(block, S_INSIDE, MAX_PLAYERS)
    leavers = part(block, S_LEAVERS, MAX_PLAYERS)
    chest = part(block, S_CHEST, MAX_PLAYERS)
    last_banked = part(block, S_LAST_BANKED, MAX_PLAYERS)
    art_points = part(block, S_ART_POINTS, MAX_PLAYERS)
    art_owned = part(block, S_ART_OWNED, MAX_PLAYERS)
    seat_call = part(block, S_CALL, MAX_PLAYERS)
    seat_fn = part(block, S_FN, MAX_PLAYERS)
    seat_prm = part(block, S_PRM, MAX_PLAYERS)
    seat_prm_len = part(block, S_PRM_LEN, MAX_PLAYERS)
    seat_field = part(block, S_FIELD, MAX_PLAYERS)
    seat_threshold = part(block, S_THRESHOLD, MAX_PLAYERS)
    seat_rng = part(block, S_RNG, MAX_PLAYERS)
    seat_view = part(block, S_VIEW, MAX_PLAYERS)

    # rule scalars, kept in registers
    rounds, kinds, to_end = r[R_ROUNDS], r[R_KINDS], r[R_TO_END]
    remove, first_free = r[R_REMOVE], r[R_FIRST_FREE]
    exhaust_lose, art_mode = r[R_EXHAUSTED] == LOSE, r[R_ARTIFACTS]
    reshuffle = r[R_UNCLAIMED] == RESHUFFLED
    n_tre = 0   # treasures come first in the pool
    for c in range(n_cards):
        n_tre += card_kind[c] == TREASURE
    visible = r[R_CHESTS_VISIBLE]
    tre_sum = 0
    for i in range(n_tre):
        tre_sum += card_value[i]
    first_art = n_cards   # artifacts come last in the pool
    for c in range(n_cards):
        if card_kind[c] == ARTIFACT:
            first_art = min(first_art, c)
    for k in range(MAX_HAZARD_KINDS):
        haz_pool[k] = 0
    for c in range(n_cards):
        if card_kind[c] == HAZARD:
            haz_pool[card_hazard[c]] += 1

    # each seat's strategy as rows of integer tables: no switch over seats in the hot loop
    for p in range(MAX_PLAYERS):
        prm = prms[p]
        seat_prm[p] = address_of(prm)
        seat_prm_len[p] = prm.shape[0]
        seat_fn[p] = jit_address(fns[p])
        code = codes[p]
        field = K.threshold_field(code)
        if field >= 0 and (prm.shape[0] > 0 or code == K.ALWAYS_CONTINUE):
            # own carried gems are, at decision time, the seat's public entry too
            seat_field[p] = O.SEAT_CARRIED + p if field == O.CARRIED else field
            seat_threshold[p] = K.NEVER if code == K.ALWAYS_CONTINUE else \
                K.integer_threshold(prm[0])
            code = CALL_THRESHOLD
        elif code >= INLINED:
            seat_fn[p] = code - INLINED
            code = CALL_INLINED
        elif code != K.RANDOM_LEAVE:
            code = CALL_JIT if seat_fn[p] != 0 else CALL_FT
        seat_call[p] = code
        seat_view[p] = views[p]
        # only strategies that may draw get their stream seeded each game
        seat_rng[p] = code == K.RANDOM_LEAVE or code == CALL_JIT or code == CALL_FT or (
            code == CALL_INLINED and inlined_draws(inl, seat_fn[p]))

    # a lineup of threshold built-ins only: decisions without a test of the strategy
    all_threshold = all_inlined = True
    any_view = False
    for p in range(players):
        all_threshold &= seat_call[p] == CALL_THRESHOLD
        all_inlined &= seat_call[p] == CALL_INLINED
        any_view |= seat_view[p] != 0

    # the header and the rule fields of the observation never change
    obs[:] = 0
    obs[O.DECISION], obs[O.N_LEGAL], obs[O.LEGAL_AT] = O.STAY_OR_LEAVE, 2, O.LEGAL
    obs[O.LEGAL + O.CONTINUE], obs[O.LEGAL + O.LEAVE] = O.CONTINUE, O.LEAVE
    obs[O.PLAYERS], obs[O.ROUNDS], obs[O.HAZARDS_TO_END] = players, rounds, to_end
    obs[O.HAZARD_KINDS], obs[O.TREASURE_CARDS] = kinds, n_tre
    for i in range(n_tre):
        obs[O.TREASURE_VALUE + i] = card_value[i]

    probing = probe_rounds.shape[0] > 0
    for row in range(start, stop):
        game = first_game + row
        key = game_key(seed, game)   # every stream of the game: one mix each from here
        probe_round = probe_rounds[row] if probing else -1
        n_art, n_haz = _new_game(block, n_cards, players, kinds, first_art, art_mode, key)
        taken = 0
        cards_revealed = 0
        disasters = 0
        failed = False

        for rnd in range(rounds):
            n_art = _new_cave(block, rnd, n_cards, players, kinds, n_tre, first_art, art_mode,
                              n_haz, n_art, tre_sum, visible)
            # this round's permutation, dealt lazily and one card ahead (see the notes)
            deck_state = stream_of(key, rnd)
            pos = 0
            nxt = 0
            if obs[O.DECK_SIZE] > 0:
                deck_state, nxt, pos = _deal(deck_state, order, pos, status)
            path_len = 0
            first = True
            while True:
                if not (first and first_free):
                    forcing = (rnd == probe_round and obs[O.DECISIONS] == probe_steps[row]
                               and obs[O.SEAT_IN_CAVE + probe_seat] == 1)
                    if forcing:
                        reached[row] = 1
                        _seen_by(obs, probe_seat, chest, art_points, probe_obs[row])
                    # --- simultaneous decisions of everyone still inside
                    m = 0
                    if all_threshold:   # the common case: no test of the strategy per seat
                        m = _threshold_decisions(obs, inside, leavers, seat_field,
                                                 seat_threshold)
                    elif all_inlined:   # plugins compiled in: no test of the strategy either
                        if any_view:
                            m, bad, action = _inlined_decisions(
                                obs, inside, leavers, block, seat_fn, seat_view, seat_prm,
                                seat_prm_len, chest, art_points, visible, inl, True)
                        else:
                            m, bad, action = _inlined_decisions(
                                obs, inside, leavers, block, seat_fn, seat_view, seat_prm,
                                seat_prm_len, chest, art_points, visible, inl, False)
                        if bad >= 0:
                            record_illegal(errors, row, bad, action, 2, obs[O.DECISIONS], rnd)
                            failed = True
                    else:
                        for j in range(obs[O.IN_CAVE]):
                            p = nonneg(inside[j])
                            call = seat_call[p]
                            if call == CALL_THRESHOLD:
                                # a threshold built-in reads only its field: no own view
                                action = K.leave_at_threshold(obs, nonneg(seat_field[p]),
                                                              seat_threshold[p])
                            else:
                                own = seat_view[p] != 0
                                if own:
                                    _own_view(obs, p, chest, art_points, visible)
                                prm = view_at(seat_prm[p], seat_prm_len[p], np.float64)
                                rng = part_as(block, S_STREAMS + p, 1, np.uint64)
                                if call == CALL_INLINED:
                                    action = call_inlined(inl, seat_fn[p], obs, prm, rng)
                                elif call == CALL_JIT:
                                    action = call_decide(seat_fn[p], obs, prm, rng)
                                elif call == K.RANDOM_LEAVE:
                                    action = K.random_leave(obs, prm, rng)
                                else:
                                    action = fns[p](obs, prm, rng)
                                if own and not visible:
                                    obs[O.SEAT_CHEST + p] = -1
                                if action != 0 and action != 1:
                                    record_illegal(errors, row, p, action, 2,
                                                   obs[O.DECISIONS], rnd)
                                    failed = True
                                    break
                            leavers[m] = p   # no branch on the decision: `_threshold_decisions`
                            m += action == 1
                    if failed:
                        break
                    if forcing:
                        m = _forced(leavers, m, probe_seat, probe_action)
                    obs[O.DECISIONS] += 1
                    if m > 0:
                        before = taken
                        taken = _leave(obs, leavers, m, r, path, path_len, leftover_card,
                                       card_kind, status, chest, last_banked, art_points,
                                       art_owned, art_values, taken)
                        n_art -= taken - before
                        _gather_inside(obs, players, inside)
                    if obs[O.IN_CAVE] == 0:
                        break
                first = False
                if obs[O.DECK_SIZE] == 0:
                    # --- deck exhausted [ruling]
                    if exhaust_lose:
                        _flee(obs, players)
                    else:
                        before = taken
                        taken = _leave(obs, inside, obs[O.IN_CAVE], r, path, path_len,
                                       leftover_card, card_kind, status, chest, last_banked,
                                       art_points, art_owned, art_values, taken)
                        n_art -= taken - before
                    break
                # --- reveal the next card (cards no longer in the game are skipped)
                c = nxt
                obs[O.DECK_SIZE] -= 1
                if obs[O.DECK_SIZE] > 0:
                    deck_state, nxt, pos = _deal(deck_state, order, pos, status)
                path[path_len] = c
                path_len += 1
                cards_revealed += 1
                obs[O.CARDS_REVEALED] += 1
                kd = card_kind[c]
                if kd == TREASURE:
                    v = nonneg(card_value[c])
                    obs[O.DECK_TREASURE_SUM] -= v
                    obs[O.DECK_TREASURES] -= 1
                    obs[O.TREASURE_IN_DECK + c] = 0
                    n_in = nonneg(obs[O.IN_CAVE])
                    share = v // n_in
                    for j in range(n_in):
                        obs[O.SEAT_CARRIED + nonneg(inside[j])] += share
                    leftover_card[c] = v - share * n_in
                    obs[O.LEFTOVER] += v - share * n_in
                elif kd == HAZARD:
                    h = nonneg(card_hazard[c])
                    obs[O.DECK_HAZARDS] -= 1
                    obs[O.HAZARDS_REVEALED] += 1
                    obs[O.HAZARD_IN_DECK + h] -= 1
                    obs[O.HAZARD_SEEN + h] += 1
                    seen = obs[O.HAZARD_SEEN + h]
                    if seen >= to_end:
                        disasters += 1
                        _flee(obs, players)
                        if remove:
                            status[c] = OUT_OF_GAME
                            haz_left[h] -= 1
                            n_haz -= 1
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
            if first_art < n_cards and not reshuffle:
                for i in range(path_len):
                    c = nonneg(path[i])
                    if card_kind[c] == ARTIFACT and status[c] == IN_DECK:
                        status[c] = OUT_OF_GAME
                        n_art -= 1
        if failed:
            continue
        for p in range(players):
            scores[row, p] = chest[p] + art_points[p]
        _win_shares(players, r[R_TIE], scores[row], shares[row], last_banked, art_owned)
        extras[row, 0] = cards_revealed
        extras[row, 1] = disasters


@njit(parallel=True, cache=True, nogil=True)
def play_block(seed, first_game, players, r, card_kind, card_value, card_hazard, art_values,
               codes, views, fns, prms, inl, scores, shares, extras, errors,
               probe_rounds, probe_steps, probe_seat, probe_action, reached, probe_obs):
    """Play games first_game .. first_game + len(scores) - 1 into the output rows."""
    n = scores.shape[0]
    n_blocks = min(n, 64)
    for b in prange(n_blocks):
        work = np.zeros(S_SIZE, np.int64)
        _play_range(b * n // n_blocks, (b + 1) * n // n_blocks, first_game, seed, players, r,
                    card_kind, card_value, card_hazard, art_values, codes, views, fns, prms, inl, work,
                    scores, shares, extras, errors, probe_rounds, probe_steps, probe_seat,
                    probe_action, reached, probe_obs)


def play_batch(rules: DiamantRules, players: int, seed: int, first_game: int, n_games: int,
               kernels, params, natives=None, inlined=NONE) -> Batch:
    """Same contract as `reference.play_batch`. kernels must be compiled with DECIDE_SIG;
    natives[seat] is the `policies` code of a built-in kernel the engine may call directly
    (the same function as kernels[seat]), or -1; the kernels of `inlined` (sim/core/inlined.py)
    are compiled into the engine."""
    return _play(rules, players, seed, first_game, n_games, kernels, params, natives, inlined,
                 None)[0]


def play_probed(rules: DiamantRules, players: int, seed: int, first_game: int, n_games: int,
                kernels, params, probe: Probe, natives=None, inlined=NONE) -> ProbedBatch:
    """Same contract as `reference.play_probed`."""
    if len(probe.rounds) != n_games or len(probe.steps) != n_games:
        raise ValueError(f"probe: {len(probe.rounds)} rounds and {len(probe.steps)} steps "
                         f"for {n_games} games")
    if not (0 <= probe.seat < players and probe.action in (O.CONTINUE, O.LEAVE)):
        raise ValueError(f"probe: seat {probe.seat} of {players}, action {probe.action}")
    batch, reached, seen = _play(rules, players, seed, first_game, n_games, kernels, params,
                                 natives, inlined, probe)
    return ProbedBatch(batch, reached.astype(bool), seen)


def _play(rules, players, seed, first_game, n_games, kernels, params, natives, inlined, probe):
    codes, fns, prm = engine.lineup(kernels, params, natives, players, MAX_PLAYERS, inlined)
    packed = pack_rules(rules)
    if len(packed[1]) > MAX_CARDS:
        raise ValueError(f"diamant fast engine: {len(packed[1])} cards (at most {MAX_CARDS})")
    scores, shares, extras, errors = engine.outputs(n_games, players, len(EXTRAS))
    views = np.array([own_view(code, inlined) for code in codes], np.int64)
    if probe is None:
        rounds = steps = np.zeros(0, np.int64)
        seat = action = 0
        reached, seen = np.zeros(0, np.int64), np.zeros((0, O.SIZE), np.int64)
    else:
        rounds = np.ascontiguousarray(probe.rounds, np.int64)
        steps = np.ascontiguousarray(probe.steps, np.int64)
        seat, action = probe.seat, probe.action
        reached, seen = np.zeros(n_games, np.int64), np.zeros((n_games, O.SIZE), np.int64)
    play_block(np.uint64(seed), np.int64(first_game), np.int64(players), *packed, codes, views, fns,
               prm, inlined, scores, shares, extras, errors, rounds, steps, np.int64(seat),
               np.int64(action), reached, seen)
    return engine.finish(first_game, scores, shares, extras, errors, EXTRAS, _where), reached, seen


def own_view(code: int, inlined) -> int:
    """1 if the engine writes the deciding seat's own view (O.OWN_VIEW) before calling its
    strategy: always, but for a kernel compiled in that reads none of those entries."""
    return int(code < INLINED or inlined.may_read(code - INLINED, O.OWN_VIEW))


def _where(decision: int, rnd: int) -> str:
    return f"decision {decision} of round {rnd} (0-based)"
