"""Game-agnostic parts: keyed RNG, rule parameters, runner, statistics, output."""
