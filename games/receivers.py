"""Where the games app listens to the rest of the site (connected in GamesConfig.ready)."""

from __future__ import annotations

import re

from allauth.account.signals import email_confirmed, user_logged_in, user_signed_up
from django.conf import settings
from django.db.models.signals import pre_delete
from django.dispatch import receiver

from games import services
from games.models import Game, Seat


def _take_pending_invitations(request, user) -> None:
    """A newcomer who came through an invitation link takes the seat once they are in."""
    if request is None or not hasattr(request, "session"):
        return
    for token in request.session.pop("game_invitations", []):
        seat = Seat.objects.filter(invite_token=token, status=Seat.Status.INVITED).first()
        if seat is None:
            continue
        try:
            services.accept_invitation(seat.game_id, user, token)
        except services.GameError:
            pass  # withdrawn or taken meanwhile: nothing to take


@receiver(user_logged_in)
def take_invitations_on_login(sender, request, user, **kwargs):
    _take_pending_invitations(request, user)


@receiver(user_signed_up)
def take_invitations_on_signup(sender, request, user, **kwargs):
    # With mandatory verification the new account is not logged in yet; binding the seat
    # by the address it was sent to happens on confirmation below.  A signup that logs in
    # at once (verification off) takes the seat here.
    if getattr(user, "is_authenticated", False) and request is not None and request.user == user:
        _take_pending_invitations(request, user)


@receiver(email_confirmed)
def offer_invitations_to_confirmed_address(sender, request, email_address, **kwargs):
    """Invitations sent to an address become the account's once it proves it owns it."""
    seats = Seat.objects.filter(
        invited_email__iexact=email_address.email, user__isnull=True,
        status=Seat.Status.INVITED, game__status=Game.Status.INVITED,
    )
    for seat in seats:
        if not Seat.objects.filter(game=seat.game_id, user=email_address.user).exists():
            Seat.objects.filter(pk=seat.pk, user__isnull=True).update(user=email_address.user)


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL)
def end_games_of_deleted_account(sender, instance, **kwargs):
    """A running game cannot go on without one of its players, so the leaving player
    resigns it: a forfeit where the game has one (the opponent wins Warring Planets), at a
    table of three or more the house plays the seat on, otherwise it is abandoned.  Games not yet started are cancelled.  Finished games keep
    an anonymous seat (Seat.user is SET_NULL); notes and chat go with the account."""
    for game_id in Game.objects.filter(seats__user=instance, status=Game.Status.ACTIVE).values_list("pk", flat=True):
        try:
            services.resign(game_id, instance)
        except services.GameError:
            pass  # ended meanwhile: nothing left to resign
    # A table still filling keeps going without them (their seat opens again); a game
    # of two, or a table they made, is cancelled.
    for game_id in Game.objects.filter(seats__user=instance, status__in=Game.WAITING).values_list("pk", flat=True):
        services.leave_waiting_table(game_id, instance)
    _forget_the_person(instance)


def _forget_the_person(user) -> None:
    """What the games keep of a player beside the seat itself: the address an invitation
    went to, and the name in an end reason ("Alice left the game.", written just above
    when the account's running games were resigned)."""
    Seat.objects.filter(user=user).update(invited_email="")
    name = re.compile(rf"(?<!\w){re.escape(str(user))}(?!\w)")
    for game in Game.objects.filter(seats__user=user).exclude(end_reason="").distinct():
        reason = name.sub(lambda m: "A departed player" if m.start() == 0 else "a departed player", game.end_reason)
        if reason != game.end_reason:
            Game.objects.filter(pk=game.pk).update(end_reason=reason)
