"""The games anyone may watch: ``/games/watch/`` lists the public games being played now,
a page at a time; each links to the game's own page, which shows a spectator the view of
no seat (``games.access``)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import listing
from games.clocks import deadlines


@require_GET
def watch_list(request):
    # Three queries whatever the number of games: the count, a page of games (with their
    # clocks' pauses), their seats.
    page = Paginator(listing.being_played(), listing.WATCH_PAGE).get_page(request.GET.get("page"))
    viewer = request.user.pk if request.user.is_authenticated else None
    rows = []
    for game in page.object_list:
        seats = list(game.seats.all())
        to_act = [s.player_name for s in seats if s.index in game.to_act]
        rows.append({
            "game": game,
            "players": [s.player_name for s in seats],
            "to_act": to_act,
            "mine": viewer is not None and any(s.user_id == viewer for s in seats),
            # Who must move by when, as the game's page tells its players (no query: the
            # pause came with the game).
            "clock": deadlines.clock_for_onlookers(game, to_act, deadlines.loaded_pause(game)),
        })
    return render(request, "games/watch.html", {"page": page, "rows": rows})
