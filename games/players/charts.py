"""A rating's history as the numbers of a small SVG chart, drawn by the profile's template
(no script: the page is whole without JavaScript, and a table beside it says the same).

The chart shows, game after game, the rating people read (the cautious estimate) as a
line, over a band of where the player's skill likely lies (the estimate, give or take three
deviations): the band narrows as games are played, and the line is its lower edge."""

from __future__ import annotations

import math

from games.ratings.models import SCALE, shown

# The viewBox; the SVG scales to the width of its box.
WIDTH, HEIGHT = 600, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 30
# openskill's newcomer: mean 25, deviation 25/3.
START_MU, START_SIGMA = 25.0, 25.0 / 3


def _nice_top(value: float) -> int:
    return max(100, int(math.ceil(value / 100.0)) * 100)


def rating_chart(changes: list, title: str) -> dict | None:
    """The chart of ``changes`` (RatingChange rows, oldest first), or None without any.
    A history that starts at the first game begins at the newcomer's point (game 0)."""
    if not changes:
        return None
    points = [(c.games, c.mu, c.sigma) for c in changes]
    if points[0][0] == 1:
        points.insert(0, (0, START_MU, START_SIGMA))
    rows = [{"games": g, "shown": shown(mu, sigma), "estimate": round(mu * SCALE),
             "margin": round(3 * sigma * SCALE)} for g, mu, sigma in points]
    top = _nice_top(max(r["estimate"] + r["margin"] for r in rows))
    first, last = rows[0]["games"], rows[-1]["games"]
    span = max(1, last - first)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(games: int) -> float:
        # One point alone stands in the middle.
        return round(LEFT + (inner_w / 2 if last == first else (games - first) * inner_w / span), 1)

    def y(value: float) -> float:
        return round(TOP + inner_h - max(0.0, min(value, top)) * inner_h / top, 1)

    line = " ".join(f"{x(r['games'])},{y(r['shown'])}" for r in rows)
    upper = [f"{x(r['games'])},{y(r['estimate'] + r['margin'])}" for r in rows]
    lower = [f"{x(r['games'])},{y(max(0, r['estimate'] - r['margin']))}" for r in reversed(rows)]
    ticks = [{"value": v, "y": y(v)} for v in range(0, top + 1, max(100, top // 4 // 100 * 100))]
    now = rows[-1]
    return {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "bottom": HEIGHT - BOTTOM,
        "line": line, "band": " ".join(upper + lower), "ticks": ticks,
        "dots": [{"x": x(r["games"]), "y": y(r["shown"])} for r in rows] if len(rows) <= 30 else [],
        "first": {"x": x(first), "label": f"game {first}" if first else "start"},
        "last": {"x": x(last), "label": f"game {last}"},
        "rows": rows,
        "summary": (f"{title}: from {rows[0]['shown']} ({'the start' if first == 0 else f'after game {first}'}) "
                    f"to {now['shown']} after game {last}; the likely range of skill narrowed from "
                    f"±{rows[0]['margin']} to ±{now['margin']}."),
    }
