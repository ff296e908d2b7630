"""Tarot Hallow (``tarot-hallow.txt``, RULINGS 7): two to six seats bid for each revealed
Major with a Minor played face down, all at once.

A round: every seat in the contest plays one card face down (``to_act`` lists every seat
still to play); when the last has played the cards are revealed together.  The highest
number wins (the Ace above the Ten); a tie is replayed by the tied seats alone until one
wins or their hands are empty.  Court cards never win: their players give up the Major for
the court's power, used after the winner has scored, clockwise from the winner, each
power's choice a move of its own.  Hands are refilled to four from the winner clockwise.
The game ends when only the Fool is left under the Majors; a tie for the best score is
played off in one more round for the Fool.  How unclear rules were read:
``notes.md`` in this folder.
"""

from __future__ import annotations

import re
from itertools import combinations

from ..known_games import register
from ..base import IllegalMove, Move, Rules, State, shuffled
from ..cards import COURTS, MAJORS, MINORS, keyword, label, short_name

SLOTS = ("shadows", "magick", "monster")
SLOT_NAMES = {"shadows": "Shadows", "magick": "Magick", "monster": "Monster"}
FOOL = "M0"
HAND_SIZE = 4
COURT_NAMES = {"P": "Page", "N": "Knight", "Q": "Queen", "K": "King"}
POWER_MOVES = {"P": "page", "N": "knight", "Q": "queen", "K": "king"}

# The house table (RULINGS 7, tunable): which slot each Major goes to and what it scores.
HOUSE_SLOTS = {
    **{f"M{n}": "magick" for n in (1, 2, 5, 10, 14, 17, 21)},
    **{f"M{n}": "shadows" for n in (3, 6, 9, 11, 12, 18, 19)},
    **{f"M{n}": "monster" for n in (4, 7, 8, 13, 15, 16, 20)},
}


def upright_score(major: str) -> int:
    return 1 if major == FOOL else 1 + int(major[1:]) // 3


