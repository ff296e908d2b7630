"""The text drawing of a Tarot Hallow table (terminal play, turn mail): once the mail puts
the players' names where the drawing says "Seat N", every seat's columns (hand, what it
played, score) still line up, whatever the names' lengths."""

from __future__ import annotations

import random

import pytest

from games.engine.tarot_hallow.rules import render_tarot_hallow
from games.engine.words import for_reader

from .tarot_hallow_support import TH

NAMES = ["Al", "Bartholomew Featherstonehaugh", "Cy", "Dorothea of the Long Name", "Eve", "Fitzgerald"]


def a_table_mid_round(players: int, seed: int) -> dict:
    """A state some rounds in, with some seats of the round played and some not."""
    rnd = random.Random(seed)
    state = TH.new_game(seed, players, {})
    for _ in range(players * 4 + 1):
        seat = rnd.choice(TH.to_act(state))
        state = TH.apply(state, seat, rnd.choice(TH.legal_moves(state, seat)))
    return state


def columns(lines: list[str], word: str) -> set[int]:
    return {line.index(word) for line in lines if line.lstrip().startswith("hand ")}


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 5), (6, 11)])
def test_the_columns_line_up_for_names_of_any_length(players, seed):
    state = a_table_mid_round(players, seed)
    for reader in (0, players - 1, None):
        drawn = "\n".join(render_tarot_hallow(TH.view(state, reader)))
        # As the mail names the players (games.mail.outgoing.board_drawing).
        lines = for_reader(drawn, None, dict(enumerate(NAMES[:players]))).splitlines()
        seat_rows = [line for line in lines if line.lstrip().startswith("hand ")]
        assert len(seat_rows) == players
        for word in ("hand ", "score "):
            assert len(columns(lines, word)) == 1, "\n".join(lines)
        # Every player is named, on a line of their own above their row.
        for index in range(players):
            if index != reader:
                assert any(line[2:].startswith(NAMES[index]) for line in lines)
        assert sum(line[2:].startswith("You") for line in lines) == (reader is not None)


def test_the_dealer_is_marked_and_said():
    state = a_table_mid_round(3, 5)
    lines = render_tarot_hallow(TH.view(state, 0))
    dealer = state["dealer"]
    marked = [line for line in lines if line.startswith("*")]
    assert len(marked) == 1 and marked[0].endswith("(deals)")
    assert ("You" if dealer == 0 else f"Seat {dealer}") in marked[0]
