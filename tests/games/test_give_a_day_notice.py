"""A day given is told to whoever gets it: a line in the game's log on both players' pages
(among the moves, but never a move: the record that replays the game is untouched) and a
short mail to the receiver, sent by the worker, unless they asked for no mail at all."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import dateformat

from games import services
from games.clocks import actions, deadlines
from games.clocks.tasks import send_day_given_mail
from games.models import Game, GameEvent, Move

from .conftest import reload
from .integration_helpers import HX, give_day_url, oob_regions, page_of, post_move, seen_hashes, timed_duel

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")  # alice's zone (tests/conftest.py)
LOG = re.compile(r'<section id="log".*?</section>', re.S)
SUBJECT = "gave you a day more"


@pytest.fixture
def clients(alice_client, bob_client):
    return {0: alice_client, 1: bob_client}


def log_of(client, game) -> str:
    return LOG.search(page_of(client, game)).group(0)


def log_items(client, game) -> list[str]:
    """The log's lines as text, a move as "N. who: what", a clock event as "~ who: what"."""
    items = re.findall(r'<li(?: value="(\d+)"| class="event[^"]*")[^>]*><strong>([^<]+)</strong>: ([^<]+) <time',
                       log_of(client, game))
    return [(f"{number}." if number else "~") + f" {who}: {what.strip()}" for number, who, what in items]


def play_once(game: Game) -> Game:
    """The seat to act makes its first legal move, as the page would."""
    (acting,) = game.to_act
    seat = game.seats.get(index=acting)
    services.submit_move(game.pk, seat, game.rules.legal_moves(game.load_state(), acting)[0], game.version)
    return reload(game)


def alice_to_act_and_bob_waiting(alice, bob) -> Game:
    game = timed_duel(alice, bob)
    assert game.to_act == [0], "alice (seat 0) opens"
    return game


# --- the log on the game page ------------------------------------------------------------------


def test_a_day_given_shows_in_both_logs_after_the_move_it_followed(alice, bob, clients):
    game = play_once(play_once(alice_to_act_and_bob_waiting(alice, bob)))
    assert game.to_act == [0]
    clients[1].post(give_day_url(game))

    alices = log_items(clients[0], game)
    assert alices[-1] == "~ Bob: gave you a day more for this move."
    assert [item[:3] for item in alices[:-1]] == ["1. ", "2. "]
    assert log_items(clients[1], game)[-1] == "~ Bob: gave Alice a day more for this move."
    assert 'class="event mine"' in log_of(clients[1], game)  # bob's own doing, like his moves

    # The next move comes after it, numbered as if the event were not there.
    game = play_once(game)
    assert [item.split(":")[0] for item in log_items(clients[0], game)] == ["1. Alice", "2. Bob", "~ Bob", "3. Alice"]


def test_a_day_given_before_any_move_is_the_logs_first_line(alice, bob, clients):
    game = alice_to_act_and_bob_waiting(alice, bob)
    clients[1].post(give_day_url(game))
    assert log_items(clients[0], game) == ["~ Bob: gave you a day more for this move."]
    assert "No moves yet." not in log_of(clients[0], game)


def test_a_day_given_is_not_a_move_and_leaves_the_record_as_it_was(alice, bob, clients):
    game = play_once(alice_to_act_and_bob_waiting(alice, bob))
    game = play_once(game)
    before = (game.version, game.state, list(Move.objects.filter(game=game).values_list("number", "move")))
    clients[1].post(give_day_url(game))
    game = reload(game)
    assert (game.version, game.state, list(Move.objects.filter(game=game).values_list("number", "move"))) == before
    assert GameEvent.objects.filter(game=game).count() == 1
    replayed = game.rules.replay(game.seed, game.players, game.options,
                                 [(m.seat, m.move) for m in Move.objects.filter(game=game)])
    assert game.rules.dumps(replayed) == game.state
    # Nor is it in the record a finished game offers to download.
    services.resign(game.pk, alice)
    record = clients[0].get(reverse("games:record", args=[game.pk])).json()
    assert [m["number"] for m in record["moves"]] == [1, 2]


def test_a_day_given_with_htmx_swaps_the_log_too(alice, bob, clients):
    game = alice_to_act_and_bob_waiting(alice, bob)
    answer = clients[1].post(give_day_url(game), seen_hashes(clients[1], game), **HX).content.decode()
    assert {"status", "log"} <= oob_regions(answer) and "board" not in oob_regions(answer)
    assert "gave Alice a day more for this move." in answer


def test_the_receivers_waiting_page_notices_a_day_given_to_a_paused_clock(alice, bob, clients):
    game = alice_to_act_and_bob_waiting(alice, bob)
    deadlines.start_vacation(alice)
    stamp = re.search(r"\?v=([\w.]+)", page_of(clients[0], game)).group(1)
    version_url = reverse("games:version", args=[game.pk])
    assert clients[0].get(version_url, {"v": stamp}).status_code == 204
    clients[1].post(give_day_url(game))
    assert reload(game).deadline is None, "the clock stays paused: no deadline moved"
    assert clients[0].get(version_url, {"v": stamp})["HX-Trigger"] == "game-changed"
    assert log_items(clients[0], game) == ["~ Bob: gave you a day more for this move."]


def test_a_refused_day_leaves_no_line_and_an_outsider_sees_nothing(alice, bob, clients, outsider_client):
    game = alice_to_act_and_bob_waiting(alice, bob)
    assert clients[0].post(give_day_url(game), **HX).status_code == 409  # alice is to move
    assert outsider_client.post(give_day_url(game)).status_code == 404
    assert not GameEvent.objects.exists()
    clients[1].post(give_day_url(game))
    Game.objects.filter(pk=game.pk).update(public=False)  # a public game they could watch
    assert outsider_client.get(reverse("games:game", args=[game.pk])).status_code == 404
    assert outsider_client.get(reverse("games:game", args=[game.pk]), **HX).status_code == 404


