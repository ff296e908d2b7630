"""Computer players on the site: chosen on the new-game page, seated at once, moving
through a real worker by the same path as a person (log, version, mails), never mailed,
never on a clock; an outsider still gets nothing."""

from __future__ import annotations

import json
import time

import pytest
from django.urls import reverse

from games import services
from games.computer import computer_player
from games.computer.tasks import play_computer_move
from games.models import Game, Move
from sefirot_site.outbox.models import PendingTask

from .conftest import reload


def _new_game(client, mode, level="greedy", **extra):
    return client.post(reverse("games:new"), {"mode": mode, "opponent": "computer", "computer_level": level,
                                              **extra})


@pytest.mark.django_db
def test_a_game_against_the_computer_starts_at_once_and_the_computer_is_named(alice, alice_client):
    response = _new_game(alice_client, "warring_planets", time_control="1")
    assert response.status_code == 302, response.content.decode()[:1500]

    game = Game.objects.get(created_by=alice)
    assert game.status == Game.Status.ACTIVE
    computer = game.seats.get(index=1).user
    assert computer.is_computer and str(computer) == "Hermes (computer)" and computer.email == ""
    listing = alice_client.get(reverse("games:list")).content.decode()
    assert "Hermes (computer)" in listing


@pytest.mark.django_db
def test_the_computer_is_offered_only_for_games_of_more_than_one_seat(alice, alice_client):
    response = _new_game(alice_client, "know_thyself")

    assert response.status_code == 400
    assert "played alone" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_computers_move_is_recorded_with_the_human_move_and_played_from_its_view_alone(
        alice, alice_client, django_capture_on_commit_callbacks):
    game = reload(services.start_game(alice, "warring_planets", opponent=computer_player("greedy"), seed=5,
                                      time_control=1))
    assert game.to_act == [0] and game.deadline is not None
    with django_capture_on_commit_callbacks(execute=False):
        for _ in range(20):  # alice's turn may take several steps
            if game.to_act != [0]:
                break
            move = [m for m in game.rules.legal_moves(game.load_state(), 0) if m["type"] != "forfeit"][0]
            answer = alice_client.post(reverse("games:move", args=[game.pk]),
                                       {"version": game.version, "move": json.dumps(move), "confirmed": "1"})
            assert answer.status_code in (200, 302, 303), answer.content.decode()[:500]
            game = reload(game)
    pending = PendingTask.objects.get(task="games.play_computer_move")
    assert pending.args == [game.pk, game.version]
    # While only the computer is to act, no clock runs.
    assert game.to_act == [1] and game.deadline is None

    assert play_computer_move(*pending.args).startswith("played")
    assert play_computer_move(*pending.args) == "moved on"  # twice is once
    assert Move.objects.filter(game=game, seat=1).exists()
    assert reload(game).version > pending.args[1]


@pytest.mark.django_db
def test_a_computer_partner_plays_lovers_discourse_too(alice, alice_client):
    assert _new_game(alice_client, "lovers_discourse", level="ismcts").status_code == 302
    game = Game.objects.get(created_by=alice)
    assert str(game.seats.get(index=1).user) == "Sophia (computer)"


@pytest.mark.django_db
def test_an_outsider_gets_nothing_of_a_computer_game(alice, outsider_client):
    game = services.start_game(alice, "warring_planets", opponent=computer_player("greedy"), seed=5, public=False)
    assert outsider_client.get(reverse("games:game", args=[game.pk])).status_code == 404


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_computer_answers_through_a_real_worker_and_is_never_mailed(
        celery_worker_process, smtp_server, alice, alice_client):
    assert _new_game(alice_client, "warring_planets").status_code == 302
    game = Game.objects.get(created_by=alice)
    for _ in range(3):  # a few turns each
        game = reload(game)
        deadline = time.monotonic() + 60
        while game.to_act != [0] and game.status == Game.Status.ACTIVE and time.monotonic() < deadline:
            time.sleep(0.2)
            game = reload(game)
        if game.status != Game.Status.ACTIVE:
            break
        assert game.to_act == [0], "the computer did not answer"
        moves = [m for m in game.rules.legal_moves(game.load_state(), 0) if m["type"] != "forfeit"]
        alice_client.post(reverse("games:move", args=[game.pk]), {"version": game.version, "confirmed": "1",
                                                                  "move": json.dumps(moves[0])})
    assert Move.objects.filter(game=game, seat=1).exists()
    page = alice_client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Hermes (computer)" in page
    assert all("computer" not in " ".join(recipients) for recipients, _ in smtp_server._messages)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_computers_move_is_played_by_a_worker_logged_and_mailed_like_a_persons(
        celery_worker_process, smtp_server, alice):
    from django.test import Client

    game = reload(services.start_game(alice, "warring_planets", opponent=computer_player("greedy"), seed=7))
    # Alice plays by mail, as it were: not on the page, so her turn mail is not held back.
    while game.to_act == [0]:
        move = [m for m in game.rules.legal_moves(game.load_state(), 0) if m["type"] != "forfeit"][0]
        services.submit_move(game.pk, game.seats.get(index=0), move, game.version)
        game = reload(game)
    assert game.to_act == [1]
    computer_from = game.version
    deadline = time.monotonic() + 90
    while reload(game).to_act == [1] and time.monotonic() < deadline:
        time.sleep(0.2)
    game = reload(game)
    assert game.to_act != [1], "the worker did not play the computer's move"

    # Logged like a person's: a numbered move with its words, in the page's log by name.
    played = list(Move.objects.filter(game=game, seat=1, number__gt=computer_from))
    assert played and all(m.description for m in played)
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Hermes" in page.split('id="log"')[1]
    # Mailed like a person's: alice's turn mail comes after the computer's move, naming it.
    if game.status == Game.Status.ACTIVE:
        mail = smtp_server.wait_for(alice.email, timeout=90)
        text = smtp_server.text(mail)
        assert "Hermes" in text and "seat 1" not in text.lower()
    assert all("computer" not in " ".join(recipients) for recipients, _ in smtp_server._messages)
