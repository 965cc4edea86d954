"""Pyramids decision kernels: `greedy` (a one-ply heuristic), `god_priority` (a fixed tile
order, the greedy for the rest) and `force_tile` (one tile in one round, the greedy for the
rest). All have the strategy signature `decide(obs, params, rng) -> index of a legal action`
(observation.py) and read only the observation; they never draw from `rng` (deterministic: the
first best action in legal order wins).

Module layering, one way: board, observation, deck, rules <- policies <- the strategies registry
(strategies/pyramids.py), which packs `params` (the greedy weights, the tile order, the obelisk
table of the rules: the observation does not carry it).

Greedy heuristic
----------------
A turn is a chain of decisions (tile, pair, pyramid card and spot, tomb, obelisk, keep) and a
strategy is memoryless, so every decision values whole plans for the rest of the turn, against
the seat's state as it was when the turn began (the pyramid less TURN_PYRAMID_CARD, the tomb less
TURN_TOMB, the obelisk less TURN_OBELISK): the plan chosen at the pair or the pyramid decision is
the one the later decisions of the turn carry out. A plan puts one hand card in the pyramid (at a
spot), at most one in the tomb and one in the obelisk as the tile allows (Sekhmet's either/or side:
R_SEKHMET_EITHER), keeps one of the rest and discards the others; its value is the sum of
  - pyramid: phi(after) - phi(before) + glyph points, where phi = every colour's largest group,
    the largest once more, and the bonus: all of it once every colour has a group of
    bonus_group, else `bonus` x bonus_points x (stones towards it: sum of min(group, bonus_group))
    / (5 x bonus_group), while the missing stones are at most `reach` x the free slots (no credit
    for a bonus out of reach). Groups are the connected components of each colour on the bit
    grid of board.py, kept as component masks, so placing a card merges the components it
    touches (connectivity) without a flood fill;
  - obelisk: T(m' + F) - T(m + F) + glyph points, T the obelisk table interpolated, m the stages
    of its most frequent colour (m' with the card), F = `obelisk` x rounds left after this one (the
    stages still to come, so an early stage is worth its share of the convex table);
  - tomb: `tomb` x tomb_points x sum over colours of P(own + stones) - P(own) + glyph points, with
    P(x) = 0.5 + 0.5 z / (1 + |z|), z = (x - rival + d) / tau, the chance of the majority (a
    sigmoid without exp), d = 0.5 / 0 / -0.5 when
    ties score for all / are split / score nothing, tau = `tomb_temp` + `tomb_spread` x rounds
    left, and for x = 0 the chance scaled by the share of rounds left (a colour can still be
    started). `rival` is the largest estimated count of another seat: its tomb's cards (S_TOMB_N;
    hidden counts: half a card a round) times the mean stones of the cards seen in the quarry,
    taken by it and hidden since (CARD_LOC = LOC_TAKEN + seat, plus one unseen card of 0.56 per
    colour): hand, tomb or discard, the tomb's share of them;
  - kept card: `keep` x its best value alone next round (the most of its pyramid, tomb and obelisk
    gains now); nothing when keep_limit is 0.
Tile decision: the value of a tile is the expected value of the best plan with the pair left to
the seat when its turn comes, with the tile's powers. Lower tiles choose pairs first: their owners,
in tile order, take the pair best for them by the same valuation (2-card plans on their own
pyramid, obelisk and estimated tomb; their hidden hand card ignored); a lower tile nobody holds
yet is taken by one of the seats still to choose (the pair best on average for them); which of the
free tiles those seats take is unknown, so every choice of as many tiles as they are is taken as
equally likely (one tile is left over at 2-4 players: each other free tile with equal chance).

god_priority: the tile with the best rank in params[P_ORDER + tile - 1] (0 = first), the greedy
for every other decision. force_tile: tile params[P_FORCE_TILE] in round params[P_FORCE_ROUND]
when on offer, the greedy otherwise (the God-tile value analysis's probe).

How the defaults were chosen, and what each strategy measured: docs/pyramids-strategies.md.
"""
import numpy as np
from numba import njit

from ..core.nbutil import no_int_literals, popcount
from ..core.strategy_api import DECIDE_SIG
from . import board as B
from . import observation as O
from .deck import OBELISK, PYRAMID, TOMB
from .rules import MAX_PLAYERS, ROUNDS, SEKHMET, TILE_NAMES, PyramidsRules

# ---------------------------------------------------------------- params (strategies/pyramids.py)
(P_BONUS, P_REACH, P_OBELISK, P_TOMB, P_TOMB_TEMP, P_TOMB_SPREAD, P_KEEP) = range(7)
N_WEIGHTS = 7
GREEDY_DEFAULTS = (0.25, 2.0, 0.1, 1.5, 1.0, 0.15, 0.5)
P_ORDER = N_WEIGHTS               # god_priority: rank of tile t at P_ORDER + t - 1
P_TABLE_N = P_ORDER + 5           # the obelisk table: its length, then its values
P_TABLE = P_TABLE_N + 1
MAX_TABLE = 12
P_FORCE_TILE = P_TABLE + MAX_TABLE   # force_tile: the tile (1..5) and the round (1..10)
P_FORCE_ROUND = P_FORCE_TILE + 1
N_PARAMS = P_FORCE_ROUND + 1

HIDDEN_TOMB_RATE = 0.5            # cards a round in a tomb whose count is hidden
UNSEEN_STONES = 0.56              # stones of one colour on a card never seen (about 2.8 / 5)
NONE = -1.0e18

