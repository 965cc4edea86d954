"""Pyramids' necropolis on arrays: placement and scoring kernels for the fast engine and the
strategies, the compiled twins of `reference.Necropolis` and the scoring functions there.

A pyramid is an int64[10]: slot -> card number or -1 (slots as observation.py). Cards are known
by their CARD_CODE (observation.card_code: the colour of each of the 4 cells, the large stones,
the glyph), so these kernels work alike on the engine's state and on a strategy's vector.

Groups (§7.1) are found on one 8 x 8 grid of cells (a bit board per colour): a card at level l,
position p covers the columns 2p + l, 2p + l + 1 and the rows 2l, 2l + 1. Orthogonally adjacent
cells of one colour belong to one group, the two cells of a large stone included (they share an
edge and a colour), so a group's size is its cells, less one per large stone in it unless large
stones count 2.
"""
import numpy as np
from numba import njit

from ..core.nbutil import popcount
from .deck import OBELISK, PYRAMID, TOMB
from .observation import (JOIN_BOTTOM, JOIN_LEFT, JOIN_RIGHT, JOIN_TOP, LEVEL_SIZE, LEVEL_START,
                          SLOTS, SPOT_LEFT, SPOT_RIGHT)

N_COLOURS = 5
GRID = 8
COLUMN_0 = sum(1 << (GRID * y) for y in range(GRID))      # the cells x = 0 of the bit board
COLUMN_7 = (COLUMN_0 << (GRID - 1)) & (2 ** 63 - 1)    # x = 7, less bit 63 (int64)
LEVEL_OF = np.array((0, 0, 0, 0, 1, 1, 1, 2, 2, 3), np.int64)
POSITION_OF = np.array((0, 1, 2, 3, 0, 1, 2, 0, 1, 0), np.int64)
_LEVEL_START = np.array(LEVEL_START, np.int64)
_LEVEL_SIZE = np.array(LEVEL_SIZE, np.int64)


@njit(cache=True, inline="always")
def cell_colour(code, cell):
    return (code >> (3 * cell)) & 7


@njit(cache=True, inline="always")
def glyph_of(code):
    return (code >> 16) & 3


@njit(cache=True, inline="always")
def colour_mask(code):
    """Bit c set when the card shows colour c."""
    m = 0
    for cell in range(4):
        m |= 1 << cell_colour(code, cell)
    return m


@njit(cache=True, inline="always")
def joins_of(code):
    """The card's large stones as JOIN_* bits (observation.code_joins)."""
    return (code >> 12) & 15


@njit(cache=True, inline="always")
def add_stones(code, large_cells, out, at, weight):
    """out[at + colour] += weight x the card's stones of that colour: its cells of the colour,
    less one per large stone of it unless large stones count 2."""
    for cell in range(4):
        out[at + cell_colour(code, cell)] += weight
    if not large_cells:
        j = joins_of(code)
        if j & JOIN_LEFT:
            out[at + cell_colour(code, 0)] -= weight
        if j & JOIN_RIGHT:
            out[at + cell_colour(code, 1)] -= weight
        if j & JOIN_BOTTOM:
            out[at + cell_colour(code, 0)] -= weight
        if j & JOIN_TOP:
            out[at + cell_colour(code, 2)] -= weight


# ---------------------------------------------------------------- placement (§5.1)
@njit(cache=True, inline="always")
def level_count(pyr, level):
    n = 0
    for p in range(_LEVEL_SIZE[level]):
        if pyr[_LEVEL_START[level] + p] >= 0:
            n += 1
    return n


@njit(cache=True, inline="always")
def pyramid_spots(pyr, contiguous, spots):
    """The legal spots of the next pyramid card into `spots`, ascending; their number (>= 1
    while the pyramid has a free slot)."""
    n = 0
    base = level_count(pyr, 0)
    if base == 0:
        spots[0] = SPOT_LEFT
        return 1
    if base < 4:
        spots[0] = SPOT_LEFT
        spots[1] = SPOT_RIGHT
        n = 2
    for level in range(1, 4):
        start, below = _LEVEL_START[level], _LEVEL_START[level - 1]
        size = _LEVEL_SIZE[level]
        started = level_count(pyr, level) > 0
        for p in range(size):
            s = start + p
            if pyr[s] >= 0 or pyr[below + p] < 0 or pyr[below + p + 1] < 0:
                continue
            if contiguous and started:
                left = p > 0 and pyr[s - 1] >= 0
                right = p + 1 < size and pyr[s + 1] >= 0
                if not (left or right):
                    continue
            spots[n] = s
            n += 1
    return n


@njit(cache=True, inline="always")
def place(pyr, card, spot):
    """Put `card` at `spot`: at the base's left end every card moves one position right."""
    if spot == SPOT_LEFT:
        for level in range(3, -1, -1):
            start = _LEVEL_START[level]
            for p in range(_LEVEL_SIZE[level] - 1, 0, -1):
                pyr[start + p] = pyr[start + p - 1]
            pyr[start] = -1
        pyr[0] = card
    elif spot == SPOT_RIGHT:
        pyr[level_count(pyr, 0)] = card
    else:
        pyr[spot] = card


# ---------------------------------------------------------------- scoring (§7)
@njit(cache=True, inline="always")
def _grow(comp, mask):
    """`comp` grown by one orthogonal step inside `mask` (bit y * 8 + x; no row wraps)."""
    return (comp | ((comp << 1) & ~COLUMN_0) | ((comp >> 1) & ~COLUMN_7) | (comp << GRID)
            | (comp >> GRID)) & mask


