"""Tarot Hallow on the page and in the journal.

The table itself is shown by the generic board for now (hand, played cards and moves as
buttons); the journal lays out each player's own reading: the top card of their three
slots, with its orientation, and the rounds as a short tale."""

from __future__ import annotations

from games.engine import cards as deck

from .common import outcome_summary
from .generic import present  # noqa: F401  (this board's page is the generic one)

ABOUT = {
    "shadows": "what works unseen",
    "magick": "what you can bring about",
    "monster": "what stands against you",
}


def reading_layout(engine: dict, outcome: dict | None, seat: int | None = None) -> dict:
    seats = engine.get("seats") or []
    own = next((s for s in seats if s.get("seat") == seat), seats[0] if seats else {"positions": []})
    positions = [{
        "id": pos["id"], "label": pos.get("name") or pos["id"].title(), "question": ABOUT.get(pos["id"], ""),
        "meaning": "", "card": pos["card"], "reversed": bool(pos.get("reversed")), "minors": [], "note": "",
    } for pos in own.get("positions", []) if deck.is_card(pos.get("card"))]
    story = [f"Round {event['round']}: Seat {event['winner']} took {deck.label(event['major'])}."
             if event.get("winner") is not None else
             f"Round {event['round']}: {deck.label(event['major'])} left the game."
             for event in engine.get("story", []) if deck.is_card(event.get("major"))]
    return {"layout": "spread",
            "sections": [{"id": "reading", "title": "Your reading", "about": "The top card of each of your slots.",
                          "positions": positions}],
            "story": story, "summary": outcome_summary(outcome)}
