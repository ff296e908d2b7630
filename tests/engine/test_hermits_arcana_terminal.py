"""``python -m games.engine.play hermits_arcana`` plays the patience in a terminal: the board
in text with its numbered maneuvers, a typed number plays one, and a game runs to its
reading."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from games.engine.play import main

ROOT = Path(__file__).resolve().parents[2]


def run(argv, typed=""):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(typed), out=out)
    return code, out.getvalue()


def test_the_board_shows_fate_the_altar_the_table_and_numbered_maneuvers():
    code, text = run(["hermits_arcana", "--seed", "5"], "q\n")
    assert code == 0
    assert "Hermit's Arcana - round 1 - Fate 18 - Chance 48" in text
    assert "The altar, left to right:" in text and "  top    " in text and "  bottom " in text
    assert "    1. Bind The Empress with the 6 of Cups, the 7 of Cups and the 10 of Cups" in text


def test_a_typed_number_plays_that_maneuver_and_the_shift_follows():
    code, text = run(["hermits_arcana", "--seed", "5"], "1\nq\n")
    assert code == 0 and "Return 1 card: pick it from the heap" in text


def test_a_game_runs_to_its_end_and_its_reading():
    code, text = run(["hermits_arcana", "--seed", "3", "--auto", "5000"])
    assert code == 0 and "Game over:" in text and "The reading:" in text and "Present rite 1:" in text


def test_it_runs_as_a_module():
    result = subprocess.run([sys.executable, "-m", "games.engine.play", "hermits_arcana", "--seed", "5"],
                            input="q\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0 and "Choose your maneuver" in result.stdout
