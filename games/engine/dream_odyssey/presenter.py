"""Dream Odyssey: the Tree of Life as a journey.  Each Sefira shows whether it is won,
within reach or not yet, its Major (face up once reached), the size of its stack of Minors
and the one card on top that may be seen; the traveller's position; the encounter being
fought; the cards waiting to be laid on the discard pile; the hand, the Party of court cards
and the wounds."""

from __future__ import annotations

from games.engine import tree as tree_board

from games.engine import cards as deck
from games.presenters.common import Presentation, card_back, card_info, choices_for, option_facts, presentation, segment, outcome_summary

# Short words: the space is small on a phone, and a face-down Major is drawn as a card back.
STATUS = {"won": "won", "attainable": "in reach", "unattainable": "out of reach"}


def present(rules, state, view, seat, moves, pick) -> Presentation:
    pickable, pick, picked_choices, actions = choices_for(rules, state, seat, moves, pick)
    # A move that targets a space without a card (travel) is made by clicking the space.
    targets = {c.target: c for c in picked_choices if c.target}
    for choice in actions:
        if choice.target and choice.move.get("type") in ("travel", "target"):
            targets.setdefault(choice.target, choice)
    shown: set[str] = set()

    def cards(codes):
        codes = [c for c in codes if isinstance(c, str)]  # empty wound fields are None
        shown.update(codes)
        return [card_info(c, pickable=c in pickable, picked=c == pick) for c in codes]

    position = view.get("position")
    cells = []
    for node, (x, y) in tree_board.LAYOUT.items():
        if tree_board.is_grace(node):
            continue
        cell = {"id": node, "dom": node, "name": tree_board.SPACE_NAMES.get(node, node), "x": x + 1, "y": y + 1,
                "kind": "root" if node == tree_board.ROOT else "sefira", "majors": [], "minors": [],
                "target": targets.get(node), "status": "", "here": node == position}
        space = (view.get("spaces") or {}).get(node)
        if isinstance(space, dict):
            status = STATUS.get(space.get("status"), space.get("status") or "")
            if space.get("major"):
                cell["majors"] = cards([space["major"]])
            elif space.get("major_face_up") is False and space.get("status") != "won":
                cell["majors"] = [card_back("A face-down Major")]
            if space.get("stack_top"):
                cell["minors"] = cards([space["stack_top"]])
            if space.get("stack_count"):
                status += f" · {space['stack_count']} below"
            cell["status"] = status
            if space.get("status") == "won":
                cell["kind"] += " resolved"
        if node in ("sun", "moon"):
            cell["kind"] += " special"
        cells.append(cell)
    lines = [segment(tree_board.LAYOUT[a], tree_board.LAYOUT[b]) for a, b in tree_board.BRANCHES]

    encounter = []
    fight = view.get("encounter")
    if isinstance(fight, dict):
        for slot in fight.get("slots") or []:
            status = slot.get("state", "")
            if slot.get("strength") is not None:
                status += f", strength {slot['strength']}"
            encounter.append({
                "id": slot["id"], "dom": slot["id"].replace(":", "-"), "name": "", "x": 0, "y": 0, "kind": "slot",
                "majors": cards([slot["card"]]) if slot.get("card") else [],
                "minors": cards([c for c in [slot.get("pip")] + list(slot.get("boosts") or []) if c]),
                "status": status, "target": targets.get(slot["id"]), "here": False,
            })

    rows = []
    for key, title in (("party", "Your Party"), ("wounds", "Wounds")):
        if view.get(key):
            rows.append({"title": title, "cards": cards(view[key])})
    choice = view.get("choice") or {}
    if isinstance(choice, dict) and choice.get("cards"):
        rows.append({"title": "Cards you are looking at", "cards": cards(choice["cards"])})
    # Cards leaving together (an encounter's end, say), laid on the discard pile one at a
    # time: picked like any card, above the hand.  A spectator who never saw them (a hand,
    # a face-down stack) gets only their number, with the piles.
    discarding = view.get("discarding")
    waiting = cards(discarding) if isinstance(discarding, list) else []
    hand = view.get("hand")
    hand_info = cards(hand) if isinstance(hand, list) else None
    # Anything else a move names (a card in the discard pile for The Gate, say) is shown
    # here, so every legal move can be clicked.
    rest = [c for c in pickable if c not in shown]
    if rest:
        rows.append({"title": "Also to choose from", "cards": cards(rest)})

    piles = [{"title": "Minors deck", "count": view.get("minors_deck_count"), "cards": None},
             {"title": "Majors deck", "count": view.get("majors_deck_count"), "cards": None}]
    for key, title in (("minors_discard", "Minors discarded"), ("majors_discard", "Majors discarded")):
        if view.get(key):
            piles.append({"title": title, "count": len(view[key]), "cards": [card_info(c) for c in view[key]]})
    if view.get("discarding_count") and not isinstance(discarding, list):
        piles.append({"title": "Waiting to be discarded", "count": view["discarding_count"], "cards": None})
    facts = [("At", tree_board.SPACE_NAMES.get(position, position))] if position else []
    if view.get("score") is not None:
        facts.append(("Score", view["score"]))
    return presentation(
        view, moves, pick, picked_choices, actions,
        events_from="tale",
        board_kind="tree",
        hand=hand_info,
        hand_count=view.get("hand_count"),
        waiting=waiting,
        waiting_label=("To the discard pile, one at a time (the last placed ends on top)"
                       if view.get("phase") == "discarding" else "On their way to the discard pile"),
        cells=cells,
        lines=lines,
        board_width=5,
        board_height=8,
        rows=rows,
        encounter=encounter,
        encounter_title=f"Encounter at {tree_board.SPACE_NAMES.get(fight.get('space'), fight.get('space'))}"
        if isinstance(fight, dict) else "",
        piles=piles,
        facts=facts + option_facts(view),
    )


