"""The Tree of Life (Know Thyself, Dream Odyssey): Sefira on a grid, the Material Plane as
columns, the hand and the raised cards waiting for a place."""

from __future__ import annotations

from games.engine import tree as tree_board

from games.engine import cards as deck  # noqa: F401
from games.presenters.common import Presentation, card_info, choices_for, option_facts, presentation, segment, outcome_summary

COLUMN_TITLES = ("Left Seeress", "Middle Seeress", "Right Seeress")


def present(rules, state, view, seat, moves, pick) -> Presentation:
    pickable, pick, picked_choices, actions = choices_for(rules, state, seat, moves, pick)
    targets = {c.target: c for c in picked_choices if c.target}

    def cards(codes):
        return [card_info(c, pickable=c in pickable, picked=c == pick) for c in codes]

    spaces = view.get("tree") or {}
    grace = list(view.get("grace") or [])
    cells = []
    for node, (x, y) in tree_board.LAYOUT.items():
        cell = {"id": node, "dom": node.replace(":", "-"), "name": tree_board.SPACE_NAMES.get(node, node), "x": x + 1, "y": y + 1,
                "kind": "root" if node == tree_board.ROOT else "grace" if tree_board.is_grace(node) else "sefira",
                "majors": [], "minors": [], "target": targets.get(node), "status": ""}
        slot = spaces.get(node)
        if isinstance(slot, dict) and slot.get("major"):
            cell["majors"] = [card_info(slot["major"])]
            cell["minors"] = cards(slot.get("minors") or [])
            if slot.get("resolved"):
                cell["status"] = "resolved"
            elif slot.get("value"):
                cell["status"] = f"{slot['value'] - max(slot.get('needs', 0), 0)} of {slot['value']}"
            else:
                cell["status"] = "takes any one Minor"
        elif tree_board.is_grace(node):
            held = grace[int(node[6:])] if int(node[6:]) < len(grace) else None
            if held:
                cell["majors"] = [card_info(held)]
        if node in ("sun", "moon"):
            cell["kind"] = "sefira special"
        cells.append(cell)

    lines = [segment(tree_board.LAYOUT[a], tree_board.LAYOUT[b]) for a, b in tree_board.BRANCHES]

    columns = []
    for index, column in enumerate(view.get("plane") or []):
        target = targets.get(f"column:{index}")
        columns.append({"index": index, "title": COLUMN_TITLES[index] if index < 3 else f"Column {index + 1}",
                        "cards": cards(column), "target": target})
    rows = max((len(c["cards"]) for c in columns), default=0)
    planes = [{"title": "Material Plane", "columns": columns, "rows": rows}] if columns else []

    hand = view.get("hand")
    piles = [{"title": "Deck", "count": view.get("deck_count"), "cards": None}]
    for key, title in (("discard", "Discard pile"), ("out", "Out of the game")):
        if view.get(key):
            piles.append({"title": title, "count": len(view[key]), "cards": [card_info(c) for c in view[key]]})

    facts = [("Score", view["score"])] if view.get("score") is not None else []
    return presentation(
        view, moves, pick, picked_choices, actions,
        board_kind="tree",
        hand=cards(hand) if isinstance(hand, list) else None,
        hand_count=view.get("hand_count"),
        waiting=cards(view.get("waiting") or []),
        waiting_label="Raised cards waiting for a place",
        cells=cells,
        lines=lines,
        board_width=5,
        board_height=8,
        planes=planes,
        piles=piles,
        facts=facts + option_facts(view),
    )


# --- the journal's reading ------------------------------------------------------------------


SOURCE_NOTES = {
    "hand": "Not placed during the game: taken from your hand to complete the reading.",
    "deck": "Not placed during the game: drawn from the deck to complete the reading.",
}


def reading_layout(engine: dict, outcome: dict | None, seat: int | None = None) -> dict:
    positions = []
    # The engine lists the Sefira from the root upwards; the page shows them as on the
    # board, the Crown at the top.
    for pos in reversed(engine.get("positions", [])):
        note = SOURCE_NOTES.get(pos.get("source") or "", "")
        if pos.get("source") == "tree":
            note = "Resolved on the Tree." if pos.get("resolved") else "Still unresolved when the game ended."
        positions.append({
            "id": pos["space"], "label": pos.get("name") or pos["space"], "question": pos.get("question", ""),
            "meaning": pos.get("meaning", ""), "card": pos.get("major"), "reversed": False,
            "minors": [{"card": m, "reversed": False} for m in pos.get("minors", [])], "note": note,
        })
    sections = [{"id": "central", "title": "The four central Sefirot",
                 "about": "The middle pillar of the Tree, from the Crown down to the Foundation.",
                 "positions": positions}]
    obstacle = engine.get("obstacle")
    if obstacle:
        sections.append({"id": "obstacle", "title": "The obstacle", "about": "", "positions": [{
            "id": "obstacle", "label": obstacle.get("name") or "The Obstacle",
            "question": obstacle.get("question", ""), "meaning": obstacle.get("meaning", ""),
            "card": obstacle["card"], "reversed": False, "minors": [], "note": "",
        }]})
    return {"layout": "tree", "sections": sections, "story": [],
            "summary": outcome_summary(outcome)}
