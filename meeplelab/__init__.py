"""meeplelab command-line interface (a thin layer over `analyses`, `strategies` and `sim`)."""