# ---------------------------------------------------------------- workspace (one per call)
N_COLOURS = B.N_COLOURS
GRID = B.GRID
MAXC = 48                         # components of one colour (at most the stones of a pyramid)
MAX_VALUED = 16                   # cards valued at once: the hand and the quarry
ADJ = 8                           # components of one colour next to a card (8 cells around it)
# int64 workspace
W_MASK = 0                                    # colour k, component j: W_MASK + k * MAXC + j
W_SIZE = W_MASK + N_COLOURS * MAXC
W_COUNT = W_SIZE + N_COLOURS * MAXC           # components of each colour
W_BEST = W_COUNT + N_COLOURS                  # each colour's largest group
W_SUMS = W_BEST + N_COLOURS                   # their sum, the largest, those towards the bonus
W_TMASK = W_SUMS + 3                  # one colour's components, while a card is tried
W_TSIZE = W_TMASK + ADJ + 4
W_SPOTS = W_TSIZE + ADJ + 4                   # the legal spots
W_ORIGIN = W_SPOTS + 8                        # where a card at each would lie
W_NADJ = W_ORIGIN + 8                         # spot j, colour k: the components next to it
W_ADJ = W_NADJ + 8 * N_COLOURS
W_ADJ_SIZE = W_ADJ + 8 * N_COLOURS * ADJ
W_PYR = W_ADJ_SIZE + 8 * N_COLOURS * ADJ
W_CARDS = W_PYR + O.SLOTS                     # the cards valued
W_NDESC = W_CARDS + MAX_VALUED                # and their colours (_describe_cards)
W_DESC = W_NDESC + MAX_VALUED
W_TAKEN = W_DESC + 4 * MAX_VALUED             # per seat: hidden cards it took from the quarry
W_MOST_STONES = W_TAKEN + MAX_PLAYERS
W_INTS = W_MOST_STONES + 1
# float64 workspace: per valued card (positions of W_CARDS) its gains
F_PYR = 0
F_TOMB = F_PYR + MAX_VALUED
F_OBELISK = F_TOMB + MAX_VALUED
F_KEEP = F_OBELISK + MAX_VALUED
F_EST = F_KEEP + MAX_VALUED                   # per seat: its tomb stones by colour (estimated)
F_OWN = F_EST + N_COLOURS * MAX_PLAYERS       # the valued seat's tomb and its best rival's
F_RIVAL = F_OWN + N_COLOURS
F_STAGES = F_RIVAL + N_COLOURS                # obelisk stages by colour
F_OBELISK_NOW = F_STAGES + N_COLOURS          # its most stages, their value on the table
F_OBELISK_T0 = F_OBELISK_NOW + 1
F_TOMB_GAIN = F_OBELISK_T0 + 1                # colour k, s more stones: + 5 k + s
F_CREDIT = F_TOMB_GAIN + 5 * N_COLOURS         # pyramid bonus: credit a stone, stones missing
F_REACH = F_CREDIT + 1
F_MINE = F_REACH + 1          # tile decision: [tile - 1, pair] tables
F_KNOWN = F_MINE + 5 * MAX_PLAYERS
F_MEAN = F_KNOWN + 5 * MAX_PLAYERS
F_ACTION = F_MEAN + 5 * MAX_PLAYERS           # each legal action: its plan's value
F_GAIN = F_ACTION + O.MAX_LEGAL               # and what the action itself adds to it
F_FLOATS = F_GAIN + O.MAX_LEGAL

COLUMN_0 = B.COLUMN_0
COLUMN_7 = B.COLUMN_7


# ---------------------------------------------------------------- small readers
@njit(cache=True, inline="always")
def _seat_at(seat):
    return O.SEATS + O.SEAT_BLOCK * seat


# which tiles allow a tomb or an obelisk card, read once from the rules (PyramidsRules.powers);
# only Sekhmet's "one of the two" depends on the table size (R_SEKHMET_EITHER)
_TOMB_TILES = sum(1 << t for t in TILE_NAMES if PyramidsRules().powers(t, MAX_PLAYERS)[0])
_OBELISK_TILES = sum(1 << t for t in TILE_NAMES if PyramidsRules().powers(t, MAX_PLAYERS)[1])


@njit(cache=True, inline="always")
def _powers(obs, tile):
    """(may tomb, may obelisk, only one of them) of a tile."""
    return ((_TOMB_TILES >> tile) & 1 != 0, (_OBELISK_TILES >> tile) & 1 != 0,
            tile == SEKHMET and obs[O.R_SEKHMET_EITHER] != 0)


@njit(cache=True, inline="always")
def _rounds_left(obs):
    """Rounds after this one."""
    return ROUNDS - 1 - obs[O.ROUND]


@njit(cache=True, inline="always")
def _code(obs, card):
    return obs[O.CARD_CODE + card]


# ---------------------------------------------------------------- pyramid groups as components
@njit(cache=True, inline="always")
def _cell_bit(cell):
    """Card-local cell (0 bl, 1 br, 2 tl, 3 tr) -> its bit on the grid, the card at the origin."""
    return np.int64(1) << ((cell >> 1) * GRID + (cell & 1))


@njit(cache=True, inline="always")
def _origin(slot):
    """The grid bit of the bottom-left cell of a card at `slot` (board.py's grid)."""
    level = B.LEVEL_OF[slot]
    return 2 * level * GRID + 2 * B.POSITION_OF[slot] + level


