"""In real Chromium: the your-turn count follows the game page's polling, and the history
steps with the keyboard's arrows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game

from .conftest import play_random_moves
from .test_phone_and_boards import DESKTOP, page_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_turn_count_in_title_and_navigation_follows_the_polling(browser, live_server, alice, bob):
    game = services.start_game(alice, "warring_planets", {"variant": "standard"}, opponent=bob, seed=5)
    services.accept_invitation(game.pk, bob)
    game = Game.objects.get(pk=game.pk)
    mover = game.to_act[0]
    waiting_user = (alice, bob)[1 - mover]
    context, page = page_for(browser, live_server, waiting_user, DESKTOP)
    try:
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#turn-count")).to_be_hidden()
        assert not page.title().startswith("(")
        # A solo game started elsewhere waits for them: the next poll (every 3 s here) says so.
        services.start_game(waiting_user, "know_thyself", {"variant": "standard"}, seed=1)
        expect(page.locator("#turn-count")).to_have_text(re.compile(r"\b1$"), timeout=15_000)
        expect(page).to_have_title("(1) Warring Planets #%d · Sefirot Online" % game.pk)
        # The other player moves: this game waits for them too, and the page refreshes itself.
        state = game.load_state()
        move = next(m for m in game.rules.legal_moves(state, mover) if m["type"] != "forfeit")
        services.submit_move(game.pk, game.seats.get(index=mover), move, game.version)
        if Game.objects.get(pk=game.pk).to_act == [1 - mover]:
            expect(page.locator("#turn-count")).to_have_text(re.compile(r"\b2$"), timeout=15_000)
            expect(page).to_have_title("(2) Warring Planets #%d · Sefirot Online" % game.pk)
    finally:
        context.close()


def test_the_history_steps_with_the_arrow_keys(browser, live_server, alice):
    game = play_random_moves(services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=7), 500, seed=7)
    context, page = page_for(browser, live_server, alice, DESKTOP)
    try:
        page.goto(f"/games/{game.pk}/history/?step=0")
        expect(page.locator(".stepper span")).to_contain_text("Move 0 of")
        page.keyboard.press("ArrowRight")
        expect(page.locator(".stepper span")).to_contain_text("Move 1 of")
        page.keyboard.press("ArrowRight")
        expect(page.locator(".stepper span")).to_contain_text("Move 2 of")
        page.keyboard.press("ArrowLeft")
        expect(page.locator(".stepper span")).to_contain_text("Move 1 of")
        page.keyboard.press("End")
        expect(page.locator(".stepper span")).to_contain_text(f"Move {game.version} of {game.version}")
        page.keyboard.press("Home")
        expect(page.locator(".stepper span")).to_contain_text("Move 0 of")
    finally:
        context.close()
