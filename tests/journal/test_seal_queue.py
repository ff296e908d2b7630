"""Seal renders wait on a queue of their own, so turn mail never queues behind them (issue
38, item 18: an imported entry's 500 seals held turn mail back from 10-14 s to 100 s)."""

from __future__ import annotations

import time

import pytest
from django.conf import settings

from games import services
from games.models import Game
from journal import services as journal_services
from journal.models import Seal
from sefirot_site.outbox.models import PendingTask
from sefirot_site.processes import site_processes

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SEALS = 12


def _wait(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout}s"
        time.sleep(0.2)


def test_a_turn_mail_overtakes_a_backlog_of_seal_renders(celery_worker_process, smtp_server, alice, bob):
    duel = services.start_game(alice, "warring_planets", {}, opponent=bob, seed=11)
    services.accept_invitation(duel.pk, bob)
    _wait(lambda: not PendingTask.objects.filter(done_at__isnull=True).exists(), 60, "the warm-up mails")
    entry = journal_services.record_drawn(alice, spread="three", reversals=False, title="Morning draw")
    cards, words = journal_services.default_seal_input(entry)
    # Seals of different words: each is drawn anew (a few seconds of the worker's CPU each).
    seals = [journal_services.request_seal(entry, cards, [*words[:-1], f"{words[-1]}{n}"]) for n in range(SEALS)]
    smtp_server.clear()

    duel = Game.objects.get(pk=duel.pk)
    (acting,) = duel.to_act
    player = duel.seats.select_related("user").get(index=acting).user
    services.submit_move(duel.pk, player, duel.rules.legal_moves(duel.load_state(), acting)[0], duel.version)
    waiting = Game.objects.get(pk=duel.pk).seats.select_related("user").get(index=1 - acting).user

    smtp_server.wait_for(waiting.email, timeout=120)
    drawn = Seal.objects.filter(pk__in=[seal.pk for seal in seals], status=Seal.Status.DONE).count()

    # The one worker of the tests reads both queues and took the mail after at most the
    # render it was busy with; on one queue it came after every seal.
    assert drawn <= 2, f"{drawn} of {SEALS} seals were drawn before the turn mail went"
    # What is left of the backlog does nothing once its rows are gone.
    PendingTask.objects.filter(task="journal.tasks.render_seal_task", done_at__isnull=True).delete()


def test_the_site_runs_a_worker_for_seals_and_one_that_never_takes_them():
    processes = {process.name: process.argv for process in site_processes("127.0.0.1", 8000)}

    def queues(argv):
        return argv[argv.index("--queues") + 1].split(",")

    assert queues(processes["seals"]) == [settings.SEAL_QUEUE]
    assert queues(processes["worker"]) == [settings.CELERY_TASK_DEFAULT_QUEUE]
    assert settings.CELERY_TASK_ROUTES["journal.tasks.render_seal_task"]["queue"] == settings.SEAL_QUEUE
