"""Time controls: the 80 % reminder, time-outs, vacations and "give the other player a day"."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.clocks import actions, deadlines
from games.clocks.models import PausedClock, Vacation
from games.clocks.tasks import check_clocks, send_deadline_reminder
from games.models import Game, Move

from .conftest import reload
from .mail_helpers import solo_game, two_player_game

DAY = timedelta(days=1)


def set_deadline(game, deadline) -> Game:
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    return reload(game)


def seat(game, index=0):
    return game.seats.select_related("user", "game").get(index=index)


# --- the reminder ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_reminder_is_due_once_80_percent_of_the_time_is_gone(alice, bob):
    game = two_player_game(alice, bob, time_control=1)  # 24 hours: due with 4.8 hours left
    now = timezone.now()
    set_deadline(game, now + timedelta(hours=5))
    assert deadlines.reminders_due(now) == []
    game = set_deadline(game, now + timedelta(hours=4))
    assert deadlines.reminders_due(now) == [(game.pk, game.deadline)]


@pytest.mark.django_db
def test_the_reminder_goes_to_the_seat_to_act_once_per_deadline(smtp_server, alice, bob):
    game = two_player_game(alice, bob, time_control=3)
    game = set_deadline(game, timezone.now() + timedelta(hours=10))

    assert send_deadline_reminder(game.pk, game.deadline.isoformat()) == "reminded 1"
    assert send_deadline_reminder(game.pk, game.deadline.isoformat()) == "already reminded"
    assert deadlines.reminders_due(timezone.now()) == []
    mail = smtp_server.wait_for("alice@example.com")
    assert mail["Subject"].startswith("Time is running out")
    assert "you lose it" in smtp_server.text(mail), "Warring Planets: running out of time forfeits"
    assert smtp_server.messages_to("bob@example.com") == []

    # A new deadline (here: bob gave a day) earns a new reminder when its time comes.
    actions.give_a_day(game.pk, bob)
    game = reload(game)
    assert send_deadline_reminder(game.pk, game.deadline.isoformat()) == "reminded 1"
    assert len(smtp_server.messages_to("alice@example.com")) == 2


@pytest.mark.django_db
def test_a_reminder_for_a_deadline_that_moved_on_is_dropped(smtp_server, alice, bob):
    game = two_player_game(alice, bob, time_control=1)
    old = game.deadline
    services.submit_move(game.pk, seat(game), game.rules.legal_moves(game.load_state(), 0)[0], game.version)
    assert send_deadline_reminder(game.pk, old.isoformat()) == "deadline moved"
    assert smtp_server.messages == []


# --- time-outs ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_time_out_in_warring_planets_is_the_late_seats_forfeit(alice, bob):
    game = two_player_game(alice, bob, time_control=1)
    game = set_deadline(game, timezone.now() - timedelta(minutes=1))
    assert deadlines.overdue_games(timezone.now()) == [(game.pk, game.version)]

    assert deadlines.end_overdue_game(game.pk, game.version) == "forfeited"

    game = reload(game)
    assert game.status == Game.Status.FINISHED
    assert game.outcome["winners"] == [1]
    last = Move.objects.filter(game=game).last()
    assert (last.seat, last.move) == (0, {"type": "forfeit"})
    assert "ran out of time" in game.end_reason
    assert deadlines.end_overdue_game(game.pk, game.version) == "moved on", "safe to run twice"


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["lovers_discourse", "know_thyself"])
def test_a_time_out_abandons_a_cooperative_or_solo_game(mode, alice, bob):
    game = (solo_game(alice, time_control=7) if mode == "know_thyself"
            else two_player_game(alice, bob, mode=mode, time_control=7))
    game = set_deadline(game, timezone.now() - timedelta(seconds=1))

    assert deadlines.end_overdue_game(game.pk, game.version) == "abandoned"

    game = reload(game)
    assert game.status == Game.Status.ABANDONED
    assert "ran out of time" in game.end_reason
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_a_game_that_moved_or_is_not_yet_late_is_left_alone(alice, bob):
    game = two_player_game(alice, bob, time_control=1)
    assert deadlines.end_overdue_game(game.pk, game.version) == "not overdue"
    stale_version = game.version
    services.submit_move(game.pk, seat(game), game.rules.legal_moves(game.load_state(), 0)[0], game.version)
    set_deadline(game, timezone.now() - timedelta(seconds=1))
    assert deadlines.end_overdue_game(game.pk, stale_version) == "moved on"
    assert reload(game).status == Game.Status.ACTIVE


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_scheduled_check_ends_an_overdue_game_in_the_worker_and_tells_both_players(
        celery_worker_process, smtp_server, alice, bob):
    game = two_player_game(alice, bob, time_control=1)
    game = set_deadline(game, timezone.now() - timedelta(minutes=5))

    assert check_clocks()["overdue"] == 1

    bobs = smtp_server.wait_for("bob@example.com")  # bob was not to act: his first mail
    assert "has ended" in smtp_server.text(bobs) and "you won" in smtp_server.text(bobs)
    alices = [m for m in smtp_server.messages_to("alice@example.com") if "has ended" in m["Subject"]]
    give_up = time.monotonic() + 30
    while not alices and time.monotonic() < give_up:
        time.sleep(0.1)
        alices = [m for m in smtp_server.messages_to("alice@example.com") if "has ended" in m["Subject"]]
    assert alices and "ran out of time" in smtp_server.text(alices[0])
    assert reload(game).status == Game.Status.FINISHED


# --- vacation -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_vacation_pauses_the_clocks_waiting_on_the_player_and_gives_the_time_back(alice, bob):
    game = two_player_game(alice, bob, time_control=3)
    left = game.deadline - timezone.now()

    deadlines.start_vacation(alice)

    game = reload(game)
    assert game.deadline is None, "no deadline runs while alice is away"
    assert PausedClock.objects.get(game=game).remaining == pytest.approx(left, abs=timedelta(seconds=5))
    assert deadlines.overdue_games(timezone.now() + 10 * DAY) == []
    assert deadlines.reminders_due(timezone.now() + 10 * DAY) == []

    deadlines.end_vacation(alice)

    game = reload(game)
    assert game.deadline - timezone.now() == pytest.approx(left, abs=timedelta(seconds=5))
    assert not PausedClock.objects.exists()


@pytest.mark.django_db
def test_a_turn_that_reaches_a_player_on_vacation_waits_for_them(alice, bob,
                                                                 django_capture_on_commit_callbacks):
    game = two_player_game(alice, bob, time_control=1)
    deadlines.start_vacation(bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game.pk, seat(game), game.rules.legal_moves(game.load_state(), 0)[0], game.version)
    game = reload(game)
    assert game.to_act == [1]
    assert game.deadline is None
    assert PausedClock.objects.get(game=game).remaining == pytest.approx(DAY, abs=timedelta(seconds=5))


@pytest.mark.django_db
def test_a_clock_that_starts_while_the_first_player_is_on_vacation_starts_paused(
        alice, bob, django_capture_on_commit_callbacks):
    """Alice posts a challenge with a clock and leaves on vacation; bob accepts while she
    is away.  Her first move's time waits for her instead of running out."""
    game = services.start_game(alice, "warring_planets", time_control=1, open_challenge=True)
    deadlines.start_vacation(alice)
    with django_capture_on_commit_callbacks(execute=True):
        services.accept_challenge(game.pk, bob)
    game = reload(game)
    assert game.to_act == [0] and game.deadline is None
    assert PausedClock.objects.get(game=game).remaining == pytest.approx(DAY, abs=timedelta(seconds=5))
    assert deadlines.overdue_games(timezone.now() + 2 * DAY) == []
    deadlines.end_vacation(alice)
    assert reload(game).deadline == pytest.approx(timezone.now() + DAY, abs=timedelta(seconds=5))


