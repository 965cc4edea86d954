"""Built-in CIV strategies. A strategy returns the index of its chosen action in the observation's
legal list (sim/civ/observation.py: a turn is a chain of small decisions, the play, the next
effect or stop, each effect's cards and targets). `random` is the core's, registered for every
game by the registry; the game's own strategies (domain-focus, majority, greedy, the searches) are
still to come.
"""
GAME = "civ"
