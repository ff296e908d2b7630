"""Once a day is over, the worker asks the solver whether each of its deals could be won
(recorded on the deal and in the outbox first, never searched in a request), and those who
played the deal, only they, read the verdict and the winning line."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.urls import reverse

from games import services
from games.daily import services as daily
from games.daily.models import Deal, Play
from sefirot_site.outbox.models import PendingTask

from .test_daily_deal import finish

# A past deal the solver settles in a second or two (15 000 states): a winning one.
DAY, MODE = dt.date(2026, 11, 22), "dream_odyssey"


def _played_by(user, deal: Deal) -> Play:
    game = services.start_game(user, deal.mode, {"variant": deal.variant}, seed=deal.seed)
    play = Play.objects.create(deal=deal, user=user, game=game)
    finish(game)
    return Play.objects.get(pk=play.pk)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_settles_a_past_deal_and_only_its_players_read_the_line(
        celery_worker_process, alice, alice_client, bob_client):
    deal = daily.deal_for(DAY, MODE)
    assert _played_by(alice, deal).finished
    url = reverse("daily:results", args=[DAY.isoformat(), MODE])
    assert "Not settled yet: the solver is at work on it." in alice_client.get(url).content.decode()

    assert daily.queue_solves() == 1
    assert daily.queue_solves() == 0  # asked once
    assert PendingTask.objects.get(task="daily.solve_deal").args == [deal.pk]
    give_up = time.monotonic() + 150
    while time.monotonic() < give_up:
        deal.refresh_from_db()
        if deal.solver not in (Deal.Solver.NOT_ASKED, Deal.Solver.QUEUED):
            break
        time.sleep(0.5)
    assert deal.solver == Deal.Solver.WINNABLE, deal.solver
    assert deal.solver_line and deal.solved_at is not None

    page = alice_client.get(url).content.decode()
    assert f"Yes: the solver found a winning line of {len(deal.solver_line)} moves." in page
    assert "The solver&#x27;s line" in page or "The solver's line" in page
    refused = bob_client.get(url)
    assert refused.status_code == 403 and "did not play" in refused.content.decode()
    assert "winning line" not in refused.content.decode()
    assert daily.solve(deal.pk) == "nothing to do"  # a verdict is kept, never searched again
