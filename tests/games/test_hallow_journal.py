"""A finished Tarot Hallow table leaves each person at it a journal entry (issue 16 item 5):
their own Reading (Shadows, Magick, Monster, with orientation), the round-by-round story of
which Majors went to whom, by name, and a seal that defaults to the three slots."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games import services
from games.engine.cards import label
from journal import services as journal
from journal.models import Entry

from .conftest import reload
from .hallow_helpers import cast, full_table

pytestmark = pytest.mark.django_db


def play_to_the_end(game, seed: int = 1):
    choose = random.Random(seed)
    for _ in range(3000):
        game = reload(game)
        if game.status != game.Status.ACTIVE:
            return game
        index = choose.choice(game.to_act)
        moves = game.rules.legal_moves(game.load_state(), index)
        services.submit_move(game.pk, game.seats.get(index=index), choose.choice(moves), game.version)
    raise AssertionError("the game did not end")


def test_each_player_of_a_table_gets_their_own_reading_and_story_and_a_three_slot_seal(make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = play_to_the_end(full_table(users, seed=21))
    assert game.status == game.Status.FINISHED
    reading = game.rules.reading(game.load_state())
    for index, user in enumerate(users):
        entry = Entry.objects.get(owner=user, source_game=game)
        section = entry.reading["sections"][0]
        tops = [p for p in reading["seats"][index]["positions"] if p["card"]]
        assert [p["card"] for p in section["positions"]] == [p["card"] for p in tops]
        assert [p["label"] for p in section["positions"]] == [p["name"] for p in tops]
        for shown, top in zip(section["positions"], tops):
            assert shown["reversed"] == top["reversed"]
            assert ("reversed" if top["reversed"] else "upright") in shown["note"]
        story = entry.reading["story"]
        assert len(story) == len(reading["story"]) and story[0].startswith("Round 1:")
        others = [u.display_name for u in users if u.pk != user.pk]
        said = " ".join(story)
        assert "Seat " not in said and any(name in said for name in others + ["you", "You"])
        cards, _words = journal.default_seal_input(entry)
        if len(tops) >= 2:
            assert cards == [p["card"] for p in tops]
        client = Client()
        client.force_login(user)
        page = client.get(f"/journal/{entry.pk}/").content.decode()
        assert "Shadows" in page or "Magick" in page or "Monster" in page or not tops


def test_a_losers_entry_says_which_majors_they_took_never_that_they_won_them(make_user, alice, bob):
    users = cast(make_user, alice, bob, 3)
    game = play_to_the_end(full_table(users, seed=21))
    reading = game.rules.reading(game.load_state())
    losers = [s for s in reading["seats"] if s["seat"] not in game.outcome["winners"] and len(s["won"]) > 1]
    assert losers, "a seat that took Majors and lost the game"
    for seat in losers:
        entry = Entry.objects.get(owner=users[seat["seat"]], source_game=game)
        assert entry.title == "Tarot Hallow, lost"
        about = entry.reading["sections"][0]["about"]
        names = [label(c) for c in seat["won"]]
        assert "You won" not in about
        assert f"You took {', '.join(names[:-1])} and {names[-1]}." in about
