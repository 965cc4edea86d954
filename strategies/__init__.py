"""Strategies: the registry (`strategies.registry`) and built-ins, one module per game."""
from .registry import (Param, all_strategies, get, lineup, load_plugin_file, parse_spec, register,
                       strategy)

__all__ = ["Param", "all_strategies", "get", "lineup", "load_plugin_file", "parse_spec", "register",
           "strategy"]
