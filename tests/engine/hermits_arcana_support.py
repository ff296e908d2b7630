"""Fixed piles for Hermit's Arcana tests: name the opening altar, the table and what
comes next; the rest of each pile follows in deck order."""

from __future__ import annotations

from games.engine import get_rules
from games.engine.cards import MAJORS, MINORS
from games.engine.hermits_arcana.rules import FILL_ORDER

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


def careful(state, rnd, moves):
    """A plain player: the biggest exalt there is, the Fool once the heap can pay him, the
    heap's top cards back, no shift; else mostly a devotion that keeps its ritual possible,
    sometimes a banishment, otherwise a Ground.  Seeded, so a seed is a whole game."""
    from games.engine.hermits_arcana.rituals import RITUALS

    by = {}
    for move in moves:
        by.setdefault(move["type"], []).append(move)
    if "exalt" in by:
        return max(by["exalt"], key=lambda m: len(m["cards"]))
    if "fool" in by and len(state["heap"]) >= 3:
        return by["fool"][0]
    for kind in ("return", "search"):
        if kind in by:
            return by[kind][-1]
    if "keep" in by:
        return by["keep"][0]
    if "rest" in by:
        return by["rest"][0]
    good = []
    for move in by.get("devote", []):
        sigil = state["altar"][int(move["to"][6:])]
        ritual = RULES.ritual_of(state, sigil)
        if ritual and RITUALS[ritual][0](state["offered"][sigil] + [move["card"]]):
            good.append(move)
    if good and rnd.random() < 0.7:
        return rnd.choice(good)
    if by.get("banish") and rnd.random() < 0.1:
        return rnd.choice(by["banish"])
    return rnd.choice(by.get("ground") or moves)


def play_careful(seed):
    import random

    state = RULES.new_game(seed, 1, {})
    rnd = random.Random(seed)
    while RULES.to_act(state):
        state = RULES.apply(state, 0, careful(state, rnd, RULES.legal_moves(state, 0)))
    return state
