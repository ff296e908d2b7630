"""The secret calendar of deadlines (issue 42, item 4): an iCalendar feed a calendar app
fetches without logging in, at an address only its player knows and can renew."""

from __future__ import annotations

import datetime as dt
import re

import icalendar
import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.clocks import deadlines
from games.models import Game

from .conftest import reload
from .mail_helpers import two_player_game

pytestmark = pytest.mark.django_db


def feed_address(user) -> str:
    user.refresh_from_db()
    return reverse("clocks:calendar", args=[user.pk, user.calendar_token])


def read_feed(client, address) -> icalendar.Calendar:
    response = client.get(address)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def to_the_second(moment: dt.datetime) -> dt.datetime:
    return moment.replace(microsecond=0)  # iCalendar's times have whole seconds


def events(calendar) -> list:
    return list(calendar.walk("VEVENT"))


def test_it_lists_each_deadline_once_in_utc_saying_whose_move_it_is(client, alice, bob, outsider, make_user):
    carol = make_user("carol", display_name="Carol")
    mine = two_player_game(alice, bob, time_control=3)  # alice (seat 0) to move
    theirs = two_player_game(alice, carol, time_control=1, seed=3)
    services.submit_move(theirs.pk, theirs.seats.get(index=0), theirs.rules.legal_moves(theirs.load_state(), 0)[0],
                         theirs.version)
    theirs = reload(theirs)
    assert theirs.to_act == [1] and theirs.deadline is not None
    two_player_game(bob, carol, time_control=3, seed=4)  # not alice's: not in her calendar
    two_player_game(alice, bob, seed=5)  # no clock, no deadline

    # No login: the address is the key (a calendar app has no session).
    calendar = read_feed(client, feed_address(alice))
    found = events(calendar)
    assert len(found) == 2
    assert len({str(e["UID"]) for e in found}) == 2, "one event per deadline"
    by_game = {int(re.search(r"\(game (\d+)\)", str(e["SUMMARY"]))[1]): e for e in found}
    assert set(by_game) == {mine.pk, theirs.pk}

    mine_event, theirs_event = by_game[mine.pk], by_game[theirs.pk]
    assert str(mine_event["SUMMARY"]) == f"Your move in Warring Planets with Bob (game {mine.pk})"
    assert str(theirs_event["SUMMARY"]) == f"Carol to move in Warring Planets with you (game {theirs.pk})"
    assert "You wait for Carol" in str(theirs_event["DESCRIPTION"])
    for event, game in ((mine_event, reload(mine)), (theirs_event, theirs)):
        start = event.decoded("DTSTART")
        assert start.utcoffset() == dt.timedelta(0) and start == to_the_second(game.deadline), "the deadline, in UTC"
        assert "DTSTAMP" in event and int(event["SEQUENCE"]) == game.version
        assert str(event["URL"]).endswith(f"/games/{game.pk}/")
    assert b"Z\r\n" in mine_event.to_ical(), "times written in UTC"

    # A move sets the next deadline: the same event (same UID, a higher SEQUENCE) now says
    # it is bob's move, and no second event appears.
    before = mine_event
    mine = reload(mine)
    services.submit_move(mine.pk, mine.seats.get(index=0), mine.rules.legal_moves(mine.load_state(), 0)[0],
                         mine.version)
    mine = reload(mine)
    after = {str(e["UID"]): e for e in events(read_feed(client, feed_address(alice)))}
    assert len(after) == 2
    moved = after[str(before["UID"])]
    assert int(moved["SEQUENCE"]) > int(before["SEQUENCE"])
    assert str(moved["SUMMARY"]) == f"Bob to move in Warring Planets with you (game {mine.pk})"
    assert moved.decoded("DTSTART") == to_the_second(mine.deadline)

    # No hidden cards in a feed anyone with the address reads: only names and times.
    text = read_feed(client, feed_address(alice)).to_ical().decode()
    assert not re.search(r"\b(hand|card)\b", text, re.I)