# --- the mail to the receiver --------------------------------------------------------------------


def local(moment, zone) -> str:
    return dateformat.format(moment.astimezone(zone), "l j F Y, H:i")


def test_the_receiver_gets_a_short_mail_with_the_new_deadline_in_their_own_time(smtp_server, alice, bob):
    game = alice_to_act_and_bob_waiting(alice, bob)
    actions.give_a_day(game.pk, bob)
    event = GameEvent.objects.get()
    assert (event.seat, event.to_seats, event.version) == (1, [0], game.version)

    assert send_day_given_mail(event.pk) == "sent 1"

    (mail,) = smtp_server.messages
    assert smtp_server.messages_to("alice@example.com") == [mail]
    assert mail["Subject"] == f"Bob gave you a day more in {game.title} (game {game.pk})"
    text = smtp_server.text(mail)
    deadline = reload(game).deadline
    assert deadline == game.deadline + timedelta(days=1)
    assert f"Your time to move now runs until {local(deadline, PARIS)} (Europe/Paris)." in text
    assert f"To play: {settings.SITE_URL}{game.get_absolute_url()}" in text
    assert mail["Auto-Submitted"] == "auto-generated"


def test_the_mail_is_sent_once_however_often_the_task_runs(smtp_server, alice, bob):
    game = alice_to_act_and_bob_waiting(alice, bob)
    actions.give_a_day(game.pk, bob)
    event = GameEvent.objects.get()
    assert send_day_given_mail(event.pk) == "sent 1"
    assert send_day_given_mail(event.pk) == "already sent"
    assert send_day_given_mail(event.pk + 1000) == "no such event"
    assert len(smtp_server.messages) == 1


def test_a_second_day_for_the_same_move_is_refused_and_changes_nothing(smtp_server, alice, bob, clients):
    """One day per move (issue 38): thirty clicks once moved the deadline thirty days and
    mailed the other player at nearly every one."""
    game = alice_to_act_and_bob_waiting(alice, bob)
    assert clients[1].post(give_day_url(game)).status_code == 302
    given = reload(game).deadline
    assert given == game.deadline + timedelta(days=1)

    refused = clients[1].post(give_day_url(game), seen_hashes(clients[1], game), **HX)
    assert refused.status_code == 409
    assert "You already gave a day for this move; one day can be given per move." in refused.content.decode()
    page = clients[1].post(give_day_url(game), follow=True).content.decode()
    assert "You already gave a day for this move" in page
    with pytest.raises(deadlines.ClockRefused):
        actions.give_a_day(game.pk, bob)
    assert reload(game).deadline == given
    (event,) = GameEvent.objects.all()
    assert give_day_url(game) not in page_of(clients[1], game), "the button is gone for this move"

    assert send_day_given_mail(event.pk) == "sent 1"
    (mail,) = smtp_server.messages
    assert mail["Subject"].startswith("Bob gave you a day more in ")

    # The next time alice is to move, bob may give her a day again.
    game = play_once(play_once(reload(game)))
    assert clients[1].post(give_day_url(game)).status_code == 302
    assert reload(game).deadline == game.deadline + timedelta(days=1)
    assert GameEvent.objects.count() == 2


def test_no_mail_once_the_receiver_has_moved_on(smtp_server, alice, bob):
    game = alice_to_act_and_bob_waiting(alice, bob)
    actions.give_a_day(game.pk, bob)
    play_once(game)
    assert send_day_given_mail(GameEvent.objects.get().pk) == "turn already played"
    assert smtp_server.messages == []


@pytest.mark.parametrize("preference, mailed", [("each", True), ("daily", True), ("never", False)])
def test_the_mail_follows_the_turn_mail_preference(smtp_server, alice, bob, preference, mailed):
    alice.turn_mail = preference
    alice.save(update_fields=["turn_mail"])
    game = alice_to_act_and_bob_waiting(alice, bob)
    actions.give_a_day(game.pk, bob)
    assert send_day_given_mail(GameEvent.objects.get().pk) == f"sent {int(mailed)}"
    assert bool(smtp_server.messages_to("alice@example.com")) == mailed
    assert smtp_server.messages_to("bob@example.com") == []


def test_a_receiver_on_vacation_is_told_the_day_waits_for_the_clock(smtp_server, alice, bob):
    game = alice_to_act_and_bob_waiting(alice, bob)
    deadlines.start_vacation(alice)
    actions.give_a_day(game.pk, bob)
    assert send_day_given_mail(GameEvent.objects.get().pk) == "sent 1"
    text = smtp_server.text(smtp_server.wait_for("alice@example.com"))
    assert "Your clock is paused while you are on vacation" in text and "runs until" not in text


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_mails_the_receiver_after_the_day_is_given_on_the_page(
        celery_worker_process, smtp_server, alice, bob, bob_client):
    game = alice_to_act_and_bob_waiting(alice, bob)
    assert bob_client.post(give_day_url(game)).status_code == 302
    give_up = time.monotonic() + 30
    notices = []
    while not notices and time.monotonic() < give_up:
        notices = [m for m in smtp_server.messages_to("alice@example.com") if SUBJECT in m["Subject"]]
        time.sleep(0.1)
    assert notices, "no mail about the day given reached alice"
    assert local(reload(game).deadline, PARIS) in smtp_server.text(notices[0])
    assert GameEvent.objects.get().mailed_at is not None
    assert not [m for m in smtp_server.messages_to("bob@example.com") if SUBJECT in m["Subject"]]
