"""Ratings: a finished game of Warring Planets or Tarot Hallow rates its players (openskill,
any number of seats), computers too, once per game, in the transaction that finished it;
rebuilding from the record gives the same numbers; the profile and the lobby show them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.computer import computer_player
from games.models import Game, Seat
from games.ratings.models import RatedGame, Rating
from games.ratings.services import ranks, rate_game, rebuild

from .conftest import reload

pytestmark = pytest.mark.django_db


def _duel(a, b, mode="warring_planets", seed=5):
    game = services.start_game(a, mode, opponent=b, seed=seed)
    if not b.is_computer:
        services.accept_invitation(game.pk, b)
    return reload(game)


def _ratings(mode="warring_planets"):
    return {r.user.username: (r.mu, r.sigma, r.games) for r in Rating.objects.filter(mode=mode)}


def test_a_finished_warring_planets_game_rates_both_players(alice, bob):
    game = _duel(alice, bob)
    services.resign(game.pk, bob)

    game = reload(game)
    assert game.status == Game.Status.FINISHED and RatedGame.objects.filter(game=game).exists()
    got = _ratings()
    assert got["alice"][0] > 25 > got["bob"][0]
    assert got["alice"][2] == got["bob"][2] == 1


def test_a_game_is_rated_once_however_often_it_is_asked(alice, bob):
    game = _duel(alice, bob)
    services.resign(game.pk, alice)
    before = _ratings()

    assert rate_game(game.pk) is False
    assert rate_game(game.pk) is False
    assert _ratings() == before and RatedGame.objects.count() == 1


def test_rebuilding_from_the_finished_games_gives_the_same_numbers(alice, bob, outsider):
    services.resign(_duel(alice, bob).pk, bob)
    services.resign(_duel(bob, outsider, seed=6).pk, outsider)
    services.resign(_duel(outsider, alice, seed=7).pk, alice)
    recorded = _ratings()

    assert rebuild() == 3
    again = _ratings()
    assert again.keys() == recorded.keys()
    for name in recorded:
        assert again[name] == pytest.approx(recorded[name])


def test_the_computer_is_rated_like_a_person(alice):
    game = services.start_game(alice, "warring_planets", opponent=computer_player("greedy"), seed=5)
    services.resign(game.pk, alice)

    got = _ratings()
    assert got["computer-greedy"][0] > 25 > got["alice"][0]


def test_only_the_rated_games_and_only_a_finish_count(alice, bob):
    services.resign(_duel(alice, bob, mode="lovers_discourse").pk, bob)  # a pair, not rivals
    game = _duel(alice, bob)
    services.abandon_game(game.pk, "Nobody came back.")

    assert not Rating.objects.exists() and not RatedGame.objects.exists()


def test_any_number_of_seats_is_rated_by_place(alice, bob, outsider):
    """Tarot Hallow with three seats (made directly: the site seats two today)."""
    from games.engine import get_rules

    rules = get_rules("tarot_hallow")
    state = rules.new_game(3, 3)
    game = Game.objects.create(mode="tarot_hallow", seed=3, players=3, status=Game.Status.FINISHED,
                               state=rules.dumps(state), options={"variant": ["standard"]},
                               outcome={"result": "win", "winners": [2], "scores": [3, 5, 9],
                                        "reason": "x"})
    for i, user in enumerate((alice, bob, outsider)):
        Seat.objects.create(game=game, index=i, user=user, status=Seat.Status.JOINED)

    assert rate_game(game.pk)
    got = _ratings("tarot_hallow")
    assert got["outsider"][0] > got["bob"][0] > got["alice"][0]
    assert ranks({"winners": [0], "scores": [4, 4, 4]}, 3) == [1, 2, 2]
    assert ranks({"winners": [0, 1], "scores": [4, 4, 1]}, 3) == [1, 1, 2]


def test_the_profile_and_the_lobby_show_ratings(alice, bob, alice_client, bob_client):
    services.resign(_duel(alice, bob).pk, bob)
    shown = Rating.objects.get(user=alice).shown

    profile = alice_client.get(reverse("profile")).content.decode()
    assert "Your ratings" in profile and f"Warring Planets: <strong>{shown}</strong>" in profile
    lobby = bob_client.get(reverse("games:lobby")).content.decode()
    assert "Ratings" in lobby and "alice" in lobby.lower() and "You:" in lobby
