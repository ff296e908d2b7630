"""A broker outage under a running site: beat and the worker ride it out, and once Redis is
back the outbox is swept and everything queued meanwhile is delivered, with no process
started again by hand (issue 38, item 14: beat used to end at the first Redis error, and
the outbox then waited for someone to restart it).

A Redis of the test's own is the broker, the lock and the schedule; a real worker and a real
beat run on it and on the test database."""

from __future__ import annotations

import time

import pytest

from games import services
from games.models import Game
from journal import services as journal_services
from journal.models import Seal
from sefirot_site.outbox.models import PendingTask
from tests.conftest import _worker_env
from tests.site.test_nothing_lost import broker_on_own_redis, own_redis  # noqa: F401 - fixtures
from tests.site.test_scheduler import Beat, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SWEEP_SECONDS = 5


@pytest.fixture
def beat_on_own_redis(broker_on_own_redis, own_redis, smtp_server):
    env = _worker_env("redis", smtp_server)
    env.update(REDIS_URL=own_redis.url, OUTBOX_SWEEP_SECONDS=str(SWEEP_SECONDS), BEAT_LOCK_SECONDS="10")
    beat = Beat("outage", env)
    yield beat
    beat.kill()


def _all_done():
    return not PendingTask.objects.filter(done_at__isnull=True).exists()


def _move(game: Game) -> Game:
    game = Game.objects.get(pk=game.pk)
    (acting,) = game.to_act
    player = game.seats.select_related("user").get(index=acting).user
    move = game.rules.legal_moves(game.load_state(), acting)[0]
    services.submit_move(game.pk, player, move, game.version)
    return Game.objects.get(pk=game.pk)


@pytest.mark.long(28)
def test_beat_and_the_worker_ride_out_a_broker_outage_and_deliver_what_was_queued_meanwhile(
        beat_on_own_redis, broker_on_own_redis, own_redis, smtp_server, settings, alice, bob, outsider):
    # What the sweep waits before it publishes again what the broker lost (minutes in
    # production), shortened so the test sees the sweep and not the lease.
    settings.OUTBOX_LEASE_SECONDS = 5
    beat = beat_on_own_redis
    (worker,) = broker_on_own_redis.workers
    wait_for(beat.has_lock, 60, "beat taking the schedule")
    duel = services.start_game(alice, "warring_planets", {}, opponent=bob, seed=11)
    services.accept_invitation(duel.pk, bob)
    entry = journal_services.record_drawn(alice, spread="three", reversals=False, title="Morning draw")
    cards, words = journal_services.default_seal_input(entry)
    wait_for(_all_done, 60, "the warm-up mails")
    smtp_server.clear()

    own_redis.stop()
    wait_for(lambda: "Redis is away" in beat.log() or beat.process.poll() is not None, 30,
             "beat meeting the outage")

    # Work queued through the site's services while the broker is away: a turn mail, an
    # invitation, and three seals.
    duel = _move(duel)
    waiting = duel.seats.select_related("user").get(index=duel.to_act[0]).user
    services.start_game(alice, "warring_planets", {}, opponent=outsider, seed=5)
    seals = [journal_services.request_seal(entry, cards, [*words[:-1], f"{words[-1]}{n}"]) for n in range(3)]
    time.sleep(2 * SWEEP_SECONDS)  # beat ticks on, and finds Redis away, a few times
    assert beat.process.poll() is None, beat.ended()
    assert worker.process.poll() is None, worker.log_tail()
    assert PendingTask.objects.filter(done_at__isnull=True).count() >= 5
    assert not smtp_server.messages

    own_redis.start()  # the same port, and empty: the lock and the schedule's entries are gone

    wait_for(_all_done, 120, "the outbox being swept and run")
    smtp_server.wait_for(waiting.email)  # the turn mail
    smtp_server.wait_for(outsider.email)  # the invitation
    assert all(Seal.objects.get(pk=seal.pk).status == Seal.Status.DONE for seal in seals)
    # Nobody started anything again: the same two processes did it all.
    assert beat.process.poll() is None and worker.process.poll() is None
    assert beat.log().count("beat: Starting...") == 1


def test_a_beat_started_while_redis_is_down_waits_for_it_and_then_schedules(
        broker_on_own_redis, own_redis, smtp_server):
    own_redis.stop()
    env = _worker_env("redis", smtp_server)
    env.update(REDIS_URL=own_redis.url, OUTBOX_SWEEP_SECONDS=str(SWEEP_SECONDS), BEAT_LOCK_SECONDS="10")
    beat = Beat("late-redis", env)
    try:
        wait_for(lambda: "Redis is away" in beat.log() or beat.process.poll() is not None, 30,
                 "beat meeting the outage")
        time.sleep(SWEEP_SECONDS)
        assert beat.process.poll() is None, beat.ended()

        own_redis.start()

        wait_for(beat.has_lock, 60, "beat taking the schedule")
        wait_for(lambda: beat.sends() >= 1, 60, "beat sending the sweep")
    finally:
        beat.kill()
