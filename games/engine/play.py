"""Play any registered game in a terminal: the fastest way for a person to check the rules.

    python -m games.engine.play know_thyself --seed 5
    python -m games.engine.play know_thyself --seed 5 --variant fated --variant numerology
    python -m games.engine.play know_thyself --deck M9,M10,Qp,3c (drawn first, the rest shuffled)
    python -m games.engine.play lovers_discourse --players 2 --auto 40

It shows the acting seat's ``view`` as text (each game's board drawing, ``Rules.text_drawing``, made
from the view alone; a game without one is shown as its view's fields), then numbers
``legal_moves`` described in words.
Type a number to make that move; ``v`` prints the raw view as JSON, ``r`` the reading, ``z`` the
zones (every card, hidden ones included: a rules check, not a player's tool), ``a N`` plays N
random moves (never a forfeit), ``q`` quits.  Several seats at one table take turns at the same
keyboard, each shown the board as their own ``view`` has it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TextIO

from .base import IllegalMove
from .known_games import RULES, get_rules
from . import starfield
from .cards import DECK
from .drawings import (card_text, cards_text, render_dream_odyssey, render_generic,  # noqa: F401
                       render_know_thyself, render_starfield)



def log_text(entry) -> str:
    """A log line in words: a sentence stays as it is; an event record (the Starfield's
    ``{"n", "seat", "event", ...}``) becomes "seat 0 play: XIII Death, to R0"."""
    if not isinstance(entry, dict):
        return str(entry)
    who_did = f"seat {entry['seat']}" if isinstance(entry.get("seat"), int) else "-"
    details = []
    for key, value in entry.items():
        if key in ("n", "seat", "event"):
            continue
        if key == "card":
            details.append(card_text(value))
        elif key == "cards":
            details.append(cards_text(value))
        elif key == "column":
            details.append(f"column {value + 1}")
        elif key == "count":
            if "cards" not in entry:  # else the cards themselves say how many
                details.append(f"{value} card{'s' if value != 1 else ''}")
        elif key == "to" and starfield.is_gift(value):
            details.append(f"to the Gift Field of {starfield.GIFT_NAMES[value]}")
        else:
            details.append(f"{key} {value}")
    return f"{who_did} {entry.get('event', '')}" + (": " + ", ".join(details) if details else "")


def reading_lines(reading: dict) -> list[str]:
    """The divination a finished game leaves: each position with its card(s), keyword,
    Minors and question (Know Thyself, the Starfield games), or the seal's candidate cards
    (Dream Odyssey)."""
    lines = ["", "The reading:"]
    for p in reading.get("positions") or []:
        title = p.get("name") or p.get("label") or p.get("id")
        majors = p.get("cards") or [c for c in [p.get("major") or p.get("card")] if c]
        if not majors:
            lines.append(f"  {title}: (empty) - {p.get('question', '')}")
            continue
        keyword = p.get("keyword") or ", ".join(p.get("keywords") or [])
        minors = f" with {cards_text(p['minors'])}" if p.get("minors") else ""
        lines.append(f"  {title}: {' & '.join(map(card_text, majors))} ({keyword}){minors}"
                     f" - {p.get('question', '')}")
    obstacle = reading.get("obstacle")
    if obstacle:
        lines.append(f"  {obstacle['name']}: {card_text(obstacle['card'])} ({obstacle['keyword']})"
                     f" - {obstacle['question']}")
    for seat in reading.get("seats") or []:  # a reading per seat (Tarot Hallow)
        slots = "; ".join(f"{p['name']} " + (f"{card_text(p['card'])}{' (reversed)' if p.get('reversed') else ''}"
                                             if p["card"] else "-") for p in seat["positions"])
        lines.append(f"  Seat {seat['seat']} ({seat['score']} points): {slots}")
    if not reading.get("positions") and reading.get("cards"):
        keywords = reading.get("keywords") or {}
        lines.append("  Cards for the seal: " + ", ".join(
            f"{card_text(c)} ({keywords[c]})" if c in keywords else card_text(c) for c in reading["cards"]))
    return lines


def show(rules, state, seat, out: TextIO, log_from: int) -> int:
    view = rules.view(state, seat)
    log = view.get("log") or []
    for line in log[log_from:]:
        print(f"  | {log_text(line)}", file=out)
    print(file=out)
    for line in (rules.text_drawing or render_generic)(view):
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
            # Random play never gives up (Warring Planets offers a forfeit at every move,
            # which would end most random games within a few turns).
            move = rnd.choice([m for m in moves if m.get("type") != "forfeit"] or moves)
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
    if rules.cooperative:  # the partners' one result and one shared score
        print(f"Game over: {'won' if outcome['result'] == 'win' else 'lost'} together. {outcome['reason']} "
              f"Shared score: {outcome['scores'][0]}", file=out)
    else:
        print(f"Game over: {outcome['result']}. {outcome['reason']} Scores: {outcome['scores']}",
              file=out)
    for line in reading_lines(rules.reading(state)):
        print(line, file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
