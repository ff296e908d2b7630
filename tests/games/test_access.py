"""An outsider (logged in, but without a seat) gets nothing from any URL or action of a
private game (a public one they may watch: tests/games/test_watching.py)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import services
from games.models import ChatMessage, Game, Note

from .conftest import play_random_moves, reload, two_player_mode

pytestmark = pytest.mark.django_db

GETS = ("game", "version", "history", "record")
POSTS = ("move", "accept", "decline", "cancel", "rematch", "resign", "preferences", "chat", "notes",
         "accept_challenge")


@pytest.fixture
def games_of_alice(alice, bob, duel):
    finished = play_random_moves(services.start_game(alice, "know_thyself", seed=7, public=False), 500, seed=7)
    invited = services.start_game(alice, two_player_mode(), opponent=bob)
    Game.objects.filter(pk=duel.pk).update(public=False)
    return [reload(duel), finished, invited]


def snapshot():
    return [(g.pk, g.status, g.version, g.state, list(g.seats.values_list("user", "status")))
            for g in Game.objects.order_by("pk")], ChatMessage.objects.count(), Note.objects.count()


def test_an_outsider_gets_404_from_every_game_url_and_action(outsider_client, games_of_alice):
    before = snapshot()
    for game in games_of_alice:
        for name in GETS:
            response = outsider_client.get(reverse(f"games:{name}", args=[game.pk]))
            assert response.status_code in (403, 404), (name, game.status, response.status_code)
        rules = game.rules
        moves = rules.legal_moves(game.load_state(), game.to_act[0]) if game.to_act else [{"type": "play"}]
        data = {"version": game.version, "move": json.dumps(moves[0]), "text": "hi", "confirm_moves": "on"}
        for name in POSTS:
            response = outsider_client.post(reverse(f"games:{name}", args=[game.pk]), data)
            assert response.status_code in (403, 404), (name, game.status, response.status_code)
            response = outsider_client.post(reverse(f"games:{name}", args=[game.pk]), data, HTTP_HX_REQUEST="true")
            assert response.status_code in (403, 404), (name, game.status, response.status_code)
    assert snapshot() == before


def test_a_stranger_who_is_not_logged_in_is_sent_to_log_in(client, games_of_alice):
    for game in games_of_alice:
        for name in GETS:
            response = client.get(reverse(f"games:{name}", args=[game.pk]))
            assert response.status_code == 302 and reverse("account_login") in response["Location"]
        for name in POSTS:
            response = client.post(reverse(f"games:{name}", args=[game.pk]), {"version": 0, "move": "{}"})
            assert response.status_code == 302 and reverse("account_login") in response["Location"]


def test_an_outsider_does_not_see_others_games_in_their_list(outsider_client, games_of_alice):
    page = outsider_client.get(reverse("games:list")).content.decode()
    for game in games_of_alice:
        assert f"/games/{game.pk}/" not in page


def test_a_declined_seat_loses_access(alice, bob, bob_client):
    game = services.start_game(alice, two_player_mode(), opponent=bob)
    services.decline_invitation(game.pk, bob)
    assert bob_client.get(reverse("games:game", args=[game.pk])).status_code == 404
    assert reload(game).status == Game.Status.DECLINED
