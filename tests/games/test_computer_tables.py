"""Tables of computer players (issue 41, item 5): on the new-game page any number of seats
go to computer players, each at its level and each with a name of its own; a game may be
computer players alone, which its maker watches without a seat (the view of no seat); bad
combinations are refused with words and nothing made; an outsider gets nothing."""

from __future__ import annotations

import html
import json
import time

import pytest
from django.urls import reverse

from games import services
from games.computer import computer_player, computer_players
from games.computer.tasks import play_computer_move
from games.models import Game, Move
from games.ratings.models import RatedGame
from sefirot_site.outbox.models import PendingTask

from games.engine import RULES

from .conftest import reload
from .test_leaks import forbidden_cards, leaks, seat_pages


def new_game(client, mode, **fields):
    return client.post(reverse("games:new"), {"mode": mode, **fields})


# --- the form -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_six_seat_tarot_hallow_seats_one_person_and_five_computer_players_told_apart(alice, alice_client):
    response = new_game(alice_client, "tarot_hallow", seats="6", opponent="computer", computer_level="ismcts",
                        computers_greedy="3", computers_ismcts="1")
    assert response.status_code == 302, response.content.decode()[:3000]

    game = Game.objects.get(created_by=alice)
    assert game.status == Game.Status.ACTIVE and game.players == 6
    seats = list(game.seats.select_related("user").order_by("index"))
    assert seats[0].user == alice
    names = [s.player_name for s in seats[1:]]
    # The one chosen under "Play with" first, then the others by level, numbered within it.
    assert names == ["Sophia (computer)", "Hermes (computer)", "Hermes II (computer)", "Hermes III (computer)",
                     "Sophia II (computer)"]
    assert [s.user.computer_level for s in seats[1:]] == ["ismcts", "greedy", "greedy", "greedy", "ismcts"]
    page = alice_client.get(game.get_absolute_url()).content.decode()
    for name in names:
        assert name in page
    assert "seat 1" not in page.lower()
    # Every computer seat asked is recorded to be played, after commit, by the worker.
    assert PendingTask.objects.filter(task="games.play_computer_move", args=[game.pk, 0]).exists()


@pytest.mark.django_db
def test_computer_players_join_invited_and_open_seats_at_a_table(alice, alice_client, bob):
    response = new_game(alice_client, "tarot_hallow", seats="5", opponent="user", username="bob",
                        computers_ismcts_deep="2")
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get(created_by=alice)
    seats = list(game.seats.select_related("user").order_by("index"))
    assert [(s.status, s.player_name) for s in seats] == [
        ("joined", str(alice)), ("invited", str(bob)), ("joined", "Thoth (computer)"),
        ("joined", "Thoth II (computer)"), ("open", "an open seat")]
    assert game.status == Game.Status.INVITED


@pytest.mark.django_db
def test_two_computer_players_alone_make_a_lovers_discourse_its_maker_watches(alice, alice_client):
    response = new_game(alice_client, "lovers_discourse", opponent="computer", computer_level="greedy",
                        computers_ismcts="1", watch="on")
    assert response.status_code == 302, response.content.decode()[:3000]

    game = Game.objects.get(created_by=alice)
    assert game.status == Game.Status.ACTIVE
    assert [s.player_name for s in game.seats.select_related("user")] == ["Hermes (computer)", "Sophia (computer)"]
    assert not game.seats.filter(user=alice).exists()
    assert services.watches_without_a_seat(game, alice)