@njit(cache=True, inline="always")
def _touching(m):
    """`m` and every cell orthogonally next to it."""
    return m | ((m << 1) & ~COLUMN_0) | ((m >> 1) & ~COLUMN_7) | (m << GRID) | (m >> GRID)


@njit(cache=True, inline="always")
def _stone(code, cell, large_cells):
    """(cells at the card's origin, size) of the stone that starts at `cell`; (0, 0) when `cell`
    is the second cell of a large stone (bl+tl, br+tr, bl+br, tl+tr)."""
    j = B.joins_of(code)
    if cell == 1 and j & O.JOIN_BOTTOM:
        return np.int64(0), 0
    if cell == 2 and j & O.JOIN_LEFT:
        return np.int64(0), 0
    if cell == 3 and j & (O.JOIN_RIGHT | O.JOIN_TOP):
        return np.int64(0), 0
    m = _cell_bit(cell)
    if (cell == 0 and j & O.JOIN_LEFT) or (cell == 1 and j & O.JOIN_RIGHT):
        m |= _cell_bit(cell + 2)
    elif (cell == 0 and j & O.JOIN_BOTTOM) or (cell == 2 and j & O.JOIN_TOP):
        m |= _cell_bit(cell + 1)
    return m, (2 if large_cells and m != _cell_bit(cell) else 1)


@njit(cache=True, inline="always")
def _merge(wi, masks, sizes, n, mask, size):
    """Add a stone (cells, size) to the n components at wi[masks], wi[sizes] of its colour: the
    components it touches merge with it. Returns (components, size of the stone's component)."""
    near = _touching(mask)
    j = 0
    while j < n:
        if wi[masks + j] & near:
            mask |= wi[masks + j]
            size += wi[sizes + j]
            n -= 1
            wi[masks + j] = wi[masks + n]
            wi[sizes + j] = wi[sizes + n]
        else:
            j += 1
    wi[masks + n] = mask
    wi[sizes + n] = size
    return n + 1, size


@njit(cache=True)
def _build_pyramid(obs, seat, pre_turn, wi):
    """The seat's pyramid into wi[W_PYR] (with pre_turn, as before this turn's card), its
    components and largest groups; returns its number of cards."""
    at = _seat_at(seat) + O.S_PYRAMID
    for s in range(O.SLOTS):
        wi[W_PYR + s] = obs[at + s]
    if pre_turn and obs[O.TURN_PYRAMID_CARD] >= 0:
        spot = obs[O.TURN_PYRAMID_SPOT]
        if spot == O.SPOT_LEFT:         # the card was put at the left: the rest moves back
            for level in range(4):
                start, size = O.LEVEL_START[level], O.LEVEL_SIZE[level]
                for p in range(size - 1):
                    wi[W_PYR + start + p] = wi[W_PYR + start + p + 1]
                wi[W_PYR + start + size - 1] = -1
        elif spot == O.SPOT_RIGHT:
            wi[W_PYR + B.level_count(wi[W_PYR:W_PYR + O.SLOTS], 0) - 1] = -1
        else:
            wi[W_PYR + spot] = -1
    large = obs[O.R_LARGE_CELLS] != 0
    n_cards = 0
    for k in range(N_COLOURS):
        wi[W_COUNT + k] = 0
        wi[W_BEST + k] = 0
    for s in range(O.SLOTS):
        card = wi[W_PYR + s]
        if card < 0:
            continue
        n_cards += 1
        code = _code(obs, card)
        origin = _origin(s)
        for cell in range(4):
            m, size = _stone(code, cell, large)
            if m == 0:
                continue
            k = B.cell_colour(code, cell)
            n, size = _merge(wi, W_MASK + k * MAXC, W_SIZE + k * MAXC, wi[W_COUNT + k], m << origin, size)
            wi[W_COUNT + k] = n
            if size > wi[W_BEST + k]:
                wi[W_BEST + k] = size
    return n_cards


@njit(cache=True, inline="always")
def _phi(obs, total, top, missing, toward, credit, reach):
    """The pyramid's heuristic worth (glyphs apart) from its largest groups: their sum, the
    largest, the stones still missing for the bonus and those towards it; `credit` per stone
    towards it while at most `reach` are missing."""
    v = float(total + top)
    if missing == 0:
        return v + obs[O.R_BONUS_POINTS]
    if missing <= reach:
        v += credit * toward
    return v


@njit(cache=True)
def _groups_now(obs, params, wi, wf, free):
    """The sums of the largest groups built in wi (W_BEST) into W_SUMS, the bonus credit per
    stone and how many stones may be missing for it (F_CREDIT, F_REACH); returns their phi."""
    group = obs[O.R_BONUS_GROUP]
    total = top = toward = 0
    for k in range(N_COLOURS):
        b = wi[W_BEST + k]
        total += b
        top = max(top, b)
        toward += min(b, group)
    wi[W_SUMS], wi[W_SUMS + 1], wi[W_SUMS + 2] = total, top, toward
    wf[F_CREDIT] = params[P_BONUS] * obs[O.R_BONUS_POINTS] / (N_COLOURS * group)
    wf[F_REACH] = params[P_REACH] * free
    return _phi(obs, total, top, N_COLOURS * group - toward, toward, wf[F_CREDIT], wf[F_REACH])


DIAGONALS = (1 | (1 << (GRID + 1)), 2 | (1 << GRID))   # bl+tr, br+tl: not connected
BLOCK = 3 | (3 << GRID)                                  # the four cells of a card