# --- the journal's reading ------------------------------------------------------------------


def reading_layout(engine: dict, outcome: dict | None, seat: int | None = None) -> dict:
    """The Crown sought, the Party that stood with you there, the Majors gained, the tale."""
    world = engine.get("landscape") or {}
    crown = (engine.get("crown") or {}).get("card")
    sections = [{"id": "crown", "title": "The Crown",
                 "about": f"The dream: {world.get('landscape', 'a landscape')} ({world.get('type', '')}).".replace(" ()", ""),
                 "positions": [{"id": "crown", "label": "The Crown", "meaning": "",
                                "question": "Whose blessing or wisdom did you seek, and what would it give you?",
                                "card": crown, "reversed": False, "minors": [], "note": ""}]}]
    party = [c for c in engine.get("crown_party", []) if deck.is_card(c)]
    if party:
        sections.append({"id": "party", "title": "The Party at the Crown",
                         "about": "The companions who stood with you in the Crown's encounters.",
                         "positions": [{"id": f"party{i}", "label": deck.label(c), "meaning": "",
                                        "question": "Who is this companion to you?", "card": c,
                                        "reversed": False, "minors": [], "note": ""}
                                       for i, c in enumerate(party)]})
    gained = [g for g in engine.get("majors_gained", []) if deck.is_card(g.get("card"))]
    if gained:
        sections.append({"id": "gained", "title": "Majors gained on the way",
                         "about": "Powers you carried through the dream.",
                         "positions": [{"id": f"gained{i}", "label": deck.label(g["card"]), "meaning": "",
                                        "question": "Which step of your journey does this mark?",
                                        "card": g["card"], "reversed": False, "minors": [],
                                        "note": f"Gained: {g.get('from', '')}." if g.get("from") else ""}
                                       for i, g in enumerate(gained)]})
    return {"layout": "tale", "sections": sections,
            "story": [str(line) for line in engine.get("tale", []) or []], "summary": outcome_summary(outcome),
            "seal": [c for c in engine.get("cards", []) if deck.is_card(c)]}
