"""My games: the games in play in full, the finished ones a page at a time (issue 38, item
27), with "More finished games" fetched by htmx or opened as a page without it, and the
same few queries for a handful of games or many."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.listing import FINISHED_PAGE
from games.models import Game

pytestmark = pytest.mark.django_db

GAME_LINK = re.compile(r'<li class="game-row">\s*<a href="/games/(\d+)/"')


def finished_solo_games(user, count: int) -> list[int]:
    """``count`` Know Thyself games ``user`` started and stopped, oldest first."""
    ids = []
    for n in range(count):
        game = services.start_game(user, "know_thyself", {}, seed=n)
        services.abandon_game(game.pk, "Stopped.")
        ids.append(game.pk)
    return ids


def finished_part(html: str) -> str:
    return html[html.index("<h2>Finished</h2>"):]


def listed(html: str) -> list[int]:
    return [int(pk) for pk in GAME_LINK.findall(html)]


def test_my_games_shows_the_newest_finished_page_and_a_link_to_more(alice, alice_client):
    ids = finished_solo_games(alice, FINISHED_PAGE + 5)

    html = alice_client.get(reverse("games:list")).content.decode()

    assert listed(finished_part(html)) == ids[::-1][:FINISHED_PAGE]
    more = f'href="{reverse("games:list")}?page=2#finished"'
    assert more in html and "More finished games" in html
    assert f'hx-get="{reverse("games:list")}?page=2"' in html


def test_more_finished_games_by_htmx_answers_the_next_rows_alone(alice, alice_client):
    ids = finished_solo_games(alice, 2 * FINISHED_PAGE + 3)
    newest_first = ids[::-1]

    second = alice_client.get(reverse("games:list"), {"page": 2}, HTTP_HX_REQUEST="true").content.decode()
    third = alice_client.get(reverse("games:list"), {"page": 3}, HTTP_HX_REQUEST="true").content.decode()

    # Rows to put in place of the link, and the next link: no page around them.
    assert "<html" not in second and "<h2>" not in second and second.lstrip().startswith('<li class="game-row">')
    assert listed(second) == newest_first[FINISHED_PAGE:2 * FINISHED_PAGE]
    assert "?page=3" in second
    assert listed(third) == newest_first[2 * FINISHED_PAGE:]
    assert "More finished games" not in third


def test_without_javascript_the_link_opens_the_page_with_the_older_games(alice, bob, alice_client):
    ids = finished_solo_games(alice, FINISHED_PAGE + 2)
    waiting = services.start_game(bob, "lovers_discourse", {}, opponent=alice, seed=1)

    html = alice_client.get(reverse("games:list"), {"page": 2}).content.decode()

    assert "<h1>My games</h1>" in html and "Bob invites you" in html, "the games in play stay on top"
    assert listed(finished_part(html)) == ids[::-1][FINISHED_PAGE:]
    assert "More finished games" not in html and "The newest finished games" in html
    assert waiting.pk not in listed(finished_part(html))


@pytest.mark.parametrize("page", ["0", "-1", "x", "99999999999999999999", "", "²", "1.5"])
def test_a_page_number_that_is_no_page_shows_the_first(alice, alice_client, page):
    ids = finished_solo_games(alice, 2)

    answer = alice_client.get(reverse("games:list"), {"page": page})

    assert answer.status_code == 200 and listed(finished_part(answer.content.decode())) == ids[::-1]


def test_a_page_after_the_last_says_there_is_nothing_older(alice, alice_client):
    finished_solo_games(alice, 2)

    html = alice_client.get(reverse("games:list"), {"page": 5}).content.decode()

    assert "No older finished games." in html and listed(finished_part(html)) == []


def test_every_game_waiting_for_the_player_is_listed_however_many_finished(alice, bob, alice_client):
    finished_solo_games(alice, FINISHED_PAGE + 1)
    duels = []
    for n in range(3):
        duel = services.start_game(bob, "warring_planets", {}, open_challenge=True, seed=n)
        duels.append(services.accept_challenge(duel.pk, alice).pk)
    mine = [pk for pk in duels if alice_seat_to_act(pk, alice)]

    html = alice_client.get(reverse("games:list")).content.decode()
    in_play = html[:html.index("<h2>Finished</h2>")]

    assert set(listed(in_play)) == set(duels)
    your_turn = in_play[in_play.index("<h2>Your turn</h2>"):in_play.index("<h2>Waiting for others</h2>")]
    assert set(listed(your_turn)) == set(mine)


def alice_seat_to_act(game_id: int, alice) -> bool:
    game = Game.objects.get(pk=game_id)
    return game.seats.get(user=alice).index in game.to_act


def test_a_table_the_player_left_is_among_the_finished_by_its_time(alice, bob, alice_client, make_user):
    from tests.games.hallow_helpers import cast, full_table

    before = finished_solo_games(alice, 2)
    table = full_table(cast(make_user, alice, bob, 3))
    services.resign(table.pk, alice)
    after = finished_solo_games(alice, 1)

    html = alice_client.get(reverse("games:list")).content.decode()

    assert listed(finished_part(html)) == [after[0], table.pk, *before[::-1]]
    assert "you left" in finished_part(html)


def queries_of(client, *args, **kwargs) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(*args, **kwargs).status_code == 200
    return len(captured)


def test_my_games_asks_as_many_queries_for_twenty_two_games_as_for_sixty_four(alice, bob, make_user):
    from django.test import Client

    def player_with(name, finished, duels):
        player = make_user(name)
        finished_solo_games(player, finished)
        for n in range(duels):
            duel = services.start_game(bob, "warring_planets", {}, open_challenge=True, seed=n)
            services.accept_challenge(duel.pk, player)
        client = Client()
        client.force_login(player)
        queries_of(client, reverse("games:list"))  # the session's first read
        return client

    few, many = player_with("few", FINISHED_PAGE + 1, 1), player_with("many", 3 * FINISHED_PAGE, 4)

    assert queries_of(few, reverse("games:list")) == queries_of(many, reverse("games:list"))
    more = {"HTTP_HX_REQUEST": "true"}
    assert queries_of(few, reverse("games:list"), {"page": 2}, **more) == \
        queries_of(many, reverse("games:list"), {"page": 2}, **more)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_more_finished_games_adds_the_next_rows_in_place_in_chromium(alice, browser, live_server):
    from django.test import Client
    from playwright.sync_api import expect

    ids = finished_solo_games(alice, FINISHED_PAGE + 3)
    client = Client()
    client.force_login(alice)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 800})
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(reverse("games:list"))
        rows = page.locator("#finished li.game-row")
        assert rows.count() == FINISHED_PAGE
        page.get_by_role("link", name="More finished games").click()
        expect(rows).to_have_count(len(ids))  # (a polled function would need eval, which the CSP forbids)
        assert page.url.endswith(reverse("games:list")), "htmx added the rows; the page stayed"
        assert page.get_by_role("link", name="More finished games").count() == 0
        assert page.locator("header").count() and page.locator("h1", has_text="My games").count() == 1
        shown = [int(re.search(r"/games/(\d+)/", href).group(1))
                 for href in rows.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")]
        assert shown == ids[::-1]
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
