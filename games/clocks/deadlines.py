"""Time controls: reminders, time-outs, vacations and "give the other player a day".

A game with a clock has one ``deadline``, set by ``games.services`` to now + the days per
move whenever a move is applied.  This module moves it in three ways:

- a player on vacation has the clocks of the games waiting on them paused: the time left
  is kept in a ``PausedClock`` and the deadline is emptied, then given back (from the
  moment the vacation ends) when it ends;
- "give a day" pushes the deadline of the other player a day further, noted in the game's
  log (a ``GameEvent``, not a move) and told to them by mail; one day per move;
- a game still waiting at its deadline is ended by the scheduler (``end_overdue_game``):
  where the late seat has a forfeit move (Warring Planets) it is played for them through
  ``services.submit_move``; in a game of three or more the house's computer players take
  the late seats and the game goes on (``services.take_over_seats``); co-operative and
  solo games are abandoned.

Vacation days are counted per calendar year (UTC) by the year a vacation starts in; any
started day counts as a whole day, as on most correspondence-game sites.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.timesince import timesince

from games import services
from games.clocks.models import PausedClock, Vacation
from games.models import Game, GameEvent, Seat

DAY = timedelta(days=1)
REMINDER_AT = 0.8  # share of a move's time gone when the reminder goes out
FORFEIT = {"type": "forfeit"}


class ClockRefused(services.GameError):
    status = 409


# --- reminders and time-outs ---------------------------------------------------------------


def reminder_time(game: Game) -> datetime | None:
    if game.deadline is None or game.time_control is None:
        return None
    return game.deadline - timedelta(days=game.time_control) * (1 - REMINDER_AT)


def reminders_due(now: datetime) -> list[tuple[int, datetime]]:
    """(game id, deadline) of running games past 80 % of their time and not yet reminded."""
    longest = timedelta(days=max(Game.TimeControl.values)) * (1 - REMINDER_AT)
    games = (
        Game.objects.filter(status=Game.Status.ACTIVE, time_control__isnull=False,
                            deadline__gt=now, deadline__lte=now + longest)
        .exclude(reminded_deadline=F("deadline"))
        .only("pk", "deadline", "time_control")
    )
    return [(game.pk, game.deadline) for game in games if reminder_time(game) <= now]


def overdue_games(now: datetime) -> list[tuple[int, int]]:
    """(game id, version) of running games whose deadline has passed."""
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now).values_list("pk", "version")
    )


def end_overdue_game(game_id: int, version: int) -> str:
    """End a game whose seats to act ran out of time; safe to run twice or too late."""
    with transaction.atomic():
        # Locked first, so a move arriving now waits and then finds the game ended (or
        # this finds the move applied and the game no longer overdue): never both.
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        now = timezone.now()
        if game is None or game.status != Game.Status.ACTIVE or game.version != version:
            return "moved on"
        if game.deadline is None or game.deadline > now:
            return "not overdue"
        late = [seat for seat in game.seats.select_related("user") if seat.index in game.to_act]
        if any(seat.user_id and on_vacation(seat.user_id) for seat in late):
            # The scheduler ran before the vacation paused this clock: pause it now.
            sync_vacation_pause(game.pk)
            return "paused for a vacation"
        names = " and ".join(seat.player_name for seat in late) or "The player to act"
        if len(late) == 1 and late[0].user_id and FORFEIT in game.rules.legal_moves(game.load_state(), late[0].index):
            services.submit_move(game.pk, late[0], FORFEIT, version)
            # The engine's reason says "forfeited"; the record should also say why.
            Game.objects.filter(pk=game.pk).update(end_reason=f"{names} ran out of time and forfeited."[:200])
            return "forfeited"
        if services.takes_over(game):
            # A table of three or more plays on: the house's computer players take the late
            # seats (their moves follow through the outbox); abandoned once nobody is left.
            game = services.take_over_seats(
                game.pk, [seat.index for seat in late if seat.user is None or not seat.user.is_computer],
                f"{names} ran out of time.")
            return "taken over" if game.status == Game.Status.ACTIVE else "abandoned"
        services.abandon_game(game.pk, f"{names} ran out of time.")
        return "abandoned"


# --- vacations -----------------------------------------------------------------------------


def open_vacation(user_id: int) -> Vacation | None:
    return Vacation.objects.filter(user_id=user_id, ended_at__isnull=True).first()


def on_vacation(user_id: int) -> bool:
    return Vacation.objects.filter(user_id=user_id, ended_at__isnull=True).exists()


def charged_days(vacation: Vacation, now: datetime) -> int:
    """Whole days a vacation costs: every started day counts, at least one."""
    length = (vacation.ended_at or now) - vacation.started_at
    return max(1, math.ceil(length / DAY))


def days_used(user_id: int, year: int, now: datetime, *, excluding: int | None = None) -> int:
    vacations = Vacation.objects.filter(user_id=user_id, started_at__year=year)
    if excluding is not None:
        vacations = vacations.exclude(pk=excluding)
    return sum(charged_days(v, now) for v in vacations)


def days_left(user_id: int, now: datetime | None = None) -> int:
    now = now or timezone.now()
    return max(0, settings.VACATION_DAYS_PER_YEAR - days_used(user_id, now.year, now))


def vacation_end_limit(vacation: Vacation) -> datetime:
    """When an open vacation runs out of the year's allowance."""
    before = days_used(vacation.user_id, vacation.started_at.year, timezone.now(), excluding=vacation.pk)
    return vacation.started_at + DAY * max(0, settings.VACATION_DAYS_PER_YEAR - before)


