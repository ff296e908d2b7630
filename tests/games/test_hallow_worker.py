"""Through a real Celery worker: a player who gives up a table of three is played on by the
house; the two left play on, and the house's seat plays every round without anyone asking."""

from __future__ import annotations

import time

import pytest

from games import services
from games.models import Game, Move

from .conftest import reload
from .hallow_helpers import cast, full_table

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_house_plays_a_seat_left_at_a_table_through_the_worker(celery_worker_process, smtp_server,
                                                                   make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = full_table(users, seed=31)
    services.resign(game.pk, users[2])
    rounds_played = 0
    deadline = time.monotonic() + 120
    while rounds_played < 3 and time.monotonic() < deadline:
        game = reload(game)
        assert game.status == Game.Status.ACTIVE, game.end_reason
        people = [i for i in game.to_act if i in (0, 1)]
        if not people:
            time.sleep(0.2)  # only the house is to act: the worker's move is on its way
            continue
        for index in people:
            game = reload(game)
            if index in game.to_act:
                move = game.rules.legal_moves(game.load_state(), index)[0]
                services.submit_move(game.pk, users[index], move, game.version)
        rounds_played = len(game.load_state()["story"])
    assert rounds_played >= 3, "the house did not play its seat"
    assert Move.objects.filter(game=game, seat=2).count() >= 3
    assert not smtp_server.messages_to("house")  # a computer player is never mailed


def test_a_thinking_computer_player_asked_before_the_seats_listed_first_plays_its_card(
        celery_worker_process, smtp_server, alice, bob):
    """Issue 38: the searching levels once played their card as the first seat listed, so
    at a table where the people had not played yet the worker's task failed at every retry
    and the table stalled."""
    from games.computer import computer_player
    game = services.start_game(alice, "tarot_hallow", {}, seats=3, invitees=[bob, computer_player("ismcts")],
                               seed=0)
    services.accept_invitation(game.pk, bob)
    deadline = time.monotonic() + 60
    while not Move.objects.filter(game=game, seat=2).exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    game = reload(game)
    assert Move.objects.filter(game=game, seat=2).count() == 1, "the computer did not play its card"
    assert game.to_act == [0, 1] and game.status == Game.Status.ACTIVE
