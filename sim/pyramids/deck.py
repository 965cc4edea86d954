"""The Pyramids deck as data: the CSV format, its validating loader, and a seeded generator.

The real list of the 105 construction cards is not public (shared/rules/pyramids.md §1.1, §10),
so the deck is a file. The shipped `data/deck-reconstructed.csv` is a RECONSTRUCTION made by
`generate()` below with its default parameters (seed 2017); a player who owns the game can
transcribe the real deck in the same format and use it with `--set deck=path/to/deck.csv`.

Format
------
UTF-8 CSV. Lines starting with `#` are comments; the first other line is the header
`id,stones,glyph`; then one row per card:

    id      a non-negative integer, unique in the file (a label: the engine numbers cards by
            their position in the file, 0, 1, 2, ...)
    stones  the stones of the card's 2x2 stone field, separated by spaces, each `colour@cells`:
              colour  blue, white, red, green or yellow
              cells   one cell, or two orthogonally adjacent cells joined by `+`, of
                      bl (bottom left), br (bottom right), tl (top left), tr (top right)
            together the stones cover each of the four cells exactly once; a stone of two cells is
            a large stone (one stone for scoring, unless the rule large_stone = cells)
    glyph   none, pyramid, obelisk or tomb (a card carries at most one glyph)

Example rows (a 3-stone card with a large stone on the left and a pyramid glyph; a 2-stone card):

    id,stones,glyph
    0,red@bl+tl blue@br white@tr,pyramid
    1,green@bl+tl yellow@br+tr,none

"Bottom" is the edge nearer the table's edge of the pyramid: in the pyramid the top row of a
card is covered by nothing and touches the card above it (see reference.py for the grid).
Errors name the file, the line and what is allowed, as `UsageError`.

Generator
---------
`generate(seed, n_cards, two_stone_share, glyph_share, same_colour_share, large_left_share,
colour_weights)` makes a plausible deck; defaults and why (the specification's §10):
  * two_stone_share = 0.2: the rulebook says cards hold "2 or 3" stones, one review says every
    card has 3, so 2-stone cards (two large stones, one per column) are a minority: 21 of 105.
  * A 3-stone card is a large stone filling one column and two small stones in the other
    (ingame.de); large_left_share = 0.5: the large stone is as often on the left as on the right.
  * glyph_share = 0.3: glyphs are on "some" cards, a minority; the same number of pyramid, obelisk
    and tomb glyphs: round(0.3 * 105 / 3) = 11 of each, 33 cards.
  * same_colour_share = 0.1: stones on a card are "mostly" different colours (berliner-woche):
    about one card in ten repeats a colour.
  * colour_weights = (1, 1, 1, 1, 1): the five colours are balanced, their stone counts as near
    equal as the total allows (294 stones: 59, 59, 59, 59, 58).
Randomness: one KeyedRng stream (seed, 0, 0), so a deck is reproducible from its parameters.
`meeplelab pyramids-deck -o deck.csv [--seed S --cards N ...]` writes one (`python -m sim.pyramids.deck
-o deck.csv [--seed S --n-cards N ...]` too).
"""
from __future__ import annotations

import argparse
import csv
import dataclasses
import functools
import hashlib
import os
from importlib import resources

from ..core.errors import UsageError
from ..core.rng import KeyedRng

COLOURS = ("blue", "white", "red", "green", "yellow")
GLYPHS = ("none", "pyramid", "obelisk", "tomb")
NO_GLYPH, PYRAMID, OBELISK, TOMB = 0, 1, 2, 3
CELLS = ("bl", "br", "tl", "tr")          # cell index = 2 * row + column (row 0 = bottom)
CELL_XY = {0: (0, 0), 1: (1, 0), 2: (0, 1), 3: (1, 1)}
ADJACENT_PAIRS = {frozenset(p) for p in ((0, 1), (2, 3), (0, 2), (1, 3))}
MAX_CARDS = 128
HEADER = ["id", "stones", "glyph"]
CARDS_PER_PLAYER = 21                     # the starting card and one pair in each of 10 rounds


