"""What a player does to a clock from a page: give the other player a day.

Apart from ``deadlines`` because it sets off a mail (``tasks.send_day_given_mail``), and
the tasks module needs ``deadlines``: this way the imports go one way.
"""

from __future__ import annotations

from django.db import transaction

from games import services
from games.clocks.deadlines import DAY, give_a_day_refusal
from games.clocks.models import PausedClock
from games.clocks.tasks import send_day_given_mail
from games.models import Game, GameEvent
from sefirot_site.outbox import enqueue


def give_a_day(game_id: int, user) -> Game:
    """Push the deadline of the seats to act a day further (or add the day to a paused
    clock), note it in the game's log and mail them a word about it."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise services.NotYourSeat("There is no such game.")
        seat = services.seat_of(game, user)
        paused = PausedClock.objects.filter(game=game, version=game.version).first()
        refusal = give_a_day_refusal(game, seat, paused)
        if refusal is not None:
            raise refusal
        if paused is not None:
            paused.remaining += DAY
            paused.save(update_fields=["remaining"])
        else:
            game.deadline += DAY
            Game.objects.filter(pk=game.pk).update(deadline=game.deadline)
        # Not a move: the event shows in the log but never in the record that replays it.
        event = GameEvent.objects.create(game=game, kind=GameEvent.Kind.DAY_GIVEN, seat=seat.index,
                                         to_seats=list(game.to_act), version=game.version)
        enqueue(send_day_given_mail, event.pk)
        return game
