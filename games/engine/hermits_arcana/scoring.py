"""How good a Hermit's Arcana state looks to the bots (``games.bots.scoring`` finds it here
by the folder's name), and what the engine itself reports as lost.

Read from the state, not the view: the view writes the whole log out in words, and the
search scores thousands of states a move (with the generic scorer, which reads the view,
a bot move took ten times as long).
"""

from __future__ import annotations

from games.bots.scoring import terminal

# A Sigil locked by an offering that fits no ritual any more ("Locked: can no longer be
# completed" on the board) costs about what two honoured Sigils bring: the full win is gone
# unless the Tower takes its place.
LOCKED = 25.0
# Each card already offered towards a ritual still open: a step towards it; a card offered
# to a locked Sigil is lost to the game (it never comes back to Chance) and costs as much.
OFFERED = 2.0


def locked_count(rules, state: dict, seat: int) -> int:
    """How many Sigils on the altar the board shows as locked."""
    return sum(1 for sigil in state["altar"] if sigil and rules.locked(state, sigil))


def score_hermits_arcana(rules, state: dict, seat: int) -> float:
    done = terminal(rules, state, seat)
    if done is not None:
        return done
    total = float(rules.score(state))
    for sigil in state["altar"]:
        if sigil is None:
            continue
        if rules.locked(state, sigil):
            total -= LOCKED + OFFERED * len(state["offered"].get(sigil) or [])
        else:
            total += OFFERED * len(state["offered"].get(sigil) or [])
    return total


SCORERS = {"hermits_arcana": score_hermits_arcana}
# What the board reports as lost, counted: the advice never moves into more of it when
# another move avoids it (games.bots.core.safe_options).
DOOMED = {"hermits_arcana": locked_count}
