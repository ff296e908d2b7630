"""Readings: the one JSON shape every journal entry keeps, whatever made it.

A reading is::

    {"version": 1,
     "layout": "tree" | "spread" | "starfield" | "tale",
     "sections": [{"id": "central", "title": "...", "about": "...",
                   "positions": [{"id": "crown", "label": "The Crown",
                                  "question": "...", "meaning": "...",
                                  "card": "M19", "reversed": false,
                                  "minors": [{"card": "Ac", "reversed": false}],
                                  "note": "..."}]}],
     "story": ["a line of the tale", ...],
     "summary": "how the game ended",
     "seal": ["M6", "M19"],   # the engine's suggested seal cards, where it has one
     "draw": {"spread": "three", "seed": 123, "reversals": true}}   # site-drawn only

Games' engines hand over ``rules.reading(state)``; ``from_game`` below has it laid out as on
the game's board by the board module its ``games.registry`` line names.  Readings typed in from a physical deck or drawn by the site use the
spreads in ``SPREADS``.  ``clean_reading`` checks any reading (a form's, an import's)
before it is stored, so templates and the statistics can trust the shape.
"""

from __future__ import annotations

from games.engine.words import for_reader, shared_result

import random
import re
import secrets
from dataclasses import dataclass

from games import registry
from games.engine import cards as deck

VERSION = 1
LAYOUTS = ("tree", "spread", "starfield", "tale")
MAX_SECTIONS = 12
MAX_POSITIONS = 40
MAX_CARDS = 400
MAX_MINORS = 20
MAX_STORY_LINES = 400
MAX_TEXT = 1000


class ReadingError(ValueError):
    """A reading that does not have the journal's shape; the message is for a person."""


# --- spreads for readings made outside a game ------------------------------------------


@dataclass(frozen=True)
class Position:
    id: str
    label: str
    question: str
    majors_only: bool = False


@dataclass(frozen=True)
class Spread:
    slug: str
    title: str
    about: str
    layout: str
    positions: tuple[Position, ...]


SPREADS: dict[str, Spread] = {
    s.slug: s
    for s in (
        Spread("one", "One card", "A single card for the day or for one question.", "spread", (
            Position("card", "The card", "What asks for my attention now?"),
        )),
        Spread("three", "Three cards", "What led here, where things stand, where they lean.", "spread", (
            Position("past", "Past", "What has brought me to this point?"),
            Position("present", "Present", "Where do I stand today?"),
            Position("future", "Future", "Where is this heading if nothing changes?"),
        )),
        Spread(
            "sefira", "The central Sefira",
            "The middle pillar of the Tree, read from the root upwards, one Major on each.", "tree", (
                Position("foundation", "The Foundation", "What holds me up, for good or ill?", True),
                Position("spirit", "Spirit", "What lives in me that wants to be heard?", True),
                Position("knowledge", "Knowledge", "Where should my attention turn?", True),
                Position("crown", "The Crown", "What lifts me towards the light?", True),
            ),
        ),
        Spread("cross", "Crossroads", "Four cards for a choice between paths.", "spread", (
            Position("situation", "The situation", "What is really going on?"),
            Position("challenge", "The challenge", "What makes this hard?"),
            Position("advice", "The advice", "What would help me most?"),
            Position("outcome", "The likely outcome", "Where does the path I am on lead?"),
        )),
    )
}
# Free-form readings from a physical deck: the player names the positions.
FREE_SPREAD_MAX = 10


