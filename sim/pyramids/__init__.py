"""Pyramids (Dunstan & Gilbert, IELLO 2017): rule set, the deck as data, observation layout,
reference engine.

The contract is shared/rules/pyramids.md; every point it marks [GUESS] is a rule parameter
(rules.py). The exact card list is unknown, so the deck is a data file (deck.py); the shipped
one, data/deck-reconstructed.csv, is a RECONSTRUCTION made by the seeded generator in deck.py.
The game is not declared (no game.py) until the fast engine and strategies exist.
"""
