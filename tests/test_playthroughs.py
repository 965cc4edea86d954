"""Seeded playthroughs, as OpenSpiel keeps them: one recorded game per game and rule preset,
played by the reference engine and compared line by line with tests/playthroughs/.

A difference means that the rules, the deal or the random streams now do something else. If that
is intended, regenerate the files with `make playthroughs` and review their diff like code.
"""
from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from sim import games
from strategies.play import playthrough
from strategies.registry import lineup

DIR = Path(__file__).parent / "playthroughs"
REGENERATE = os.environ.get("MEEPLELAB_REGENERATE_PLAYTHROUGHS") == "1"
SEED, GAME = 20261201, 7
CASES = [(name, preset) for name in games.names() for preset in games.get(name).rules.PRESETS]


def record(name: str, preset: str) -> str:
    rules = games.get(name).rules.preset(preset)
    specs = games.get(name).playthrough_lineup(preset)
    bound = lineup(name, specs, len(specs))
    head = (f"# {name} playthrough: preset {preset}, seed {SEED}, game {GAME}, reference engine\n"
            f"# seats: {', '.join(b.label for b in bound)}\n")
    return head + playthrough(name, rules, bound, seed=SEED, game_index=GAME)


@pytest.mark.parametrize("name,preset", CASES)
def test_playthrough_is_unchanged(name, preset):
    path = DIR / f"{name}-{preset}.txt"
    text = record(name, preset)
    if REGENERATE:
        DIR.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"{path} is missing: run `make playthroughs`"
    want = path.read_text()
    if text != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                                 str(path), "now", n=2))[:60])
        pytest.fail(f"the playthrough changed (if intended: `make playthroughs`, then review):\n{diff}")
    assert "# end:" in text.splitlines()[-1]


def test_every_game_and_preset_has_a_playthrough_and_no_other():
    """Every game declares its playthrough strategies; the file of a removed preset is an error
    (and is deleted by `make playthroughs`)."""
    assert all(g.playthrough_lineups.get("*") for g in games.all_games())
    wanted = {DIR / f"{n}-{p}.txt" for n, p in CASES}
    if REGENERATE:
        for stale in set(DIR.glob("*.txt")) - wanted:
            stale.unlink()
    assert set(DIR.glob("*.txt")) == wanted