@njit(cache=True)
def _describe_cards(obs, wi, first, count):
    """Each valued card's colours: at W_DESC + 4 i + m its m-th colour, its cells there (at the
    origin) and its stones, packed as colour | cells << 4 | stones << 20; their number W_NDESC;
    the most stones of one colour on one of them, W_MOST_STONES."""
    large = obs[O.R_LARGE_CELLS] != 0
    wi[W_MOST_STONES] = 0
    for i in range(first, first + count):
        card = wi[W_CARDS + i]
        n = 0
        if card >= 0:
            code = _code(obs, card)
            for cell in range(4):                  # a colour's entry: where it first shows
                k = B.cell_colour(code, cell)
                stones = _stone(code, cell, large)[1]
                m = 0
                while m < n and wi[W_DESC + 4 * i + m] & 15 != k:
                    m += 1
                if m == n:
                    wi[W_DESC + 4 * i + m] = k
                    n += 1
                wi[W_DESC + 4 * i + m] += (_cell_bit(cell) << 4) + (stones << 20)
            for m in range(n):
                wi[W_MOST_STONES] = max(wi[W_MOST_STONES], wi[W_DESC + 4 * i + m] >> 20)
        wi[W_NDESC + i] = n


@njit(cache=True)
def _spot_lists(wi, n_spots, base_n):
    """For each legal spot j: where the card would lie (W_ORIGIN + j) and, per colour k, the
    components next to it there (shifted by a left-end placement) at W_ADJ + ADJ (5 j + k) + a,
    their sizes at W_ADJ_SIZE, their number at W_NADJ + 5 j + k."""
    for j in range(n_spots):
        spot = wi[W_SPOTS + j]
        shift, origin = 0, 0
        if spot == O.SPOT_LEFT:
            shift = 2                              # every card moves one position right
        elif spot == O.SPOT_RIGHT:
            origin = 2 * base_n
        else:
            origin = _origin(spot)
        wi[W_ORIGIN + j] = origin
        near = _touching(np.int64(BLOCK) << origin)
        for k in range(N_COLOURS):
            m = 0
            at = ADJ * (N_COLOURS * j + k)
            for c in range(wi[W_COUNT + k]):
                mask = wi[W_MASK + k * MAXC + c] << shift
                if mask & near:
                    wi[W_ADJ + at + m] = mask
                    wi[W_ADJ_SIZE + at + m] = wi[W_SIZE + k * MAXC + c]
                    m += 1
            wi[W_NADJ + N_COLOURS * j + k] = m


@njit(cache=True, inline="always")
def _spot_gain(obs, wi, wf, i, j, phi0):
    """Pyramid gain of valued card i put at legal spot j (_describe_cards, _spot_lists done),
    its glyph apart: each of its colours' group is its stones and the components they touch."""
    origin = wi[W_ORIGIN + j]
    group = obs[O.R_BONUS_GROUP]
    total, top, toward = wi[W_SUMS], wi[W_SUMS + 1], wi[W_SUMS + 2]
    for m in range(wi[W_NDESC + i]):
        d = wi[W_DESC + 4 * i + m]
        k, cells, size = d & 15, (d >> 4) & 0xFFFF, d >> 20
        at, n = W_ADJ + ADJ * (N_COLOURS * j + k), wi[W_NADJ + N_COLOURS * j + k]
        if n > 0:
            if cells == DIAGONALS[0] or cells == DIAGONALS[1]:
                size = _diagonal(obs, wi, wi[W_CARDS + i], k, at, n, origin)
            else:
                near = _touching(cells << origin)
                for a in range(n):
                    if wi[at + a] & near:
                        size += wi[at + W_ADJ_SIZE - W_ADJ + a]
        b = wi[W_BEST + k]
        if size > b:
            total += size - b
            top = max(top, size)
            toward += min(size, group) - min(b, group)
    return _phi(obs, total, top, N_COLOURS * group - toward, toward, wf[F_CREDIT], wf[F_REACH]) - phi0


@njit(cache=True, inline="always")
def _pyramid_glyph(obs, code):
    return obs[O.R_GLYPH_POINTS] if B.glyph_of(code) == PYRAMID else 0


@njit(cache=True)
def _diagonal(obs, wi, card, k, at, n, origin):
    """The largest group of colour k with the card's two diagonal stones of that colour (a deck
    may have them): the n components next to the spot (at wi[at]) copied, then the stones merged
    in one by one."""
    for a in range(n):
        wi[W_TMASK + a] = wi[at + a]
        wi[W_TSIZE + a] = wi[at + W_ADJ_SIZE - W_ADJ + a]
    code = _code(obs, card)
    best = 0
    for cell in range(4):
        if B.cell_colour(code, cell) == k:
            m, size = _stone(code, cell, obs[O.R_LARGE_CELLS] != 0)
            n, size = _merge(wi, W_TMASK, W_TSIZE, n, m << origin, size)
            best = max(best, size)
    return best


# ---------------------------------------------------------------- obelisk and tomb
@njit(cache=True)
def _obelisk_stages(obs, params, seat, pre_turn, wf):
    """Stages of each colour in the seat's obelisk (pre_turn: without this turn's card), the
    most of them, and the table's value that many stages on (F_OBELISK_T0)."""
    at = _seat_at(seat)
    n = obs[at + O.S_OBELISK_N]
    if pre_turn and obs[O.TURN_OBELISK] >= 0:
        n -= 1                                     # this turn's card is the top one
    for k in range(N_COLOURS):
        wf[F_STAGES + k] = 0.0
    for i in range(n):
        m = B.colour_mask(_code(obs, obs[at + O.S_OBELISK + i]))
        for k in range(N_COLOURS):
            wf[F_STAGES + k] += (m >> k) & 1
    most = 0.0
    for k in range(N_COLOURS):
        most = max(most, wf[F_STAGES + k])
    wf[F_OBELISK_NOW] = most
    wf[F_OBELISK_T0] = _table(params, most + params[P_OBELISK] * _rounds_left(obs))


