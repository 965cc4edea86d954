"""meeplelab simulation layer: game-agnostic core (`sim.core`) and one package per game."""
