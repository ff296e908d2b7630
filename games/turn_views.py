"""The count of games waiting for the player, asked for by every page (issue 42): the
navigation's badge polls it (``templates/base.html``, ``static/js/site.js``), so a move
made elsewhere shows on the journal or the profile as on a game page.

Polling rather than server-sent events: gunicorn's sync workers, which the site runs,
give a worker to a request for as long as it lasts, so an open stream per page would take
a worker per reader; a poll costs a worker about a millisecond (``bench/phone.py`` times
it) and holds nothing between polls."""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.turns import turn_count

# htmx stops polling an element whose request answers 286: a page whose player logged
# out meanwhile (in another tab) stops asking.
STOP_POLLING = 286


@never_cache
@require_GET
def waiting(request):
    """Nothing to swap: an htmx event with the count, read by site.js into the badge and
    the title (the game page's own poll sends the same event)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=STOP_POLLING)
    response = HttpResponse(status=204)
    response["HX-Trigger"] = json.dumps({"turn-count": {"value": turn_count(request.user)}})
    return response
