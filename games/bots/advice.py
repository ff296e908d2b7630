"""Hints and reviews for the solo modes (and any seat of any game): pure functions over the
engine contract, for the site to call.

One advisor: ``advise(rules, view, moves, seat, seed)`` is the move the computer recommends,
and both the hint and the review ask it, with the same level, the same budget and the same
seed for a position (``advice_seed``: the game's seed and the number of moves made before),
so a game played by following every hint reviews as "the computer agrees with all your
moves".  The advisor is the ISMCTS level (``ADVICE_LEVEL``) behind the rules of thumb every
bot keeps (``core.safe_options``: never a move into what the board reports as lost when
another move avoids it).

``hint(rules, view, moves, seat, seed)`` names the advised move and why, in a few words.
``review(rules, seed, players, options, record, seat, ...)`` replays a finished game and,
for each move the seat made, gives the advisor's choice in its place and the chance of
winning before and after the move, estimated by playouts: determinizations of the seat's
view played to the end by the greedy policy (with the same rules of thumb), ``PLAYOUTS`` of
them.  Greedy wins far less often than the advisor (Know Thyself: hardly ever, against about
a fifth), so what the playouts say (``playout_stats``) goes through the game's calibration
map (``calibration``, fitted on the bench's games of the advisor): a chance is how often the
advisor's games won from positions like this one, with the half-width of its 95 % interval
(the playouts' own and the map's).  A move that differs from the advice and gave away at
least ``MARKS``' share of the chance is marked an inaccuracy, a mistake or a blunder (Lichess
marks a drop in its winning chances the same way).  Both see only the seat's views.
"""

from __future__ import annotations

import math
import random

from games.engine.base import IllegalMove

from . import calibration, scoring
from .core import decide, greedy_move, move_key, playable, rng_for

ADVICE_LEVEL = "ismcts"
PLAYOUTS = 32
MAX_PLAYOUT_MOVES = 400
# The chance a move gave away (before less after, as shares) that marks it, largest first.
# Lichess marks 0.1/0.2/0.3 of its winning-chance scale, which runs from -1 to 1, so 5/10/15
# points of a percentage; with a few dozen playouts a chance is only known to within about
# ten points, so the marks here are twice as wide.
MARKS = (("blunder", 0.30), ("mistake", 0.20), ("inaccuracy", 0.10))


def advice_seed(game_seed: int, moves_made: int) -> int:
    """The advisor's seed at a position: the game's seed and how many moves came before."""
    return (game_seed * 1_000_003 + moves_made) % 2**62


def advise(rules, view: dict, moves: list[dict], seat: int, seed: int, iterations: int | None = None):
    """``(move, stats)``: the move the computer recommends, for the hint and the review."""
    return decide(rules, view, moves, seat, ADVICE_LEVEL, seed, iterations)


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


def hint(rules, view: dict, moves: list[dict], seat: int, seed: int = 0,
         iterations: int | None = None) -> dict:
    """``{"move", "words", "why"}``: the advised move for the seat, that move in words, and
    a few words on why."""
    move, stats = advise(rules, view, moves, seat, seed, iterations)
    rng = rng_for(view, seat, seed, "hint")
    return {"move": move, "words": _describe(rules, view, seat, move, rng),
            "why": _why(rules, view, seat, move, stats, rng)}


def playout_stats(rules, view: dict, seat: int, seed: int = 0, playouts: int = PLAYOUTS) -> dict | None:
    """What ``playouts`` greedy playouts from this view say, raw (None without a
    determinizer for the game): ``share``, the share of them the seat wins (a draw half);
    ``score``, the mean of the game's own final score for the seat (how far they got,
    ``outcome()["scores"]``); ``value``, the mean of the bots' scorer on the dealt positions
    before the playouts (``scoring.score``).  The calibration map (``calibration``) turns
    them into a chance of winning."""
    rng = rng_for(view, seat, seed, "chance")
    wins = reached = judged = 0.0
    for _ in range(playouts):
        try:
            state = rules.determinize(view, seat, rng)
        except NotImplementedError:
            return None
        judged += scoring.score(rules, state, seat)
        for _ in range(MAX_PLAYOUT_MOVES):
            actors = rules.to_act(state)
            if not actors:
                break
            actor = actors[0]
            state = rules.apply(state, actor, greedy_move(rules, state, actor, rng))
        out = rules.outcome(state)
        if out is not None:
            wins += 1.0 if seat in out["winners"] else 0.5 if out["result"] == "draw" else 0.0
            scores = out.get("scores") or []
            reached += float(scores[seat]) if seat < len(scores) else 0.0
    return {"share": wins / playouts, "score": reached / playouts, "value": judged / playouts,
            "playouts": playouts}


def estimate(rules, view: dict, seat: int, seed: int = 0, playouts: int = PLAYOUTS,
             moves_made: int = 0) -> tuple[float | None, float | None]:
    """``(chance, margin)``: the seat's chance of winning from this view, the playouts'
    statistics through the game's calibration map (``calibration.chance``), and the
    half-width of its 95 % interval; ``moves_made`` is how many moves the game has seen
    (the map reads how far the game is).  ``(None, None)`` without a determinizer."""
    stats = playout_stats(rules, view, seat, seed, playouts)
    if stats is None:
        return None, None
    return calibration.chance(rules, stats, moves_made)


