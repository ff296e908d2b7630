from django import template

from games.engine import RULES

from .. import RATED_GAMES
from ..models import Rating
from ..services import table

register = template.Library()


def _title(mode: str) -> str:
    rules = RULES.get(mode)
    return rules.title if rules else mode


@register.inclusion_tag("ratings/_player.html")
def player_ratings(user):
    rows = [(_title(r.mode), r) for r in Rating.objects.filter(user=user).order_by("mode")]
    return {"rows": rows, "user": user}


@register.inclusion_tag("ratings/_tables.html", takes_context=True)
def rating_tables(context, limit: int = 5):
    tables = [(_title(mode), list(table(mode, limit))) for mode in RATED_GAMES]
    return {"tables": [t for t in tables if t[1]], "user": context.get("user")}
