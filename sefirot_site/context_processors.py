from functools import cache

from django.conf import settings


def site(request):
    from games.turns import turn_count

    # Counted only when a template asks (the page's title and navigation), once per request.
    user = getattr(request, "user", None)
    return {"SITE_URL": settings.SITE_URL, "DEBUG": settings.DEBUG, "turn_count": cache(lambda: turn_count(user))}
