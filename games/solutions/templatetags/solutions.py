from django import template

from games.solver import SOLVABLE

register = template.Library()


@register.filter
def has_solution(game) -> bool:
    """Whether the game's page links to the solver's verdict (a finished game of a mode the
    solver searches); read from the row already loaded, no query."""
    return game.status == "finished" and game.mode in SOLVABLE and game.started_at is not None
