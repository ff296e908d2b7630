"""A person plays a whole game of Warring Planets against the computer in real Chromium:
the computer's moves come from a real worker, the page follows them by itself, and the
game ends on the page."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import expect

from games import services
from games.computer import computer_player
from games.models import Game

from .conftest import reload
from .test_browser import logged_in_page, play_one_move

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

MAX_MOVES = 300
POLL_INTERVAL_MS = 3_000  # how often a page waiting for the other side asks (games/views.py)


def test_a_person_plays_warring_planets_against_the_computer_to_the_end(
        browser, live_server, celery_worker_process, alice):
    game = services.start_game(alice, "warring_planets", opponent=computer_player("greedy"), seed=9)
    context, page = logged_in_page(browser, live_server, alice)
    # The page's own clock, which runs as a real one: the test moves it on to the page's
    # next poll rather than waiting up to a poll's interval (3 s) after each computer move.
    context.clock.install()
    choose = random.Random(9)
    try:
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#status")).to_contain_text("Hermes (computer)")
        moves = 0
        while moves < MAX_MOVES:
            game = reload(game)
            if game.status != Game.Status.ACTIVE:
                break
            if game.to_act != [0]:
                deadline = time.monotonic() + 90
                while reload(game).to_act == [1] and reload(game).status == Game.Status.ACTIVE:
                    assert time.monotonic() < deadline, "the computer did not answer"
                    time.sleep(0.3)
                continue
            # The page caught up by itself (its polling) before the person plays on.
            # (the log shows a window of the newest moves: the computer's move is its last line)
            log = page.locator("#log .log-list li")
            page.clock.fast_forward(POLL_INTERVAL_MS)
            if game.version:
                expect(log.last).to_have_attribute("value", str(game.version), timeout=30_000)
            else:
                expect(log).to_have_count(0)
            expect(page.locator("#status .turn")).to_have_text("Your turn.")
            play_one_move(page, game, 0, choose)
            moves += 1
            # The move went through the page (the computer may already have answered).
            deadline = time.monotonic() + 30
            while reload(game).version == game.version:
                assert time.monotonic() < deadline, "the move was not sent"
                time.sleep(0.1)
        game = reload(game)
        assert game.status == Game.Status.FINISHED, f"still going after {moves} moves"
        # The end shows on the page without a reload.
        expect(page.locator("#status .outcome")).to_be_visible(timeout=30_000)
        expect(page.locator("#status")).to_contain_text("Winner")
    finally:
        context.close()