def test_it_shows_a_vacation_and_drops_the_paused_deadline(client, alice, bob):
    game = two_player_game(alice, bob, time_control=3)
    deadlines.start_vacation(alice)
    assert reload(game).deadline is None, "the clock of the game waiting on alice is paused"

    found = events(read_feed(client, feed_address(alice)))
    assert len(found) == 1
    vacation = found[0]
    assert str(vacation["SUMMARY"]) == "Your vacation: the clocks of your games wait for you"
    assert vacation.decoded("DTSTART") <= timezone.now() < vacation.decoded("DTEND")
    assert vacation.decoded("DTEND").utcoffset() == dt.timedelta(0)

    # Back from it: the vacation stays (ended), the deadline is back.
    deadlines.end_vacation(alice)
    found = {str(e["UID"]).split("-")[0]: e for e in events(read_feed(client, feed_address(alice)))}
    assert set(found) == {"vacation", "game"}
    assert int(found["vacation"]["SEQUENCE"]) == 1
    assert found["game"].decoded("DTSTART") == to_the_second(reload(game).deadline)
    # bob's calendar has the game, and nothing of alice's vacation.
    assert [str(e["UID"]).split("-")[0] for e in events(read_feed(client, feed_address(bob)))] == ["game"]


def test_renewing_the_address_kills_the_old_one(client, alice_client, alice, bob):
    two_player_game(alice, bob, time_control=3)
    old = feed_address(alice)
    assert client.get(old).status_code == 200

    profile = alice_client.get(reverse("profile"))
    assert old in profile.content.decode(), "the profile shows the address to subscribe to"
    answer = alice_client.post(reverse("calendar_renew"), follow=True)
    assert "the old one no longer works" in answer.content.decode()

    new = feed_address(alice)
    assert new != old and new in answer.content.decode()
    assert client.get(old).status_code == 404
    assert len(events(read_feed(client, new))) == 1


def test_a_wrong_or_another_players_token_finds_nothing(client, alice, bob, outsider):
    two_player_game(alice, bob, time_control=3)
    alice.refresh_from_db()
    outsider.refresh_from_db()
    token = alice.calendar_token
    assert outsider.calendar_token != alice.calendar_token, "each player's own secret"
    for address in (
        reverse("clocks:calendar", args=[alice.pk, outsider.calendar_token]),  # the outsider's own token
        reverse("clocks:calendar", args=[alice.pk, alice.calendar_token[:-1]]),
        reverse("clocks:calendar", args=[alice.pk, "x" * 43]),
        reverse("clocks:calendar", args=[999999, alice.calendar_token]),
    ):
        response = client.get(address)
        assert response.status_code == 404, address
        assert b"BEGIN:VCALENDAR" not in response.content
    # Renewing is for the signed-in player only, and only by POST.
    assert client.post(reverse("calendar_renew")).status_code == 302  # to the login page
    alice.refresh_from_db()
    assert alice.calendar_token == token


def test_a_game_that_ended_leaves_the_calendar(client, alice, bob):
    game = two_player_game(alice, bob, time_control=3)
    assert len(events(read_feed(client, feed_address(alice)))) == 1
    services.resign(game.pk, alice)
    assert reload(game).status == Game.Status.FINISHED
    assert events(read_feed(client, feed_address(alice))) == []


def test_at_a_table_of_three_it_names_everyone_asked_and_who_waits(client, alice, bob, make_user):
    from .hallow_helpers import cast, full_table

    alice, bob, carol = cast(make_user, alice, bob, 3)
    game = full_table([alice, bob, carol], time_control=3)
    assert len(game.to_act) >= 2, "cards are played face down at once"
    summaries = {}
    for user in (alice, bob, carol):
        (event,) = events(read_feed(client, feed_address(user)))
        summaries[user.username] = (str(event["SUMMARY"]), str(event["DESCRIPTION"]))
    asked = [s for s in game.seats.select_related("user") if s.index in game.to_act]
    first = asked[0].user
    others = [s.user.display_name or s.user.username for s in asked[1:]]
    summary, description = summaries[first.username]
    assert summary.startswith("Your move in Tarot Hallow with ")
    assert all(name in description for name in others) and "must also act by then" in description
    for text, _ in summaries.values():
        assert "seat" not in text.lower() and "None" not in text
