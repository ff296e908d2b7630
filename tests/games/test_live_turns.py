"""Told at once, wherever you are (issue 42): every page asks for the count of games
waiting for you, a wizards table's request to act counts among them, a move leads on to
the next game waiting, and a game page watches a computer player closely while it thinks.
(In Chromium: test_live_turns_browser.py.)"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import services
from games.computer import computer_player
from games.models import Game
from games.turns import turn_count, waiting
from games.wizards import services as wizards

from .mail_helpers import solo_game, two_player_game
from .wizards_helpers import make_table

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
WAITING = reverse("games:waiting")


@pytest.fixture
def carol(make_user):
    return make_user("carol", display_name="Carol")


def badge(page: str) -> str:
    return re.search(r'<span class="turn-count" id="turn-count"[^>]*>.*?</span>(\d+)</span>', page).group(1)


def ask(session, gm, player):
    session.refresh_from_db()
    return wizards.act(session.pk, gm, {"type": "ask", "target": wizards.key_of(player)}, session.version)


def play(game, user):
    """``user``'s first legal move in ``game`` (never a forfeit), as the page sends it."""
    game = Game.objects.get(pk=game.pk)
    seat = game.seats.get(user=user).index
    move = next(m for m in game.rules.legal_moves(game.load_state(), seat) if m["type"] != "forfeit")
    return {"version": game.version, "confirmed": "1", "move": json.dumps(move)}


def test_any_page_asks_for_the_count_and_an_outsider_or_a_stranger_is_told_nothing(
        alice, bob, alice_client, outsider_client, client):
    two_player_game(alice, bob)
    solo_game(alice)
    answer = alice_client.get(WAITING, **HX)
    assert answer.status_code == 204 and answer.content == b""
    assert json.loads(answer["HX-Trigger"]) == {"turn-count": {"value": 2}}
    assert "no-cache" in answer["Cache-Control"]
    assert json.loads(outsider_client.get(WAITING, **HX)["HX-Trigger"]) == {"turn-count": {"value": 0}}
    # Logged out meanwhile (in another tab): htmx's "stop polling".
    assert client.get(WAITING, **HX).status_code == 286
    # The journal's badge is drawn with the count and asks for it again.
    journal = alice_client.get(reverse("journal:list")).content.decode()
    assert badge(journal) == "2"
    assert f'hx-get="{WAITING}" hx-trigger="every 5s, visibilitychange from:document"' in journal


def test_a_wizards_request_to_act_counts_until_the_player_answers_it(alice, bob, carol, bob_client):
    table = make_table(alice, bob, carol)
    session = wizards.start_session(table, alice, title="The ferry")
    assert turn_count(bob) == 0
    session = ask(session, alice, bob)
    assert turn_count(bob) == 1 and turn_count(carol) == 0 and turn_count(alice) == 0
    assert json.loads(bob_client.get(WAITING, **HX)["HX-Trigger"]) == {"turn-count": {"value": 1}}
    assert badge(bob_client.get(reverse("journal:list")).content.decode()) == "1"
    assert waiting(bob) == [session.get_absolute_url()]
    # Whatever Bob does answers the call: the session asks him no more.
    wizards.act(session.pk, bob, {"type": "post", "narration": "I row."}, session.version)
    assert turn_count(bob) == 0
    # A session that ended asks nobody.
    session = ask(session, alice, bob)
    assert turn_count(bob) == 1
    wizards.act(session.pk, alice, {"type": "end_session"}, session.version)
    assert turn_count(bob) == 0


def test_after_a_move_next_game_waiting_leads_to_the_game_waiting_longest(alice, bob, carol, alice_client):
    first = two_player_game(alice, bob)  # alice is asked first in each
    second = two_player_game(alice, carol, seed=12)
    third = two_player_game(alice, bob, seed=13)
    Game.objects.filter(pk=second.pk).update(updated_at=first.updated_at.replace(year=2020))  # waiting longest
    answer = alice_client.post(reverse("games:move", args=[third.pk]), play(third, alice), **HX).content.decode()
    assert re.search(rf'<a href="/games/{second.pk}/" data-testid="next-game">Next game waiting</a>', answer)
    # The count the answer brings is of the games left waiting: the two others.
    # (the plain form post's page says the same)
    after = alice_client.get(reverse("games:game", args=[third.pk])).content.decode()
    assert f'href="/games/{second.pk}/" data-testid="next-game"' in after and badge(after) == "2"
    # The game still asking shows no link to another: it is the one to play.
    assert "next-game" not in alice_client.get(reverse("games:game", args=[first.pk])).content.decode()


def test_the_move_answer_brings_the_count_of_the_games_left_waiting(alice, bob, alice_client):
    duel = two_player_game(alice, bob)
    solo_game(alice)
    answer = alice_client.post(reverse("games:move", args=[duel.pk]), play(duel, alice), **HX)
    assert json.loads(answer["HX-Trigger"]) == {"turn-count": {"value": 1}}


def test_a_wizards_session_waiting_is_the_next_game_when_no_game_waits(alice, bob, carol, bob_client):
    duel = two_player_game(bob, alice)  # bob is asked first
    table = make_table(alice, bob, carol)
    session = ask(wizards.start_session(table, alice, title="The ferry"), alice, bob)
    answer = bob_client.post(reverse("games:move", args=[duel.pk]), play(duel, bob), **HX).content.decode()
    assert f'<a href="{session.get_absolute_url()}" data-testid="next-game">Next game waiting</a>' in answer


def test_nothing_waiting_elsewhere_means_no_link(alice, bob, alice_client):
    duel = two_player_game(alice, bob)
    answer = alice_client.post(reverse("games:move", args=[duel.pk]), play(duel, alice), **HX).content.decode()
    assert "Next game waiting" not in answer


def test_while_the_computer_thinks_the_page_asks_at_once_then_fast_for_a_bounded_while(alice, alice_client):
    game = services.start_game(alice, "warring_planets", opponent=computer_player("greedy"), seed=9)
    page = alice_client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'hx-trigger="every 20s"' in page  # alice's turn: slow, for chat and clocks
    answer = alice_client.post(reverse("games:move", args=[game.pk]), play(game, alice), **HX).content.decode()
    poll = re.search(r'<div id="poll"[^>]*><div [^>]*></div></div>', answer).group(0)
    assert 'hx-trigger="load, every 250ms" data-fast-for="15" hx-swap="none"></div>' in poll  # with the digests
    assert "is thinking" in answer
    # The computer moved: the fast poll, which sent the page's digests, gets the regions it
    # changed at once; a slow poll (no digests) gets the event that makes the page fetch them.
    game = Game.objects.get(pk=game.pk)
    services.submit_move(game.pk, game.seats.get(index=1), play_as_computer(game), game.version)
    held = dict(re.findall(r'name="(seen_\w+)" value="([\w.]+)"', answer))
    version = reverse("games:version", args=[game.pk])
    fast = alice_client.get(version, {"v": "stale", **held}, **HX)
    assert fast.status_code == 200 and 'id="status"' in fast.content.decode() and "Your turn" in fast.content.decode()
    assert "turn-count" in fast["HX-Trigger"]
    slow = alice_client.get(version, {"v": "stale"}, **HX)
    assert slow.content == b"" and slow["HX-Trigger"] == "game-changed"


def play_as_computer(game):
    return next(m for m in game.rules.legal_moves(game.load_state(), 1) if m["type"] != "forfeit")