def draw_spread(spread_slug: str, *, reversals: bool = True, seed: int | None = None) -> dict:
    """Let the site draw a spread: a fresh seed from the OS, kept so the draw can be redone."""
    spread = SPREADS.get(spread_slug)
    if spread is None:
        raise ReadingError(f"Unknown spread {spread_slug!r}.")
    if seed is None:
        seed = secrets.randbits(63)
    rng = random.Random(seed)
    majors = list(deck.MAJORS)
    whole = list(deck.DECK)
    rng.shuffle(majors)
    rng.shuffle(whole)
    used: set[str] = set()
    positions = []
    for pos in spread.positions:
        pile = majors if pos.majors_only else whole
        card = next(c for c in pile if c not in used)
        used.add(card)
        positions.append({
            "id": pos.id, "label": pos.label, "question": pos.question, "meaning": "", "card": card,
            "reversed": bool(reversals and rng.random() < 0.5), "minors": [], "note": "",
        })
    return {
        "version": VERSION,
        "layout": spread.layout,
        "sections": [{"id": spread.slug, "title": spread.title, "about": spread.about, "positions": positions}],
        "story": [],
        "summary": "",
        "draw": {"spread": spread.slug, "seed": seed, "reversals": reversals},
    }


def manual_reading(spread_slug: str, rows: list[dict]) -> dict:
    """A reading typed in from a physical deck: rows of label/card/reversed/minors."""
    if spread_slug == "free":
        title, about, layout = "My spread", "Positions named by the reader.", "spread"
    else:
        spread = SPREADS.get(spread_slug)
        if spread is None:
            raise ReadingError(f"Unknown spread {spread_slug!r}.")
        title, about, layout = spread.title, spread.about, spread.layout
    if not rows:
        raise ReadingError("A reading needs at least one card.")
    positions = []
    for i, row in enumerate(rows):
        positions.append({
            "id": row.get("id") or f"p{i + 1}",
            "label": row.get("label") or f"Card {i + 1}",
            "question": row.get("question") or "",
            "meaning": "",
            "card": row["card"],
            "reversed": bool(row.get("reversed")),
            "minors": [{"card": m, "reversed": m in row.get("minors_reversed", ())} for m in row.get("minors", [])],
            "note": "",
        })
    return clean_reading({
        "version": VERSION, "layout": layout,
        "sections": [{"id": spread_slug, "title": title, "about": about, "positions": positions}],
        "story": [], "summary": "",
    })


def parse_card(text: str) -> str:
    """A card from its code (``9p``, ``M19``) or its name (``Nine of Pentacles``, ``The Sun``)."""
    raw = text.strip()
    if not raw:
        raise ReadingError("An empty card name.")
    for code in (raw, raw[:1].upper() + raw[1:].lower(), raw.upper()):
        if deck.is_card(code):
            return code
    wanted = " ".join(raw.lower().split())
    for code, card in deck.CARDS.items():
        if card.name.lower() in (wanted, "the " + wanted) or deck.label(code).lower() == wanted:
            return code
    raise ReadingError(f"{raw!r} is not a card: use a name such as \u201cNine of Pentacles\u201d or a code such as 9p.")


def parse_cards(text: str) -> list[str]:
    return [card for card, _reversed in parse_oriented_cards(text)]


# "3s reversed", "Ace of Cups (r)": a card written by hand may say it lay upside down.
REVERSED_MARK = re.compile(r"\s*(?:\(\s*(?:reversed|rev|r)\s*\)|\breversed|\brev)\s*$", re.I)


def parse_oriented_cards(text: str) -> list[tuple[str, bool]]:
    """Cards separated by commas, each with whether it is marked reversed."""
    found = []
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        bare, marked = REVERSED_MARK.subn("", part)
        found.append((parse_card(bare), bool(marked)))
    return found


# --- checking any reading ----------------------------------------------------------------


def _text(value, what: str, limit: int = MAX_TEXT) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ReadingError(f"{what} must be text.")
    if len(value) > limit:
        raise ReadingError(f"{what} is longer than {limit} characters.")
    return value


def _card(value, what: str) -> str:
    if not deck.is_card(value):
        raise ReadingError(f"{what}: {value!r} is not a card code.")
    return value


