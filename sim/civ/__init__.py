"""CIV: Carta Impera Victoria (Rémi Amy, Ludonaute 2018): the deck as data, rule set, observation
layout, reference and fast engines.

The contract is shared/rules/civ.md; every point it marks [GUESS] is a rule parameter (rules.py).
"""