@njit(cache=True, inline="always")
def _table(params, x):
    """The obelisk table at real stages x (linear between entries, its last value beyond)."""
    last = int(params[P_TABLE_N]) - 1
    if x >= last:
        return params[P_TABLE + last]
    i = int(x)
    f = x - i
    return params[P_TABLE + i] * (1.0 - f) + params[P_TABLE + i + 1] * f


@njit(cache=True, inline="always")
def _obelisk_gain(obs, params, wf, code):
    m = B.colour_mask(code)
    after = wf[F_OBELISK_NOW]
    for k in range(N_COLOURS):
        if (m >> k) & 1:
            after = max(after, wf[F_STAGES + k] + 1.0)
    gain = _table(params, after + params[P_OBELISK] * _rounds_left(obs)) - wf[F_OBELISK_T0]
    if B.glyph_of(code) == OBELISK:
        gain += obs[O.R_GLYPH_POINTS]
    return gain


@njit(cache=True)
def _tomb_estimates(obs, wi, wf):
    """wf[F_EST + 5 s + k]: seat s's tomb stones of colour k, exact for the deciding seat (as
    before this turn), estimated for the others (module docstring)."""
    me, players = obs[O.SEAT], obs[O.PLAYERS]
    large = obs[O.R_LARGE_CELLS] != 0
    for i in range(N_COLOURS * MAX_PLAYERS):
        wf[F_EST + i] = 0.0
    for s in range(MAX_PLAYERS):
        wi[W_TAKEN + s] = 0
    for c in range(obs[O.N_CARDS]):
        loc = obs[O.CARD_LOC + c]
        if O.LOC_TAKEN <= loc < O.LOC_TAKEN + MAX_PLAYERS:
            s = loc - O.LOC_TAKEN
            wi[W_TAKEN + s] += 1
            B.add_stones(_code(obs, c), large, wf, F_EST + N_COLOURS * s, 1.0)
    for s in range(players):
        at = F_EST + N_COLOURS * s
        if s == me:
            for k in range(N_COLOURS):
                wf[at + k] = obs[O.OWN_TOMB_COLOURS + k]
            if obs[O.TURN_TOMB] >= 0:
                B.add_stones(_code(obs, obs[O.TURN_TOMB]), large, wf, at, -1.0)
            continue
        n = obs[_seat_at(s) + O.S_TOMB_N]
        tomb = HIDDEN_TOMB_RATE * obs[O.ROUND] if n < 0 else float(n)
        share = tomb / (wi[W_TAKEN + s] + 1.0)
        for k in range(N_COLOURS):
            wf[at + k] = (wf[at + k] + UNSEEN_STONES) * share


@njit(cache=True)
def _tomb_view(obs, wf, seat):
    """The seat's tomb counts and, per colour, the most of any other seat: F_OWN, F_RIVAL."""
    for k in range(N_COLOURS):
        wf[F_OWN + k] = wf[F_EST + N_COLOURS * seat + k]
        rival = 0.0
        for s in range(obs[O.PLAYERS]):
            if s != seat:
                rival = max(rival, wf[F_EST + N_COLOURS * s + k])
        wf[F_RIVAL + k] = rival


@njit(cache=True, inline="always")
def _majority(x, rival, d, inv_tau, start):
    """Estimated chance that x stones of a colour win its majority against `rival`: a sigmoid
    0.5 + 0.5 z / (1 + |z|) of z = (x - rival + d) / tau; for x = 0 times `start`."""
    z = (x - rival + d) * inv_tau
    p = 0.5 + 0.5 * z / (1.0 + abs(z))
    return p if x > 0.0 else p * start


@njit(cache=True)
def _tomb_table(obs, params, wi, wf):
    """F_TOMB_GAIN[5 k + s]: points of s more stones of colour k in the tomb (F_OWN, F_RIVAL),
    for s up to the most stones of a colour on a valued card (W_MOST_STONES, at most 4)."""
    tie = obs[O.R_TOMB_TIE]
    d = 0.5 if tie == 0 else (-0.5 if tie == 1 else 0.0)
    left = _rounds_left(obs)
    inv_tau = 1.0 / (params[P_TOMB_TEMP] + params[P_TOMB_SPREAD] * left)
    start = left / (ROUNDS - 1.0)
    points = params[P_TOMB] * obs[O.R_TOMB_POINTS]
    most = min(wi[W_MOST_STONES], 4)
    for k in range(N_COLOURS):
        own, rival = wf[F_OWN + k], wf[F_RIVAL + k]
        p0 = _majority(own, rival, d, inv_tau, start)
        wf[F_TOMB_GAIN + 5 * k] = 0.0
        for s in range(1, most + 1):
            wf[F_TOMB_GAIN + 5 * k + s] = points * (_majority(own + s, rival, d, inv_tau, start) - p0)


