"""Deleting an account: running games are resigned, waiting ones cancelled, finished ones
keep an anonymous seat, and the player's notes and chat lines go with the account."""

from __future__ import annotations

import pytest

from games import services
from games.models import ChatMessage, Game, Note
from sefirot_site.accounts.services import delete_account

from .conftest import play_random_moves, reload

pytestmark = pytest.mark.django_db


def test_a_running_warring_planets_game_is_forfeited_to_the_opponent(alice, bob):
    game = services.start_game(alice, "warring_planets", opponent=bob)
    services.accept_invitation(game.pk, bob)
    delete_account(alice)
    game = reload(game)
    assert game.status == Game.Status.FINISHED
    assert game.outcome["winners"] == [1]
    assert game.seats.get(index=0).user is None
    assert game.seats.get(index=1).user == bob


def test_a_running_solo_game_is_abandoned(alice):
    game = services.start_game(alice, "know_thyself")
    delete_account(alice)
    assert reload(game).status == Game.Status.ABANDONED


def test_an_invitation_not_yet_answered_is_cancelled(alice, bob):
    game = services.start_game(alice, "lovers_discourse", opponent=bob)
    delete_account(bob)
    assert reload(game).status == Game.Status.CANCELLED


def test_a_finished_game_keeps_an_anonymous_seat_and_its_record(alice, bob):
    # A fixed seed: with a random one, the random moves sometimes include the forfeit
    # and the game is over before bob resigns.
    game = services.start_game(alice, "warring_planets", opponent=bob, seed=5)
    services.accept_invitation(game.pk, bob)
    play_random_moves(game, 6, seed=3)
    services.resign(game.pk, bob)
    moves_before = reload(game).moves.count()
    delete_account(bob)
    game = reload(game)
    assert game.status == Game.Status.FINISHED
    assert game.seats.get(index=1).user is None
    assert game.moves.count() == moves_before


def test_notes_and_chat_lines_go_with_the_account(alice, bob):
    game = services.start_game(alice, "lovers_discourse", opponent=bob)
    services.accept_invitation(game.pk, bob)
    Note.objects.create(game=game, user=bob, text="my private thoughts")
    ChatMessage.objects.create(game=game, seat=1, user=bob, text="hello")
    ChatMessage.objects.create(game=game, seat=0, user=alice, text="hi")
    delete_account(bob)
    assert not Note.objects.filter(text="my private thoughts").exists()
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["hi"]