@dataclasses.dataclass(frozen=True)
class Stone:
    colour: int               # index into COLOURS
    cells: tuple[int, ...]    # 1 or 2 cell indexes (CELLS), ascending


@dataclasses.dataclass(frozen=True)
class Card:
    index: int                # position in the deck file: the engine's card number
    id: int                   # the file's label
    stones: tuple[Stone, ...]
    glyph: int                # NO_GLYPH, PYRAMID, OBELISK or TOMB

    def stone_at(self, cell: int) -> int:
        """Index in `stones` of the stone covering `cell`."""
        for k, s in enumerate(self.stones):
            if cell in s.cells:
                return k
        raise ValueError(cell)

    def colours(self) -> set[int]:
        return {s.colour for s in self.stones}

    def text(self) -> str:
        """The card's `stones` field as written in a deck file."""
        return " ".join(f"{COLOURS[s.colour]}@{'+'.join(CELLS[c] for c in s.cells)}" for s in self.stones)


# ---------------------------------------------------------------- loading
def shipped_deck_path() -> str:
    return str(resources.files("sim.pyramids").joinpath("data/deck-reconstructed.csv"))


def load_deck(path: str) -> tuple[Card, ...]:
    """The cards of a deck file, validated (UsageError naming the file, line and what is allowed)."""
    try:
        st = os.stat(path)
    except OSError:
        raise UsageError(f"deck file {path}: no such file") from None
    return _load(path, st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=16)
def _load(path: str, mtime_ns: int, size: int) -> tuple[Card, ...]:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"deck file {path}: cannot read it ({e})") from None
    return parse_deck(text, path)


def parse_deck(text: str, source: str = "deck") -> tuple[Card, ...]:
    cards: list[Card] = []
    seen_ids: dict[int, int] = {}
    header_seen = False
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"deck file {source}, line {number}"
        fields = [f.strip() for f in next(csv.reader([line]))]
        if not header_seen:
            if fields != HEADER:
                raise UsageError(f"{where}: expected the header {','.join(HEADER)}, got {line.strip()!r}")
            header_seen = True
            continue
        if len(fields) != 3:
            raise UsageError(f"{where}: expected 3 fields (id,stones,glyph), got {len(fields)}")
        card = _parse_card(fields, len(cards), where)
        if card.id in seen_ids:
            raise UsageError(f"{where}: duplicate card id {card.id} (first on line {seen_ids[card.id]}); "
                             f"ids must be unique")
        seen_ids[card.id] = number
        cards.append(card)
        if len(cards) > MAX_CARDS:
            raise UsageError(f"{where}: more than {MAX_CARDS} cards (allowed: {MAX_CARDS} at most)")
    if not header_seen:
        raise UsageError(f"deck file {source}: no header line {','.join(HEADER)} and no cards")
    if not cards:
        raise UsageError(f"deck file {source}: no cards (allowed: {2 * CARDS_PER_PLAYER} to {MAX_CARDS})")
    return tuple(cards)


def _parse_card(fields: list[str], index: int, where: str) -> Card:
    raw_id, raw_stones, raw_glyph = fields
    if not raw_id.isdigit():
        raise UsageError(f"{where}: card id {raw_id!r} is not a non-negative integer")
    if raw_glyph not in GLYPHS:
        raise UsageError(f"{where}: unknown glyph {raw_glyph!r} (allowed: {', '.join(GLYPHS)})")
    stones = []
    covered: dict[int, str] = {}
    for token in raw_stones.split():
        colour, sep, cells_text = token.partition("@")
        if not sep:
            raise UsageError(f"{where}: stone {token!r} is not colour@cells (e.g. red@bl+tl)")
        if colour not in COLOURS:
            raise UsageError(f"{where}: stone {token!r}: unknown colour {colour!r} "
                             f"(allowed: {', '.join(COLOURS)})")
        names = cells_text.split("+")
        for name in names:
            if name not in CELLS:
                raise UsageError(f"{where}: stone {token!r}: unknown cell {name!r} "
                                 f"(allowed: {', '.join(CELLS)})")
        cells = tuple(sorted(CELLS.index(n) for n in names))
        if len(cells) > 2:
            raise UsageError(f"{where}: stone {token!r} covers {len(cells)} cells "
                             f"(allowed: 1 cell, or 2 adjacent cells for a large stone)")
        if len(cells) == 2 and frozenset(cells) not in ADJACENT_PAIRS:
            raise UsageError(f"{where}: stone {token!r}: cells {cells_text} are not orthogonally adjacent "
                             f"(allowed pairs: bl+tl, br+tr, bl+br, tl+tr)")
        for c in cells:
            if c in covered:
                raise UsageError(f"{where}: cell {CELLS[c]} is covered by two stones ({covered[c]} and "
                                 f"{token}); each cell holds exactly one stone")
            covered[c] = token
        stones.append(Stone(COLOURS.index(colour), cells))
    missing = [CELLS[c] for c in range(4) if c not in covered]
    if missing:
        raise UsageError(f"{where}: cell(s) {', '.join(missing)} covered by no stone; the stones must "
                         f"cover bl, br, tl and tr exactly once")
    return Card(index, int(raw_id), tuple(stones), GLYPHS.index(raw_glyph))