@njit(cache=True, inline="always")
def _tomb_gain(obs, wi, wf, i, code):
    """The tomb gain of valued card i (_describe_cards done)."""
    g = 0.0
    for m in range(wi[W_NDESC + i]):
        d = wi[W_DESC + 4 * i + m]
        g += wf[F_TOMB_GAIN + 5 * (d & 15) + min(d >> 20, 4)]
    if B.glyph_of(code) == TOMB:
        g += obs[O.R_GLYPH_POINTS]
    return g


# ---------------------------------------------------------------- the valued cards
@no_int_literals
@njit(cache=True)
def _value_cards(obs, params, wi, wf, seat, pre_turn, first, count):
    """Gains of the cards wi[W_CARDS + first ...] (count of them; -1 entries are skipped) for
    `seat`: best pyramid spot, tomb, obelisk, and keep, into F_PYR, F_TOMB, F_OBELISK, F_KEEP.
    The tomb estimates (F_EST) and the cards' colours (_describe_cards) must be done."""
    n_cards = _build_pyramid(obs, seat, pre_turn, wi)
    n_spots = B.pyramid_spots(wi[W_PYR:W_PYR + O.SLOTS], obs[O.R_UPPER_CONTIGUOUS] != 0,
                              wi[W_SPOTS:W_SPOTS + 8])
    base_n = B.level_count(wi[W_PYR:W_PYR + O.SLOTS], 0)
    free = O.SLOTS - n_cards - 1
    phi0 = _groups_now(obs, params, wi, wf, free)
    _spot_lists(wi, n_spots, base_n)
    _obelisk_stages(obs, params, seat, pre_turn, wf)
    _tomb_view(obs, wf, seat)
    _tomb_table(obs, params, wi, wf)
    keep = params[P_KEEP] if obs[O.R_KEEP_LIMIT] > 0 else 0.0
    for i in range(first, first + count):
        card = wi[W_CARDS + i]
        if card < 0:
            continue
        code = _code(obs, card)
        best = NONE
        for j in range(n_spots):
            best = max(best, _spot_gain(obs, wi, wf, i, j, phi0))
        best += _pyramid_glyph(obs, code)
        t = _tomb_gain(obs, wi, wf, i, code)
        o = _obelisk_gain(obs, params, wf, code)
        wf[F_PYR + i], wf[F_TOMB + i], wf[F_OBELISK + i] = best, t, o
        wf[F_KEEP + i] = keep * max(best, t, o)
    return n_spots, free, phi0


# ---------------------------------------------------------------- plans
@njit(cache=True, inline="always")
def _edifice(wf, x, may_tomb, may_obelisk):
    """The best of card x's tomb and obelisk gains the turn still allows (NONE: neither)."""
    v = NONE
    if may_tomb:
        v = wf[F_TOMB + x]
    if may_obelisk:
        v = max(v, wf[F_OBELISK + x])
    return v


@njit(cache=True, inline="always")
def _rest(wf, x, y, may_tomb, may_obelisk, either):
    """Best value of the rest of a turn with the cards x, y (positions; -1: none) still in hand
    once the pyramid card is laid: tomb, obelisk, keep one, discard the others."""
    if x < 0:
        x, y = y, -1
    if x < 0:
        return 0.0
    if y < 0:
        return max(wf[F_KEEP + x], _edifice(wf, x, may_tomb, may_obelisk))
    v = max(wf[F_KEEP + x], wf[F_KEEP + y])
    if may_tomb or may_obelisk:
        v = max(v, _edifice(wf, x, may_tomb, may_obelisk) + wf[F_KEEP + y],
                _edifice(wf, y, may_tomb, may_obelisk) + wf[F_KEEP + x])
        if may_tomb and may_obelisk and not either:
            v = max(v, wf[F_TOMB + x] + wf[F_OBELISK + y], wf[F_TOMB + y] + wf[F_OBELISK + x])
    return v


@njit(cache=True, inline="always")
def _plan(wf, a, b, c, may_tomb, may_obelisk, either):
    """Best value of a whole turn with the cards a, b, c in hand (positions; -1: none)."""
    v = NONE
    if a >= 0:
        v = max(v, wf[F_PYR + a] + _rest(wf, b, c, may_tomb, may_obelisk, either))
    if b >= 0:
        v = max(v, wf[F_PYR + b] + _rest(wf, a, c, may_tomb, may_obelisk, either))
    if c >= 0:
        v = max(v, wf[F_PYR + c] + _rest(wf, a, b, may_tomb, may_obelisk, either))
    return v


@njit(cache=True, inline="always")
def _hand_to_cards(obs, wi):
    """The hand into W_CARDS 0..2 (-1 padded); returns how many cards it holds."""
    n = 0
    for i in range(O.MAX_HAND):
        wi[W_CARDS + i] = obs[O.HAND + i]
        if obs[O.HAND + i] >= 0:
            n += 1
    return n


@njit(cache=True, inline="always")
def _position(wi, card):
    for i in range(O.MAX_HAND):
        if wi[W_CARDS + i] == card:
            return i
    return -1


@njit(cache=True, inline="always")
def _either(obs):
    return obs[O.R_SEKHMET_EITHER] != 0 and obs[O.TURN_TILE] == SEKHMET


# ---------------------------------------------------------------- the decisions
@njit(cache=True)
def _first_best(obs, wf, at):
    """Index of the first largest of wf[at:at + N_LEGAL]."""
    best, idx = NONE, 0
    for i in range(obs[O.N_LEGAL]):
        if wf[at + i] > best:
            best, idx = wf[at + i], i
    return idx


