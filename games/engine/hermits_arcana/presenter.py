"""Hermit's Arcana on the page and in the journal.

The board as the text lays it out: Fate, the altar's four Sigils and the honour pile on
top; Chance, the table's top row and the heap below; the table's bottom row under that.
Every card shows its way up (a reversed card is drawn upside down).

A maneuver takes several table cards, so the page keeps a *selection* rather than one
picked card: ``pick`` is the selected codes joined by dots ("2p.5p.9p"), each table card a
link that adds or removes itself, and each Sigil offers the moves of that selection
(exalt or bind, devote and banish for one card; an exalt whose set holds the selection
shows too, as "Exalt +N").  Choices that take one card (which heap card
to return, which table card stays after the Fool) are buttons on the cards themselves.
"""

from __future__ import annotations

from games.engine import cards as deck
from games.presenters.common import Choice, Presentation, card_back, card_info, outcome_summary, presentation

from .rules import ROWS, sigil_name


SEP = "."
KIND_WORDS = {"exalt": "Exalt", "devote": "Devote", "banish": "Banish", "fool": "Fool's maneuver"}


def _selection(pick: str | None, allowed: list[str]) -> list[str]:
    if not pick:
        return []
    chosen = [c for c in pick.split(SEP) if c in allowed]
    return [c for c in allowed if c in chosen]  # in the table's order, each once


def _toggle(selection: list[str], code: str, single: bool) -> str:
    if code in selection:
        rest = [c for c in selection if c != code]
    else:
        rest = [code] if single else selection + [code]
    return SEP.join(rest) or "none"


def _card(entry: dict | None, **extra) -> dict | None:
    if not entry:
        return None
    info = card_info(entry["card"])
    if entry["card"][0] == "M":
        info["name"] = sigil_name(entry["card"])
    info["reversed"] = bool(entry.get("reversed"))
    info.update(extra)
    return info


def present(rules, state, view, seat, moves, pick) -> Presentation:
    phase = view.get("phase")
    table = view.get("table") or [None] * 8
    on_table = [t["card"] for t in table if t]
    selectable = on_table if phase in ("maneuver", "shift") and moves else []
    selection = _selection(pick, selectable)
    single = phase == "shift"

    def describe(move):
        return Choice(move, rules.describe_move(state, seat, move))

    # The Sigils, each with the moves of the current selection.
    altar = []
    for i, sigil in enumerate(view.get("altar") or []):
        if not sigil:
            altar.append(None)
            continue
        to = f"altar:{i}"
        choices = []
        for move in moves:
            if move.get("to") != to:
                continue
            if move["type"] == "fool":
                choices.append((KIND_WORDS["fool"], describe(move)))
            elif move["type"] in ("devote", "banish") and selection == [move["card"]]:
                choices.append((KIND_WORDS[move["type"]], describe(move)))
            elif move["type"] == "exalt" and selection and set(selection) <= set(move["cards"]):
                # The exact selection, or (so one tap shows every way to finish) a set that
                # holds it: "Exalt +2" offers two cards more, named on the button's title.
                verb = "Bind" if sigil["reversed"] else "Exalt"
                more = len(move["cards"]) - len(selection)
                choices.append((f"{verb} +{more}" if more else verb, describe(move)))
        altar.append({
            "slot": i, "dom": f"altar-{i}", "card": _card(sigil), "short": sigil["short"], "ritual": sigil["ritual"],
            "offered": [_card(o) for o in sigil["offered"]], "locked": sigil["locked"],
            "mode": sigil.get("mode") or "", "choices": choices,
            "rules": ", ".join(w for w, flag in (("no banish", not sigil["banishable"]),
                                                  ("no offerings", not sigil["devotable"]),
                                                  ("no bonus", sigil["apophatic"])) if flag),
        })

    # The table's spots: a card (a selection link), or empty (a Shift target).
    shift_to = {m["to"]: describe(m) for m in moves if m["type"] == "shift" and selection == [m["card"]]}
    keep = {m["card"]: describe(m) for m in moves if m["type"] == "keep"}
    spots = []
    for i, entry in enumerate(table):
        code = entry["card"] if entry else None
        spots.append({
            "id": f"table:{i}", "dom": f"table-{i}",
            "card": _card(entry, picked=code in selection, pickable=code in selectable) if entry else None,
            "toggle": _toggle(selection, code, single) if code in selectable else "",
            "target": shift_to.get(f"table:{i}"), "keep": keep.get(code) if code else None,
        })
    rows = [[spots[i] for i in row] for row in ROWS]

    heap = view.get("heap") or []
    returns = {m["card"]: describe(m) for m in moves if m["type"] in ("return", "search")}
    heap_cards = [_card(h, choice=returns.get(h["card"])) for h in heap]
    actions = [describe(m) for m in moves if m["type"] in ("ground", "rest", "pass")]

    facts = [("Round", view.get("round")), ("Score", view.get("score")),
             ("Honoured", f"{len(view.get('honour') or [])} of 22")]
    if view.get("owed"):
        facts.append(("To return", view["owed"]))
    board = {
        "phase": phase,
        "fate_count": view.get("fate_count"), "chance_count": view.get("chance_count"),
        "altar": altar, "rows": rows,
        "heap": heap_cards, "heap_top": heap_cards[-1] if heap_cards else None,
        "choosing_heap": bool(returns),
        "honour": [_card(h) for h in view.get("honour") or []],
        "strange": [s["text"] for s in view.get("strange") or []],
        "selection": selection, "selection_names": [deck.short_name(c) for c in selection],
        "death_wakes": view.get("death_wakes"),
        "back": card_back("A face-down pile"),
    }
    picked = {"code": SEP.join(selection), "name": ", ".join(board["selection_names"])} if selection else None
    show = presentation(view, moves, None, [], actions, board_kind="hermit", board=board,
                        cells=_diagram_cells(), board_width=6, board_height=3, facts=facts)
    show.picked = picked
    return show


