""""Confirm before sending" (issue 6, item 4) from the web, without JavaScript (plain
forms and redirects) and with it (the htmx requests the page's forms make): a move that
draws cards is asked about once, on by default in games with a clock."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from games import services

from .conftest import reload
from .integration_helpers import (
    HX, drawing_move, form_for, game_url, oob_regions, post_move, quiet_move, seen_hashes, timed_duel,
)

pytestmark = pytest.mark.django_db

ASKED = "cannot be taken back"


@pytest.fixture
def timed_solo(alice):
    return services.start_game(alice, "know_thyself", seed=11, time_control=3)


@pytest.fixture
def timed_solo_with_a_choice(alice, timed_solo):
    """A later point of the same game where some moves draw and some do not (at the start
    every Know Thyself move draws a card)."""
    choose = random.Random(1)
    game = timed_solo
    while True:
        try:
            quiet_move(game)
            drawing_move(game)
            return game
        except AssertionError:
            services.submit_move(game.pk, alice, choose.choice(game.rules.legal_moves(game.load_state(), 0)),
                                 game.version)
            game = reload(game)


def asks_first(page: str) -> bool:
    return bool(re.search(r'name="confirm_moves" checked', page))


def test_without_javascript_a_drawing_move_is_asked_about_once_then_sent(alice_client, timed_solo):
    move = drawing_move(timed_solo)
    asked = post_move(alice_client, timed_solo, move)
    assert asked.status_code == 200 and reload(timed_solo).version == 0
    page = asked.content.decode()
    assert ASKED in page and escape(timed_solo.rules.describe_move(timed_solo.load_state(), 0, move)) in page
    confirm = re.search(r'<div class="confirm".*?</div>', page, re.S).group(0)
    assert 'name="confirmed" value="1"' in confirm and 'name="version" value="0"' in confirm
    assert f'name="move" value="{escape(json.dumps(move))}"' in confirm  # the same move, posted again
    assert f'href="{game_url("game", timed_solo)}"' in confirm  # "No, choose again" is a plain link
    sent = post_move(alice_client, timed_solo, move, version=0, confirmed="1")
    assert sent.status_code == 302 and sent["Location"] == game_url("game", timed_solo)
    assert reload(timed_solo).moves.get().move == move


def test_with_javascript_the_question_and_the_answer_are_htmx_swaps_of_the_hand(alice_client, timed_solo):
    move = drawing_move(timed_solo)
    seen = seen_hashes(alice_client, timed_solo)
    asked = post_move(alice_client, timed_solo, move, **seen, **HX)
    assert asked.status_code == 200 and reload(timed_solo).version == 0
    text = asked.content.decode()
    assert ASKED in text and "hand" in oob_regions(text) and "board" not in oob_regions(text)
    confirm = re.search(r'<div class="confirm".*?</div>', text, re.S).group(0)
    assert f'hx-post="{game_url("move", timed_solo)}"' in confirm
    # The page keeps the hashes the answer sent; "Yes, send it" posts them along.
    seen.update({f"seen_{k}": v for k, v in re.findall(r'name="seen_(\w+)" value="([\w.]+)"', text)})
    sent = post_move(alice_client, timed_solo, move, version=0, confirmed="1", **seen, **HX)
    assert sent.status_code == 200 and reload(timed_solo).version == 1
    text = sent.content.decode()
    # The planes send only what the move changed in them (a column, the deck's count).
    assert {"hand", "log"} <= oob_regions(text) and ASKED not in text
    assert re.search(r'id="(plane-\d+-column-\d+|pile-\d+)"[^>]*hx-swap-oob="true"', text)


def test_no_choose_again_takes_the_question_away_and_plays_nothing(alice_client, timed_solo):
    move = drawing_move(timed_solo)
    seen = seen_hashes(alice_client, timed_solo)
    asked = post_move(alice_client, timed_solo, move, **seen, **HX).content.decode()
    seen.update({f"seen_{k}": v for k, v in re.findall(r'name="seen_(\w+)" value="([\w.]+)"', asked)})
    again = alice_client.get(game_url("game", timed_solo), seen, **HX).content.decode()
    assert oob_regions(again) == {"hand"} and ASKED not in again
    assert reload(timed_solo).version == 0


def test_a_move_that_draws_nothing_goes_at_once_even_when_asking_is_on(alice_client, timed_solo_with_a_choice):
    game = timed_solo_with_a_choice
    assert ASKED in post_move(alice_client, game, drawing_move(game)).content.decode()
    assert post_move(alice_client, game, quiet_move(game)).status_code == 302
    assert reload(game).version == game.version + 1


def test_asking_is_on_by_default_with_a_clock_and_off_without(alice, alice_client, timed_solo, solo_game):
    assert asks_first(alice_client.get(game_url("game", timed_solo)).content.decode())
    assert not asks_first(alice_client.get(game_url("game", solo_game)).content.decode())
    assert post_move(alice_client, solo_game, drawing_move(solo_game)).status_code == 302


def test_the_preference_switches_off_by_a_plain_form_and_on_again_with_htmx(alice_client, timed_solo):
    preferences = reverse("games:preferences", args=[timed_solo.pk])
    form = form_for(alice_client.get(game_url("game", timed_solo)).content.decode(), preferences)
    assert 'method="post"' in form and f'hx-post="{preferences}"' in form

    off = alice_client.post(preferences, {}, follow=True)
    assert off.redirect_chain == [(game_url("game", timed_solo), 302)]
    assert "moves are sent at once" in off.content.decode() and not asks_first(off.content.decode())
    assert post_move(alice_client, timed_solo, drawing_move(timed_solo)).status_code == 302
    game = reload(timed_solo)

    seen = seen_hashes(alice_client, game)
    on = alice_client.post(preferences, {"confirm_moves": "on", **seen}, **HX)
    text = on.content.decode()
    assert on.status_code == 200 and {"actions", "status"} <= oob_regions(text)
    assert asks_first(text) and "moves that draw cards will ask once more" in text
    assert ASKED in post_move(alice_client, game, drawing_move(game)).content.decode()
    assert reload(game).version == game.version


def test_the_preference_is_each_players_own(alice, bob, alice_client, bob_client):
    game = timed_duel(alice, bob)
    alice_client.post(reverse("games:preferences", args=[game.pk]), {})
    assert not asks_first(alice_client.get(game_url("game", game)).content.decode())
    assert asks_first(bob_client.get(game_url("game", game)).content.decode())


def test_a_confirmation_sent_after_the_board_moved_on_gets_409_and_plays_nothing(alice_client,
                                                                                 timed_solo_with_a_choice):
    game = timed_solo_with_a_choice
    move = drawing_move(game)
    assert ASKED in post_move(alice_client, game, move).content.decode()
    # Meanwhile, in another tab, another move was made.
    assert post_move(alice_client, game, quiet_move(game)).status_code == 302
    moved_on = reload(game)
    for extra in ({}, HX):
        late = post_move(alice_client, game, move, version=game.version, confirmed="1", **extra)
        assert late.status_code == 409 and "moved on" in late.content.decode()
    assert reload(game).state == moved_on.state and reload(game).version == game.version + 1
