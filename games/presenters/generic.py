"""A game without a board presenter of its own: its cards in hand and its moves as buttons."""

from __future__ import annotations

from games.engine import cards as deck
from .common import Presentation, card_info, choices_for, presentation, outcome_summary


def present(rules, state, view, seat, moves, pick) -> Presentation:
    pickable, pick, picked_choices, actions = choices_for(rules, state, seat, moves, pick)
    hand = view.get("hand") if isinstance(view.get("hand"), list) else None
    # A card a move names but the hand does not hold is offered beside it, so every legal
    # move can be clicked.
    rest = [c for c in pickable if c not in (hand or [])]
    rows = [{"title": "Also to choose from", "cards": [card_info(c, pickable=True, picked=c == pick) for c in rest]}
            ] if rest else []
    return presentation(
        view, moves, pick, picked_choices, actions,
        board_kind="",
        hand=[card_info(c, pickable=c in pickable, picked=c == pick) for c in hand] if hand is not None else None,
        hand_count=view.get("hand_count"),
        rows=rows,
    )


# --- the journal's reading ------------------------------------------------------------------


def reading_layout(engine: dict, outcome: dict | None, seat: int | None = None) -> dict:
    """A mode without a dedicated layout yet: its reading's cards, in the engine's order."""
    positions = []
    for i, pos in enumerate(engine.get("positions", []) or []):
        card = pos.get("card") or pos.get("major")
        if not deck.is_card(card):
            continue
        positions.append({
            "id": str(pos.get("space") or pos.get("id") or f"p{i + 1}")[:40],
            "label": pos.get("name") or pos.get("label") or f"Card {i + 1}",
            "question": pos.get("question", ""), "meaning": pos.get("meaning", ""), "card": card,
            "reversed": bool(pos.get("reversed")), "minors": [
                {"card": m, "reversed": False} for m in pos.get("minors", []) if deck.is_card(m)
            ], "note": "",
        })
    if not positions:
        positions = [{"id": f"c{i + 1}", "label": f"Card {i + 1}", "question": "", "meaning": "", "card": c,
                      "reversed": False, "minors": [], "note": ""}
                     for i, c in enumerate(engine.get("cards", []) or []) if deck.is_card(c)]
    return {"layout": "spread",
            "sections": [{"id": "reading", "title": "The reading", "about": "", "positions": positions}],
            "story": [str(line) for line in engine.get("story", []) or []], "summary": outcome_summary(outcome)}
