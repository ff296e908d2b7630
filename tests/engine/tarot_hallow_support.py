"""Stacked Tarot Hallow games for the engine tests.

``new(players, hands, draws, majors)``: ``hands`` lists each seat's opening four Minors
(seat 0 first), ``draws`` the Minors drawn after, in order; ``majors`` the Majors revealed
first, in order.  Everything not named follows in the usual card order.
"""

from __future__ import annotations

from games.engine import get_rules

TH = get_rules("tarot_hallow")


def new(players: int, hands: list[list[str]], draws: list[str] = (), majors: list[str] = (),
        seed: int = 0) -> dict:
    minors = [c for hand in hands for c in hand] + list(draws)
    return TH.new_game(seed, players, {"majors_deck": list(majors)}, deck=minors)


def play(state: dict, *cards_by_seat: tuple[int, str]) -> dict:
    for seat, card in cards_by_seat:
        state = TH.apply(state, seat, {"type": "play", "card": card})
    return state


def round_of(state: dict, cards: dict[int, str]) -> dict:
    return play(state, *cards.items())


def give_reading(state: dict, seat: int, card: str, upright: bool = True) -> dict:
    """Put a Major from the face-down pile on top of its slot in a seat's Reading, as if won
    earlier (set-up for power tests; every card stays in exactly one zone)."""
    from games.engine.tarot_hallow.rules import HOUSE_SLOTS
    state = TH.loads(TH.dumps(state))
    state["majors"].remove(card)
    state["readings"][seat][HOUSE_SLOTS[card]].append([card, upright])
    return state


def top(state: dict, seat: int, slot: str):
    stack = state["readings"][seat][slot]
    return (stack[-1][0], stack[-1][1]) if stack else None
