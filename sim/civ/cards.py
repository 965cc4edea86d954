"""The 104 cards of CIV (shared/rules/civ.md §1.1) as data: Age and Domain of every card.

A card's front shows only its Domain, and cards of one Domain are functionally identical whatever
their Age (§1.2); the Age is only on the back, where it decides the place of the card in the
deck (Age I on top, Age III at the bottom). So a card is an id 0..103 numbered by Age, then by
Domain in table order; everywhere but in the deck the engines count cards per Domain.
"""
from __future__ import annotations

MILITARY, RELIGION, ECONOMY, SCIENCE, ART, UTOPIA = range(6)
N_DOMAINS = 6
DOMAINS = ("military", "religion", "economy", "science", "art", "utopia")
DOMAIN_TITLES = ("Military", "Religion", "Economy", "Science", "Art", "Utopia")
DOMAIN_LETTERS = "MREKAU"          # K for Knowledge (science), to keep S free; A for Art
N_AGES = 3
AGE_NAMES = ("I", "II", "III")

# cards per Age (rows) and Domain (columns, in the order above), §1.1
COUNTS = (
    (8, 8, 4, 4, 4, 0),            # Age I   28
    (8, 8, 4, 8, 4, 0),            # Age II  32
    (4, 0, 8, 8, 8, 16),           # Age III 44
)
AGE_SIZES = tuple(sum(row) for row in COUNTS)
N_CARDS = sum(AGE_SIZES)
DOMAIN_TOTALS = tuple(sum(row[d] for row in COUNTS) for d in range(N_DOMAINS))

AGE_OF: tuple[int, ...] = tuple(a for a in range(N_AGES) for d in range(N_DOMAINS) for _ in range(COUNTS[a][d]))
DOMAIN_OF: tuple[int, ...] = tuple(d for a in range(N_AGES) for d in range(N_DOMAINS) for _ in range(COUNTS[a][d]))
AGE_START = tuple(sum(AGE_SIZES[:a]) for a in range(N_AGES))   # the first card id of each Age

assert N_CARDS == 104 and AGE_SIZES == (28, 32, 44)
assert DOMAIN_TOTALS == (20, 16, 16, 20, 16, 16)
