"""Watching games (issue 41, item 4).  Games are public unless made private; /games/watch/
lists the public games in play; a spectator (the outsider Olive, or a visitor not logged
in) opens a public game at its own address and sees the view of no seat, follows it by
polling, and keeps its history once it is over; a private game is nothing to them.  The
cast: Alice and Bob play, Olive looks on.  That a spectator is sent no hidden card, over
every game, is tests/games/test_spectator_leaks.py."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import ChatMessage, Game, Note, Seat
from games.page_regions import poll_stamp

from .conftest import move_forms, play_random_moves, reload, two_player_mode
from .wizards_helpers import make_table

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
SPECTATOR_GETS = ("game", "version", "history")
PLAYER_ONLY_GETS = ("record", "review")
POSTS = ("move", "accept", "decline", "cancel", "rematch", "resign", "preferences", "chat", "notes",
         "accept_challenge", "start_now", "hint")


def a_duel(alice, bob, **kwargs) -> Game:
    game = services.start_game(alice, two_player_mode(), {}, opponent=bob, seed=5, **kwargs)
    services.accept_invitation(game.pk, bob)
    return reload(game)


def move_of(game, seat: int = None) -> tuple[int, dict]:
    seat = game.to_act[0] if seat is None else seat
    return seat, game.rules.legal_moves(game.load_state(), seat)[0]


# --- public unless made private -----------------------------------------------------------------


def test_a_game_is_public_unless_its_maker_makes_it_private(alice, bob, alice_client):
    assert services.start_game(alice, "know_thyself", {}).public
    assert not services.start_game(alice, "know_thyself", {}, public=False).public
    new = reverse("games:new")
    assert "Private game" in alice_client.get(new).content.decode()
    alice_client.post(new, {"mode": "know_thyself", "opponent": "solo"})
    assert Game.objects.order_by("-pk").first().public
    alice_client.post(new, {"mode": "know_thyself", "opponent": "solo", "private": "on"})
    assert not Game.objects.order_by("-pk").first().public
    alice_client.post(new, {"mode": "tarot_hallow", "opponent": "user", "username": "bob", "seats": 3,
                            "private": "on"})
    table = Game.objects.order_by("-pk").first()
    assert table.mode == "tarot_hallow" and not table.public


def test_a_rematch_is_as_private_as_the_game_it_follows(alice, bob):
    game = a_duel(alice, bob, public=False)
    services.resign(game.pk, alice)
    assert not services.rematch(game.pk, bob).public


# --- the page of games to watch ------------------------------------------------------------------


def test_the_watch_page_lists_the_public_games_in_play_naming_their_players(alice, bob, outsider_client):
    playing = a_duel(alice, bob)
    solo = services.start_game(alice, "know_thyself", {}, seed=3)
    private = a_duel(alice, bob, public=False)
    finished = a_duel(alice, bob)
    services.resign(finished.pk, bob)
    waiting = services.start_game(alice, two_player_mode(), {}, opponent=bob)
    for client in (Client(), outsider_client):
        response = client.get(reverse("games:watch"))
        assert response.status_code == 200
        html = response.content.decode()
        for shown in (playing, solo):
            assert f'href="/games/{shown.pk}/"' in html
        for hidden in (private, finished, waiting):
            assert f'href="/games/{hidden.pk}/"' not in html
        assert "Alice and Bob" in html and "Alice, alone" in html
        assert "seat " not in html.lower()
    # Whoever acts now is named, and the latest moved comes first.
    seat, move = move_of(playing)
    services.submit_move(playing.pk, playing.seats.get(index=seat), move, playing.version)
    html = Client().get(reverse("games:watch")).content.decode()
    assert html.index(f"/games/{playing.pk}/") < html.index(f"/games/{solo.pk}/")
    assert "move 1" in html and " to play" in html


def many_games(alice, bob, count: int) -> None:
    """``count`` public games in play (rows made directly: the list reads no state)."""
    now = timezone.now()
    games = Game.objects.bulk_create(
        Game(mode="warring_planets", options={}, seed=n, players=2, status=Game.Status.ACTIVE, state="",
             to_act=[n % 2], version=n, created_by=alice, started_at=now) for n in range(count))
    Seat.objects.bulk_create(
        seat for game in games for seat in (Seat(game=game, index=0, user=alice), Seat(game=game, index=1, user=bob)))


@pytest.mark.parametrize("logged_in", [False, True])
def test_the_watch_page_asks_as_many_queries_for_200_games_as_for_10(alice, bob, outsider, logged_in):
    client = Client()
    if logged_in:
        client.force_login(outsider)
    counts = {}
    for total in (10, 200):
        Game.objects.all().delete()
        many_games(alice, bob, total)
        client.get(reverse("games:watch"))  # the session and the URL cache warm
        for page in ("1", "2"):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(reverse("games:watch"), {"page": page})
            assert response.status_code == 200
            counts[total, page] = len(queries)
    assert counts[10, "1"] == counts[200, "1"] == counts[200, "2"] <= 6, counts
    html = client.get(reverse("games:watch"), {"page": 3}).content.decode()
    assert "Page 3 of 10" in html and 'rel="prev"' in html and 'rel="next"' in html
    assert html.count('class="game-row"') == 20


# --- a spectator's page ---------------------------------------------------------------------------


def test_a_spectator_sees_the_table_without_a_hand_a_move_a_chat_or_notes(alice, bob, outsider_client):
    game = a_duel(alice, bob)
    ChatMessage.objects.create(game=game, seat=0, user=alice, text="Between us two")
    for client in (Client(), outsider_client):
        response = client.get(reverse("games:game", args=[game.pk]))
        assert response.status_code == 200
        html = response.content.decode()
        assert "You are watching this game" in html
        assert move_forms(html) == [] and "Your hand" not in html and 'id="hand-cards"' not in html
        assert "Between us two" not in html and 'name="text"' not in html  # no chat, no notes
        assert "Give up" not in html and "(you)" not in html
        assert "Alice" in html and "Bob" in html
    # Looking changes nothing: no seat was made or marked seen.
    assert Seat.objects.filter(game=game).count() == 2


def test_a_spectators_page_follows_the_game_by_polling(alice, bob, outsider_client):
    game = a_duel(alice, bob)
    poll = reverse("games:version", args=[game.pk])
    for client in (Client(), outsider_client):
        stamp = poll_stamp(reload(game))
        assert client.get(poll, {"v": stamp}, **HX).status_code == 204
    page = Client().get(reverse("games:game", args=[game.pk])).content.decode()
    seat, move = move_of(game)
    services.submit_move(game.pk, game.seats.get(index=seat), move, game.version)
    for client in (Client(), outsider_client):
        response = client.get(poll, {"v": stamp}, **HX)
        assert response.status_code == 200 and response["HX-Trigger"] == "game-changed"
    # The page asks for itself, sending the digests it holds: the regions that changed come.
    held = dict(re.findall(r'name="(seen_\w+|picked|log)" value="([^"]*)"', page))
    answer = Client().get(reverse("games:game", args=[game.pk]), held, **HX).content.decode()
    assert 'id="seen-log"' in answer and "log-" in answer
    assert move_forms(answer) == []


def test_a_finished_public_game_keeps_its_history_for_spectators_but_not_its_record(alice, outsider_client):
    game = play_random_moves(services.start_game(alice, "know_thyself", {}, seed=7), 500, seed=7)
    assert game.status == Game.Status.FINISHED
    for client in (Client(), outsider_client):
        html = client.get(reverse("games:game", args=[game.pk])).content.decode()
        assert "Step through the game" in html and "record.json" not in html
        assert "review" not in html.lower() and "Rematch" not in html
        assert f"Alice {'won' if game.outcome['winners'] else 'lost'}" in html
        history = client.get(reverse("games:history", args=[game.pk]), {"step": 1})
        assert history.status_code == 200 and "record.json" not in history.content.decode()
    assert outsider_client.get(reverse("games:record", args=[game.pk])).status_code == 404
    assert Client().get(reverse("games:record", args=[game.pk])).status_code == 302


def test_a_spectator_changes_nothing_and_gets_404_from_every_other_url_of_the_game(
        alice, bob, outsider_client):
    game = a_duel(alice, bob)
    solo = services.start_game(alice, "know_thyself", {}, seed=2)

    def snapshot():
        return ([(g.pk, g.status, g.version, g.state) for g in Game.objects.order_by("pk")],
                list(Seat.objects.order_by("pk").values_list("user", "status", "seen_at")),
                ChatMessage.objects.count(), Note.objects.count())

    before = snapshot()
    for played in (game, solo):
        seat, move = move_of(played)
        data = {"version": played.version, "move": json.dumps(move), "text": "hi", "confirm_moves": "on"}
        for name in PLAYER_ONLY_GETS:
            assert outsider_client.get(reverse(f"games:{name}", args=[played.pk])).status_code == 404, name
        for name in POSTS:
            for extra in ({}, HX):
                response = outsider_client.post(reverse(f"games:{name}", args=[played.pk]), data, **extra)
                assert response.status_code in (403, 404), (name, response.status_code)
                response = Client().post(reverse(f"games:{name}", args=[played.pk]), data, **extra)
                assert response.status_code == 302, name  # to the login page
        for name in ("clocks:give_day", "push:mute"):
            assert outsider_client.post(reverse(name, args=[played.pk])).status_code in (403, 404), name
    assert snapshot() == before


# --- private games ----------------------------------------------------------------------------------


def test_a_private_game_gives_an_outsider_404_everywhere_and_is_not_listed(alice, bob, outsider_client):
    game = a_duel(alice, bob, public=False)
    finished = a_duel(alice, bob, public=False)
    services.resign(finished.pk, bob)
    missing = Game.objects.order_by("-pk").first().pk + 100
    for played in (game, finished):
        for name in SPECTATOR_GETS + PLAYER_ONLY_GETS:
            url = reverse(f"games:{name}", args=[played.pk])
            assert outsider_client.get(url).status_code == 404, name
            assert outsider_client.get(url, **HX).status_code == 404, name
            # Not logged in: the login page, as for a game that does not exist.
            answer = Client().get(url)
            assert answer.status_code == 302 and reverse("account_login") in answer["Location"]
            nowhere = Client().get(reverse(f"games:{name}", args=[missing]))
            assert nowhere.status_code == 302
    assert f"/games/{game.pk}/" not in Client().get(reverse("games:watch")).content.decode()
    # Its players still play it.
    assert Client().get(reverse("games:game", args=[game.pk])).status_code == 302
    alice_client = Client()
    alice_client.force_login(alice)
    assert alice_client.get(reverse("games:game", args=[game.pk])).status_code == 200


def test_a_public_game_not_yet_begun_is_nothing_to_an_outsider(alice, bob, outsider_client):
    waiting = services.start_game(alice, two_player_mode(), {}, opponent=bob)
    challenge = services.start_game(alice, two_player_mode(), {}, open_challenge=True)
    for game in (waiting, challenge):
        assert outsider_client.get(reverse("games:game", args=[game.pk])).status_code == 404
        assert Client().get(reverse("games:game", args=[game.pk])).status_code == 302
    # The invited player still finds the invitation there, not a spectator's page.
    bob_client = Client()
    bob_client.force_login(bob)
    assert "accept" in bob_client.get(reverse("games:game", args=[waiting.pk])).content.decode().lower()


def test_a_player_who_declined_watches_a_public_game_like_anyone(alice, bob, make_user):
    carol = make_user("carol", display_name="Carol")
    game = services.start_game(alice, "tarot_hallow", {}, seats=3, invitees=[bob, carol], seed=4)
    services.decline_invitation(game.pk, carol)
    services.accept_challenge(game.pk, make_user("dave", display_name="Dave"))
    services.accept_invitation(game.pk, bob)
    game = reload(game)
    assert game.status == Game.Status.ACTIVE
    client = Client()
    client.force_login(carol)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "You are watching this game" in html and move_forms(html) == []


# --- the tarot wizards table ------------------------------------------------------------------------


def test_the_tarot_wizards_table_is_not_watchable(alice, bob, make_user, outsider_client):
    """A wizards table is a game master's story told to the members of the table (its
    characters, their sheets, what the GM narrates): it has no public view, so it is not
    listed and its sessions answer 404 to whoever is not at the table."""
    from games.wizards import services as wizards

    table = make_table(alice, bob, make_user("carol", display_name="Carol"))
    session = wizards.start_session(table, alice, title="The ferry")
    assert outsider_client.get(reverse("wizards:session", args=[session.pk])).status_code == 404
    assert "The ferry" not in Client().get(reverse("games:watch")).content.decode()
    assert "The ferry" not in outsider_client.get(reverse("games:watch")).content.decode()


def test_an_ended_game_tells_a_spectator_its_end_by_the_players_names_never_as_you(alice, bob):
    solo = services.start_game(alice, "know_thyself", {}, seed=9)
    services.abandon_game(solo.pk, "Stopped.")
    together = services.start_game(alice, "lovers_discourse", {}, opponent=bob, seed=3)
    services.accept_invitation(together.pk, bob)
    together = play_random_moves(together, 2000, seed=3)
    assert together.status == Game.Status.FINISHED
    for game in (solo, together):
        html = Client().get(reverse("games:game", args=[game.pk])).content.decode()
        assert "You are watching this game" in html and "You won" not in html and "You lost" not in html
    html = Client().get(reverse("games:game", args=[together.pk])).content.decode()
    assert re.search(r'<strong class="result">Alice and Bob (won|lost) together\.</strong>', html)


# --- the clock, as the players read it ----------------------------------------------------------


def _said_at(moment, zone: str) -> str:
    from zoneinfo import ZoneInfo

    from django.utils.dateformat import format as date_format

    return date_format(moment.astimezone(ZoneInfo(zone)), "l j F, H:i") + f" ({zone} time)"


def test_a_spectator_reads_who_must_move_and_by_when_in_their_own_time_zone(alice, bob, outsider, outsider_client):
    game = a_duel(alice, bob, time_control=3)
    outsider.time_zone = "Asia/Tokyo"
    outsider.save(update_fields=["time_zone"])
    acting = game.seats.get(index=game.to_act[0]).player_name
    waiting = "Bob" if acting == "Alice" else "Alice"
    for client, zone in ((outsider_client, "Asia/Tokyo"), (Client(), "UTC")):  # logged out: UTC
        for url in (reverse("games:game", args=[game.pk]), reverse("games:watch")):
            html = client.get(url).content.decode()
            assert "Clock: 3 days per move." in html, url
            assert f"Time for {acting} to move runs out" in html and f"Time for {waiting} to move" not in html
            assert _said_at(game.deadline, zone) in html, url
            assert f'<time datetime="{game.deadline.isoformat()}">' in html
            # Nothing to do about it, and nothing hidden with it.
            assert "Give the other player a day" not in html and "End my vacation" not in html
            assert move_forms(html) == [] and "Your hand" not in html
    # The region a spectator's poll brings back says it too.
    regions = outsider_client.get(reverse("games:game", args=[game.pk]), **HX).content.decode()
    assert f"Time for {acting} to move runs out" in regions
    # The players read the same deadline (the one asked, as "this move"), each in their own zone.
    for player in (alice, bob):
        client = Client()
        client.force_login(player)
        html = client.get(reverse("games:game", args=[game.pk])).content.decode()
        assert "Time for this move runs out" in html and _said_at(game.deadline, player.time_zone) in html


def test_a_spectator_reads_that_the_clock_waits_for_a_player_on_vacation(alice, bob, outsider_client):
    from games.clocks import deadlines

    game = a_duel(alice, bob, time_control=7)
    away = game.seats.get(index=game.to_act[0]).user
    deadlines.start_vacation(away)
    for url in (reverse("games:game", args=[game.pk]), reverse("games:watch")):
        html = outsider_client.get(url).content.decode()
        assert "Clock paused (vacation)</strong>: " + f"{away.display_name} is on vacation" in html, url
        assert "runs out" not in html and "End my vacation" not in html and "you are on vacation" not in html


def test_a_game_without_a_clock_says_nothing_of_one_to_a_spectator(alice, bob, outsider_client):
    game = a_duel(alice, bob)
    for url in (reverse("games:game", args=[game.pk]), reverse("games:watch")):
        assert "Clock:" not in outsider_client.get(url).content.decode()
