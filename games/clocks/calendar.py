"""A player's deadlines and vacations as an iCalendar feed (RFC 5545), for calendar apps.

The feed lives at a secret address (``User.calendar_token``, renewed from the profile)
that a calendar app fetches without logging in, so it says only what the player's own
game pages say: whose move it is, in which game, with whom, and when the time runs out.
No card, no board.

Each running game with a clock is one event at its deadline, its UID the game's: a game
has one deadline at a time, so when a move sets the next one the event moves (and says
whose move it now is) instead of a second event appearing; ``SEQUENCE`` (the game's
version) and ``LAST-MODIFIED`` tell a calendar that the event changed.  A clock paused
for a vacation has no deadline, and no event until it runs again.  The player's own
vacations are events too, from their start to their end (or to the day the year's
allowance runs out, for the one going on).  Times are in UTC; the calendar shows them
in the reader's zone.

Written with the ``icalendar`` package (the reference Python implementation of RFC 5545:
escaping, line folding and the UTC form of times are its business, not ours).
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db.models import Prefetch
from icalendar import Calendar, Event

from games.clocks import deadlines
from games.clocks.models import Vacation
from games.models import Game, Seat

PRODUCT = "-//Sefirot Online//Deadlines//EN"
# Vacations shown: the one going on and those of about the last year.
VACATIONS_SHOWN = dt.timedelta(days=400)


def _utc(moment: dt.datetime) -> dt.datetime:
    return moment.astimezone(dt.timezone.utc)


def _and(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _uid(what: str) -> str:
    return f"{what}@{settings.MAIL_DOMAIN}"


def deadline_event(game: Game, seat: Seat) -> Event:
    """The deadline of ``game`` as ``seat``'s player reads it: their move, or their wait."""
    seats = list(game.seats.all())
    others = [s for s in seats if s.pk != seat.pk and s.status == Seat.Status.JOINED]
    acting = [s for s in others if s.index in game.to_act]
    mine = seat.index in game.to_act
    link = settings.SITE_URL + game.get_absolute_url()
    title = f"{game.title} (game {game.pk})"
    if mine:
        summary = f"Your move in {game.title}" + (f" with {_and([s.player_name for s in others])}" if others else "")
        detail = "It is your move: your time for it runs out at this time."
        if acting:
            detail += f" {_and([s.player_name for s in acting])} must also act by then."
    else:
        waited = _and([s.player_name for s in acting]) or "The other players"
        summary = f"{waited} to move in {game.title} with you" + (
            f" and {_and([s.player_name for s in others if s not in acting])}"
            if len(acting) < len(others) else "")
        detail = f"You wait for {waited}: their time for this move runs out at this time."
    event = Event()
    event.add("uid", _uid(f"game-{game.pk}-deadline"))
    event.add("dtstamp", _utc(game.updated_at))
    event.add("last-modified", _utc(game.updated_at))
    event.add("sequence", game.version)
    # A moment, not a stretch of time: an event with a start and no end (RFC 5545 3.6.1).
    event.add("dtstart", _utc(game.deadline))
    event.add("summary", f"{summary} (game {game.pk})")
    event.add("description", f"{detail}\n{title}, {game.time_control} day{'s' if game.time_control != 1 else ''}"
                             f" per move.\n{link}")
    event.add("url", link)
    event.add("transp", "TRANSPARENT")  # a deadline does not make the player busy
    return event


def vacation_event(vacation: Vacation) -> Event:
    going_on = vacation.ended_at is None
    end = deadlines.vacation_end_limit(vacation) if going_on else vacation.ended_at
    event = Event()
    event.add("uid", _uid(f"vacation-{vacation.pk}"))
    event.add("dtstamp", _utc(vacation.ended_at or vacation.started_at))
    event.add("sequence", 0 if going_on else 1)  # ending it is its one change
    event.add("dtstart", _utc(vacation.started_at))
    event.add("dtend", _utc(max(end, vacation.started_at + dt.timedelta(minutes=1))))
    event.add("summary", "Your vacation: the clocks of your games wait for you")
    event.add("description", ("It ends by itself when your vacation days run out, or when you come back: "
                              if going_on else "You came back then. ")
              + settings.SITE_URL + "/games/vacation/")
    event.add("transp", "TRANSPARENT")
    return event


def feed(user, now: dt.datetime) -> bytes:
    """The iCalendar text of ``user``'s deadlines and vacations."""
    calendar = Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    name = f"Sefirot Online: deadlines of {user}"
    calendar.add("name", name)  # RFC 7986
    calendar.add("x-wr-calname", name)  # what most apps still read
    calendar.add("refresh-interval", dt.timedelta(hours=1), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", "PT1H")
    seats = (Seat.objects.filter(user=user, status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE,
                                 game__deadline__isnull=False)
             .select_related("game")
             .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
             .order_by("game__deadline", "game_id"))
    for seat in seats:
        calendar.add_component(deadline_event(seat.game, seat))
    for vacation in Vacation.objects.filter(user=user).exclude(ended_at__lt=now - VACATIONS_SHOWN):
        calendar.add_component(vacation_event(vacation))
    return calendar.to_ical()
