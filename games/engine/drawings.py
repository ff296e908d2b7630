"""Boards drawn in text from one seat's ``view``: the terminal player (``play``) and the
turn mail draw them.  Each game names its drawing with ``Rules.text_drawing``; a game
without one is shown by ``render_generic`` in the terminal and by its view's fields in
the mail.
"""

from __future__ import annotations

import json
import textwrap

from . import starfield
from .cards import label, short_name
from .tree import ADJACENT, CENTRAL, LAYOUT, ROOT, SPACE_NAMES, SPACES

COLUMN_TITLES = ("left", "middle", "right")


def card_text(code: str | None) -> str:
    if code is None:
        return "-"
    return label(code) if code.startswith("M") else short_name(code)


def cards_text(codes: list[str]) -> str:
    return ", ".join(card_text(c) for c in codes) or "-"


def render_know_thyself(view: dict) -> list[str]:
    lines = [f"Know Thyself ({', '.join(view['variant'])}) - turn {view['turn']} - "
             f"deck {view['deck_count']} - score {view['score']}"
             + (f" - sacred number {view['sacred']}" if view["sacred"] else "")]
    lines.append("")
    lines.append("The Tree of Life, top to bottom:")
    order = sorted(SPACES, key=lambda s: (LAYOUT[s][1], LAYOUT[s][0]))
    for space in order:
        slot = view["tree"].get(space)
        name = SPACE_NAMES[space]
        if slot is None:
            state = "open" if space in view["open_spaces"] else ""
            lines.append(f"  {name:<16} {'(empty' + (', open)' if state else ')'):<24}")
            continue
        if slot["resolved"]:
            fill = "resolved"
        elif slot["takes_any"]:
            fill = "takes any one Minor"
        else:
            fill = f"{slot['value'] - slot['needs']}/{slot['value']}"
        central = " *" if space in CENTRAL else ""
        lines.append(f"  {name:<16} {card_text(slot['major']):<24} {fill:<20} "
                     f"{cards_text(slot['minors'])}{central}")
    graces = ", ".join(f"{i + 1}: {card_text(c)}" for i, c in enumerate(view["grace"]))
    lines.append(f"  Grace Fields     {graces}")
    lines.append("")
    lines.append("The Material Plane (row 0 lies on the Seeresses):")
    plane = view["plane"]
    height = max(map(len, plane), default=0)
    lines.append("        " + "".join(f"{t:<22}" for t in COLUMN_TITLES))
    for r in range(height):
        cells = [card_text(col[r]) if len(col) > r else "." for col in plane]
        lines.append(f"  r{r:<4} " + "".join(f"{c:<22}" for c in cells))
    if not height:
        lines.append("  (empty)")
    lines.append("")
    if view["hand"] is not None:
        lines.append(f"Hand ({len(view['hand'])}): {cards_text(view['hand'])}")
    else:
        lines.append(f"Hand: {view['hand_count']} cards")
    if view["waiting"]:
        lines.append(f"Raised, to place: {cards_text(view['waiting'])}")
    if view["choices"]:
        lines.append("Sets on offer: " + "; ".join(cards_text(s) for s in view["choices"]))
    if view["discard"]:
        lines.append(f"Discard pile: {cards_text(view['discard'])}")
    if view["out"]:
        lines.append(f"Negated (out of the game): {cards_text(view['out'])}")
    if view.get("prompt"):
        lines.append("")
        lines.append(view["prompt"])
    return lines


# --- the Starfield (Lovers' Discourse, Warring Planets) ---------------------------------------

CELL = 26  # characters per Starfield column


def who(owner: int | None, viewer: int | None) -> str:
    """A seat as the viewer says it: "you", or "seat N" (a spectator names both)."""
    if owner is None:
        return "nobody"
    return "you" if owner == viewer else f"seat {owner}"


def whose(owner: int, viewer: int | None) -> str:
    return "yours" if owner == viewer else f"seat {owner}'s"


