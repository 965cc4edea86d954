"""`python -m meeplelab`: the same command line as the `meeplelab` script."""
from .cli import main

main(prog_name="meeplelab")
