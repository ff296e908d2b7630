"""Invitations by email: the mail goes out through the real worker to a real SMTP server,
and a newcomer who signs up through its link takes the seat."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Seat
from tests.support.users import PASSWORD

from .conftest import two_player_mode

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def path_of(link: str) -> str:
    return re.sub(r"^https?://[^/]+", "", link)


def test_a_newcomer_who_signs_up_through_the_invitation_takes_the_seat(
        celery_worker_process, smtp_server, alice_client, django_user_model):
    response = alice_client.post(reverse("games:new"), {
        "mode": two_player_mode(), "opponent": "email", "email": "newcomer@example.org", "time_control": "3"})
    game = Game.objects.get()
    assert response.status_code == 302 and game.status == Game.Status.INVITED

    invitation = smtp_server.wait_for("newcomer@example.org")
    assert "Alice invites you" in invitation["Subject"]
    link = next(link for link in smtp_server.links(invitation) if "/games/invitation/" in link)
    assert game.seats.get(index=1).invite_token in link

    newcomer = Client()
    landing = newcomer.get(path_of(link)).content.decode()
    assert "sign up" in landing and reverse("account_signup") in landing
    newcomer.post(reverse("account_signup"), {
        "email": "newcomer@example.org", "username": "newcomer", "password1": PASSWORD, "password2": PASSWORD})
    confirmation = smtp_server.wait_for("newcomer@example.org", count=2)
    confirm = next(link for link in smtp_server.links(confirmation) if "/accounts/confirm-email/" in link)
    newcomer.post(path_of(confirm))
    if "_auth_user_id" not in newcomer.session:
        newcomer.post(reverse("account_login"), {"login": "newcomer", "password": PASSWORD})

    game.refresh_from_db()
    seat = game.seats.get(index=1)
    assert seat.user == django_user_model.objects.get(username="newcomer")
    assert seat.status == Seat.Status.JOINED and game.status == Game.Status.ACTIVE
    assert newcomer.get(reverse("games:game", args=[game.pk])).status_code == 200
    # The task is idempotent: the mail went out once, and running it again sends nothing.
    from games.mail.tasks import send_invitation_mail
    assert send_invitation_mail.run(seat.pk) == "not invited any more"
    assert len(smtp_server.messages_to("newcomer@example.org")) == 2


def test_an_invitation_can_be_declined_from_its_link(celery_worker_process, smtp_server, alice_client, bob):
    alice_client.post(reverse("games:new"), {"mode": two_player_mode(), "opponent": "email",
                                             "email": "bob@example.com"})
    link = next(link for link in smtp_server.links(smtp_server.wait_for("bob@example.com"))
                if "/games/invitation/" in link)
    bob_client = Client()
    bob_client.force_login(bob)
    assert "Decline" in bob_client.get(path_of(link)).content.decode()
    bob_client.post(path_of(link), {"answer": "decline"})
    assert Game.objects.get().status == Game.Status.DECLINED
    assert bob_client.get(path_of(link)).status_code == 404  # the link has done its work


def test_a_player_invited_by_name_gets_a_mail_with_a_link_to_the_game(
        celery_worker_process, smtp_server, alice, alice_client, bob):
    alice_client.post(reverse("games:new"), {"mode": two_player_mode(), "opponent": "user", "username": "bob"})
    game = Game.objects.get()
    mail = smtp_server.wait_for("bob@example.com")
    assert "Alice invites you" in mail["Subject"]
    assert any(path_of(link) == reverse("games:game", args=[game.pk]) for link in smtp_server.links(mail))
    text = smtp_server.text(mail)
    assert "log in as bob" in text and "sign up" not in text  # bob has an account
