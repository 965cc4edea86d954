"""Schotten Totten cards as small integers, formation strength, and the exact claim proof.

Card encoding (one int per card, 64 cards):
  - clan cards 0..53: `colour * 9 + value - 1`, colour 0..5 (letters R O Y G B P: red, orange,
    yellow, green, blue, purple), value 1..9;
  - tactic cards 54..63, in this order: Chief1 (MacFarlane), Chief2 (MacGregor), Troop (support
    troop), Shield (shield bearer), Fog, Mud, Scout, Redeploy, Deserter, Traitor.

Formation strength is one int, `key = category * 100 + total`, so stronger formations have larger
keys: categories 4 straight flush, 3 three of a kind, 2 flush, 1 straight, 0 sum (anything else).
Equal keys are decided by who completed the formation first (not visible in the cards).
Under Fog every formation is category 0 (only the total counts); under Mud a formation has 4 cards
(straight flush = 4 consecutive values in one colour, four of a kind, ...). Straights never wrap
around (8-9-1 is not a straight).

Morale cards take, when the stone is resolved, the colour and value best for their owner:
Chief any colour and value 1..9, Troop value 7 in any colour, Shield value 1..3 in any colour.
Colours only matter for flushes, so every morale card simply takes the colour of the clan cards
beside it; a formation's strength is thus the best over the morale cards' values.

`best_key` computes, by reasoning category by category (strongest first), the strongest key a side
can reach by adding clan cards from a pool: with an empty pool and a complete side it is the
strength of the formation, with the hidden cards as pool it is the opponent's best completion used
by the claim proof. It is exact: a test compares it with brute-force enumeration.
"""
from __future__ import annotations

from itertools import permutations

N_COLOURS = 6
N_VALUES = 9
N_CLAN = 54
N_CARDS = 64
COLOUR_LETTERS = "ROYGBP"
COLOUR_NAMES = ("red", "orange", "yellow", "green", "blue", "purple")

CHIEF_1, CHIEF_2, TROOP, SHIELD, FOG, MUD, SCOUT, REDEPLOY, DESERTER, TRAITOR = range(54, 64)
TACTIC_CARDS = tuple(range(N_CLAN, N_CARDS))
CHIEFS = (CHIEF_1, CHIEF_2)
MORALE = (CHIEF_1, CHIEF_2, TROOP, SHIELD)
ENVIRONMENT = (FOG, MUD)
RUSES = (SCOUT, REDEPLOY, DESERTER, TRAITOR)
TACTIC_TOKENS = {CHIEF_1: "Chief1", CHIEF_2: "Chief2", TROOP: "Troop", SHIELD: "Shield", FOG: "Fog",
                 MUD: "Mud", SCOUT: "Scout", REDEPLOY: "Redeploy", DESERTER: "Deserter",
                 TRAITOR: "Traitor"}
TACTIC_NAMES = {CHIEF_1: "Chief (MacFarlane)", CHIEF_2: "Chief (MacGregor)",
                TROOP: "Support troop", SHIELD: "Shield bearer", FOG: "Fog", MUD: "Mud",
                SCOUT: "Scout", REDEPLOY: "Redeploy", DESERTER: "Deserter", TRAITOR: "Traitor"}
TOKEN_ALIASES = {"macfarlane": CHIEF_1, "macgregor": CHIEF_2, "supporttroop": TROOP,
                 "support-troop": TROOP, "shieldbearer": SHIELD, "shield-bearer": SHIELD}

# values a morale card may take (best first), and its best value for a sum
MORALE_VALUES = {CHIEF_1: tuple(range(9, 0, -1)), CHIEF_2: tuple(range(9, 0, -1)),
                 TROOP: (7,), SHIELD: (3, 2, 1)}
MORALE_MAX = {c: v[0] for c, v in MORALE_VALUES.items()}

SUM, STRAIGHT, FLUSH, KIND, STRAIGHT_FLUSH = range(5)
CATEGORY_NAMES = ("sum", "straight", "flush", "three of a kind", "straight flush")
NO_FORMATION = -1     # best_key when no completion exists


