"""The Starfield as the 2021 prototype plays it (Lovers' Discourse 2021, Warring Planets
2021): the final editions' board (``starfield.py``) with the holes lifted Minors leave on
each Material Plane, The Fool that never resolves, and Warring Planets' two scores."""

from __future__ import annotations

from games.presenters.common import Presentation, plane_with_holes

from . import presenter as starfield


def present(rules, state, view, seat, moves, pick) -> Presentation:
    planes = view.get("planes") or [[], []]
    solid = {**view, "planes": [[[c for c in col if c is not None] for col in p] for p in planes]}
    show = starfield.present(rules, state, solid, seat, moves, pick)
    order = [seat, 1 - seat] if seat in (0, 1) else [0, 1]
    plane_with_holes([planes[owner] for owner in order], show.planes)
    board = view.get("board") or {}
    for cell in show.cells:
        entry = board.get(cell["id"])
        if isinstance(entry, dict) and entry.get("never"):
            cell["status"] = "The Fool: takes no Minor, never resolves"
        # The final board's "Guard, yours" and "facing theirs", said as a player says them.
        cell["status"] = (cell["status"].replace("Guard, yours", "your Guard").replace("Guard, theirs", "their Guard")
                          .replace("facing yours", "facing you").replace("facing theirs", "facing them"))
    # A forfeit is legal at any time but is the page's own "Give up" button: it does not make
    # it the seat's turn (no "Pick a highlighted card" while the rival is to play).
    show.can_act = any(m.get("type") != "forfeit" for m in moves)
    scores = view.get("scores")
    if rules.slug.startswith("warring_planets") and seat in (0, 1) and isinstance(scores, list):
        # Rivals keep two scores even when they are level.
        show.facts = [f for f in show.facts if f[0] not in ("Score", "Your score", "Theirs")]
        show.facts[:0] = [("Your score", scores[seat]), ("Theirs", scores[1 - seat])]
    return show


reading_layout = starfield.reading_layout