def _diagram_cells() -> list[dict]:
    """The board's places for the rules page's diagram (a grid of 6 by 3)."""
    cells = [{"x": 1, "y": 1, "name": "Fate", "kind": "pile"}, {"x": 6, "y": 1, "name": "Honour", "kind": "pile"},
             {"x": 1, "y": 2, "name": "Chance", "kind": "pile"}, {"x": 6, "y": 2, "name": "Heap", "kind": "pile"}]
    cells += [{"x": 2 + i, "y": 1, "name": f"Altar {i + 1}", "kind": "sefira"} for i in range(4)]
    cells += [{"x": 2 + i, "y": 2, "name": f"Table {i + 1}", "kind": "grace"} for i in range(4)]
    cells += [{"x": 2 + i, "y": 3, "name": f"Table {i + 5}", "kind": "grace"} for i in range(4)]
    return cells


# --- the journal's reading ------------------------------------------------------------------


def reading_layout(engine: dict, outcome: dict | None, seat: int | None = None) -> dict:
    """RULINGS 7's reading: the present rites, the first and last offerings and (on a loss)
    what asks for more, each Sigil with its way up and its keyword (a reversed one read as
    the keyword's shadow)."""
    sections = {"rites": [], "offerings": [], "more": []}
    for pos in engine.get("positions", []):
        if not deck.is_card(pos.get("card")):
            continue
        reads = pos.get("reads") or pos.get("keyword") or ""
        meaning = (f"Reversed: {pos.get('keyword')} in shadow, {reads}." if pos.get("reversed")
                   else f"Upright: {reads}.")
        where = "rites" if pos["position"].startswith("rite") else "more" if pos["position"] == "more" else "offerings"
        sections[where].append({
            "id": pos["position"].replace(":", "-"), "label": pos.get("name") or pos["position"],
            "question": pos.get("question", ""), "meaning": meaning, "card": pos["card"],
            "reversed": bool(pos.get("reversed")), "minors": [],
            # The journal names cards as the deck does; this game calls XX by its old name.
            "note": "Judgement, as Hermit's Arcana calls XX." if pos["card"] == "M20" else "",
        })
    titled = [("rites", "The present rites", "The Sigils on the altar when the game ended (on a win, the last four "
                                              "honoured), left to right."),
              ("offerings", "The first and the last offering", "Where the game's honours began and ended."),
              ("more", "What asks for more", "The Sigil the game left most unfinished.")]
    layout = {"layout": "spread",
              "sections": [{"id": key, "title": title, "about": about, "positions": sections[key]}
                           for key, title, about in titled if sections[key]],
              "story": [], "summary": outcome_summary(outcome)}
    layout["seal"] = list(dict.fromkeys(p["card"] for key, *_ in titled for p in sections[key]))[:5]
    return layout