@pytest.mark.django_db
@pytest.mark.parametrize("fields, field, words", [
    # More computer players than the other seats.
    ({"mode": "tarot_hallow", "seats": "3", "opponent": "computer", "computers_greedy": "2"},
     None, "3 seats leave room for 2 more players besides you, not 3 computer players"),
    ({"mode": "warring_planets", "opponent": "solo", "computers_greedy": "2"},
     None, "2 seats leave room for 1 more player besides you, not 2"),
    # Watching needs a computer player in every seat, and no person invited.
    ({"mode": "tarot_hallow", "seats": "4", "opponent": "computer", "computers_greedy": "2", "watch": "on"},
     "watch", "choose a computer player for each of the 4 seats (you chose 3)"),
    ({"mode": "warring_planets", "opponent": "user", "username": "bob", "computers_greedy": "2", "watch": "on"},
     "watch", "A game you only watch has computer players in every seat"),
    ({"mode": "lovers_discourse", "opponent": "open", "computers_greedy": "2", "watch": "on"},
     "watch", "A game you only watch has computer players in every seat"),
    # A game played alone has no seat for a computer player.
    ({"mode": "know_thyself", "opponent": "solo", "computers_greedy": "1"}, None, "is played alone"),
    ({"mode": "know_thyself", "opponent": "solo", "watch": "on"}, "watch", "is played alone"),
    # Counts that are no count.
    ({"mode": "tarot_hallow", "seats": "6", "opponent": "open", "computers_greedy": "7"},
     "computers_greedy", "at most six seats"),
    ({"mode": "tarot_hallow", "seats": "6", "opponent": "open", "computers_greedy": "-1"},
     "computers_greedy", "from none up"),
    ({"mode": "tarot_hallow", "seats": "6", "opponent": "open", "computers_greedy": "two"},
     "computers_greedy", "as a number"),
])
def test_the_new_game_page_refuses_computer_players_that_do_not_fit_and_makes_nothing(
        alice, alice_client, bob, fields, field, words):
    response = alice_client.post(reverse("games:new"), fields)

    assert response.status_code == 400
    page = response.content.decode()
    assert words in html.unescape(page), html.unescape(page)[:4000]
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_one_person_watches_at_most_three_games_of_computer_players_at_once(alice, alice_client):
    for _ in range(services.WATCHED_AT_ONCE):
        assert new_game(alice_client, "warring_planets", opponent="computer", computer_level="greedy",
                        computers_greedy="1", watch="on").status_code == 302
    refused = new_game(alice_client, "warring_planets", opponent="computer", computer_level="greedy",
                       computers_greedy="1", watch="on")
    assert refused.status_code == 400
    assert "already watching 3 games of computer players" in refused.content.decode()
    assert Game.objects.count() == services.WATCHED_AT_ONCE


@pytest.mark.django_db
def test_the_service_refuses_a_watched_game_with_a_person_in_it(alice, bob):
    with pytest.raises(services.CannotStart, match="computer player for each"):
        services.start_game(alice, "warring_planets", seats=2, invitees=[computer_player("greedy"), bob],
                            creator_plays=False)
    with pytest.raises(services.CannotStart, match="computer player for each"):
        services.start_game(alice, "tarot_hallow", seats=3, invitees=computer_players(["greedy", "greedy"]),
                            creator_plays=False)
    assert not Game.objects.exists()


# --- watching without a seat ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_maker_watches_the_view_of_no_seat_and_an_outsider_gets_nothing(
        alice, alice_client, bob_client, outsider_client):
    # Private: a public one anybody may watch as a spectator (tests/games/test_watching.py).
    game = services.start_game(alice, "warring_planets", seats=2, invitees=computer_players(["greedy", "greedy"]),
                               creator_plays=False, seed=3, public=False)
    page = alice_client.get(game.get_absolute_url())
    assert page.status_code == 200
    text = page.content.decode()
    assert "You are watching: computer players play every seat." in text
    assert "Hermes (computer)" in text and "Hermes II (computer)" in text
    assert 'name="move"' not in text  # no move to make
    # The poll follows it too.
    assert alice_client.get(reverse("games:version", args=[game.pk]), {"v": "0"}).status_code in (200, 204)
    for client in (bob_client, outsider_client):
        assert client.get(game.get_absolute_url()).status_code == 404
        assert client.get(reverse("games:version", args=[game.pk])).status_code == 404
        assert client.get(reverse("games:history", args=[game.pk])).status_code == 404
    # Watching is not playing: no move, no chat from the maker.
    move = game.rules.legal_moves(game.load_state(), 0)[0]
    refused = alice_client.post(reverse("games:move", args=[game.pk]),
                                {"version": game.version, "move": json.dumps(move)})
    assert refused.status_code == 404
    assert alice_client.post(reverse("games:chat", args=[game.pk]), {"text": "hi"}).status_code == 404
    assert not Move.objects.filter(game=game).exists()
    # My games lists it, as a game watched.
    listing = alice_client.get(reverse("games:list")).content.decode()
    assert f"#{game.pk}</a>" in listing and "watching Hermes (computer), Hermes II (computer)" in listing


