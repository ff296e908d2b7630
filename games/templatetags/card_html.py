"""``{% card_html "games/_pick.html" %}``: the card of the context drawn by that template,
remembered.  A board shows dozens of cards and every answer to a move draws them again,
while a card's HTML depends only on the card's own data and on the game's id and status
(all that ``_pick.html`` and ``_card.html`` read), so each distinct card is drawn once per
process and then reused, the game's id put in its links; the output is the same as
``{% include %}``'s."""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

from django import template
from django.template.loader import get_template
from django.utils.safestring import mark_safe

register = template.Library()


# A card's links name its game (``/games/<id>/?pick=..``): a card is drawn once for every
# game with this id in them, and the game's own put in on the way out, so the cache holds
# each distinct card once (a few hundred) rather than once per game.
_ANY_GAME = 918_273_645_501
_ANY_GAME_PATH = f"/{_ANY_GAME}/"


@lru_cache(maxsize=4096)
def _drawn_once(template_name: str, items: tuple, game_pk, game_status) -> str:
    return _draw(template_name, dict(items), SimpleNamespace(pk=game_pk, status=game_status))


def _drawn(template_name: str, items: tuple, game_pk, game_status) -> str:
    if game_pk is None:  # a card outside any game: nothing to put in
        return _drawn_once(template_name, items, None, game_status)
    return _drawn_once(template_name, items, _ANY_GAME, game_status).replace(_ANY_GAME_PATH, f"/{game_pk}/")


def _draw(template_name: str, card: dict, game) -> str:
    return get_template(template_name).render({"card": card, "game": game})


def drawn_card(template_name: str, card: dict, game) -> str:
    """``card`` in ``game`` drawn by that template, remembered where it can be."""
    pk, status = getattr(game, "pk", None), getattr(game, "status", None)
    try:
        return _drawn(template_name, tuple(card.items()), pk, status)
    except TypeError:  # a value that cannot be a key (a list): drawn every time
        return _draw(template_name, card, SimpleNamespace(pk=pk, status=status))


@register.simple_tag(takes_context=True)
def card_html(context, template_name: str):
    return mark_safe(drawn_card(template_name, context["card"], context.get("game")))
