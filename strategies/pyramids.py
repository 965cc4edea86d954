"""Built-in Pyramids strategies. A strategy returns the index of its chosen action in the
observation's legal list (sim/pyramids/observation.py: a turn is a chain of small decisions,
tile, pair, pyramid card and spot, tomb, obelisk, keep). `random` is the core's.
"""
GAME = "pyramids"
