"""Analyses: simulations turned into tables and figures. See `analyses.registry`."""
