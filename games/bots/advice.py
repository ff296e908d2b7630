"""Hints and reviews for the solo modes (and any seat of any game): pure functions over the
engine contract, for the site to call.

``hint(rules, view, moves, seat, level, seed)`` names the move the bot would pick and why,
in a few words.  ``review(rules, seed, players, options, record, seat, ...)`` replays a
finished game and, for each move the seat made, gives the bot's choice in its place and
the chance of winning before and after the move, estimated by playouts: determinizations
of the seat's view played to the end by the greedy policy.  Both see only the seat's views.
"""

from __future__ import annotations

import random

from games.engine.base import IllegalMove

from . import scoring
from .core import decide, greedy_move, move_key, playable, rng_for

PLAYOUTS = 8
MAX_PLAYOUT_MOVES = 400


def _describe(rules, view: dict, seat: int, move: dict, rng: random.Random) -> str:
    try:
        state = rules.determinize(view, seat, rng)
        return rules.describe_move(state, seat, move)
    except (NotImplementedError, KeyError, ValueError, TypeError, IndexError):
        return rules.__class__.__mro__[-2].describe_move(rules, {}, seat, move)


def _why(rules, view: dict, seat: int, move: dict, stats: dict, rng: random.Random) -> str:
    """A few words on why: what the move does on a sample of the unseen cards, or how
    often it won the search's playouts."""
    try:
        world = rules.determinize(view, seat, rng)
        before = scoring.score(rules, world, seat)
        after_state = rules.apply(world, seat, move)
        after = scoring.score(rules, after_state, seat)
    except (NotImplementedError, IllegalMove):
        return "a safe choice: the computer has no look-ahead for this game yet."
    out = rules.outcome(after_state)
    if out is not None:
        return "it wins the game." if seat in out["winners"] else "every other move is worse."
    stat = stats.get(move_key(move))
    if stat and stat[1] >= 10:
        return f"it looked best over {stat[1]} simulated continuations of the game."
    if after > before + 5:
        return "it makes the biggest step forward at once."
    if after > before:
        return "it improves your position the most."
    return "it costs you the least."


def hint(rules, view: dict, moves: list[dict], seat: int, level: str = "ismcts",
         seed: int = 0) -> dict:
    """``{"move", "words", "why"}``: the bot's move for the seat, that move in words, and
    a few words on why."""
    move, stats = decide(rules, view, moves, seat, level, seed)
    rng = rng_for(view, seat, seed, "hint")
    return {"move": move, "words": _describe(rules, view, seat, move, rng),
            "why": _why(rules, view, seat, move, stats, rng)}


def win_chance(rules, view: dict, seat: int, seed: int = 0, playouts: int = PLAYOUTS) -> float | None:
    """The share of playouts from this view that the seat wins (None without a
    determinizer for the game)."""
    rng = rng_for(view, seat, seed, "chance")
    wins = 0.0
    for _ in range(playouts):
        try:
            state = rules.determinize(view, seat, rng)
        except NotImplementedError:
            return None
        for _ in range(MAX_PLAYOUT_MOVES):
            actors = rules.to_act(state)
            if not actors:
                break
            actor = actors[0]
            state = rules.apply(state, actor, greedy_move(rules, state, actor, rng))
        out = rules.outcome(state)
        if out is not None:
            wins += 1.0 if seat in out["winners"] else 0.5 if out["result"] == "draw" else 0.0
    return wins / playouts


def review(rules, seed: int, players: int, options: dict | None, record: list, seat: int = 0,
           level: str = "greedy", bot_seed: int = 0, playouts: int = PLAYOUTS,
           deck: list[str] | None = None, deadline: float | None = None) -> list[dict]:
    """For each of ``seat``'s moves in ``record`` (the game's ``(seat, move)`` log): ``{"n",
    "move", "words", "bot_move", "bot_words", "differs", "win_before", "win_after"}``;
    win chances are shares in [0, 1] (None where a game has no determinizer, or once
    ``deadline``, a ``time.time()``, has passed: a long game's review stays bounded).
    A position's chance is estimated once: a move's "after" is the next one's "before"
    when nobody else moved between."""
    import time

    state = rules.new_game(seed, players, options, deck)
    rows = []
    chances: dict[str, float | None] = {}

    def chance(view: dict) -> float | None:
        key = move_key(view)
        if key not in chances:
            if deadline is not None and time.time() > deadline:
                return None
            chances[key] = win_chance(rules, view, seat, bot_seed, playouts)
        return chances[key]

    for n, (who, move) in enumerate(record):
        if who == seat:
            view = rules.view(state, seat)
            moves = rules.legal_moves(state, seat)
            bot, _ = decide(rules, view, moves, seat, level, bot_seed)
            words = rules.describe_move(state, seat, move)
            bot_words = rules.describe_move(state, seat, bot)
            before = chance(view)
        state = rules.apply(state, who, move)
        if who == seat:
            out = rules.outcome(state)
            if out is not None:
                after = 1.0 if seat in out["winners"] else 0.5 if out["result"] == "draw" else 0.0
            else:
                after = chance(rules.view(state, seat))
            rows.append({"n": n, "move": move, "words": words, "bot_move": bot,
                         "bot_words": bot_words,
                         "differs": move_key(bot) != move_key(move) and move in playable(moves),
                         "win_before": before, "win_after": after})
    return rows
