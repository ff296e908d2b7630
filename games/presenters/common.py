"""What every board presenter shares: cards as display data, moves as choices."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import CARDS, ROMAN, SUIT_NAMES
from games.engine.words import visible_cards  # noqa: F401  (presenters' callers used it from here)

SUIT_SIGNS = {"c": "cups", "s": "swords", "p": "pentacles", "w": "wands"}


def card_info(code: str, *, pickable: bool = False, picked: bool = False) -> dict:
    card = CARDS[code]
    major = card.arcana == "major"
    return {
        "code": code,
        "name": card.name,
        "major": major,
        "corner": ROMAN[card.number] if major else card.rank,
        "value": card.value,
        "suit": card.suit or "",
        "suit_name": SUIT_NAMES.get(card.suit, "Major Arcana"),
        "keyword": card.keyword,
        "court": (not major) and card.rank in ("P", "N", "Q", "K"),
        "pickable": pickable,
        "picked": picked,
    }


def card_back(label: str = "A face-down card") -> dict:
    """A card lying face down: drawn as the card back, named only by what it is."""
    return {"code": "back", "name": label, "major": False, "back": True, "corner": "", "value": "",
            "suit": "", "suit_name": "", "keyword": "", "court": False, "pickable": False, "picked": False}


@functools.lru_cache(maxsize=1024)
def segment(a: tuple[int, int], b: tuple[int, int]) -> tuple[str, ...]:
    """A line between the centres of two grid cells, as SVG numbers (never localised).
    Remembered: a board's lines are the same at every move, and every answer asks again."""
    return tuple(f"{v + 0.5:g}" for v in (a[0], a[1], b[0], b[1]))


@dataclass
class Choice:
    """One legal move as something to click: a form posting ``move`` as JSON."""

    move: dict
    label: str
    target: str = ""  # the board space / column id it highlights, if any

    @property
    def json(self) -> str:
        return json.dumps(self.move, sort_keys=True, separators=(",", ":"))


def target_of(move: dict) -> str:
    if "to" in move:
        return str(move["to"])
    if "column" in move:
        return f"column:{move['column']}"
    return ""


@dataclass
class Presentation:
    """Template context of one seat's view; every field is plain data."""

    board_kind: str  # "tree" | "starfield" | "" (no board of its own)
    prompt: str = ""
    hand: list | None = None  # card infos; None when the seat has no hand to see
    hand_count: int | None = None
    waiting: list = field(default_factory=list)  # raised cards still to place
    waiting_label: str = ""
    cells: list = field(default_factory=list)  # board spaces with x/y, cards, target choice
    lines: list = field(default_factory=list)  # board branches as (x1, y1, x2, y2) grid centres
    bridges: list = field(default_factory=list)  # bridges between two spaces, drawn like lines but stronger
    board_width: int = 0
    board_height: int = 0
    planes: list = field(default_factory=list)  # {"title", "columns": [...], "rows": n}
    rows: list = field(default_factory=list)  # further card rows by the hand: {"title", "cards"}
    encounter: list = field(default_factory=list)  # cells of an encounter beside the board
    encounter_title: str = ""
    piles: list = field(default_factory=list)  # {"title", "count"} and/or "cards"
    facts: list = field(default_factory=list)  # (label, value) pairs: score, sacred number ...
    events: list = field(default_factory=list)  # the engine's own log lines, if it keeps one
    picked: dict | None = None
    picked_choices: list = field(default_factory=list)  # every move of the picked card
    actions: list = field(default_factory=list)  # moves that need no card picked first
    can_act: bool = False
    # What to do with the hand, said while nothing is picked yet; a board where a card is not
    # placed anywhere (Tarot Hallow's card played face down) says its own.
    hint: str = "Pick a highlighted card, then where it goes."
    table: dict = field(default_factory=dict)  # a table of seats around a card in play (Tarot Hallow)
    view: dict = field(default_factory=dict)
    board: dict = field(default_factory=dict)  # a board's own layout, for its own template


def option_facts(view: dict) -> list[tuple[str, Any]]:
    """The facts a game's options add: Numerology's sacred number, the variations in play."""
    facts: list[tuple[str, Any]] = []
    if view.get("sacred"):
        facts.append(("Sacred number", view["sacred"]))
    if view.get("variant"):
        facts.append(("Variation", ", ".join(view["variant"])))
    return facts


def presentation(view: dict, moves: list[dict], pick: str | None, picked_choices: list, actions: list,
                 *, events_from: str = "log", **board) -> Presentation:
    """One seat's Presentation: ``board`` is what its presenter drew (cells, planes, hand...);
    the prompt, the picked card with its choices, the plain actions and the engine's own
    lines of text (its ``log``, or Dream Odyssey's ``tale``) are read alike for every board."""
    return Presentation(
        prompt=view.get("prompt") or "",
        events=[line for line in view.get(events_from) or [] if isinstance(line, str)],
        picked=card_info(pick) if pick else None,
        picked_choices=picked_choices,
        actions=actions,
        can_act=bool(moves),
        view=view,
        **board,
    )


def choices_for(rules, state: dict, seat: int | None, moves: list[dict], pick: str | None):
    """Split legal moves into card picks and plain actions.

    Returns (pickable card codes, picked code or None, choices of the picked card,
    choices that need no card).  A move with a single ``card`` is made by picking the card
    and then its target; anything else (``cards`` sets, raise, refill, forfeit...) is a
    button of its own.
    """
    pickable: list[str] = []
    actions: list[Choice] = []
    for move in moves:
        card = move.get("card")
        if isinstance(card, str):
            if card not in pickable:
                pickable.append(card)
        elif move.get("type") != "forfeit":
            # A forfeit is the page's own "Give up" button (games.services.resign), offered
            # once, not again among the moves (and not only when it is your turn).
            actions.append(Choice(move, rules.describe_move(state, seat, move), target_of(move)))
    if pick not in pickable:
        # One card to move and nothing else to do (e.g. the last raised card): pick it.
        pick = pickable[0] if len(pickable) == 1 and not actions else None
    picked_choices = [
        Choice(m, rules.describe_move(state, seat, m), target_of(m)) for m in moves if m.get("card") == pick
    ] if pick else []
    return pickable, pick, picked_choices, actions


# --- the journal's reading of a finished game -----------------------------------------------
# Each board module lays its games' ``rules.reading(state)`` out in the journal's shape
# (``journal.readings``: sections of positions, a story, a summary) with ``reading_layout``.


def outcome_summary(outcome: dict | None) -> str:
    if not outcome:
        return ""
    result = {"win": "Won", "loss": "Lost", "draw": "A draw", "ended": "Ended"}.get(outcome.get("result"), "Ended")
    scores = outcome.get("scores") or []
    text = f"{result}: {outcome.get('reason', '').rstrip('.')}." if outcome.get("reason") else f"{result}."
    if scores:
        text += f" Score {', '.join(str(s) for s in scores)}."
    return text


# An empty place a lifted card left on a 2021 Material Plane (both families of the 2021
# prototype draw it).
HOLE = {"code": "", "hole": True, "name": "An empty place", "pickable": False, "picked": False}


def plane_with_holes(columns_in_view: list, shown_planes: list) -> None:
    """Put the empty places back into the presented columns, where lifted cards left them."""
    for plane, columns in zip(shown_planes, columns_in_view):
        for shown, column in zip(plane["columns"], columns):
            cards = iter(shown["cards"])
            shown["cards"] = [dict(HOLE) if code is None else next(cards) for code in column]
        plane["rows"] = max((len(c["cards"]) for c in plane["columns"]), default=0)
