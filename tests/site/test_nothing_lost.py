"""Nothing a committed change sets off is lost when the broker is down (the outbox).

A Redis of the test's own is the site's broker here, with a real worker on it; the test
stops that Redis, plays on through the web and by mail, starts it again, runs one sweep
and checks that every mail went out and every journal entry is there, exactly once.
"""

from __future__ import annotations

import json
import os
import signal
import time
from email.message import EmailMessage

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.mail import inbound
from games.mail.outgoing import reply_address
from games.models import Game, Seat
from journal import services as journal_services
from journal.models import Entry, Seal
from journal.tasks import seal_outputs
from sefirot_site.outbox.models import PendingTask
from sefirot_site.outbox.tasks import sweep
from tests.conftest import _worker_env
from tests.support.environment import DATA_DIR, RUN_ID
from tests.support.redis_server import RedisServer
from tests.support.workers import CeleryWorker, client_app

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _reset_connections(app) -> None:
    app._after_fork()  # drops the connection and producer pools
    app._backend_cache = None
    app._local.__dict__.pop("backend", None)


@pytest.fixture
def own_redis():
    server = RedisServer().start()
    yield server
    server.close()


class OwnBroker:
    """The site's Celery app publishing to ``redis``, with real workers started on it."""

    def __init__(self, redis: RedisServer, smtp, db_blocker):
        self.redis, self.smtp, self.db_blocker = redis, smtp, db_blocker
        self.workers: list[CeleryWorker] = []

    def start_worker(self) -> CeleryWorker:
        from sefirot_site.celery import app

        env = _worker_env("redis", self.smtp)
        env["REDIS_URL"] = self.redis.url
        worker = CeleryWorker(env=env, app=client_app(self.redis.url, self.redis.url, app.conf.task_default_queue),
                              log_path=DATA_DIR / f"worker-own-redis-{len(self.workers)}.log",
                              name=f"own-redis-{len(self.workers)}-{RUN_ID}")
        with self.db_blocker.unblock():
            worker.start()
        self.workers.append(worker)
        return worker


@pytest.fixture
def broker_on_own_redis(own_redis, settings, smtp_server, django_db_blocker):
    from sefirot_site.celery import app

    saved = {key: app.conf[key] for key in ("broker_url", "result_backend", "broker_transport_options")}
    app.conf.update(broker_url=own_redis.url, result_backend=own_redis.url,
                    broker_transport_options=settings.REDIS_BROKER_TRANSPORT_OPTIONS)
    _reset_connections(app)
    broker = OwnBroker(own_redis, smtp_server, django_db_blocker)
    broker.start_worker()
    yield broker
    for worker in broker.workers:
        worker.stop()
    app.conf.update(saved)
    _reset_connections(app)


def _leases_run_out() -> None:
    """What waiting out the outbox's leases would do (minutes), so one sweep takes them."""
    PendingTask.objects.filter(done_at__isnull=True).update(due_at=timezone.now(), running_until=None)


def _post_move(client, game, move):
    return client.post(reverse("games:move", args=[game.pk]),
                       {"version": game.version, "move": json.dumps(move)})


def _reply(seat: Seat, version: int, first_line: str) -> bytes:
    mail = EmailMessage()
    mail["From"] = seat.user.email
    mail["To"] = reply_address(seat, version)
    mail["Subject"] = "Re: your move"
    mail["Message-ID"] = "<reply-1@example.com>"
    mail.set_content(f"{first_line}\n")
    return bytes(mail)


def _finish_solo_but_the_last_move(user) -> tuple[Game, dict]:
    """A Know Thyself game one move from its end, and that last move."""
    import random

    game = services.start_game(user, "know_thyself", {"variant": "standard"}, seed=3)
    choose = random.Random(3)
    while True:
        game = Game.objects.get(pk=game.pk)
        rules = game.rules
        state = rules.loads(game.state)
        move = choose.choice(rules.legal_moves(state, 0))
        if rules.outcome(rules.apply(state, 0, move)) is not None:
            return game, move
        services.submit_move(game.pk, user, move, game.version)


def _wait(condition, timeout=60, what="it"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"{what() if callable(what) else what} did not happen within {timeout}s")


