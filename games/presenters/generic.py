"""A game without a board presenter of its own: its cards in hand and its moves as buttons."""

from __future__ import annotations

from .common import Presentation, card_info, choices_for, presentation


def present(rules, state, view, seat, moves, pick) -> Presentation:
    pickable, pick, picked_choices, actions = choices_for(rules, state, seat, moves, pick)
    hand = view.get("hand") if isinstance(view.get("hand"), list) else None
    # A card a move names but the hand does not hold is offered beside it, so every legal
    # move can be clicked.
    rest = [c for c in pickable if c not in (hand or [])]
    rows = [{"title": "Also to choose from", "cards": [card_info(c, pickable=True, picked=c == pick) for c in rest]}
            ] if rest else []
    return presentation(
        view, moves, pick, picked_choices, actions,
        board_kind="",
        hand=[card_info(c, pickable=c in pickable, picked=c == pick) for c in hand] if hand is not None else None,
        hand_count=view.get("hand_count"),
        rows=rows,
    )