def reversed_score(major: str) -> int:
    return 1 if major == FOOL else -(1 + int(major[1:]) // 5)


def card_score(major: str, upright: bool) -> int:
    return upright_score(major) if upright else reversed_score(major)


def number(card: str) -> int | None:
    """A Minor's strength in a contest: 2-10 as printed, the Ace 14; courts None."""
    if card in COURTS:
        return None
    rank = card[:-1]
    return 14 if rank == "A" else int(rank)


MINOR_ORDER = {c: i for i, c in enumerate(MINORS)}
# describe_move's words for a card played face down and a Knight's gift (log_for hides them).
_PLAYED = re.compile(r"^Play the .+ face down$")
_KNIGHT_GIVES = re.compile(r"^(Knight: give ).+?( to )")
NON_FOOL_MAJORS = tuple(m for m in MAJORS if m != FOOL)


def seat_name(seat: int | None, viewer: int | None = None) -> str:
    if seat is None:
        return "nobody"
    return "you" if seat == viewer else f"Seat {seat}"


class TarotHallow(Rules):
    slug = "tarot_hallow"
    title = "Tarot Hallow"
    summary = ("Two to six players bid for each Major with a Minor laid face down, all at once; "
               "court cards trade the prize for a trick. Build the best three-card Reading.")
    min_players = 2
    max_players = 6
    variants = ("standard",)

    # --- set-up ------------------------------------------------------------------------

    def _given_pile(self, given, allowed: tuple[str, ...], what: str) -> list[str] | None:
        """A stacked pile: the given cards first, in order, then the others of the pile in
        their usual order (a stacked pile is never shuffled)."""
        if given is None:
            return None
        if not isinstance(given, list) or not all(isinstance(c, str) for c in given):
            raise ValueError(f"a stacked pile must be a list of card codes from {what}")
        if len(set(given)) != len(given):
            raise ValueError("a stacked pile cannot hold a card twice")
        strangers = [c for c in given if c not in allowed]
        if strangers:
            raise ValueError(f"{strangers[0]!r} is not one of {what}")
        return list(given) + [c for c in allowed if c not in given]

    def setup(self, state: State, options: dict, deck: list[str] | None) -> None:
        unknown = set(options) - {"variant", "majors_deck", "minors_deck", "dealer"}
        if unknown:
            raise ValueError(f"Unknown option(s) for {self.title}: {', '.join(sorted(unknown))}")
        # RULINGS 7: seat 0 deals the first game and the deal passes to the next seat each
        # game, so a game that follows another says who deals (kept in the options, so a
        # replay deals alike).  Dealing by seat order keeps stacked decks as ENGINE.md says.
        dealer = options.get("dealer", 0)
        if type(dealer) is not int or not 0 <= dealer < state["players"]:
            raise ValueError(f"options['dealer'] must be a seat number from 0 to {state['players'] - 1}")
        if dealer == 0:
            options.pop("dealer", None)  # the default: records of first games stay as they were
        if deck is not None and options.get("minors_deck") is not None:
            raise ValueError("give the Minors either as deck or as options['minors_deck'], not both")
        minors = self._given_pile(deck if deck is not None else options.get("minors_deck"),
                                  MINORS, "the 56 Minors")
        majors = self._given_pile(options.get("majors_deck"), NON_FOOL_MAJORS,
                                  "the 21 Majors other than the Fool")
        options.pop("majors_deck", None)
        options.pop("minors_deck", None)
        if minors is None:
            minors = shuffled(state, MINORS)
        if majors is None:
            majors = shuffled(state, NON_FOOL_MAJORS)
        n = state["players"]
        hands = []
        for _ in range(n):  # seat 0's whole hand first (ENGINE.md)
            hands.append(minors[:HAND_SIZE])
            minors = minors[HAND_SIZE:]
        state.update({
            "dealer": dealer,
            "minors": minors,
            "discard": [],
            "majors": majors[1:],
            "fool": FOOL,  # face up under the Majors until the Fool round
            "hands": hands,
            "readings": [{slot: [] for slot in SLOTS} for _ in range(n)],
            "out": [],
            "log": [],
            "story": [],
            "phase": "play",
            "powers": [],
            "last_round": None,
            "final": None,
        })
        self._start_round(state, majors[0], list(range(n)), fool_round=False)

    def _start_round(self, state: State, major: str, contest: list[int], fool_round: bool) -> None:
        n = state["players"]
        state["round"] = {
            "number": len(state["story"]) + 1,
            "major": major,
            "fool_round": fool_round,
            "contest": contest,
            "pending": [s for s in contest if state["hands"][s]],
            "face_down": [None] * n,
            "played": [[] for _ in range(n)],
            "steps": [],
            "winner": None,
        }
        state["phase"] = "play"
        self._log(state, None, "reveal_major", card=major)

    def _log(self, state: State, seat: int | None, event: str, seen_by: list[int] | None = None,
             **details) -> None:
        entry = {"n": state.get("moves", 0), "seat": seat, "event": event, **details}
        if seen_by is not None:
            entry["seen_by"] = seen_by
        state["log"].append(entry)

    # --- whose turn, what moves ----------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "play":
            return sorted(state["round"]["pending"])
        if phase == "place":
            return [state["round"]["winner"]]
        if phase == "power":
            return [state["powers"][0][0]]
        return []

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "play":
            return [{"type": "play", "card": c} for c in state["hands"][seat]]
        if phase == "place":
            return [{"type": "place", "to": slot} for slot in SLOTS]
        moves = self._power_moves(state, *state["powers"][0])
        return moves + [{"type": "decline"}] if moves else []

    def _tops(self, state: State, seat: int) -> list[tuple[str, str, bool]]:
        """(slot, card, upright) of each occupied slot of a seat's Reading."""
        return [(slot, stack[-1][0], stack[-1][1])
                for slot, stack in state["readings"][seat].items() if stack]

    def _power_moves(self, state: State, seat: int, court: str) -> list[Move]:
        n = state["players"]
        others = [s for s in range(n) if s != seat]
        kind = court[:-1]
        if kind == "P":
            return [{"type": "page", "card": card, "to": f"reading:{y}"}
                    for x in others for _slot, card, _up in self._tops(state, x)
                    for y in others if y != x]
        if kind == "N":
            mine = sorted(state["hands"][seat], key=MINOR_ORDER.__getitem__)
            moves = []
            for t in others:
                k = min(2, len(mine), len(state["hands"][t]))
                if k:
                    moves += [{"type": "knight", "cards": list(give), "to": f"hand:{t}"}
                              for give in combinations(mine, k)]
            return moves
        if kind == "Q":
            return [{"type": "queen", "card": card} for x in others
                    for _slot, card, _up in self._tops(state, x)]
        return [{"type": "king", "card": card} for _slot, card, _up in self._tops(state, seat)]

    def normalise_move(self, move: Move) -> Move:
        cards = move.get("cards")
        if isinstance(cards, list) and all(isinstance(c, str) and c in MINOR_ORDER for c in cards):
            return {**move, "cards": sorted(cards, key=MINOR_ORDER.__getitem__)}
        return move

    def explain_illegal(self, state: State, seat: int, move: Move) -> str:
        kind = move["type"]
        if state["phase"] == "play":
            if kind != "play":
                return "Now every seat in the contest plays one card face down."
            card = move.get("card")
            if not isinstance(card, str) or card not in MINOR_ORDER:
                return f"{card!r} is not a Minor Arcana card code (such as 9p or Qs)."
            if card not in state["hands"][seat]:
                return f"The {short_name(card)} is not in your hand."
            return "Play a card from your hand, and nothing else with it."
        if state["phase"] == "place":
            return "Place the Fool on Shadows, Magick or Monster (\"to\": \"shadows\", ...)."
        court = state["powers"][0][1]
        expected = POWER_MOVES[court[:-1]]
        if kind not in (expected, "decline"):
            return f"Use the {short_name(court)}'s power ({expected}) or decline it."
        return f"That is not a choice the {short_name(court)} allows now."

    # --- playing -----------------------------------------------------------------------------

    def play(self, state: State, seat: int, move: Move) -> None:
        kind = move["type"]
        if kind == "play":
            rnd = state["round"]
            state["hands"][seat].remove(move["card"])
            rnd["face_down"][seat] = move["card"]
            rnd["pending"].remove(seat)
            self._log(state, seat, "play_face_down")
            if not rnd["pending"]:
                self._reveal(state)
            return
        if kind == "place":
            winner = state["round"]["winner"]
            self._score(state, winner, FOOL, move["to"])
            self._next_power(state)
            return
        court = state["powers"].pop(0)[1]
        if kind == "decline":
            self._log(state, seat, "decline", card=court)
        elif kind == "page":
            self._page(state, seat, court, move["card"], int(move["to"].split(":")[1]))
        elif kind == "knight":
            self._knight(state, seat, court, move["cards"], int(move["to"].split(":")[1]))
        else:
            self._flip(state, seat, court, move["card"])
        self._next_power(state)

    def _reveal(self, state: State) -> None:
        rnd = state["round"]
        step = []
        for s in rnd["contest"]:
            card = rnd["face_down"][s]
            if card is None:
                continue
            step.append([s, card])
            rnd["played"][s].append(card)
            rnd["face_down"][s] = None
            self._log(state, s, "reveal", card=card)
        rnd["steps"].append(step)
        numbered = [(number(c), s) for s, c in step if number(c) is not None]
        if not numbered:
            self._log(state, None, "all_courts", card=rnd["major"])
            self._resolve(state, None)
            return
        best = max(v for v, _ in numbered)
        top = [s for v, s in numbered if v == best]
        if len(top) == 1:
            self._resolve(state, top[0])
            return
        if all(state["hands"][s] for s in top):
            rnd["contest"] = top
            rnd["pending"] = list(top)
            self._log(state, None, "tie", seats=top)
            return
        self._log(state, None, "tie_hands_empty", seats=top)
        self._resolve(state, None)

    def _resolve(self, state: State, winner: int | None) -> None:
        rnd = state["round"]
        major = rnd["major"]
        n = state["players"]
        rnd["winner"] = winner
        state["story"].append({"round": rnd["number"], "major": major, "winner": winner})
        # Powers go clockwise from the winner; with no winner, from the left of the dealer.
        start = winner if winner is not None else (state["dealer"] + 1) % n
        courts = [((s - start) % n, i, s, c) for i, step in enumerate(rnd["steps"])
                  for s, c in step if c in COURTS]
        state["powers"] = [[s, c] for _d, _i, s, c in sorted(courts)]
        if winner is None:
            state["out"].append(major)
            self._log(state, None, "removed", card=major)
            self._next_power(state)
        elif major == FOOL:
            state["phase"] = "place"
        else:
            self._score(state, winner, major, HOUSE_SLOTS[major])
            self._next_power(state)

    def _score(self, state: State, seat: int, major: str, slot: str) -> None:
        stack = state["readings"][seat][slot]
        upright = not stack or not stack[-1][1]
        stack.append([major, upright])
        self._log(state, seat, "score", card=major, to=slot, upright=upright)

    def _next_power(self, state: State) -> None:
        while state["powers"]:
            seat, court = state["powers"][0]
            if self._power_moves(state, seat, court):
                state["phase"] = "power"
                return
            state["powers"].pop(0)
            self._log(state, seat, "no_target", card=court)
        self._end_round(state)

    def _find_top(self, state: State, card: str) -> tuple[int, str]:
        for s, reading in enumerate(state["readings"]):
            for slot, stack in reading.items():
                if stack and stack[-1][0] == card:
                    return s, slot
        raise IllegalMove("That Major is not on top of any Reading.")  # legal_moves prevents it

    def _page(self, state: State, seat: int, court: str, card: str, to: int) -> None:
        owner, slot = self._find_top(state, card)
        entry = state["readings"][owner][slot].pop()
        state["readings"][to][slot].append(entry)
        self._log(state, seat, "page", card=card, court=court, **{"from": owner}, to=to, slot=slot)

    def _knight(self, state: State, seat: int, court: str, give: list[str], to: int) -> None:
        theirs = list(state["hands"][to])
        take = shuffled(state, theirs)[:len(give)]
        for c in give:
            state["hands"][seat].remove(c)
        for c in take:
            state["hands"][to].remove(c)
        state["hands"][seat] += take
        state["hands"][to] += give
        self._log(state, seat, "knight", seen_by=[seat, to], court=court, to=to,
                  cards=list(give), taken=take, count=len(give))

    def _flip(self, state: State, seat: int, court: str, card: str) -> None:
        owner, slot = self._find_top(state, card)
        top = state["readings"][owner][slot][-1]
        top[1] = not top[1]
        self._log(state, seat, "queen" if court[:-1] == "Q" else "king", card=card, court=court,
                  owner=owner, upright=top[1])

    def _end_round(self, state: State) -> None:
        rnd = state["round"]
        n = state["players"]
        for s in range(n):
            state["discard"] += rnd["played"][s]
        start = rnd["winner"] if rnd["winner"] is not None else (state["dealer"] + 1) % n
        for i in range(n):
            s = (start + i) % n
            while len(state["hands"][s]) < HAND_SIZE:
                if not state["minors"]:
                    if not state["discard"]:
                        break
                    state["minors"] = shuffled(state, state["discard"])
                    state["discard"] = []
                    self._log(state, None, "reshuffle", count=len(state["minors"]))
                state["hands"][s].append(state["minors"].pop(0))
        state["last_round"] = {"number": rnd["number"], "major": rnd["major"],
                               "winner": rnd["winner"], "steps": rnd["steps"],
                               "fool_round": rnd["fool_round"]}
        if rnd["fool_round"]:
            self._finish(state)
            return
        if state["majors"]:
            self._start_round(state, state["majors"].pop(0), list(range(n)), fool_round=False)
            return
        scores = self.scores(state)
        best = max(scores)
        tied = [s for s in range(n) if scores[s] == best]
        if len(tied) == 1:
            self._finish(state)
            return
        state["fool"] = None
        self._log(state, None, "fool_round", seats=tied)
        self._start_round(state, FOOL, tied, fool_round=True)

    def _finish(self, state: State) -> None:
        state["phase"] = "over"
        state["round"] = None
        scores = self.scores(state)
        best = max(scores)
        winners = [s for s, v in enumerate(scores) if v == best]
        table = ", ".join(f"Seat {s} {v}" for s, v in enumerate(scores))
        if len(winners) == 1:
            reason = f"Seat {winners[0]} has the best Reading with {best} points ({table})."
        else:
            reason = (f"{' and '.join(f'Seat {s}' for s in winners)} share the best Reading with "
                      f"{best} points ({table}).")
        state["final"] = {"result": "win" if len(winners) == 1 else "draw", "winners": winners,
                          "scores": scores, "reason": reason}
        self._log(state, None, "game_over", seats=winners)

    # --- what people see ---------------------------------------------------------------

    def scores(self, state: State) -> list[int]:
        return [sum(card_score(stack[-1][0], stack[-1][1]) for stack in reading.values() if stack)
                for reading in state["readings"]]

    def log_entries(self, state: State, seat: int | None) -> list[dict]:
        entries = []
        for entry in state["log"]:
            if "seen_by" in entry:
                entry = dict(entry)
                if seat not in entry.pop("seen_by"):
                    entry.pop("cards", None)
                    entry.pop("taken", None)
            entries.append(entry)
        return entries

    def log_for(self, view: dict, reader: int | None, entries) -> list[str]:
        """The move log for ``reader``: another seat's card played face down is "a card"
        even where the card shows elsewhere in the view (revealed in an earlier round,
        then reshuffled and drawn again), and so are the cards a Knight gave."""
        said = []
        for mover, text in entries:
            if mover != reader:
                text = _PLAYED.sub("Play a card face down", text)
                text = _KNIGHT_GIVES.sub(r"\1cards\2", text)
            said.append((mover, text))
        return super().log_for(view, reader, said)

    def view(self, state: State, seat: int | None) -> dict:
        n = state["players"]
        rnd = state["round"]
        player = seat is not None and 0 <= seat < n
        return {
            "game": self.slug,
            "seat": seat if player else None,
            "players": n,
            "dealer": state["dealer"],
            "phase": state["phase"],
            "to_act": self.to_act(state),
            "round": rnd["number"] if rnd else len(state["story"]),
            "major": rnd["major"] if rnd else None,
            "fool_round": bool(rnd and rnd["fool_round"]),
            "fool_under_pile": state["fool"] is not None,
            "majors_left": len(state["majors"]),
            "deck_count": len(state["minors"]),
            "discard": list(state["discard"]),
            "out": list(state["out"]),
            "hand": sorted(state["hands"][seat], key=MINOR_ORDER.__getitem__) if player else None,
            "hand_counts": [len(h) for h in state["hands"]],
            "contest": list(rnd["contest"]) if rnd else [],
            "waiting": sorted(rnd["pending"]) if rnd else [],
            "has_played": [rnd is not None and rnd["face_down"][s] is not None for s in range(n)],
            "your_card": rnd["face_down"][seat] if rnd and player else None,
            "revealed": [[{"seat": s, "card": c} for s, c in step] for step in rnd["steps"]] if rnd else [],
            "winner": rnd["winner"] if rnd else None,
            "powers": [{"seat": s, "card": c} for s, c in state["powers"]],
            "readings": [{slot: [{"card": c, "upright": up} for c, up in stack]
                          for slot, stack in reading.items()} for reading in state["readings"]],
            "scores": self.scores(state),
            "last_round": state["last_round"] and {
                **{k: v for k, v in state["last_round"].items() if k != "steps"},
                "revealed": [[{"seat": s, "card": c} for s, c in step]
                             for step in state["last_round"]["steps"]]},
            "story": [dict(e) for e in state["story"]],
            "outcome": state["final"],
            "log": self.log_entries(state, seat if player else None),
        }

    def zones(self, state: State) -> dict[str, list[str]]:
        n = state["players"]
        rnd = state["round"]
        zones = {"deck": list(state["minors"]), "discard": list(state["discard"]),
                 "majors": list(state["majors"]), "fool": [state["fool"]] if state["fool"] else [],
                 "table": [rnd["major"]] if rnd and state["phase"] in ("play", "place") else [],
                 "out": list(state["out"])}
        for s in range(n):
            zones[f"hand:{s}"] = list(state["hands"][s])
            zones[f"played:{s}"] = list(rnd["played"][s]) if rnd else []
            zones[f"face_down:{s}"] = [rnd["face_down"][s]] if rnd and rnd["face_down"][s] else []
            for slot in SLOTS:
                zones[f"reading:{s}:{slot}"] = [c for c, _up in state["readings"][s][slot]]
        return zones

    def outcome(self, state: State) -> dict | None:
        return state["final"]

    def reading(self, state: State) -> dict:
        seats = []
        for s, reading in enumerate(state["readings"]):
            positions = []
            for slot in SLOTS:
                stack = reading[slot]
                card, up = (stack[-1][0], stack[-1][1]) if stack else (None, None)
                positions.append({"id": slot, "name": SLOT_NAMES[slot], "card": card,
                                  "upright": up, "reversed": up is False,
                                  "keyword": keyword(card) if card else None,
                                  "score": card_score(card, up) if card else 0})
            seats.append({"seat": s, "positions": positions,
                          "cards": [p["card"] for p in positions if p["card"]],
                          "won": [e["major"] for e in state["story"] if e["winner"] == s],
                          "score": sum(p["score"] for p in positions)})
        return {"game": self.slug, "seats": seats, "story": [dict(e) for e in state["story"]],
                "out": list(state["out"])}

    def describe_move(self, state: State, seat: int, move: Move) -> str:
        kind = move.get("type")
        if kind == "play":
            return f"Play the {short_name(move['card'])} face down"
        if kind == "place":
            return f"Place The Fool on {SLOT_NAMES.get(move.get('to'), move.get('to'))}"
        court = state["powers"][0][1] if state.get("powers") else None
        if kind == "decline":
            return f"Do not use the {short_name(court)}" if court else "Decline"
        if kind == "page":
            owner, slot = self._find_top(state, move["card"])
            to = int(move["to"].split(":")[1])
            return (f"Page: move {label(move['card'])} from Seat {owner}'s {SLOT_NAMES[slot]} "
                    f"to Seat {to}'s Reading")
        if kind == "knight":
            to = int(move["to"].split(":")[1])
            given = " and ".join(short_name(c) for c in move["cards"])
            return f"Knight: give {given} to {seat_name(to, seat)} and take {len(move['cards'])} at random"
        if kind in ("queen", "king"):
            owner, slot = self._find_top(state, move["card"])
            up = state["readings"][owner][slot][-1][1]
            whose = "your" if owner == seat else f"Seat {owner}'s"
            return (f"{kind.title()}: turn {whose} {label(move['card'])} "
                    f"{'reversed' if up else 'upright'}")
        return super().describe_move(state, seat, move)


# --- a text drawing of the table from one seat (terminal play, turn mail) -------------------

def render_tarot_hallow(view: dict, names: list[str] | None = None) -> list[str]:
    """The table as one seat sees it: the Major in contest, each seat clockwise with its
    hand count, whether it has played, its Reading and score; the reveal; your hand."""
    me = view["seat"]
    n = view["players"]

    def name(s: int | None) -> str:
        if s is None:
            return "nobody"
        if s == me:
            return "You"
        return names[s] if names else f"Seat {s}"

    lines = []
    head = f"Tarot Hallow - round {view['round']}"
    if view["major"]:
        slot = HOUSE_SLOTS.get(view["major"])
        head += (f" - for {label(view['major'])}" + (f" ({SLOT_NAMES[slot]}, +{upright_score(view['major'])}"
                 f"/{reversed_score(view['major'])})" if slot else " (any slot, 1 point)"))
    if view["fool_round"]:
        head += " - the Fool round"
    lines.append(head)
    lines.append(f"Majors left {view['majors_left']}" + (" + the Fool" if view["fool_under_pile"] else "")
                 + f"; Minors deck {view['deck_count']}, discard {len(view['discard'])}")
    lines.append("")
    # Each seat's name has a line of its own: the mail puts players' names, of any length,
    # where "Seat N" stands, so nothing after a name could stay in its column.  The columns
    # below it are as wide as the widest entry of any seat.
    rows = []
    for s in range(n):
        if s in view["waiting"]:
            status = "to play"
        elif view["has_played"][s]:
            status = "played " + (short_name(view["your_card"]) if s == me and view["your_card"]
                                  else "[face down]")
        else:
            status = "-"
        slots = []
        for slot in SLOTS:
            stack = view["readings"][s][slot]
            if stack:
                top = stack[-1]
                slots.append(f"{SLOT_NAMES[slot]} {label(top['card'])}"
                             f"{'' if top['upright'] else ' (reversed)'}"
                             + (f" over {len(stack) - 1}" if len(stack) > 1 else ""))
            else:
                slots.append(f"{SLOT_NAMES[slot]} -")
        rows.append((s, status, slots))
    width = max(len(status) for _s, status, _slots in rows)
    for s, status, slots in rows:
        lines.append(f"{'*' if s == view['dealer'] else ' '} {name(s)}" + (" (deals)" if s == view["dealer"] else ""))
        lines.append(f"    hand {view['hand_counts'][s]}  {status:<{width}}  score {view['scores'][s]:>3}")
        lines.append("    " + "; ".join(slots))
    for title, steps in (("Revealed this round", view["revealed"]),
                         ("Last round" + (f" ({label(view['last_round']['major'])}, won by "
                                          f"{name(view['last_round']['winner'])})" if view["last_round"] else ""),
                          view["last_round"]["revealed"] if view["last_round"] else [])):
        if steps:
            lines.append("")
            lines.append(title + ":")
            for i, step in enumerate(steps):
                lines.append(f"  {'play' if i == 0 else 'tie ' + str(i)}: " + ", ".join(
                    f"{name(e['seat'])} {short_name(e['card'])}" for e in step))
    if view["powers"]:
        lines.append("Powers to come: " + ", ".join(f"{name(p['seat'])} ({short_name(p['card'])})"
                                                    for p in view["powers"]))
    if view["hand"] is not None:
        lines.append("")
        lines.append("Your hand: " + (", ".join(short_name(c) for c in view["hand"]) or "-"))
    if view["outcome"]:
        lines.append("")
        winners = view["outcome"]["winners"]
        lines.append("Game over: " + " and ".join(name(s) for s in winners)
                     + (" wins." if len(winners) == 1 else " share the win."))
    return lines


register(TarotHallow())


TarotHallow.text_drawing = staticmethod(render_tarot_hallow)  # defined below the class it draws
