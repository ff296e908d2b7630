"""A cooperative game (Lovers' Discourse) ends in the words of a shared game: its partners
win or lose together, with one score between them, on the game page, in My games, in the
game-over mail and in the journal entry, never "You lost. Scores: 0 / 0." (issue 38, 3)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.computer import computer_player
from games.mail.outgoing import game_over_mail
from games.models import Game
from journal.models import Entry
from tests.engine.test_lovers_discourse import LD, arrange, full_board

from .conftest import play_random_moves, reload

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_game_lost_with_the_computer_as_partner_is_lost_together_everywhere(alice, alice_client):
    partner = computer_player("greedy")
    game = services.start_game(alice, "lovers_discourse", {}, opponent=partner, seed=1)
    # Both seats played through the services (the computer's own worker is not needed).
    game = play_random_moves(game, 600, seed=1)
    assert game.status == Game.Status.FINISHED and game.outcome["result"] == "loss"

    page = _text(alice_client.get(reverse("games:game", args=[game.pk])).content.decode())
    assert "You and Hermes (computer) lost together." in page
    assert "You lost." not in page and "Scores:" not in page and "Winner" not in page
    listing = _text(alice_client.get(reverse("games:list")).content.decode())
    assert "you lost together" in listing
    mail = game_over_mail(game.seats.get(index=0))
    assert "has ended: you and Hermes (computer) lost together." in mail.body
    assert "lost together" in mail.alternatives[0][0]
    entry = Entry.objects.get(owner=alice, source_game=game)
    assert entry.title == "Lovers' Discourse, lost together"
    assert entry.reading["summary"].startswith("You and Hermes (computer) lost together: ")
    assert entry.reading["summary"].endswith(f" Your shared score: {game.outcome['scores'][0]}.")
    journal = _text(alice_client.get(reverse("journal:detail", args=[entry.pk])).content.decode())
    assert "lost together" in journal and "Scores:" not in journal


def test_a_game_won_is_won_together_with_one_shared_score(alice, bob):
    game = services.start_game(alice, "lovers_discourse", {}, opponent=bob, seed=1)
    services.accept_invitation(game.pk, bob)
    # One card from victory: every space holds a resolved Major but C0, whose Hierophant
    # waits for the 5 of Cups raised by Alice.
    board = {s: dict(e, resolved_by=0) for s, e in full_board().items()}
    board["C0"]["resolved_by"] = None
    state = arrange(board=board, waiting=["5c", "2c"], phase="place")
    Game.objects.filter(pk=game.pk).update(state=LD.dumps(state), to_act=LD.to_act(state))
    game = reload(game)
    answer = _client(alice).post(reverse("games:move", args=[game.pk]), {
        "version": game.version, "move": json.dumps({"type": "place", "card": "5c", "to": "C0"})})
    assert answer.status_code == 302
    game = reload(game)
    assert game.outcome["result"] == "win"

    for user, partner in ((alice, "Bob"), (bob, "Alice")):
        page = _text(_client(user).get(reverse("games:game", args=[game.pk])).content.decode())
        assert f"You and {partner} won together." in page
        assert "Winners:" not in page and "Scores:" not in page
        mail = game_over_mail(game.seats.get(user=user))
        assert f"has ended: you and {partner} won together." in mail.body
        entry = Entry.objects.get(owner=user, source_game=game)
        assert entry.title == "Lovers' Discourse, won together"
        assert entry.reading["summary"].startswith(f"You and {partner} won together")
        assert entry.reading["summary"].endswith(" Your shared score: 91.")