def clean_reading(data: object) -> dict:
    """Return a normalised copy of ``data`` or raise ReadingError saying what is wrong."""
    if not isinstance(data, dict):
        raise ReadingError("A reading must be an object.")
    layout = data.get("layout", "spread")
    if layout not in LAYOUTS:
        raise ReadingError(f"Unknown layout {layout!r}.")
    sections_in = data.get("sections")
    if not isinstance(sections_in, list) or not sections_in:
        raise ReadingError("A reading needs at least one section.")
    if len(sections_in) > MAX_SECTIONS:
        raise ReadingError(f"A reading has at most {MAX_SECTIONS} sections.")
    sections = []
    total = 0
    for s_index, section in enumerate(sections_in):
        if not isinstance(section, dict):
            raise ReadingError("Each section must be an object.")
        positions_in = section.get("positions", [])
        if not isinstance(positions_in, list):
            raise ReadingError("A section's positions must be a list.")
        positions = []
        for p_index, pos in enumerate(positions_in):
            if not isinstance(pos, dict):
                raise ReadingError("Each position must be an object.")
            where = f"Position {p_index + 1} of section {s_index + 1}"
            card = pos.get("card")
            if card is not None:
                _card(card, where)
            minors_in = pos.get("minors", [])
            if not isinstance(minors_in, list) or len(minors_in) > MAX_MINORS:
                raise ReadingError(f"{where}: minors must be a list of at most {MAX_MINORS}.")
            minors = []
            for m in minors_in:
                if isinstance(m, str):
                    m = {"card": m}
                if not isinstance(m, dict):
                    raise ReadingError(f"{where}: each Minor must be an object with a card.")
                minors.append({"card": _card(m.get("card"), where), "reversed": bool(m.get("reversed", False))})
            positions.append({
                "id": _text(pos.get("id"), f"{where}'s id", 40) or f"p{p_index + 1}",
                "label": _text(pos.get("label"), f"{where}'s label", 120),
                "question": _text(pos.get("question"), f"{where}'s question", 300),
                "meaning": _text(pos.get("meaning"), f"{where}'s meaning", 300),
                "card": card,
                "reversed": bool(pos.get("reversed", False)),
                "minors": minors,
                "note": _text(pos.get("note"), f"{where}'s note", 300),
            })
            total += 1 + len(minors)
        if len(positions) > MAX_POSITIONS or total > MAX_CARDS:
            raise ReadingError("That reading holds too many cards.")
        sections.append({
            "id": _text(section.get("id"), "A section's id", 40) or f"s{s_index + 1}",
            "title": _text(section.get("title"), "A section's title", 120),
            "about": _text(section.get("about"), "A section's description", MAX_TEXT),
            "positions": positions,
        })
    story = data.get("story", [])
    if not isinstance(story, list) or len(story) > MAX_STORY_LINES:
        raise ReadingError(f"The story must be a list of at most {MAX_STORY_LINES} lines.")
    cleaned = {
        "version": VERSION,
        "layout": layout,
        "sections": sections,
        "story": [_text(line, "A line of the story") for line in story],
        "summary": _text(data.get("summary"), "The summary"),
    }
    seal = data.get("seal")
    if seal is not None:
        if not isinstance(seal, list) or len(seal) > 78:
            raise ReadingError("The seal suggestion must be a list of cards.")
        cleaned["seal"] = [_card(c, "The seal suggestion") for c in seal]
    draw = data.get("draw")
    if draw is not None:
        if not isinstance(draw, dict) or draw.get("spread") not in SPREADS or not isinstance(draw.get("seed"), int):
            raise ReadingError("The draw record must name a spread and an integer seed.")
        cleaned["draw"] = {"spread": draw["spread"], "seed": draw["seed"], "reversals": bool(draw.get("reversals"))}
    return cleaned


def iter_cards(reading: dict):
    """Every card of a reading: (card, "section:position", reversed, is_position_card)."""
    for section in reading.get("sections", []):
        for pos in section.get("positions", []):
            where = f"{section.get('id', '')}:{pos.get('id', '')}"[:40]
            if pos.get("card"):
                yield pos["card"], where, bool(pos.get("reversed")), True
            for m in pos.get("minors", []):
                yield m["card"], where, bool(m.get("reversed")), False