def vacation_status(user) -> dict:
    now = timezone.now()
    current = open_vacation(user.pk)
    return {
        "allowance": settings.VACATION_DAYS_PER_YEAR,
        "used": days_used(user.pk, now.year, now),
        "left": days_left(user.pk, now),
        "current": current,
        "ends_by": vacation_end_limit(current) if current else None,
    }


def _waiting_game_ids(user_id: int) -> list[int]:
    seats = Seat.objects.filter(user_id=user_id, status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE,
                                game__time_control__isnull=False).values_list("game_id", "index", "game__to_act")
    return [game_id for game_id, index, to_act in seats if index in (to_act or [])]


def start_vacation(user) -> Vacation:
    now = timezone.now()
    if days_left(user.pk, now) <= 0:
        raise ClockRefused(f"You have used all {settings.VACATION_DAYS_PER_YEAR} vacation days of this year.")
    try:
        with transaction.atomic():
            vacation = Vacation.objects.create(user=user, started_at=now)
    except IntegrityError:
        raise ClockRefused("You are on vacation already.") from None
    for game_id in _waiting_game_ids(user.pk):
        sync_vacation_pause(game_id)
    return vacation


def end_vacation(user, at: datetime | None = None) -> Vacation:
    with transaction.atomic():
        vacation = Vacation.objects.select_for_update().filter(user=user, ended_at__isnull=True).first()
        if vacation is None:
            raise ClockRefused("You are not on vacation.")
        vacation.ended_at = max(vacation.started_at, at or timezone.now())
        vacation.save(update_fields=["ended_at"])
    for game_id in PausedClock.objects.filter(user=user).values_list("game_id", flat=True):
        sync_vacation_pause(game_id)
    return vacation


def end_spent_vacations(now: datetime) -> int:
    """End every vacation that has used up its player's allowance; the number ended."""
    ended = 0
    for vacation in Vacation.objects.filter(ended_at__isnull=True).select_related("user"):
        limit = vacation_end_limit(vacation)
        if limit <= now:
            try:
                end_vacation(vacation.user, at=limit)
                ended += 1
            except ClockRefused:  # ended by the player meanwhile
                pass
    return ended


