"""Pages of the clocks: vacation, and "give the other player a day" on the game page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import services
from games.clocks import actions, calendar, deadlines
from games.page_regions import game_context, regions_response
from games.views import get_game_for

# --- vacation ------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def vacation(request):
    if request.method == "POST":
        try:
            if request.POST.get("action") == "start":
                deadlines.start_vacation(request.user)
                messages.success(request, "You are on vacation: the clocks of your games are paused.")
            elif request.POST.get("action") == "stop":
                deadlines.end_vacation(request.user)
                messages.success(request, "Welcome back: your clocks run again.")
            else:
                return HttpResponse("Choose to start or to end your vacation.", status=400)
        except deadlines.ClockRefused as error:
            messages.error(request, error.message)
        return redirect("clocks:vacation")
    return render(request, "games/vacation.html", {"status": deadlines.vacation_status(request.user)})


# --- the calendar of deadlines -------------------------------------------------------------


@require_safe
def calendar_feed(request, user_id: int, token: str):
    """The player's deadlines as iCalendar, for a calendar app: no login, the token in the
    address is the key (compared in constant time); a wrong or renewed one finds nothing."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not constant_time_compare(user.calendar_token, token):
        raise Http404("No such calendar: its address may have been renewed.")
    response = HttpResponse(calendar.feed(user, timezone.now()), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="sefirot-deadlines.ics"'
    # Private to whoever holds the address: no shared cache keeps it, no search engine lists it.
    response["Cache-Control"] = "private, max-age=300"
    response["X-Robots-Tag"] = "noindex"
    return response


# --- give the other player a day ---------------------------------------------------------


@login_required
@require_POST
def give_a_day(request, game_id: int):
    try:
        actions.give_a_day(game_id, request.user)
    except services.NotYourSeat:
        raise Http404("No such game.") from None
    except services.GameError as error:
        if request.htmx:
            return _game_regions(request, game_id, error.status, message=error.message)
        messages.error(request, error.message)
        return redirect("games:game", game_id=game_id)
    notice = "You gave the other player a day more for this move."
    if request.htmx:
        return _game_regions(request, game_id, 200, notice=notice)
    messages.success(request, notice)
    return redirect("games:game", game_id=game_id)


def _game_regions(request, game_id: int, status: int, **says):
    """The game page's regions that changed (the clock, the button), as after a move."""
    game, seat = get_game_for(request, game_id)
    return regions_response(request, game_context(request, game, seat, **says), status)
