"""How good a Know Thyself state looks to the bots (``games.bots.scoring`` finds it here by
the folder's name); the 2021 edition keeps the final one's state shape, so the same
function scores it."""

from __future__ import annotations

from games.bots.scoring import terminal


def score_know_thyself(rules, state: dict, seat: int) -> float:
    done = terminal(rules, state, seat)
    if done is not None:
        return done
    total = 2.0 * rules.score(state)
    for s, slot in state["tree"].items():
        if not slot["resolved"]:
            room = slot["room"]
            total += 1.0 if room is None else max(0.0, 1.0 - room / 20)
    total -= 0.3 * sum(len(col) for col in state["plane"])
    return total


SCORERS = {"know_thyself": score_know_thyself, "know_thyself_2021": score_know_thyself}