def check_deck_size(cards, players: int, source: str) -> None:
    need = CARDS_PER_PLAYER * players
    if len(cards) < need:
        raise UsageError(f"deck {source}: {len(cards)} cards is too few for {players} players "
                         f"(allowed: at least {need} = {CARDS_PER_PLAYER} per player, at most {MAX_CARDS})")


def deck_digest(path: str) -> str:
    """sha256 of a deck file's bytes (for the record of a run)."""
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def format_deck(cards, comments: tuple[str, ...] = ()) -> str:
    lines = [f"# {c}" if c else "#" for c in comments]
    lines.append(",".join(HEADER))
    lines += [f"{c.id},{c.text()},{GLYPHS[c.glyph]}" for c in cards]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the generator
GENERATOR_DEFAULTS = dict(seed=2017, n_cards=105, two_stone_share=0.2, glyph_share=0.3,
                          same_colour_share=0.1, large_left_share=0.5, colour_weights=(1, 1, 1, 1, 1))


def generate(seed: int = 2017, n_cards: int = 105, two_stone_share: float = 0.2, glyph_share: float = 0.3,
             same_colour_share: float = 0.1, large_left_share: float = 0.5,
             colour_weights=(1, 1, 1, 1, 1)) -> tuple[Card, ...]:
    """A plausible deck (see the module docstring for the parameters and their defaults)."""
    _check_generator(n_cards, two_stone_share, glyph_share, same_colour_share, large_left_share,
                     colour_weights)
    rng = KeyedRng(seed, 0, 0)
    n_two = round(two_stone_share * n_cards)
    sizes = [2] * n_two + [3] * (n_cards - n_two)
    rng.shuffle(sizes)
    pool = _colour_pool(sum(sizes), colour_weights)
    rng.shuffle(pool)
    per_kind = int(glyph_share * n_cards / 3 + 0.5)
    glyphs = [PYRAMID, OBELISK, TOMB] * per_kind + [NO_GLYPH] * (n_cards - 3 * per_kind)
    rng.shuffle(glyphs)
    starts = [sum(sizes[:i]) for i in range(n_cards)]
    for i in range(n_cards):               # arrange the whole pool first: a swap may reach back
        _arrange_colours(pool, sizes, starts, i, same_colour_share, rng)
    cards = []
    for i, size in enumerate(sizes):
        colours = pool[starts[i]:starts[i] + size]
        if size == 2:
            stones = (Stone(colours[0], (0, 2)), Stone(colours[1], (1, 3)))
        elif rng.uniform() < large_left_share:
            stones = (Stone(colours[0], (0, 2)), Stone(colours[1], (1,)), Stone(colours[2], (3,)))
        else:
            stones = (Stone(colours[1], (0,)), Stone(colours[2], (2,)), Stone(colours[0], (1, 3)))
        cards.append(Card(i, i, stones, glyphs[i]))
    return tuple(cards)


