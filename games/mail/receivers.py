"""Where play by mail listens to ``games.signals`` (connected in GamesConfig.ready).

Mails are consequences that must not be lost: their receivers listen to the
``*_before_commit`` signals and record each mail in the outbox inside the transaction of
the move (``sefirot_site.outbox.enqueue``), which publishes it after commit and sweeps it
up again if the broker was away.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.dispatch import receiver

from games import signals
from games.mail.outgoing import revealed_now
from games.mail.tasks import send_game_over_mail, send_invitation_mail, send_reveal_mail, send_turn_mail
from games.models import Game, Seat
from sefirot_site.outbox import enqueue
from sefirot_site.prepared import PreparedQuery

# Asked at nearly every move of a game of two or more: compiled once (sefirot_site.prepared).
# The seats to act are picked from these in Python (a table has at most six), since a
# prepared query takes whole numbers, not the list of seats.
_SEATS_MAILED_EACH_TURN = PreparedQuery(
    lambda game_id: Seat.objects.filter(
        game_id=game_id, status=Seat.Status.JOINED, mail_muted=False,
        user__is_active=True, user__turn_mail=get_user_model().TurnMail.EACH_TURN,
    ).order_by("index").values_list("pk", "index"), 1)


@receiver(signals.turn_changed_before_commit, dispatch_uid="games.mail.turn_changed")
def mail_the_seats_to_act(sender, game_id, version, to_act, **kwargs):
    for seat_id, index in _SEATS_MAILED_EACH_TURN(game_id):
        if index in to_act:
            enqueue(send_turn_mail, seat_id, version)


@receiver(signals.move_applied_before_commit, dispatch_uid="games.mail.move_applied")
def mail_a_reveal_to_the_others(sender, game_id, version, seat, to_act, **kwargs):
    """Cards revealed while some seats are not asked (a tie replayed among others, a court's
    power being used): those seats hear of it now, once, not at their next turn.  Nothing
    to do when every seat is asked (their turn mails tell it) or the game ended."""
    if not to_act:
        return
    # The move's own game, as it left it, when the service hands it over (no query on a move).
    game = kwargs.get("game")
    if game is None or game.version != version:
        game = Game.objects.filter(pk=game_id, version=version).only("mode", "players", "version", "state").first()
    # The text test first: a game whose state never says "reveal" is not parsed at all.
    if game is None or len(set(to_act)) >= game.players or '"reveal"' not in game.state or not revealed_now(game):
        return
    enqueue(send_reveal_mail, game_id, version)


@receiver(signals.game_finished_before_commit, dispatch_uid="games.mail.game_finished")
def mail_the_end(sender, game_id, status, version, **kwargs):
    enqueue(send_game_over_mail, game_id, version)


@receiver(signals.seat_invited_before_commit, dispatch_uid="games.mail.seat_invited")
def mail_the_invitation(sender, game_id, seat_id, **kwargs):
    enqueue(send_invitation_mail, seat_id)
