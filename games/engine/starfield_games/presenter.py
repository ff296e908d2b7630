"""The Starfield (Lovers' Discourse, Warring Planets): thirteen spaces in three columns
joined by the Ouroboros rings, turned so that the viewer's own edge is at the bottom;
each seat's Material Plane; Gift Fields and Guards where the game has them."""

from __future__ import annotations

from games.engine import starfield as sf

from games.engine import cards as deck
from games.presenters.common import Presentation, card_back, card_info, choices_for, option_facts, presentation, segment, outcome_summary

WIDTH, HEIGHT = 5, 7
COLUMN_TITLES = ("Column 1", "Column 2", "Column 3")


def _whose(seat_of_card, viewer) -> str:
    if seat_of_card is None:
        return ""
    if viewer is None:
        return f"seat {seat_of_card + 1}"
    return "yours" if seat_of_card == viewer else "theirs"


def present(rules, state, view, seat, moves, pick) -> Presentation:
    pickable, pick, picked_choices, actions = choices_for(rules, state, seat, moves, pick)
    targets = {c.target: c for c in picked_choices if c.target}

    def cards(codes):
        return [card_info(c, pickable=c in pickable, picked=c == pick) for c in codes]

    layout = sf.layout_for(seat)
    board = view.get("board") or {}
    gifts = view.get("gifts") or {}
    cells = []
    for space in sf.SPACES + (sf.GIFT_FIELDS if "gifts" in view else ()):
        x, y = layout[space]
        cell = {"id": space, "dom": space.replace(":", "-"), "x": x + 1, "y": y + 1, "majors": [], "minors": [], "status": "",
                "kind": "gift" if sf.is_gift(space) else "star", "target": targets.get(space)}
        if sf.is_gift(space):
            owner = sf.seat_of_gift(space)
            cell["name"] = f"Gift Field of {sf.GIFT_NAMES[space]} ({_whose(owner, seat)})"
            held = gifts.get(space)
            if isinstance(held, dict) and held.get("card"):
                cell["majors"] = cards([held["card"]])
            elif isinstance(held, dict) and held.get("locked"):
                cell["majors"] = [card_back()]
                cell["status"] = "locked"
        else:
            cell["name"] = space + (" (centre)" if space == sf.CENTRAL else "")
            entry = board.get(space)
            if isinstance(entry, dict) and entry.get("guard"):
                cell["majors"] = [card_info(entry["guard"])]
                cell["status"] = f"Guard, {_whose(entry.get('facing'), seat)}"
                cell["kind"] += " guard"
            elif isinstance(entry, dict) and entry.get("majors"):
                cell["majors"] = [card_info(c) for c in entry["majors"]]
                cell["minors"] = cards(entry.get("minors") or [])
                if entry.get("resolved"):
                    cell["status"] = "resolved"
                elif entry.get("capacity") is None:
                    cell["status"] = "takes any one Minor"
                else:
                    cell["status"] = f"{entry.get('total', 0)} of {entry['capacity']}"
                facing = entry.get("facing")
                if facing is not None:
                    cell["status"] += f", facing {_whose(facing, seat)}"
        cells.append(cell)
    lines = [segment(layout[a], layout[b]) for a, b in sf.EDGES]

    # The viewer's own plane first; both are face up on the table.
    planes = []
    order = [seat, 1 - seat] if seat in (0, 1) else [0, 1]
    for owner in order:
        columns_data = (view.get("planes") or [[], []])[owner]
        mine = owner == seat
        columns = []
        for index, column in enumerate(columns_data):
            target = targets.get(f"column:{index}") if mine else None
            columns.append({"index": index, "title": COLUMN_TITLES[index] if index < 3 else f"Column {index + 1}",
                            "cards": cards(column), "target": target})
        planes.append({"title": "Your Material Plane" if mine else "Material Plane across the table",
                       "columns": columns, "rows": max((len(c["cards"]) for c in columns), default=0)})

    piles = [{"title": "Deck", "count": view.get("deck_count"), "cards": None}]
    if "discard" in view:
        piles.append({"title": "Discard pile", "count": len(view["discard"]),
                      "cards": [card_info(c) for c in view["discard"]]})
    elif view.get("discard_count") is not None:
        piles.append({"title": "Discard pile (face down)", "count": view["discard_count"], "cards": None})
    if view.get("out"):
        piles.append({"title": "Out of the game", "count": len(view["out"]), "cards": [card_info(c) for c in view["out"]]})
    counts = view.get("hand_counts") or []
    for owner, count in enumerate(counts):
        if owner != seat:
            piles.append({"title": "Cards in the other hand", "count": count, "cards": None})

    facts = []
    scores = view.get("scores")
    if isinstance(scores, list) and seat in (0, 1) and len(scores) == 2:
        if scores[0] == scores[1] and rules.slug != "warring_planets":
            facts.append(("Score", scores[seat]))  # co-operative: one shared score
        else:
            facts.append(("Your score", scores[seat]))
            facts.append(("Theirs", scores[1 - seat]))
    facts += option_facts(view)

    hand = view.get("hand")
    return presentation(
        view, moves, pick, picked_choices, actions,
        board_kind="starfield",
        hand=cards(hand) if isinstance(hand, list) else None,
        hand_count=None,
        waiting=cards(view.get("waiting") or []),
        waiting_label="Raised cards waiting for a place",
        cells=cells,
        lines=lines,
        board_width=WIDTH,
        board_height=HEIGHT,
        planes=planes,
        piles=piles,
        facts=facts,
    )


# --- the journal's reading ------------------------------------------------------------------


def reading_layout(engine: dict, outcome: dict | None, seat: int | None = None) -> dict:
    """Lovers' Discourse and Warring Planets: the engine already groups its reading into the
    event spread (or the conflict story), the sacred columns and the Ouroboros rings."""
    sections = []
    for index, section in enumerate(engine.get("sections", [])):
        positions = []
        for pos in section.get("positions", []):
            majors = [c for c in pos.get("cards") or ([pos["card"]] if pos.get("card") else []) if deck.is_card(c)]
            # The event spread keeps its empty places (an event that never happened says
            # something too); the board methods list only spaces that hold a card.
            if not majors and index > 0:
                continue
            note = ""
            if len(majors) > 1:
                note = "Shares the space with " + " and ".join(deck.label(c) for c in majors[1:]) + "."
            elif not majors:
                note = "This did not happen in the game."
            positions.append({
                "id": str(pos.get("id") or pos.get("space"))[:40], "label": pos.get("label", ""),
                "question": pos.get("question", ""), "meaning": pos.get("meaning", ""),
                "card": majors[0] if majors else None, "reversed": False,
                "minors": [{"card": m, "reversed": False} for m in pos.get("minors", []) if deck.is_card(m)],
                "note": note,
            })
        if positions:
            sections.append({"id": section.get("id", f"s{index}"), "title": section.get("title", ""),
                             "about": section.get("about", ""), "positions": positions})
    return {"layout": "starfield", "sections": sections,
            "story": [str(line) for line in engine.get("story", []) or []], "summary": outcome_summary(outcome),
            "seal": [c for c in engine.get("cards", []) if deck.is_card(c)]}