def sync_vacation_pause(game_id: int) -> str:
    """Make a game's clock paused exactly while someone it waits for is on vacation."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return "no game"
        paused = PausedClock.objects.filter(game=game).first()
        if game.status != Game.Status.ACTIVE or game.time_control is None:
            if paused:
                paused.delete()
            return "no clock"
        away = list(
            Vacation.objects.filter(
                ended_at__isnull=True, user__seats__game=game, user__seats__index__in=game.to_act,
                user__seats__status=Seat.Status.JOINED,
            ).values_list("user_id", flat=True)
        )
        now = timezone.now()
        if paused and paused.version != game.version:
            # The game moved on since it was paused; services set a fresh deadline then.
            paused.delete()
            paused = None
        if away:
            if paused:
                if paused.user_id not in away:
                    paused.user_id = away[0]
                    paused.save(update_fields=["user"])
                return "still paused"
            if game.deadline is None:
                return "no deadline"
            PausedClock.objects.create(game=game, user_id=away[0], version=game.version,
                                       remaining=max(game.deadline - now, timedelta(0)), paused_at=now)
            Game.objects.filter(pk=game.pk).update(deadline=None)
            return "paused"
        if paused:
            Game.objects.filter(pk=game.pk).update(deadline=now + paused.remaining)
            paused.delete()
            return "resumed"
        return "running"


def needs_vacation_sync(game_id: int, to_act: list[int]) -> bool:
    """One cheap query after each move: is a clock paused, or does a player to act have a vacation on?"""
    return Game.objects.filter(pk=game_id, time_control__isnull=False).filter(
        Q(paused_clock__isnull=False)
        | Q(seats__index__in=to_act, seats__user__vacations__started_at__isnull=False,
            seats__user__vacations__ended_at__isnull=True)
    ).exists()


# --- give the other player a day ------------------------------------------------------------


def paused_clock_of(game: Game) -> PausedClock | None:
    """The pause of this game's current turn, if its clock is on hold for a vacation.

    A pause left from an earlier version is on its way out (``sync_vacation_pause`` drops
    it after the move's commit) and no longer counts.
    """
    if not _clock_runs(game):
        return None
    return PausedClock.objects.filter(game=game, version=game.version).select_related("user").first()


def _clock_runs(game: Game) -> bool:
    return game.time_control is not None and game.status == Game.Status.ACTIVE


def give_a_day_refusal(game: Game, seat: Seat, paused: PausedClock | None) -> services.GameError | None:
    """Why ``seat`` cannot give the other player a day now, or None if it can.

    The game page offers the button exactly when this is None, and ``give_a_day`` refuses
    with it, so the two never disagree.
    """
    if game.status != Game.Status.ACTIVE:
        return services.GameNotRunning("This game is not in play.")
    if game.time_control is None:
        return ClockRefused("This game has no clock.")
    if seat.index in game.to_act or not game.to_act:
        return ClockRefused("You can give a day only while the other player is to move.")
    if paused is None and game.deadline is None:
        return ClockRefused("The clock of this game is not running.")
    # One day per move, whoever gives it: a courtesy, not a way to stop the clock (or to
    # mail the other player a notice at every click).
    given = (GameEvent.objects.filter(game=game, kind=GameEvent.Kind.DAY_GIVEN, version=game.version)
             .values_list("seat", flat=True).first())
    if given is not None:
        giver = "You" if given == seat.index else next(
            (s.player_name for s in game.seats.all() if s.index == given), "Another player")
        return ClockRefused(f"{giver} already gave a day for this move; one day can be given per move.")
    return None


def clock_facts(game: Game, seat: Seat, now: datetime | None = None) -> dict | None:
    """What the game page says about the clock to ``seat``; None for a game without one."""
    if game.time_control is None:
        return None
    paused = paused_clock_of(game)
    facts = _clock_facts(game, paused, now)
    # Who is away: the viewer themself (who can end it) or the other player.
    facts["paused_by_me"] = paused is not None and paused.user_id == seat.user_id
    facts["can_give_day"] = give_a_day_refusal(game, seat, paused) is None
    return facts


def clock_for_onlookers(game: Game, acting: list[str], paused: PausedClock | None,
                        now: datetime | None = None) -> dict | None:
    """What whoever looks on without a seat (a spectator, a player who left, the maker of
    a game of computer players) is told of the clock: what a player is, who must act by
    when (``acting``: their names) or whose vacation holds it, and nothing to do about it
    (no day to give, no vacation of theirs to end).  ``paused``: ``paused_clock_of(game)``,
    or ``loaded_pause(game)`` where the rows came with it (the watch list).  None for a
    game without a clock."""
    if game.time_control is None:
        return None
    facts = _clock_facts(game, paused, now)
    facts.update(acting=acting if facts["deadline"] else [], paused_by_me=False, can_give_day=False)
    return facts


def loaded_pause(game: Game) -> PausedClock | None:
    """The pause of the current turn from a game loaded with ``select_related("paused_clock")``
    (no query), as ``paused_clock_of`` would find it."""
    try:
        paused = game.paused_clock
    except PausedClock.DoesNotExist:
        return None
    return paused if _clock_runs(game) and paused is not None and paused.version == game.version else None


def _clock_facts(game: Game, paused: PausedClock | None, now: datetime | None) -> dict:
    now = now or timezone.now()
    return {
        "days": game.time_control,
        "deadline": game.deadline if game.status == Game.Status.ACTIVE else None,
        "paused": paused,
        "paused_left": timesince(now, now + paused.remaining) if paused else "",
    }
