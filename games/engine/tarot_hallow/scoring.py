"""How good a Tarot Hallow state looks to the bots (``games.bots.scoring`` finds it here by
the folder's name)."""

from __future__ import annotations

from games.bots.scoring import terminal

from .rules import number as tarot_number


def score_tarot_hallow(rules, state: dict, seat: int) -> float:
    done = terminal(rules, state, seat)
    if done is not None:
        return done
    scores = rules.scores(state)
    rivals = [v for i, v in enumerate(scores) if i != seat]
    # Pip strength in hand wins later contests; courts are worth a power.
    hand = sum(min(v, 10) for v in (tarot_number(c) for c in state["hands"][seat]) if v)
    return 3.0 * (scores[seat] - max(rivals)) + 0.1 * hand


SCORERS = {"tarot_hallow": score_tarot_hallow}