@pytest.mark.django_db
def test_a_vacation_ends_by_itself_when_the_years_days_are_used_up(settings, alice, bob):
    settings.VACATION_DAYS_PER_YEAR = 2
    game = two_player_game(alice, bob, time_control=1)
    deadlines.start_vacation(alice)
    started = timezone.now() - 3 * DAY
    Vacation.objects.filter(user=alice).update(started_at=started)

    assert deadlines.end_spent_vacations(timezone.now()) == 1

    vacation = Vacation.objects.get(user=alice)
    assert vacation.ended_at == started + 2 * DAY
    assert deadlines.days_left(alice.pk, now=vacation.ended_at) == 0
    assert reload(game).deadline is not None, "the clock runs again"


@pytest.mark.django_db
def test_no_vacation_without_days_left(settings, alice):
    settings.VACATION_DAYS_PER_YEAR = 0
    with pytest.raises(deadlines.ClockRefused, match="used all 0 vacation days"):
        deadlines.start_vacation(alice)
    assert not Vacation.objects.exists()


@pytest.mark.django_db
def test_every_started_day_of_vacation_counts(settings, alice):
    settings.VACATION_DAYS_PER_YEAR = 10
    deadlines.start_vacation(alice)
    deadlines.end_vacation(alice)  # a few seconds
    assert deadlines.days_left(alice.pk) == 9
    with pytest.raises(deadlines.ClockRefused, match="not on vacation"):
        deadlines.end_vacation(alice)
    deadlines.start_vacation(alice)
    with pytest.raises(deadlines.ClockRefused, match="already"):
        deadlines.start_vacation(alice)