def win_chance(rules, view: dict, seat: int, seed: int = 0, playouts: int = PLAYOUTS,
               moves_made: int = 0) -> float | None:
    """The seat's calibrated chance of winning from this view (``estimate`` without its
    margin)."""
    return estimate(rules, view, seat, seed, playouts, moves_made)[0]


def margin(chance: float | None, playouts: int = PLAYOUTS) -> float | None:
    """Half the width of the 95 % Wilson interval of a chance estimated by ``playouts``
    playouts (never zero: 0 wins in 32 still leaves up to about 11 %)."""
    if chance is None or playouts <= 0:
        return None
    z = 1.96
    n = playouts
    spread = z * math.sqrt(chance * (1 - chance) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    centre = (chance + z * z / (2 * n)) / (1 + z * z / n)
    return max(centre + spread - chance, chance - (centre - spread))


def mark(row: dict) -> str | None:
    """"blunder", "mistake", "inaccuracy" or None for a reviewed move: how much chance a move
    that differs from the advice gave away."""
    before, after = row.get("win_before"), row.get("win_after")
    if not row.get("differs") or before is None or after is None:
        return None
    for name, drop in MARKS:
        if before - after >= drop - 1e-9:
            return name
    return None


def summary(rows: list[dict]) -> dict:
    """How many moves differ from the advice, how many were not reviewed in time, and how
    many of each mark."""
    counts = {name: 0 for name, _ in MARKS}
    for row in rows:
        if row.get("mark"):
            counts[row["mark"]] += 1
    return {"moves": len(rows), "differs": sum(1 for r in rows if r.get("differs")),
            "unreviewed": sum(1 for r in rows if r.get("differs") is None), **counts}


def review(rules, seed: int, players: int, options: dict | None, record: list, seat: int = 0,
           bot_seed: int = 0, playouts: int = PLAYOUTS, deck: list[str] | None = None,
           deadline: float | None = None, iterations: int | None = None,
           advice_deadline: float | None = None) -> list[dict]:
    """For each of ``seat``'s moves in ``record`` (the game's ``(seat, move)`` log): ``{"n",
    "move", "words", "bot_move", "bot_words", "differs", "win_before", "win_after",
    "margin_before", "margin_after", "mark"}``; the advice at move ``n`` is the hint's
    (``advice_seed(bot_seed, n)``, the same ``iterations``); win chances are shares in [0, 1]
    with the half-width of their 95 % interval.  A long game's review stays bounded: the
    advice is asked first, move after move, until ``advice_deadline`` (a ``time.time()``;
    the moves after it get ``bot_move`` and ``differs`` None, "not reviewed"), then the
    chances until ``deadline`` (None after it, and where a game has no determinizer).
    A position's chance is estimated once: a move's "after" is the next one's "before"
    when nobody else moved between."""
    import time

    state = rules.new_game(seed, players, options, deck)
    rows, views = [], []
    for n, (who, move) in enumerate(record):
        if who == seat:
            view = rules.view(state, seat)
            moves = rules.legal_moves(state, seat)
            bot = bot_words = differs = None
            if advice_deadline is None or time.time() <= advice_deadline:
                bot, _ = advise(rules, view, moves, seat, advice_seed(bot_seed, n), iterations)
                bot_words = rules.describe_move(state, seat, bot)
                differs = not same_move(rules, bot, move) and move in playable(moves)
            words = rules.describe_move(state, seat, move)
        state = rules.apply(state, who, move)
        if who == seat:
            out = rules.outcome(state)
            final = None
            if out is not None:
                final = 1.0 if seat in out["winners"] else 0.5 if out["result"] == "draw" else 0.0
            views.append((view, rules.view(state, seat) if final is None else None, final))
            rows.append({"n": n, "move": move, "words": words, "bot_move": bot, "bot_words": bot_words,
                         "differs": differs})

    chances: dict[tuple[str, int], tuple[float | None, float | None]] = {}

    def chance(view: dict, moves_made: int) -> tuple[float | None, float | None]:
        key = (move_key(view), moves_made)
        if key not in chances:
            if deadline is not None and time.time() > deadline:
                return None, None
            chances[key] = estimate(rules, view, seat, bot_seed, playouts, moves_made)
        return chances[key]

    for row, (before_view, after_view, final) in zip(rows, views):
        before, before_margin = chance(before_view, row["n"])
        after, after_margin = (final, 0.0) if final is not None else chance(after_view, row["n"] + 1)
        row.update({"win_before": before, "win_after": after,
                    "margin_before": before_margin, "margin_after": after_margin})
        row["mark"] = mark(row)
    return rows


def same_move(rules, a: dict, b: dict) -> bool:
    """Whether two moves are the same, whatever the order of a move's cards."""
    return move_key(rules.normalise_move(a)) == move_key(rules.normalise_move(b))