def test_moves_games_ends_mail_moves_and_invitations_while_the_broker_is_down_lose_nothing(
        broker_on_own_redis, own_redis, smtp_server, alice, bob, outsider, alice_client, bob_client):
    duel = services.start_game(alice, "warring_planets", {}, opponent=bob, seed=11)
    services.accept_invitation(duel.pk, bob)
    cooperative = services.start_game(alice, "lovers_discourse", {}, opponent=bob, seed=4)
    services.accept_invitation(cooperative.pk, bob)
    solo, last_move = _finish_solo_but_the_last_move(alice)
    _wait(lambda: not PendingTask.objects.filter(done_at__isnull=True).exists(),
          what=lambda: f"the warm-up mails: {list(PendingTask.objects.filter(done_at__isnull=True))}")
    smtp_server.clear()

    own_redis.stop()

    # A move on the web: bob must now act in the duel.
    duel = Game.objects.get(pk=duel.pk)
    (acting,) = duel.to_act
    mover = alice_client if acting == 0 else bob_client
    move = duel.rules.legal_moves(duel.load_state(), acting)[0]
    assert _post_move(mover, duel, move).status_code in (200, 302, 303)
    duel = Game.objects.get(pk=duel.pk)
    assert duel.version == 1

    # A finishing move of a solo game, and a forfeit that ends a two-player game.
    assert _post_move(alice_client, solo, last_move).status_code in (200, 302, 303)
    (waiting,) = duel.to_act
    waiting_client = alice_client if waiting == 0 else bob_client
    assert _post_move(waiting_client, duel, {"type": "forfeit"}).status_code in (200, 302, 303)

    # A move by mail in the cooperative game.
    cooperative = Game.objects.get(pk=cooperative.pk)
    (to_act,) = cooperative.to_act
    seat = cooperative.seats.select_related("user").get(index=to_act)
    outcome = inbound.handle_message(_reply(seat, cooperative.version, "1"))
    assert outcome.status == "played", outcome

    # An invitation.
    response = alice_client.post(reverse("games:new"), {"mode": "warring_planets", "opponent": "user",
                                                        "username": outsider.username})
    assert response.status_code in (302, 303), response.content.decode()[:2000]
    invited = Game.objects.filter(created_by=alice, status=Game.Status.INVITED).get()

    # The journal entries were written with the finishing moves, broker or not.
    assert Entry.objects.filter(source_game=solo, owner=alice).count() == 1
    assert Entry.objects.filter(source_game=duel).count() == 2
    # Only the answer to the mail move went out, sent straight from the receiver.
    assert [str(message["To"]) for message in smtp_server.messages] == [seat.user.email]
    smtp_server.clear()
    pending = PendingTask.objects.filter(done_at__isnull=True)
    assert pending.exists()

    own_redis.start()
    # One sweep, as beat would run it once the leases ran out.
    _leases_run_out()
    assert sweep() == pending.count()
    _wait(lambda: not PendingTask.objects.filter(done_at__isnull=True).exists(), what="the sweep's tasks")

    subjects = [str(message["Subject"]) for message in smtp_server.messages]
    to = [str(message["To"]) for message in smtp_server.messages]
    cooperative = Game.objects.get(pk=cooperative.pk)
    partner = cooperative.seats.select_related("user").get(index=cooperative.to_act[0]).user
    assert to.count(outsider.email) == 1, subjects  # the invitation
    assert any("invites you" in subject for subject in subjects)
    assert sum(1 for s in subjects if "over" in s.lower() or "ended" in s.lower() or "won" in s.lower()
               or "lost" in s.lower()) >= 2, subjects  # the solo game and the duel ended
    assert partner.email in to  # the partner's turn after the move by mail

    # A second sweep finds nothing left, and nothing is sent twice.
    count = len(smtp_server.messages)
    PendingTask.objects.update(due_at=timezone.now())
    assert sweep() == 0
    time.sleep(1)
    assert len(smtp_server.messages) == count
    assert Entry.objects.filter(source_game=solo).count() == 1
    assert invited.seats.get(user=outsider).invitation_mailed_at is not None


def test_a_seal_asked_for_while_the_broker_is_down_is_drawn_once_it_is_back(
        broker_on_own_redis, own_redis, alice, alice_client):
    entry = journal_services.record_drawn(alice, spread="three", reversals=False, title="Morning draw")
    cards, words = journal_services.default_seal_input(entry)
    own_redis.stop()

    seal = journal_services.request_seal(entry, cards, words)
    page = alice_client.get(seal.get_absolute_url())
    assert page.status_code == 200

    own_redis.start()
    _leases_run_out()
    assert sweep() == 1
    _wait(lambda: Seal.objects.get(pk=seal.pk).status == Seal.Status.DONE, timeout=120, what="the seal")


def test_a_seal_whose_worker_was_killed_mid_drawing_is_finished_by_the_next_worker_without_a_click(
        broker_on_own_redis, alice):
    entry = journal_services.record_drawn(alice, spread="three", reversals=False, title="Morning draw")
    cards, words = journal_services.default_seal_input(entry)
    (worker,) = broker_on_own_redis.workers

    seal = journal_services.request_seal(entry, cards, words)
    _wait(lambda: Seal.objects.get(pk=seal.pk).files, timeout=120, what="the first file")
    os.killpg(worker.process.pid, signal.SIGKILL)  # the whole worker, at once
    worker.process.wait()
    seal.refresh_from_db()
    assert seal.status == Seal.Status.RENDERING and len(seal.files) < len(seal_outputs())

    broker_on_own_redis.start_worker()
    # The killed run holds its claim until its time limit; then the sweep hands it on.
    _leases_run_out()
    sweep()
    _wait(lambda: Seal.objects.get(pk=seal.pk).status == Seal.Status.DONE, timeout=120, what="the seal")
    seal.refresh_from_db()
    assert len(seal.files) == len(seal_outputs())
    assert PendingTask.objects.get(task="journal.tasks.render_seal_task").done_at is not None