def _check_generator(n_cards, two_stone_share, glyph_share, same_colour_share, large_left_share, weights):
    if not 1 <= n_cards <= MAX_CARDS:
        raise UsageError(f"deck generator: n_cards = {n_cards} (allowed: 1 to {MAX_CARDS})")
    for name, v in (("two_stone_share", two_stone_share), ("glyph_share", glyph_share),
                    ("same_colour_share", same_colour_share), ("large_left_share", large_left_share)):
        if not 0.0 <= v <= 1.0:
            raise UsageError(f"deck generator: {name} = {v} (allowed: a number from 0 to 1)")
    if len(weights) != len(COLOURS) or any(w < 0 for w in weights) or sum(weights) <= 0:
        raise UsageError(f"deck generator: colour_weights = {tuple(weights)} (allowed: 5 non-negative "
                         f"numbers, not all 0, for {', '.join(COLOURS)})")


def _colour_pool(total: int, weights) -> list[int]:
    """`total` stones shared among the colours in proportion to the weights (largest remainders)."""
    exact = [total * w / sum(weights) for w in weights]
    counts = [int(x) for x in exact]
    by_remainder = sorted(range(len(weights)), key=lambda c: (-(exact[c] - counts[c]), c))
    for c in by_remainder[:total - sum(counts)]:
        counts[c] += 1
    return [c for c in range(len(weights)) for _ in range(counts[c])]


def _arrange_colours(pool: list[int], sizes: list[int], starts: list[int], i: int, same_share: float,
                     rng: KeyedRng) -> None:
    """Card i's colours are the shuffled pool's stones starts[i] .. starts[i] + sizes[i] - 1. A
    repeat on the card is kept with probability `same_share`, else swapped with the first stone of
    a new colour after the card (or, near the end of the pool, before it, where the swap makes no
    repeat on that card), so the pool stays balanced."""
    at, size = starts[i], sizes[i]
    for k in range(at, at + size):
        if pool[k] not in pool[at:k] or rng.uniform() < same_share:
            continue
        for j in list(range(at + size, len(pool))) + list(range(at)):
            if pool[j] in pool[at:k]:
                continue
            if j < at:
                card = max(c for c in range(i) if starts[c] <= j)
                others = [pool[x] for x in range(starts[card], starts[card] + sizes[card]) if x != j]
                if pool[k] in others:
                    continue
            pool[k], pool[j] = pool[j], pool[k]
            break


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m sim.pyramids.deck",
                                 description="Write a generated (reconstructed) Pyramids deck as CSV.")
    d = GENERATOR_DEFAULTS
    ap.add_argument("--seed", type=int, default=d["seed"])
    ap.add_argument("--n-cards", type=int, default=d["n_cards"])
    ap.add_argument("--two-stone-share", type=float, default=d["two_stone_share"])
    ap.add_argument("--glyph-share", type=float, default=d["glyph_share"])
    ap.add_argument("--same-colour-share", type=float, default=d["same_colour_share"])
    ap.add_argument("--large-left-share", type=float, default=d["large_left_share"])
    ap.add_argument("--colour-weights", type=lambda s: tuple(float(x) for x in s.split(",")),
                    default=d["colour_weights"], help="5 comma-separated weights")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args(argv)
    kw = dict(seed=a.seed, n_cards=a.n_cards, two_stone_share=a.two_stone_share,
              glyph_share=a.glyph_share, same_colour_share=a.same_colour_share,
              large_left_share=a.large_left_share, colour_weights=a.colour_weights)
    with open(a.output, "w", encoding="utf-8") as fh:
        fh.write(format_deck(generate(**kw), generator_comments(kw)))


def generator_comments(kw: dict) -> tuple[str, ...]:
    shown = ", ".join(f"{k}={v}" for k, v in kw.items())
    return ("Pyramids deck: a RECONSTRUCTION, not the real card list (which is not public).",
            "Made by sim/pyramids/deck.py generate() with: " + shown + ".",
            "Format: see the docstring of sim/pyramids/deck.py. Replace it with a transcription of a",
            "real deck in the same format: --set deck=path/to/deck.csv.", "")


if __name__ == "__main__":
    main()
