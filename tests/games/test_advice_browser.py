"""In Chromium: a Know Thyself game played by pressing Hint before every move and making the
move it names, as a person would, reviews as "the computer agrees with all your moves" (the
hint and the review ask one advisor).  The advisor's budget is small here (ADVICE_ITERATIONS)
and the same for both; the review is made in this process, as the worker would make it."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games import services
from games.computer.advice import advised
from games.computer.tasks import review_solo_game
from games.engine.words import for_reader
from games.models import Game

from .conftest import reload
from .test_browser import logged_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _click(page, move: dict) -> None:
    """The move's button, after picking its card where the board asks for one first."""
    value = json.dumps(move, sort_keys=True, separators=(",", ":"))
    field = f"input[name=move][value='{value}']"
    if "card" in move and not page.locator(f"#hand .choices {field}").count():
        page.locator(f'a.pick[href="?pick={move["card"]}"]').first.click()
    page.locator("form.move-form").filter(has=page.locator(field)).locator("button").first.click()
    if page.locator(".confirm").count():
        page.locator(".confirm button").click()


def test_a_know_thyself_game_played_by_every_hint_reviews_as_agreeing_with_all_your_moves(
        browser, live_server, alice, settings):
    settings.ADVICE_ITERATIONS = 10
    game = services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=7)
    seat = game.seats.get(index=0)
    context, page = logged_in_page(browser, live_server, alice)
    context.set_default_timeout(60_000)  # a loaded machine: generous waits, no timing asserted
    try:
        page.goto(f"/games/{game.pk}/")
        while game.status == Game.Status.ACTIVE:
            page.get_by_role("button", name="Hint").click()
            got = advised(game, seat)
            words = for_reader(got["words"], 0, {0: seat.player_name})
            expect(page.locator("#status .message.notice")).to_contain_text(
                "The computer would: " + words[:1].lower() + words[1:], timeout=30_000)
            _click(page, got["move"])
            page.wait_for_function(
                """(v) => { const f = document.querySelector('form.move-form input[name=version]');
                           return !f || f.value !== v; }""", arg=str(game.version), timeout=30_000)
            game = reload(game)
        assert game.moves.count() == game.version
        page.goto(f"/games/{game.pk}/review/")
        page.get_by_role("button", name="Review my game").click()
        expect(page.locator(".review p[role=status]")).to_contain_text("going through your game")
        # A worker of this test process (started for an earlier test) may have made it
        # already, on the same budget (ADVICE_ITERATIONS, tests/support/environment.py).
        assert review_solo_game(game.pk) in ("reviewed", "nothing to do")
        # The waiting page refreshes by itself (every 5 s) and shows the review.
        expect(page.locator(".review-summary")).to_contain_text("The computer agrees with all your moves",
                                                              timeout=30_000)
        expect(page.locator("li.differs")).to_have_count(0)
    finally:
        context.close()
