"""The outbox's own rules: a pending task runs once, a failing one waits longer each time
and is given up after the last attempt, the sweep publishes only what is due."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import services
from games.models import Seat
from sefirot_site.outbox import enqueue
from sefirot_site.outbox.models import PendingTask
from sefirot_site.outbox.tasks import MAX_ATTEMPTS, run_pending, sweep
from tests.support.net import free_port

pytestmark = pytest.mark.django_db


def _invitation(alice, bob) -> PendingTask:
    services.start_game(alice, "warring_planets", {}, opponent=bob, seed=1)
    return PendingTask.objects.get(task="games.tasks.send_invitation_mail")


def test_a_change_records_its_mail_in_its_own_transaction(alice, bob):
    with pytest.raises(RuntimeError), transaction.atomic():
        services.start_game(alice, "warring_planets", {}, opponent=bob, seed=1)
        assert PendingTask.objects.count() == 1
        raise RuntimeError("the change rolls back")
    assert PendingTask.objects.count() == 0


def test_a_pending_task_runs_once_and_is_marked_done(alice, bob, smtp_server):
    row = _invitation(alice, bob)
    assert run_pending(row.pk) == "sent"
    assert run_pending(row.pk) == "nothing to do"
    row.refresh_from_db()
    assert row.done_at is not None and row.attempts == 1
    assert len(smtp_server.messages_to(bob.email)) == 1


def test_a_failing_task_waits_longer_each_time_and_is_given_up_after_the_last_attempt(alice, bob, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nobody listens
    row = _invitation(alice, bob)
    pauses = []
    for attempt in range(1, MAX_ATTEMPTS + 1):
        before = timezone.now()
        assert run_pending(row.pk) == "failed"
        row.refresh_from_db()
        assert row.attempts == attempt and "Error" in row.last_error
        if attempt < MAX_ATTEMPTS:
            assert row.failed_at is None
            pauses.append(row.due_at - before)
    assert row.failed_at is not None
    assert pauses == sorted(pauses) and pauses[0] >= timedelta(seconds=25)
    assert run_pending(row.pk) == "nothing to do"
    assert Seat.objects.get(pk=row.args[0]).invitation_mailed_at is None


def test_the_sweep_publishes_only_what_is_due(alice, bob):
    row = _invitation(alice, bob)
    assert sweep() == 0  # its lease has not run out: the publish after commit has it
    PendingTask.objects.filter(pk=row.pk).update(due_at=timezone.now() - timedelta(seconds=1))
    assert sweep() == 1
    assert sweep() == 0  # published again only once a new lease ran out
    row.refresh_from_db()
    assert row.published_at is not None


def test_a_recorded_task_is_published_once_its_transaction_commits(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        row = enqueue("sefirot_site.ping")
        assert row.published_at is None
    row.refresh_from_db()
    assert row.published_at is not None