@njit(cache=True, inline="always")
def _cell_bit(at, cell):
    """The grid bit of a card's `cell` (bl 0, br 1, tl 2, tr 3), its bl cell at bit `at`."""
    return 1 << (at + (cell // 2) * GRID + cell % 2)


@njit(cache=True, inline="always")
def colour_boards(pyr, codes):
    """(the bit board of each of the 5 colours, the second cell of every large stone), as
    scalars and without branches on the colours (random, so mispredicted): the final scoring
    was 3.2 us of a 9.2 us random 4-player game."""
    b0 = b1 = b2 = b3 = b4 = 0
    second = 0
    for s in range(SLOTS):
        c = pyr[s]
        if c < 0:
            continue
        code = codes[c]
        at = 2 * LEVEL_OF[s] * GRID + 2 * POSITION_OF[s] + LEVEL_OF[s]     # the card's bl cell
        for cell in range(4):
            bit = _cell_bit(at, cell)
            colour = cell_colour(code, cell)
            b0 |= bit * (colour == 0)
            b1 |= bit * (colour == 1)
            b2 |= bit * (colour == 2)
            b3 |= bit * (colour == 3)
            b4 |= bit * (colour == 4)
        j = joins_of(code)          # a large stone's second cell: bl+tl tl, br+tr tr, bl+br br, tl+tr tr
        second |= (_cell_bit(at, 2) * ((j & JOIN_LEFT) != 0) | _cell_bit(at, 3) * ((j & JOIN_RIGHT) != 0)
                   | _cell_bit(at, 1) * ((j & JOIN_BOTTOM) != 0) | _cell_bit(at, 3) * ((j & JOIN_TOP) != 0))
    return (b0, b1, b2, b3, b4), second


@njit(cache=True, inline="always")
def largest_group(board, second, large_cells):
    """The size of the largest connected group of one colour's bit board (0 if empty).

    A group is grown from its lowest cell, two steps at a time, until it stops growing; the
    search stops when the cells left cannot make a larger group. (The grid's top-right cell,
    bit 63, is never covered, so int64 shifts are safe.)"""
    best = 0
    rest = board
    while popcount(rest) > best:
        comp = rest & -rest
        while True:
            grown = _grow(_grow(comp, board), board)
            if grown == comp:
                break
            comp = grown
        rest &= ~comp
        size = popcount(comp)
        if not large_cells:
            size -= popcount(comp & second)
        best = max(best, size)
    return best


@njit(cache=True)
def pyramid_points(pyr, codes, large_cells, bonus_points, bonus_group, glyph_points):
    """(groups: every colour's largest group plus the largest once more, bonus, glyph points)."""
    boards, second = colour_boards(pyr, codes)
    total, top, bonus = 0, 0, bonus_points
    for k in range(N_COLOURS):
        best = largest_group(boards[k], second, large_cells)
        total += best
        top = max(top, best)
        if best < bonus_group:
            bonus = 0
    glyphs = 0
    for s in range(SLOTS):
        if pyr[s] >= 0 and glyph_of(codes[pyr[s]]) == PYRAMID:
            glyphs += 1
    return total + top, bonus, glyph_points * glyphs


@njit(cache=True)
def obelisk_points(obelisk, n, codes, table, glyph_points):
    """(stage points of the colour on most stages, glyph points) of obelisk[:n]; `table` holds
    the points by stages, its last value for more stages."""
    s0 = s1 = s2 = s3 = s4 = 0      # stages showing each colour
    glyphs = 0
    for i in range(n):
        code = codes[obelisk[i]]
        m = colour_mask(code)
        s0 += m & 1
        s1 += (m >> 1) & 1
        s2 += (m >> 2) & 1
        s3 += (m >> 3) & 1
        s4 += (m >> 4) & 1
        glyphs += glyph_of(code) == OBELISK
    most = max(max(max(s0, s1), max(s2, s3)), s4)
    return table[min(most, table.shape[0] - 1)], glyph_points * glyphs


@njit(cache=True)
def tomb_colours(tomb, n, codes, large_cells, out):
    """Stones of each colour in tomb[:n] into out[5]."""
    out[:] = 0
    for i in range(n):
        add_stones(codes[tomb[i]], large_cells, out, 0, 1)


@njit(cache=True)
def tomb_glyphs(tomb, n, codes):
    g = 0
    for i in range(n):
        if glyph_of(codes[tomb[i]]) == TOMB:
            g += 1
    return g


@njit(cache=True)
def tomb_majorities(counts, players, tomb_points, tie, out):
    """Majority points per seat into out[players] from counts[seat, colour] (§7.3): the most
    stones of a colour score; a tie: every tied seat (tie 0), nobody (1), split rounded down (2)."""
    out[:] = 0
    for k in range(N_COLOURS):
        most, tied = 0, 0
        for s in range(players):
            if counts[s, k] > most:
                most, tied = counts[s, k], 1
            elif counts[s, k] == most:
                tied += 1
        if most == 0:
            continue
        points = tomb_points
        if tied > 1:
            if tie == 1:
                points = 0
            elif tie == 2:
                points = tomb_points // tied
        for s in range(players):
            if counts[s, k] == most:
                out[s] += points
