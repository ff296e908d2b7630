"""Hermit's Arcana: the tarot patience (``hermits-arcana.txt``; RULINGS section 7).

Fate (the 22 Majors, the Sigils) and Chance (the 56 Minors, the table cards) are shuffled
by the seed and every card turned upright or reversed by it, once for the whole game.
Four Sigils stand on the altar, eight table cards on the table (two rows of four); each
round is a Morning (Death waking), one maneuver and an Evening (the Shift, the draws and
reveals), until all 22 Sigils are honoured or no maneuver is left.

The state is one JSON-able dict.  Its ``phase`` says which choice is open:

``maneuver``  Banish, Devote, Exalt/Bind, Ground or the Fool's maneuver
``return``    a "return N" owed: pick heap cards one by one for the bottom of Chance
``search``    the Hermit's search: return one heap card of your choice, or not
``keep``      after the Fool: the table card that stays
``shift``     before the Evening's draws: move one table card to an empty spot, or not
``over``      the game has ended; ``result`` says how

Space ids: ``altar:0``..``altar:3`` (left to right), ``table:0``..``table:3`` the top row
left to right and ``table:4``..``table:7`` the bottom row left to right, ``row:0`` and
``row:1`` the two rows for Ground.  The Evening fills the altar left to right, then the
table's top row left to right and its bottom row right to left (the text's order, left
being sinister); a Ground, the Fool's clearing and Death discard the table in that order.

Rulings beyond RULINGS 7, where the text is silent: ``notes.md`` in this folder.
"""

from __future__ import annotations

from itertools import combinations

from ..base import Move, Rules, State, rng
from ..cards import CARDS, MAJORS, MINORS, ROMAN, is_card, short_name
from .rituals import (APOPHATIC, BANISHABLE, CHARIOT, DEATH, DEVIL, DEVOTABLE, FOOL, FULL,
                             HERMIT, JUDGEMENT, LOVERS, MAX_CARDS, RITUALS, SHADOWS, SHORT,
                             STRENGTH, SUN, TEMPERANCE, TOWER, WORLD, is_figure, sun_returns)
from ..known_games import register

SLUG = "hermits_arcana"
ALTAR = 4
TABLE = 8
FILL_ORDER = (0, 1, 2, 3, 7, 6, 5, 4)  # top row left to right, bottom row right to left
ROWS = ((0, 1, 2, 3), (4, 5, 6, 7))
DEATH_WAKES = 3  # the round an opening Death acts in
ESOTERIC = 220
_MOVE_KEYS = {"banish": {"card", "to"}, "devote": {"card", "to"}, "exalt": {"cards", "to"},
              "ground": {"to"}, "fool": {"to"}, "return": {"card"}, "search": {"card"}, "pass": set(),
              "keep": {"card"}, "shift": {"card", "to"}, "rest": set()}
_MANEUVERS = ("banish", "devote", "exalt", "ground", "fool")
_AFTER_RETURNS = {JUDGEMENT: 2, WORLD: 4}


def sigil_name(code: str) -> str:
    return "Judgement" if code == JUDGEMENT else CARDS[code].name


def sigil_label(code: str) -> str:
    return f"{ROMAN[int(code[1:])]} {sigil_name(code)}"


def card_name(code: str) -> str:
    return sigil_name(code) if code[0] == "M" else short_name(code)


def the(code: str) -> str:
    return sigil_name(code) if code[0] == "M" else f"the {short_name(code)}"


def cards_words(codes) -> str:
    names = [the(c) for c in codes]
    if len(names) < 3:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _log(state: State, event: str) -> None:
    state["log"].append(event)


def _order(codes) -> list[str]:
    """Cards in the deck's order, so one set of cards is one move however it is given."""
    index = _INDEX
    return sorted(codes, key=lambda c: index.get(c, 999))


_INDEX = {c: i for i, c in enumerate(MAJORS + MINORS)}


