"""Tarot Hallow on the page and in the journal.

The page is a table: the Major in play in the middle, every seat around it (you first,
then clockwise) with its hand count, whether it has played this round (a face-down card)
and its Reading's three slots; the cards of the reveal side by side with the winner named;
your hand to pick from.  Everything comes from the seat's view, which never holds another
seat's hand or a card played face down and not yet revealed, so nothing here can show one.
Seats are named "Seat N" here; the page turns those into "you" and the players' names.

The journal lays out each player's own reading: the top card of their three slots with
its orientation, and the rounds as a short tale."""

from __future__ import annotations

from games.engine import cards as deck
from games.engine.words import log_sentence
from games.presenters.common import Presentation, card_info, card_back, choices_for, outcome_summary, presentation

from .rules import HOUSE_SLOTS, SLOT_NAMES, SLOTS, card_score, reversed_score, upright_score


ABOUT = {
    "shadows": "what works unseen",
    "magick": "what you can bring about",
    "monster": "what stands against you",
}


def _slot(stack: list[dict], slot: str) -> dict:
    top = stack[-1] if stack else None
    return {"id": slot, "name": SLOT_NAMES[slot], "card": card_info(top["card"]) if top else None,
            "reversed": bool(top and not top["upright"]), "under": max(len(stack) - 1, 0),
            "score": card_score(top["card"], top["upright"]) if top else 0}


def _steps(steps: list[list[dict]]) -> list[dict]:
    return [{"title": "Played" if i == 0 else f"Tie, played again ({i})",
             "cards": [{"name": f"Seat {e['seat']}", "card": card_info(e["card"])} for e in step]}
            for i, step in enumerate(steps)]


def table_of(view: dict) -> dict:
    me = view.get("seat")
    n = view["players"]
    start = me if isinstance(me, int) else 0
    seats = []
    for s in ((start + i) % n for i in range(n)):
        if s in view["waiting"]:
            status = "to play"
        elif view["has_played"][s]:
            status = "played face down"
        elif view["phase"] == "play" and s not in view["contest"]:
            status = "out of this contest"
        else:
            status = ""
        played = None
        if view["has_played"][s]:
            played = card_info(view["your_card"]) if s == me and view["your_card"] else card_back(
                "A card played face down")
        seats.append({
            "index": s, "name": f"Seat {s}", "me": s == me, "dealer": s == view["dealer"],
            "hand_count": view["hand_counts"][s], "status": status, "played": played,
            "to_act": s in view["to_act"], "score": view["scores"][s],
            "slots": [_slot(view["readings"][s][slot], slot) for slot in SLOTS],
        })
    major = view.get("major")
    reveal = None
    if view["revealed"]:
        reveal = {"title": f"Round {view['round']}: revealed", "steps": _steps(view["revealed"]),
                  "winner": f"Seat {view['winner']}" if view["winner"] is not None else ""}
    elif view.get("last_round"):
        last = view["last_round"]
        reveal = {"title": f"Round {last['number']}: {deck.label(last['major'])}",
                  "steps": _steps(last["revealed"]),
                  "winner": f"Seat {last['winner']}" if last["winner"] is not None else "",
                  "removed": last["winner"] is None}
    return {
        "major": card_info(major) if major else None,
        "major_slot": SLOT_NAMES[HOUSE_SLOTS[major]] if major in HOUSE_SLOTS else "any slot",
        "major_scores": (f"+{upright_score(major)} upright, {reversed_score(major)} reversed"
                         if major in HOUSE_SLOTS else "1 point"),
        "round": view["round"], "fool_round": view["fool_round"],
        "majors_left": view["majors_left"], "fool_under_pile": view["fool_under_pile"],
        "deck_count": view["deck_count"], "discard_count": len(view["discard"]),
        "seats": seats, "reveal": reveal, "narrow": n > 3,
        "powers": [{"name": f"Seat {p['seat']}", "card": card_info(p["card"])} for p in view["powers"]],
    }


def present(rules, state, view, seat, moves, pick) -> Presentation:
    pickable, pick, picked_choices, actions = choices_for(rules, state, seat, moves, pick)
    hand = view.get("hand") if isinstance(view.get("hand"), list) else None
    # The Majors a Page, Queen or King may act on are picked from the table's Readings;
    # listed by the hand too, so every legal move can be clicked.
    rest = [c for c in pickable if c not in (hand or [])]
    rows = [{"title": "Majors your power may act on",
             "cards": [card_info(c, pickable=True, picked=c == pick) for c in rest]}] if rest else []
    prompts = {"play": "Choose a card to play face down.", "place": "You won the Fool: choose its slot.",
               "power": "Use your court card's power, or decline it."}
    powers = {"P": "pick a Major on another player's Reading, then the Reading it moves to.",
              "N": "choose the two cards you give and to whom; you take two of theirs at random.",
              "Q": "pick another player's Major to turn over.",
              "K": "pick one of your Majors to turn over."}
    if view["phase"] == "power" and view["powers"]:
        court = view["powers"][0]["card"]
        prompts["power"] = f"Your {deck.CARDS[court].name}: {powers[court[0]]} Or decline it."
    show = presentation(
        view, moves, pick, picked_choices, actions,
        board_kind="hallow",
        hand=[card_info(c, pickable=c in pickable, picked=c == pick) for c in hand] if hand is not None else None,
        rows=rows, table=table_of(view),
    )
    show.prompt = prompts.get(view["phase"], "") if moves else ""
    hints = {"play": "Pick a card of your hand: it goes face down on the table, and nobody sees it "
                     "until every seat has played.",
             "place": "Pick the Fool, then the slot of your Reading it goes to.",
             "power": "Pick a highlighted card to use your court card's power on it, or decline."}
    show.hint = hints.get(view["phase"], show.hint)
    # The rounds as they went, in sentences (the engine's log as this seat may read it).
    show.events = [log_sentence(entry, seat) for entry in view.get("log") or [] if isinstance(entry, dict)]
    return show


# --- the journal ----------------------------------------------------------------------------


def reading_layout(engine: dict, outcome: dict | None, seat: int | None = None) -> dict:
    seats = engine.get("seats") or []
    own = next((s for s in seats if s.get("seat") == seat), seats[0] if seats else {"positions": []})
    positions = [{
        "id": pos["id"], "label": pos.get("name") or pos["id"].title(), "question": ABOUT.get(pos["id"], ""),
        "meaning": "", "card": pos["card"], "reversed": bool(pos.get("reversed")), "minors": [],
        "note": f"{'reversed' if pos.get('reversed') else 'upright'}, {pos.get('score', 0):+d}",
    } for pos in own.get("positions", []) if deck.is_card(pos.get("card"))]
    story = []
    for event in engine.get("story", []):
        if not deck.is_card(event.get("major")):
            continue
        if event.get("winner") is None:
            story.append(f"Round {event['round']}: {deck.label(event['major'])} left the game.")
        else:
            story.append(f"Round {event['round']}: Seat {event['winner']} took {deck.label(event['major'])}.")
    taken = [deck.label(c) for c in own.get("won", []) if deck.is_card(c)]
    about = "The top card of each of your slots: Shadows, Magick and Monster."
    if taken:
        # The Majors this seat's bids took, in the story's own verb: "won" would read as
        # the game's result, which a seat that took Majors may still have lost.
        about += " You took " + (", ".join(taken[:-1]) + " and " + taken[-1] if len(taken) > 1 else taken[0]) + "."
    return {"layout": "spread",
            "sections": [{"id": "reading", "title": "Your reading", "about": about, "positions": positions}],
            "story": story, "summary": outcome_summary(outcome)}