@njit(cache=True)
def _pair_values_now(obs, params, wi, wf):
    """D_PAIR: each pair's best plan (hand + pair, the tile's powers)."""
    _hand_to_cards(obs, wi)
    for q in range(MAX_PLAYERS):
        wi[W_CARDS + 3 + 2 * q] = obs[O.QUARRY + 2 * q]
        wi[W_CARDS + 4 + 2 * q] = obs[O.QUARRY + 2 * q + 1]
    _tomb_estimates(obs, wi, wf)
    _describe_cards(obs, wi, 0, 3 + 2 * MAX_PLAYERS)
    _value_cards(obs, params, wi, wf, obs[O.SEAT], True, 0, 3 + 2 * MAX_PLAYERS)
    may_t, may_o, either = obs[O.MAY_TOMB] != 0, obs[O.MAY_OBELISK] != 0, _either(obs)
    for i in range(obs[O.N_LEGAL]):
        q = O.action_arg(obs[O.LEGAL + i])
        wf[F_ACTION + i] = _three(wi, wf, 3 + 2 * q, 4 + 2 * q, may_t, may_o, either)
        wf[F_GAIN + i] = 0.0


@njit(cache=True, inline="always")
def _three(wi, wf, p, q, may_t, may_o, either):
    """Plan value of the hand (positions 0..2 of W_CARDS, a kept card at most) with the pair at
    positions p, q."""
    h = 0 if wi[W_CARDS] >= 0 else -1
    return _plan(wf, h, p, q, may_t, may_o, either)


@njit(cache=True)
def _build_values(obs, params, wi, wf):
    """D_PYRAMID, D_TOMB, D_OBELISK, D_KEEP: each action's best plan for the rest of the turn."""
    decision = obs[O.DECISION]
    n_hand = _hand_to_cards(obs, wi)
    _tomb_estimates(obs, wi, wf)
    _describe_cards(obs, wi, 0, n_hand)
    n_spots, free, phi0 = _value_cards(obs, params, wi, wf, obs[O.SEAT], True, 0, n_hand)
    may_t, may_o, either = obs[O.MAY_TOMB] != 0, obs[O.MAY_OBELISK] != 0, _either(obs)
    for i in range(obs[O.N_LEGAL]):
        action = obs[O.LEGAL + i]
        kind, card = O.action_kind(action), O.action_card(action)
        x = _position(wi, card) if card >= 0 else -1
        # the other hand cards, as positions
        a = b = -1
        for j in range(n_hand):
            if j != x:
                if a < 0:
                    a = j
                else:
                    b = j
        if decision == O.D_PYRAMID:
            spot, j = O.action_arg(action), 0
            while wi[W_SPOTS + j] != spot:
                j += 1
            gain = _spot_gain(obs, wi, wf, x, j, phi0) + _pyramid_glyph(obs, _code(obs, card))
            rest = _rest(wf, a, b, may_t, may_o, either)
        elif decision == O.D_TOMB:
            gain = 0.0 if kind == O.A_SKIP else wf[F_TOMB + x]
            rest = _rest(wf, a, b, False, may_o and not (either and kind != O.A_SKIP), either)
        elif decision == O.D_OBELISK:
            gain = 0.0 if kind == O.A_SKIP else wf[F_OBELISK + x]
            rest = _rest(wf, a, b, False, False, either)
        else:
            gain, rest = (0.0 if kind == O.A_KEEP_NONE else wf[F_KEEP + x]), 0.0
        wf[F_ACTION + i] = gain + rest
        wf[F_GAIN + i] = gain


@njit(cache=True)
def tile_values(obs, params, wi, wf):
    """D_TILE: the expected value of each legal tile into wf[F_ACTION + i] (module docstring)."""
    me, players, n_legal = obs[O.SEAT], obs[O.PLAYERS], obs[O.N_LEGAL]
    # the cards valued: the hand at 0..2, pair q at 3 + 2q, 4 + 2q
    _hand_to_cards(obs, wi)
    for q in range(MAX_PLAYERS):
        wi[W_CARDS + 3 + 2 * q] = obs[O.QUARRY + 2 * q] if q < players else -1
        wi[W_CARDS + 4 + 2 * q] = obs[O.QUARRY + 2 * q + 1] if q < players else -1
    _tomb_estimates(obs, wi, wf)
    _describe_cards(obs, wi, 0, 3 + 2 * players)
    top = 0                                          # the highest legal tile
    free_mask = 0
    for i in range(n_legal):
        t = O.action_arg(obs[O.LEGAL + i])
        top = max(top, t)
        free_mask |= 1 << t
    chosen = 0
    for t in range(1, 6):
        if obs[O.TILE_OWNER + t - 1] >= 0:
            chosen += 1
    later = players - chosen - 1                     # seats still to choose after this one
    # my plans with each legal tile and each pair
    _value_cards(obs, params, wi, wf, me, False, 0, 3 + 2 * players)
    for i in range(n_legal):
        t = O.action_arg(obs[O.LEGAL + i])
        may_t, may_o, either = _powers(obs, t)
        for q in range(players):
            wf[F_MINE + MAX_PLAYERS * (t - 1) + q] = _three(wi, wf, 3 + 2 * q, 4 + 2 * q, may_t, may_o,
                                                            either)
    # the owners of lower tiles: their pair values with their tile
    for u in range(1, top):
        s = obs[O.TILE_OWNER + u - 1]
        if s >= 0:
            _value_cards(obs, params, wi, wf, s, False, 3, 2 * players)
            _pair_values(obs, wi, wf, u, players, F_KNOWN, 1.0, True)
    # the seats still to choose: their mean pair values with each lower free tile
    lower_free = 0
    for u in range(1, top):
        if (free_mask >> u) & 1:
            lower_free += 1
            for q in range(players):
                wf[F_MEAN + MAX_PLAYERS * (u - 1) + q] = 0.0
    if lower_free > 0 and later > 0:
        for k in range(later):
            s = (obs[O.FIRST_PLAYER] + chosen + 1 + k) % players
            _value_cards(obs, params, wi, wf, s, False, 3, 2 * players)
            for u in range(1, top):
                if (free_mask >> u) & 1:
                    _pair_values(obs, wi, wf, u, players, F_MEAN, 1.0 / later, False)
    for i in range(n_legal):
        t = O.action_arg(obs[O.LEGAL + i])
        others = free_mask & ~(1 << t)
        takers = min(later, n_legal - 1)
        total, scenarios = 0.0, 0
        sub = others
        while True:                                  # which other free tiles the later seats take
            if popcount(sub) == takers:
                total += _after_earlier(obs, wf, t, sub, players)
                scenarios += 1
            if sub == 0:
                break
            sub = (sub - 1) & others
        wf[F_ACTION + i] = total / scenarios
        wf[F_GAIN + i] = 0.0


