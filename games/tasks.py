"""Celery tasks of the games app.  Each takes ids, is safe to run twice, and gives up after
a few retries.  (Turn mail, reminders and time-outs live in their own modules and are
imported below so the worker's autodiscovery finds them.)"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Seat


@shared_task(bind=True, max_retries=5, default_retry_delay=60, soft_time_limit=60, time_limit=90)
def send_invitation_mail(self, seat_id: int) -> str:
    """Mail an invitation to the seat's address (a link that takes the seat) or to the
    invited user (a link to the game, where they accept or decline), once."""
    with transaction.atomic():
        seat = (
            Seat.objects.select_for_update(of=("self",))  # lock the seat row only
            .select_related("game", "game__created_by", "user")
            .filter(pk=seat_id)
            .first()
        )
        if seat is None or seat.status != Seat.Status.INVITED or not (seat.invite_token or seat.user):
            return "not invited any more"
        if seat.game.status != Game.Status.INVITED:
            return "game no longer waiting"
        if seat.invitation_mailed_at is not None:
            return "already sent"
        game = seat.game
        if seat.user is not None:
            if not seat.user.email or not seat.user.is_active or seat.user.turn_mail == seat.user.TurnMail.NEVER:
                return "the player wants no mail"
            address = seat.user.email
            link = settings.SITE_URL + reverse("games:game", args=[game.pk])
        else:
            address = seat.invited_email
            link = settings.SITE_URL + reverse("games:invitation", args=[seat.invite_token])
        context = {
            "game": game,
            "host": str(game.created_by) if game.created_by else "A player",
            "link": link,
            "summary": game.rules.summary,
            # Only an invitation by address can lead to a sign-up; a player invited by name
            # has an account already.
            "newcomer": seat.user is None,
            "player": seat.user.username if seat.user is not None else "",
            "SITE_URL": settings.SITE_URL,
        }
        message = EmailMultiAlternatives(
            subject=f"{context['host']} invites you to play {game.title} on Sefirot Online",
            body=render_to_string("games/mail/invitation.txt", context),
            to=[address],
        )
        message.attach_alternative(render_to_string("games/mail/invitation.html", context), "text/html")
        try:
            message.send()
        except OSError as error:  # SMTP down: the row lock is released, try again later
            raise self.retry(exc=error) from None
        # Marked in the same transaction as the send: a crash before this line means a
        # retry sends again (at most one duplicate), never no mail at all.
        seat.invitation_mailed_at = timezone.now()
        seat.save(update_fields=["invitation_mailed_at"])
    return "sent"


# Turn mail, digests, reminders and time-outs (registered here for the worker's autodiscovery).
from games.mail_tasks import (  # noqa: E402,F401
    check_clocks, end_overdue_game, send_daily_digests, send_deadline_reminder, send_digest,
    send_game_over_mail, send_turn_mail,
)
