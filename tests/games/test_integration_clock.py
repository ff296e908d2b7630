"""The clocks on the web (issue 6, item 7): the time control chosen when a game starts,
the deadline in each viewer's own time, "give the other player a day" on the game page,
a clock paused for a vacation, and the ways to the vacation page."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.html import escape

from games import services
from games.clocks import deadlines
from games.mail.outgoing import turn_mail
from games.clocks.models import PausedClock
from games.models import Game

from .conftest import registered, reload, two_player_mode
from .integration_helpers import (
    HX, form_for, give_day_url, mover_and_waiter, oob_regions, page_of, seen_hashes, timed_duel,
)

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
UTC = ZoneInfo("UTC")
PARIS = ZoneInfo("Europe/Paris")  # alice's zone (tests/conftest.py); bob keeps UTC
ZONES = {0: PARIS, 1: UTC}  # by seat: alice 0, bob 1


@pytest.fixture
def clients(alice_client, bob_client):
    return {0: alice_client, 1: bob_client}


@pytest.fixture
def users(alice, bob):
    return {0: alice, 1: bob}


def local(moment: datetime, zone: ZoneInfo) -> str:
    return dateformat.format(moment.astimezone(zone), "l j F, H:i")


def set_deadline(game: Game, deadline: datetime) -> Game:
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    return reload(game)


# --- choosing a clock when starting a game ----------------------------------------------------


def test_the_new_game_form_offers_no_clock_or_one_three_or_seven_days(alice_client):
    page = alice_client.get(reverse("games:new")).content.decode()
    clock = re.search(r'<select name="time_control".*?</select>', page, re.S).group(0)  # not the seats'
    offered = dict((value, label) for value, label in
                   re.findall(r'<option value="(\d*)"[^>]*>([^<]+)</option>', clock))
    assert offered == {"": "No clock", "1": "1 day per move", "3": "3 days per move", "7": "7 days per move"}


@pytest.mark.parametrize("choice", ["", "1", "3", "7"])
def test_the_clock_chosen_at_the_start_is_what_the_game_page_shows(alice_client, choice):
    started = timezone.now()
    answer = alice_client.post(reverse("games:new"), {"mode": "know_thyself", "opponent": "solo",
                                                      "time_control": choice})
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == game.get_absolute_url()
    page = page_of(alice_client, game)
    if not choice:
        assert game.time_control is None and game.deadline is None
        assert "Clock:" not in page and "runs out" not in page
        assert 'name="confirm_moves" checked' not in page.replace("\n", "")  # no clock: moves go at once
        return
    days = int(choice)
    assert game.time_control == days
    assert started + days * DAY <= game.deadline <= timezone.now() + days * DAY
    assert f"Clock: {days} day{'s' if days > 1 else ''} per move." in page
    # Alice lives in Paris: the deadline is written in her hours, and says so.
    assert f"{local(game.deadline, PARIS)} (Europe/Paris time)" in page
    assert f'datetime="{game.deadline.isoformat()}"' in page
    assert "Give the other player a day" not in page  # alone, there is nobody to give it to
    assert "checked" in form_for(page, reverse("games:preferences", args=[game.pk]))  # asks by default


def test_a_two_player_clock_starts_when_the_invitation_is_accepted(alice, bob, alice_client):
    game = services.start_game(alice, two_player_mode(), opponent=bob, time_control=3)
    page = page_of(alice_client, game)
    assert "Clock: 3 days per move." in page and "It starts when the game does." in page
    assert game.deadline is None
    before = timezone.now()
    services.accept_invitation(game.pk, bob)
    game = reload(game)
    assert before + 3 * DAY <= game.deadline <= timezone.now() + 3 * DAY
    assert f"{local(game.deadline, PARIS)} (Europe/Paris time)" in page_of(alice_client, game)


# --- the deadline in each viewer's own time ------------------------------------------------------


def test_each_player_reads_the_deadline_in_their_own_time_zone(alice, bob, alice_client, bob_client):
    game = set_deadline(timed_duel(alice, bob), datetime(2031, 1, 14, 12, 0, tzinfo=UTC))
    assert "Tuesday 14 January, 13:00 (Europe/Paris time)" in page_of(alice_client, game)
    assert "Tuesday 14 January, 12:00 (UTC time)" in page_of(bob_client, game)
    bob_client.post(reverse("profile"), {"display_name": "Bob", "time_zone": "Asia/Tokyo", "turn_mail": "each"})
    assert "Tuesday 14 January, 21:00 (Asia/Tokyo time)" in page_of(bob_client, game)


def test_the_turn_mail_gives_the_deadline_in_the_players_own_hours_wherever_it_is_written(alice, bob):
    game = set_deadline(timed_duel(alice, bob), datetime(2031, 1, 14, 12, 0, tzinfo=UTC))
    for seat in game.seats.select_related("user", "game"):
        expected = {"alice": "13:00 (Europe/Paris)", "bob": "12:00 (UTC)"}[seat.user.username]
        # The worker renders mail in UTC; a web request in the reader's zone: same words.
        for zone in ("UTC", "America/New_York"):
            with timezone.override(ZoneInfo(zone)):
                mail = turn_mail(seat)
            assert f"Tuesday 14 January 2031, {expected}" in mail.body
            assert f"Tuesday 14 January 2031, {expected.split(' ')[0]}</strong>" in mail.alternatives[0][0]


# --- give the other player a day --------------------------------------------------------------


def test_only_the_waiting_player_is_offered_a_day_to_give(alice, bob, clients):
    game = timed_duel(alice, bob)
    mover, waiter = mover_and_waiter(game, clients)
    form = form_for(page_of(waiter, game), give_day_url(game))
    assert 'method="post"' in form and f'hx-post="{give_day_url(game)}"' in form
    assert 'name="csrfmiddlewaretoken"' in form and "Give the other player a day" in form
    assert form_for(page_of(mover, game), give_day_url(game)) == ""


def test_no_day_to_give_without_a_clock_or_once_the_game_is_over(alice, bob, clients, duel):
    for client in clients.values():
        assert give_day_url(duel) not in page_of(client, duel)
    game = timed_duel(alice, bob)
    services.resign(game.pk, alice)
    for client in clients.values():
        assert give_day_url(game) not in page_of(client, game)


def test_a_day_given_by_a_plain_form_moves_the_deadline_and_says_so(alice, bob, clients):
    game = timed_duel(alice, bob)
    _, waiter = mover_and_waiter(game, clients)
    answer = waiter.post(give_day_url(game), follow=True)
    assert answer.redirect_chain == [(game.get_absolute_url(), 302)]
    later = reload(game).deadline
    assert later == game.deadline + DAY
    page = answer.content.decode()
    assert "You gave the other player a day more" in page
    assert local(later, ZONES[1 - game.to_act[0]]) in page


def test_a_day_given_with_htmx_swaps_in_the_new_deadline(alice, bob, clients):
    game = timed_duel(alice, bob)
    _, waiter = mover_and_waiter(game, clients)
    seen = seen_hashes(waiter, game)
    answer = waiter.post(give_day_url(game), seen, **HX)
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "status" in oob_regions(text) and "board" not in oob_regions(text)  # only what changed
    assert "You gave the other player a day more" in text
    assert local(reload(game).deadline, ZONES[1 - game.to_act[0]]) in text


def test_the_player_to_move_cannot_give_themself_a_day(alice, bob, clients):
    game = timed_duel(alice, bob)
    mover, _ = mover_and_waiter(game, clients)
    refused = mover.post(give_day_url(game), seen_hashes(mover, game), **HX)
    assert refused.status_code == 409 and "other player is to move" in refused.content.decode()
    assert mover.post(give_day_url(game), follow=True).status_code == 200
    assert reload(game).deadline == game.deadline


def test_an_outsider_gets_404_from_give_day_and_changes_nothing(alice, bob, outsider_client, client):
    game = timed_duel(alice, bob)
    for extra in ({}, HX):
        assert outsider_client.post(give_day_url(game), **extra).status_code == 404
        assert outsider_client.post(give_day_url(game.pk + 1000), **extra).status_code == 404
    assert outsider_client.get(give_day_url(game)).status_code == 405
    assert client.post(give_day_url(game))["Location"].startswith(reverse("account_login"))
    assert reload(game).deadline == game.deadline


def test_an_invited_player_who_has_not_accepted_gets_404_too(alice, bob, bob_client):
    game = services.start_game(alice, two_player_mode(), opponent=bob, time_control=1)
    assert bob_client.post(give_day_url(game)).status_code == 404


# --- a clock paused for a vacation ---------------------------------------------------------------


def test_a_vacation_shows_the_clock_paused_on_both_pages_and_the_day_given_meanwhile(alice, bob, users, clients):
    game = timed_duel(alice, bob)
    (acting,) = game.to_act
    away, other = clients[acting], clients[1 - acting]
    away.post(reverse("clocks:vacation"), {"action": "start"})
    assert PausedClock.objects.filter(game=game).exists() and reload(game).deadline is None

    mine = page_of(away, game)
    assert "Clock paused (vacation)</strong>: you are on vacation" in mine
    assert "runs out" not in mine and reverse("clocks:vacation") in mine
    theirs = page_of(other, game)
    assert f"Clock paused (vacation)</strong>: {escape(users[acting])} is on vacation" in theirs
    assert "runs out" not in theirs

    # A day given while the clock stands still is kept for when it runs again.
    other.post(give_day_url(game))
    assert "1 day, 23 hours will be left" in page_of(other, game).replace("\xa0", " ")  # timesince's spaces
    away.post(reverse("clocks:vacation"), {"action": "stop"})
    game = reload(game)
    assert timezone.now() + DAY < game.deadline <= timezone.now() + 2 * DAY
    assert "Clock paused" not in page_of(other, game) and "runs out" in page_of(other, game)


def test_my_games_says_which_clocks_are_paused_and_leads_to_the_vacation_page(alice, bob, clients):
    game = timed_duel(alice, bob)
    (acting,) = game.to_act
    away = clients[acting]
    page = away.get(reverse("games:list")).content.decode()
    assert f'href="{reverse("clocks:vacation")}"' in page and "You are on vacation" not in page
    assert "time runs out" in page
    away.post(reverse("clocks:vacation"), {"action": "start"})
    page = away.get(reverse("games:list")).content.decode()
    assert "You are on vacation" in page and "clock paused (vacation)" in page
    assert "clock paused (vacation)" in clients[1 - acting].get(reverse("games:list")).content.decode()


def test_the_profile_page_leads_to_the_vacation_page(alice_client):
    page = alice_client.get(reverse("profile")).content.decode()
    assert f'href="{reverse("clocks:vacation")}"' in page


def test_the_waiting_page_notices_a_day_given_and_a_clock_paused(alice, bob, users, clients):
    game = timed_duel(alice, bob)
    (acting,) = game.to_act
    watcher = clients[acting]
    stamp = re.search(r"\?v=([\w.]+)", page_of(watcher, game)).group(1)
    version_url = reverse("games:version", args=[game.pk])
    assert watcher.get(version_url, {"v": stamp}).status_code == 204
    clients[1 - acting].post(give_day_url(game))
    assert watcher.get(version_url, {"v": stamp})["HX-Trigger"] == "game-changed"
    stamp = re.search(r"\?v=([\w.]+)", page_of(watcher, game)).group(1)
    deadlines.start_vacation(users[acting])
    assert watcher.get(version_url, {"v": stamp})["HX-Trigger"] == "game-changed"


# --- when the time runs out ------------------------------------------------------------------------


@pytest.mark.parametrize("mode, ending", [("lovers_discourse", "Abandoned"), ("warring_planets", "Finished")])
def test_a_game_whose_time_ran_out_says_so_on_its_page(alice, bob, clients, users, mode, ending):
    if not registered(mode):
        pytest.fail(f"{mode} is not registered")
    game = timed_duel(alice, bob, mode=mode)
    (late,) = game.to_act
    game = set_deadline(game, timezone.now() - timedelta(minutes=1))
    deadlines.end_overdue_game(game.pk, game.version)
    for client in clients.values():
        page = page_of(client, game)
        assert f"{ending}:" in page and f"{escape(users[late])} ran out of time" in page
        assert "runs out" not in page and give_day_url(game) not in page
