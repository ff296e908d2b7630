"""How good a (determinized) state looks to a seat: the greedy level's one-move look-ahead
and the value ISMCTS gives a playout it cuts short.  One function per game, registered by
slug; a game without one gets ``generic``, which reads only the contract's ``outcome`` and
the scores a game may put in its view.  A new game adds ``score_<slug>`` here or calls
``register`` from a module of its own.

Every function returns a number where more is better for ``seat``; ``value`` maps it to
a reward in [0, 1], 1 for a win.
"""

from __future__ import annotations

import math
from typing import Callable

from games.engine.cards import FOOL, value as card_value
from games.engine.tarot_hallow import number as tarot_number

Scorer = Callable[[object, dict, int], float]
SCORERS: dict[str, Scorer] = {}
WIN = 1000.0
SCALE = 20.0  # score difference that makes a reward of about 0.73


def register(slug: str):
    def wrap(fn: Scorer) -> Scorer:
        SCORERS[slug] = fn
        return fn
    return wrap


def terminal(rules, state: dict, seat: int) -> float | None:
    out = rules.outcome(state)
    if out is None:
        return None
    if seat in out["winners"]:
        return WIN
    if out["result"] == "draw":
        return 0.0
    if out["result"] == "ended":
        scores = out.get("scores") or [0]
        return float(scores[seat] if seat < len(scores) else 0)
    return -WIN


def generic(rules, state: dict, seat: int) -> float:
    """A game's own score for the seat, less the best rival's, if the view shows scores."""
    done = terminal(rules, state, seat)
    if done is not None:
        return done
    v = rules.view(state, seat)
    scores = v.get("scores")
    if isinstance(scores, list) and scores:
        rivals = [s for i, s in enumerate(scores) if i != seat]
        return float(scores[seat] - (max(rivals) if rivals else 0))
    return float(v.get("score") or 0)


def score(rules, state: dict, seat: int) -> float:
    return SCORERS.get(rules.slug, generic)(rules, state, seat)


def value(rules, state: dict, seat: int, scale: float = SCALE) -> float:
    """The score as a reward in [0, 1]: 1 for a win, 0 for a loss, a logistic in between."""
    s = score(rules, state, seat)
    if s >= WIN:
        return 1.0
    if s <= -WIN:
        return 0.0
    return 1.0 / (1.0 + math.exp(-s / scale))


def _progress(rules, state: dict, entry: dict) -> float:
    """How far an unresolved Major is towards resolving, 0-1."""
    cap = rules.capacity(state, entry) or 1
    return min(1.0, sum(map(card_value, entry["minors"])) / cap)


@register("warring_planets")
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


@register("lovers_discourse")
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


@register("know_thyself")
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


# The 2021 prototype editions keep their final editions' state shapes; Lovers' Discourse
# 2021 has no Gift Fields to keep free.
SCORERS["know_thyself_2021"] = score_know_thyself
SCORERS["warring_planets_2021"] = score_warring_planets


@register("lovers_discourse_2021")
def score_lovers_discourse_2021(rules, state: dict, seat: int) -> float:
    return score_lovers_discourse(rules, {**state, "gifts": []}, seat)


@register("tarot_hallow")
def score_tarot_hallow(rules, state: dict, seat: int) -> float:
    done = terminal(rules, state, seat)
    if done is not None:
        return done
    scores = rules.scores(state)
    rivals = [v for i, v in enumerate(scores) if i != seat]
    # Pip strength in hand wins later contests; courts are worth a power.
    hand = sum(min(v, 10) for v in (tarot_number(c) for c in state["hands"][seat]) if v)
    return 3.0 * (scores[seat] - max(rivals)) + 0.1 * hand


@register("dream_odyssey")
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