def wrapped(text: str, width: int, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def starfield_cell(space: str, entry: dict | None, viewer: int | None) -> list[str]:
    """One space in a few short lines: its Major(s) or Guard, its Minors, how full it is,
    who played it and whom it faces.  The centre C2 carries a star."""
    name = space + ("*" if space == starfield.CENTRAL else "")
    if entry is None:
        return [f"{name} ."]
    if "guard" in entry:
        return wrapped(f"{name} Guard: {card_text(entry['guard'])}", CELL - 1) + \
            wrapped(f"  worth {entry['value']}, facing {who(entry['facing'], viewer)}", CELL - 1, "    ")
    majors = " & ".join(card_text(c) for c in entry["majors"])
    lines = wrapped(f"{name} {majors}", CELL - 1)
    if entry["minors"]:
        lines += wrapped("  + " + cards_text(entry["minors"]), CELL - 1, "    ")
    if entry["resolved"]:
        status = f"RESOLVED by {who(entry['resolved_by'], viewer)}"
    elif entry["capacity"] is None:
        status = "takes any one Minor"
    else:
        status = f"{entry['total']}/{entry['capacity']}"
    status += ", by " + " & ".join(who(p, viewer) for p in sorted(set(entry["by"])))
    if "facing" in entry:
        status += f", facing {who(entry['facing'], viewer)}"
    return lines + wrapped("  " + status, CELL - 1, "    ")


def render_plane(title: str, columns: list[list[str]]) -> list[str]:
    lines = [title, ("        " + "".join(f"{'column ' + str(i + 1):<22}" for i in range(len(columns)))).rstrip()]
    height = max(map(len, columns), default=0)
    for r in range(height):
        cells = [card_text(col[r]) if len(col) > r else "." for col in columns]
        lines.append((f"  r{r:<4} " + "".join(f"{c:<22}" for c in cells)).rstrip())
    if not height:
        lines.append("  (empty)")
    return lines


def render_starfield(view: dict) -> list[str]:
    """The Starfield as the seat sees it, their own edge at the bottom (``view["layout"]``):
    three columns with C2 in the middle of the centre one, the Gift Fields in their
    corners, both Material Planes, the hand and the sizes of the face-down piles."""
    seat = view["seat"]
    players = (0, 1)
    header = f"{view['title']} ({', '.join(view['variant'])}) - "
    header += f"you are seat {seat}" if seat is not None else "watching"
    if view["to_act"]:
        header += f" - {who(view['to_act'][0], seat)} to {view['phase'].replace('_', ' ')}"
    else:
        header += " - game over"
    scores = view["scores"]
    if view["game"] == "lovers_discourse":
        header += f" - shared score {scores[0]}"
    else:
        header += " - score " + ", ".join(f"{who(p, seat)} {scores[p]}" for p in players)
    if view["sacred"]:
        header += f" - sacred number {view['sacred']}"
        if view.get("sacred_card"):
            header += f" (set by {card_text(view['sacred_card'])})"
    lines = [header, ""]

    layout = {k: tuple(xy) for k, xy in view["layout"].items()}
    at = {xy: space for space, xy in layout.items() if not starfield.is_gift(space)}
    top = next(p for p in players if at[(2, 0)] in starfield.SEAT_EDGE[p])
    columns = [at[(x, 3 if x == 2 else 2)][0] for x in (1, 2, 3)]
    board = view["board"]
    gifts = view.get("gifts")

    def gift_line(gift: str) -> str:
        held = gifts[gift]
        what = ("empty" if held is None else "locked, face down" if held.get("locked")
                else card_text(held["card"]))
        x, y = layout[gift]
        corner = ("top" if y == 0 else "bottom") + (" left" if x == 0 else " right")
        return (f"  Gift Field of {starfield.GIFT_NAMES[gift]} ({corner}, "
                f"{whose(starfield.seat_of_gift(gift), seat)} to take from): {what}")

    lines.append(f"The Starfield: {whose(top, seat)} edge at the top, "
                 f"{whose(1 - top, seat)} at the bottom")
    if gifts:
        lines += [gift_line(g) for g in starfield.GIFT_FIELDS if layout[g][1] == 0]
    lines.append(("  " + "".join(f"{c + ' (' + starfield.COLUMN_MEANINGS[c] + ')':<{CELL}}"
                                 for c in columns)).rstrip())
    for y in range(7):
        cells = [starfield_cell(at[(x, y)], board.get(at[(x, y)]), seat) if (x, y) in at else []
                 for x in (1, 2, 3)]
        for i in range(max(map(len, cells))):
            row = "".join(f"{(c[i] if i < len(c) else ''):<{CELL}}" for c in cells)
            lines.append(("  " + row).rstrip())
    if gifts:
        lines += [gift_line(g) for g in starfield.GIFT_FIELDS if layout[g][1] != 0]
    rings = ", ".join(f"{a}-{b}" for a, b in starfield.RING_EDGES)
    lines.append(f"  Joined up and down each column and by the rings {rings}; "
                 f"{starfield.CENTRAL}* is the centre.")
    lines.append("")

    for owner in ([seat, 1 - seat] if seat is not None else list(players)):
        title = "Your Material Plane" if owner == seat else f"Material Plane of seat {owner}"
        lines += render_plane(title + " (row 0 first):", view["planes"][owner])
    lines.append("")
    if view["hand"] is not None:
        lines.append(f"Your hand ({len(view['hand'])}): {cards_text(view['hand'])}")
    face_down = [f"deck {view['deck_count']}"]
    face_down += [f"seat {p}'s hand {view['hand_counts'][p]}" for p in players if p != seat]
    if "discard" not in view:  # Lovers' Discourse discards face down
        face_down.append(f"discard pile {view['discard_count']}")
    lines.append("Face down: " + ", ".join(face_down))
    if view["waiting"]:
        lines.append(f"Raised, to place: {cards_text(view['waiting'])}")
    if view.get("discard"):
        lines.append(f"Discard pile ({len(view['discard'])}, oldest first): {cards_text(view['discard'])}")
    if view["out"]:
        lines.append(f"Out of the game: {cards_text(view['out'])}")
    if view.get("prompt"):
        lines += ["", view["prompt"]]
    return lines


# --- Dream Odyssey: the Tree as a journey ------------------------------------------------------

DREAM_STATUS = {"won": "overcome", "attainable": "attainable", "unattainable": "unreachable"}
TALE_LINES = 6  # the end of the tale under the board; the whole tale is in the view ("v")


def render_dream_odyssey(view: dict) -> list[str]:
    """The Tree top to bottom, each space with its state, Major, stack size and visible top
    card; where the traveller stands; hand, Party, wounds, the encounter, the decision at
    hand, the piles and the last lines of the tale."""
    player = view["seat"] is not None
    world = view["world"]
    header = (f"Dream Odyssey - turn {view['turn']} - {view['phase']} - overcome {view['score']} of "
              f"{len(view['spaces'])} - Minors deck {view['minors_deck_count']}, "
              f"Majors deck {view['majors_deck_count']}")
    lines = [header if player else header + " - watching",
             f"The dream: {world['landscape']} ({world['type']}); {card_text(world['crown'])} "
             "waits at the Crown.", ""]
    position = view["position"]
    here = SPACE_NAMES.get(position, position)
    travel = view["travel"]
    if travel:
        here += (f" (came from {SPACE_NAMES.get(travel['from'], travel['from'])})"
                 if travel.get("to") == position else
                 f" (on the way to {SPACE_NAMES.get(travel['to'], travel['to'])})")
    lines.append(f"The Tree of Life, top to bottom (>> marks you, at {here}):")
    for space in sorted(SPACES, key=lambda s: (LAYOUT[s][1], LAYOUT[s][0])):
        shown = view["spaces"][space]
        if shown["major"]:
            major = card_text(shown["major"])
        elif shown["status"] == "won":
            major = "-"
        else:
            major = "(Major face down)"
        stack = f"stack {shown['stack_count']}" if shown["stack_count"] else "no stack"
        if shown["stack_top"]:
            stack += f", top {card_text(shown['stack_top'])}"
        elif shown["stack_count"]:
            stack += ", face down"
        mark = ">>" if space == position else "  "
        lines.append(f"{mark}{SPACE_NAMES[space]:<16} {DREAM_STATUS.get(shown['status'], shown['status']):<12}"
                     f"{major:<24}{stack}")
    lines.append(f"{'>>' if position == ROOT else '  '}{'the root':<16} where the journey starts")
    branches = ", ".join(SPACE_NAMES[s] for s in SPACES + (ROOT,) if s in ADJACENT.get(position, ()))
    lines.append(f"  Branches from {SPACE_NAMES.get(position, position)}: {branches}")
    lines.append("")

    hand = view["hand"]
    lines.append(f"Hand ({len(hand)}): {cards_text(hand)}" if hand is not None
                 else f"Hand: {view['hand_count']} cards")
    lines.append(f"Party: {cards_text(view['party'])}")
    taken = [c for c in view["wounds"] if c]
    lines.append(f"Wounds ({len(taken)} of {len(view['wounds'])}): {cards_text(taken)}")

    fight = view["encounter"]
    if fight:
        where = SPACE_NAMES.get(fight["space"], fight["space"])
        title = (f"Encounter on the road to {where}" if fight["kind"] == "travel"
                 else f"Encounter at {where}" + ("" if fight["kind"] == "sefira" else f" ({fight['kind']})"))
        if fight["trigger"]:
            title += f", brought by {card_text(fight['trigger'])}"
        lines.append(title + ":")
        for slot in fight["slots"]:
            card = (f"{card_text(slot['card'])} ({slot['value']})" if slot["card"]
                    else "(face down)")
            text = f"  {slot['id']}: {card} - {slot['state']}"
            if slot["pip"]:
                text += f"; answered by {card_text(slot['pip'])}"
                if slot["boosts"]:
                    text += f" + {cards_text(slot['boosts'])}"
                text += f", strength {slot['strength']}"
            lines.append(text)
        if not fight["slots"]:
            lines.append("  (no card stands against you)")
        notes = []
        if fight["fool"]:
            notes.append("Aces count 11 and come back to hand")
        if fight["kept"]:
            notes.append(f"back to hand afterwards: {cards_text(fight['kept'])}")
        if fight["powers_used"]:
            notes.append(f"powers used: {cards_text(fight['powers_used'])}")
        if notes:
            lines.append("  (" + "; ".join(notes) + ")")

    choice = view["choice"]
    if choice:
        lines.append(f"Deciding: {choice['kind']}" + ("" if choice["prompt"] == view.get("prompt")
                                                          else f" - {choice['prompt']}"))
        details = []
        for key in ("power", "card", "first"):
            if choice.get(key):
                details.append(f"{key} {card_text(choice[key])}")
        for key in ("source", "end", "rest", "threat"):
            if choice.get(key):
                details.append(f"{key} {choice[key]}")
        if "count" in choice:
            looked = choice.get("cards")
            details.append(f"looking at {cards_text(looked)}" if looked is not None
                           else f"looking at {choice['count']} cards")
        if details:
            lines.append("  " + "; ".join(details))
    discarding = view["discarding"]
    if discarding:
        lines.append(f"On the way to the discard pile (usual order): {cards_text(discarding)}")
    elif discarding is None and view["discarding_count"]:
        lines.append(f"On the way to the discard pile: {view['discarding_count']} cards, face down")
    for key, title in (("minors_discard", "Minors"), ("majors_discard", "Majors")):
        if view[key]:
            lines.append(f"{title} discard pile ({len(view[key])}, top first): {cards_text(view[key])}")
    if view.get("prompt"):
        lines += ["", view["prompt"]]
    tale = view["tale"]
    if tale:
        shown_from = max(0, len(tale) - TALE_LINES)
        lines.append("")
        lines.append("The tale so far" + (f" (the last {TALE_LINES} of {len(tale)} lines):"
                                          if shown_from else ":"))
        lines += [f"  ~ {line}" for line in tale[shown_from:]]
    return lines


def render_generic(view: dict) -> list[str]:
    lines = []
    for key, value in view.items():
        if key == "log":
            continue
        text = json.dumps(value, ensure_ascii=False)
        lines.append(f"{key}: {text if len(text) < 300 else text[:297] + '...'}")
    return lines


# Board drawings per game; any game missing here is shown field by field.