# ---------------------------------------------------------------- cards
def clan_card(colour: int, value: int) -> int:
    return colour * N_VALUES + value - 1


def colour_of(card: int) -> int:
    return card // N_VALUES


def value_of(card: int) -> int:
    return card % N_VALUES + 1


def is_clan(card: int) -> bool:
    return 0 <= card < N_CLAN


def is_tactic(card: int) -> bool:
    return N_CLAN <= card < N_CARDS


def card_name(card: int) -> str:
    """Short token: 'R7' for the red 7, 'Chief1', 'Fog', ..."""
    if is_clan(card):
        return f"{COLOUR_LETTERS[colour_of(card)]}{value_of(card)}"
    return TACTIC_TOKENS[card]


def parse_card(token: str) -> int:
    """Inverse of `card_name` (case-insensitive; 'MacFarlane', 'MacGregor' accepted too)."""
    t = token.strip()
    low = t.lower()
    for card, name in TACTIC_TOKENS.items():
        if name.lower() == low:
            return card
    if low in TOKEN_ALIASES:
        return TOKEN_ALIASES[low]
    if len(t) == 2 and t[0].upper() in COLOUR_LETTERS and t[1] in "123456789":
        return clan_card(COLOUR_LETTERS.index(t[0].upper()), int(t[1]))
    raise ValueError(f"unknown card {token!r} (clan cards are a colour letter of {COLOUR_LETTERS} and "
                     f"a value 1-9, e.g. R7; tactic cards: {', '.join(TACTIC_TOKENS.values())})")


# ---------------------------------------------------------------- strength keys
def make_key(category: int, total: int) -> int:
    return category * 100 + total


def category_of(key: int) -> int:
    return key // 100


def total_of(key: int) -> int:
    return key % 100


def describe_key(key: int) -> str:
    if key == NO_FORMATION:
        return "no formation"
    return f"{CATEGORY_NAMES[category_of(key)]} ({total_of(key)})"


def classify(values, colours, fog: bool = False) -> int:
    """Key of a fully specified formation (plain values and colours, no morale card)."""
    total = sum(values)
    if fog:
        return make_key(SUM, total)
    ordered = sorted(values)
    run = all(ordered[i + 1] == ordered[i] + 1 for i in range(len(ordered) - 1))
    same_colour = len(set(colours)) == 1
    if run and same_colour:
        return make_key(STRAIGHT_FLUSH, total)
    if len(set(values)) == 1:
        return make_key(KIND, total)
    if same_colour:
        return make_key(FLUSH, total)
    if run:
        return make_key(STRAIGHT, total)
    return make_key(SUM, total)


def _run_fits(values, morale, run, available) -> bool:
    """Can the cards (clan `values`, `morale` cards) plus available pool cards make exactly `run`?

    Each clan value takes its own slot of the run; the morale cards take free slots their value
    range allows; every slot left must be filled by a pool card (`available(value)`).
    """
    if len(set(values)) != len(values) or any(v not in run for v in values):
        return False
    free = [v for v in run if v not in values]
    for slots in permutations(free, len(morale)):
        if all(s in MORALE_VALUES[m] for s, m in zip(slots, morale)) and \
                all(available(v) for v in free if v not in slots):
            return True
    return False


