"""Play any registered game in a terminal: the fastest way for a person to check the rules.

    python -m games.engine.play know_thyself --seed 5
    python -m games.engine.play know_thyself --seed 5 --variant fated --variant numerology
    python -m games.engine.play know_thyself --deck M9,M10,Qp,3c (drawn first, the rest shuffled)
    python -m games.engine.play lovers_discourse --players 2 --auto 40

It shows the acting seat's ``view`` as text (games may add a board drawing to ``RENDERERS``;
any other game is shown as its view's fields), then numbers ``legal_moves`` described in words.
Type a number to make that move; ``v`` prints the raw view as JSON, ``r`` the reading, ``z`` the
zones (every card, hidden ones included: a rules check, not a player's tool), ``a N`` plays N
random moves, ``q`` quits.  Several seats at one table take turns at the same keyboard.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Callable, TextIO

from . import RULES, IllegalMove, get_rules
from .cards import DECK, label, short_name
from .tree import CENTRAL, LAYOUT, SPACE_NAMES, SPACES

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


def render_generic(view: dict) -> list[str]:
    lines = []
    for key, value in view.items():
        if key == "log":
            continue
        text = json.dumps(value, ensure_ascii=False)
        lines.append(f"{key}: {text if len(text) < 300 else text[:297] + '...'}")
    return lines


# Board drawings per game; any game missing here is shown field by field.
RENDERERS: dict[str, Callable[[dict], list[str]]] = {"know_thyself": render_know_thyself}


def show(rules, state, seat, out: TextIO, log_from: int) -> int:
    view = rules.view(state, seat)
    log = view.get("log") or []
    for line in log[log_from:]:
        print(f"  | {line}", file=out)
    print(file=out)
    for line in RENDERERS.get(rules.slug, render_generic)(view):
        print(line, file=out)
    return len(log)


def main(argv: list[str] | None = None, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    parser = argparse.ArgumentParser(prog="python -m games.engine.play",
                                     description="Play a game of the engine in the terminal.")
    parser.add_argument("game", choices=sorted(RULES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--variant", action="append", help="repeat to combine variations")
    parser.add_argument("--deck", help="comma-separated card codes drawn first, in order; the "
                        "other cards follow, shuffled by the seed")
    parser.add_argument("--auto", type=int, default=0, help="first play N random moves")
    args = parser.parse_args(argv)

    rules = get_rules(args.game)
    players = args.players or rules.min_players
    options = {"variant": args.variant or "standard"}
    deck = None
    if args.deck:
        deck = [c.strip() for c in args.deck.split(",") if c.strip()]
        rest = [c for c in DECK if c not in deck]
        random.Random(args.seed).shuffle(rest)
        deck += rest
    try:
        state = rules.new_game(args.seed, players, options, deck)
    except ValueError as error:
        print(f"Cannot start: {error}", file=out)
        return 2
    rnd = random.Random(args.seed)
    auto = args.auto
    shown: dict[int | None, int] = {}
    while True:
        seats = rules.to_act(state)
        if not seats:
            break
        seat = seats[0]
        moves = rules.legal_moves(state, seat)
        if auto > 0:
            auto -= 1
            move = rnd.choice(moves)
            print(f"(random) seat {seat}: {rules.describe_move(state, seat, move)}", file=out)
            state = rules.apply(state, seat, move)
            continue
        shown[seat] = show(rules, state, seat, out, shown.get(seat, 0))
        print(file=out)
        if players > 1:
            print(f"Seat {seat} to act.", file=out)
        for i, move in enumerate(moves, 1):
            print(f"  {i:>3}. {rules.describe_move(state, seat, move)}", file=out)
        while True:
            print("> ", end="", file=out, flush=True)
            line = stdin.readline()
            if not line:
                return 0
            line = line.strip()
            if line == "q":
                return 0
            if line == "v":
                print(json.dumps(rules.view(state, seat), indent=1, ensure_ascii=False), file=out)
                continue
            if line == "r":
                print(json.dumps(rules.reading(state), indent=1, ensure_ascii=False), file=out)
                continue
            if line == "z":
                for zone, cards in rules.zones(state).items():
                    print(f"  {zone}: {' '.join(cards)}", file=out)
                continue
            if line.startswith("a"):
                count = line[1:].strip()
                auto = int(count) if count.isdigit() else 1
                break
            if line.startswith("{"):
                try:  # a move typed as JSON, to see how a wrong one is refused
                    state = rules.apply(state, seat, json.loads(line))
                    break
                except (ValueError, IllegalMove) as error:
                    print(f"Refused: {error}", file=out)
                    continue
            if line.isdigit() and 1 <= int(line) <= len(moves):
                state = rules.apply(state, seat, moves[int(line) - 1])
                break
            print(f"Type 1-{len(moves)}, or v (view), r (reading), z (zones), a N (random), "
                  "a JSON move, q (quit).", file=out)
    for seat in range(players):
        shown[seat] = show(rules, state, seat, out, shown.get(seat, 0))
    outcome = rules.outcome(state)
    print(file=out)
    print(f"Game over: {outcome['result']}. {outcome['reason']} Scores: {outcome['scores']}",
          file=out)
    reading = rules.reading(state)
    if args.game == "know_thyself":
        print("\nThe reading:", file=out)
        for p in reading["positions"]:
            minors = f" with {cards_text(p['minors'])}" if p["minors"] else ""
            print(f"  {p['name']}: {card_text(p['major'])} ({p.get('keyword', '')}){minors}"
                  f" - {p['question']}", file=out)
        if reading["obstacle"]:
            o = reading["obstacle"]
            print(f"  {o['name']}: {card_text(o['card'])} ({o['keyword']}) - {o['question']}",
                  file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