@pytest.mark.django_db
def test_the_vacation_page_switches_it_on_and_off(alice_client, alice):
    page = alice_client.get(reverse("clocks:vacation"))
    assert page.status_code == 200 and "21" in page.content.decode()
    alice_client.post(reverse("clocks:vacation"), {"action": "start"})
    assert deadlines.on_vacation(alice.pk)
    alice_client.post(reverse("clocks:vacation"), {"action": "stop"})
    assert not deadlines.on_vacation(alice.pk)


def test_the_vacation_page_wants_a_login(client):
    assert client.get(reverse("clocks:vacation")).status_code == 302


# --- give the other player a day -------------------------------------------------------------


@pytest.mark.django_db
def test_giving_a_day_moves_the_other_players_deadline_a_day_later(bob_client, alice, bob):
    game = two_player_game(alice, bob, time_control=1)
    before = game.deadline
    answer = bob_client.post(reverse("clocks:give_day", args=[game.pk]))
    assert answer.status_code == 302
    assert reload(game).deadline == before + DAY


@pytest.mark.django_db
def test_a_day_can_only_be_given_to_the_other_player(alice_client, outsider_client, alice, bob):
    game = two_player_game(alice, bob, time_control=1)
    before = game.deadline
    with pytest.raises(deadlines.ClockRefused, match="other player is to move"):
        actions.give_a_day(game.pk, alice)
    assert alice_client.post(reverse("clocks:give_day", args=[game.pk]), HTTP_HX_REQUEST="true").status_code == 409
    assert outsider_client.post(reverse("clocks:give_day", args=[game.pk])).status_code == 404
    assert reload(game).deadline == before
    untimed = two_player_game(alice, bob, seed=4)
    with pytest.raises(deadlines.ClockRefused, match="no clock"):
        actions.give_a_day(untimed.pk, bob)
    with pytest.raises(deadlines.ClockRefused):
        actions.give_a_day(solo_game(alice, time_control=1).pk, alice)


@pytest.mark.django_db
def test_a_day_given_while_the_clock_is_paused_is_kept_for_later(alice, bob):
    game = two_player_game(alice, bob, time_control=1)
    deadlines.start_vacation(alice)
    left = PausedClock.objects.get(game=game).remaining
    actions.give_a_day(game.pk, bob)
    assert PausedClock.objects.get(game=game).remaining == left + DAY
