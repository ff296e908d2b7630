"""Tarot Hallow tables on the site for the tests: a cast of up to six players and a game
where everyone has taken their seat."""

from __future__ import annotations

import json

from django.urls import reverse

from games import services
from games.models import Game

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


def cast(make_user, alice, bob, count: int) -> list:
    users = [alice, bob]
    for name in NAMES[2:count]:
        users.append(make_user(name, display_name=name.capitalize()))
    return users[:count]


def full_table(users, seed: int = 5, **kwargs) -> Game:
    """A table of len(users) seats the first user made, the others invited by name and
    accepting in turn (seat order is the cast's order)."""
    game = services.start_game(users[0], "tarot_hallow", {}, seats=len(users), invitees=list(users[1:]),
                               seed=seed, **kwargs)
    for user in users[1:]:
        services.accept_invitation(game.pk, user)
    return Game.objects.get(pk=game.pk)


def post_move(client, game, move: dict, version: int, htmx: bool = False):
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("games:move", args=[game.pk]),
                       {"version": version, "move": json.dumps(move)}, **extra)


def page(client, game, **query) -> str:
    return client.get(reverse("games:game", args=[game.pk]), query).content.decode()
