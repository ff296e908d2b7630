"""The terminal player: board as text, numbered legal moves, any registered game."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from games.engine import RULES
from games.engine.play import main

ROOT = Path(__file__).resolve().parents[2]


def run(argv, typed=""):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(typed), out=out)
    return code, out.getvalue()


def test_it_shows_the_board_and_numbers_the_legal_moves():
    code, text = run(["know_thyself", "--deck", "M9,2c,3c,4c", "--seed", "5"], "q\n")
    assert code == 0
    assert "The Tree of Life, top to bottom:" in text
    assert "the Foundation   (empty, open)" in text
    assert "Hand (4): IX The Hermit, 2 of Cups, 3 of Cups, 4 of Cups" in text
    assert "    1. Play IX The Hermit to Splendour" in text
    assert "    4. Play the 2 of Cups onto the left Seeress" in text


def test_a_number_plays_that_move_and_a_json_move_is_refused_in_words():
    typed = "4\n" + '{"type": "play", "card": "M9", "to": "crown"}\n' + "x\nq\n"
    code, text = run(["know_thyself", "--deck", "M9,2c,3c,4c"], typed)
    assert "The 2 of Cups was played onto the left Seeress." in text
    assert "r0    2 of Cups" in text
    assert "Refused: The Crown is not joined by a branch to the root or to an occupied space." in text
    assert "Type 1-" in text


def test_random_moves_play_a_whole_game_to_its_reading():
    code, text = run(["know_thyself", "--seed", "5", "--variant", "numerology", "--auto", "5000"])
    assert code == 0 and "Game over: loss." in text
    assert "The reading:" in text and "The Obstacle:" in text


def test_every_registered_game_can_be_started():
    for slug, rules in RULES.items():
        code, text = run([slug, "--players", str(rules.min_players)], "q\n")
        assert code == 0 and "    1. " in text, slug


def test_a_bad_deck_is_refused_plainly():
    code, text = run(["know_thyself", "--deck", "M9,M9"])
    assert code == 2 and text.startswith("Cannot start: deck must list each of the 78")


def test_it_runs_as_a_module():
    result = subprocess.run([sys.executable, "-m", "games.engine.play", "know_thyself", "--seed", "5"],
                            input="q\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0 and "Play a card" in result.stdout
