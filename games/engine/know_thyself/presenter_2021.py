"""The Tree of Life as the 2021 prototype plays it (Know Thyself 2021): the final edition's
board (``tree.py``) with what the prototype adds: holes left on the Material Plane by
lifted Minors, bridges drawn between their two spaces (their Minors in a row of their
own), The Fool off Knowledge that never resolves, and a Freethought reading marked
tainted."""

from __future__ import annotations

from games.engine import tree as tree_board
from games.presenters.common import Presentation, card_info, plane_with_holes, segment

from . import presenter as tree
from .rules_2021 import bridge_spaces, space_name

NO_SPACES = ("sun", "moon")


def present(rules, state, view, seat, moves, pick) -> Presentation:
    solid = {**view, "plane": [[c for c in col if c is not None] for col in view.get("plane") or []]}
    show = tree.present(rules, state, solid, seat, moves, pick)
    plane_with_holes([view.get("plane") or []], show.planes)
    # The prototype's tree has no Sun and Moon spaces: the board is drawn without them.
    show.cells = [c for c in show.cells if c["id"] not in NO_SPACES]
    show.lines = [segment(tree_board.LAYOUT[a], tree_board.LAYOUT[b]) for a, b in tree_board.BRANCHES
                  if a not in NO_SPACES and b not in NO_SPACES]
    slots = view.get("tree") or {}
    bridges = view.get("bridges") or {}
    for cell in show.cells:
        slot = slots.get(cell["id"])
        if not slot:
            continue
        if slot.get("never"):
            cell["status"] = "The Fool: takes no Minor, never resolves"
        elif slot.get("bridge") and not slot.get("resolved"):
            b = bridges.get(slot["bridge"], {})
            cell["status"] = f"bridged: {b.get('value', 0) - b.get('needs', 0)} of {b.get('value', 0)}"
    for bid, b in bridges.items():
        a, c = bridge_spaces(bid)
        # Drawn over the branch between its two spaces, stronger than the plain branches.
        show.bridges.append(segment(tree_board.LAYOUT[a], tree_board.LAYOUT[c]))
        state_words = "resolved" if b["resolved"] else f"{b['value'] - b['needs']} of {b['value']}"
        title = space_name(bid)
        show.rows.append({"title": f"{title[0].upper()}{title[1:]} ({state_words})",
                          "cards": [card_info(m) for m in b["minors"]]})
    if view.get("tainted"):
        show.facts.append(("Reading", "tainted (Freethought)"))
    return show


def reading_layout(engine: dict, outcome: dict | None, seat: int | None = None) -> dict:
    layout = tree.reading_layout(engine, outcome, seat)
    for section in layout["sections"]:
        for pos in section["positions"]:
            match = next((p for p in engine.get("positions", []) if p.get("space") == pos["id"]), None)
            if match and match.get("bridge"):
                pos["note"] = (pos["note"] + " " if pos["note"] else "") + f"Its Minors lie on {space_name(match['bridge'])}."
    if engine.get("tainted"):
        layout["sections"].insert(0, {"id": "tainted", "title": "A tainted reading",
                                      "about": engine.get("taint", ""), "positions": []})
        layout["story"] = ["This reading is tainted: it was played in Freethought."] + list(layout.get("story") or [])
    return layout
