from django import template

from games.solver import SOLVABLE

register = template.Library()


@register.filter
def has_solution(game) -> bool:
    """Whether the game's page links to the solver's verdict (a finished game of a mode the
    solver searches); read from the row already loaded, no query."""
    return game.status == "finished" and game.mode in SOLVABLE and game.started_at is not None


@register.inclusion_tag("games/_solver_verdict.html")
def solver_verdict(game):
    """The solver's verdict in a line, with a link to its page, for a page about a finished
    game (the review): nothing when the solver searches no such game."""
    from games.solutions.services import verdict_for

    return {"game": game, "verdict": verdict_for(game) if has_solution(game) else None}
