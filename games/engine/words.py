"""Engine words for a person: seats as "you" or a name, events as sentences.

The engine knows seats, not players, so its texts (prompts, reasons, reading positions,
log records) say "Seat 1" or "seat 1". ``for_reader`` is the one place that turns those
into "you" for the reader and a name for anyone else; the page, the mail, the journal and
a game's end reason all go through it. ``log_sentence`` says an event record of a view's
log (``{"seat", "event", ...}``) as a sentence in the past tense, seats still as "Seat N"
for ``for_reader`` to name.
"""

from __future__ import annotations

import functools
import re

from typing import Any

from .cards import CARDS, label

SEAT = re.compile(r"\b([Ss])eat (\d+)('s)?")
# "Seat 1 has" reads "you has" once the reader is seat 1: the verbs engine texts use.
YOU_VERB = re.compile(r"\b([Yy]ou) (has|is|was|wins|draws|plays|holds|gives|takes|places|reads|needs|must)\b")
PLAIN_VERBS = {"has": "have", "is": "are", "was": "were", "wins": "win", "draws": "draw", "plays": "play",
               "holds": "hold", "gives": "give", "takes": "take", "places": "place", "reads": "read",
               "needs": "need", "must": "must"}


def for_reader(text: str, reader: int | None, names: dict[int, str]) -> str:
    """``text`` with every "Seat N" as "you" (N is the reader) or the player's name."""
    def name(match):
        index, possessive = int(match.group(2)), match.group(3)
        if index == reader:
            word = "your" if possessive else "you"
        else:
            word = names.get(index, "the other player") + ("'s" if possessive else "")
        # "You" and "Your" open a sentence; a name keeps its own capitals anywhere.
        at_start = match.start() == 0 or text[:match.start()].rstrip().endswith((".", "!", "?", ":"))
        return word[:1].upper() + word[1:] if at_start else word

    named = SEAT.sub(name, text)
    return YOU_VERB.sub(lambda m: f"{m.group(1)} {PLAIN_VERBS[m.group(2)]}", named)


def shared_result(won: bool, partners: list[str]) -> str:
    """How a cooperative game ended for one of its players, in the words of a shared game
    ("you and Bob won together", "you and Bob lost together"): partners never beat
    each other, so there is no winner to name and no score against score."""
    who = ", ".join(partners[:-1]) + " and " + partners[-1] if len(partners) > 1 else \
        "".join(partners) or "your partner"
    return f"you and {who} {'won' if won else 'lost'} together"


def _card(code: str) -> str:
    card = CARDS.get(code)
    return card.name if card else str(code)


def _cards(codes) -> str:
    names = [_card(c) for c in codes]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""


PAST = {"draw": "drew", "discard": "discarded", "play": "played", "raise": "raised", "place": "placed",
        "give": "gave", "take": "took", "negate": "negated", "resolve": "resolved", "plane": "laid"}


# Events said in a sentence of their own (Tarot Hallow's rounds): {who} the seat, {cards}
# the cards named, {seats} the seats named, {to} where a Major went.
SAID = {
    "play_face_down": "{who} played a card face down",
    "reveal": "{who} revealed the {cards}",
    "reveal_major": "{cards} is the Major in play",
    "score": "{who} took {cards} into {to}",
    "tie": "A tie: {seats} play again",
    "tie_hands_empty": "A tie, and no cards left to break it: {seats}",
    "all_courts": "Only court cards were played for {cards}",
    "removed": "{cards} left the game, won by nobody",
    "no_target": "{who} could not use the {cards}: nothing to act on",
    "decline": "{who} did not use the {cards}",
    "queen": "{who} turned {cards} over with a Queen",
    "king": "{who} turned {cards} over with a King",
    "page": "{who} moved {cards} with a Page",
    "knight": "{who} exchanged cards with a Knight",
    "fool_round": "A tie for the best Reading: {seats} play a round for the Fool",
    "game_over": "The game is over",
    "reshuffle": "The discard was shuffled into a new pile",
}


def log_sentence(entry: dict, reader: int | None = None) -> str:
    """An event record of a view's log as a sentence ("You drew 3 cards: …",
    "Seat 1 drew 3 cards."); seats other than the reader stay "Seat N"."""
    seat = entry.get("seat")
    who = "You" if seat is not None and seat == reader else (f"Seat {seat}" if isinstance(seat, int) else "")
    event = str(entry.get("event", ""))
    cards = entry.get("cards") or ([entry["card"]] if entry.get("card") else [])
    if event in SAID:
        seats = [("you" if s == reader else f"Seat {s}") for s in entry.get("seats") or [] if isinstance(s, int)]
        said = SAID[event].format(
            who=who or "Someone", cards=_cards(cards) if event in ("reveal", "no_target", "decline")
            else " and ".join(label(c) if c in CARDS else str(c) for c in cards),
            seats=", ".join(seats[:-1]) + " and " + seats[-1] if len(seats) > 1 else "".join(seats),
            to=str(entry.get("to", "")).title())
        if event == "score" and entry.get("upright") is False:
            said += ", reversed"
        if event == "knight" and entry.get("cards"):
            said += f": gave {_cards(entry['cards'])}, took {_cards(entry.get('taken') or [])}"
        said = said[:1].upper() + said[1:]
        return said + ("" if said.endswith(".") else ".")
    count = entry.get("count", len(cards))
    if event == "draw":
        what = f"drew {count} card{'s' if count != 1 else ''}" + (f": {_cards(cards)}" if cards else "")
    elif event == "no_negation":
        what = "chose not to negate"
    elif event == "end":
        return "The game ended."
    else:
        what = PAST.get(event, event.replace("_", " "))
        if cards:
            what += f" {_cards(cards)}"
        elif count and event in PAST:
            what += f" {count} card{'s' if count != 1 else ''}"
    if "to" in entry:
        what += f" to {entry['to']}"
    if isinstance(entry.get("column"), int):
        what += f" in column {entry['column'] + 1}"
    sentence = f"{who} {what}".strip()
    return sentence[:1].upper() + sentence[1:] + ("" if sentence.endswith(".") else ".")


