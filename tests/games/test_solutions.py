"""The solver on the site (issue 40, item 1): once a solo game is over, a worker searches its
whole deal, and the game's players read the verdict on its page: "This deal could be won"
with the winning line to walk through step by step, "No line wins this deal", or "Not
settled in N s"; the progress while it runs; where the player's line left the winning one.
Only the game's players see any of it: an outsider gets 404."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from games.solutions.models import SolverJob
from games.solutions.services import first_departure, run_job, verdict_for
from games.solver import replay, solve
from sefirot_site.outbox.models import PendingTask

from .conftest import play_random_moves, reload

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
# Know Thyself's deal of seed 0 is settled winnable within a few thousand positions
# (tests/engine/test_solver.py); random play loses it.
WINNABLE_SEED = 0


@pytest.fixture
def small_budget(settings):
    # Enough to settle the deal of WINNABLE_SEED, and to keep each follow-up search short.
    settings.SOLVER_MAX_NODES = 20_000
    settings.SOLVER_MAX_SECONDS = 20
    return settings


def finished_game(user, slug="know_thyself", seed=WINNABLE_SEED) -> Game:
    game = services.start_game(user, slug, seed=seed)
    for n in range(40):
        game = play_random_moves(game, 50, seed=n)
        if game.status != Game.Status.ACTIVE:
            break
    assert game.status == Game.Status.FINISHED
    return game


def solution_url(game, **query) -> str:
    url = reverse("games:solution", args=[game.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_a_finished_solo_game_records_its_search_and_queues_it_with_the_move_that_ended_it(alice, small_budget):
    game = finished_game(alice)

    job = SolverJob.objects.get(game=game)
    assert job.status == SolverJob.Status.PENDING
    assert (job.max_nodes, job.max_seconds) == (20_000, 20)
    assert PendingTask.objects.filter(task="games.solve_deal", args=[game.pk]).count() == 1
    # Asked again (the page's button, a sweep): the same row, nothing queued twice.
    from games.solutions.services import request_solve

    assert request_solve(game) == job
    assert PendingTask.objects.filter(task="games.solve_deal", args=[game.pk]).count() == 1


def test_a_game_the_solver_does_not_search_gets_no_job(alice, bob):
    duel = services.start_game(alice, "warring_planets", opponent=bob, seed=5)
    services.accept_invitation(duel.pk, bob)
    play_random_moves(duel, 400)
    assert not SolverJob.objects.filter(game=duel).exists()


def test_the_page_shows_the_search_waiting_then_running_with_its_progress(alice, alice_client, small_budget):
    game = finished_game(alice)
    page = alice_client.get(solution_url(game)).content.decode()
    assert "Waiting for the search" in page
    assert 'hx-trigger="every 2s"' in page and '<meta http-equiv="refresh"' in page  # polls, with or without JS

    SolverJob.objects.filter(game=game).update(status=SolverJob.Status.RUNNING, nodes=12345, seconds=1.5)
    partial = alice_client.get(solution_url(game), **HX).content.decode()
    assert partial.lstrip().startswith('<div id="solution"')
    assert "Searching the deal" in partial and "12345 positions in 1.5 s" in partial
    assert "<html" not in partial


def test_a_winnable_deal_shows_its_line_and_where_the_player_left_it(alice, alice_client, small_budget):
    game = finished_game(alice)
    assert run_job(game.pk) == "won"
    assert run_job(game.pk) == "nothing to do"  # idempotent: a settled job stays settled

    job = SolverJob.objects.get(game=game)
    rules = game.rules
    first = rules.replay(game.seed, game.players, game.options, [])
    assert rules.outcome(replay(rules, first, job.line))["result"] == "win"
    verdict = verdict_for(reload(game))
    assert verdict["headline"] == "This deal could be won"
    assert verdict["left_at"] is not None and 1 <= verdict["left_at"] <= game.moves.count()
    assert verdict["summary"].startswith(f"winnable; you left the winning path at move {verdict['left_at']}")

    review = alice_client.get(reverse("games:review", args=[game.pk])).content.decode()
    assert f"Winnable; you left the winning path at move {verdict['left_at']}" in review
    assert f'<a href="{solution_url(game)}">Walk the winning line</a>' in review

    page = alice_client.get(solution_url(game)).content.decode()
    assert "This deal could be won" in page and "every 2s" not in page
    assert f"left the winning path at move {verdict['left_at']}" in page
    assert f"Move 0 of {len(job.line)}" in page and "The deal as it was dealt." in page
    assert 'rel="next"' in page and 'rel="prev"' not in page


def test_the_winning_line_is_walked_step_by_step_with_and_without_javascript(alice, alice_client, small_budget):
    game = finished_game(alice)
    run_job(game.pk)
    line = SolverJob.objects.get(game=game).line

    second = alice_client.get(solution_url(game, step=2)).content.decode()
    assert f"Move 2 of {len(line)}" in second
    assert re.search(r'<p class="turn">2\. You: ', second)
    assert f'href="?step=1"' in second and f'href="?step=3"' in second
    assert 'aria-current="step"' in second

    swapped = alice_client.get(solution_url(game, step=3), **HX).content.decode()
    assert swapped.lstrip().startswith('<div id="replay"') and f"Move 3 of {len(line)}" in swapped

    end = alice_client.get(solution_url(game, step=len(line))).content.decode()
    assert f"Move {len(line)} of {len(line)}" in end and 'rel="next"' not in end
    # A step out of range is the nearest end; words are not a step.
    assert f"Move {len(line)} of" in alice_client.get(solution_url(game, step=10_000)).content.decode()
    assert "Move 0 of" in alice_client.get(solution_url(game, step="two")).content.decode()


def test_a_deal_no_line_wins_and_one_not_settled_say_so(alice, alice_client, small_budget):
    lost, open_ = finished_game(alice), finished_game(alice, seed=3)
    SolverJob.objects.filter(game=lost).update(status=SolverJob.Status.LOST, nodes=5000, seconds=2.0)
    SolverJob.objects.filter(game=open_).update(status=SolverJob.Status.UNDECIDED, nodes=90000, seconds=30.2, limit="time")

    lost_page = alice_client.get(solution_url(lost)).content.decode()
    assert "No line wins this deal" in lost_page and "Move 0" not in lost_page
    assert verdict_for(lost)["summary"] == "no line wins this deal, whatever you played"
    open_page = alice_client.get(solution_url(open_)).content.decode()
    assert "Not settled in 30 s" in open_page and "every 2s" not in open_page


def test_the_game_page_links_to_the_verdict_once_the_game_is_over(alice, alice_client, small_budget):
    live = services.start_game(alice, "know_thyself", seed=5)
    assert reverse("games:solution", args=[live.pk]) not in alice_client.get(reverse("games:game", args=[live.pk])).content.decode()
    assert alice_client.get(solution_url(live)).status_code == 404
    game = finished_game(alice)
    page = alice_client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f'href="{solution_url(game)}"' in page and "Could this deal be won?" in page


def test_a_game_finished_before_the_solver_came_can_be_searched_by_asking(alice, alice_client, small_budget):
    game = finished_game(alice)
    SolverJob.objects.filter(game=game).delete()
    page = alice_client.get(solution_url(game)).content.decode()
    assert "Search this deal" in page
    answer = alice_client.post(solution_url(game))
    assert answer.status_code == 302
    assert SolverJob.objects.get(game=game).status == SolverJob.Status.PENDING


def test_a_search_that_keeps_failing_is_given_up_after_a_few_attempts(alice, alice_client, small_budget):
    game = finished_game(alice)
    # A deal the engine cannot rebuild (its mode's options broken): each attempt raises,
    # and the job goes back to waiting for the outbox's next try, until the last.
    Game.objects.filter(pk=game.pk).update(seed=-1, options={"variant": "no such variant"})
    for attempt in range(1, 4):
        with pytest.raises(Exception):
            run_job(game.pk)
        job = SolverJob.objects.get(game=game)
        assert (job.status, job.attempts) == (SolverJob.Status.PENDING, attempt) and job.error
    assert run_job(game.pk) == "failed"
    assert SolverJob.objects.get(game=game).status == SolverJob.Status.FAILED
    assert "The search could not be run" in alice_client.get(solution_url(game)).content.decode()


def test_an_outsider_gets_nothing(alice, outsider_client, small_budget):
    game = finished_game(alice)
    run_job(game.pk)
    assert outsider_client.get(solution_url(game)).status_code == 404
    assert outsider_client.get(solution_url(game, step=3)).status_code == 404
    assert outsider_client.get(solution_url(game), **HX).status_code == 404
    assert outsider_client.post(solution_url(game)).status_code == 404


def test_the_departure_is_the_first_move_off_every_known_winning_line():
    from games.engine import get_rules

    rules = get_rules("know_thyself")
    first = rules.new_game(WINNABLE_SEED, 1, {"variant": "standard"})
    line = solve(rules, first, max_nodes=20_000, max_seconds=None).line
    record = [(0, move) for move in line]
    assert first_departure(rules, first, record, [line]) is None  # the line itself wins

    # Off at move 5: four moves of the line, then one that reaches a position it never does.
    state = replay(rules, first, line[:4])
    on_line = {repr(sorted(replay(rules, first, line[:n]).items())) for n in range(len(line) + 1)}
    other = next(m for m in rules.legal_moves(state, 0)
                 if repr(sorted(rules.apply(state, 0, m).items())) not in on_line and m != line[4])
    departed = record[:4] + [(0, other)]
    assert first_departure(rules, first, departed, [line]) == 5
    # A second winning line that goes through the player's move puts the departure later.
    after = rules.apply(state, 0, other)
    again = solve(rules, after, max_nodes=50_000, max_seconds=None)
    if again.line is not None:
        assert first_departure(rules, first, departed, [line, line[:4] + [other] + again.line]) is None


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_settles_the_deal_after_the_game_ends_and_the_page_follows(
        celery_worker_process, alice, alice_client, small_budget):
    import time

    game = finished_game(alice)
    deadline = time.monotonic() + 180
    while SolverJob.objects.get(game=game).is_open:
        assert time.monotonic() < deadline, celery_worker_process.log_tail()
        time.sleep(0.5)
    job = SolverJob.objects.get(game=game)
    assert job.status == SolverJob.Status.WON and job.attempts == 1 and job.nodes > 0
    rules = game.rules
    assert rules.outcome(replay(rules, rules.replay(game.seed, 1, game.options, []), job.line))["result"] == "win"
    # The outbox's row is done: nothing is left for a sweep to redo.
    assert PendingTask.objects.get(task="games.solve_deal", args=[game.pk]).done_at is not None
    # Sent again to the worker (a sweep, a doubled publish): nothing changes.
    result = celery_worker_process.app.send_task("games.solve_deal", args=[game.pk],
                                                 queue=celery_worker_process.seal_queue).get(timeout=60)
    assert result == "nothing to do"
    assert SolverJob.objects.get(game=game).finished_at == job.finished_at
    page = alice_client.get(solution_url(game)).content.decode()
    assert "This deal could be won" in page


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_stops_at_the_budget_and_a_lost_job_is_swept_up_again(
        celery_worker_process, alice, alice_client, settings):
    import time
    from datetime import timedelta

    from django.utils import timezone

    from games.solutions.services import sweep

    settings.SOLVER_MAX_NODES = 200  # far too few to settle any deal
    settings.SOLVER_MAX_SECONDS = 20
    game = finished_game(alice, seed=3)
    deadline = time.monotonic() + 180
    while SolverJob.objects.get(game=game).is_open:
        assert time.monotonic() < deadline, celery_worker_process.log_tail()
        time.sleep(0.5)
    job = SolverJob.objects.get(game=game)
    assert job.status == SolverJob.Status.UNDECIDED and job.limit == "nodes"
    assert f"Not settled in {round(job.seconds)} s" in alice_client.get(solution_url(game)).content.decode()

    # A job whose worker died mid-search (running, its heartbeat old) is queued again by
    # the sweep and settled by the worker.
    SolverJob.objects.filter(game=game).update(status=SolverJob.Status.RUNNING,
                                               heartbeat_at=timezone.now() - timedelta(hours=1))
    assert sweep() == 1
    while SolverJob.objects.get(game=game).is_open:
        assert time.monotonic() < deadline, celery_worker_process.log_tail()
        time.sleep(0.5)
    job = SolverJob.objects.get(game=game)
    assert job.status == SolverJob.Status.UNDECIDED and job.attempts == 2