@njit(cache=True)
def _pair_values(obs, wi, wf, u, players, at, weight, overwrite):
    """2-card plans (the pair alone) with tile u's powers for the seat whose gains are in wf:
    into (or, without overwrite, added with `weight` to) wf[at + MAX_PLAYERS (u - 1) + q]."""
    may_t, may_o, either = _powers(obs, u)
    for q in range(players):
        v = _plan(wf, 3 + 2 * q, 4 + 2 * q, -1, may_t, may_o, either)
        k = at + MAX_PLAYERS * (u - 1) + q
        wf[k] = v if overwrite else wf[k] + weight * v


@njit(cache=True)
def _after_earlier(obs, wf, t, later_tiles, players):
    """My best plan with tile t once the lower tiles' owners took their pairs: the known owners
    (TILE_OWNER), and the seats still to choose, who take the tiles of the mask `later_tiles`."""
    taken = 0
    for u in range(1, t):
        if obs[O.TILE_OWNER + u - 1] >= 0:
            table = F_KNOWN
        elif (later_tiles >> u) & 1:
            table = F_MEAN
        else:
            continue
        best, pick = NONE, -1
        for q in range(players):
            v = wf[table + MAX_PLAYERS * (u - 1) + q]
            if not (taken >> q) & 1 and v > best:
                best, pick = v, q
        if pick >= 0:
            taken |= 1 << pick
    best = NONE
    for q in range(players):
        if not (taken >> q) & 1:
            best = max(best, wf[F_MINE + MAX_PLAYERS * (t - 1) + q])
    return best if best > NONE else 0.0


@njit(cache=True)
def _values(obs, params, wi, wf):
    """Every legal action's plan value and own gain into wf[F_ACTION + i], wf[F_GAIN + i]."""
    decision = obs[O.DECISION]
    if decision == O.D_TILE:
        tile_values(obs, params, wi, wf)
    elif decision == O.D_PAIR:
        _pair_values_now(obs, params, wi, wf)
    else:
        _build_values(obs, params, wi, wf)


@njit(cache=True)
def _greedy(obs, params):
    wi = np.empty(W_INTS, np.int64)
    wf = np.empty(F_FLOATS, np.float64)
    _values(obs, params, wi, wf)
    return _first_best(obs, wf, F_ACTION)


@njit(cache=True)
def action_values(obs, params, values, gains):
    """What the greedy sees (for tests and inspection): each legal action's value, the best plan
    for the rest of the turn through it (a tile: its expected value), into values[i], and the
    action's own part of it (the pyramid card's gain, the tomb or obelisk card's, the kept
    card's; 0 for a tile, a pair, a skip) into gains[i]. The greedy plays the first largest."""
    wi = np.empty(W_INTS, np.int64)
    wf = np.empty(F_FLOATS, np.float64)
    _values(obs, params, wi, wf)
    for i in range(obs[O.N_LEGAL]):
        values[i], gains[i] = wf[F_ACTION + i], wf[F_GAIN + i]


@njit(DECIDE_SIG, cache=True)
def greedy(obs, params, rng):
    """The greedy one-ply heuristic (module docstring)."""
    return _greedy(obs, params)


@njit(DECIDE_SIG, cache=True)
def god_priority(obs, params, rng):
    """The first legal tile in the order params[P_ORDER + tile - 1] (a rank, 0 first); the greedy
    for every other decision."""
    if obs[O.DECISION] != O.D_TILE:
        return _greedy(obs, params)
    best, idx = 99.0, 0
    for i in range(obs[O.N_LEGAL]):
        rank = params[P_ORDER + O.action_arg(obs[O.LEGAL + i]) - 1]
        if rank < best:
            best, idx = rank, i
    return idx


@njit(DECIDE_SIG, cache=True)
def force_tile(obs, params, rng):
    """Tile params[P_FORCE_TILE] in round params[P_FORCE_ROUND] when it is on offer; the greedy for
    every other decision (the God-tile value analysis's forced seat)."""
    if obs[O.DECISION] == O.D_TILE and obs[O.ROUND] + 1 == params[P_FORCE_ROUND]:
        for i in range(obs[O.N_LEGAL]):
            if O.action_arg(obs[O.LEGAL + i]) == params[P_FORCE_TILE]:
                return i
    return _greedy(obs, params)

