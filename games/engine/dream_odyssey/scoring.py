"""How good a Dream Odyssey state looks to the bots (``games.bots.scoring`` finds it here by
the folder's name)."""

from __future__ import annotations

from games.bots.scoring import terminal


def score_dream_odyssey(rules, state: dict, seat: int) -> float:
    done = terminal(rules, state, seat)
    if done is not None:
        return done
    wounds = sum(1 for w in state["wounds"] if w)
    # Every journey made costs a little: travelling between spaces already won is free and
    # risks nothing, so without it the search preferred wandering to any encounter and a
    # game could go on for ever (two of four seeded games, with ISMCTS).
    return (6.0 * rules.score(state) - 8.0 * wounds + 1.0 * len(state["hand"])
            + 1.5 * len(state["party"]) - 1.0 * state.get("turn", 0))


SCORERS = {"dream_odyssey": score_dream_odyssey}
