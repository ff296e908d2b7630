"""The count of games waiting for a player's move (the navigation's badge, the page title,
every poll's answer): running games where the player is asked, and nothing else."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import AnonymousUser

from games import services
from games.models import Game
from games.turns import turn_count
from games.page_regions import poll_stamp

from .mail_helpers import solo_game, two_player_game


@pytest.mark.django_db
def test_it_counts_the_running_games_where_the_player_is_asked(alice, bob, outsider):
    solo_game(alice)
    duel = two_player_game(alice, bob)  # alice (seat 0) is asked first
    waiting_on_bob = two_player_game(bob, alice, seed=3)  # bob is seat 0 there
    assert duel.to_act == [0] and waiting_on_bob.to_act == [0]
    assert turn_count(alice) == 2
    assert turn_count(bob) == 1
    assert turn_count(outsider) == 0
    assert turn_count(AnonymousUser()) == 0


@pytest.mark.django_db
def test_a_game_that_ended_or_that_the_player_left_counts_no_more(alice, bob):
    solo = solo_game(alice)
    duel = two_player_game(alice, bob)
    services.abandon_game(solo.pk, "test")
    assert turn_count(alice) == 1
    services.resign(duel.pk, alice)
    assert turn_count(alice) == 0
    assert turn_count(bob) == 0


@pytest.mark.django_db
def test_every_poll_brings_the_count_and_an_outsider_polls_into_nothing(alice, bob, alice_client, outsider_client):
    duel = two_player_game(alice, bob)
    solo_game(alice)
    # A page whose stamp is the game's: nothing changed, and the count comes all the same.
    quiet = alice_client.get(f"/games/{duel.pk}/version/?v={poll_stamp(Game.objects.get(pk=duel.pk))}")
    assert quiet.status_code == 204
    assert json.loads(quiet["HX-Trigger"]) == {"turn-count": {"value": 2}}
    Game.objects.filter(pk=duel.pk).update(public=False)  # a public game they may watch, and poll
    assert outsider_client.get(f"/games/{duel.pk}/version/?v=x").status_code == 404
