"""Fixed piles for Hermit's Arcana tests: name the opening altar, the table and what
comes next; the rest of each pile follows in deck order."""

from __future__ import annotations

from games.engine import get_rules
from games.engine.cards import MAJORS, MINORS
from games.engine.hermits_arcana import FILL_ORDER

RULES = get_rules("hermits_arcana")
# Sigils that change nothing by coming up: fillers for the altar.
PLAIN = ["M2", "M3", "M4", "M5", "M10", "M11", "M12", "M17", "M18"]


def new(altar, table, *, fate=(), chance=(), reversed_=(), seed=1):
    """A game whose opening altar is ``altar`` (4 Sigils, left to right), whose table is
    ``table`` (8 cards by space, table:0..table:7), with ``fate`` and ``chance`` next."""
    first = list(altar) + list(fate)
    majors = first + [m for m in MAJORS if m not in first]
    dealt = [table[i] for i in FILL_ORDER] + list(chance)
    minors = dealt + [m for m in MINORS if m not in dealt]
    return RULES.new_game(seed, 1, {"majors_deck": majors, "minors_deck": minors, "reversed": list(reversed_)})


def fillers(n, avoid=()):
    return [m for m in PLAIN if m not in avoid][:n]


def slot(state, sigil):
    return f"altar:{state['altar'].index(sigil)}"


def play(state, move):
    return RULES.apply(state, 0, move)


def end_round(state):
    """Settle every choice the maneuver left (returns the heap's top card first, no search,
    keeps the first table card, no shift) and go on to the next Morning."""
    start = state["round"]
    while state["phase"] != "over" and state["round"] == start:
        moves = RULES.legal_moves(state, 0)
        phase = state["phase"]
        if phase == "return":
            top = state["heap"][-1]
            state = play(state, {"type": "return", "card": top})
        elif phase == "search":
            state = play(state, {"type": "pass"})
        elif phase == "shift":
            state = play(state, {"type": "rest"})
        elif phase == "keep":
            state = play(state, moves[0])
        else:
            raise AssertionError(f"end_round in phase {phase}")
    return state


def ground_round(state, row=1):
    """A round spent grounding a row (or the other one), to let time pass."""
    moves = [m for m in RULES.legal_moves(state, 0) if m["type"] == "ground"]
    state = play(state, moves[0] if moves[0]["to"] == f"row:{row}" or len(moves) == 1 else moves[1])
    return end_round(state)
