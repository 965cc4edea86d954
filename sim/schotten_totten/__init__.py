"""Schotten Totten (Knizia): rules, cards and claim proof, reference engine, position notation.

Seat 0 moves first unless the rule `first_player = "random"` (the rulebook's choice); in a match
the winner of the previous game starts.
"""