def position_cards(reading: dict) -> list[str]:
    """The cards that stand on positions, in reading order, each once."""
    seen: list[str] = []
    for card, _where, _rev, on_position in iter_cards(reading):
        if on_position and card not in seen:
            seen.append(card)
    return seen


def all_cards(reading: dict) -> list[str]:
    seen: list[str] = []
    for card, _where, _rev, _pos in iter_cards(reading):
        if card not in seen:
            seen.append(card)
    return seen


# --- readings of finished games ------------------------------------------------------------

def from_game(mode: str, rules, state: dict, seat: int, *, names: dict[int, str] | None = None,
              reason: str | None = None) -> dict:
    """Lay a finished game's ``rules.reading(state)`` out for the journal of one seat.

    The summary is that seat's own: "You won" or "You lost", the end's reason as the
    game page words it (``reason``, players named), and the scores by name (``names``,
    seat index to name; the seat itself is "you")."""
    outcome = rules.outcome(state)
    layout = {"version": VERSION, **registry.entry(mode).reading_layout(rules.reading(state), outcome, seat)}
    if outcome:
        layout["summary"] = seat_summary(outcome, seat, names or {}, reason, cooperative=rules.cooperative)
    return clean_reading(_words_for(layout, seat, names or {}))


def seat_result(outcome: dict | None, seat: int) -> str:
    """"won", "lost", "drawn" or "ended" for one seat: the outcome's own ``result`` is the
    game's ("win" for both players of a game one of them won), its winners say whose."""
    if not outcome:
        return "finished"
    winners = outcome.get("winners") or []
    if seat in winners:
        return "won"
    if winners or outcome.get("result") == "loss":
        return "lost"
    return "drawn" if outcome.get("result") == "draw" else "ended"


def seat_summary(outcome: dict, seat: int, names: dict[int, str], reason: str | None, *,
                 cooperative: bool = False) -> str:
    result = seat_result(outcome, seat)
    together = len(outcome.get("winners") or []) > 1
    text = {"won": "You won together" if together else "You won", "lost": "You lost",
            "drawn": "A draw", "ended": "The game ended"}.get(result, "The game ended")
    shared = cooperative and result in ("won", "lost")
    if shared:  # partners win or lose as one, with one score between them
        said = shared_result(result == "won", [name for i, name in sorted(names.items()) if i != seat])
        text = said[:1].upper() + said[1:]
    reason = reason if reason is not None else _named(outcome.get("reason") or "", seat, names)
    if reason:
        if reason.startswith("You "):  # it follows a colon: "You lost: you raised ..."
            reason = "you " + reason[4:]
        text += f": {reason.rstrip('.')}."
    else:
        text += "."
    scores = outcome.get("scores") or []
    if len(scores) == 1:
        text += f" Your score: {scores[0]}."
    elif scores and shared:
        text += f" Your shared score: {scores[seat] if seat < len(scores) else scores[0]}."
    elif scores:
        named = [f"{'you' if i == seat else names.get(i, 'the other player')} {score}" for i, score in enumerate(scores)]
        text += f" Scores: {', '.join(named)}."
    return text


def _named(text: str, seat: int, names: dict[int, str]) -> str:
    return for_reader(text, seat, names)


def _words_for(value, seat: int, names: dict[int, str]):
    """Every text of a laid-out reading worded for its reader (games.engine.words)."""
    if isinstance(value, str):
        return for_reader(value, seat, names) if "eat " in value else value
    if isinstance(value, list):
        return [_words_for(v, seat, names) for v in value]
    if isinstance(value, dict):
        return {k: _words_for(v, seat, names) for k, v in value.items()}
    return value


def game_title(rules, state: dict, seat: int) -> str:
    """The entry's title, with the result as it was for this seat ("Warring Planets, lost";
    a cooperative game's "Lovers' Discourse, lost together")."""
    result = seat_result(rules.outcome(state), seat)
    return f"{rules.title}, {result}" + (" together" if rules.cooperative and result in ("won", "lost") else "")