# --- what a seat may read of the move log -------------------------------------------------

# Every card's name, found in a text by one pass of one pattern rather than a search per
# card (no name holds or overlaps another, so the pass finds every name the text holds).
_NAMED = re.compile("|".join(re.escape(card.name) for card in CARDS.values()))
_CODE_NAMED = {card.name: code for code, card in CARDS.items()}
# A card's code said alone in a text ("M16", "10s"; not inside "M160" nor "x-10s").
_CODE_SAID = re.compile(r"(?<![\w-])(" + "|".join(sorted(CARDS, key=len, reverse=True)) + r")(?![\w-])")
_YOUR = re.compile(r"\b([Yy])our\b")


def visible_cards(data: Any) -> set[str]:
    """Every card a view shows: by its code anywhere in it, or by its name in its text (a
    story line such as "you draw the Five of Swords" tells the seat that card)."""
    # Every string the view holds, once each, then the codes among them in one set
    # operation and the names in each long one.  A long game's view is thousands of small
    # values (a log of records): strings, numbers and None are taken where they are met
    # rather than pushed and popped one by one, which halved the walk (a Lovers' Discourse
    # view at move 200: 0.35 → 0.15 ms).
    strings: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            for key, value in item.items():
                if type(key) is str:
                    strings.add(key)
                else:
                    stack.append(key)
                if type(value) is str:
                    strings.add(value)
                elif value is not None and type(value) not in _SCALARS:
                    stack.append(value)
        elif type(item) is list or type(item) is tuple:
            for value in item:
                if type(value) is str:
                    strings.add(value)
                elif value is not None and type(value) not in _SCALARS:
                    stack.append(value)
        elif isinstance(item, str):
            strings.add(str(item))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    found = strings & CARDS.keys()
    for text in strings:
        if len(text) > 8:
            found.update(_named_in(text))
    return found


_SCALARS = frozenset({int, float, bool})


def cards_in(text: str) -> set[str]:
    """The cards ``text`` names or gives by code: all that ``redact`` may say as "a card"."""
    return set(_named_in(text)) | _codes_said_in(text)


def hidden_among(view: dict, cards: set[str]) -> set[str]:
    """Those of ``cards`` that ``view`` does not show: ``cards - visible_cards(view)``,
    without walking all of a long view.  A view's log is most of it late in a game (a
    Lovers' Discourse view at move 200 is 17 KB of log in 20), and the cards a log's window
    names are mostly on the board or in hand, or else in the newest lines of the log: so
    the rest of the view is read first, then the log from its newest lines back, and the
    reading stops once every card is found.  Only a card shown nowhere costs the whole log."""
    unseen = set(cards)
    if not unseen:
        return unseen
    log = view.get("log")
    unseen -= visible_cards({key: value for key, value in view.items() if key != "log"})
    if not unseen or not log:
        return unseen
    if not isinstance(log, list):
        return unseen - visible_cards(log)
    # Newest first, in growing slices: one walk per line would cost more than the whole
    # log in one where every line must be read (a card shown nowhere).
    end, size = len(log), 8
    while unseen and end > 0:
        start = max(end - size, 0)
        unseen -= visible_cards(log[start:end])
        end, size = start, size * 4
    return unseen


@functools.lru_cache(maxsize=16384)
def _named_in(text: str) -> tuple[str, ...]:
    """The codes of the cards ``text`` names.  A view's text is mostly its log, the same
    lines at every move of a game (and the same words in many games): each line is read
    once, not at every move (a Know Thyself view at move 40: 0.10 ms to find its cards,
    0.035 so; a Lovers' Discourse log is records rather than sentences, and walking them is
    what its view costs)."""
    return tuple(_CODE_NAMED[name] for name in _NAMED.findall(text))


def redact(text: str, hidden: set[str]) -> str:
    """``text`` with every card of ``hidden`` said as "a card" (by label, name or code)."""
    # The names the text holds first (a label holds the name), each with its article: "put
    # a card beneath", not "put the a card"; then every code, in one pass.  Which names and
    # codes a text holds is remembered (a log's window is read again at every move): most
    # texts hide nothing and are given back as they are.
    for code in set(_named_in(text)) & hidden:
        card = CARDS[code]
        for said, unsaid in ((f"the {label(code)}", "a card"), (f"The {label(code)}", "A card"),
                             (label(code), "a card"), (f"the {card.name}", "a card"),
                             (f"The {card.name}", "A card"), (card.name, "a card")):
            text = text.replace(said, unsaid)
    if hidden.isdisjoint(_codes_said_in(text)):
        return text
    return _CODE_SAID.sub(lambda said: "a card" if said.group(1) in hidden else said.group(0), text)


@functools.lru_cache(maxsize=16384)
def _codes_said_in(text: str) -> frozenset[str]:
    return frozenset(_CODE_SAID.findall(text))


def as_seen_by(text: str, mine: bool) -> str:
    """A move's words are written for the mover ("to column 2 of your Material Plane");
    every other seat reads them as "their Material Plane", which is whose it was."""
    return text if mine else _YOUR.sub(lambda m: "Their" if m.group(1) == "Y" else "their", text)