class HermitsArcana(Rules):
    slug = SLUG
    title = "Hermit's Arcana"
    summary = ("A tarot patience: honour all 22 Majors on a small altar by offering them the right "
               "Minors from the table before the Minors run out; some Majors keep strange rules of their own.")
    min_players = 1
    max_players = 1
    variants = ("standard",)

    # --- set-up ---------------------------------------------------------------------------

    def setup(self, state: State, options: dict, deck: list[str] | None) -> None:
        unknown = set(options) - {"variant", "majors_deck", "minors_deck", "reversed"}
        if unknown:
            raise ValueError(f"Unknown option(s) for {self.title}: {', '.join(sorted(unknown))}")
        if deck is not None:
            if (not isinstance(deck, list) or sorted(map(str, deck)) != sorted(MAJORS + MINORS)):
                raise ValueError("deck must list each of the 78 card codes exactly once")
            majors = [c for c in deck if c[0] == "M"]
            minors = [c for c in deck if c[0] != "M"]
        else:
            majors = self._pile(state, options.get("majors_deck"), MAJORS, "majors_deck")
            minors = self._pile(state, options.get("minors_deck"), MINORS, "minors_deck")
        given = options.get("reversed")
        if given is not None:
            if not isinstance(given, list) or not all(is_card(c) for c in given):
                raise ValueError("options['reversed'] must be a list of card codes")
            reversed_ = sorted(set(given), key=_INDEX.get)
        else:
            # "Cut and turn": each card's way up decided by the seed.
            turn = rng(state)
            reversed_ = [c for c in MAJORS + MINORS if turn.random() < 0.5]
        state.update({
            "fate": majors, "chance": minors, "reversed": reversed_,
            "altar": [None] * ALTAR, "offered": {}, "table": [None] * TABLE, "heap": [], "honour": [],
            "round": 0, "phase": "maneuver", "owed": 0, "search": False, "keep": False,
            # the strange Sigils: their modes and what they did, for the page and the score
            "modes": {}, "death": {"acted": 0, "removed": 0, "wakes": None}, "tower_discards": None,
            "fool_returned": None, "fool_pending": None, "banished": 0,
            "result": None, "log": [],
        })
        self._fill(state, opening=True)
        self._morning(state)

    def _pile(self, state, given, cards, name) -> list[str]:
        if given is None:
            pile = list(cards)
            rng(state).shuffle(pile)
            return pile
        if not isinstance(given, list) or sorted(map(str, given)) != sorted(cards):
            raise ValueError(f"options[{name!r}] must list each of the {len(cards)} cards exactly once")
        return list(given)

    # --- facts ----------------------------------------------------------------------------

    def is_reversed(self, state: State, code: str) -> bool:
        return code in state["reversed"]

    def ritual_of(self, state: State, sigil: str) -> str | None:
        """Whose ritual honours ``sigil`` by offering, or None if it is never offered to."""
        if sigil in (TEMPERANCE, DEVIL):
            mode = state["modes"].get(sigil)
            if sigil == TEMPERANCE and mode == "triumphant":
                return STRENGTH
            if sigil == DEVIL and mode == "fooled":
                return LOVERS
            return None
        if sigil in (DEATH, TOWER, FOOL):
            return None
        return sigil

    def locked(self, state: State, sigil: str) -> bool:
        """A Sigil whose offerings can never be part of its ritual: it cannot be honoured
        by offering any more (the Tower may still take its place)."""
        offered = state["offered"].get(sigil) or []
        if not offered:
            return False
        ritual = self.ritual_of(state, sigil)
        return ritual is None or not RITUALS[ritual][0](offered)

    def score(self, state: State) -> int:
        return sum(self.score_parts(state).values())

    def score_parts(self, state: State) -> dict[str, int]:
        honour = state["honour"]
        parts = {"honoured": 10 * len(honour), "chance": len(state["chance"])}
        death = state["death"]
        if death["acted"]:
            parts["death"] = 10 * death["removed"] if death["removed"] else -50
        mode = state["modes"]
        if TEMPERANCE in honour:
            parts["temperance"] = {"tempered": 50, "abandoned": -50}.get(mode.get(TEMPERANCE), 0)
        if DEVIL in honour:
            parts["devil"] = {"fooled": 50, "triumphant": -50}.get(mode.get(DEVIL), 0)
        if TOWER in honour and not state["tower_discards"]:
            parts["tower"] = -50
        returned = state["fool_returned"]
        if FOOL in honour and returned is not None:
            parts["fool"] = -100 if returned == 0 else -10 * (3 - returned)
        return parts

    # --- the contract ---------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == "over" else [0]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        phase = state["phase"]
        if seat != 0 or phase == "over":
            return []
        if phase == "maneuver":
            return self._maneuvers(state)
        if phase == "return":
            return [{"type": "return", "card": c} for c in _order(set(state["heap"]))]
        if phase == "search":
            return [{"type": "search", "card": c} for c in _order(set(state["heap"]))] + [{"type": "pass"}]
        if phase == "keep":
            return [{"type": "keep", "card": c} for c in state["table"] if c]
        if phase == "shift":
            empty = [i for i, c in enumerate(state["table"]) if c is None]
            moves = [{"type": "shift", "card": c, "to": f"table:{i}"}
                     for c in state["table"] if c for i in empty]
            return moves + [{"type": "rest"}]
        raise AssertionError(f"unknown phase {phase}")

    def _maneuvers(self, state: State) -> list[Move]:
        """Every maneuver open now: exalts first (what a player looks for), then the Fool's,
        devotions, banishments and the two Grounds."""
        table = [c for c in state["table"] if c]
        exalts: list[Move] = []
        fools: list[Move] = []
        devotes: list[Move] = []
        banishes: list[Move] = []
        for i, sigil in enumerate(state["altar"]):
            if sigil is None:
                continue
            to = f"altar:{i}"
            offered = state["offered"].get(sigil) or []
            ritual = self.ritual_of(state, sigil)
            if ritual is not None:
                partial, complete = RITUALS[ritual]
                fits = [c for c in table if partial(offered + [c])]
                room = MAX_CARDS[ritual] - len(offered)
                for size in range(1, min(room, len(fits)) + 1):
                    for combo in combinations(fits, size):
                        if complete(offered + list(combo)):
                            exalts.append({"type": "exalt", "cards": _order(combo), "to": to})
            if sigil in DEVOTABLE:
                for c in table:
                    if ritual is None or not RITUALS[ritual][1](offered + [c]):
                        devotes.append({"type": "devote", "card": c, "to": to})
            if sigil in BANISHABLE and not offered:
                banishes += [{"type": "banish", "card": c, "to": to} for c in table]
            if sigil == FOOL:
                fools.append({"type": "fool", "to": to})
        grounds = [{"type": "ground", "to": f"row:{r}"} for r, row in enumerate(ROWS)
                   if any(state["table"][i] for i in row)]
        return exalts + fools + devotes + banishes + grounds

    def normalise_move(self, move: Move) -> Move:
        cards = move.get("cards")
        if isinstance(cards, list) and all(is_card(c) for c in cards):
            return {**move, "cards": _order(cards)}
        return move

    def copy(self, state: State) -> State:
        new = dict(state)
        for key in ("fate", "chance", "altar", "table", "heap", "honour", "log"):
            new[key] = state[key][:]
        new["offered"] = {k: v[:] for k, v in state["offered"].items()}
        new["modes"] = dict(state["modes"])
        new["death"] = dict(state["death"])
        return new

    def play(self, state: State, seat: int, move: Move) -> None:
        kind = move["type"]
        if kind in _MANEUVERS:
            self._maneuver(state, move)
        elif kind in ("return", "search"):
            card = move["card"]
            self._return(state, card)
            _log(state, f"{kind} {card}")
            if kind == "search":
                state["search"] = False
            else:
                state["owed"] -= 1
                if state["fool_pending"] is not None:
                    state["fool_pending"] += 1
        elif kind == "pass":
            state["search"] = False
            _log(state, "pass")
        elif kind == "keep":
            keep = move["card"]
            gone = [c for c in self._table_in_order(state) if c != keep]
            for c in gone:
                self._discard(state, c)
            state["keep"] = False
            _log(state, f"keep {keep} {','.join(gone)}")
        elif kind == "shift":
            card, to = move["card"], int(move["to"].split(":")[1])
            state["table"][state["table"].index(card)] = None
            state["table"][to] = card
            _log(state, f"shift {card} {to}")
            self._evening(state)
            return
        elif kind == "rest":
            self._evening(state)
            return
        else:
            raise AssertionError(kind)
        self._continue(state)

    # --- maneuvers ------------------------------------------------------------------------

    def _maneuver(self, state: State, move: Move) -> None:
        kind = move["type"]
        if kind == "ground":
            row = ROWS[int(move["to"].split(":")[1])]
            # Many cards at once go in the text's order: the bottom row dexter to sinister,
            # so its sinister-most card ends on top of the heap, the card Death returns first.
            gone = [state["table"][i] for i in FILL_ORDER if i in row and state["table"][i]]
            for c in gone:
                self._discard(state, c)
            _log(state, f"ground {move['to'][4:]} {','.join(gone)}")
            self._continue(state)
            return
        slot = int(move["to"].split(":")[1])
        sigil = state["altar"][slot]
        if kind == "banish":
            self._discard(state, move["card"])
            state["altar"][slot] = None
            state["offered"].pop(sigil, None)
            state["fate"].append(sigil)
            state["banished"] += 1
            _log(state, f"banish {sigil} {move['card']}")
        elif kind == "devote":
            card = move["card"]
            self._take(state, card)
            state["offered"][sigil].append(card)
            _log(state, f"devote {sigil} {card}")
        elif kind == "exalt":
            cards = list(move["cards"])
            before = state["offered"][sigil]
            for c in cards:
                self._take(state, c)
            state["offered"][sigil] = before + cards
            _log(state, f"exalt {sigil} {','.join(cards)}")
            honoured = self._honour(state, sigil)
            if honoured:
                bonus = 0
                if sigil not in APOPHATIC and not before:
                    way = self.is_reversed(state, sigil)
                    bonus = 2 if all(self.is_reversed(state, c) == way for c in cards) else 1
                    _log(state, f"bonus {bonus}")
                owed = bonus + _AFTER_RETURNS.get(sigil, 0)
                if sigil == SUN:
                    top = state["heap"][-1] if state["heap"] else None
                    owed += sun_returns(top)
                    _log(state, f"sun {top} {sun_returns(top)}")
                state["owed"] += owed
                state["search"] = sigil == HERMIT
        elif kind == "fool":
            _log(state, "fool")
            if self._honour(state, FOOL):
                state["fool_pending"] = 0
            state["owed"] += 3
            state["keep"] = True
        self._continue(state)

    def _take(self, state: State, card: str) -> None:
        state["table"][state["table"].index(card)] = None

    def _table_in_order(self, state: State) -> list[str]:
        return [state["table"][i] for i in FILL_ORDER if state["table"][i]]

    def _discard(self, state: State, card: str) -> None:
        self._take(state, card)
        state["heap"].append(card)

    def _return(self, state: State, card: str) -> None:
        heap = state["heap"]
        # The chosen card: the topmost copy (there is one) leaves the heap.
        del heap[len(heap) - 1 - heap[::-1].index(card)]
        state["chance"].append(card)

    def _honour(self, state: State, sigil: str) -> bool:
        """Honour ``sigil`` (on the altar), or let the Tower take its honour.  Returns
        whether ``sigil`` itself was honoured; linked honours (Temperance, the Devil)
        follow."""
        altar = state["altar"]
        offered = state["offered"].get(sigil, [])
        if TOWER in altar and sigil != TOWER:
            state["heap"] += offered
            state["offered"][sigil] = []
            state["tower_discards"] = len(offered)
            self._honour_now(state, TOWER)
            _log(state, f"tower {sigil} {len(offered)}")
            if sigil == DEATH:
                state["death"]["wakes"] = state["round"] + 1
            return False
        self._honour_now(state, sigil)
        modes = state["modes"]
        if sigil in (STRENGTH, HERMIT) and TEMPERANCE in altar and modes.get(TEMPERANCE) == "waiting":
            modes[TEMPERANCE] = "tempered" if sigil == STRENGTH else "abandoned"
            self._honour(state, TEMPERANCE)
        if sigil in (CHARIOT, LOVERS) and DEVIL in altar and modes.get(DEVIL) == "waiting":
            modes[DEVIL] = "fought" if sigil == CHARIOT else "triumphant"
            self._honour(state, DEVIL)
        return True

    def _honour_now(self, state: State, sigil: str) -> None:
        slot = state["altar"].index(sigil)
        state["altar"][slot] = None
        state["heap"] += state["offered"].pop(sigil, [])
        state["honour"].append(sigil)
        _log(state, f"honour {sigil}")

    # --- how a round unfolds --------------------------------------------------------------

    def _continue(self, state: State) -> None:
        """After a maneuver or one of its choices: the next choice owed, else the Shift,
        else the Evening."""
        if state["owed"] and not state["heap"]:
            _log(state, f"short {state['owed']}")
            state["owed"] = 0
        if state["owed"]:
            state["phase"] = "return"
            return
        if state["fool_pending"] is not None:
            state["fool_returned"] = state["fool_pending"]
            state["fool_pending"] = None
        if state["search"] and state["heap"]:
            state["phase"] = "search"
            return
        state["search"] = False
        if state["keep"] and sum(1 for c in state["table"] if c) > 1:
            state["phase"] = "keep"
            return
        state["keep"] = False
        if self._won(state):
            self._finish(state)
            return
        if any(state["table"]) and None in state["table"]:
            state["phase"] = "shift"
            return
        self._evening(state)

    def _won(self, state: State) -> bool:
        return len(state["honour"]) == len(MAJORS)

    def _evening(self, state: State) -> None:
        self._fill(state)
        if self._won(state):
            self._finish(state)
            return
        self._morning(state)

    def _fill(self, state: State, opening: bool = False) -> None:
        """Every empty spot filled: Sigils first (the altar left to right, again after any
        Sigil that honours itself on coming up), then the table in the text's order."""
        altar = state["altar"]
        while None in altar and state["fate"]:
            slot = altar.index(None)
            sigil = state["fate"].pop(0)
            altar[slot] = sigil
            state["offered"][sigil] = []
            _log(state, f"reveal {sigil}")
            if sigil == TEMPERANCE:
                state["modes"][sigil] = "triumphant" if STRENGTH in state["honour"] else "waiting"
            elif sigil == DEVIL:
                state["modes"][sigil] = "fooled" if LOVERS in state["honour"] else "waiting"
            elif sigil == DEATH:
                if opening:
                    state["death"]["wakes"] = DEATH_WAKES
                else:
                    self._death(state)
        for i in FILL_ORDER:
            if state["table"][i] is None and state["chance"]:
                card = state["chance"].pop(0)
                state["table"][i] = card
                _log(state, f"draw {card} {i}")

    def _death(self, state: State) -> None:
        figures = [c for c in self._table_in_order(state) if is_figure(c)]
        returned = []
        for _ in range(max(len(figures), 1)):
            if state["heap"]:
                card = state["heap"].pop()
                state["chance"].append(card)
                returned.append(card)
        for c in figures:
            self._discard(state, c)
        death = state["death"]
        death["acted"] += 1
        death["removed"] += len(figures)
        death["wakes"] = None
        state["modes"][DEATH] = "fruitful" if figures else "fruitless"
        _log(state, f"death {len(figures)} {len(returned)}")
        self._honour(state, DEATH)

    def _morning(self, state: State) -> None:
        state["round"] += 1
        _log(state, f"round {state['round']}")
        death = state["death"]
        if DEATH in state["altar"] and death["wakes"] is not None and death["wakes"] <= state["round"]:
            self._death(state)
            self._fill(state)
            if self._won(state):
                self._finish(state)
                return
        state["phase"] = "maneuver"
        if not self._maneuvers(state):
            self._finish(state, "No maneuver is left: the table is empty and Chance is spent.")

    def _finish(self, state: State, reason: str = "") -> None:
        state["phase"] = "over"
        score = self.score(state)
        honoured = len(state["honour"])
        if honoured == len(MAJORS):
            result, text = "win", f"All 22 Sigils are honoured, scoring {score}."
        elif score >= ESOTERIC:
            result, text = "win", (f"An esoteric victory: {honoured} of 22 Sigils honoured, scoring {score} "
                                   f"(at least {ESOTERIC}). {reason}".strip())
        else:
            result, text = "loss", f"{reason} {honoured} of 22 Sigils honoured, scoring {score}.".strip()
        state["result"] = {"result": result, "reason": text, "score": score,
                           "esoteric": result == "win" and honoured < len(MAJORS)}
        _log(state, f"{result} {score}")

    # --- what may be seen -------------------------------------------------------------------

    def outcome(self, state: State) -> dict | None:
        result = state["result"]
        if result is None:
            return None
        return {"result": result["result"], "winners": [0] if result["result"] == "win" else [],
                "scores": [result["score"]], "reason": result["reason"]}

    def zones(self, state: State) -> dict[str, list[str]]:
        zones = {"deck:fate": list(state["fate"]), "deck:chance": list(state["chance"])}
        for i, sigil in enumerate(state["altar"]):
            zones[f"altar:{i}"] = [sigil, *state["offered"].get(sigil, [])] if sigil else []
        zones["table"] = [c for c in state["table"] if c]
        zones["heap"] = list(state["heap"])
        zones["honour"] = list(state["honour"])
        return zones

    def sigil_view(self, state: State, sigil: str) -> dict:
        mode = state["modes"].get(sigil)
        ritual = self.ritual_of(state, sigil)
        short, full = SHORT[sigil], FULL[sigil]
        if sigil in (TEMPERANCE, DEVIL) and mode:
            model = "Strength" if sigil == TEMPERANCE else "the Lovers"
            if ritual:
                short = f"As {model}: {SHORT[ritual].lower()}"
            else:
                other = "the Hermit" if sigil == TEMPERANCE else "the Chariot"
                short = f"Honoured with {model} or {other}"
        return {
            "card": sigil, "name": sigil_name(sigil), "label": sigil_label(sigil),
            "reversed": self.is_reversed(state, sigil),
            "offered": [{"card": c, "reversed": self.is_reversed(state, c)}
                        for c in state["offered"].get(sigil, [])],
            "short": short, "ritual": full, "mode": mode,
            "banishable": sigil in BANISHABLE, "devotable": sigil in DEVOTABLE, "apophatic": sigil in APOPHATIC,
            "locked": self.locked(state, sigil),
        }

    def view(self, state: State, seat: int | None) -> dict:
        player = seat == 0
        over = state["phase"] == "over"
        rev = set(state["reversed"])
        table = [{"card": c, "reversed": c in rev} if c else None for c in state["table"]]
        return {
            "game": SLUG, "seat": seat, "variant": list(state["options"]["variant"]),
            "round": state["round"], "phase": state["phase"],
            "prompt": self.prompt(state) if player else None,
            "fate_count": len(state["fate"]), "chance_count": len(state["chance"]),
            "altar": [self.sigil_view(state, s) if s else None for s in state["altar"]],
            "table": table,
            "heap": [{"card": c, "reversed": c in rev} for c in state["heap"]],
            "honour": [{"card": c, "reversed": c in rev, "name": sigil_name(c)} for c in state["honour"]],
            "owed": state["owed"], "searching": state["phase"] == "search",
            # The public counters of the strange Sigils and of the maneuver under way, as the
            # state keeps them (a bot's determinization rebuilds the state from them).
            "counters": {"modes": dict(state["modes"]), "death": dict(state["death"]),
                         "tower_discards": state["tower_discards"], "fool_returned": state["fool_returned"],
                         "fool_pending": state["fool_pending"], "search": state["search"],
                         "keep": state["keep"], "banished": state["banished"]},
            "strange": self.strange_states(state),
            "death_wakes": state["death"]["wakes"] if DEATH in state["altar"] else None,
            "score": self.score(state), "score_parts": self.score_parts(state),
            "outcome": self.outcome(state),
            "log": self.log_lines(state),
            "reading": self.reading(state) if over and player else None,
        }

    def strange_states(self, state: State) -> list[dict]:
        """How each strange Sigil that has shown itself stands, in words."""
        seen = set(state["honour"]) | {s for s in state["altar"] if s}
        modes = state["modes"]
        out = []
        if DEATH in seen and state["death"]["acted"]:
            removed = state["death"]["removed"]
            out.append({"card": DEATH, "state": modes.get(DEATH, ""),
                        "text": f"Death {modes.get(DEATH)}: {removed} figure{'s' if removed != 1 else ''} removed"})
        elif DEATH in seen and state["death"]["wakes"]:
            out.append({"card": DEATH, "state": "asleep",
                        "text": f"Death sleeps until round {state['death']['wakes']}"})
        words = {"waiting": "waiting", "triumphant": "Strength triumphant", "tempered": "Strength tempered",
                 "abandoned": "Strength abandoned"}
        if TEMPERANCE in seen:
            out.append({"card": TEMPERANCE, "state": modes.get(TEMPERANCE),
                        "text": "Temperance: " + words.get(modes.get(TEMPERANCE), "")})
        devil = {"waiting": "waiting", "fooled": "the Devil fooled",
                 "fought": "the Devil fought", "triumphant": "the Devil triumphant"}
        if DEVIL in seen:
            out.append({"card": DEVIL, "state": modes.get(DEVIL), "text": "The Devil: " + devil.get(modes.get(DEVIL), "")})
        if TOWER in state["honour"]:
            n = state["tower_discards"] or 0
            out.append({"card": TOWER, "state": "honoured",
                        "text": f"The Tower took an honour, {n} card{'s' if n != 1 else ''} discarded"})
        elif TOWER in seen:
            out.append({"card": TOWER, "state": "standing", "text": "The Tower stands: it takes the next honour"})
        if FOOL in state["honour"] and state["fool_returned"] is not None:
            out.append({"card": FOOL, "state": "honoured",
                        "text": f"The Fool returned {state['fool_returned']} of 3"})
        return out

    def prompt(self, state: State) -> str:
        phase = state["phase"]
        if phase == "maneuver":
            return ("Choose your maneuver: offer table cards to a Sigil (pick them, then the Sigil), "
                    "banish, or ground a row.")
        if phase == "return":
            n = state["owed"]
            return f"Return {n} card{'s' if n != 1 else ''}: pick {'them' if n != 1 else 'it'} from the heap, one at a time."
        if phase == "search":
            return "The Hermit's search: you may return one heap card of your choice."
        if phase == "keep":
            return "The Fool: choose the one table card that stays."
        if phase == "shift":
            return "Before the Evening's draws you may shift one table card to an empty spot."
        return state["result"]["reason"]

    def log_lines(self, state: State) -> list[str]:
        """The round's events in words.  Cards that went back face down are not named
        (their pile's content is hidden again)."""
        lines = []
        for entry in state["log"]:
            kind, *rest = entry.split(" ")
            if kind == "round":
                lines.append(f"Round {rest[0]}.")
            elif kind == "reveal":
                lines.append(f"{sigil_label(rest[0])} came up on the altar.")
            elif kind == "honour":
                lines.append(f"{sigil_label(rest[0])} is honoured.")
            elif kind == "tower":
                lines.append(f"The Tower took the honour; the other Sigil stays ({rest[1]} card(s) to the heap).")
            elif kind == "death":
                lines.append(f"Death acted: {rest[0]} figure(s) cleared, {rest[1]} card(s) returned.")
            elif kind == "bonus":
                lines.append(f"Exalted with nothing offered before: return {rest[0]}.")
            elif kind in ("return", "search"):
                lines.append("A heap card was returned to the bottom of Chance.")
            elif kind == "short":
                lines.append(f"The heap was empty: {rest[0]} return(s) lost.")
            elif kind == "banish":
                lines.append(f"A Sigil was banished to the bottom of Fate; {the(rest[1])} went to the heap.")
            elif kind == "devote":
                lines.append(f"{cards_words([rest[1]])[:1].upper()}{cards_words([rest[1]])[1:]} was offered to {sigil_name(rest[0])}.")
            elif kind == "exalt":
                lines.append(f"Offered {cards_words(rest[1].split(','))} to {sigil_name(rest[0])}.")
            elif kind == "ground":
                lines.append(f"The {'top' if rest[0] == '0' else 'bottom'} row was grounded.")
            elif kind == "fool":
                lines.append("The Fool's maneuver.")
            elif kind == "keep":
                lines.append(f"{the(rest[0])[:1].upper()}{the(rest[0])[1:]} stays on the table.")
            elif kind == "shift":
                lines.append(f"Shifted {the(rest[0])}.")
            elif kind == "draw":
                lines.append(f"Drew {the(rest[0])}.")
            elif kind == "sun":
                lines.append(f"The Sun: return {rest[1]}.")
            elif kind in ("win", "loss"):
                lines.append(f"The game ended, scoring {rest[0]}.")
        return lines

    # --- the divination ---------------------------------------------------------------------

    def reading(self, state: State) -> dict:
        """RULINGS 7: the present rites (the altar at the end, or on a win the last four
        honoured), the first and the last offering, and on a loss what asks for more."""
        over = state["phase"] == "over"
        won = over and state["result"]["result"] == "win" and len(state["honour"]) == len(MAJORS)

        def entry(code, position, name, question):
            rev = self.is_reversed(state, code)
            key = CARDS[code].keyword
            return {"position": position, "name": name, "question": question, "card": code,
                    "reversed": rev, "keyword": key, "reads": SHADOWS[code] if rev else key}

        rites = state["honour"][-4:] if won else [s for s in state["altar"] if s]
        positions = [entry(c, f"rite:{i}", f"Present rite {i + 1}", "What is under way now?")
                     for i, c in enumerate(rites)]
        honour = state["honour"]
        if honour:
            positions.append(entry(honour[0], "first", "The first offering", "Where did it start?"))
            if len(honour) > 1:
                positions.append(entry(honour[-1], "last", "The last offering", "Where has it come to?"))
        if over and not won:
            standing = [s for s in state["altar"] if s]
            if standing:
                most = max(standing, key=lambda s: (len(state["offered"].get(s, [])), -standing.index(s)))
                positions.append(entry(most, "more", "What asks for more", "What is still unfinished?"))
        return {"game": SLUG, "complete": over, "positions": positions,
                "cards": list(dict.fromkeys(p["card"] for p in positions))}

    # --- words --------------------------------------------------------------------------------

    def describe_move(self, state: State, seat: int, move: Move) -> str:
        kind = move.get("type")
        try:
            if kind in ("banish", "devote", "exalt", "fool"):
                sigil = state["altar"][int(move["to"].split(":")[1])]
                name = sigil_name(sigil)
                if kind == "banish":
                    return f"Banish {name}, discarding {the(move['card'])}"
                if kind == "devote":
                    return f"Devote {the(move['card'])} to {name}"
                if kind == "fool":
                    return "The Fool's maneuver: honour the Fool, return 3, keep 1 table card"
                verb = "Bind" if self.is_reversed(state, sigil) else "Exalt"
                return f"{verb} {name} with {cards_words(move['cards'])}"
            if kind == "ground":
                return f"Ground the {'top' if move['to'] == 'row:0' else 'bottom'} row"
            if kind == "return":
                return f"Return {the(move['card'])} to the bottom of Chance"
            if kind == "search":
                return f"Search out {the(move['card'])} and return it"
            if kind == "pass":
                return "Keep the heap as it is"
            if kind == "keep":
                return f"Keep {the(move['card'])} on the table"
            if kind == "shift":
                i = int(move["to"].split(":")[1])
                return f"Shift {the(move['card'])} to the {'top' if i < 4 else 'bottom'} row, spot {i % 4 + 1}"
            if kind == "rest":
                return "No shift: on to the Evening's draws"
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            pass
        return super().describe_move(state, seat, move)

    def explain_illegal(self, state: State, seat: int, move: Move) -> str:
        phase = state["phase"]
        kind = move["type"]
        allowed = {"maneuver": _MANEUVERS, "return": ("return",), "search": ("search", "pass"),
                   "keep": ("keep",), "shift": ("shift", "rest")}[phase]
        if kind not in allowed:
            return f"Not now: {self.prompt(state)}"
        extra = set(move) - {"type"} - _MOVE_KEYS[kind]
        if extra:
            return f"A {kind} move takes no {', '.join(sorted(extra))}."
        card = move.get("card")
        if "card" in _MOVE_KEYS[kind] and not is_card(card):
            return f"{card!r} is not a card code (e.g. \"9p\", \"Qc\")."
        if kind in ("return", "search") and card not in state["heap"]:
            return f"{the(card)[:1].upper()}{the(card)[1:]} is not on the heap."
        if kind in ("banish", "devote", "keep", "shift") and card not in state["table"]:
            return f"{the(card)[:1].upper()}{the(card)[1:]} is not on the table."
        to = move.get("to")
        if kind in ("banish", "devote", "exalt", "fool"):
            slots = [f"altar:{i}" for i, s in enumerate(state["altar"]) if s]
            if to not in slots:
                return f"{to!r} is not a Sigil on the altar; choose one of {', '.join(slots)}."
            sigil = state["altar"][int(to.split(":")[1])]
            name = sigil_name(sigil)
            if kind == "banish":
                if sigil not in BANISHABLE:
                    return f"{name} cannot be banished."
                return f"{name} has cards offered to it and cannot be banished."
            if kind == "devote":
                if sigil not in DEVOTABLE:
                    return f"{name} cannot be devoted to."
                return f"That card would complete {name}'s ritual: exalt it instead."
            if kind == "fool":
                return f"{name} is not the Fool."
            cards = move.get("cards")
            if not isinstance(cards, list) or not all(c in state["table"] for c in cards if is_card(c)) \
                    or not all(is_card(c) for c in cards):
                return "Give the cards to offer as \"cards\": table cards."
            return f"Those cards do not complete {name}'s ritual: {SHORT[sigil].lower()}."
        if kind == "ground":
            return "Name a row with cards: \"row:0\" (top) or \"row:1\" (bottom)."
        if kind == "shift":
            return "Shift to an empty spot of the table (\"table:0\" to \"table:7\")."
        return "That move is not allowed now."


