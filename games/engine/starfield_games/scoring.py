"""How good a Starfield game's state looks to the bots, one function per game
(``games.bots.scoring`` finds ``SCORERS`` here by the folder's name)."""

from __future__ import annotations

from games.bots.scoring import terminal
from games.engine.cards import FOOL, value as card_value


def _progress(rules, state: dict, entry: dict) -> float:
    """How far an unresolved Major is towards resolving, 0-1."""
    cap = rules.capacity(state, entry) or 1
    return min(1.0, sum(map(card_value, entry["minors"])) / cap)


def score_warring_planets(rules, state: dict, seat: int) -> float:
    done = terminal(rules, state, seat)
    if done is not None:
        return done
    sc = rules.scores(state)
    # The game ends whenever either seat is stuck, and then the score as it stands decides:
    # points already won count double against the promise of unresolved Majors (a bot that
    # banked on its open Majors lost 12 % of its games to a random player who was ahead
    # when it got stuck; twice the weight: 8 %, measured with bench/bots.py over 200 games).
    total = 2.0 * float(sc[seat] - sc[1 - seat])
    for e in state["board"].values():
        sign = 1 if e["facing"] == seat else -1
        if "guard" in e:
            total += sign * 0.5 * card_value(e["guard"])
        elif e["resolved_by"] is None:
            total += sign * (0.3 * rules.worth(state, e) * _progress(rules, state, e) + 1)
    return total


# How often each value comes up among the Minors: pips 1-9 once per suit, 10 five times
# (the Ten and the four courts).
_MINOR_VALUE_WEIGHT = {**{v: 1 for v in range(1, 10)}, 10: 5}


def score_lovers_discourse(rules, state: dict, seat: int) -> float:
    done = terminal(rules, state, seat)
    if done is not None:
        return done
    total, rooms = 0.0, []
    for e in state["board"].values():
        if e["resolved_by"] is not None:
            total += 10
            continue
        cap = rules.capacity(state, e)
        room = cap - sum(map(card_value, e["minors"]))
        total += 3 + 5 * _progress(rules, state, e)
        # The Fool still bare takes any one Minor.
        rooms.append(99 if e["majors"] == [FOOL] and not e["minors"] else room)
    # The partners lose the moment a raised Minor finds no Major with room for it, so room
    # for every value that may be raised next is worth keeping (two places per value, the
    # tens weighing most: they are five Minors in fourteen).
    total += 0.5 * sum(w * min(sum(1 for r in rooms if r >= v), 2) for v, w in _MINOR_VALUE_WEIGHT.items())
    open_gifts = sum(1 for f in state["gifts"] if f is None)
    # An open Gift Field is the last refuge of a raised Minor with no place.
    total += 6 * open_gifts
    # Raised Minors waiting for a place: each that fits nowhere will lock a Gift Field, or
    # lose the game when none is open (the greedy level saw only the losses, one move late).
    free = sorted(rooms)
    for card in sorted(state.get("raised") or [], key=card_value, reverse=True):
        fitting = [r for r in free if r >= card_value(card)]
        if fitting:
            free.remove(fitting[0])
        elif open_gifts:
            open_gifts -= 1
            total -= 20
        else:
            total -= 60
    # Cards stuck in the planes are trouble later.
    total -= 0.5 * sum(len(col) for p in state["planes"] for col in p)
    return total


def score_lovers_discourse_2021(rules, state: dict, seat: int) -> float:
    return score_lovers_discourse(rules, {**state, "gifts": []}, seat)


# The 2021 prototype editions keep their final editions' state shapes; Lovers' Discourse
# 2021 has no Gift Fields to keep free.
SCORERS = {
    "warring_planets": score_warring_planets,
    "lovers_discourse": score_lovers_discourse,
    "warring_planets_2021": score_warring_planets,
    "lovers_discourse_2021": score_lovers_discourse_2021,
}
