from django import template

from games.engine import cards as deck

from journal import kinds

register = template.Library()


@register.filter
def card_label(code):
    return deck.label(code) if deck.is_card(code) else code


@register.filter
def card_keyword(code):
    return deck.keyword(code) if deck.is_card(code) else ""


@register.filter
def card_suit(code):
    """A CSS-friendly suit name: major, cups, swords, pentacles or wands."""
    if not deck.is_card(code):
        return ""
    suit = deck.suit_of(code)
    return "major" if suit is None else deck.SUIT_NAMES[suit].lower()


@register.filter
def mode_label(value):
    return kinds.label(value)


# Where each Starfield space sits in a 3-column grid, seat 1's edge at the top and seat 0's
# at the bottom, as RULINGS section 5 draws the board.
STARFIELD_ROWS = {
    "L": {0: 7, 1: 5, 2: 3, 3: 1},
    "R": {0: 7, 1: 5, 2: 3, 3: 1},
    "C": {0: 7, 1: 6, 2: 4, 3: 2, 4: 1},
}
STARFIELD_COLUMNS = {"L": 1, "C": 2, "R": 3}


@register.filter
def starfield_cell(space):
    """``grid-row: 4; grid-column: 2`` for ``C2``; empty for anything that is not a space."""
    if not isinstance(space, str) or len(space) != 2 or space[0] not in STARFIELD_COLUMNS or not space[1].isdigit():
        return ""
    row = STARFIELD_ROWS[space[0]].get(int(space[1]))
    return f"grid-row: {row}; grid-column: {STARFIELD_COLUMNS[space[0]]}" if row else ""
