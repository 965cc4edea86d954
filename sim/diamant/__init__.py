"""Diamant (Moon & Faidutti): rules, reference engine, fast engine, observation."""
