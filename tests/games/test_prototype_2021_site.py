"""The 2021 prototype edition on the site: chosen as an edition on the new-game page,
drawn on the same boards (bridges between their two spaces, holes in the plane), played by
page and by mail, and kept in the journal, a Freethought reading marked tainted.  The cast:
alice plays, bob partners or opposes her, an outsider sees nothing."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils.html import escape

from games import registry, services
from games.engine import get_rules
from games.engine.cards import DECK
from games.mail.inbound import handle_message
from games.mail.outgoing import reply_address, turn_mail
from games.models import Game
from journal.models import Entry

from .conftest import play_random_moves, reload
from .mail_helpers import reply

pytestmark = pytest.mark.django_db

EDITIONS = {"know_thyself": "know_thyself_2021", "lovers_discourse": "lovers_discourse_2021",
            "warring_planets": "warring_planets_2021"}


def test_the_new_game_page_offers_the_2021_edition_under_each_of_the_three_games(alice_client):
    response = alice_client.get(reverse("games:new"))
    page = response.content.decode()
    for final, edition in EDITIONS.items():
        assert f'name="edition-{final}" value="final" checked' in page
        assert f'name="edition-{final}" value="{edition}"' in page
        assert escape(registry.entry(edition).differs) in page
        # An edition is not a game of its own in the list of games.
        assert f'name="mode" value="{edition}"' not in page
    assert 'name="variants-know_thyself_2021" value="freethought"' in page


def test_choosing_the_2021_edition_starts_its_engine_with_its_variations(alice_client, bob):
    new = reverse("games:new")
    response = alice_client.post(new, {"mode": "know_thyself", "edition-know_thyself": "know_thyself_2021",
                                       "variants-know_thyself_2021": ["freethought", "easy"],
                                       "variants-know_thyself": ["meditative"], "opponent": "solo"})
    game = Game.objects.get()
    assert response.status_code == 302 and game.mode == "know_thyself_2021"
    assert game.options["variant"] == ["easy", "freethought"]
    final = alice_client.post(new, {"mode": "know_thyself", "edition-know_thyself": "final",
                                    "variants-know_thyself": ["fated"], "opponent": "solo"})
    assert final.status_code == 302 and Game.objects.latest("pk").mode == "know_thyself"
    duel = alice_client.post(new, {"mode": "warring_planets", "edition-warring_planets": "warring_planets_2021",
                                   "variants-warring_planets_2021": ["easy"], "opponent": "user",
                                   "username": "bob"})
    assert duel.status_code == 302 and Game.objects.latest("pk").mode == "warring_planets_2021"
    wrong = alice_client.post(new, {"mode": "know_thyself", "edition-know_thyself": "know_thyself_2021",
                                    "variants-know_thyself_2021": ["numerology"], "opponent": "solo"})
    assert wrong.status_code == 400 and "has no numerology variation" in wrong.content.decode()
    # The form shown again keeps the edition chosen.
    assert 'value="know_thyself_2021" checked' in wrong.content.decode()
    for edition in ("lovers_discourse", "warring_planets_2021", "1999"):  # another game, or no edition of it
        made_up = alice_client.post(new, {"mode": "know_thyself", "edition-know_thyself": edition,
                                          "opponent": "user", "username": "bob"})
        assert made_up.status_code == 400 and Game.objects.count() == 3


def stacked(*cards):
    return list(cards) + [c for c in DECK if c not in cards]


def test_the_tree_board_draws_a_bridge_between_its_two_spaces_and_the_holes_of_the_plane():
    rules = get_rules("know_thyself_2021")
    state = rules.new_game(0, 1, {"variant": "standard"}, deck=stacked("M1", "M9", "6w", "Ns", "9s", "9w", "7w", "9p", "5w", "10c"))
    for move in ({"type": "play", "card": "M1", "to": "foundation"}, {"type": "play", "card": "M9", "to": "spirit"},
                 {"type": "play", "card": "6w", "to": "bridge:spirit:foundation"}):
        state = rules.apply(state, 0, move)
    plain = registry.present(rules, state, 0)
    for card in ("Ns", "9s", "9w", "7w", "9p", "5w", "10c"):
        (move,) = [m for m in rules.legal_moves(state, 0) if m.get("card") == card and "column" in m]
        state = rules.apply(state, 0, move)
    show = registry.present(rules, state, 0)
    assert [row["title"] for row in show.rows] == ["The bridge between Spirit and the Foundation (6 of 10)"]
    assert [c["code"] for c in show.rows[0]["cards"]] == ["6w"]
    bridge_line = ("2.5", "4.5", "2.5", "6.5")
    assert show.bridges == plain.bridges == [bridge_line]  # drawn over the branch between them
    before = registry.present(rules, rules.new_game(0, 1, {"variant": "standard"}), 0)
    assert before.bridges == []
    cells = {c["id"]: c for c in show.cells}
    assert cells["foundation"]["status"] == cells["spirit"]["status"] == "bridged: 6 of 10"
    left = show.planes[0]["columns"][0]["cards"]
    assert left[0].get("hole") and left[1]["code"] == "7w"


def test_a_2021_game_plays_by_page_and_by_mail(alice, alice_client, outsider_client, smtp_server):
    game = services.start_game(alice, "know_thyself_2021", {"variant": "standard"}, seed=5, public=False)
    page = alice_client.get(game.get_absolute_url())
    assert page.status_code == 200 and "Know Thyself (2021 prototype)" in page.content.decode()
    assert outsider_client.get(game.get_absolute_url()).status_code in (403, 404)
    move = game.rules.legal_moves(game.load_state(), 0)[0]
    answer = alice_client.post(reverse("games:move", args=[game.pk]),
                               {"move": json.dumps(move), "version": game.version, "confirmed": "1"})
    assert answer.status_code == 302 and reload(game).version == 1
    seat = reload(game).seats.select_related("user", "game").get(index=0)
    mail = turn_mail(seat)
    assert "Know Thyself (2021 prototype)" in mail.body and "1. " in mail.body
    outcome = handle_message(reply(reply_address(seat, 1), "1", sender="alice@example.com").as_bytes())
    assert outcome.status == "played", outcome
    assert reload(game).version == 2


def finish(game):
    for _ in range(100):
        if reload(game).status != Game.Status.ACTIVE:
            break
        game = play_random_moves(game, 50, seed=1)
    game = reload(game)
    assert game.status == Game.Status.FINISHED
    return game


def test_a_freethought_reading_is_kept_in_the_journal_marked_tainted(alice, alice_client, outsider_client):
    game = finish(services.start_game(alice, "know_thyself_2021", {"variant": "freethought"}, seed=2))
    assert "tainted (Freethought)" in alice_client.get(game.get_absolute_url()).content.decode()
    entry = Entry.objects.get(owner=alice, source_game=game)
    assert entry.mode == "know_thyself_2021"
    assert entry.reading["sections"][0]["id"] == "tainted"
    assert entry.reading["story"][0].startswith("This reading is tainted")
    detail = alice_client.get(reverse("journal:detail", args=[entry.pk])).content.decode()
    assert "A tainted reading" in detail and "tainted" in detail
    assert outsider_client.get(reverse("journal:detail", args=[entry.pk])).status_code == 404
    plain = finish(services.start_game(alice, "know_thyself_2021", {"variant": "standard"}, seed=2))
    assert "tainted" not in json.dumps(Entry.objects.get(owner=alice, source_game=plain).reading)


@pytest.mark.parametrize("mode", ["lovers_discourse_2021", "warring_planets_2021"])
def test_two_player_2021_games_end_into_both_journals(alice, bob, mode):
    game = services.start_game(alice, mode, {"variant": "standard"}, opponent=bob, seed=4)
    services.accept_invitation(game.pk, bob)
    game = finish(game)
    for user in (alice, bob):
        entry = Entry.objects.get(owner=user, source_game=game)
        assert entry.mode == mode and entry.reading["layout"] == "starfield"
