"""meeplelab simulation layer: game-agnostic core (`sim.core`) and one package per game."""
from .core.cache import configure as _configure_cache

_configure_cache()   # before any compiled function is defined: see sim/core/cache.py
