from django import template

from games.engine import cards as deck

from ..models import Mode

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
    try:
        return Mode(value).label
    except ValueError:
        return value