@pytest.mark.django_db
@pytest.mark.parametrize("slug", [slug for slug, rules in sorted(RULES.items()) if rules.max_players >= 2])
def test_a_watcher_is_sent_no_card_the_view_of_no_seat_does_not_show(slug, alice, alice_client):
    rules = RULES[slug]
    game = services.start_game(alice, slug, seats=2, invitees=computer_players(["greedy", "greedy"]),
                               creator_plays=False, seed=5)
    for step in range(3):
        for _ in range(7 * step):
            game = reload(game)
            if game.status != Game.Status.ACTIVE:
                break
            play_computer_move(game.pk, game.version)
        game = reload(game)
        forbidden = forbidden_cards(rules, game.load_state(), None)
        for name, text in seat_pages(alice_client, game).items():
            assert not leaks(text, forbidden), (slug, game.version, name, leaks(text, forbidden))
    # And to the end, its history step by step.
    for _ in range(600):
        game = reload(game)
        if game.status != Game.Status.ACTIVE:
            break
        play_computer_move(game.pk, game.version)
    assert reload(game).is_over
    history = alice_client.get(reverse("games:history", args=[game.pk]), {"step": 3})
    assert history.status_code == 200


@pytest.mark.django_db
def test_computer_players_alone_are_not_rated(alice):
    game = services.start_game(alice, "warring_planets", seats=2, invitees=computer_players(["greedy", "ismcts"]),
                               creator_plays=False, seed=3)
    for _ in range(400):
        game = reload(game)
        if game.status != Game.Status.ACTIVE:
            break
        assert play_computer_move(game.pk, game.version).startswith("played")
    assert reload(game).status == Game.Status.FINISHED
    assert not RatedGame.objects.filter(game=game).exists()


# --- the worker -------------------------------------------------------------------------------


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_two_computer_players_play_a_game_to_its_end_through_the_worker_alone(
        celery_worker_process, smtp_server, alice, alice_client):
    response = new_game(alice_client, "warring_planets", opponent="computer", computer_level="greedy",
                        computers_ismcts="1", watch="on")
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(created_by=alice)
    deadline = time.monotonic() + 240
    while reload(game).status == Game.Status.ACTIVE:
        assert time.monotonic() < deadline, f"stuck at version {reload(game).version}"
        time.sleep(0.5)
    game = reload(game)
    assert game.status == Game.Status.FINISHED, game.end_reason
    moves = list(Move.objects.filter(game=game).order_by("number").values_list("number", flat=True))
    assert moves == list(range(1, game.version + 1))  # every move once, none lost
    assert {0, 1} <= set(Move.objects.filter(game=game).values_list("seat", flat=True))
    # Every computer move recorded was done; none failed.
    assert not PendingTask.objects.filter(task="games.play_computer_move", done_at__isnull=True).exists()
    page = alice_client.get(game.get_absolute_url()).content.decode()
    # How it ended, in words: its winner, or a draw (the computers' game is theirs to play).
    assert ("Winner" in page or "A draw" in page) and "Step through the game" in page
    assert alice_client.get(reverse("games:history", args=[game.pk])).status_code == 200
    finished = alice_client.get(reverse("games:list")).content.decode()
    assert f"#{game.pk}</a>" in finished and "watching" in finished
    assert not smtp_server.messages  # computer players are never mailed, nor is a watcher


@pytest.mark.django_db
def test_a_row_of_computer_seats_is_recorded_move_by_move_so_a_sweep_plays_them_all(alice):
    """No task is ever handed to a broker here (the test's transaction never commits): what
    the sweep finds in the outbox alone must play every computer seat, face-down plays of
    several at once included, each exactly once."""
    from sefirot_site.outbox.tasks import run_pending

    game = services.start_game(alice, "tarot_hallow", seats=6, invitees=computer_players(["greedy"] * 4 + ["ismcts"]),
                               seed=12)
    rounds = 0
    while rounds < 3:
        game = reload(game)
        assert game.status == Game.Status.ACTIVE
        pending = list(PendingTask.objects.filter(task="games.play_computer_move", done_at__isnull=True))
        if 0 in game.to_act and set(game.to_act) == {0}:
            # Only alice is asked: nothing is left for the computers to do.
            assert not pending
            move = game.rules.legal_moves(game.load_state(), 0)[0]
            services.submit_move(game.pk, alice, move, game.version)
            rounds += 1
            continue
        if not pending:
            # Alice asked with computers: she plays; her move records theirs.
            assert 0 in game.to_act, game.to_act
            services.submit_move(game.pk, alice, game.rules.legal_moves(game.load_state(), 0)[0], game.version)
            continue
        assert len(pending) == 1 and pending[0].args == [game.pk, game.version]
        assert run_pending(pending[0].pk).startswith("played")  # as the worker the sweep hands it to
        assert run_pending(pending[0].pk) == "nothing to do"  # a row runs once
        assert play_computer_move(*pending[0].args) == "moved on"  # the task itself, twice, is once
    numbers = list(Move.objects.filter(game=game).order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    assert set(Move.objects.filter(game=game).values_list("seat", flat=True)) == set(range(6))
