from django import template

register = template.Library()


@register.filter
def daily_results(game) -> str:
    """The results page of the daily deal a game was played in, or "" (any other game:
    no query, see ``services.results_path``)."""
    from games.daily.services import results_path

    return results_path(game)