def render(view: dict) -> list[str]:
    """The board in text: piles, altar with offerings, the two table rows, heap, honour."""
    def card(entry) -> str:
        if not entry:
            return "."
        code = entry["card"]
        return f"{card_name(code)}{' (rev)' if entry.get('reversed') else ''}"

    lines = [f"Hermit's Arcana - round {view['round']} - Fate {view['fate_count']} - "
             f"Chance {view['chance_count']} - honoured {len(view['honour'])}/22 - score {view['score']}", "",
             "The altar, left to right:"]
    for i, sigil in enumerate(view["altar"]):
        if not sigil:
            lines.append(f"  {i + 1}. (empty)")
            continue
        flags = []
        if sigil["locked"]:
            flags.append("LOCKED")
        if not sigil["banishable"]:
            flags.append("no banish")
        if not sigil["devotable"]:
            flags.append("no devote")
        head = f"  {i + 1}. {card(sigil)}: {sigil['short']}"
        lines.append(head + (f" [{', '.join(flags)}]" if flags else ""))
        if sigil["offered"]:
            lines.append(f"       offered: {', '.join(card(o) for o in sigil['offered'])}")
    lines.append("")
    lines.append("The table:")
    for r, row in enumerate(ROWS):
        cells = [card(view["table"][i]) for i in row]
        lines.append(f"  {'top   ' if r == 0 else 'bottom'} " + " | ".join(f"{c:<22}" for c in cells).rstrip())
    heap = view["heap"]
    lines.append("")
    lines.append(f"Heap ({len(heap)}), top last: {', '.join(card(h) for h in heap[-8:]) or '-'}"
                 + (f" (and {len(heap) - 8} below)" if len(heap) > 8 else ""))
    lines.append(f"Honoured: {', '.join(card(h) for h in view['honour']) or '-'}")
    for strange in view["strange"]:
        lines.append(f"  {strange['text']}")
    if view.get("prompt"):
        lines += ["", view["prompt"]]
    return lines


HermitsArcana.text_drawing = staticmethod(render)
RULES = register(HermitsArcana())