def best_key(cards, need: int, fog: bool = False, pool=(), min_category: int = SUM) -> int:
    """Strongest key reachable by `cards` (one side of a stone) completed to `need` cards with
    distinct clan cards from `pool` (tactic cards in `pool` are ignored: unplayed tactic cards
    never count). Returns NO_FORMATION when no completion exists (or none of category
    >= `min_category`; categories below it are not examined, which is the proof's fast path).
    """
    cards = list(cards)
    clan = [c for c in cards if c < N_CLAN]
    morale = [c for c in cards if c in MORALE_VALUES]
    if len(clan) + len(morale) != len(cards):
        raise ValueError(f"only clan and morale cards make a formation: {cards}")
    missing = need - len(cards)
    if missing < 0:
        raise ValueError(f"{len(cards)} cards where a formation has {need}")
    avail = {c for c in pool if c < N_CLAN and c not in clan}
    if len(avail) < missing:
        return NO_FORMATION
    values = [value_of(c) for c in clan]
    colours = {colour_of(c) for c in clan}
    base = sum(values) + sum(MORALE_MAX[m] for m in morale)
    if fog:  # only the total counts: the highest hidden values
        top = sorted((value_of(c) for c in avail), reverse=True)[:missing]
        return make_key(SUM, base + sum(top))
    colour_choices = sorted(colours) if colours else range(N_COLOURS)
    one_colour = len(colours) <= 1

    # 1. straight flush: the highest run of `need` values in one colour the cards can make
    if min_category <= STRAIGHT_FLUSH and one_colour:
        best = NO_FORMATION
        for colour in colour_choices:
            for low in range(N_VALUES - need + 1, 0, -1):
                run = range(low, low + need)
                if _run_fits(values, morale, run, lambda v, c=colour: clan_card(c, v) in avail):
                    best = max(best, make_key(STRAIGHT_FLUSH, sum(run)))
                    break
        if best != NO_FORMATION:
            return best
    # 2. three (four under Mud) of a kind: the highest common value
    if min_category <= KIND and len(set(values)) <= 1:
        for v in (set(values) or range(N_VALUES, 0, -1)):
            if all(v in MORALE_VALUES[m] for m in morale) and \
                    sum(1 for c in avail if value_of(c) == v) >= missing:
                return make_key(KIND, need * v)
    # 3. flush: one colour, the highest cards of it
    if min_category <= FLUSH and one_colour:
        best = NO_FORMATION
        for colour in colour_choices:
            top = sorted((value_of(c) for c in avail if colour_of(c) == colour), reverse=True)[:missing]
            if len(top) == missing:
                best = max(best, make_key(FLUSH, base + sum(top)))
        if best != NO_FORMATION:
            return best
    # 4. straight: the highest run of values, any colours
    if min_category <= STRAIGHT:
        held = {value_of(c) for c in avail}
        for low in range(N_VALUES - need + 1, 0, -1):
            run = range(low, low + need)
            if _run_fits(values, morale, run, lambda v: v in held):
                return make_key(STRAIGHT, sum(run))
    # 5. sum: the highest cards
    if min_category <= SUM:
        top = sorted((value_of(c) for c in avail), reverse=True)[:missing]
        return make_key(SUM, base + sum(top))
    return NO_FORMATION


def formation_key(cards, need: int, fog: bool = False) -> int:
    """Strength of a complete formation (morale cards at their best)."""
    if len(cards) != need:
        raise ValueError(f"a complete formation has {need} cards, not {len(cards)}")
    return best_key(cards, need, fog)


def wins_stone(own, other, need: int, fog: bool, hidden, own_completed_first: bool) -> bool:
    """The claim proof: may the owner of `own` claim the stone now?

    `own` must be complete. If `other` is complete too, `own` must be stronger, or as strong and
    completed first. Otherwise no completion of `other` with clan cards from `hidden` (every card
    not visible on the table: draw pile and both hands, the claimer's own hand included) may be
    stronger than `own`; an equal completion does not beat it, since the opponent would complete
    later. Unplayed tactic cards never count.
    """
    if len(own) < need:
        return False
    mine = best_key(own, need, fog)
    if len(other) >= need:
        theirs = best_key(other, need, fog)
        return mine > theirs or (mine == theirs and own_completed_first)
    if not fog and mine == make_key(STRAIGHT_FLUSH, sum(range(N_VALUES - need + 1, N_VALUES + 1))):
        return True   # fast path: the top straight flush (7-8-9, or 6-7-8-9 under Mud) is unbeatable
    # only completions of the claimer's category or above can beat the claimer
    theirs = best_key(other, need, fog, hidden, min_category=SUM if fog else category_of(mine))
    return theirs <= mine
