"""Helpers for the Dream Odyssey engine tests: stacked decks, moves that check themselves.

``stacked(...)`` builds the two piles of a scenario.  Set-up uses the Majors deck in the
tree's space order (``SPACES``: the Crown first), then one Major for the Party; it deals the
Minors stacks in the same space order (the first card dealt is the top of its stack, sizes
from ``STACK_SIZES``), then draws the opening hand, then the game's later draws come off
the top.  Anything a scenario does not name is filled with cards it does not mention:
pips first, courts last, so unnamed stacks and the opening hand hold no surprise courts.

``act`` applies a move and then proves the invariants every state must keep: each of the
78 cards in exactly one zone, and no view (player or spectator) holding a hidden card.

Two or more cards leaving together (an encounter's end, say) wait in the ``discarding``
phase for the player to order them; ``resolve`` and ``laid_down`` put them down in the usual
order (``discard_rest``) for the scenarios that are not about that order.
"""

from __future__ import annotations

from games.engine import get_rules
from games.engine.base import check_zones
from games.engine.cards import COURTS, DECK, MAJORS, MINORS
from games.engine.dream_odyssey.tables import STACK_SIZES
from games.engine.tree import SPACES

from .conftest import codes_in, refused_by

DO = get_rules("dream_odyssey")


def stacked(*, spaces: dict[str, str] | None = None, party: str = "M9",
            stacks: dict[str, list[str]] | None = None, hand: tuple[str, ...] = ("2c", "3c", "4c"),
            draws: tuple[str, ...] = (), bottom: tuple[str, ...] = (),
            majors_after: tuple[str, ...] = ()) -> dict:
    """Options with both piles stacked; ``spaces`` maps a space to its Major, ``bottom``
    lists the last cards of the Minors deck (the undermost last)."""
    spaces = spaces or {}
    stacks = stacks or {}
    named_majors = list(spaces.values()) + [party] + list(majors_after)
    assert len(set(named_majors)) == len(named_majors), "a Major named twice"
    pool = [m for m in MAJORS if m not in named_majors]
    majors = [spaces[s] if s in spaces else pool.pop(0) for s in SPACES]
    majors += [party, *majors_after, *pool]
    named = [c for s in stacks.values() for c in s] + list(hand) + list(draws) + list(bottom)
    assert len(set(named)) == len(named), "a Minor named twice"
    filler = [c for c in MINORS if c not in named and c not in COURTS]
    filler += [c for c in MINORS if c not in named and c in COURTS]
    minors: list[str] = []
    for s in SPACES:
        given = stacks.get(s)
        if given is None:
            given = [filler.pop(0) for _ in range(STACK_SIZES[s])]
        assert len(given) == STACK_SIZES[s], f"{s} hosts {STACK_SIZES[s]} cards"
        minors += given
    minors += [*hand, *draws, *filler, *bottom]
    return {"majors_deck": majors, "minors_deck": minors}


def new(seed: int = 0, **deal) -> dict:
    state = DO.new_game(seed, 1, stacked(**deal))
    check(state)
    return state


def hidden_codes(state: dict, seat: int | None) -> set[str]:
    """Every card the given seat may not see in this state (RULINGS 6)."""
    hidden = set(state["minors"]) | set(state["majors"])
    for name, space in state["spaces"].items():
        if space["major"] and not space["open"] and name != "crown":
            hidden.add(space["major"])
        stack = space["stack"]
        hidden |= set(stack[1:] if space["open"] else stack)
    if seat is None:
        hidden |= set(state["hand"]) | set(state["peek"])
        if not state["discarding"]["public"]:  # a hand or a stack on its way to the pile
            hidden |= set(state["discarding"]["cards"])
    return hidden


def shown_codes(state: dict, seat: int | None) -> set[str]:
    """The card codes a view shows as where they are now.  The reading at the end is a
    record of past events: a court that helped at the Crown stays named there even if it
    was since shuffled back into the deck, so those names are left out of the check."""
    view = DO.view(state, seat)
    reading = view.pop("reading", None) or {}
    # The tale is words (card names, never codes): the tests of the tale check what it tells.
    view.pop("tale")
    reading.pop("tale", None)
    history = set(state["crown_party"])
    return codes_in(view) | (codes_in(reading) - history)


def check(state: dict) -> None:
    check_zones(DO.zones(state), DECK)
    for seat in (0, None):
        leaked = shown_codes(state, seat) & hidden_codes(state, seat)
        assert not leaked, f"view({seat}) shows hidden cards {sorted(leaked)} in phase {state['phase']}"


def act(state: dict, type: str, **keys) -> dict:
    new_state = DO.apply(state, 0, {"type": type, **keys})
    check(new_state)
    return new_state


def refused(state: dict, move) -> str:
    return refused_by(DO, state, 0, move)


def moves_of(state: dict, type: str) -> list[dict]:
    return [m for m in DO.legal_moves(state, 0) if m["type"] == type]


def powers(state: dict, major: str) -> list[dict]:
    return [m for m in DO.legal_moves(state, 0) if m["type"] == "power" and m["card"] == major]


def travel(state: dict, to: str, enter: bool = True) -> dict:
    """Travel, and step into the Sefira encounter if the game pauses on arrival."""
    state = act(state, "travel", to=to)
    if enter and state["phase"] == "arrive":
        state = act(state, "enter")
    return state


def settle(state: dict) -> dict:
    """Answer every open choice with its first option until play is back at rest."""
    while state["phase"] not in ("travel", "arrive", "encounter", "over"):
        move = dict(DO.legal_moves(state, 0)[0])
        state = act(state, move.pop("type"), **move)
    return state


def laid_down(state: dict) -> dict:
    """If cards wait to be discarded together, put them down in the usual order."""
    if state["phase"] == "discarding":
        state = act(state, "discard_rest")
    return state


def resolve(state: dict) -> dict:
    """Resolve the encounter, laying its discards down in the usual order if it asks."""
    return laid_down(act(state, "resolve"))


def slots(state: dict) -> list[str]:
    return [s["card"] for s in state["encounter"]["slots"]]


def slot_of(state: dict, card: str) -> str:
    return f"encounter:{slots(state).index(card)}"


def play(state: dict, card: str, against: str) -> dict:
    return act(state, "play", card=card, to=slot_of(state, against))


def discard_pile(state: dict, *cards: str) -> dict:
    """Scenario set-up: move the named cards from the Minors deck onto the discard pile
    (the first named ends on top), as earlier play would have; returns a new state."""
    state = DO.loads(DO.dumps(state))
    for card in reversed(cards):
        assert card in state["minors"], f"{card} is not in the Minors deck"
        state["minors"].remove(card)
        state["minors_discard"].insert(0, card)
    check(state)
    return state
